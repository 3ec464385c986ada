"""The unit file: systemd-analyze verify, and the settings the Pi needs."""
from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablehub.service"


def unit() -> configparser.ConfigParser:
    cp = configparser.ConfigParser(strict=False, interpolation=None)
    cp.optionxform = str
    cp.read(UNIT)
    return cp


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is absent (scripts/test installs it)")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    # ExecStart must exist for verify: point it at this checkout's interpreter, keep everything else.
    text = UNIT.read_text().replace("/opt/tablehub/.venv/bin/tablehub", f"{sys.executable} -m tablehub")
    copy = tmp_path / "tablehub.service"
    copy.write_text(text)
    out = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    problems = [line for line in (out.stdout + out.stderr).splitlines() if "tablehub.service" in line]
    assert out.returncode == 0 and not problems, out.stdout + out.stderr


def test_the_unit_is_a_notify_service_with_a_watchdog_and_a_dedicated_user():
    s = unit()["Service"]
    assert s["Type"] == "notify" and int(s["WatchdogSec"]) > 0
    assert s["Restart"] == "on-failure"
    assert s["User"] == "tablehub" and set(s["SupplementaryGroups"].split()) == {"video", "gpio", "audio"}
    assert s["NoNewPrivileges"] == "yes" and s["ProtectSystem"] == "strict"
    assert s["Environment"]  # TABLEHUB_DATA / LG_WD are set
    text = UNIT.read_text()
    assert "LG_WD=/run/tablehub" in text and "RuntimeDirectory=tablehub" in text
