"""Glyph twins told apart by what is in view (issue 19, the photo score; ``vision.tiles.whole_details`` and
``vision.figurereading._apart_from_figures``): synthetic masks, no references needed."""
from __future__ import annotations

import numpy as np

from vision.figurereading import _apart_from_figures
from vision.tiles import whole_details


def _every_other(mask: np.ndarray, ring: int = 3):
    sub = np.zeros(mask.shape, bool)
    sub[ring:-ring:2, ring:-ring:2] = True
    return np.nonzero(mask & sub)


def test_a_detail_wholly_in_view_is_kept_and_a_detail_partly_hidden_is_not():
    px = 48
    differ = np.zeros((px, px), bool)
    differ[20:40, 25:45] = True          # the bridge (a figure stands on it)
    differ[9:15, 9:15] = True            # the second shell, far from it
    clear = np.ones((px, px), bool)
    clear[18:42, 23:47] = False          # the figure and the band kept clear around it
    rows, cols = _every_other(differ)
    keep = clear[rows, cols]
    whole = whole_details(rows, cols, keep, px)
    shell = (rows < 16) & (cols < 16)
    assert whole[shell].all() and not whole[~shell].any()
    clear[11, 10:16] = False             # a covered speck on the shell: it is not wholly in view any more
    whole = whole_details(rows, cols, clear[rows, cols], px)
    assert not whole.any()


def test_two_details_touching_diagonally_are_one():
    px = 48
    differ = np.zeros((px, px), bool)
    differ[9:13, 9:13] = True
    differ[13:17, 13:17] = True
    rows, cols = _every_other(differ)
    keep = np.ones(len(rows), bool)
    keep[(rows >= 13) & (cols >= 13)] = False
    assert not whole_details(rows, cols, keep, px).any()


def test_a_piece_beside_the_figure_is_its_shadow_one_further_off_is_not():
    labels = np.zeros((48, 48), np.int32)
    labels[20:30, 30:40] = 1             # the figure
    labels[20:30, 24:28] = 2             # 2 pixels from it: its shadow or lean
    labels[5:9, 5:20] = 3                # 11 pixels from it
    apart = _apart_from_figures(labels, np.array([True, False, False]), 4)
    assert apart.tolist() == [False, False, True]
    assert _apart_from_figures(labels, np.array([False, False, False]), 4).all()   # no figure on the cell
