"""Pearl banks and positions: the rule book's final example, and the edges of the bank rule."""
from __future__ import annotations

import pytest

from tablehub.games.base import PositionResult
from tablehub.games.tahiti.engine import Tahiti
from tablehub.games.tahiti.scoring import PositionError, find_banks, score_position

# The rule book's example, laid out on the map (its picture is not in the seed; this layout gives its
# numbers). Ana, Ben and Cy are the book's players A (blue), B (violet) and C (red).
SEED_EXAMPLE = {
    "game": "tahiti",
    "players": ["Ana", "Ben", "Cy"],
    "position": {
        "boats": [
            {"cell": "AA", "owner": "Ana", "pearl": "white"}, {"cell": "AB", "owner": "Ana", "pearl": "white"},
            {"cell": "AC", "owner": "Ben", "pearl": "white"}, {"cell": "BA", "owner": "Ben", "pearl": "white"},
            {"cell": "BB", "owner": "Cy", "pearl": "white"},
            {"cell": "AF", "owner": "Ana", "pearl": "black"},
            {"cell": "FA", "owner": "Ben", "pearl": "green"},
            {"cell": "CA", "owner": "Cy", "pearl": "black"}, {"cell": "CB", "owner": "Cy", "pearl": "black"},
            {"cell": "CC", "owner": "Cy", "pearl": "black"},
            {"cell": "AE", "owner": "Ana", "pearl": "green"}, {"cell": "BE", "owner": "Ben", "pearl": "green"},
        ],
        "vaults": {"Ana": 0, "Ben": 0, "Cy": 0},
    },
}


def boats(*specs: str, owner: str = "Ana") -> dict:
    """``boats("AA white", "AB white:Ben")`` -> a position's boat list."""
    out = []
    for spec in specs:
        cell, rest = spec.split(" ")
        pearl, _, who = rest.partition(":")
        out.append({"cell": cell, "owner": who or owner, "pearl": pearl})
    return {"players": ["Ana", "Ben", "Cy"], "position": {"boats": out, "vaults": {}}}


def test_the_rule_book_example_gives_its_banks_and_totals():
    result = Tahiti.score_position(SEED_EXAMPLE, "seed example")
    assert isinstance(result, PositionResult)
    values = sorted(line.split(" = ")[1].split(" ")[0] for line in result.lines if " = " in line)
    assert sorted(map(int, values)) == sorted([15, 1, 3, 18, 12]), "the five banks are worth 15, 1, 3, 18 and 12"
    assert result.scores == {"Ana": 28, "Ben": 30, "Cy": 25}, "A 15+1+12 = 28, B 15+3+12 = 30, C 7+18 = 25"
    assert result.lines[-1] == "Totals: Ana 28, Ben 30, Cy 25 (Ben wins)"


def test_the_rule_book_example_explains_who_scores_what():
    result = score_position(SEED_EXAMPLE, "seed example")
    reasons = {(e.player, e.points): e.reason for e in result.events}
    assert reasons[("Cy", 7)] == ("1 of 5 boats in the white bank at AA AB AC BA BB: "
                                  "half of 15, rounded down = 7")
    assert reasons[("Ana", 15)].startswith("most boats (2 of 5, tied with Ben) in the white bank")
    assert reasons[("Cy", 18)].endswith("3 pearls x 6 empty cells = 18")
    assert "White bank at AA AB AC BA BB: 5 pearls x 3 empty cells = 15 (empty: AM BC BM)" in result.lines
    assert all(e.kind == "final" for e in result.events)
    assert sum(e.points for e in result.events if e.player == "Ben") == 30


def test_a_lone_pearl_in_open_water_is_worth_eight():
    result = score_position(boats("BB green"), "p")
    assert result.scores["Ana"] == 8, "one pearl with all 8 cells around it empty scores 1 x 8"


def test_tahiti_is_not_an_empty_cell():
    result = score_position(boats("CC blue"), "p")
    assert result.scores["Ana"] == 7, "CC touches Tahiti by a corner: 7 empty cells, not 8"


def test_pearls_joined_only_by_a_corner_are_two_banks():
    banks = find_banks({(0, 0): _b("Ana", "white"), (1, 1): _b("Ana", "white")})
    assert len(banks) == 2


def test_an_empty_cell_touching_a_bank_twice_counts_once():
    result = score_position(boats("AA black", "AB black"), "p")
    assert result.scores["Ana"] == 2 * 4, "AA and AB both touch BA and BB: 4 distinct empty cells (AC BA BB BC)"


def test_the_others_in_a_bank_score_half_rounded_down_whatever_their_rank():
    bank = ("BB white", "BC white", "BM white:Cy", "BD white:Cy", "BE white:Cy", "BF white:Ben")
    result = score_position(boats(*bank), "p")
    assert "White bank at BB BC BM BD BE BF: 6 pearls x 15 empty cells = 90" in result.lines[0]
    assert result.scores == {"Ana": 45, "Ben": 45, "Cy": 90}, "second (2 boats) and third (1 boat) both score half"


def test_an_odd_value_is_halved_rounding_down():
    result = score_position(boats("AA white", "AB white:Ben", "AC white:Ben"), "p")
    assert result.lines[0].startswith("White bank at AA AB AC: 3 pearls x 5 empty cells = 15")
    assert result.scores == {"Ana": 7, "Ben": 15, "Cy": 0}


def test_vaults_count_one_point_per_dollar():
    data = {"players": ["Ana", "Ben"], "position": {"boats": [], "vaults": {"Ana": 12, "Ben": 3}}}
    result = score_position(data, "p")
    assert result.scores == {"Ana": 12, "Ben": 3}
    assert "Vaults: Ana 12 $, Ben 3 $" in result.lines
    assert "No pearl on the map." in result.lines


def test_a_position_without_players_takes_them_from_boats_and_vaults():
    result = score_position({"boats": [{"cell": "AA", "owner": "Zoe", "pearl": "blue"}], "vaults": {"Yan": 4}}, "p")
    assert result.scores == {"Zoe": 3, "Yan": 4}


@pytest.mark.parametrize("boat, message", [
    ({"cell": "MM", "owner": "Ana", "pearl": "white"}, "MM is the island of Tahiti"),
    ({"cell": "ZZ", "owner": "Ana", "pearl": "white"}, "expected a cell: a row letter then a column letter"),
    ({"cell": "AA", "owner": "Eve", "pearl": "white"}, "owner must be one of Ana, Ben, Cy"),
    ({"cell": "AA", "owner": "Ana", "pearl": "pink"}, "pearl: expected one of 'green', 'white', 'black', 'blue', got 'pink'"),
    ({"cell": "AA", "owner": "Ana", "pearl": "white", "size": 3}, "unknown field 'size' (expected: cell, owner, pearl)"),
])
def test_a_bad_boat_is_named_in_one_line(boat, message):
    data = {"players": ["Ana", "Ben", "Cy"], "position": {"boats": [boat]}}
    with pytest.raises(PositionError) as err:
        score_position(data, "pos.json")
    assert str(err.value).startswith("pos.json: position.boats[0]")
    assert message in str(err.value)


def test_a_position_cannot_hold_more_pearls_of_a_colour_than_the_box():
    cells = ["AA", "AC", "AE", "CA", "CC", "CE", "EA"]
    data = boats(*[f"{c} white" for c in cells])
    with pytest.raises(PositionError, match=r"boats\[6\]: there are only 6 white pearls"):
        score_position(data, "p")


def test_two_boats_on_one_cell_are_refused():
    with pytest.raises(PositionError, match="cell AA already holds a boat"):
        score_position(boats("AA white", "AA black"), "p")


def test_a_vault_must_be_whole_dollars():
    data = {"players": ["Ana"], "position": {"boats": [], "vaults": {"Ana": -2}}}
    with pytest.raises(PositionError, match=r"position.vaults.Ana: expected a whole number of dollars >= 0, got -2"):
        score_position(data, "p")


def _b(owner: str, pearl: str):
    from tablehub.games.tahiti.scoring import MapBoat

    return MapBoat(owner, pearl)
