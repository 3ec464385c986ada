"""`tablehub demo` as CI runs it: briefly, without the page."""
from __future__ import annotations

from tablehub.cli import main


def test_the_demo_plays_a_few_turns_and_checks_the_score(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    status = main(["demo", "--no-web", "--exit", "--turns", "3", "--fps", "200", "--size", "640x360"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "3 turns of neuesland" in out
    assert "the final score equals `tablehub score` of the record" in out
    assert (tmp_path / "games.sqlite").exists()
