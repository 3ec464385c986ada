"""waitress in a background thread that can be stopped cleanly (tests, load check, ``tablehub run``).

>>> from tablehub.store import Store
>>> from web.hub import Hub
>>> srv = BackgroundServer(Hub(Store(), pin="1234"), port=0)
>>> srv.port > 0
True
>>> srv.stop()
"""
from __future__ import annotations

import errno
import logging
import threading
import time
from typing import Any

from tablehub.games.base import TablehubError

from .hub import Hub

log = logging.getLogger(__name__)

#: waitress settings for the page (docs/web.md, "Strangers on the Wi-Fi"):
#:
#: - ``channel_request_lookahead``: waitress notices a phone that hung up
#:   (``waitress.client_disconnected``), so its event stream ends within a second;
#: - ``channel_timeout``: a connection that sends nothing for 30 s is closed (idle strangers);
#: - ``connection_limit``: far above every stream the hub serves (110 phones + 4 camera streams),
#:   so idle connections cannot lock the phones out, below the service's file limit;
#: - ``max_request_body_size``: a body announced larger is refused (413) from its headers, before
#:   a byte of it is read; a chunked body is cut off there. It stays below ``inbuf_overflow``
#:   (512 KiB), so no body is ever spooled to a file on the database's disk;
#: - ``max_request_header_size``: headers are a few hundred bytes from a phone.
WAITRESS_OPTIONS = {"ident": "tablehub", "channel_timeout": 30, "channel_request_lookahead": 1,
                    "connection_limit": 400, "max_request_body_size": 128 * 1024,
                    "max_request_header_size": 32 * 1024, "cleanup_interval": 10}


def bind_error(host: str, port: int, exc: OSError) -> str:
    """One line saying why the page cannot be served on ``host:port``."""
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} is in use on {host} (another tablehub, or another server); "
                f"choose a free one with --port (or [web] port in the settings)")
    if exc.errno == errno.EACCES:
        return (f"port {port} needs privileges (ports below 1024); choose one above 1023 with --port, "
                "or run as the service, which has CAP_NET_BIND_SERVICE")
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine; use --host 0.0.0.0 (every address) or one of its own"
    return f"cannot serve the page on {host}:{port}: {exc.strerror or exc}"


def stop_server(server: Any, thread: threading.Thread, timeout: float) -> None:
    """Stop a waitress server running in ``thread``: let running requests finish (until
    ``timeout``), close every connection and the listening socket, stop the worker threads.
    Call after telling long responses (event streams) to end."""
    from waitress.channel import HTTPChannel

    dispatcher = server.task_dispatcher
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and (dispatcher.active_count or dispatcher.queue):
        time.sleep(0.01)  # let running requests finish before their connections go

    def close_all() -> None:
        for channel in list(server._map.values()):
            if isinstance(channel, HTTPChannel):
                channel.handle_close()
            else:  # the listening socket and the trigger
                channel.close()

    server.trigger.pull_trigger(close_all)
    thread.join(max(0.1, deadline - time.monotonic()))
    dispatcher.shutdown(timeout=max(0.1, deadline - time.monotonic()))


class BackgroundServer:
    """Serve ``create_app(hub)`` with waitress on ``host:port`` (0 picks a free port) in a thread."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, threads: int | None = None,
                 app: Any = None, **waitress_options: Any):
        from waitress.server import create_server

        from . import create_app, streams_for, threads_for

        self.hub = hub
        self.threads = threads or threads_for(hub.bus.max_streams)
        # event streams never take the threads that camera streams, page loads and moves need
        hub.bus.max_streams = min(hub.bus.max_streams, streams_for(self.threads))
        self.app = app or create_app(hub)
        options = {**WAITRESS_OPTIONS, **waitress_options}
        if not (isinstance(port, int) and 0 <= port <= 65535):  # socket would wrap 99999 to 34463
            raise TablehubError(f"port {port!r} is not a port number: use --port with 1 to 65535")
        try:
            self._server = create_server(self.app, host=host, port=port, threads=self.threads, **options)
        except OSError as exc:
            raise TablehubError(bind_error(host, port, exc)) from None
        except (OverflowError, ValueError) as exc:  # port 99999, port -1
            raise TablehubError(f"cannot serve the page on {host}:{port}: {exc}; a port is 1 to 65535") from None
        self.port: int = int(self._server.effective_port)  # type: ignore[union-attr]
        self.host = host
        if hub.port is None:
            hub.port = self.port
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="tablehub-web", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Block until the server stops (or Ctrl-C)."""
        while self._thread.is_alive():
            self._thread.join(1.0)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def _run(self) -> None:
        try:
            self._server.run()
        except (OSError, ValueError):
            if not self._stopping:
                raise

    def stop(self, timeout: float = 5.0) -> None:
        """End every event stream, close every connection, stop the threads."""
        if self._stopping:
            return
        self._stopping = True
        self.hub.shutdown()  # every event stream ends at its next wake-up
        stop_server(self._server, self._thread, timeout)
        if self._thread.is_alive():
            log.warning("the web server thread did not stop within %.1f s", timeout)
