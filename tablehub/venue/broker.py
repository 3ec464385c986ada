"""A throw-away Mosquitto on loopback: the tests and ``tablehub bench venue`` start one.

Debian's ``mosquitto`` package (``scripts/test`` installs it) is started directly with a
temporary config on a free port: no system service, no persistence, anonymous access
on 127.0.0.1 only. :meth:`LocalBroker.restart` stops it and starts it again on the same
port (what a café's broker does when its machine reboots).
"""
from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ..games.base import TablehubError


class BrokerUnavailable(TablehubError):
    pass


def mosquitto_path() -> str | None:
    """The mosquitto binary (Debian puts it in /usr/sbin), or ``None``."""
    return shutil.which("mosquitto", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"]))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalBroker:
    """``with LocalBroker() as broker: ... broker.port``"""

    def __init__(self, port: int | None = None, listener_config: str = "allow_anonymous true\n"):
        """``listener_config``: what follows the ``listener`` line (default: anonymous access)."""
        binary = mosquitto_path()
        if binary is None:
            raise BrokerUnavailable("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.binary = binary
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self._dir = tempfile.TemporaryDirectory(prefix="tablehub-mosquitto-")
        self.config = Path(self._dir.name) / "mosquitto.conf"
        self.log = Path(self._dir.name) / "mosquitto.log"
        # run as whoever started it (as root, mosquitto would otherwise become the "mosquitto"
        # user, who cannot read the test's private folders)
        user = pwd.getpwuid(os.getuid()).pw_name
        self.config.write_text(f"user {user}\npersistence false\nmax_queued_messages 100000\n"
                               f"listener {self.port} 127.0.0.1\n"
                               f"{listener_config}", encoding="utf-8")
        self.process: subprocess.Popen | None = None

    @property
    def folder(self) -> Path:
        """The broker's temporary folder (for password files and certificates)."""
        return Path(self._dir.name)

    def start(self, timeout: float = 5.0) -> "LocalBroker":
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([self.binary, "-c", str(self.config)], stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerUnavailable(f"mosquitto exited at start: {self.log.read_text(errors='replace')[-400:]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise BrokerUnavailable(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self, down_s: float = 0.0) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()

    def close(self) -> None:
        self.stop()
        self._dir.cleanup()

    def __enter__(self) -> "LocalBroker":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
