"""Scenario tests, rule by rule. The test track (conftest.TEST_TRACK), clockwise from space 0:
A green, B white, C black, D blue, E green, F white, A black, B blue, C green, D white, E black, F blue."""
from __future__ import annotations

import pytest

from tablehub.games.base import IllegalAction, SetupError, Setup
from tablehub.games.tahiti.actions import (Bid, Pass, PlaceBoat, PlaceSailboat, Roll, Save, StartPearl, TakeLetter,
                                           TakePearl)
from tablehub.games.tahiti.board import SECTORS, parse_cell
from tablehub.games.tahiti.engine import Tahiti
from tablehub.games.tahiti.scoring import MapBoat


def run_out(game: Tahiti, colour: str) -> None:
    """Given: every pearl of ``colour`` has been taken."""
    game.supply[colour] = 0
    game.exhausted.append(colour)


# --------------------------------------------------------------------------- setup


def test_setup_gives_each_player_a_sailboat_15_dollars_and_a_pearl(make_table):
    t = make_table(spaces=(3, 7, 3), pearls=("blue", "green", "white"))
    assert t.me("Ana") == {"cash": 15, "vault": 0, "boats_left": 14, "boats_on_map": 0, "pearl": "blue",
                           "letter": None, "letter_space": None, "sailboat": 3}
    assert t.me("Ben")["sailboat"] == 7 and t.me("Ben")["pearl"] == "green"
    table = t.game.resources()["table"]
    assert table["pearls_left"] == {"green": 5, "white": 5, "black": 6, "blue": 5}
    assert table["disc"] == "$", "the disc starts with its $ face up"
    assert t.game.waiting_for() == "Ana to roll the die"


def test_two_players_cannot_start_with_the_same_colour(make_table):
    game = Tahiti(Setup("tahiti", ("Ana", "Ben")))
    game.apply(PlaceSailboat(0))
    game.apply(PlaceSailboat(5))
    game.apply(StartPearl("white"))
    with pytest.raises(IllegalAction) as err:
        game.apply(StartPearl("white"))
    assert err.value.rule == "pearl_taken"
    assert "Ana already took a white pearl" in str(err.value)


def test_setup_goes_sailboats_first_then_pearls_one_turn_each():
    game = Tahiti(Setup("tahiti", ("Ana", "Ben", "Cy")))
    with pytest.raises(IllegalAction, match="waiting for Ana to place their sailboat") as err:
        game.apply(Roll(3))
    assert err.value.rule == "wrong_phase"
    turns = []
    for action in (PlaceSailboat(0), PlaceSailboat(4), PlaceSailboat(4), StartPearl("blue"), StartPearl("black"),
                   StartPearl("green")):
        game.apply(action)
        turns.append(game.turn)
    assert turns == [1, 2, 3, 4, 5, 6], "each player's setup step is a turn of its own"
    with pytest.raises(IllegalAction) as err:
        Tahiti(Setup("tahiti", ("Ana", "Ben"))).apply(PlaceSailboat(12))
    assert err.value.rule == "space"


@pytest.mark.parametrize("players", [("Ana",), ("A", "B", "C", "D", "E")])
def test_tahiti_is_for_two_to_four_players(players):
    with pytest.raises(SetupError, match="needs 2 to 4 players"):
        Tahiti(Setup("tahiti", players))


# --------------------------------------------------------------------------- the die and its events


def test_pay_day_pays_a_dollar_per_boat_on_the_map_then_blanks_are_ignored(table):
    table.win("Ana", 1)  # Ana sails to space 1 (B, white), holding her green pearl
    table.do(PlaceBoat("BB"))
    assert table.game.waiting_for() == "Ben to roll the die"
    table.do(Roll("blank"))
    assert [table.cash(p) for p in ("Ana", "Ben", "Cy")] == [16, 15, 15], "Ana has one boat on the map"
    assert table.game.disc == "treasure", "the disc flips after the event"
    table.do(Roll("blank"))
    assert [table.cash(p) for p in ("Ana", "Ben", "Cy")] == [16, 15, 15], "a second blank in the turn is ignored"
    assert table.game.phase == "roll" and table.game.current_player == "Ben", "Ben rolls again"
    table.do(Roll(2))
    assert table.game.phase == "auction"


def test_treasure_lets_everyone_save_from_the_roller_on(table):
    table.game.disc = "treasure"  # given: the disc shows the treasure
    table.do(Roll("blank"))
    assert table.game.waiting_for() == "Ana to announce their savings (0-10 $)"
    table.refused(Save(11), "save_range")
    table.do(Save(10), Save(0))
    assert table.game.current_player == "Cy"
    table.do(Save(4))
    assert [table.me(p)["vault"] for p in ("Ana", "Ben", "Cy")] == [10, 0, 4]
    assert [table.cash(p) for p in ("Ana", "Ben", "Cy")] == [5, 15, 11]
    assert table.game.disc == "$" and table.game.phase == "roll" and table.game.current_player == "Ana"
    table.do(Roll("blank"))
    assert table.game.phase == "roll", "no second event in one turn"
    table.nobody_bids(2)
    table.do(Roll("blank"))
    assert table.game.disc == "treasure", "a new turn's blank brings the next event (pay day)"


def test_savings_cannot_exceed_cash(table):
    table.game.state[1].cash = 3  # given: Ben has 3 $
    table.game.disc = "treasure"
    table.do(Roll("blank"), Save(0))
    message = table.refused(Save(4), "save_above_cash")
    assert message == "Ben has only 3 $ in cash, cannot save 4 $"


def test_the_die_has_only_its_faces(table):
    table.refused({"type": "roll", "face": 5}, "die_face")
    table.refused({"type": "roll", "face": "white"}, "die_face")


# --------------------------------------------------------------------------- the auction


def test_the_last_bidder_pays_the_first_to_pass_and_sails_exactly(table):
    table.do(Roll(3), Bid(2), Bid(3), Pass(), Bid(5))
    assert table.game.current_player == "Ben", "Cy passed for good: Ben is next after Ana"
    table.do(Pass())
    assert [table.cash(p) for p in ("Ana", "Ben", "Cy")] == [10, 15, 20], "Ana pays her 5 $ to Cy, first to pass"
    assert table.me("Ana")["sailboat"] == 3, "Ana's sailboat moves exactly 3 spaces"
    assert table.game.waiting_for() == "Ana to take letter D and place the green pearl in sector D"


def test_bids_must_rise_and_stay_within_cash(table):
    table.do(Roll(2), Bid(4))
    table.refused(Bid(4), "bid_too_low")
    message = table.refused(Bid(16), "bid_above_cash")
    assert message == "Ben has only 15 $ in cash, cannot bid 16 $"
    table.refused({"type": "bid", "amount": 7, "player": "Cy"}, "not_your_turn")
    table.refused(PlaceBoat("AA"), "wrong_phase")


def test_a_pass_is_for_good(table):
    table.do(Roll(2), Pass(), Bid(1), Bid(2))
    assert table.game.current_player == "Ben", "Ana passed: the bidding goes from Cy back to Ben"
    table.do(Pass())
    assert table.game.phase == "choose" and table.game.current_player == "Cy"
    assert table.cash("Ana") == 17 and table.cash("Cy") == 13


def test_when_nobody_bids_nobody_moves(table):
    table.nobody_bids(4)
    assert [table.me(p)["sailboat"] for p in ("Ana", "Ben", "Cy")] == [0, 0, 0]
    assert [table.cash(p) for p in ("Ana", "Ben", "Cy")] == [15, 15, 15]
    assert table.game.waiting_for() == "Ben to roll the die"
    assert table.game.note == "nobody bid for the 4: nobody moves"


def test_a_bid_of_nothing_wins_when_everyone_else_passes(make_table):
    t = make_table(players=("Ana", "Ben"), spaces=(11, 0))
    t.do(Roll(3), Bid(0), Pass())
    assert t.cash("Ana") == 15 and t.cash("Ben") == 15
    assert t.me("Ana")["sailboat"] == 2, "from space 11, three spaces clockwise is space 2"


def test_a_player_who_did_not_bid_yet_may_still_bid_when_all_others_passed(make_table):
    t = make_table(players=("Ana", "Ben"))
    t.do(Roll(2), Pass())
    assert t.game.current_player == "Ben" and t.game.phase == "auction"
    t.do(Bid(1))
    assert t.cash("Ben") == 14 and t.cash("Ana") == 16


# --------------------------------------------------------------------------- letters, pearls and boats


def test_with_a_pearl_in_front_you_must_take_the_letter_and_place_in_its_sector(table):
    table.win("Ana", 2)  # space 2: C, black
    table.refused(TakePearl(), "must_take_letter")
    table.refused(TakeLetter(), "must_take_letter")
    message = table.refused(PlaceBoat("AA"), "outside_sector")
    assert message == "AA is outside sector C (row C and column C)"
    table.refused(PlaceBoat("CA", pearl="black"), "pearl_held")
    table.do(PlaceBoat("FC"))
    assert table.game.map[parse_cell("FC")] == MapBoat("Ana", "green"), "her own green pearl goes on FC"
    assert table.me("Ana")["pearl"] is None and table.me("Ana")["boats_on_map"] == 1
    assert table.game.supply["black"] == 5, "taking the letter takes no pearl"


def test_with_nothing_in_front_you_choose_the_letter(table):
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    table.nobody_bids(1)  # Ben's turn
    table.nobody_bids(1)  # Cy's turn
    table.win("Ana", 3)  # space 4: E, green
    assert table.game.waiting_for() == "Ana to take letter E or a green pearl"
    table.refused(PlaceBoat("EA"), "must_choose")
    table.do(TakeLetter())
    assert table.me("Ana")["letter"] == "E" and table.me("Ana")["letter_space"] == 4
    assert table.me("Ana")["boats_left"] == 13
    assert table.game.view()["track"][4]["letter_boats"] == ["Ana"]


def test_with_nothing_in_front_you_may_take_a_pearl(table):
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    table.nobody_bids(1)
    table.nobody_bids(1)
    table.win("Ana", 1)  # space 2: C, black
    assert table.game.supply["black"] == 5, "Cy started with a black pearl"
    table.do(TakePearl())
    assert table.me("Ana")["pearl"] == "black" and table.game.supply["black"] == 4
    assert table.me("Ana")["boats_left"] == 13


def test_with_a_letter_you_must_take_the_pearl_and_place_in_the_letters_sector(table):
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    table.nobody_bids(1)
    table.nobody_bids(1)
    table.win("Ana", 3)
    table.do(TakeLetter())  # letter E on space 4
    table.nobody_bids(1)
    table.nobody_bids(1)
    table.win("Ana", 2)  # space 6: A, black
    assert table.game.waiting_for() == "Ana to take a black pearl and place the boat in sector E"
    table.refused(TakeLetter(), "must_take_pearl")
    table.refused(PlaceBoat("AA"), "outside_sector")
    table.refused(PlaceBoat("MM"), "tahiti")
    table.refused(PlaceBoat("ZZ"), "cell")
    table.refused(PlaceBoat("BA"), "outside_sector")
    table.do(PlaceBoat("AE"))
    assert table.game.map[parse_cell("AE")] == MapBoat("Ana", "black")
    assert table.me("Ana")["letter"] is None and table.game.supply["black"] == 4, "Cy has one, Ana took one"
    assert table.game.view()["track"][4]["letter_boats"] == [], "the letter boat left the track"


def test_one_boat_per_cell(table):
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    table.win("Ben", 1)
    message = table.refused(PlaceBoat("BA"), "cell_taken")
    assert message == "BA already holds Ana's boat"


def test_a_full_sector_changes_nothing(table):
    for cell in SECTORS["C"]:  # given: sector C is full
        table.game.map[cell] = MapBoat("Cy", "blue")
    table.win("Ana", 2, bid=1)  # space 2: C
    assert table.me("Ana")["pearl"] == "green", "Ana keeps her pearl"
    assert table.me("Ana")["sailboat"] == 2 and table.cash("Ana") == 14, "she still paid and sailed"
    assert table.game.waiting_for() == "Ben to roll the die"
    assert table.game.note.endswith("sector C is full: nothing changes")


def test_fifteen_boats_each(table):
    assert table.me("Ana")["boats_left"] == 14, "the starting pearl sits on one of the 15 boats"
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    table.game.state[0].boats = 0  # given: Ana has used all her boats
    table.nobody_bids(1)
    table.nobody_bids(1)
    table.win("Ana", 1)
    assert table.game.note.endswith("no boat left: nothing changes")
    assert table.game.current_player == "Ben"


# --------------------------------------------------------------------------- running out of a colour


def _free_choice_on(table, die: int):
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    table.nobody_bids(1)
    table.nobody_bids(1)
    table.win("Ana", die)


def test_a_colour_that_ran_out_is_replaced_by_a_colour_of_your_choice(table):
    _free_choice_on(table, 3)  # space 4: green
    run_out(table.game, "green")
    table.refused(TakePearl(), "substitute_required")
    table.refused(TakePearl("green"), "colour_exhausted")
    table.refused(TakePearl("pink"), "unknown_colour")
    table.do(TakePearl("blue"))
    assert table.me("Ana")["pearl"] == "blue" and table.game.supply["blue"] == 5


def test_a_substitute_is_refused_while_the_colour_is_in_supply(table):
    _free_choice_on(table, 3)
    message = table.refused(TakePearl("blue"), "colour_in_supply")
    assert message.startswith("the green pearls are still in supply: take green, not blue")


def test_a_letter_holder_places_a_substitute_pearl(table):
    _free_choice_on(table, 3)
    table.do(TakeLetter())  # letter E
    table.nobody_bids(1)
    table.nobody_bids(1)
    run_out(table.game, "black")
    table.win("Ana", 2)  # space 6: black
    table.refused(PlaceBoat("EA"), "substitute_required")
    table.do(PlaceBoat("EA", pearl="white"))
    assert table.game.map[parse_cell("EA")] == MapBoat("Ana", "white")


def test_taking_the_last_pearl_of_a_colour_exhausts_it(table):
    _free_choice_on(table, 3)
    table.game.supply["green"] = 1
    table.do(TakePearl())
    assert table.game.resources()["table"]["exhausted"] == ["green"]
    assert not table.game.finished, "one colour out: the game goes on"


def test_the_second_colour_running_out_ends_the_game_and_the_letter_holder_places(table):
    _free_choice_on(table, 3)
    table.do(TakeLetter())  # letter E
    table.nobody_bids(1)
    table.nobody_bids(1)
    run_out(table.game, "white")
    table.game.supply["black"] = 1
    table.game.state[0].vault = 3
    table.win("Ana", 2)  # space 6: the last black pearl
    events = table.game.apply(PlaceBoat("EF"))
    assert table.game.finished, "the second colour ran out: the game is over at once"
    assert table.game.map[parse_cell("EF")] == MapBoat("Ana", "black")
    assert {e.kind for e in events} == {"final"}
    assert table.game.scores()["Ana"] == 3 + 5 + 5, "vault 3, the BA bank (5 empty cells), the EF bank (5)"
    table.refused(Roll(2), "game_over")


def test_the_second_colour_taken_as_a_free_pearl_is_bought_for_nothing(table):
    _free_choice_on(table, 3)
    run_out(table.game, "white")
    table.game.supply["green"] = 1
    table.do(TakePearl())
    assert table.game.finished
    assert table.me("Ana")["pearl"] == "green" and table.game.scores()["Ana"] == 5, "only the BA bank counts"


# --------------------------------------------------------------------------- the end


def test_the_final_score_is_vault_plus_banks_and_cash_does_not_count(table):
    table.win("Ana", 1, bid=4)
    table.do(PlaceBoat("BA"))
    table.game.state[1].vault = 9  # given: Ben saved 9 $
    events = table.game.finish()
    assert table.game.scores() == {"Ana": 5, "Ben": 9, "Cy": 0}
    assert table.cash("Ben") == 19, "Ben's cash (15 + 4 from Ana) scores nothing"
    assert "Ben +9: vault: 9 $ saved = 9 points" in [str(e) for e in events]
    assert table.game.finish() == [] and table.game.scores()["Ana"] == 5, "finish is idempotent"
    assert table.game.final_lines[-1] == "Totals: Ana 5, Ben 9, Cy 0 (Ben wins)"


def test_tied_players_share_the_win(table):
    table.game.state[0].vault = 7
    table.game.state[2].vault = 7
    table.game.finish()
    assert table.game.winners() == ["Ana", "Cy"]
    assert table.game.final_lines[-1].endswith("(Ana and Cy share the win)")


def test_every_legal_action_validates_and_bids_run_up_to_cash(table):
    table.do(Roll(2), Bid(3))
    legal = list(table.game.legal_actions())
    assert legal[0] == Pass("Ben") and legal[-1] == Bid(15, "Ben") and Bid(4, "Ben") in legal
    assert len(legal) == 1 + 12
    assert all(table.game.validate(a) is None for a in legal)


def test_legal_placements_are_the_free_cells_of_the_sector(table):
    table.win("Ana", 2)  # C
    cells = {a.cell for a in table.game.legal_actions()}
    assert len(cells) == 13 and "CC" in cells and "MC" in cells and "MM" not in cells


def test_the_actions_of_one_turn_share_its_number(table):
    start = table.game.turn
    table.game.disc = "treasure"
    table.do(Roll("blank"), Save(1), Save(2), Save(3), Roll(2), Pass(), Bid(1), Pass(), PlaceBoat("CB"))
    assert table.game.turn == start + 1
    table.do(Roll(1))
    assert table.game.turn == start + 2


def test_resources_and_view_describe_the_table(table):
    table.win("Ana", 1)
    table.do(PlaceBoat("BA"))
    view = table.game.view()
    assert view["kind"] == "tahiti" and len(view["cells"]) == 49 and len(view["track"]) == 12
    cell = next(c for c in view["cells"] if c["cell"] == "BA")
    assert cell["boat"] == {"owner": "Ana", "pearl": "green"} and cell["sectors"] == ["A", "B"]
    assert next(c for c in view["cells"] if c["tahiti"])["cell"] == "MM"
    assert view["track"][1]["sailboats"] == ["Ana"] and view["track"][0]["sailboats"] == ["Ben", "Cy"]
    assert view["fronts"] == {"Ana": None, "Ben": "white", "Cy": "black"}
    assert view["provisional"] is None, "the test board says it is not provisional"
    table_res = table.game.resources()["table"]
    assert table_res["pearls_left"]["green"] == 5 and table_res["disc"] == "$"
