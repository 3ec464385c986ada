"""One interface for every camera, and a supervisor that survives a camera going away.

A :class:`Camera` gives BGR ``uint8`` frames (height x width x 3, OpenCV's order) from
``read()``. It raises :class:`CameraLost` when the device stops answering and
:class:`EndOfFrames` when a finite source (replay, sim) has nothing more.
:class:`SupervisedCamera` wraps one: a lost camera is closed and reopened with a
growing pause, ``read()`` returns ``None`` meanwhile, and :attr:`status` says what
is going on in one line for the log, the LEDs, ``systemctl status`` and the page.
"""
from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...games.base import TablehubError

log = logging.getLogger(__name__)

Frame = np.ndarray


class CameraError(TablehubError):
    """A camera that cannot be opened or used: the message says what to check."""


class CameraLost(CameraError):
    """The camera stopped delivering frames (unplugged, ribbon loose, driver reset)."""


class EndOfFrames(CameraError):
    """A replay or simulated source has played everything it had."""


class Camera(ABC):
    """A source of BGR frames. Use as a context manager or call open()/close()."""

    name: str = "camera"

    @abstractmethod
    def open(self) -> None:
        """Start the device; raise :class:`CameraError` with a fix when it cannot."""

    @abstractmethod
    def read(self) -> Frame:
        """The next frame; raise :class:`CameraLost` or :class:`EndOfFrames`."""

    def close(self) -> None:
        """Release the device (idempotent)."""

    def describe(self) -> str:
        return self.name

    def __enter__(self) -> "Camera":
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class CameraStatus:
    state: str          # "starting", "ok", "lost", "ended"
    message: str
    since: float

    @property
    def ok(self) -> bool:
        return self.state == "ok"


class SupervisedCamera:
    """Opens a camera, reopens it after a loss (backing off to ``max_retry_s``), never raises on loss.

    ``read()`` returns a frame, or ``None`` while the camera is away or between retries.
    ``on_status`` is called with each new :class:`CameraStatus`.
    """

    def __init__(self, make: Callable[[], Camera], retry_s: float = 2.0, max_retry_s: float = 30.0,
                 clock: Callable[[], float] = time.monotonic,
                 on_status: Callable[[CameraStatus], None] | None = None):
        self._make = make
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        self._clock = clock
        self.on_status = on_status
        self._camera: Camera | None = None
        self._delay = retry_s
        self._next_try = 0.0
        self.failures = 0
        self.status = CameraStatus("starting", "camera starting", clock())

    @property
    def camera(self) -> Camera | None:
        return self._camera

    def _set(self, state: str, message: str) -> None:
        if state == self.status.state and message == self.status.message:
            return
        self.status = CameraStatus(state, message, self._clock())
        (log.warning if state == "lost" else log.info)("%s", message)
        if self.on_status is not None:
            self.on_status(self.status)

    def _lost(self, exc: Exception) -> None:
        self.failures += 1
        if self._camera is not None:
            try:
                self._camera.close()
            except Exception:  # a dying device may fail to close too; we reopen anyway
                log.debug("closing a lost camera failed", exc_info=True)
        self._camera = None
        self._next_try = self._clock() + self._delay
        self._set("lost", f"camera lost: {exc}; retrying in {self._delay:g} s")
        self._delay = min(self._delay * 2, self.max_retry_s)

    def read(self) -> Frame | None:
        if self.status.state == "ended":
            return None
        if self._camera is None:
            if self._clock() < self._next_try:
                return None
            try:
                camera = self._make()
                camera.open()
            except EndOfFrames as exc:
                self._set("ended", f"camera finished: {exc}")
                return None
            except CameraError as exc:
                self._lost(exc)
                return None
            self._camera = camera
        try:
            frame = self._camera.read()
        except EndOfFrames as exc:
            self._set("ended", f"camera finished: {exc}")
            return None
        except CameraError as exc:
            self._lost(exc)
            return None
        self._delay = self.retry_s
        self._set("ok", f"camera ok: {self._camera.describe()}")
        return frame

    @property
    def ended(self) -> bool:
        return self.status.state == "ended"

    def close(self) -> None:
        if self._camera is not None:
            self._camera.close()
            self._camera = None
