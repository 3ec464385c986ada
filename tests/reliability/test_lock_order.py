"""The hub's locks are always taken in one order: no thread can freeze another (tests/reliability/lockorder.py).

The table runs the frame loop (tracker), the page's request threads, the buttons' thread and the
voice's thread over shared state, each guarded by its lock. A lock-order cycle between them freezes
the page and the table with no error (session 6 found one between the voice and the hub). The
whole demo is played here with the voice on and phones polling the page, and every order in which
a thread held one of the hub's locks while asking for another is recorded: it must have no cycle.
"""
from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request

import pytest

from tablehub.cli import main

from .lockorder import Orders, RecordingLock, recording

#: every module that makes a lock shared between the table's threads
HUB_MODULES = (
    "tablehub.session", "tablehub.store", "tablehub.access", "tablehub.table_setup", "tablehub.board_setup",
    "tablehub.tracking.tracker", "tablehub.tracking.live", "tablehub.voice.speaker", "tablehub.hardware.panel",
    "web.hub", "web.events", "web.limits", "web.views.photoscore",
)
PIN = "4826"


def test_the_recorder_finds_two_locks_taken_in_opposite_orders():
    orders = Orders()
    a = RecordingLock("a", threading.Lock(), orders)
    b = RecordingLock("b", threading.RLock(), orders)
    c = RecordingLock("c", threading.Lock(), orders)

    def run(*steps):
        def body():
            for lock in steps:
                lock.acquire()
            for lock in reversed(steps):
                lock.release()
        t = threading.Thread(target=body)
        t.start()
        t.join()

    run(a, b)
    run(b, b, c)  # re-entrant b: no b -> b edge
    assert orders.cycles() == []
    run(c, a)     # a -> b -> c -> a: a ring of three, never met at once in this run
    assert orders.cycles() == [["a", "b", "c"]]
    assert "c held while asking for a" in orders.explain(orders.cycles()[0])


def test_a_condition_on_a_recorded_lock_waits_and_gives_the_lock_back():
    orders = Orders()
    lock = RecordingLock("cond", threading.RLock(), orders)
    cond = threading.Condition(lock)
    other = RecordingLock("other", threading.Lock(), orders)
    ready = []

    def waiter():
        with cond:
            cond.wait_for(lambda: ready, timeout=5)

    t = threading.Thread(target=waiter)
    t.start()
    with other:          # other -> cond, while the waiter has given cond back in wait()
        with cond:
            ready.append(1)
            cond.notify_all()
    t.join(5)
    assert not t.is_alive() and list(orders.edges) == [("other", "cond")]
    assert orders.held() == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Phone(threading.Thread):
    """A phone at the table: reads every page the scoreboard polls, and checks a move, until told to stop."""

    PATHS = ("/api/state", "/api/board.svg", "/api/board.json", "/api/hints", "/api/forms", "/api/me",
             "/api/voice", "/camera.jpg?overlay=live", "/")

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.base = f"http://127.0.0.1:{port}"
        self.stop = threading.Event()
        self.answers: dict[int, int] = {}
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        self.open = opener.open

    def _call(self, path: str, body: dict | None = None) -> None:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data,
                                     headers={"Content-Type": "application/json", "Accept-Language": "fr"})
        try:
            with self.open(req, timeout=10) as r:
                r.read()
                status = r.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        except (urllib.error.URLError, OSError):
            status = 0  # the page not up yet, or gone at the end
        self.answers[status] = self.answers.get(status, 0) + 1

    def run(self) -> None:
        unlocked = False
        while not self.stop.is_set():
            if not unlocked:
                self._call("/api/unlock", {"pin": PIN})
                unlocked = bool(self.answers.get(200))
            for path in self.PATHS:
                self._call(path)
            self._call("/api/check", {"action": {"type": "place_tile", "tile": "ds002", "x": 0, "y": 1,
                                                 "rotation": 90}})
            self.stop.wait(0.05)


@pytest.mark.parametrize("game", ["neuesland", "tahiti", "sunda"])  # the three ways a camera is read: tiles, board, layout
def test_the_demo_with_voice_and_phones_takes_the_hubs_locks_in_one_order(game, tmp_path, monkeypatch, recorder):
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    port = _free_port()
    phones = [_Phone(port) for _ in range(2)]
    with recording(*HUB_MODULES) as orders:
        for phone in phones:
            phone.start()
        try:
            status = main(["demo", "--game", game, "--voice", "--exit", "--turns", "4", "--fps", "200", "--size", "640x360",
                           "--port", str(port), "--host", "127.0.0.1", "--table-pin", PIN])
        finally:
            for phone in phones:
                phone.stop.set()
            for phone in phones:
                phone.join(15)
    assert status == 0
    answered = {code: n for phone in phones for code, n in phone.answers.items()}
    assert answered.get(200, 0) > 20, f"the phones were not served while the demo played: {answered}"
    assert recorder(), "the voice said nothing: it was not part of the run"
    taken = set(orders.taken)
    for module in ("tablehub.session", "tablehub.tracking.tracker", "web.hub", "tablehub.voice.speaker"):
        assert any(name.startswith(module + ":") for name in taken), f"no lock of {module} was recorded: {taken}"
    cycles = orders.cycles()
    assert not cycles, "locks taken in opposite orders (a freeze waiting to happen):\n" + \
        "\n\n".join(orders.explain(c) for c in cycles)
