"""The owner's Tahiti track order, recorded on the phone (the "Trace the board" screen).

The rule book does not give the order of the 12 track spaces (docs/tahiti.md), so the owner
goes round their own board clockwise from any space (it becomes space 0) and records each
space's letter and pearl. A draft is ``{"track": [entry or None] * 12}``; :func:`apply` makes
one change (``{"op": "set", "index": i, "letter": "A", "pearl": "green"}`` or ``{"op":
"clear", "index": i}``) and :func:`finished` / :func:`problem` turn it into the board file the
engine loads (checked by the same loader, :func:`.board.board_from_dict`).
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from ...i18n import T, Text, Tn
from ..base import SetupError
from .board import LETTERS, PEARLS, TRACK_LENGTH, board_from_dict
from .words import a_pearl

OPS = ("set", "clear")


class DraftError(SetupError):
    """A change that cannot be made: one line naming the field."""


def new_draft() -> dict[str, Any]:
    return {"track": [None] * TRACK_LENGTH}


def _index(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < TRACK_LENGTH:
        raise DraftError(T("'index' must be a track space, 0 to {last}, got {value}", last=TRACK_LENGTH - 1,
                           value=repr(str(value)[:40])))
    return value


def apply(draft: Mapping[str, Any], request: Any) -> tuple[dict[str, Any], Text]:
    """One change: the new draft (``draft`` is not changed) and what was done, in one line."""
    if not isinstance(request, Mapping):
        raise DraftError(T("send the change as an object {example}", example='{"op": ..., ...}'))
    op = request.get("op")
    if op not in OPS:
        raise DraftError(T("'op' must be one of {ops}, got {value}", ops=", ".join(OPS), value=repr(str(op)[:40])))
    new = copy.deepcopy(dict(draft))
    i = _index(request.get("index"))
    if op == "clear":
        new["track"][i] = None
        return new, T("track space {index} cleared", index=i)
    letter, pearl = request.get("letter"), request.get("pearl")
    if letter not in LETTERS:
        raise DraftError(T("'letter' must be one of {letters}, got {value}", letters=", ".join(LETTERS),
                           value=repr(str(letter)[:40])))
    if pearl not in PEARLS:
        raise DraftError(T("'pearl' must be one of {pearls}, got {value}", pearls=", ".join(PEARLS),
                           value=repr(str(pearl)[:40])))
    new["track"][i] = {"letter": letter, "pearl": pearl}
    return new, T("track space {index}: {letter} with {pearl}", index=i, letter=letter, pearl=a_pearl(pearl))


def finished(draft: Mapping[str, Any], name: str | None = None) -> dict[str, Any]:
    """The board file: the recorded order, the owner's real board (not provisional)."""
    return {"name": name or "my board (recorded)", "provisional": False,
            "track": [dict(s) if s else None for s in draft["track"]]}


def problem(draft: Mapping[str, Any], source: str | None = None) -> str | None:
    """Why the engine would refuse the recorded track (one line), or ``None`` when it loads."""
    source = T("the recorded track") if source is None else source
    missing = [i for i, s in enumerate(draft["track"]) if not s]
    if missing:
        return Tn("{source}: track space {spaces} not recorded yet ({done} of {total})",
                  "{source}: track spaces {spaces} not recorded yet ({done} of {total})", len(missing),
                  source=source, spaces=", ".join(map(str, missing)), done=TRACK_LENGTH - len(missing),
                  total=TRACK_LENGTH)
    try:
        board_from_dict(finished(draft), source)
    except SetupError as exc:
        return exc.text
    return None


def counts(draft: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """How often each letter and pearl is recorded (the provisional board has each letter twice and
    each pearl three times; the page shows the counts as a check, the loader does not require them)."""
    letters = {k: 0 for k in LETTERS}
    pearls = {k: 0 for k in PEARLS}
    for s in draft["track"]:
        if s:
            letters[s["letter"]] += 1
            pearls[s["pearl"]] += 1
    return {"letters": letters, "pearls": pearls}
