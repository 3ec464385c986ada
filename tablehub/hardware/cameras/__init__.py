"""Camera sources behind one interface (:class:`Camera`), chosen like gpiozero's pin factories.

``source`` comes from the settings (``[camera] source``) or ``TABLEHUB_CAMERA``:

- ``picamera2``: the Raspberry Pi camera (:mod:`.picamera`, imported only when used);
- ``opencv``: a USB camera through OpenCV's VideoCapture (:mod:`.videocapture`);
- ``replay``: a folder of images or a video file (:mod:`.replay`);
- ``sim``: the renderer playing a scripted game (:mod:`.sim`);
- ``auto``: picamera2 on a Raspberry Pi that has a camera, else sim.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...config import CameraConfig
from .base import Camera, CameraError, CameraLost, CameraStatus, EndOfFrames, Frame, SupervisedCamera
from .replay import ReplayCamera
from .sim import Draw, Shot, SimCamera

__all__ = ["Camera", "CameraError", "CameraLost", "CameraStatus", "EndOfFrames", "Frame", "SupervisedCamera",
           "ReplayCamera", "SimCamera", "Shot", "make_camera", "resolve_source"]


def resolve_source(cfg: CameraConfig) -> str:
    """``auto`` becomes picamera2 when a Pi camera is attached, otherwise sim."""
    if cfg.source != "auto":
        return cfg.source
    from ..panel import on_raspberry_pi

    if on_raspberry_pi() and (Path("/dev/media0").exists() or Path("/dev/video0").exists()):
        return "picamera2"
    return "sim"


def make_camera(cfg: CameraConfig, shots: Sequence[Shot] | None = None, draw: Draw | None = None) -> Camera:
    """The camera ``cfg`` asks for (not opened yet). ``sim`` needs ``shots`` and ``draw``."""
    source = resolve_source(cfg)
    size = (cfg.width, cfg.height)
    if source == "picamera2":
        from .picamera import PiCamera

        return PiCamera(size, settle_s=cfg.settle_s)
    if source == "opencv":
        from .videocapture import VideoCaptureCamera

        device: int | str = cfg.path if cfg.path else cfg.index
        return VideoCaptureCamera(device, size)
    if source == "replay":
        return ReplayCamera(cfg.path, loop=cfg.loop)
    if source == "sim":
        if shots is None or draw is None:
            raise CameraError("the sim camera plays a scripted game: use `tablehub demo`, or pick another "
                              "camera with TABLEHUB_CAMERA=picamera2|opencv|replay")
        return SimCamera(shots, draw, loop=cfg.loop)
    raise CameraError(f"unknown camera source {source!r} (expected picamera2, opencv, replay or sim)")
