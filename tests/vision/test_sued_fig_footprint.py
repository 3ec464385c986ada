"""A figure's shadow on the art is left out of its footprint whatever its colour (issue 14, session suedfig3).

A figure's base is found from its footprint's end nearest the camera's nadir (``vision.standing``). The footprint is
its blob's coloured pixels (of any colour) that are not dimmed alike in every channel; under the field camera's noise
at ``hard`` the sea dimmed by a figure's shadow fails that same-factor test in places and reads black. On the nadir's
side of a red figure it stretched the footprint's near end and put the base 3.4 mm toward the nadir, on the next
region (bench ``--games suedsee --levels hard --camera field --seed 2``, board 4). The shadow keeps the art's hue; the
figure's paint has its own: the art dimmed fits the shadow better than the paint does (``vision.pieces.dimmed_art``),
as was done for black figures only (``FigureFinder._footprint``). Here a red figure's picture (a disc) with its shadow
beside it, toward the nadir (to the left): the sea dimmed by 0.4-0.6, noise of that frame's strength and grain.
"""
from dataclasses import replace

import cv2
import numpy as np

from tests.vision.test_figure_toward_paint import COLOURS, MM_PER_PX, SEA, SIDE, _disc, _noise
from vision.colourcast import lab_to_bgr
from vision.pieces import FigureFinder

DARK_SEA = (110.0, 115.0, 88.0)
EDGE = 20.0             # the figure's picture: a disc of radius 4 around x = 24; its shadow a disc around x = 18


def _red_figure_and_its_shadow(sea, dim: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    art = np.empty((SIDE, SIDE, 3), np.float32)
    art[:] = sea
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    shade = cv2.GaussianBlur(np.where(np.hypot(yy - 22, xx - 18) < 4.0, dim, 1.0).astype(np.float32), (0, 0), 0.7)
    red = lab_to_bgr([COLOURS.colours[0].lab])[0]
    seen = _disc(red, art * shade[..., None], centre=(22.0, EDGE + 4.0), radius=4.0) + _noise(rng, 9.0)
    return np.clip(seen, 0, 255).astype(np.uint8), art.astype(np.uint8)


def _near_end(finder: FigureFinder, seen: np.ndarray, art: np.ndarray) -> float:
    """The footprint's end toward the nadir (its 2nd percentile in x, as ``standing_point`` takes it)."""
    feet: list[np.ndarray] = []
    out = finder.find(seen, art, MM_PER_PX, feet, fit=False, known=np.ones((SIDE, SIDE), bool))
    assert [c for c, *_ in out] == ["red"], out
    return float(np.percentile(np.nonzero(feet[0])[1], 2))


def test_a_red_figures_shadow_toward_the_nadir_is_not_its_footprint():
    finder = FigureFinder(COLOURS)
    before = replace(finder, shadow_every_colour=False)
    ends, ends_before = [], []
    for sea in (DARK_SEA, SEA):
        for dim in (0.4, 0.5, 0.6):
            for seed in range(5):
                seen, art = _red_figure_and_its_shadow(sea, dim, np.random.default_rng(seed))
                ends.append(_near_end(finder, seen, art))
                ends_before.append(_near_end(before, seen, art))
    assert min(ends) >= EDGE - 1.0, ends          # within a pixel of the picture's edge
    # before, the shadow stretched it toward the nadir: 1.5 pixels (2.8 mm) on average, up to 6 (the bench's case)
    assert np.mean(ends_before) <= EDGE - 1.0 and min(ends_before) <= EDGE - 3.0, ends_before
