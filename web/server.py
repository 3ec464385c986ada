"""waitress in a background thread that can be stopped cleanly (tests, load check, ``tablehub run``).

>>> from tablehub.store import Store
>>> from web.hub import Hub
>>> srv = BackgroundServer(Hub(Store(), pin="1234"), port=0)
>>> srv.port > 0
True
>>> srv.stop()
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from .hub import Hub

log = logging.getLogger(__name__)

#: waitress settings for the page: ``channel_request_lookahead`` lets waitress notice a phone
#: that hung up (``waitress.client_disconnected``) so its event stream ends within a second.
WAITRESS_OPTIONS = {"ident": "tablehub", "channel_timeout": 120, "channel_request_lookahead": 1}


class BackgroundServer:
    """Serve ``create_app(hub)`` with waitress on ``host:port`` (0 picks a free port) in a thread."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, threads: int | None = None,
                 app: Any = None, **waitress_options: Any):
        from waitress.server import create_server

        from . import SPARE_THREADS, create_app, threads_for

        self.hub = hub
        self.threads = threads or threads_for(hub.bus.max_streams)
        # event streams never take the threads that page loads and moves need
        hub.bus.max_streams = max(1, min(hub.bus.max_streams, self.threads - SPARE_THREADS))
        self.app = app or create_app(hub)
        options = {**WAITRESS_OPTIONS, **waitress_options}
        self._server = create_server(self.app, host=host, port=port, threads=self.threads, **options)
        self.port: int = int(self._server.effective_port)  # type: ignore[union-attr]
        self.host = host
        if hub.port is None:
            hub.port = self.port
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="tablehub-web", daemon=True)
        self._thread.start()

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
        server = self._server
        dispatcher = server.task_dispatcher  # type: ignore[attr-defined]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (dispatcher.active_count or dispatcher.queue):
            time.sleep(0.01)  # let running requests finish before their connections go

        from waitress.channel import HTTPChannel

        def close_all() -> None:
            for channel in list(server._map.values()):  # type: ignore[attr-defined]
                if isinstance(channel, HTTPChannel):
                    channel.handle_close()
                else:  # the listening socket and the trigger
                    channel.close()

        server.trigger.pull_trigger(close_all)  # type: ignore[attr-defined]
        self._thread.join(max(0.1, deadline - time.monotonic()))
        dispatcher.shutdown(timeout=max(0.1, deadline - time.monotonic()))
        if self._thread.is_alive():
            log.warning("the web server thread did not stop within %.1f s", timeout)
