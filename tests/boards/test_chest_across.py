"""A chest lying across a line between two spaces (issue 17, session 16).

The whole Karibik game's 5 "the camera saw the chests change (... 0 chest(s) on space 29 (port of Santo Domingo)),
but no chest action of X explains it" corrections (main, `pytest -s -m slow tests/live/test_board_e2e.py`) came from
one face-down chest: on the crowded port of Santo Domingo it was put down 4 mm inside the outline, and from the step
Caribic touched it on, the camera read it "on a line between spaces 29, 35" (its frames' readings, 25 reads in a row),
so on no space. The game knew a chest lay on 29: every chest action of those turns then left one chest too few there,
and none fitted exactly. The camera now says which spaces such a chest may lie on (`ChestsSeen.between`), and the
chests are compared with the game's where the game wants them (`placed_across`)."""
from __future__ import annotations

import numpy as np

from tablehub.games.karibik.camera import TableChests, chests_fit, placed_across
from vision.boardpieces import PieceSeen
from vision.chests import chests_seen


def test_a_chest_on_a_line_is_reported_with_the_spaces_it_may_lie_on():
    pieces = [PieceSeen("chest down", "chest", None, 242.0, 162.0, 0.1, 0.3, "on a line between spaces 29, 35",
                        (29, 35)),
              PieceSeen("chest down", "chest", 47, 300.0, 200.0, 0.1, 0.3)]
    frame = np.zeros((10, 10, 3), np.uint8)  # no face-up chest, no ship: nothing is read from the frame
    got = chests_seen(frame, None, frame, 2.0, None, pieces, [])
    assert got.spaces == {47: [("down", None)]}
    assert got.between == [((29, 35), "down", None)]
    assert any("on a line" in u for u in got.unsure)


def test_a_chest_across_a_line_is_put_where_the_games_counts_want_it():
    view = {"spaces": {29: ([], 1), 84: ([4000], 0)}, "aboard": {"Evita": 0}}
    seen = TableChests({84: [("up", 4000)]}, {"Evita": 0}, between=[((29, 35), "down", None)])
    assert placed_across(view, seen) == {84: [("up", 4000)], 29: [("down", None)]}
    assert chests_fit(view, seen)
    # not a chest the game has nowhere near: one on a line between 35 and 39 is on neither
    far = TableChests({84: [("up", 4000)]}, {"Evita": 0}, between=[((35, 39), "down", None)])
    assert placed_across(view, far) == {84: [("up", 4000)]}
    assert not chests_fit(view, far)
    # a face-up chest across a line goes where a chest of its value lies, not where another value does
    view2 = {"spaces": {29: ([5000], 0), 35: ([7000], 0)}, "aboard": {}}
    seen2 = TableChests({35: [("up", 7000)]}, {}, between=[((29, 35), "up", 5000)])
    assert placed_across(view2, seen2) == {35: [("up", 7000)], 29: [("up", 5000)]}
    assert chests_fit(view2, seen2)
    # as before without it: the chest on the line is on no space, and a game with one there does not fit exactly
    assert not chests_fit(view, TableChests({84: [("up", 4000)]}, {"Evita": 0}))
