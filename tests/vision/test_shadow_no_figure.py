"""A figure's shadow beside it is no figure of its own, though the dimmed art reads as a player's paint (issue 14).

Under Südsee's field camera at ``hard`` the sea dimmed by a figure's shadow lies within the colour distance of the
dark blue paint: a red figure's shadow over the sea was read as a blue figure of 88 mm^2 beside it (bench ``--camera
field --levels hard``, seed 3 board 7; 92 % of its pixels darker than the sea by one factor in every channel), a
yellow figure's as one of 74 mm^2 (seed 1 board 4, 94 %). A figure's picture is never that small (its foot alone is
16 x 8 mm, 130-290 mm^2 on the bench), and only something dark dims the art alike in every channel. The colours and
the sea are that camera's (``test_figure_toward_paint``); the shadow is drawn here, not by the bench's renderer: a disc
of the sea dimmed 0.45-0.65 with a soft edge, and noise of that frame's grain.
"""
from dataclasses import replace

import cv2
import numpy as np

from tests.vision.test_figure_toward_paint import COLOURS, SEA, SIDE, _disc, _find, _noise
from vision.colourcast import lab_to_bgr
from vision.pieces import FigureFinder


def _sea() -> np.ndarray:
    art = np.empty((SIDE, SIDE, 3), np.float32)
    art[:] = SEA
    return art


def _shadowed(art: np.ndarray, factor: float, radius: float, rng: np.random.Generator) -> np.ndarray:
    """``art`` with a soft shadow (a disc dimmed by ``factor`` in every channel) in its middle, and noise."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    shade = np.where(np.hypot(yy - 22, xx - 22) < radius, factor, 1.0).astype(np.float32)
    return art * cv2.GaussianBlur(shade, (0, 0), 0.8)[..., None] + _noise(rng, 6.0)


def test_a_figures_shadow_over_the_sea_is_no_blue_figure():
    finder = FigureFinder(COLOURS)
    seen_before = 0
    for k, factor in enumerate((0.45, 0.55, 0.65)):
        for seed in range(3):
            seen = _shadowed(_sea(), factor, 3.0, np.random.default_rng(10 * k + seed))
            assert _find(finder, seen, _sea()) == [], (factor, seed)
            seen_before += [c for c, *_ in _find(replace(finder, dimmed_rule=False), seen, _sea())] == ["blue"]
    assert seen_before >= 8       # the bench's case: without the rule the shadow is a blue figure


def test_a_blue_figure_on_the_sea_that_mostly_dims_it_is_still_found():
    """A blue figure on this sea is itself nearly a dimming of it (its paint 0.43-0.63 of the sea in B, G, R: most of
    its pixels pass the shadow test): found, as before (the rule takes only what is smaller than any figure's
    picture)."""
    finder = FigureFinder(COLOURS)
    blue = lab_to_bgr([COLOURS.colours[1].lab])[0]
    for seed in range(4):
        rng = np.random.default_rng(seed)
        figure = _disc(blue, _sea()) + _noise(rng, 6.0)
        assert [c for c, *_ in _find(finder, figure, _sea())] == ["blue"], seed
