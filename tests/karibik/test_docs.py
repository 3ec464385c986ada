"""docs/karibik.md runs: its action examples are read back as written, its score example prints
what the doc shows, and `tablehub play` / `tablehub score` work for Karibik."""
from __future__ import annotations

import json
import os
from pathlib import Path

from tablehub.cli import main
from tablehub.games.base import Setup
from tablehub.games.karibik.engine import Karibik

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "karibik.md"


def blocks(kind: str) -> list[str]:
    """The fenced blocks of the doc whose fence names ``kind`` ("" for a bare fence)."""
    out, current, lang = [], None, ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current, lang = [], line[3:].strip()
            else:
                if lang == kind:
                    out.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return out


def test_every_action_example_is_read_and_written_back_alike():
    game = Karibik(Setup("karibik", ("Red", "Blue")))
    examples = [json.loads(b) for b in blocks("json")]
    assert {e["type"] for e in examples} == set(Karibik.ACTIONS), "every action type has an example"
    for example in examples:
        assert game.parse_action(example).to_dict() == example


def test_the_score_example_prints_what_the_doc_shows(capsys):
    block = next(b for b in blocks("") if b.startswith("$ tablehub score docs/examples/karibik-short.json"))
    command, *expected = block.strip().splitlines()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert main(command.split()[2:]) == 0  # "$ tablehub score ..."
    finally:
        os.chdir(cwd)
    assert capsys.readouterr().out.strip().splitlines() == expected


def test_play_runs_a_seeded_karibik_game_and_saves_a_record_that_scores_alike(tmp_path, capsys):
    saved = tmp_path / "game.json"
    assert main(["play", "--game", "caribbean", "--players", "3", "--seed", "4", "--save", str(saved)]) == 0
    played = capsys.readouterr().out
    assert "NOTE: provisional component data: Karibik: the board" in played
    assert "raided" in played and "safeguarded" in played and played.rstrip().endswith(("wins.", "share the win."))
    assert main(["score", str(saved)]) == 0
    assert capsys.readouterr().out == played


def test_a_bad_option_is_one_line(capsys):
    assert main(["play", "--game", "karibik", "--option", "goal=-3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "tablehub play: karibik: option 'goal' must be a whole number of doubloons above 0, got -3"
