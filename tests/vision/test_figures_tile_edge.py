"""A tile's edge against the bare dark mat is no figure (h-photo2): with the grid fitted to the tiles
(``Recognizer.fit_found_grid``), `tests/vision/test_photoscore.py`'s table 47 read strips 2-3 pixels wide along a
tile's outline as black figures. A blob reaching over the bare mat that lies wholly within
``FigureFinder.hug_mm`` of the tiles' outline hugs it; a figure stands on a tile, its foot 8 mm deep, and its picture
reaches further from the outline (into its tile, or over the mat where it leans)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.pieces import FigureFinder, PlayerColours, DEFAULT_COLOURS_BGR

MM_PER_PX = 1.8          # the figures' scale on a full table's canvas
BORDER = 20              # columns 0-19: a tile read there; 20-: the bare mat


def _scene(rows: slice, cols: slice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A tile (light) left of the bare mat (its reference a mid grey), a black blob over ``rows`` x ``cols``."""
    ref = np.empty((40, 40, 3), np.uint8)
    ref[:, :BORDER] = (190, 200, 205)
    ref[:, BORDER:] = (110, 115, 112)
    obs = ref.copy()
    obs[rows, cols] = DEFAULT_COLOURS_BGR["black"]
    known = np.zeros((40, 40), bool)
    known[:, :BORDER] = True
    return obs, ref, known


def _found(finder: FigureFinder, rows: slice, cols: slice) -> list:
    obs, ref, known = _scene(rows, cols)
    return finder.find(obs, ref, MM_PER_PX, fit=False, known=known)


@pytest.fixture
def finder() -> FigureFinder:
    return FigureFinder(PlayerColours.defaults())


@pytest.mark.parametrize("cols", [slice(BORDER - 1, BORDER), slice(BORDER - 1, BORDER + 1)])
def test_a_strip_along_the_tiles_outline_is_no_figure(finder, cols):
    """A dark line 1-2 pixels wide at the outline (on the tile, or astride it): the residual's blur widens it to a blob
    11 x 3-4 pixels (107-143 mm^2, a figure's size), 2 pixels from the outline at most, as table 47's."""
    assert _found(finder, slice(10, 19), cols) == []
    finder.hug_mm = 0.0          # the cause: without the check it reads as a black figure
    assert [f[0] for f in _found(finder, slice(10, 19), cols)] == ["black"]


@pytest.mark.parametrize("cols", [
    slice(BORDER - 4, BORDER + 1),       # 4 pixels into its tile, 1 over the mat (bench vision's NL hard board 0)
    slice(BORDER - 2, BORDER + 4),       # leaning over the mat
])
def test_a_black_figure_at_a_tiles_edge_is_found(finder, cols):
    """Painted 9 x 5-6 pixels (blurred 11 x 7-8): a figure's foot on its tile reaches 3 pixels or more from the
    outline, on one side of it or the other."""
    found = _found(finder, slice(10, 19), cols)
    assert [f[0] for f in found] == ["black"]
