"""The bridge to the vision side's recognizer (:mod:`vision.recognize`), imported lazily.

:func:`make_recognizer` returns a callable ``frame -> observation`` for the tracker,
or raises :class:`RecognitionUnavailable` with the reason (no recognizer in this
build, no enrolment yet) so the hub can still run camera-less: every game stays
playable from the phone.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

import numpy as np

from ..games.base import TablehubError
from ..i18n import T, reason

log = logging.getLogger(__name__)


class RecognitionUnavailable(TablehubError):
    pass


def make_recognizer(game: str, catalog: str | None = None, references: str | None = None,
                    sim: Any = None, **kw: Any) -> Callable[[np.ndarray], Any]:
    """A recognizer for ``game`` from enrolled ``references`` (a folder), or enrolled from ``sim`` (a
    :class:`~tablehub.tracking.simtable.SimTable`); ``kw`` go to vision (``lens=``)."""
    try:
        from vision.loader import for_tracker
    except ImportError as exc:
        raise RecognitionUnavailable(T("table recognition is not in this build ({why}); play from the phone",
                                       why=str(exc))) from None
    try:
        return for_tracker(game=game, catalog=catalog, references=references, sim=sim, **kw)
    except Exception as exc:  # vision's own one-line errors (no references, no markers in the enrolment)
        raise RecognitionUnavailable(T("table recognition is off: {why}",
                                       why=reason(exc))) from None
