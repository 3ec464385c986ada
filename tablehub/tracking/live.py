"""The live table: camera, tracker, buttons, lights and the page, wired in one loop.

:class:`LiveTable` owns nothing it does not need to: it is given a
:class:`~tablehub.hardware.cameras.SupervisedCamera`, a
:class:`~tablehub.tracking.tracker.Tracker` (or ``None`` when the table cannot be
recognised yet), a :class:`~tablehub.hardware.panel.Panel` (or ``None``), the web
hub (anything with ``session``, ``offer``, ``clear_offer``, ``flag``, ``clear_flag``
and ``set_status``: :class:`web.hub.Hub`) and a systemd
:class:`~tablehub.hardware.sdnotify.Notifier`. :meth:`LiveTable.run` reads frames
at ``fps``, feeds the tracker, pings the watchdog, and turns readings into lights,
beeps and page state:

- pending: green LED, the turn on the page (``hub.pending``: a card with "Commit now",
  which runs NEXT's commit, and the tile as a ghost on the board), NEXT logs it;
- unsure: green blinking, the choices offered on the phone (``hub.offer``, checked after
  the pending actions);
- illegal: red LED, three beeps, ``hub.flag(reason, x, y)`` until the table is fixed
  or CHECK is held (override);
- camera lost: red blinking and the camera status on the page and in ``systemctl status``.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

import numpy as np

from ..games.base import TablehubError
from ..i18n import T
from ..hardware.cameras import CameraStatus, SupervisedCamera
from ..hardware.sdnotify import Notifier
from .interpret import Reading
from .tracker import Outcome, Tracker

log = logging.getLogger(__name__)


def _notes(notes: list[Any]) -> Any:
    """A reading's notes as one line (``a; b``), each note kept translatable."""
    said: Any = notes[0] if notes else ""
    for note in notes[1:]:
        said = T("{first}; {next}", first=said, next=note)
    return said


class LiveTable:
    def __init__(self, camera: SupervisedCamera, tracker: Tracker | None, hub: Any, panel: Any = None,
                 notifier: Notifier | None = None, fps: float = 8.0,
                 clock: Callable[[], float] = time.monotonic):
        self.camera = camera
        self.tracker = tracker
        self.hub = hub
        self.panel = panel
        self.notifier = notifier or Notifier({})
        self.fps = fps
        self._clock = clock
        self.frames = 0
        self.latest: np.ndarray | None = None
        self._last_ping = 0.0
        self._lock = threading.Lock()
        self.log: list[str] = []           # one line per recognised turn / button outcome (demo, tests)
        camera.on_status = self._on_camera
        if tracker is not None:
            tracker.subscribe(self._on_tracker)
            if hasattr(hub, "register_command"):
                hub.register_command("commit", "Commit now", self._commit_now, screen="scoreboard",
                                     help="log the turn the camera read, as NEXT does")
        if panel is not None:
            self._wire_panel(panel)

    # ---- inputs

    def _wire_panel(self, panel: Any) -> None:
        if self.tracker is None:
            return
        tracker = self.tracker
        panel.on("next", "click", tracker.commit)
        panel.on("next", "hold", tracker.undo)
        panel.on("check", "click", tracker.rescan)
        panel.on("check", "hold", tracker.override)

    def step(self) -> bool:
        """Read and handle one frame. ``False`` once a finite camera has ended."""
        frame = self.camera.read()
        self.ping()
        if frame is None:
            return not self.camera.ended
        self.frames += 1
        with self._lock:
            self.latest = frame
        if self.tracker is not None:
            self.tracker.feed(frame)
        return True

    def run(self, stop: threading.Event, max_frames: int | None = None) -> None:
        """Loop at ``fps`` until ``stop`` is set, the camera ends, or ``max_frames`` frames were read."""
        period = 1.0 / self.fps if self.fps > 0 else 0.0
        next_at = self._clock()
        while not stop.is_set():
            if not self.step():
                log.info("the camera has no more frames")
                break
            if max_frames is not None and self.frames >= max_frames:
                break
            next_at += period
            delay = next_at - self._clock()
            if delay > 0:
                stop.wait(delay)
            else:
                next_at = self._clock()

    def ping(self) -> None:
        """Ping systemd's watchdog when it is due (the frame loop calls it every frame)."""
        interval = self.notifier.watchdog_interval()
        now = self._clock()
        if interval is not None and now - self._last_ping >= interval:
            self.notifier.watchdog()
            self._last_ping = now

    def latest_frame(self) -> np.ndarray | None:
        with self._lock:
            return self.latest

    # ---- outputs

    def _on_camera(self, status: CameraStatus) -> None:
        self.notifier.status(status.message)
        self._status("camera", None if status.ok else status.message)
        if self.panel is not None:
            self.panel.show("off" if status.ok else "camera_lost")

    def _status(self, topic: str, text: str | None) -> None:
        try:
            self.hub.set_status(topic, text)
        except Exception:
            log.exception("could not update the page status")

    def _commit_now(self) -> str:
        """The page's "Commit now": NEXT's commit; a refusal is raised so the phone shows it."""
        assert self.tracker is not None
        outcome = self.tracker.commit()
        if not outcome.ok:
            raise TablehubError(outcome.message)
        return outcome.message

    def _pending(self, reading: Reading) -> None:
        """What NEXT would log (nothing unless the reading is pending), for the page's card and board."""
        try:
            if reading.state == "pending" and getattr(self.hub, "session", None) is not None:
                self.hub.pending(reading.actions, note=_notes(reading.notes))
            elif hasattr(self.hub, "clear_pending"):
                self.hub.clear_pending()
        except Exception:
            log.exception("could not update the pending turn on the page")

    def _on_tracker(self, kind: str, payload: Any) -> None:
        if kind == "reading":
            self._show(payload)
        elif kind in ("commit", "undo", "refused"):
            outcome: Outcome = payload
            self.log.append(f"{kind}: {outcome.message}")
            self._status("table", outcome.message)
            if self.panel is not None:
                self.panel.beep("ok" if outcome.ok else "refused")

    def _show(self, reading: Reading) -> None:
        hub = self.hub
        has_game = getattr(hub, "session", None) is not None
        self._pending(reading)  # before the offer: choices are checked after the pending actions
        if reading.state == "illegal":
            hub.flag(reading.reason or T("illegal placement"), *(reading.cell or (None, None)))
            if has_game:
                hub.clear_offer()
            self._status("table", T("Illegal: {reason}", reason=reading.reason))
            if self.panel is not None:
                self.panel.beep("illegal")
        else:
            hub.clear_flag()
        if reading.state == "unsure" and has_game:
            hub.offer([(dict(c.action), c.confidence) for c in reading.choices],
                      note=reading.question or T("Which tile was laid? The camera is not sure."))
        elif reading.state != "illegal" and has_game:
            hub.clear_offer()
        if reading.state in ("pending", "unsure") and has_game:
            self._status("table", None)  # the page's pending card and choices say it (with the reading's notes)
        elif reading.state in ("pending", "unsure"):
            self._status("table", reading.describe())
        elif reading.state == "waiting":
            self._status("table", reading.reason)
        elif reading.state == "same":  # nothing to log; what the camera said about it (a hold read against the game)
            self._status("table", _notes(reading.notes) if reading.notes else None)
        if reading.state != "same":
            self.log.append(f"{reading.state}: {reading.describe()}")
        if self.panel is not None:
            self.panel.show(reading.state)
