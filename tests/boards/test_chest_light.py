"""A deck's window brought to the empty board's light by the board's pixels, not the pieces' (h-chests4).

`vision.chests._matched` scales each channel so the window looks lit as the empty board was. A ship and its chest
cover up to a third of the 36 mm window round a deck; with the gain the ratio of the two windows' medians, over a sea
of several blues a red sail and a gold lid pulled the window's red median up the sea's spread, the gain took red out
of the lid, and the lid came out 20-35 (Lab) greener than enrolled: no lid seen, laden decks with their print in full
view read as empty holds (bench seed 1 `clean` frames 1, 2, 10, 13: 14 such holds at `clean` and `default`, 25 on
seed 2). The gain is now the median of each pixel's own ratio (`_light_gain`): the pieces are its outliers."""
from __future__ import annotations

import numpy as np

from vision.chests import _light_gain, _matched

LID = (40, 175, 225)


def _deck(light=(1.0, 1.0, 1.0)):
    """An empty window (four blues of the sea, a band each) and the same under ``light`` with a red sail and a gold
    lid on it (a fifth of the window)."""
    empty = np.zeros((180, 180, 3), np.uint8)
    for k, tone in enumerate([(185, 120, 35), (165, 115, 60), (150, 105, 85), (140, 100, 110)]):
        empty[:, 45 * k:45 * (k + 1)] = tone
    frame = empty.copy()
    frame[60:120, 30:120] = (40, 40, 210)  # the sail
    frame[60:100, 120:150] = LID  # the lid beside it
    lit = np.clip(frame.astype(np.float32) * np.float32(light), 0, 255).astype(np.uint8)
    return empty, lit


def test_the_light_is_taken_from_the_board_not_from_a_red_sail_and_a_gold_lid():
    empty, frame = _deck()
    m = _matched(frame, empty).astype(int)
    assert np.abs(m[80, 135] - LID).max() <= 3, m[80, 135]  # the lid keeps its colour (before: red 225 -> 192)
    assert np.abs(m[10, 10] - (185, 120, 35)).max() <= 3


def test_a_change_of_light_is_taken_out_whatever_covers_the_board():
    light = (0.8, 0.95, 1.1)
    empty, frame = _deck(light)
    assert np.allclose(_light_gain(frame, empty), 1 / np.float32(light), rtol=0.03), _light_gain(frame, empty)
    m = _matched(frame, empty).astype(int)
    assert np.abs(m[80, 135] - LID).max() <= 4, m[80, 135]
    assert np.abs(m[150, 170] - (140, 100, 110)).max() <= 3
