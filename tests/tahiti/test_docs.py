"""docs/tahiti.md runs: its JSON examples parse, its record replays, its position scores as printed."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tablehub.games.base import Setup
from tablehub.games.tahiti.board import board_from_dict, load_board
from tablehub.games.tahiti.engine import Tahiti
from tablehub.records import parse_record, replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "tahiti.md"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def json_blocks() -> list[dict]:
    return [json.loads(b) for b in blocks("json")]


def test_every_action_example_is_read_and_written_back_alike():
    game = Tahiti(Setup("tahiti", ("Ana", "Ben", "Cy")))
    examples = [b for b in json_blocks() if "type" in b]
    assert {e["type"] for e in examples} == set(Tahiti.ACTIONS), "every action type has an example"
    for example in examples:
        assert game.parse_action(example).to_dict() == example


def test_the_record_example_replays_to_the_score_it_tells():
    record = next(b for b in json_blocks() if "actions" in b)
    game = replay(parse_record(record, "docs/tahiti.md"))
    assert game.scores() == {"Ana": 8, "Ben": 0}
    assert game.resources()["players"]["Ben"]["cash"] == 16, "Ben got Ana's dollar"


def test_the_position_example_prints_what_the_doc_shows():
    position = next(b for b in json_blocks() if "position" in b)
    shown = next(b for b in blocks("text") if b.startswith("White bank")).rstrip("\n").split("\n")
    result = Tahiti.score_position(position, "example.json")
    assert result.lines == shown
    assert result.scores == {"Ana": 28, "Ben": 30, "Cy": 25}


def test_the_board_file_example_is_the_packaged_track_and_the_table_shows_it():
    example = next(b for b in json_blocks() if "track" in b)
    assert board_from_dict(example, "doc").track == load_board().track
    assert table_row("letter") == [s.letter for s in load_board().track]
    assert table_row("pearl") == [s.pearl for s in load_board().track]


def table_row(name: str) -> list[str]:
    """The cells of the provisional-track table's row ``name``."""
    match = re.search(rf"^\| {name} \|(.*)\|$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert match, f"docs/tahiti.md has a '{name}' row in its track table"
    return [c.strip() for c in match.group(1).split("|")]


def test_tablehub_score_prints_the_position_example(tmp_path, capsys):
    from tablehub.cli import main
    from tablehub.games import game_class

    assert game_class("tahiti") is Tahiti
    path = tmp_path / "example.json"
    path.write_text(json.dumps(next(b for b in json_blocks() if "position" in b)))
    assert main(["score", str(path)]) == 0
    assert capsys.readouterr().out.rstrip("\n").split("\n")[-1] == "Totals: Ana 28, Ben 30, Cy 25 (Ben wins)"
    path.write_text(json.dumps({"game": "tahiti", "position": {"boats": [{"cell": "MM", "owner": "A",
                                                                            "pearl": "white"}]}}))
    assert main(["score", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (f"tablehub score: {path}: position.boats[0]: MM is the island of "
                                               f"Tahiti, no boat can sit there")
