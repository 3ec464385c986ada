"""A figure's shaded side is part of its footprint (issue 14, session nlfig10).

A figure's base is found from its footprint's end nearest the camera's nadir (``vision.standing``). A painted figure's
side away from the light is its paint in shade: on a beige plain a green figure's shaded side (BGR about 32, 86, 31
against the plain's 145, 157, 140) is darker than the plain by much the same factor in every channel as far as
``vision.pieces.shading``'s test can tell, and more than the colour distance from the calibrated green. It was left out
of the footprint, and where it faced the nadir the base came 1.5-3.5 mm too far from it, across a seam onto the next
tile (Neues Land bench ``--seed 6`` sim/hard board 6, ``--seed 5`` sim/hard full board). A shadow keeps the art's hue;
the shaded paint keeps the paint's (``FigureFinder._shaded_side``, ``vision.pieces.paint_or_art``). Here a green
figure's picture (a disc) on that plain whose half toward the nadir (the left) is in its own shade, with its shadow on
the plain around that side, and noise of the bench's strength and grain.
"""
from dataclasses import replace

import cv2
import numpy as np

from tests.vision.test_figure_toward_paint import MM_PER_PX, SIDE, _noise
from vision.pieces import FigureFinder, PlayerColour, PlayerColours, paint_or_art

# the colours as the bench (seed 6, sim/hard) calibrated them, Lab as OpenCV's 8 bits
COLOURS = PlayerColours([PlayerColour("red", (81.0, 164.0, 158.0), 17.6),
                         PlayerColour("blue", (72.0, 120.0, 113.0), 10.1),
                         PlayerColour("green", (119.0, 85.0, 166.0), 5.0),
                         PlayerColour("yellow", (165.0, 118.0, 189.0), 14.4),
                         PlayerColour("black", (36.0, 123.0, 134.0), 5.0)])

PLAIN = (145.0, 157.0, 140.0)
GREEN_LIT = (42.0, 122.0, 41.0)     # the figure's lit side as seen there (its shaded side 32-37, 83-86, 31-36)
EDGE = 18.0              # the picture: a disc of radius 4.5 around x = 22.5, its left edge at x = 18


def _green_figure_shaded_toward_the_nadir(shade: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    art = np.empty((SIDE, SIDE, 3), np.float32)
    art[:] = PLAIN
    yy, xx = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32)
    # the figure's shadow on the plain, around its left side
    dim = cv2.GaussianBlur(np.where(np.hypot(yy - 22, xx - 20) < 5.0, 0.55, 1.0).astype(np.float32), (0, 0), 0.8)
    green = np.array(GREEN_LIT, np.float32)
    # the paint lit on the right, in its own shade on the left, the change blurred over a pixel
    lit = np.clip((xx - 22.5) / 1.5 + 0.5, 0.0, 1.0)
    paint = green * (shade + (1.0 - shade) * lit)[..., None]
    alpha = np.clip(4.5 + 0.5 - np.hypot(yy - 22, xx - (EDGE + 4.5)), 0.0, 1.0)[..., None]
    seen = art * dim[..., None] * (1 - alpha) + paint * alpha + _noise(rng, 6.0)
    return np.clip(seen, 0, 255).astype(np.uint8), art.astype(np.uint8)


def _near_end(finder: FigureFinder, seen: np.ndarray, art: np.ndarray) -> float:
    """The footprint's end toward the nadir (its 2nd percentile in x, as ``standing_point`` takes it)."""
    feet: list[np.ndarray] = []
    out = finder.find(seen, art, MM_PER_PX, feet, fit=False, known=np.ones((SIDE, SIDE), bool))
    assert [c for c, *_ in out] == ["green"], out
    return float(np.percentile(np.nonzero(feet[0])[1], 2))


def test_a_green_figures_shaded_side_toward_the_nadir_is_its_footprint():
    finder = FigureFinder(COLOURS)
    before = replace(finder, shaded_side=False)
    ends, ends_before = [], []
    for shade in (0.55, 0.6):
        for seed in range(6):
            seen, art = _green_figure_shaded_toward_the_nadir(shade, np.random.default_rng(seed))
            ends.append(_near_end(finder, seen, art))
            ends_before.append(_near_end(before, seen, art))
    assert max(ends) <= EDGE + 1.0, ends       # within a pixel of the picture's edge
    # before, the shaded side was left out: the near end 2.7 pixels past the edge on average (5 mm), up to 4.6
    assert np.mean(ends_before) >= EDGE + 1.5 and max(ends_before) >= EDGE + 3.0, ends_before


def test_art_lighter_than_its_reference_is_no_paint():
    """A strip of plain a pixel off its reference's dark gap is lighter than the art there: no shadow, but no paint
    either (a blue figure's footprint took it in and its base moved 4 mm onto another region, s1 sim/hard board 10);
    the shaded side of a green figure on a beige plain is paint."""
    gap = np.array([[45.0, 66.0, 56.0]])
    plain = np.array([[110.0, 160.0, 150.0]])
    blue = np.array([110.0, 65.0, 40.0])
    assert not paint_or_art(plain, gap, blue, 12.0)[0].any()
    shaded = np.array([[32.0, 86.0, 31.0]])
    assert paint_or_art(shaded, np.array([PLAIN]), np.array(GREEN_LIT), 12.0)[0].all()
