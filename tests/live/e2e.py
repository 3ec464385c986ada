"""The end-to-end harness: a recorded game on the simulated table, read by the real recognizer,
logged by NEXT presses on mock buttons, with the phone for what the camera cannot do.

``art="auto"`` (the default) draws Neues Land's tiles from the printed tiles' scans when
../shared/data/neues_land/scans is there (the recognizer enrolled from the same scans in
another session), else from the drawn art; :attr:`Played.art` says which. :attr:`Played.enrol_s` and
:attr:`Played.read_ms` time the enrolment and every read of the recognizer (wall time)."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from tablehub.config import Config, PinsConfig
from tablehub.hardware.cameras import SupervisedCamera
from tablehub.hardware.panel import Panel
from tablehub.records import Record, replay
from tablehub.store import Store
from tablehub.tracking.live import LiveTable
from tablehub.tracking.player import SimPlayer
from tablehub.tracking.recognizer import RecognitionUnavailable
from tablehub.tracking.simtable import table_for
from tablehub.tracking.tracker import Tracker


@dataclass
class Played:
    scores: dict[str, int]
    expected: dict[str, int]
    turns: int
    presses: int
    choices: int
    corrections: int
    diverged: str | None
    art: str
    enrol_s: float
    read_ms: list[float]
    lines: list[str]
    session: Any
    hub: Any


class TimedReads:
    """The recognizer, with the wall time of each read kept; what else the tracker asks it is passed on."""

    def __init__(self, recognize: Any):
        self._recognize = recognize
        self.ms: list[float] = []

    def __call__(self, frame: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self._recognize(frame)
        finally:
            self.ms.append(1000.0 * (time.perf_counter() - t0))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._recognize, name)


def play(record: Record, db: Path, turns: int | None = None, size: tuple[int, int] = (1280, 720),
         art: str = "auto") -> Played:
    web_hub = pytest.importorskip("web.hub")
    sim = table_for(record, size=size, art=art).limit(turns)
    played = [a for t in sim.turns for a in t.actions]
    expected = replay(Record(record.setup, played, record.source)).scores()
    t0 = time.perf_counter()
    try:
        recognize = TimedReads(sim.recognizer())
    except RecognitionUnavailable as exc:
        pytest.skip(f"vision's recognizer is not usable here: {exc}")
    enrol_s = time.perf_counter() - t0
    store = Store(db)
    hub = web_hub.Hub(store, pin="1234")
    session = hub.start(record.setup)
    factory = MockFactory()
    panel = Panel(PinsConfig(debounce_s=0.02), factory=factory, poll_s=0.005).start()
    cfg = Config()
    tracker = Tracker(lambda: hub.session, recognize, quiet_frames=cfg.tracking.quiet_frames,
                      confident=cfg.tracking.confident, margin=cfg.tracking.margin)
    camera = sim.camera()
    table = LiveTable(SupervisedCamera(lambda: camera), tracker, hub, panel, fps=0)
    lines: list[str] = []
    player = SimPlayer(hub, tracker, camera, sim.turns, factory, 17, lines.append)
    try:
        while table.step():
            player.after_frame()
            # a person presses NEXT and waits for the chirp before reaching for the next tile: the camera's
            # next frame comes once the panel's poller has seen the press and the turn is logged
            deadline = time.monotonic() + 2.0
            while (player._pressing_since is not None or player._awaiting is not None) and \
                    time.monotonic() < deadline:
                threading.Event().wait(0.01)
                player.after_frame()
        player.finish()
        session.finish()
        return Played(session.game.scores(), expected, len(sim.turns), player.presses, player.choices,
                      player.corrections, player.diverged, sim.art_name, enrol_s, recognize.ms,
                      lines + table.log, session, hub)
    finally:
        panel.close()
        factory.reset()
        store.close()
