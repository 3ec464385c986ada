"""The examples in docs/suedsee.md are real: every JSON block parses and does what the page says."""
import json
import re
from pathlib import Path

import pytest

from tablehub.games.base import Setup
from tablehub.games.suedsee.engine import Suedsee
from tablehub.games.suedsee.ships import build_ships
from tablehub.records import parse_record, replay

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "suedsee.md").read_text(encoding="utf-8")
BLOCKS = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def test_the_page_has_its_json_examples():
    assert len(BLOCKS) == 4


def test_the_record_example_closes_the_start_island_for_2_bananas():
    record = next(b for b in BLOCKS if "actions" in b)
    game = replay(parse_record(record, "docs"), finish=False)
    res = game.resources()["players"]["Red"]
    assert res["bananas"] == 2 and res["islanders_in_supply"] == 4


def test_the_position_example_gives_rouge_27():
    position = next(b for b in BLOCKS if "position" in b)
    assert Suedsee.score_position(position, "docs").scores == {"Rouge": 27, "Bleu": 5}


def test_the_ships_example_is_a_valid_ships_file():
    ships = build_ships(next(b for b in BLOCKS if b.get("format") == "tablehub-ships/1"), "docs")
    assert [s.value for s in ships.ships.values()] == [5, 5, 3, 3]


def test_the_start_tile_example_is_the_shipped_start_tile():
    tile = next(b for b in BLOCKS if b.get("id") == "start")
    shipped = json.loads((ROOT / "tablehub" / "games" / "suedsee" / "tiles.json").read_text(encoding="utf-8"))
    start = next(t for t in shipped["tiles"] if t.get("start"))
    assert tile["regions"] == start["regions"]


@pytest.mark.parametrize("text", re.findall(r"`(\{\"type\": [^`]*\})`", DOC))
def test_every_inline_action_parses(text):
    g = Suedsee(Setup("suedsee", ("Red", "Blue")))
    action = g.parse_action(json.loads(text))
    assert action.to_dict() == json.loads(text)


def test_the_module_examples_run():
    import doctest

    from tablehub.games.suedsee import engine, ships

    for module in (engine, ships):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
