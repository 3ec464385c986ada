"""A USB (UVC) camera, or any device OpenCV's VideoCapture opens."""
from __future__ import annotations

from .base import Camera, CameraError, CameraLost, Frame


class VideoCaptureCamera(Camera):
    name = "opencv"

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (1920, 1080), lock: bool = True):
        self.device = device
        self.size = size
        self.lock = lock
        self._cap = None

    def open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"OpenCV cannot open camera {self.device!r}: is it plugged in "
                              "(`ls /dev/video*`) and is the user in the video group?")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # newest frame, not a queue of old ones
        if self.lock:
            # UVC: 1 = manual exposure (V4L2), autofocus and auto white balance off.
            # Drivers that ignore these keep their automatic behaviour; doctor reports the values.
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            cap.set(cv2.CAP_PROP_AUTOFOCUS, 0)
            cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        self._cap = cap

    def read(self) -> Frame:
        if self._cap is None:
            raise CameraLost(f"camera {self.device!r} is not open")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraLost(f"camera {self.device!r} returned no frame")
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def describe(self) -> str:
        return f"opencv camera {self.device!r}"
