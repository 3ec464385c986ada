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
    Call after telling long responses (event streams) to end.

    The loop's wake-up pipe (waitress's trigger) is closed last, once the worker threads have
    stopped: a worker still writing to it after it closed would write into whatever file took
    its number next (a database, say). If the pipe is already gone, the connections are closed
    from this thread and the loop ends at its next wake-up."""
    from waitress import wasyncore
    from waitress.channel import HTTPChannel

    dispatcher = server.task_dispatcher
    trigger = server.trigger
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and (dispatcher.active_count or dispatcher.queue):
        time.sleep(0.01)  # let running requests finish before their connections go

    def close_all() -> None:
        for channel in list(server._map.values()):
            try:
                if isinstance(channel, HTTPChannel):
                    channel.handle_close()
                elif channel is server:  # the listening socket (waitress's close() would close the trigger too)
                    wasyncore.dispatcher.close(server)
                elif channel is trigger:  # out of the loop's map (the loop ends); closed after the workers
                    trigger.del_channel()
                else:
                    channel.close()
            except OSError as exc:  # one already gone must not keep the others open
                log.debug("closing %r: %s", channel, exc)

    try:
        trigger.pull_trigger(close_all)  # close_all runs in the loop's own thread
    except OSError as exc:  # the pipe is gone: the loop cannot be asked, so close from here
        log.warning("the web server's wake-up pipe was already closed (%s); closing its connections from "
                    "this thread", exc.strerror or exc)
        close_all()  # its map is empty now: the loop ends at its next wake-up (within a second)
    thread.join(max(0.1, deadline - time.monotonic()))
    if dispatcher.shutdown(timeout=max(0.1, deadline - time.monotonic())) and not thread.is_alive():
        try:
            trigger.close()
        except OSError as exc:  # already closed under it
            log.debug("closing the wake-up pipe: %s", exc)
    else:  # a worker may still pull it: two pipe ends left open rather than a write into another file
        log.warning("the web server's threads did not stop within %.1f s; its wake-up pipe is left open", timeout)


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
