"""The Raspberry Pi camera through picamera2 (imported here only, and only when used).

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) into a venv
made with ``--system-site-packages``; it is never a pip dependency.

The mode: the sensor runs its 2x2-binned full-field mode (2304x1296 on a Camera
Module 3) and the ISP scales it to a 1920x1080 ``RGB888`` main stream, which
picamera2 hands over as a numpy array in B, G, R byte order, i.e. what OpenCV
expects. Two buffers, so ``read()`` returns the newest still frame.

Locking: after ``settle_s`` seconds of automatic exposure, white balance and (on
autofocus modules) one focus cycle, the adapter reads the settled values from the
frame metadata and fixes them: ``AeEnable=False, ExposureTime, AnalogueGain``,
``AwbEnable=False, ColourGains``, and ``AfMode=Manual, LensPosition``. A hand
entering the view then cannot change the colours of the tiles under it.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from .base import Camera, CameraError, CameraLost, Frame

log = logging.getLogger(__name__)

SENSOR_MODE = (2304, 1296)  # Camera Module 3 binned full field; other sensors pick their nearest


class PiCamera(Camera):
    name = "picamera2"

    def __init__(self, size: tuple[int, int] = (1920, 1080), settle_s: float = 2.0, lock: bool = True,
                 sleep: Callable[[float], None] = time.sleep):
        self.size = (int(size[0]), int(size[1]))
        self.settle_s = settle_s
        self.lock = lock
        self._sleep = sleep
        self._cam: Any = None
        self.locked: dict[str, Any] = {}
        self.model = "?"

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("picamera2 is not importable: on Raspberry Pi OS run `sudo apt install "
                              "python3-picamera2` and make the venv with --system-site-packages "
                              "(scripts/install-pi.sh does both)") from None
        try:
            info = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera raises plain RuntimeErrors
            raise CameraError(f"libcamera cannot list cameras ({exc})") from None
        if not info:
            raise CameraError("no camera found on the CSI connector: check the ribbon cable and "
                              "`rpicam-hello --list-cameras`")
        self.model = str(info[0].get("Model", "?"))
        try:
            cam = Picamera2()
            config = cam.create_still_configuration(
                main={"size": self.size, "format": "RGB888"},
                sensor={"output_size": SENSOR_MODE}, buffer_count=2)
            cam.configure(config)
            cam.start()
        except Exception as exc:
            raise CameraError(f"picamera2 could not start the {self.model} camera ({exc}); "
                              "is another program using it?") from None
        self._cam = cam
        if self.lock:
            self._settle_and_lock()

    def _settle_and_lock(self) -> None:
        cam = self._cam
        controls = getattr(cam, "camera_controls", {}) or {}
        if "AfMode" in controls and hasattr(cam, "autofocus_cycle"):
            try:
                cam.autofocus_cycle()
            except Exception as exc:
                log.warning("autofocus cycle failed (%s); focus stays where it is", exc)
        self._sleep(self.settle_s)
        md = cam.capture_metadata()
        fixed: dict[str, Any] = {}
        if "ExposureTime" in md:
            fixed.update(AeEnable=False, ExposureTime=int(md["ExposureTime"]),
                         AnalogueGain=float(md.get("AnalogueGain", 1.0)))
        if "ColourGains" in md:
            fixed.update(AwbEnable=False, ColourGains=tuple(float(g) for g in md["ColourGains"]))
        if "AfMode" in controls and "LensPosition" in md:
            fixed.update(AfMode=0, LensPosition=float(md["LensPosition"]))  # 0 = libcamera AfModeManual
        if fixed:
            cam.set_controls(fixed)
        self.locked = fixed
        log.info("camera %s locked: %s", self.model, fixed)

    def read(self) -> Frame:
        if self._cam is None:
            raise CameraLost("picamera2 is not open")
        try:
            return self._cam.capture_array("main")
        except Exception as exc:
            raise CameraLost(f"picamera2 stopped delivering frames ({exc})") from None

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None

    def describe(self) -> str:
        return f"picamera2 {self.model} {self.size[0]}x{self.size[1]}" + (" locked" if self.locked else "")
