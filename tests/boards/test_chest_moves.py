"""Chests the camera saw change hands become the engine's chest actions (the packaged grid board): the
moving ship's actions where it ends up are matched against what the camera sees, the engine checks them."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup
from tablehub.games.karibik.actions import Card, Deal, PlaceShips
from tablehub.games.karibik.camera import chest_view, chests_fit
from tablehub.games.karibik.engine import Karibik
from tablehub.tracking.boardmoves import BoardSeen, board_reading, read_board
from vision.chests import ChestsSeen


@pytest.fixture()
def game() -> Karibik:
    """Red moves Arriba (on 32) by up to 3 spaces; Bravo stands on 42. Havana (4,000, port 12) and Tortuga
    (7,000, port 11) lie face up."""
    g = Karibik(Setup("karibik", ("Red", "Blue", "Green"), ("red", "blue", "green"), {"board": "grid"}))
    g.apply(Deal(("Tortuga", "Havana", "Nassau", "Port Royal", "Santiago", "San Juan")))
    g.apply(PlaceShips((32, 42, 36, 34, 44, 46)))
    for player, card in (("Red", 3), ("Blue", 1), ("Green", 0)):
        g.apply(Card(player, card))
    return g


def seen_as(game, aboard=None, spaces=None, drop=()):
    """What a perfect camera sees of ``game``'s chests, changed: ``aboard`` ship -> value, ``spaces``
    space -> list of (face, value); ``drop``: spaces to clear."""
    view = chest_view(game)
    out = ChestsSeen({s: [("up", v) for v in up] + [("down", None)] * down for s, (up, down) in view["spaces"].items()},
                     dict(view["aboard"]))
    for s in drop:
        out.spaces.pop(s, None)
    out.aboard.update(aboard or {})
    out.spaces.update(spaces or {})
    return out


def read(game, chests, **moves):
    seen = dict(game.ship_at)
    seen.update(moves)
    return read_board(game, dict(game.ship_at), seen, extras={"chests": chests})


def test_chests_as_the_game_has_them_leave_the_ships_reading_alone(game):
    r = read(game, seen_as(game), Arriba=12)
    assert r.status == "pending" and r.actions == [{"type": "sail", "path": [22, 12]}]
    assert read(game, seen_as(game)).actions == [{"type": "end_move"}]


def test_a_port_chest_seen_aboard_the_ship_that_sailed_there_is_the_raid(game):
    r = read(game, seen_as(game, aboard={"Arriba": 4000}, drop=[12]), Arriba=12)
    assert r.status == "pending"
    assert r.actions == [{"type": "sail", "path": [22, 12]}, {"type": "attack"}]


def test_a_raid_after_the_sail_was_logged(game):
    game.apply(game.parse_action({"type": "sail", "path": [22, 12]}))
    r = read(game, seen_as(game, aboard={"Arriba": 4000}, drop=[12]))
    assert r.status == "pending" and r.actions == [{"type": "attack"}]


def test_a_chest_seen_on_the_wrong_ship_is_flagged_with_what_the_camera_saw(game):
    # Bravo (not moving, far from Havana) seen with Havana's chest: no action of Arriba explains it
    r = read(game, seen_as(game, aboard={"Bravo": 4000}, drop=[12]), Arriba=12)
    assert r.status == "illegal"
    assert "no chest action of Arriba explains it" in str(r.reason) and "Bravo carries 4,000" in str(r.reason)


def test_a_second_chest_taken_aboard_is_refused_with_the_rules_reason(game):
    game.apply(game.parse_action({"type": "sail", "path": [22, 12]}))
    game.hold["Arriba"] = "Tortuga"  # carried from before
    game.face_up["Tortuga"].remove("Tortuga")
    r = read(game, seen_as(game, aboard={"Arriba": 4000}, drop=[12]))
    assert r.status == "illegal"
    assert "a ship carries one chest" in str(r.reason)


def test_a_swap_with_the_port(game):
    game.apply(game.parse_action({"type": "sail", "path": [22, 12]}))
    game.hold["Arriba"] = "Tortuga"
    game.face_up["Tortuga"].remove("Tortuga")
    r = read(game, seen_as(game, aboard={"Arriba": 4000}, spaces={12: [("up", 7000)]}))
    assert r.status == "pending" and r.actions == [{"type": "swap"}]


def test_two_chests_of_one_value_are_asked_on_the_phone_with_the_engines_words(game):
    game.apply(game.parse_action({"type": "sail", "path": [22, 12]}))
    game.face_up["San Juan"].remove("San Juan")
    game.face_up["Havana"].append("San Juan")  # two 4,000 chests lie in Havana
    r = read(game, seen_as(game, aboard={"Arriba": 4000}, spaces={12: [("up", 4000)]}))
    assert r.status == "unsure"
    assert sorted(c[0].get("chest") for _, c in r.choices) == ["Havana", "San Juan"]
    texts = sorted(str(t) for t, _ in r.choices)
    assert texts[0] == "Arriba raided Havana" and "San Juan" in texts[1]
    reading = board_reading(game, BoardSeen(dict(game.ship_at), extras={"chests": seen_as(
        game, aboard={"Arriba": 4000}, spaces={12: [("up", 4000)]})}))
    assert reading.state == "unsure" and "Arriba raided Havana" in str(reading.question)


def test_a_value_the_camera_is_not_sure_of_fits_any_value(game):
    assert chests_fit(chest_view(game), seen_as(game, spaces={12: [("up", None)]}))
    assert not chests_fit(chest_view(game), seen_as(game, spaces={12: [("up", 5000)]}))
    assert not chests_fit(chest_view(game), seen_as(game, spaces={12: [("down", None)]}))
    assert not chests_fit(chest_view(game), seen_as(game, aboard={"Arriba": None}))  # a chest where none is


def test_chests_moved_while_the_cards_are_entered_are_flagged(game):
    game.apply(game.parse_action({"type": "sail", "path": [33]}))
    game.apply(game.parse_action({"type": "end_move"}))
    r = read(game, seen_as(game, aboard={"Bravo": 4000}, drop=[12]))
    assert r.status == "illegal" and "no ship is being moved now" in str(r.reason)


def test_a_safeguard_on_a_hideout(game):
    game.apply(game.parse_action({"type": "sail", "path": [33, 23]}))  # 23: green hideout (Green's)
    game.hold["Arriba"] = "Tortuga"
    game.face_up["Tortuga"].remove("Tortuga")
    r = read(game, seen_as(game, aboard={"Arriba": 0}, spaces={11: [("down", None)]}))
    assert r.status == "pending" and r.actions == [{"type": "safeguard"}]
