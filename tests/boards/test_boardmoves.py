"""What a ship seen elsewhere means: the engine's adapter proposes the way, the engine checks it,
tracking stays game-agnostic (the packaged grid board, docs/karibik.md)."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup, TablehubError
from tablehub.games.karibik.actions import Card, Deal, PlaceShips
from tablehub.games.karibik.engine import Karibik
from tablehub.tracking.boardmoves import read_board


@pytest.fixture()
def game() -> Karibik:
    """Red moves Arriba (on 32) by up to 3 spaces; Bravo stands on 42."""
    g = Karibik(Setup("karibik", ("Red", "Blue", "Green"), ("red", "blue", "green"), {"board": "grid"}))
    g.apply(Deal(("Tortuga", "Havana", "Nassau", "Port Royal", "Santiago", "San Juan")))
    g.apply(PlaceShips((32, 42, 36, 34, 44, 46)))
    for player, card in (("Red", 3), ("Blue", 1), ("Green", 0)):
        g.apply(Card(player, card))
    return g


def seen_with(game, **moves):
    seen = dict(game.ship_at)
    seen.update(moves)
    return dict(game.ship_at), seen


def test_nothing_moved_while_the_cards_are_entered_is_the_same(game):
    game.apply(game.parse_action({"type": "sail", "path": [33]}))
    game.apply(game.parse_action({"type": "end_move"}))  # Bravo's cards are next
    assert read_board(game, *seen_with(game)).status == "same"


def test_nothing_moved_in_a_move_is_its_end_for_next(game):
    r = read_board(game, *seen_with(game))
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]


def test_a_ship_moved_where_it_can_do_nothing_more_is_a_pending_sail_that_ends_the_move(game):
    r = read_board(game, *seen_with(game, Arriba=33))
    assert r.status == "pending" and r.actions == [{"type": "sail", "path": [33]}, {"type": "end_move"}]


def test_a_ship_moved_into_a_port_with_a_chest_is_a_sail_alone(game):
    r = read_board(game, *seen_with(game, Arriba=12))  # Havana's chest lies face up: a raid is possible
    assert r.status == "pending" and r.actions == [{"type": "sail", "path": [22, 12]}]


def test_ways_through_different_hideouts_are_asked_on_the_phone(game):
    r = read_board(game, *seen_with(game, Arriba=21))  # via 22 (blue hideout) or 31 (open sea)
    assert r.status == "unsure"
    paths = sorted(c[0]["path"] for _, c in r.choices)
    assert paths == [[22, 21], [31, 21]]
    assert any("via space 22 (blue hideout)" in text for text, _ in r.choices)


def test_too_far_is_flagged_with_the_rules_reason(game):
    r = read_board(game, *seen_with(game, Arriba=52))  # round Bravo on 42: 4 spaces, allowance 3
    assert r.status == "illegal" and "may move 3 spaces" in r.reason


def test_another_ship_moving_is_flagged(game):
    r = read_board(game, *seen_with(game, Bravo=43))
    assert r.status == "illegal" and "Bravo moved, but Arriba is the ship being moved" == r.reason


def test_the_moving_ship_unsure_means_look_again(game):
    before, seen = seen_with(game)
    seen["Arriba"] = None
    r = read_board(game, before, seen)
    assert r.status == "waiting" and r.reason == "not sure where Arriba stand(s): looking again"


def test_a_ship_nobody_may_move_now_unsure_is_taken_as_where_it_stood(game):
    before, seen = seen_with(game, Arriba=33)
    seen["Evita"] = None
    r = read_board(game, before, seen)
    assert r.status == "pending" and r.actions[0] == {"type": "sail", "path": [33]}
    assert r.notes == ["not sure where Evita stands: taken as still on space 44"]


def test_the_moving_ship_read_from_a_guess_is_marked_as_doubt(game):
    before, seen = seen_with(game)
    seen["Arriba"] = None
    r = read_board(game, before, seen, guesses={"Arriba": (33,)})
    assert r.status == "pending" and r.doubt == ["Arriba"]
    r = read_board(game, before, seen, guesses={"Arriba": (52,)})  # too far: no flag on a guess
    assert r.status == "waiting" and "Arriba" in r.reason


def test_a_game_without_an_adapter_says_so():
    from tablehub.games import new_game
    from tablehub.games.base import Setup as S
    g = new_game(S("neuesland", ("A", "B"), ("red", "blue"), {}))
    with pytest.raises(TablehubError, match="does not read this game's board"):
        read_board(g, {}, {})


def test_a_ship_seen_on_a_space_another_ship_stands_on_is_a_misread_not_a_flag(game):
    before, seen = seen_with(game, Bravo=32)  # Bravo (not moving) seen on Arriba's space
    r = read_board(game, before, seen)
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]
    assert r.notes == ["Bravo seen on space 32, where another piece stands: taken as still on space 42"]
    before, seen = seen_with(game, Arriba=42)  # the moving ship seen on Bravo's space: look again
    r = read_board(game, before, seen)
    assert r.status == "waiting" and "Arriba" in r.reason


def test_the_moving_ship_seen_where_two_spaces_meet_is_a_choice_between_them(game):
    before, seen = seen_with(game)
    seen["Arriba"] = None
    r = read_board(game, before, seen, guesses={"Arriba": (32, 33)})
    assert r.status == "unsure" and r.doubt == ["Arriba"]
    assert r.reason == "Arriba stands where spaces 32 and 33 meet: which move?"
    assert r.choices == [("Arriba stays on space 32: the move ends", [{"type": "end_move"}]),
                         ("Arriba sails to space 33", [{"type": "sail", "path": [33]}, {"type": "end_move"}])]
