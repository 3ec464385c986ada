"""A figure whose lit top reads off its colour is still a figure where tiles are scored (``_covered``).

A glossy figure seen from above shows a highlight on its top; at the covered test's half resolution what is left
of it in its calibrated colour is a ring or a crescent, and once its pixels fell below the figure blob's least
area (40 mm2) the figure was not left out of its tile's scores. In the whole Neues Land game on the scans
(``tests/live/test_e2e.py``) this cost a phone question: ds033 at (0, 2) with a red figure on it read at 0.30
against ds060, after the enrolment's square start reference put the game's grid 0.9 mm nearer the truth and the
figure's red split into a crescent of 39 mm2 and a piece of 14 mm2 (session ``sfield4``). The footprint, the
pixels' convex hull, is what is measured against the least area now; pieces are never merged.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.figurereading import _lit_top_rings


PAINT = (94.0, 166.0, 152.0)         # the calibrated red of the e2e game (OpenCV 8-bit Lab)
LIT = (119.0, 183.0, 162.0)          # its figure's lit top there
SEA = (190.0, 118.0, 110.0)

CRESCENT = np.array([[0, 1, 1, 0, 0],
                     [1, 0, 0, 1, 0],
                     [1, 0, 0, 0, 0],
                     [1, 0, 0, 1, 0],
                     [0, 1, 1, 0, 0]], np.uint8)
"""9 half-resolution pixels (32 mm2 at 1.875 mm a pixel), open on the right: no hole to fill."""


def _judge(mask: np.ndarray, inside: tuple, paint: tuple = PAINT, mm: float = 1.875) -> list[bool]:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    area = stats[:, cv2.CC_STAT_AREA] * mm * mm
    longest = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) * mm
    lab = np.empty(mask.shape + (3,), np.float32)
    lab[:] = inside
    lab[mask > 0] = paint
    return _lit_top_rings(labels, stats, area, longest, 40.0, 30.0, mm, lab, paint)[1:].tolist()


def test_a_crescent_around_its_lit_top_is_a_figure():
    mask = np.pad(CRESCENT, 2)
    assert CRESCENT.sum() * 1.875 ** 2 < 40, "short of the figure blob's 40 mm2 by its pixels"
    assert _judge(mask, LIT) == [True]


def test_the_same_crescent_around_other_art_is_not():
    """Around sea (a red reef's edge), around sand, or in a colour without a hue (black: no lit top to tell)."""
    mask = np.pad(CRESCENT, 2)
    assert _judge(mask, SEA) == [False]
    assert _judge(mask, (200.0, 133.0, 158.0)) == [False]                      # sand
    assert _judge(mask, (90.0, 128.0, 126.0), paint=(40.0, 128.0, 130.0)) == [False]


def test_strokes_and_specks_are_not():
    """A straight stroke of the colour has no footprint beyond its pixels; a speck is too small to look at."""
    stroke = np.zeros((9, 14), np.uint8)
    stroke[4, 2:11] = 1
    speck = np.zeros((9, 9), np.uint8)
    speck[4:6, 4:6] = 1
    for mask in (stroke, speck):
        assert _judge(mask, LIT) == [False]


def test_a_figure_with_a_highlight_is_covered(suedsee):
    """On a canvas (sea blue around) a figure in the calibrated red, 11 px across (10 mm), its top lit 7 px
    across (lighter and more saturated, as the e2e game's red figure: ``LIT`` against ``PAINT``): covered."""
    rec = suedsee.recognizer()
    red = next(c for c in rec.colours.colours if c.name == "red")
    paint = np.float32(red.lab)
    lit = paint + (np.float32(LIT) - np.float32(PAINT))

    def bgr(lab):
        return cv2.cvtColor(np.uint8([[np.clip(lab, 0, 255)]]), cv2.COLOR_Lab2BGR)[0, 0].tolist()

    canvas = np.full((96, 96, 3), (200, 170, 90), np.uint8)     # a sea's blue
    cv2.ellipse(canvas, (48, 48), (5, 5), 0, 0, 360, bgr(paint), -1)
    plain = canvas.copy()
    cv2.ellipse(canvas, (48, 47), (3, 3), 0, 0, 360, bgr(lit), -1)
    assert rec._covered(plain)[0][46:51, 46:51].all(), "the figure without a highlight is covered (a sound canvas)"
    covered, _ = rec._covered(canvas)
    # its red at half resolution: a crescent of 9 pixels (32 mm2) and a speck; before, nothing was covered
    assert covered[40:57, 40:57].mean() > 0.4, "the figure with its lit top is covered"
