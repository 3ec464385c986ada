"""sd_notify over a real datagram socket, as systemd's NOTIFY_SOCKET."""
from __future__ import annotations

import os
import socket

import pytest

from tablehub.hardware.sdnotify import Notifier


@pytest.fixture()
def listener(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_ready_status_and_watchdog_reach_the_service_manager(listener):
    path, sock = listener
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())})
    assert n.ready("camera ok") is True
    assert sock.recv(256) == b"READY=1\nSTATUS=camera ok"
    n.watchdog()
    assert sock.recv(256) == b"WATCHDOG=1"
    n.stopping()
    assert sock.recv(256) == b"STOPPING=1"
    assert n.watchdog_interval() == 15.0, "pings come at half the watchdog period"
    n.close()


def test_the_abstract_namespace_form_is_understood():
    name = f"tablehub-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).status("hello")
        assert sock.recv(64) == b"STATUS=hello"
    finally:
        sock.close()


def test_without_systemd_everything_is_a_quiet_no_op():
    n = Notifier({})
    assert not n.enabled and not n.ready() and not n.watchdog()
    assert n.watchdog_interval() is None


def test_a_watchdog_meant_for_another_process_is_ignored(listener):
    path, _ = listener
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"})
    assert n.watchdog_interval() is None
