"""The board as data: map conventions, sectors, the provisional track and owners' board files."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from tablehub.games.base import SetupError, Setup
from tablehub.games.tahiti.board import (DEFAULT_BOARD, SECTORS, TAHITI, cell_name, load_board, parse_cell,
                                         sectors_of)
from tablehub.games.tahiti.engine import Tahiti


def test_cells_are_named_row_letter_then_column_letter():
    assert parse_cell("BE") == (1, 5)
    assert parse_cell("ma") == (3, 0), "lower case is read too"
    assert cell_name(TAHITI) == "MM"
    assert parse_cell("AG") is None and parse_cell("A") is None and parse_cell(3) is None


def test_a_sector_is_a_row_plus_a_column_and_tahiti_is_in_none():
    assert len(SECTORS["A"]) == 13
    assert {cell_name(c) for c in SECTORS["D"]} >= {"DA", "DF", "AD", "FD", "DD", "DM", "MD"}
    assert TAHITI not in {c for cells in SECTORS.values() for c in cells}
    assert sectors_of(parse_cell("MA")) == ("A",) and sectors_of(parse_cell("CE")) == ("C", "E")
    assert all(sectors_of((r, c)) for r in range(7) for c in range(7) if (r, c) != TAHITI), \
        "every cell but Tahiti lies in some sector"


def test_the_packaged_track_is_provisional_with_each_letter_twice_and_each_colour_three_times():
    board = load_board()
    assert board.provisional and len(board.track) == 12
    assert set(Counter(s.letter for s in board.track).values()) == {2}
    assert set(Counter(s.pearl for s in board.track).values()) == {3}
    game = Tahiti(Setup("tahiti", ("Ana", "Ben")))
    assert game.view()["provisional"].startswith("Tahiti: the order of the 12 track spaces is provisional")


def test_an_owner_passes_their_own_board_file(tmp_path):
    data = json.loads(DEFAULT_BOARD.read_text())
    data["track"].reverse()
    data.update(name="my board", provisional=False)
    path = tmp_path / "my_board.json"
    path.write_text(json.dumps(data))
    game = Tahiti(Setup("tahiti", ("Ana", "Ben"), options={"board": str(path)}))
    assert game.provisional is None and game.resources()["table"]["board"] == "my board"
    assert [s["letter"] for s in game.view()["track"]][:2] == ["C", "F"]


@pytest.mark.parametrize("text, message", [
    ("{", "not valid JSON"),
    ('{"track": []}', "track: expected a list of exactly 12 items, got 0 items"),
    ('{"track": [' + ",".join(['{"letter": "A", "pearl": "green"}'] * 11 + ['{"letter": "G", "pearl": "green"}'])
     + "]}", "track[11].letter: expected one of 'A', 'B', 'C', 'D', 'E', 'F', got 'G'"),
    ('{"track": [' + ",".join(['{"letter": "A", "pearl": "red"}'] * 12) + "]}", "track[0].pearl: expected one of 'green', 'white', 'black', 'blue', got 'red'"),
])
def test_a_bad_board_file_is_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "board.json"
    path.write_text(text)
    with pytest.raises(SetupError) as err:
        Tahiti(Setup("tahiti", ("Ana", "Ben"), options={"board": str(path)}))
    assert message in str(err.value) and str(err.value).startswith(str(path))


def test_a_missing_board_file_is_named():
    with pytest.raises(SetupError, match="nowhere.json: cannot read the Tahiti board file"):
        Tahiti(Setup("tahiti", ("Ana", "Ben"), options={"board": "/nowhere.json"}))
