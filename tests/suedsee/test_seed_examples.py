"""Every worked example of seed 000 (Carcassonne Südsee): scenario files played on the shipped tiles, the five
ships the rule book describes, and the 27-point final score."""
from pathlib import Path

import pytest

from tablehub.games.base import Setup
from tablehub.games.suedsee.engine import Deliver, Suedsee
from tablehub.scenario import load_scenario, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_there_is_a_scenario_for_every_worked_example():
    names = {p.stem for p in SCENARIOS}
    for example in ("bridge_complete_2_shells", "bridge_complete_4_shells", "island_complete_2_bananas_same_turn",
                    "island_complete_4_bananas", "sea_closed_5_fish", "fishing_boat_5_fish",
                    "fishing_boat_3_fish_same_turn", "occupied_bridge_refused", "occupied_bridge_fisher_allowed",
                    "occupied_island_refused", "fishers_share_a_sea", "island_tie_4_bananas_each",
                    "market_award_with_choice", "two_markets_in_turn_order", "final_evaluation",
                    "delivery_after_earning_goods", "take_back_only_with_empty_supply", "take_back_any_option"):
        assert example in names, f"no scenario for the seed example {example}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    run_scenario(load_scenario(path), str(path))


def _events(name: str) -> list[str]:
    game = run_scenario(load_scenario(Path(__file__).parent / "scenarios" / f"{name}.json"))
    return [str(e) for e in game.score_log]


def test_the_final_evaluation_explains_each_area_like_the_rule_book():
    events = _events("final_evaluation")
    assert ("Red +0: final evaluation: gains 4 bananas: incomplete island of 5 tiles with 4 bananas "
            "(most banana pickers: Red 2 against Blue 1)") in events
    assert ("Green +0: final evaluation: gains 3 shells: incomplete bridge of 3 tiles with 3 shells "
            "(Green's shell collector alone)") in events
    assert "Black +0: final evaluation: the incomplete market at 2, 1 gives nothing" in events
    tie = "(Blue and Yellow tie for most fishers with 1 each: every tied player gets them all)"
    assert f"Blue +0: final evaluation: gains 4 fish: incomplete sea of 7 tiles with 4 uncovered fish {tie}" in events
    assert f"Yellow +0: final evaluation: gains 4 fish: incomplete sea of 7 tiles with 4 uncovered fish {tie}" in events
    assert "Yellow +2: 6 goods left (2 bananas + 4 fish): 1 point per 3 goods = 2" in events


def test_the_fishing_boat_example_says_which_fish_group_it_covers():
    events = _events("fishing_boat_5_fish")
    assert events[0] == ("Red +0: gains 5 fish: incomplete sea of 3 tiles with 5 uncovered fish, evaluated because "
                         "the new tile brings a fishing boat (Red's fisher alone); a fishing boat token covers the "
                         "2-fish group on V3 at 0, 1")


def test_the_market_example_says_the_ship_was_chosen_among_equals():
    events = _events("market_award_with_choice")
    assert events == ["Red +0: completed market at 0, 1: the trader takes ship s15 (7 goods of the player's choice; "
                      "6 points), chosen among the equal highest face-up ships, without delivering; 6 points at "
                      "the end"]


def test_two_markets_are_awarded_in_turn_order_from_the_active_player():
    events = _events("two_markets_in_turn_order")
    assert [e.split(":")[0] for e in events] == ["Blue +0", "Red +0"]
    assert "takes ship s10" in events[0] and "chosen among the equal highest" in events[0]
    assert "takes ship s15" in events[1] and "the highest face-up ship" in events[1]


# ---- the five ships of the rule book, each delivered as in its example


@pytest.mark.parametrize("ship,goods,holding,value", [
    ("s01", None, {"shell": 2, "fish": 1, "banana": 1}, 5),        # 2 shells, 1 fish, 1 banana: 5 points
    ("s02", {"fish": 3, "banana": 3}, {"fish": 3, "banana": 3}, 5),  # 6 of the player's choice: 3 fish + 3 bananas
    ("s03", {"shell": 4}, {"shell": 4}, 3),                        # 4 identical goods: 4 shells
    ("s04", {"fish": 5}, {"fish": 5}, 4),                          # 5 of the player's choice: 5 fish
    ("s05", {"shell": 3, "banana": 1}, {"shell": 3, "banana": 1}, 3),  # 3 of one kind + 1 of another
])
def test_the_rule_book_ships_take_the_goods_of_its_examples(make, ship, goods, holding, value):
    t = make(ships=(ship, "s06", "s07", "s08"))
    t.play(("U1", 1, 0, 90), None)
    t.give("Red", **holding)
    t.play(Deliver(ship, goods))
    red = t.has("Red")
    assert red["goods"] == 0, "Red paid every good the ship asks for"
    assert red["ships"] == [ship] and red["ship_points"] == value
    assert t.game.resources()["table"]["waiting_for"].startswith("reveal the ship turned face up")


def test_rouge_scores_27_with_six_ships_and_ten_goods():
    g = Suedsee(Setup("suedsee", ("Red", "Blue")))
    g.taken[0] = ["s06", "s03", "s04", "s11", "s01", "s10"]  # worth 2 + 3 + 4 + 4 + 5 + 6 = 24
    g.goods[0].update({"shell": 4, "banana": 3, "fish": 3})  # 10 goods = 3 sets of 3
    g.finish()
    assert g.scores()["Red"] == 27, "24 for the ships + 3 for 10 goods"
    assert [e.points for e in g.score_log if e.player == "Red"] == [2, 3, 4, 4, 5, 6, 3]
    assert all(e.kind == "final" for e in g.score_log)


def test_rouge_scores_27_from_a_counted_table():
    position = {"game": "suedsee", "players": ["Rouge"],
                "position": {"ships": {"Rouge": [2, 3, 4, 4, 5, 6]},
                             "goods": {"Rouge": {"shell": 4, "banana": 3, "fish": 3}}}}
    result = Suedsee.score_position(position, "seed example")
    assert result.scores == {"Rouge": 27}
    assert result.lines[-2] == "Rouge +3: 10 goods left (4 shells + 3 bananas + 3 fish): 1 point per 3 goods = 3"
    assert result.lines[-1] == "Totals: Rouge 27 (Rouge wins)"
