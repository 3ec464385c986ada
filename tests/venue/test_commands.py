"""The real commands end to end, each its own process: `tablehub run` with [venue] settings publishes,
`tablehub venue` shows it over HTTP (page, JSON, CSV), and a clean stop of the hub says offline."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from tablehub.venue.broker import free_port

from .conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.read()


def _up(url: str) -> bool:
    try:
        get(url)
        return True
    except OSError:
        return False


def tablehub(*args: str) -> subprocess.Popen:
    """A `tablehub` process whose output lines are collected in ``proc.lines`` as they come."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "tablehub", "-v", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    proc.lines = []  # type: ignore[attr-defined]
    proc.reader = threading.Thread(target=lambda: proc.lines.extend(proc.stdout), daemon=True)  # type: ignore
    proc.reader.start()  # type: ignore[attr-defined]
    return proc


def said(proc: subprocess.Popen, text: str) -> bool:
    return any(text in line for line in list(proc.lines))  # type: ignore[attr-defined]


def stop(proc: subprocess.Popen) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.reader.join(5)  # type: ignore[attr-defined]
    return "".join(proc.lines)  # type: ignore[attr-defined]


def test_run_publishes_and_the_venue_command_shows_it(broker, tmp_path):
    port = free_port()
    board = tablehub("venue", "--broker", broker.host, "--port", str(broker.port), "--venue", "cafe",
                     "--listen", f"127.0.0.1:{port}", "--since", "all")
    settings = tmp_path / "tablehub.toml"
    settings.write_text(f'[venue]\nbroker = "{broker.host}"\nport = {broker.port}\nvenue = "cafe"\n'
                        f'table = "table-9"\n\n[game]\nplayers = ["Ana", "Ben", "Cy"]\n', encoding="utf-8")
    (tmp_path / "frames").mkdir()
    hub = tablehub("run", "--config", str(settings), "--data", str(tmp_path / "data"), "--camera", "replay",
                   "--camera-path", str(tmp_path / "frames"), "--pins", "mock", "--host", "127.0.0.1", "--port", "0")
    api = f"http://127.0.0.1:{port}/api/board"
    try:
        wait_for(lambda: _up(api), 30, what="the venue board's page")

        def table(online: bool):
            rows = [t for t in json.loads(get(api))["tables"] if t["table"] == "table-9"]
            return rows and rows[0]["online"] is online and rows[0]["players"] and rows[0]

        row = wait_for(lambda: table(True), 30, what="table-9 online with its game on the board")
        assert [p["name"] for p in row["players"]] == ["Ana", "Ben", "Cy"] and row["current"] == "Ana"
        assert row["last_event"].startswith("started game 1")
        assert "venue_board.js" in get(f"http://127.0.0.1:{port}/").decode()
        assert get(f"http://127.0.0.1:{port}/standings.csv").decode().startswith("rank,player,games,wins")
        wait_for(lambda: said(hub, "table hub up"), 20, what="the hub fully up (its signal handlers set)")
        hub_out = stop(hub)
        assert hub.returncode == 0, hub_out
        wait_for(lambda: table(False), 10, what="table-9 offline after the hub stopped")
    finally:
        hub_out = stop(hub)
        board_out = stop(board)
    assert board.returncode == 0, board_out
    assert f"venue board: http://127.0.0.1:{port}/" in board_out
