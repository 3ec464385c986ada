"""Engine rules beyond the scenarios: the three ends, chiefs, a challenge winner with no pawn left,
markers on merging islands, table words."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablehub.games.base import IllegalAction, Setup, SetupError
from tablehub.games.sunda.actions import Challenge, PlacePawn, Roll
from tablehub.games.sunda.engine import Sunda

from tablehub.games.sunda.drawing import expand, pieces, play

BIG = ["." * 9] + ["." + "#" * 7 + "."] * 6 + ["." * 9]   # 42 land nodes on one island


def test_the_game_ends_when_no_piece_in_the_pool_fits():
    extra = [{"id": "sea", "sides": "WWW WWW WWW WWW"}, {"id": "land", "sides": "LLL LLL LLL LLL"}]
    g = Sunda(Setup("sunda", ("Ana", "Ben"), options={"pieces": pieces(["."], extra)}))
    assert g.game_over is None
    g.apply(g.parse_action({"type": "place_piece", "piece": "sea", "q": 0, "r": 0}))
    assert g.game_over == "no piece in the pool fits the layout"
    with pytest.raises(IllegalAction) as err:
        g.apply(g.parse_action({"type": "place_piece", "piece": "land", "q": 1, "r": 0}))
    assert err.value.rule == "game_end"


def test_the_game_ends_when_every_pawn_is_placed():
    nodes = [(q, r) for r in range(1, 7) for q in range(1, 8)]
    g = play(BIG, players=("Ana",), claim=nodes)
    assert g.supply == [0] and g.game_over == "every pawn is placed"
    assert len(g.pool) > 0, "pieces were left"
    g.finish()
    assert g.scores()["Ana"] == 26 * 1, "an incomplete island: 1 per pawn"


def test_the_chief_is_the_most_pawns_then_the_most_recent_of_the_tied():
    g = Sunda(Setup("sunda", ("Ana", "Ben", "Cy")))
    g.tribes[(0, 0)] = [0, 1, 1, 0, 2]
    assert g.chief((0, 0)) == 0, "Ana and Ben have 2 each; Ana's pawn is higher"
    g.tribes[(0, 0)] = [0, 1, 2]
    assert g.chief((0, 0)) == 2


def test_a_challenge_winner_with_no_pawn_left_adds_none_and_the_losers_pawn_goes_home():
    data = expand(json.loads((Path(__file__).parent / "scenarios" / "challenges.json").read_text()))
    g = Sunda(Setup("sunda", tuple(data["players"]), options=data["options"]))
    for a in data["actions"]:
        if a["type"] == "roll":
            break
        if "refused" not in a and a["type"] != "expect":
            g.apply(g.parse_action(a))
    assert g.tribes == {(1, 1): [1, 1], (3, 1): [0]} and g.pending is not None  # Ana's 3,1 against Ben's 1,1
    g.supply[1] = 0  # Ben has placed every pawn
    g.apply(Roll((1,), (6,)))
    assert (3, 1) not in g.tribes, "Ana's only pawn went home and Ben had none to put on top"
    assert g.supply == [24, 0] and g.tribes == {(1, 1): [1, 1]}
    assert g.last_challenge["winner"] == "Ben" and g.last_challenge["replaced"] is False
    assert g.resources()["table"]["last_challenge"] == \
        "Ben won Ana's challenge, dice [1] v [6]; the tribe at 3,1 changed (Ben had no pawn to add)"


def test_describe_speaks_table_words():
    g = Sunda(Setup("sunda", ("Ana", "Ben")))
    assert g.describe({"type": "place_piece", "piece": "s010", "q": 2, "r": -1, "turn": 2}) == \
        "lays piece s010 at 2,-1, turned 120°"
    assert "challenges: the tribe at 1,1 against the tribe at 3,1" in \
        g.describe(Challenge((1, 1), (3, 1), "Ana").to_dict())
    assert g.describe(Roll((6,), (2, 3)).to_dict()) == "dice: challenger [6], defender [2, 3]"
    assert g.describe(PlacePawn(1, 2).to_dict()) == "puts a spirit pawn on the node 1,2"


def test_views_and_resources_are_json_and_name_the_provisional_set():
    g = Sunda(Setup("sunda", ("Ana", "Ben")))
    json.dumps([g.view(), g.resources(), g.summary()])
    assert "provisional" in g.view()["provisional"]
    assert g.resources()["table"]["pieces_left"] == 136


def test_setup_is_checked():
    with pytest.raises(SetupError, match="needs 1 to 4 players"):
        Sunda(Setup("sunda", ("A", "B", "C", "D", "E")))
    with pytest.raises(SetupError, match="option 'tribes' must be true or false"):
        Sunda(Setup("sunda", ("A",), options={"tribes": "yes"}))
