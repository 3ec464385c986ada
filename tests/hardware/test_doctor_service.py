"""`tablehub doctor` beside the service and on a laptop: the sim camera's markers, pins the service holds,
the data folder it checks."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tablehub.cli import main


def doctor(capsys, *args: str) -> dict[str, dict]:
    main(["doctor", "--json", *args])
    return {c["name"]: c for c in json.loads(capsys.readouterr().out)}


def test_with_the_sim_camera_doctor_looks_for_the_markers_on_a_rendered_table(tmp_path, monkeypatch, capsys):
    pytest.importorskip("vision.sim")
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    monkeypatch.setenv("TABLEHUB_CAMERA", "sim")
    checks = doctor(capsys)
    assert checks["camera"]["status"] == "ok" and "sim camera" in checks["camera"]["found"]
    assert checks["markers"]["status"] == "ok", checks["markers"]
    assert "no frame" not in checks["markers"]["found"]


def fake_systemctl(tmp_path: Path, state: str) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "systemctl"
    tool.write_text(f'#!/bin/sh\ncase "$1" in is-active) echo {state} ;; is-enabled) echo enabled ;; esac\n')
    tool.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}"


def test_doctor_leaves_the_pins_to_a_running_service(tmp_path, monkeypatch, capsys):
    """Run right after the installer starts the service: claiming the pins would fight it for them."""
    settings = tmp_path / "tablehub.toml"
    settings.write_text('[pins]\nbackend = "lgpio"\n')
    monkeypatch.setenv("PATH", fake_systemctl(tmp_path, "active"))
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    gpio = doctor(capsys, "--no-camera", "--config", str(settings))["gpio"]
    assert gpio["status"] == "skip" and "service is active and holds the pins" in gpio["found"]
    assert "systemctl stop tablehub" in gpio["found"]


def test_with_the_service_stopped_doctor_claims_the_pins(tmp_path, monkeypatch, capsys):
    settings = tmp_path / "tablehub.toml"
    settings.write_text('[pins]\nbackend = "lgpio"\n')
    monkeypatch.setenv("PATH", fake_systemctl(tmp_path, "inactive"))
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    gpio = doctor(capsys, "--no-camera", "--config", str(settings))["gpio"]
    assert "holds the pins" not in gpio["found"]  # it tried (and here, with no GPIO chip, fails)


def test_data_names_the_folder_whose_database_is_checked(tmp_path, monkeypatch, capsys):
    service_data = tmp_path / "service"
    service_data.mkdir()
    from tablehub.games.base import Setup
    from tablehub.session import Session
    from tablehub.store import Store

    store = Store(service_data / "games.sqlite")
    Session.create(store, Setup("neuesland", ("Ana", "Ben")))
    store.close()
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path / "elsewhere"))
    disk = doctor(capsys, "--no-camera", "--data", str(service_data))["disk"]
    assert str(service_data / "games.sqlite") in disk["found"] and "1 game(s)" in disk["found"]
