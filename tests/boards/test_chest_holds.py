"""The holds from the history (tablehub.tracking.holds, Karibik's adapter): what a ship carries is the game's
answer, the camera's reading of its deck a check. A misread value never flags a move; a hold read laden where
the game has it empty (or empty where it is laden) still shows a chest action; two laden ships' chests
exchanged show only in the values, so both must be read."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tablehub.games.base import Setup
from tablehub.games.karibik.actions import Card, Deal, PlaceShips
from tablehub.games.karibik.camera import TableChests, chest_view, chests_fit
from tablehub.games.karibik.engine import Karibik
from tablehub.tracking.boardmoves import read_board
from tablehub.tracking.holds import AGREES, DISAGREES, MAYBE, UNSURE, check_holds, contradicted, hold_tally


@pytest.fixture()
def game() -> Karibik:
    """Red moves Arriba (on 32) by up to 3 spaces, after sailing into Havana (port 12, its 4,000 chest face up);
    Bravo stands on 42, Tortuga's 7,000 chest face up on port 11."""
    g = Karibik(Setup("karibik", ("Red", "Blue", "Green"), ("red", "blue", "green"), {"board": "grid"}))
    g.apply(Deal(("Tortuga", "Havana", "Nassau", "Port Royal", "Santiago", "San Juan")))
    g.apply(PlaceShips((32, 42, 36, 34, 44, 46)))
    for player, card in (("Red", 3), ("Blue", 1), ("Green", 0)):
        g.apply(Card(player, card))
    g.apply(g.parse_action({"type": "sail", "path": [22, 12]}))
    return g


def seen(game, aboard=None, spaces=None, drop=(), maybe=()):
    view = chest_view(game)
    lying = {s: [("up", v) for v in up] + [("down", None)] * down for s, (up, down) in view["spaces"].items()}
    out = TableChests(lying, dict(view["aboard"]), maybe=set(maybe))
    for s in drop:
        out.spaces.pop(s, None)
    out.aboard.update(aboard or {})
    out.spaces.update(spaces or {})
    return out


def read(game, chests):
    return read_board(game, dict(game.ship_at), dict(game.ship_at), extras={"chests": chests})


def test_the_checks_of_one_hold():
    checks = check_holds({"A": 7000, "B": 0, "C": 5000, "D": 0, "E": 4000},
                         {"A": 5000, "B": None, "C": None, "D": MAYBE, "E": 4000, "X": 6000})
    assert (checks["A"].presence, checks["A"].value) == (AGREES, DISAGREES)  # a misread print
    assert (checks["B"].presence, checks["B"].value) == (DISAGREES, DISAGREES)  # a lid where the game has none
    assert (checks["C"].presence, checks["C"].value) == (AGREES, UNSURE)
    assert (checks["D"].presence, checks["D"].value) == (UNSURE, UNSURE)
    assert (checks["E"].presence, checks["E"].value) == (AGREES, AGREES)
    assert "X" not in checks  # a ship the game does not have


def test_the_raid_is_read_from_the_port_when_the_hold_is_misread(game):
    # Havana's chest gone from its port, a chest on Arriba's deck read as 8,000: the history says 4,000
    r = read(game, seen(game, aboard={"Arriba": 8000}, drop=[12]))
    assert r.status == "pending" and r.actions == [{"type": "attack"}]


def test_a_misread_hold_at_rest_is_no_flag(game):
    game.apply(game.parse_action({"type": "attack"}))
    r = read(game, seen(game, aboard={"Arriba": 8000}))  # carries Havana's 4,000
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]
    game.apply(game.parse_action({"type": "end_move"}))  # and while the cards are entered
    r = read(game, seen(game, aboard={"Arriba": 6000}))
    assert r.status == "same"
    # but a lid seen where the game has an empty hold is a change: flagged while no ship moves
    r = read(game, seen(game, aboard={"Bravo": None}))
    assert r.status == "illegal" and "no ship is being moved now" in str(r.reason)


def test_a_sail_of_the_lids_colour_fits_an_empty_hold_and_a_laden_one(game):
    assert chests_fit(chest_view(game), seen(game, aboard={"Diabolo": None}, maybe=["Diabolo"]))
    assert not chests_fit(chest_view(game), seen(game, aboard={"Diabolo": None}))  # a lid seen: laden


def _two_laden_side_by_side(game):
    game.hold["Arriba"] = "Havana"
    game.face_up["Havana"].remove("Havana")
    game.hold["Bravo"] = "Tortuga"
    game.face_up["Tortuga"].remove("Tortuga")
    game.ship_at["Bravo"], game.occupant = 13, {v: k for k, v in {**game.ship_at, "Bravo": 13}.items()}


def test_two_ships_chests_exchanged_are_read_only_when_both_values_are_read(game):
    _two_laden_side_by_side(game)
    r = read(game, seen(game, aboard={"Arriba": 7000, "Bravo": 4000}))
    assert r.status == "pending" and r.actions == [{"type": "swap", "ship": "Bravo"}]
    # one of them unsure: a single misread value is no swap, the history stands (the move's end)
    r = read(game, seen(game, aboard={"Arriba": 7000, "Bravo": None}))
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]


def test_the_tally_counts_holds_known_from_the_camera_and_asked(game):
    setup = game.setup
    g = Karibik(setup)
    rows = [SimpleNamespace(action={"type": "deal", "towns": ["Tortuga", "Havana", "Nassau", "Port Royal", "Santiago",
                                                               "San Juan"]}, source="phone"),
            SimpleNamespace(action={"type": "place_ships", "spaces": [32, 42, 36, 34, 44, 46]}, source="phone")]
    rows += [SimpleNamespace(action={"type": "card", "player": p, "card": c}, source="phone")
             for p, c in (("Red", 3), ("Blue", 1), ("Green", 0))]
    rows += [SimpleNamespace(action={"type": "sail", "path": [22, 12]}, source="camera"),
             SimpleNamespace(action={"type": "attack"}, source="camera")]
    tally = hold_tally(g, rows, lambda x: dict(x.hold))
    assert (tally.known, tally.asked) == (1, 0)
    rows[-1] = SimpleNamespace(action={"type": "attack"}, source="phone")
    tally = hold_tally(Karibik(setup), rows, lambda x: dict(x.hold))
    assert (tally.known, tally.asked) == (0, 1) and "asked on the phone 1" in tally.line()


def test_a_chest_hidden_on_a_crowded_space_is_no_flag_but_one_more_is(game):
    # Havana's chest not seen (touching Arriba in port), Arriba's hold read empty: nothing happened, the move ends
    r = read(game, seen(game, drop=[12]))
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]
    # a chest seen where the game has none is not hidden: flagged
    r = read(game, seen(game, spaces={40: [("down", None)]}))
    assert r.status == "illegal" and "no chest action of Arriba explains it" in str(r.reason)
    # and the raid is still read when the hold shows the chest taken
    r = read(game, seen(game, aboard={"Arriba": None}, drop=[12]))
    assert r.status == "pending" and r.actions == [{"type": "attack"}]


def test_a_chest_wholly_under_the_sail_is_no_flag(game):
    game.apply(game.parse_action({"type": "attack"}))  # Arriba carries Havana's 4,000
    r = read(game, seen(game, aboard={"Arriba": 0}))  # its deck shows no lid: under the sail
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]
    # a lid where the game has an empty hold is said so
    r = read(game, seen(game, aboard={"Bravo": None}))
    assert r.status == "illegal" and "Bravo carries a chest (its value not read)" in str(r.reason)


def test_a_value_read_sure_against_the_history_is_said_not_taken(game):
    """The game's memory of a chest (its value followed it from the port where it lay face up) is not overwritten
    by one frame that reads another value sure, nor dropped silently: the reading stands and a note says it."""
    assert contradicted(check_holds({"A": 7000, "B": 4000, "C": 5000, "D": 0},
                                    {"A": 5000, "B": None, "C": MAYBE, "D": 0})) == [
        check_holds({"A": 7000}, {"A": 5000})["A"]]  # only a sure value, laden alike
    game.apply(game.parse_action({"type": "attack"}))  # Arriba carries Havana's 4,000
    r = read(game, seen(game, aboard={"Arriba": 8000}))
    assert r.status == "pending" and r.actions == [{"type": "end_move"}]  # the history stands
    said = [str(n) for n in r.notes]
    assert len(said) == 1 and "8,000 on Arriba's deck" in said[0] and "the 4,000 chest of Havana" in said[0], said
    # unsure, or read right: nothing to say
    for value in (None, 4000):
        assert read(game, seen(game, aboard={"Arriba": value})).notes == []
    game.apply(game.parse_action({"type": "end_move"}))  # while the cards are entered: the same, said
    r = read(game, seen(game, aboard={"Arriba": 6000}))
    assert r.status == "same" and any("6,000 on Arriba's deck" in str(n) for n in r.notes)


def test_a_chest_action_that_explains_the_values_is_no_contradiction(game):
    _two_laden_side_by_side(game)
    r = read(game, seen(game, aboard={"Arriba": 7000, "Bravo": 4000}))  # the swap read: the values agree after it
    assert r.actions == [{"type": "swap", "ship": "Bravo"}] and r.notes == []
    r = read(game, seen(game, aboard={"Arriba": 7000, "Bravo": None}))  # one read: no swap, the history stands, said
    assert r.actions == [{"type": "end_move"}] and [str(n) for n in r.notes] == [
        "the camera reads 7,000 on Arriba's deck, but Arriba carries the 4,000 chest of Havana: the game's chest is "
        "kept (if the chests were exchanged, enter it on the phone)"]
