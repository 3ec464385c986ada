"""Karibik engine: set-up errors, refusals that name the rule in one line, resources, the view,
the words for the page."""
from __future__ import annotations

import json

import pytest

from tablehub.games import game_class, new_game
from tablehub.games.base import IllegalAction, Setup, SetupError
from tablehub.games.karibik.actions import (Attack, Card, Deal, EndMove, PlaceShips, RevealPile, Safeguard, Sail,
                                            Seventh, Swap, Transfer)
from tablehub.games.karibik.engine import Karibik

GRID = "grid"  # the packaged test board (docs/karibik.md)
FACE_UP = ("Tortuga", "Havana", "Nassau", "Port Royal", "Santiago", "San Juan")


def new(players=("Red", "Blue", "Green"), **options) -> Karibik:
    game = Karibik(Setup("karibik", tuple(players), tuple(p.lower() for p in players),
                         {"board": GRID, **options}))
    game.apply(Deal(FACE_UP))
    game.apply(PlaceShips((32, 42, 36, 34, 44, 46)))  # Bravo on 42, Diabolo on 34
    return game


def cards(game: Karibik, **shown: int) -> None:
    for player, card in shown.items():
        game.apply(Card(player, card))


def refused(game: Karibik, action, rule: str) -> str:
    before = json.dumps([game.resources(), game.view(), game.turn, len(game.history)], sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert err.value.rule == rule, f"refused under {err.value.rule!r} ({err.value}), expected {rule!r}"
    assert json.dumps([game.resources(), game.view(), game.turn, len(game.history)], sort_keys=True) == before
    assert "\n" not in str(err.value)
    return str(err.value)


def to_evita(game: Karibik) -> None:
    cards(game, Red=5, Blue=5, Green=4)  # Arriba: tied, nobody reveals
    game.apply(Seventh("Red"))
    game.apply(Seventh("Blue"))
    cards(game, Red=0, Blue=1, Green=0)  # Bravo: Blue, 1 space
    game.apply(Sail((43,)))
    game.apply(EndMove())
    cards(game, Red=4, Blue=4, Green=5)
    game.apply(EndMove())
    cards(game, Red=3, Blue=2, Green=1)
    game.apply(EndMove())
    cards(game, Red=2, Blue=-1, Green=3)


def test_refusals_name_the_rule_in_the_tables_words():
    game = new()
    to_evita(game)
    assert game.ship == "Evita" and game.mover == "Green"
    msg = refused(game, Sail((45, 35, 25)), "too_far")
    assert msg == "Evita may move 2 spaces: Green bid 3, Blue played a thief; this path enters 3"
    assert refused(game, Sail((43,)), "occupied") == "space 43 is occupied by Bravo"
    assert refused(game, Sail((45, 47)), "not_adjacent") == "space 47 is not adjacent to space 45"
    assert refused(game, Sail((99,)), "unknown_space") == "space 99 is not on the board"
    assert refused(game, EndMove("Red"), "not_your_ship") == "Green won the bid for Evita and moves it, not Red"
    assert refused(game, Card("Red", 1), "wrong_phase").startswith("card is not possible now: waiting for Green")
    assert refused(game, Attack(), "not_in_port") == "Evita is on space 44, not in a port: cannot attack"
    assert refused(game, Safeguard(), "not_on_hideout") == "Evita is on space 44, not on a hideout"
    assert refused(game, Transfer("Bravo"), "hold_empty") == "Evita carries no chest to hand over"
    assert refused(game, Transfer("Fuego"), "not_adjacent") == \
        "Fuego on space 46 is not adjacent to Evita on space 44"
    assert refused(game, Transfer("Queen Anne"), "unknown_ship").startswith("no ship 'Queen Anne'")
    game.apply(Sail((45,)))
    msg = refused(game, Sail((35, 25)), "too_far")
    assert msg == ("Evita may move 2 spaces: Green bid 3, Blue played a thief; it has sailed 1 already; "
                   "this path enters 2")


def test_setup_errors_are_one_line():
    with pytest.raises(SetupError, match="needs 2 to 4 players, got 5"):
        Karibik(Setup("karibik", ("A", "B", "C", "D", "E")))
    with pytest.raises(SetupError, match="colour 'pink' has no hideouts on this board"):
        Karibik(Setup("karibik", ("A", "B"), ("red", "pink")))
    with pytest.raises(SetupError, match="option 'goal' must be a whole number"):
        Karibik(Setup("karibik", ("A", "B"), options={"goal": "lots"}))
    assert game_class("caribbean") is Karibik
    assert new_game(Setup("caribbean", ("A", "B"))).name == "karibik"


def test_the_table_draws_are_checked():
    game = Karibik(Setup("karibik", ("Red", "Blue"), options={"board": GRID}))
    assert refused(game, PlaceShips((32, 34, 36, 42, 44, 46)), "wrong_phase")
    assert refused(game, Deal(FACE_UP[:5]), "chest_count") == "deal: name 6 chests by their towns, got 5"
    assert refused(game, Deal(FACE_UP[:5] + ("Atlantis",)), "unknown_town") == "deal: no town 'Atlantis' on this board"
    assert refused(game, Deal(FACE_UP[:5] + ("Tortuga",)), "chest_dealt")
    game.apply(Deal(FACE_UP))
    assert refused(game, PlaceShips((32, 34, 36, 42, 44, 45)), "not_a_skull") == \
        "Fuego must start on a skull space (32, 34, 36, 42, 44, 46), not 45"
    assert refused(game, PlaceShips((32, 32, 36, 42, 44, 46)), "occupied")
    game.apply(PlaceShips((32, 34, 36, 42, 44, 46)))
    assert refused(game, RevealPile(("Veracruz", "Campeche")), "wrong_phase")
    assert refused(game, Card("Red", 6), "card_value") == "a card is 0 to 5 barrels or -1 (the thief), got 6"
    assert refused(game, Card("Nobody", 1), "unknown_player")


def test_port_swap_can_be_switched_off():
    game = new(port_swap=False)
    cards(game, Red=5, Blue=0, Green=1)
    game.apply(Sail((22, 12)))
    game.apply(Attack())
    game.apply(Sail((13,)))
    assert refused(game, Swap(), "port_swap_off") == "swapping with a port is off in this game (option port_swap)"
    assert Swap() not in list(game.legal_actions())


def test_resources_hold_the_public_money_and_the_table():
    game = new()
    cards(game, Red=3, Blue=-1, Green=1)
    game.apply(Sail((22, 12)))
    game.apply(Attack())
    res = game.resources()
    assert res["players"]["Red"]["doubloons"] == 2000
    assert res["players"]["Red"]["hideouts"] == [21, 25, 38]
    table = res["table"]
    assert table["ships"]["Arriba"] == {"space": 12, "chest": "Havana", "value": 4000}
    assert "Havana" not in table["face_up"] and table["face_up"]["Tortuga"] == ["Tortuga"]
    assert table["piles_left"] == 5
    assert table["hideouts"]["24"] == {"colour": "yellow", "owner": None}, "yellow does not play: neutral"
    assert table["hideouts"]["22"] == {"colour": "blue", "owner": "Blue"}
    assert table["spaces_left"] == 0 and table["because"] == "Red bid 3, Blue played a thief"


def test_the_view_draws_ships_chests_path_and_reach():
    game = new()
    cards(game, Red=5, Blue=0, Green=1)
    game.apply(Sail((22, 12)))
    view = game.view()
    assert view["kind"] == "karibik"
    assert view["path"] == {"ship": "Arriba", "spaces": [32, 22, 12]}
    # 3 spaces left from 12 (Bravo on 42 and Diabolo on 34 block): 11 13 22 | 14 21 23 32 | 15 24 31 33
    assert sorted(view["reachable"]) == [11, 13, 14, 15, 21, 22, 23, 24, 31, 32, 33]
    space12 = next(s for s in view["spaces"] if s["id"] == 12)
    assert space12["port"] == "Havana" and space12["ship"] == "Arriba"
    havana = next(t for t in view["towns"] if t["name"] == "Havana")
    assert havana["face_up"] == [{"chest": "Havana", "value": 4000}]
    assert view["provisional"] is None, "the grid board is not provisional"
    assert Karibik(Setup("karibik", ("A", "B"))).view()["provisional"].startswith("Karibik: the board")


def test_the_page_words_for_actions():
    game = new()
    # the page writes the action's player beside these words ("Red  shows a thief (-1) on Arriba")
    assert game.describe(Card("Red", -1, "Arriba").to_dict()) == "shows a thief (-1) on Arriba"
    assert game.describe(Card("Red", 1).to_dict()) == "shows 1 barrel"
    assert game.describe(Seventh("Blue").to_dict()) == "keeps their 7th card hidden"
    assert game.describe(Sail((22, 12), "Red").to_dict()) == "Sail 2 spaces: 22 → 12 (Havana)"
    assert game.describe(Transfer("Bravo", True).to_dict()) == "Hand the chest to Bravo, safeguarded in its hideout"
    assert game.describe({"type": "deal", "towns": ["Tortuga"]}) == "Chests face up: Tortuga"


def test_the_draws_are_offered_to_the_phone():
    game = Karibik(Setup("karibik", ("Red", "Blue"), options={"board": GRID}))
    deals = list(game.legal_actions())
    assert len(deals) == 8008 and all(game.validate(d) is None for d in deals[:50])
    game.apply(Deal(FACE_UP))
    starts = list(game.legal_actions())
    assert len(starts) == 720 and PlaceShips((32, 34, 36, 42, 44, 46)) in starts
    game.apply(PlaceShips((32, 34, 36, 42, 44, 46)))
    while game.phase != "reveal_pile":
        i = game.ship_index
        cards(game, Red=-1, Blue=-1) if i == 0 else cards(game, Red=i - 1, Blue=i % 5)
        if game.phase == "move":
            game.apply(EndMove())
    piles = list(game.legal_actions())
    assert len(piles) == 45, "2 of the 10 chests still face down"
    assert all(game.validate(p) is None for p in piles)
