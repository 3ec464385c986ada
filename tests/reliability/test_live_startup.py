"""``tablehub run`` against every kind of broken game database and data folder: the service comes
up, serves the page, says on it what happened, keeps the damaged file, and prints no traceback
(today's code exits at each start: a systemd restart loop)."""
from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tablehub.session import Session
from tablehub.store import Store

from .conftest import ACTIONS, SETUP

ROOT = Path(__file__).resolve().parents[2]
PIN = "4821"


def saved_game(folder: Path) -> bytes:
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "games.sqlite")
    s = Session.create(store, SETUP)
    for a in ACTIONS[:3]:
        s.submit(a)
    store.close()
    return (folder / "games.sqlite").read_bytes()


def frames(tmp: Path) -> Path:
    import cv2
    import numpy as np

    folder = tmp / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "0001.png"), np.full((90, 160, 3), 100, np.uint8))
    return folder


class Hub:
    """A ``tablehub run`` process (optionally inside a mount namespace set up by ``prefix``)."""

    def __init__(self, data: Path, tmp: Path, prefix: str = ""):
        cmd = [sys.executable, "-m", "tablehub", "-v", "run", "--camera", "replay", "--camera-path",
               str(frames(tmp)), "--pins", "mock", "--host", "127.0.0.1", "--port", "0", "--table-pin", PIN,
               "--data", str(data)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("TABLEHUB_CONFIG", None)
        if prefix:
            cmd = ["unshare", *UNSHARE, "sh", "-c", f"{prefix} && exec \"$@\"", "sh", *cmd]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self.lines: list[str] = []
        out: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [out.put(x) for x in self.proc.stdout], daemon=True).start()
        self.port = None
        deadline = time.monotonic() + 90
        while self.port is None and time.monotonic() < deadline and self.proc.poll() is None:
            try:
                line = out.get(timeout=0.5)
            except queue.Empty:
                continue
            self.lines.append(line)
            if m := re.search(r"page on port (\d+)", line):
                self.port = int(m.group(1))
        self._out = out
        assert self.port is not None, "the hub did not come up:\n" + "".join(self.lines)

    def get(self, path: str) -> tuple[int, str]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as resp:
            return resp.status, resp.read().decode()

    def state(self) -> dict:
        return json.loads(self.get("/api/state")[1])

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-Tablehub-Pin": PIN})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        while True:
            try:
                self.lines.append(self._out.get(timeout=0.5))
            except queue.Empty:
                break
        return "".join(self.lines)


def up_and_saying(hub: Hub, *words: str) -> dict:
    status, page = hub.get("/")
    assert status == 200 and 'id="notices"' in page
    state = hub.state()
    text = " ".join(n["title"] + " " + n["text"] for n in state["notices"])
    for w in words:
        assert w in text, text
    time.sleep(1.0)
    assert hub.proc.poll() is None, "the hub keeps running"
    return state


def damage(kind: str, db: Path, data: bytes) -> None:
    page = int.from_bytes(data[16:18], "big")
    if kind == "text file":
        db.write_text("these are my notes, not a database\n")
    elif kind == "0 bytes":
        db.write_bytes(b"")
    elif kind == "truncated":
        db.write_bytes(data[: len(data) // 2 + 100])
    elif kind == "garbage pages":
        db.write_bytes(data[: 2 * page] + b"\x5a" * page + data[3 * page:])
    elif kind == "bad row":
        con = sqlite3.connect(db)
        con.execute("""UPDATE actions SET action = '{"type": "place_tile", "tile": "ds999", "x": 0, "y": -1,
                       "rotation": 0}' WHERE seq = 3""")
        con.commit()
        con.close()


@pytest.mark.parametrize("kind", ["text file", "0 bytes", "truncated", "garbage pages", "bad row"])
def test_the_hub_comes_up_on_a_damaged_database(tmp_path, kind):
    data_dir = tmp_path / "data"
    data = saved_game(data_dir)
    db = data_dir / "games.sqlite"
    damage(kind, db, data)
    damaged = db.read_bytes()
    hub = Hub(data_dir, tmp_path)
    try:
        words = ["stops replaying at action 3", "ds999"] if kind == "bad row" else ["kept as", ".damaged-"]
        state = up_and_saying(hub, *words)
        if kind == "bad row":
            assert len(state["game"]["history"]) == 2
        else:
            [aside] = [p for p in data_dir.iterdir() if ".damaged-" in p.name and p.suffix != "" and
                       not p.name.endswith(("-wal", "-shm"))] or [None]
            assert aside is not None and aside.read_bytes() == damaged
        if kind in ("text file", "0 bytes"):
            assert state["game"] is None, "no silent fresh game"
    finally:
        out = hub.stop()
    assert "Traceback" not in out, out
    assert hub.proc.returncode == 0


def _can_unshare() -> bool:
    if shutil.which("unshare") is None:
        return False
    try:
        return subprocess.run(["unshare", *UNSHARE, "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                              capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


UNSHARE = ["-m"] if os.geteuid() == 0 else ["-rm"]
needs_mounts = pytest.mark.skipif(not _can_unshare(), reason="no mount namespace here (unshare -m/-rm refused)")


@needs_mounts
def test_a_read_only_data_folder_runs_from_memory_and_says_nothing_is_saved(tmp_path):
    data_dir = tmp_path / "data"
    saved_game(data_dir)
    hub = Hub(data_dir, tmp_path, prefix=f"mount --bind {data_dir} {data_dir} && "
                                         f"mount -o remount,bind,ro {data_dir}")
    try:
        state = up_and_saying(hub, "Nothing is being saved", "read-only")
        assert state["game"]["id"] == 1 and len(state["game"]["history"]) == 3, "the saved game, from a copy"
        status, body = hub.post("/api/submit", {"action": ACTIONS[3]})
        assert status == 200, body  # the table plays on, in memory
    finally:
        out = hub.stop()
    assert "Traceback" not in out, out


@needs_mounts
def test_a_disk_that_fills_while_the_hub_runs_refuses_changes_until_space_is_freed(tmp_path):
    data_dir = tmp_path / "data"
    saved_game(tmp_path / "seed")
    hub = Hub(data_dir, tmp_path, prefix=(
        f"mkdir -p {data_dir} && mount -t tmpfs -o size=1m tmpfs {data_dir} && cp {tmp_path}/seed/games.sqlite {data_dir}/"))
    inside = Path(f"/proc/{hub.proc.pid}/root") / str(data_dir).lstrip("/")
    try:
        assert len(up_and_saying(hub)["game"]["history"]) == 3
        fd = os.open(inside / "ballast", os.O_CREAT | os.O_WRONLY)  # the card fills up (a log, a recording...)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        before = hub.state()["game"]
        for path, body in [("/api/submit", {"action": ACTIONS[3]}), ("/api/undo", {"scope": "turn"}),
                           ("/api/game/end", {})]:
            status, answer = hub.post(path, body)
            assert status == 503, (path, answer)
            assert answer["error"].startswith("not saved: the disk") and "full" in answer["error"], answer
            assert hub.state()["game"] == before, "nothing changed"
        assert "not saved" in hub.state()["status"]["saving"]
        (inside / "ballast").unlink()  # the owner frees space: the same change now goes through
        status, answer = hub.post("/api/submit", {"action": ACTIONS[3]})
        assert status == 200, answer
        assert len(hub.state()["game"]["history"]) == 4
    finally:
        out = hub.stop()
    assert "Traceback" not in out, out


@needs_mounts
def test_a_full_data_folder_at_start_runs_from_memory_and_says_why(tmp_path):
    data_dir = tmp_path / "data"
    saved_game(tmp_path / "seed")
    hub = Hub(data_dir, tmp_path, prefix=(
        f"mkdir -p {data_dir} && mount -t tmpfs -o size=1m tmpfs {data_dir} && "
        f"cp {tmp_path}/seed/games.sqlite {data_dir}/ && (dd if=/dev/zero of={data_dir}/ballast bs=4k 2>/dev/null; true)"))
    try:
        state = up_and_saying(hub, "Nothing is being saved", "full")
        assert state["game"]["id"] == 1 and len(state["game"]["history"]) == 3, "the saved game, from a copy"
        assert not any(n["id"].startswith("damaged-") for n in state["notices"]), "a full disk is not damage"
    finally:
        out = hub.stop()
    assert "Traceback" not in out, out
