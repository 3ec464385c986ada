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


def test_the_unit_filters_system_calls_devices_processes_and_addresses():
    text = UNIT.read_text()
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert "SystemCallFilter=@system-service" in lines
    assert any(line.startswith("SystemCallFilter=~") and "@privileged" in line for line in lines)
    assert "ProtectProc=invisible" in lines and "DevicePolicy=closed" in lines
    allowed = " ".join(line.split("=", 1)[1] for line in lines if line.startswith("DeviceAllow="))
    for device in ("char-video4linux", "char-media", "/dev/dma_heap", "char-gpiochip", "/dev/vchiq"):
        assert device in allowed, f"the camera or GPIO needs {device}"
    assert "IPAddressDeny=any" in lines
    ip_allowed = " ".join(line.split("=", 1)[1] for line in lines if line.startswith("IPAddressAllow="))
    for net in ("localhost", "link-local", "multicast", "192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"):
        assert net in ip_allowed, f"a LAN hub needs {net}"


def test_every_hardening_line_says_why():
    """Each group of hardening lines follows a comment explaining it."""
    text = UNIT.read_text().split("# Hardening:", 1)[1].split("[Install]")[0]
    for key in ("ProtectProc", "DevicePolicy", "DeviceAllow=char-gpiochip", "SystemCallFilter", "IPAddressDeny"):
        before = text.split(key, 1)[0].rstrip().splitlines()
        assert before and (before[-1].startswith("#") or any(
            line.startswith("#") for line in before[-4:])), f"{key} has no reason next to it"
