"""`tablehub demo --voice` speaks the simulated game (espeak-ng replaced by a real recording command)."""
from __future__ import annotations

from tablehub.cli import main


def test_the_demo_announces_turns_and_the_winner(tmp_path, monkeypatch, capsys, recorder):
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    status = main(["demo", "--voice", "--no-web", "--exit", "--turns", "3", "--fps", "200", "--size", "640x360"])
    out = capsys.readouterr().out
    assert status == 0, out
    said = recorder()
    assert any(line.endswith(" to play.") for line in said), said
    assert said[-1].endswith(tuple(f"with {n}." for n in range(200))) and (" wins " in said[-1] or
                                                                          " share the win " in said[-1]), said
