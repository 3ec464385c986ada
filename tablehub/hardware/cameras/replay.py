"""Frames from disk: a folder of images (played in file-name order) or a video file."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .base import Camera, CameraError, EndOfFrames, Frame

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class ReplayCamera(Camera):
    """Plays recorded frames once (or forever with ``loop=True``)."""

    name = "replay"

    def __init__(self, path: str | Path, loop: bool = False):
        self.path = Path(path)
        self.loop = loop
        self._files: list[Path] = []
        self._cap = None
        self._index = 0

    def open(self) -> None:
        if not str(self.path) or not self.path.exists():
            raise CameraError(f"replay: {self.path} does not exist (give a folder of images or a video file "
                              "with --camera-path or TABLEHUB_CAMERA_PATH)")
        self._index = 0
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise CameraError(f"replay: {self.path} holds no images ({', '.join(IMAGE_SUFFIXES)})")
            return
        import cv2

        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"replay: {self.path} is neither a folder of images nor a video OpenCV can read")
        self._cap = cap

    def read(self) -> Frame:
        import cv2

        if self._cap is not None:
            ok, frame = self._cap.read()
            if not ok and self.loop and self._index > 0:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._cap.read()
            if not ok:
                raise EndOfFrames(f"{self.path} played to the end ({self._index} frames)")
            self._index += 1
            return frame
        if not self._files:
            raise CameraError("replay camera is not open")
        if self._index >= len(self._files):
            if not self.loop:
                raise EndOfFrames(f"{self.path} played to the end ({len(self._files)} frames)")
            self._index = 0
        path = self._files[self._index]
        self._index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"replay: {path} is not an image OpenCV can read")
        return np.ascontiguousarray(frame)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def describe(self) -> str:
        return f"replay of {self.path}"
