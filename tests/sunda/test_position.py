"""Scoring a layout read off the table (no action log, no piece identities)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.games.sunda.engine import Sunda
from tablehub.games.sunda.position import PositionError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "docs/examples/sunda-position.json").read_text())


def test_the_example_scores_a_tribe_and_markers_on_a_closed_island_of_three_pieces():
    result = Sunda.score_position(EXAMPLE, "example")
    assert result.scores == {"Ana": 24, "Ben": 6}
    assert any("complete island" in line and "3 x 4 = 12" in line for line in result.lines)
    assert result.winners() == ["Ana"]


def test_tablehub_score_reads_a_position(capsys):
    assert main(["score", str(ROOT / "docs/examples/sunda-position.json")]) == 0
    out = capsys.readouterr().out
    assert "Totals: Ana 24, Ben 6 (Ana wins)" in out


def test_an_open_island_scores_half():
    data = copy.deepcopy(EXAMPLE)
    del data["position"]["pieces"][2]   # the hexagon lacks a third: no node, so no tribe either
    data["position"]["tribes"], data["position"]["markers"] = [], []
    assert Sunda.score_position(data, "x").scores == {"Ana": 0, "Ben": 0}


@pytest.mark.parametrize("change, words", [
    (lambda p: p["pieces"].append({"q": 0, "r": 0, "turn": 0, "sides": "WWW WWW WWW WWW"}),
     "position.pieces[4]: overlaps the piece at 0,0 turn 0"),
    (lambda p: p["pieces"].append({"q": 4, "r": -1, "turn": 0, "sides": "LLL LLL LLL LLL"}),
     "position.pieces[4]: side 3 (LLL) does not continue"),
    (lambda p: p["pieces"][0].update(sides="LL"), "position: piece p1: field 'sides'"),
    (lambda p: p["tribes"][0].update(q=5), "position.tribes[0]: 5,0 is not a land node"),
    (lambda p: p["tribes"][0].update(pawns=["Ana"] * 6), "at most 5 pawns"),
    (lambda p: p["tribes"][0].update(pawns=["Zed"]), "pawns must list owners"),
    (lambda p: p.update(water_rights=[{"q": 1, "r": 0, "owner": "Ana"}]), "is not a fresh-water node"),
    (lambda p: p["markers"].append({"marker": "red", "q": 3, "r": 3}), "has neither"),
    (lambda p: p.update(colour=1), "unknown field(s) colour"),
])
def test_a_bad_position_gets_one_line_naming_the_field(change, words):
    data = copy.deepcopy(EXAMPLE)
    change(data["position"])
    with pytest.raises(PositionError) as err:
        Sunda.score_position(data, "table.json")
    assert "\n" not in str(err.value) and str(err.value).startswith("table.json") and words in str(err.value), err.value


def test_without_the_tribes_level_a_node_holds_one_pawn_and_markers_need_resources():
    data = copy.deepcopy(EXAMPLE)
    data["options"] = {}
    with pytest.raises(PositionError, match="at most 1 pawn on a node without the tribes level"):
        Sunda.score_position(data, "x")
    data["position"]["tribes"][0]["pawns"] = ["Ben"]
    with pytest.raises(PositionError, match="resources are not played"):
        Sunda.score_position(data, "x")
    data["position"]["markers"] = []
    assert Sunda.score_position(data, "x").scores == {"Ana": 0, "Ben": 2}
