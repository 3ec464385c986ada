"""A deck's window brought to the empty board's light by the board's pixels, not the pieces' (h-chests2).

`vision.chests._matched` scales each channel so the window's median matches the empty board's. A ship and its chest
cover up to a third of the 36 mm window round a deck; over a sea of two blues, a red sail and a gold lid pulled the
window's red median up the sea's spread, the gain took red out of the lid, and the lid came out greener than its
enrolled colour by 25 (Lab): no lid seen, a laden deck read as an empty hold (bench seed 1 `clean` frame 13, Caribic
with an 8,000 chest in view). The gain is now taken again over the pixels the first gain makes look like the board."""
from __future__ import annotations

import numpy as np

from vision.chests import _matched


def _deck(light=(1.0, 1.0, 1.0)):
    """An empty window (two blues of the sea, a band each) and the same under ``light`` with a red sail and a gold
    lid on it (a third of the window)."""
    empty = np.zeros((180, 180, 3), np.uint8)
    for k, tone in enumerate([(185, 120, 35), (165, 115, 60), (150, 105, 85), (140, 100, 110)]):
        empty[:, 45 * k:45 * (k + 1)] = tone
    frame = empty.copy()
    frame[60:120, 30:120] = (40, 40, 210)  # the sail
    frame[60:100, 120:150] = (40, 175, 225)  # the lid beside it
    lit = np.clip(frame.astype(np.float32) * np.float32(light), 0, 255).astype(np.uint8)
    return empty, lit


def test_the_light_is_taken_from_the_board_not_from_a_red_sail_and_a_gold_lid():
    empty, frame = _deck()
    m = _matched(frame, empty).astype(int)
    assert np.abs(m[80, 135] - (40, 175, 225)).max() <= 3, m[80, 135]  # the lid keeps its colour
    assert np.abs(m[10, 10] - (185, 120, 35)).max() <= 3


def test_a_change_of_light_is_taken_out():
    empty, frame = _deck((0.8, 0.95, 1.1))
    m = _matched(frame, empty).astype(int)
    assert np.abs(m[80, 135] - (40, 175, 225)).max() <= 4, m[80, 135]
    assert np.abs(m[150, 170] - (140, 100, 110)).max() <= 3

