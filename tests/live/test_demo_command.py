"""`tablehub demo` as CI runs it: briefly, and as a person runs it: with the page, then Ctrl-C."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablehub import lan
from tablehub.cli import main

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--fps", "200", "--size", "640x360"]


def test_the_demo_plays_a_few_turns_and_checks_the_score(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    status = main(["demo", "--no-web", "--exit", "--turns", "3", *FAST])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "3 turns of neuesland" in out
    assert "the final score equals `tablehub score` of the record" in out


def test_demo_games_stay_out_of_the_tables_saved_games(tmp_path, monkeypatch, capsys):
    """The table's games.sqlite gets no demo game; the demo's own database holds only the last demo."""
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    for _ in range(2):
        assert main(["demo", "--no-web", "--exit", "--turns", "1", *FAST]) == 0
    capsys.readouterr()
    assert not (tmp_path / "games.sqlite").exists()
    con = sqlite3.connect(tmp_path / "demo.sqlite")
    try:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    finally:
        con.close()


def test_the_demo_prints_the_lan_address_pin_and_a_qr_code(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    monkeypatch.setattr(lan, "lan_ip", lambda: "192.0.2.7")
    monkeypatch.setattr(lan.socket, "gethostname", lambda: "kitchen")
    status = main(["demo", "--exit", "--turns", "1", "--port", "0", "--table-pin", "4711", *FAST])
    out = capsys.readouterr().out
    assert status == 0, out
    line = next(x for x in out.splitlines() if "on a phone" in x)
    assert "http://192.0.2.7:" in line and "kitchen.local:" in line and "table PIN 4711" in line
    assert "localhost" not in out
    assert "▀" in out or "▄" in out  # the QR code, in half blocks


def test_readings_are_printed_only_with_v(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    assert main(["demo", "--no-web", "--exit", "--turns", "2", *FAST]) == 0
    quiet = capsys.readouterr().out
    assert main(["demo", "--no-web", "--exit", "--turns", "2", "-v", *FAST]) == 0
    chatty = capsys.readouterr().out
    assert "  phone (" not in quiet and "  reading:" not in quiet
    assert "  phone (" in chatty or "  reading:" in chatty
    assert len(quiet.splitlines()) < len(chatty.splitlines())


def test_counts_are_written_in_the_singular_for_one():
    from tablehub.commands.demo import plural

    assert plural(1, "turn") == "1 turn" and plural(3, "turn") == "3 turns" and plural(0, "time") == "0 times"


def _demo(tmp_path: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "TABLEHUB_DATA": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "tablehub.cli", "demo", "--port", "0", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _read_until(proc: subprocess.Popen, text: str, timeout: float = 120) -> str:
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return "".join(seen)
    proc.kill()
    pytest.fail(f"no {text!r} in the demo's output:\n{''.join(seen)}")


def test_ctrl_c_during_the_game_says_interrupted_and_scores_nothing(tmp_path):
    proc = _demo(tmp_path, "--no-web", "--size", "640x360", "--fps", "8")
    head = _read_until(proc, "demo: playing")
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=60)
    out = head + rest
    assert proc.returncode == 130, out
    assert "demo interrupted:" in out and "turns played" in out
    for made_up in ("Final scoring", "MISMATCH", "wins", "Traceback"):
        assert made_up not in out, out


def test_the_address_is_printed_again_when_the_game_is_over_and_ctrl_c_then_ends_cleanly(tmp_path):
    proc = _demo(tmp_path, "--turns", "1", *FAST)
    out = _read_until(proc, "serving the page on")
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out + rest
    assert out.count("on a phone (table PIN") == 2, out


def test_help_texts_say_what_the_commands_do(capsys):
    from tablehub.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices
    demo, markers = sub["demo"].format_help(), sub["markers"].format_help()
    assert "seeded random" in demo and "recorded game" not in demo.split("\n\n")[1]
    assert "default: [camera] fps in the settings, 8" in " ".join(demo.split())
    assert "100 % scale" in " ".join(markers.split()) and "%%" not in markers
