"""tablehub doctor: each check finds the problem it is for and prints the fix."""
from __future__ import annotations

import stat
import sys

import cv2
import pytest

from tablehub.config import load_config
from tablehub.hardware.checks import (check_boot_config, check_camera, check_disk, check_markers, check_numpy_abi,
                                      numpy_abi_problem)
from tablehub.store import Store


def fake_python(tmp_path, stderr: str):
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\necho 'numpy 2.1.0'\necho '{stderr}' >&2\necho 'picamera2 ok'\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_this_venv_has_a_consistent_numpy():
    check = check_numpy_abi(sys.executable)
    assert check.status == "ok", check.line()
    assert "numpy" in check.found


@pytest.mark.parametrize("message", [
    "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.1.0 as it may crash.",
    "ImportError: numpy.core.multiarray failed to import",
])
def test_a_numpy_abi_mismatch_is_detected_and_the_fix_printed(tmp_path, message):
    assert numpy_abi_problem(f"blah\n{message}\n") == message
    check = check_numpy_abi(fake_python(tmp_path, message))
    assert check.status == "fail" and "python3-opencv" in check.fix
    assert "fix:" in check.line()


def test_the_camera_and_the_markers_on_a_rendered_table(tmp_path):
    sim = pytest.importorskip("vision.sim")
    image, _ = sim.render(sim.Scene(), art=None, camera="clean", size=(1280, 720))
    cv2.imwrite(str(tmp_path / "0001.png"), image)
    cfg = load_config(None, environ={"TABLEHUB_CAMERA": "replay", "TABLEHUB_CAMERA_PATH": str(tmp_path),
                                     "TABLEHUB_DATA": str(tmp_path)})
    cam, frame = check_camera(cfg)
    assert cam.status == "ok" and "1280x720" in cam.found
    assert check_markers(frame).status == "ok"
    covered = frame.copy()
    covered[: frame.shape[0] // 2, : frame.shape[1] // 3] = 90  # a hand over the top-left marker
    markers = check_markers(covered)
    assert markers.status in ("warn", "fail") and "top-left" in markers.found


def test_a_camera_that_cannot_open_fails_with_what_to_check(tmp_path):
    cfg = load_config(None, environ={"TABLEHUB_CAMERA": "replay", "TABLEHUB_CAMERA_PATH": str(tmp_path / "none"),
                                     "TABLEHUB_DATA": str(tmp_path)})
    check, frame = check_camera(cfg)
    assert check.status == "fail" and frame is None and check.fix


def test_disk_check_reads_the_store_integrity(tmp_path):
    cfg = load_config(None, environ={"TABLEHUB_DATA": str(tmp_path)})
    Store(cfg.db_path).close()
    check = check_disk(cfg)
    assert check.status == "ok" and "integrity ok" in check.found
    cfg.db_path.write_bytes(b"this is not a database" * 100)
    assert check_disk(cfg).status == "fail"


def test_the_boot_config_include_line_is_checked(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text("dtparam=audio=on\n")
    assert check_boot_config([config]).status == "warn"
    config.write_text("dtparam=audio=on\ninclude tablehub.txt\n")
    assert check_boot_config([config]).status == "fail", "the included file must exist"
    (tmp_path / "tablehub.txt").write_text("camera_auto_detect=1\n")
    assert check_boot_config([config]).status == "ok"


def test_doctor_runs_and_prints_every_check(tmp_path, capsys, monkeypatch):
    from tablehub.cli import main

    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    assert main(["doctor", "--no-camera"]) in (0, 1)
    out = capsys.readouterr().out
    assert "numpy ABI" in out and "disk" in out
