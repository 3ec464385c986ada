"""Challenges' dice: the seed's 5 x 5 table and the odds it prints, computed exactly."""
from __future__ import annotations

from fractions import Fraction

import pytest

from tablehub.games.sunda.dice import challenger_wins, dice_for, percent, table

SEED_TABLE = [  # rows: defender 1-5, columns: attacker 1-5 (seed 003)
    [1, 1, 2, 3, 3],
    [1, 1, 1, 2, 3],
    [2, 1, 1, 1, 2],
    [3, 2, 1, 1, 1],
    [3, 3, 2, 1, 1],
]


def test_the_dice_follow_the_seed_table():
    assert table() == SEED_TABLE
    assert dice_for(1, 4) == (1, 3) and dice_for(5, 1) == (3, 1) and dice_for(3, 3) == (1, 1)


@pytest.mark.parametrize("dice, shown", [((1, 3), "34.0 %"), ((1, 2), "42.1 %"), ((1, 1), "58.3 %"),
                                         ((2, 1), "74.5 %"), ((3, 1), "82.6 %")])
def test_the_odds_match_the_seed_and_rulings(dice, shown):
    assert percent(challenger_wins(*dice)) == shown


def test_the_odds_are_exact_fractions():
    assert challenger_wins(1, 1) == Fraction(21, 36)
    # brute force by another route: P(max of 2 >= one die)
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) for d in range(1, 7) if max(a, b) >= d)
    assert challenger_wins(2, 1) == Fraction(wins, 216)


def test_the_engine_reports_the_odds_before_the_dice(tmp_path):
    import json
    from pathlib import Path

    from tablehub.scenario import run_scenario

    from tablehub.games.sunda.drawing import expand

    data = json.loads((Path(__file__).parent / "scenarios" / "challenges.json").read_text())
    data = expand(data)
    cut = next(i for i, a in enumerate(data["actions"]) if a["type"] == "roll")
    data["actions"], data["expect"] = data["actions"][:cut], []
    game = run_scenario(data)
    ch = game.view()["challenge"]
    assert (ch["challenger_dice"], ch["defender_dice"], ch["odds"]) == (1, 1, 58.3)
    assert game.resources()["table"]["challenge"] == \
        "Ana's tribe at 3,1 against Ben's at 1,1: 58.3 % for the challenger (1 die v 1 die)"
    assert "58.3 %" in game.waiting_for() and "58.3 %" in game.view()["challenge"]["odds_text"]
