"""Camera sources: replay from disk, the supervisor's retry after a loss, picamera2's lock (fake module)."""
from __future__ import annotations

import sys
import types

import cv2
import numpy as np
import pytest

from tablehub.config import CameraConfig
from tablehub.hardware.cameras import (Camera, CameraError, CameraLost, EndOfFrames, ReplayCamera, Shot,
                                       SimCamera, SupervisedCamera, make_camera)
from tablehub.hardware.cameras.sim import blank_draw


def frames(n: int) -> list[np.ndarray]:
    return [np.full((48, 64, 3), 10 * i, np.uint8) for i in range(n)]


def test_replay_plays_a_folder_of_images_in_name_order_then_ends(tmp_path):
    for i, f in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), f)
    cam = make_camera(CameraConfig(source="replay", path=str(tmp_path)))
    with cam:
        assert [int(cam.read()[0, 0, 0]) for _ in range(3)] == [0, 10, 20]
        with pytest.raises(EndOfFrames):
            cam.read()


def test_replay_plays_a_video_file(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build writes no MJPG video")
    for f in frames(4):
        writer.write(f)
    writer.release()
    with ReplayCamera(path) as cam:
        got = [cam.read() for _ in range(4)]
        assert got[0].shape == (48, 64, 3)
        with pytest.raises(EndOfFrames):
            cam.read()


def test_replay_of_a_missing_folder_says_what_to_give(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        ReplayCamera(tmp_path / "nothing").open()


class Flaky(Camera):
    """Delivers frames, then loses the device after ``good`` frames (like a pulled USB cable)."""

    opened = 0

    def __init__(self, good: int, fail_opens: int = 0):
        self.good, self.fail_opens = good, fail_opens

    def open(self):
        Flaky.opened += 1
        if Flaky.opened <= self.fail_opens:
            raise CameraError("no such device")

    def read(self):
        if self.good <= 0:
            raise CameraLost("device vanished")
        self.good -= 1
        return np.zeros((4, 4, 3), np.uint8)


def test_a_lost_camera_is_retried_with_a_visible_status_not_a_crash():
    Flaky.opened = 0
    now = [0.0]
    statuses = []
    sup = SupervisedCamera(lambda: Flaky(good=1, fail_opens=0), retry_s=2, clock=lambda: now[0],
                           on_status=statuses.append)
    assert sup.read() is not None and sup.status.ok
    assert sup.read() is None
    assert sup.status.state == "lost" and "retrying in 2 s" in sup.status.message
    now[0] = 1.0
    assert sup.read() is None and Flaky.opened == 1, "no retry before the pause is over"
    now[0] = 2.5
    assert sup.read() is not None and sup.status.ok and Flaky.opened == 2
    assert [s.state for s in statuses] == ["ok", "lost", "ok"]


def test_retries_back_off_while_the_camera_stays_away():
    Flaky.opened = 0
    now = [0.0]
    sup = SupervisedCamera(lambda: Flaky(good=0, fail_opens=99), retry_s=2, max_retry_s=8, clock=lambda: now[0])
    delays = []
    for _ in range(5):
        sup.read()
        delays.append(sup._next_try - now[0])
        now[0] = sup._next_try
    assert delays == [2, 4, 8, 8, 8]


def test_the_sim_camera_plays_hands_then_a_still_table_and_ends():
    shots = [Shot({}, frames=2), Shot({}, hands=1, frames=3, phase="hands"), Shot({}, frames=2)]
    cam = SimCamera(shots, blank_draw((64, 48)))
    sup = SupervisedCamera(lambda: cam)
    got = [sup.read() for _ in range(8)]
    assert all(f is not None for f in got[:7]) and got[7] is None
    assert sup.ended


def test_picamera2_missing_gives_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    cam = make_camera(CameraConfig(source="picamera2"))
    with pytest.raises(CameraError, match="python3-picamera2"):
        cam.open()


class FakePicamera2:
    """Stands in for picamera2.Picamera2: records configuration and controls."""

    instances: list["FakePicamera2"] = []

    def __init__(self):
        self.controls = {}
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.focused = False
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info():
        return [{"Model": "imx708", "Num": 0}]

    def create_still_configuration(self, main, sensor, buffer_count):
        return {"main": main, "sensor": sensor, "buffer_count": buffer_count}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def autofocus_cycle(self):
        self.focused = True

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "LensPosition": 3.2}

    def set_controls(self, controls):
        self.controls.update(controls)

    def capture_array(self, name):
        return np.zeros((1080, 1920, 3), np.uint8)

    def stop(self):
        pass

    def close(self):
        pass


def test_picamera2_locks_exposure_white_balance_and_focus_after_settling(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    slept = []
    from tablehub.hardware.cameras.picamera import PiCamera

    with PiCamera((1920, 1080), settle_s=2.0, sleep=slept.append) as cam:
        assert cam.read().shape == (1080, 1920, 3)
    fake = FakePicamera2.instances[-1]
    assert slept == [2.0] and fake.focused
    assert fake.config["main"] == {"size": (1920, 1080), "format": "RGB888"}
    assert fake.controls == {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5, "AwbEnable": False,
                             "ColourGains": (1.9, 1.6), "AfMode": 0, "LensPosition": 3.2}


def test_the_sim_camera_without_a_script_explains_itself():
    with pytest.raises(CameraError, match="tablehub demo"):
        make_camera(CameraConfig(source="sim"))
