"""Tahiti's track order recorded on the phone (tablehub/games/tahiti/draft.py): space by space,
one-line refusals naming the field, and the finished file is what the engine loads."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup
from tablehub.games.tahiti import draft as D
from tablehub.games.tahiti.board import board_from_dict, load_board
from tablehub.games.tahiti.engine import Tahiti


def recorded(order) -> dict:
    d = D.new_draft()
    for i, s in enumerate(order):
        d, said = D.apply(d, {"op": "set", "index": i, "letter": s.letter, "pearl": s.pearl})
        assert said == f"track space {i}: {s.letter} with a {s.pearl} pearl"
    return d


def test_a_recorded_order_is_the_board_the_engine_plays_on():
    order = list(load_board().track)[5:] + list(load_board().track)[:5]  # started from another space
    d = recorded(order)
    assert D.problem(d) is None
    board = board_from_dict(D.finished(d, "my copy"), "mine")
    assert list(board.track) == order and not board.provisional and board.name == "my copy"
    game = Tahiti(Setup("tahiti", ("Ana", "Ben"), ("green", "blue"), {"board": D.finished(d)}))
    assert [s["letter"] for s in game.view()["track"]] == [s.letter for s in order]
    assert D.counts(d)["letters"] == {k: 2 for k in "ABCDEF"}


def test_missing_spaces_are_named_until_all_twelve_are_recorded():
    d = recorded(load_board().track[:10])
    assert D.problem(d) == "the recorded track: track spaces 10, 11 not recorded yet (10 of 12)"
    d, said = D.apply(d, {"op": "clear", "index": 3})
    assert said == "track space 3 cleared"
    assert "track spaces 3, 10, 11 not recorded yet (9 of 12)" in D.problem(d)


@pytest.mark.parametrize("request_, field", [
    ({"op": "set", "index": 12, "letter": "A", "pearl": "green"}, "'index' must be a track space, 0 to 11"),
    ({"op": "set", "index": True, "letter": "A", "pearl": "green"}, "'index' must be"),
    ({"op": "set", "index": 0, "letter": "G", "pearl": "green"}, "'letter' must be one of A, B, C, D, E, F"),
    ({"op": "set", "index": 0, "letter": "A", "pearl": "red"}, "'pearl' must be one of green, white, black, blue"),
    ({"op": "swap"}, "'op' must be one of set, clear"),
])
def test_a_wrong_change_is_one_line_naming_the_field(request_, field):
    with pytest.raises(D.DraftError, match=field):
        D.apply(D.new_draft(), request_)
