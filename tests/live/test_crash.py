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


# --------------------------------------------------------------------------- SIGKILL at random points


def _post(port: int, path: str, body: dict, pin: str) -> tuple[int, dict]:
    import urllib.error

    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", "X-Tablehub-Pin": pin})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def _hub_up(tmp_path: Path, frames: Path, pin: str) -> tuple[subprocess.Popen, int, list[str]]:
    hub = start(["run", "--camera", "replay", "--camera-path", str(frames), "--pins", "mock", "--host", "127.0.0.1",
                 "--port", "0", "--table-pin", pin], tmp_path)
    lines: list[str] = []
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [out.put(x) for x in hub.stdout], daemon=True).start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and hub.poll() is None:
        try:
            line = out.get(timeout=0.5)
        except queue.Empty:
            continue
        lines.append(line)
        if m := re.search(r"page on port (\d+)", line):
            threading.Thread(target=lambda: [lines.append(x) for x in iter(out.get, None)], daemon=True).start()
            return hub, int(m.group(1)), lines
    raise AssertionError("the hub did not come up:\n" + "".join(lines))


def test_sigkill_at_random_points_loses_no_acknowledged_change(tmp_path):
    """Phones log moves and undos while the hub is killed at random moments, three times over: after
    each restart the hub is up, and the log holds every change the phones were told was saved (the
    one in flight at the kill either made it whole or not at all)."""
    import random

    from tablehub.games.tiles.playout import PlayoutStats, random_game

    stats = PlayoutStats()
    random_game("neuesland", players=2, seed=5, stats=stats, finish=False)
    playout = [a.to_dict() for a in stats.actions]
    rng = random.Random(20261125)
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.full((90, 160, 3), 100, np.uint8))
    db = tmp_path / "games.sqlite"
    pin = "4821"
    acked: list[dict] = []
    for round_ in range(3):
        hub, port, lines = _hub_up(tmp_path, frames, pin)
        try:
            state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10))
            assert [e["action"] for e in state["game"]["history"]] == acked, f"round {round_}: restart lost changes"
            inflight: tuple[str, dict] | None = None
            stop_at = time.monotonic() + rng.uniform(0.3, 2.5)

            def phone() -> None:
                import http.client

                try:
                    press()
                except (OSError, http.client.HTTPException):  # killed under this request: it stays in flight
                    pass

            def press() -> None:
                nonlocal inflight
                while time.monotonic() < stop_at + 5:
                    if acked and (rng.random() < 0.2 or len(acked) == len(playout)):  # a whole game played: undo
                        inflight = ("undo", acked[-1])
                        status, _ = _post(port, "/api/undo", {"scope": "action"}, pin)
                        if status == 200:
                            acked.pop()
                    else:
                        action = playout[len(acked)]
                        inflight = ("submit", action)
                        status, body = _post(port, "/api/submit", {"action": action}, pin)
                        assert status == 200, body
                        acked.append(action)
                    inflight = None

            driver = threading.Thread(target=phone, daemon=True)
            driver.start()
            time.sleep(max(0.0, stop_at - time.monotonic()))
            hub.send_signal(signal.SIGKILL)
            hub.wait(10)
            driver.join(15)
            assert not driver.is_alive()
        finally:
            if hub.poll() is None:
                hub.kill()
                hub.wait()
        assert "Traceback" not in "".join(lines), "".join(lines)
        logged = live_actions(db)
        if inflight is None or logged == acked:
            assert logged == acked
        elif inflight[0] == "submit":
            assert logged == acked + [inflight[1]], "the move in flight is whole or absent"
            acked.append(inflight[1])
        else:
            assert logged == acked[:-1], "the undo in flight happened whole or not at all"
            acked.pop()
    assert len(acked) > 3, "the phones got changes in between the kills"
