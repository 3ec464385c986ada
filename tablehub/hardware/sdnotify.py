"""systemd's notify protocol in a few lines: one datagram to ``$NOTIFY_SOCKET``.

The unit is ``Type=notify`` with ``WatchdogSec=``: the hub says ``READY=1`` once the
camera, store and web server are up, ``WATCHDOG=1`` from its main loop at least
twice per watchdog period, ``STATUS=...`` for ``systemctl status``, and
``STOPPING=1`` on the way out. Outside systemd (no ``NOTIFY_SOCKET``) every call
is a no-op, so the same code runs on a laptop.

>>> n = Notifier(environ={})
>>> n.enabled, n.ready(), n.watchdog_interval()
(False, False, None)
"""
from __future__ import annotations

import logging
import os
import socket
from typing import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Talks to the service manager; silent and harmless when there is none."""

    def __init__(self, environ: Mapping[str, str] | None = None):
        env = os.environ if environ is None else environ
        path = env.get("NOTIFY_SOCKET", "")
        if path.startswith("@"):  # abstract namespace socket
            path = "\0" + path[1:]
        self._address = path or None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        self._watchdog_usec = int(usec) if usec.isdigit() and int(usec) > 0 else None
        if pid.isdigit() and int(pid) != os.getpid():
            self._watchdog_usec = None  # the watchdog is meant for another process
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self._address is not None

    def send(self, *fields: str) -> bool:
        """Send ``KEY=value`` lines; ``True`` when a service manager got them."""
        if self._address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode("utf-8"), self._address)
            return True
        except OSError as exc:
            log.warning("sd_notify to %r failed: %s", self._address, exc)
            return False

    def ready(self, status: str | None = None) -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def watchdog_interval(self) -> float | None:
        """Seconds between pings (half the watchdog period), or ``None`` without a watchdog."""
        if self._watchdog_usec is None or self._address is None:
            return None
        return self._watchdog_usec / 2e6

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
