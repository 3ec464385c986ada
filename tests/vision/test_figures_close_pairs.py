"""Two figures whose pictures join into one blob across a seam (issue 14, session figwrong13).

A blob of one colour longer or larger than one figure's picture is cut into halves (``vision.pieces._two_figures``).
Two cases lost a figure there (one solved), on the bench's Neues Land boards:

- the halves were found but one read another colour by itself: a green figure 16 mm behind a blue one made one blob
  of 288 mm^2 and 32 mm voting 22 blue to 7 green, too few green votes to split it by colour, and the green half was
  refused (``FigureFinder.halves_own_core``: a colour with a core of its own in the blob may name a half);
- (not solved) two red figures one behind the other along the lean made one blob of 408 mm^2 whose halves lay 12 mm
  apart along it, as one figure's do: a bar on the area (380 mm^2) found it, but one figure's picture at the widest
  lean (``test_figures_joined.py``'s 25 x 12 mm) is 418 mm^2 and 28 mm, as large, and was split. Not kept.

The test reads the bench's board (Neues Land on its scans; skipped without ../shared) with the rule on, where the
lost figure is seen, and off, where it is lost as before.
"""
from __future__ import annotations

import cv2
import pytest

from tests.vision.conftest import BENCH
from tests.vision.test_sued_fig_hidden import _bench_board
from vision.pieces import FigureFinder


def _rule_off(monkeypatch, name: str, value) -> None:
    """Every figure finder made from now on with ``name`` set to ``value`` (a dataclass: its fields are set in
    ``__init__``, not read from the class)."""
    init = FigureFinder.__init__

    def patched(self, *args, **kwargs):
        init(self, *args, **kwargs)
        setattr(self, name, value)
    monkeypatch.setattr(FigureFinder, "__init__", patched)


def _figures(seed: int, family: str, level: str, board: int) -> tuple[list, set]:
    """The board's figure errors (the bench's words) and the figures seen, as (x, y, colour)."""
    rec, obs, truth = _bench_board(seed, family, board, game="neuesland", level=level)
    tally = BENCH.Tally()
    BENCH.score_board(rec, obs, truth, tally, "board")
    return [e for e in tally.errors if "figure" in e], {(f.x, f.y, f.colour) for f in obs.figures}


def test_a_half_of_a_colour_with_its_own_core_is_a_figure(monkeypatch):
    with monkeypatch.context() as m:
        _rule_off(m, "halves_own_core", False)
        errors, seen = _figures(12, "sim", "default", 4)
        assert (-2, -1, "green") not in seen and any("green" in e and "not seen" in e for e in errors), errors
    if cv2.__version__.startswith("4."):
        # the Pi's OpenCV 4.11 reads this board a little otherwise: one window splits the pair by colour (blue 183,
        # green 102 mm^2), the next sees one blue picture of 267 mm^2 whose halves are not far enough apart, and the
        # green sighting is dropped against it (session figwrong13: not solved)
        pytest.xfail("OpenCV 4: the green is lost another way")
    errors, seen = _figures(12, "sim", "default", 4)
    assert not errors, errors
    assert {(-2, -1, "green"), (-2, -2, "blue")} <= seen
