"""A blob of one colour longer than one figure's picture is looked at as two figures of that colour
(:meth:`vision.pieces.FigureFinder._maybe_two`): each half must read that colour by itself (issue 14, session nlfig8).

On the Neues Land bench (sim/hard seed 1 board 10) a tile lay a pixel over the dark gap its reference showed beside it:
a strip of its yellow plain, 3 pixels wide, joined a blue figure's picture into one blob of 338 mm^2 and 30.8 mm,
longer than one figure's 27 mm. The blob voted blue (the strip is too thin to have a core of its own); split in two
halves by length alone, the strip (120 mm^2) read yellow by itself: a yellow figure that was not there."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pieces import DEFAULT_COLOURS_BGR, FigureFinder, PlayerColours, _length_px

MM_PER_PX = 1.875        # the figures' scale: 24 pixels a 45 mm tile
GREY = (150, 170, 160)   # a grey tile left of the gap
PLAIN = (40, 185, 220)   # a yellow plain right of it, near the yellow paint
GAP = (45, 71, 62)       # the dark mat between two tiles, in the reference
GAP_X = 20


def _window(strip_rows: tuple[int, int], figure_mm: tuple[float, float], half_axes_mm: tuple[float, float],
            colour: str = "blue") -> tuple[np.ndarray, np.ndarray]:
    """A window (observed, reference) where two tiles meet at a 1-pixel gap (column :data:`GAP_X`); in the observed
    picture the right tile covers the gap over ``strip_rows`` (laid a pixel off), and a figure's picture stands beside
    it, an ellipse at ``figure_mm`` with half axes ``half_axes_mm`` (along y, along x), blurred as the lens and the
    halving do (the reference too)."""
    ref = np.empty((48, 48, 3), np.uint8)
    ref[:, :GAP_X] = GREY
    ref[:, GAP_X + 1:] = PLAIN
    ref[:, GAP_X] = GAP
    obs = ref.copy()
    obs[strip_rows[0]:strip_rows[1], GAP_X] = PLAIN
    centre = tuple(int(round(c / MM_PER_PX * 16)) for c in figure_mm)
    axes = tuple(int(round(a / MM_PER_PX * 16)) for a in half_axes_mm)
    cv2.ellipse(obs, centre, axes, 90, 0, 360, tuple(int(v) for v in DEFAULT_COLOURS_BGR[colour]), -1, cv2.LINE_AA, 4)
    return _blurred(obs), _blurred(ref)


def _blurred(im: np.ndarray) -> np.ndarray:
    """As the lens and the halving blur a picture (the reference is a picture too)."""
    return cv2.GaussianBlur(im, (0, 0), 0.7)


@pytest.mark.parametrize("strip_rows, figure_mm, half_axes_mm",
                         [((8, 16), (43.0, 36.0), (6.0, 4.0)), ((8, 16), (44.0, 36.0), (6.5, 4.0))])
def test_a_strip_of_tile_joined_to_a_figure_is_no_second_figure(strip_rows, figure_mm, half_axes_mm):
    """A blue figure beside a strip of yellow plain where the reference shows the gap: one blob of one colour under
    ``two_figures_mm2`` and longer than ``one_figure_long_mm`` (the long-blob rule looks at it as two); its strip half
    reads yellow by itself: one blue figure, no yellow one (main before this session: a blue and a yellow)."""
    finder = FigureFinder(PlayerColours.defaults())
    obs, ref = _window(strip_rows, figure_mm, half_axes_mm)
    pictures: list[np.ndarray] = []
    got = finder.find(obs, ref, MM_PER_PX, fit=False, pictures=pictures)
    assert [f[0] for f in got] == ["blue"]
    # the blob is one the long-blob rule looks at: under the area rule, longer than one figure
    area, length = pictures[0].sum() * MM_PER_PX ** 2, _length_px(pictures[0]) * MM_PER_PX
    assert 2 * finder.one_figure_min_mm2 <= area <= finder.two_figures_mm2
    assert length > finder.one_figure_long_mm


def test_two_figures_of_one_colour_over_the_gap_stay_two():
    """Two black figures end to end across the same gap (16 x 10 mm, 17 mm apart), one blob of one colour: each half
    reads black, so they stay two figures (the long-blob rule still parts them)."""
    ref = np.empty((48, 48, 3), np.uint8)
    ref[:] = GREY
    ref[:, GAP_X] = GAP
    obs = ref.copy()
    for x_mm in (29.0, 46.0):
        centre = (int(round(x_mm / MM_PER_PX * 16)), int(round(45.0 / MM_PER_PX * 16)))
        axes = (int(round(8.0 / MM_PER_PX * 16)), int(round(5.0 / MM_PER_PX * 16)))
        cv2.ellipse(obs, centre, axes, 0, 0, 360, tuple(int(v) for v in DEFAULT_COLOURS_BGR["black"]), -1,
                    cv2.LINE_AA, 4)
    finder = FigureFinder(PlayerColours.defaults())
    pictures: list[np.ndarray] = []
    got = finder.find(_blurred(obs), _blurred(ref), MM_PER_PX, fit=False, pictures=pictures)
    assert [f[0] for f in got] == ["black", "black"]
    # one blob under the area rule: the long-blob rule parted it
    assert sum(p.sum() for p in pictures) * MM_PER_PX ** 2 <= finder.two_figures_mm2


def test_a_black_figure_touching_a_blue_one_stays_two():
    """A blue figure and a black one touching on a slant (14 x 9 mm pictures, 14 mm apart): the colour split holds the
    black back (it may be the blue's shaded side) and the blob, 316 mm^2 and 31 mm, is parted by its length; the black
    half reads the darkest colour by itself, not the blob's blue, and stays a figure (Neues Land sim/hard seed 4
    board 7, lost when each half had to read the blob's colour)."""
    ref = np.empty((48, 48, 3), np.uint8)
    ref[:] = GREY
    obs = ref.copy()
    slant = np.array([1.0, 1.0]) / np.sqrt(2.0)
    middle = np.array([45.0, 45.0])
    for centre_mm, colour in ((middle - 7.0 * slant, "blue"), (middle + 7.0 * slant, "black")):
        centre = tuple(int(round(c / MM_PER_PX * 16)) for c in centre_mm)
        axes = (int(round(7.0 / MM_PER_PX * 16)), int(round(4.5 / MM_PER_PX * 16)))
        cv2.ellipse(obs, centre, axes, 45, 0, 360, tuple(int(v) for v in DEFAULT_COLOURS_BGR[colour]), -1,
                    cv2.LINE_AA, 4)
    finder = FigureFinder(PlayerColours.defaults())
    pictures: list[np.ndarray] = []
    got = finder.find(_blurred(obs), _blurred(ref), MM_PER_PX, fit=False, pictures=pictures)
    assert sorted(f[0] for f in got) == ["black", "blue"]
    # one blob under the area rule: the long-blob rule parted it
    assert sum(p.sum() for p in pictures) * MM_PER_PX ** 2 <= finder.two_figures_mm2
