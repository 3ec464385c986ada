"""Two figures of different colours touching (issue 14, session nlfig6): their pictures make one blob, split by colour
when each colour holds enough of the blob's core (:meth:`vision.pieces.FigureFinder._own_figure`).

The bar was twice ``min_core_px`` pixels, 42 mm2 at the figures' 1.9 mm a pixel: a green figure beside a yellow one,
half its picture at the blob's rim, had 28 mm2 of core and was lost (Neues Land bench field/default seed 3 board 11);
it is now what any figure needs of its colour (``min_coloured_mm2``). The darkest colour, which a figure's shaded side
reads as, splits off in a blob of one figure's size where it outnumbers every other colour (a shaded side is never more
of its figure than the lit colour) or lies as far from the other colour as two figures' middles: a black figure
touching a green one, their bases 6 mm apart, made one blob of 225 mm2 with 14 black and 11 green votes, and both were
lost (sim/default seed 2 board 2); a black one beside a yellow one, 9 black votes 14.6 mm from 15 yellow ones, was read
as one yellow figure (field/default seed 4 board 7)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pieces import DEFAULT_COLOURS_BGR, FigureFinder, PlayerColours

MM_PER_PX = 1.875        # the figures' scale: 24 pixels a 45 mm tile
TILE = (150, 170, 160)


def _stadium(img: np.ndarray, centre_mm: tuple[float, float], length_mm: float, width_mm: float,
             colour: tuple[int, int, int]) -> None:
    """A figure's picture seen from above (a slab with rounded ends, as vision.sim draws its body), upright."""
    reach = (length_mm - width_mm) / 2 / MM_PER_PX
    cx, cy = centre_mm[0] / MM_PER_PX, centre_mm[1] / MM_PER_PX
    a = (int(round(cx * 16)), int(round((cy - reach) * 16)))
    b = (int(round(cx * 16)), int(round((cy + reach) * 16)))
    cv2.line(img, a, b, tuple(int(v) for v in colour), max(1, int(round(width_mm / MM_PER_PX))), cv2.LINE_AA, 4)


def _found(pictures: list[tuple[tuple[float, float], float, float, str]]) -> list[str]:
    """The colours found in a window of plain tile with ``pictures`` ((x, y) mm, length, width, colour), upright."""
    ref = np.empty((40, 40, 3), np.uint8)
    ref[:] = TILE
    obs = ref.copy()
    for centre, length, width, colour in pictures:
        _stadium(obs, centre, length, width, DEFAULT_COLOURS_BGR[colour])
    obs = cv2.GaussianBlur(obs, (0, 0), 0.7)             # the lens and the halving
    return sorted(f[0] for f in FigureFinder(PlayerColours.defaults()).find(obs, ref, MM_PER_PX, fit=False))


@pytest.mark.parametrize("hidden, whole, apart_mm", [("green", "yellow", 12.0), ("green", "black", 10.0),
                                                     ("green", "black", 12.0)])
def test_a_figure_half_hidden_beside_another_is_found(hidden, whole, apart_mm):
    """A figure of which a piece 8 x 6 mm shows beside a whole figure (16 x 8 mm) of another colour."""
    got = _found([((37.5 - apart_mm / 2, 37.5), 8.0, 6.0, hidden), ((37.5 + apart_mm / 2, 37.5), 16.0, 8.0, whole)])
    assert got == sorted([hidden, whole])


@pytest.mark.parametrize("length_mm", [10.0, 12.0])
def test_a_black_figure_end_to_end_with_a_yellow_one_is_found(length_mm):
    """A black figure, 8 mm wide and ``length_mm`` of it seen, end to end with a whole yellow one, their middles 15 mm
    apart: fewer black votes than yellow in a blob of one figure's size, but two figures' middles apart."""
    got = _found([((37.5, 30.0), length_mm, 8.0, "black"), ((37.5, 45.0), 16.0, 8.0, "yellow")])
    assert got == ["black", "yellow"]


@pytest.mark.parametrize("colour", ["green", "red", "blue"])
def test_a_figures_shaded_foot_is_no_black_figure(colour):
    """A figure whose near end (its lower body, where the lean shows it) is shaded to 0.45 of its paint, 4 mm of
    its 20 mm picture: one figure of its colour."""
    dark = tuple(int(v * 0.45) for v in DEFAULT_COLOURS_BGR[colour])
    ref = np.empty((40, 40, 3), np.uint8)
    ref[:] = TILE
    obs = ref.copy()
    _stadium(obs, (37.5, 37.5), 20.0, 8.0, DEFAULT_COLOURS_BGR[colour])
    _stadium(obs, (37.5, 37.5 + 7.0), 6.0, 8.0, dark)
    obs = cv2.GaussianBlur(obs, (0, 0), 0.7)
    got = [f[0] for f in FigureFinder(PlayerColours.defaults()).find(obs, ref, MM_PER_PX, fit=False)]
    assert got == [colour]
