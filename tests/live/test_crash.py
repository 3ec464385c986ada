"""Crash safety: SIGKILL the running hub mid-game, start it again, and the game resumes at the same turn."""
from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablehub.tracking.simtable import demo_record

ROOT = Path(__file__).resolve().parents[2]


def live_actions(db: Path) -> list[dict]:
    if not db.exists():
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        rows = con.execute("SELECT action FROM actions WHERE game_id = 1 AND undone IS NULL ORDER BY seq").fetchall()
    except sqlite3.OperationalError:  # the schema is not there yet
        return []
    finally:
        con.close()
    return [json.loads(r[0]) for r in rows]


def start(args: list[str], data: Path, **extra: str) -> subprocess.Popen:
    env = {**os.environ, "TABLEHUB_DATA": str(data), "PYTHONUNBUFFERED": "1", **extra}
    env.pop("TABLEHUB_CONFIG", None)
    return subprocess.Popen([sys.executable, "-m", "tablehub", "-v", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_a_killed_hub_resumes_the_game_at_the_same_turn_with_nothing_lost(tmp_path):
    db = tmp_path / "demo.sqlite"  # the demo's own database
    demo = start(["demo", "--no-web", "--exit", "--fps", "60", "--size", "320x180", "--seed", "7"], tmp_path)
    try:
        deadline = time.monotonic() + 60
        while len(live_actions(db)) < 6 and time.monotonic() < deadline and demo.poll() is None:
            time.sleep(0.05)
        assert demo.poll() is None, "the demo was still running when it was killed"
        demo.send_signal(signal.SIGKILL)
        demo.wait(10)
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    logged = live_actions(db)
    record = demo_record("neuesland", 2, 7)
    assert len(logged) >= 6
    assert logged == record.actions[:len(logged)], "every logged action survived the kill, in order"

    # the table's hub opens games.sqlite: the killed demo's database, moved there as it was left
    # (its write-ahead log included), is what it resumes
    for suffix in ("", "-wal", "-shm"):
        if (tmp_path / f"demo.sqlite{suffix}").exists():
            os.replace(tmp_path / f"demo.sqlite{suffix}", tmp_path / f"games.sqlite{suffix}")
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.full((90, 160, 3), 100, np.uint8))
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # stands in for systemd's NOTIFY_SOCKET
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(10)
    hub = start(["run", "--camera", "replay", "--camera-path", str(frames), "--pins", "mock",
                 "--host", "127.0.0.1", "--port", "0"], tmp_path,
                NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="1000000")
    try:
        lines: list[str] = []
        port = turn = None
        out: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [out.put(x) for x in hub.stdout], daemon=True).start()
        deadline = time.monotonic() + 60
        while port is None and time.monotonic() < deadline and hub.poll() is None:
            try:
                line = out.get(timeout=0.5)
            except queue.Empty:
                continue
            lines.append(line)
            if m := re.search(r"resumed game 1 \(neuesland\), turn (\d+)", line):
                turn = int(m.group(1))
            if m := re.search(r"page on port (\d+)", line):
                port = int(m.group(1))
        assert port is not None and turn is not None, "".join(lines)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as resp:
            state = json.load(resp)
        from tablehub.games import new_game

        game = new_game(record.setup)
        for a in logged:
            game.apply(game.parse_action(a))
        assert state["game"]["id"] == 1 and state["game"]["turn"] == game.turn == turn
        assert not state["game"]["finished"]
        assert len(live_actions(tmp_path / "games.sqlite")) == len(logged), "restarting added or dropped nothing"
        messages = set()
        deadline = time.monotonic() + 10
        while "WATCHDOG=1" not in messages and time.monotonic() < deadline:
            messages.update(notify.recv(4096).decode().splitlines())
        assert "READY=1" in messages and "WATCHDOG=1" in messages, messages
    finally:
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(15)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait()
    assert hub.returncode == 0, "the hub stops cleanly on SIGTERM"
    notify.settimeout(2)
    rest = []
    try:
        while True:
            rest += notify.recv(4096).decode().splitlines()
    except socket.timeout:
        pass
    notify.close()
    assert "STOPPING=1" in rest, "systemd is told the hub is stopping"
