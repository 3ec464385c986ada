"""Stopping the page's server always ends it, even when waitress's wake-up pipe is already gone.

CI once saw ``web.stop()`` at the end of a demo raise ``OSError: [Errno 9] Bad file descriptor`` from
waitress's trigger (its pipe closed before the stop asked the loop to close everything): the demo's
game was saved, but the command failed and the port and threads stayed behind.
"""
from __future__ import annotations

import logging
import socket
import urllib.request

from tablehub.store import Store
from web.hub import Hub
from web.server import BackgroundServer


def _served(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
            return r.status == 200
    except OSError:
        return False


def _port_free(port: int) -> bool:
    """Whether a new server could listen on ``port`` (as waitress does: SO_REUSEADDR, so the closed
    connections' TIME_WAIT does not count; a socket still listening does)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_a_server_stops_frees_its_port_and_closes_its_wake_up_pipe_after_its_workers(tmp_path):
    srv = BackgroundServer(Hub(Store(tmp_path / "g.sqlite"), pin="1234"), port=0)
    assert _served(srv.port)
    trigger, workers = srv._server.trigger, srv._server.task_dispatcher
    closed_with_workers = []
    close = trigger.close
    trigger.close = lambda: (closed_with_workers.append(len(workers.threads)), close())
    srv.stop()
    assert not srv._thread.is_alive() and _port_free(srv.port)
    assert closed_with_workers == [0], "the pipe must close once, after every worker stopped"
    assert trigger._fds == [], "the wake-up pipe is left open"


def test_a_server_whose_wake_up_pipe_is_gone_still_stops_and_frees_its_port(tmp_path, caplog):
    srv = BackgroundServer(Hub(Store(tmp_path / "g.sqlite"), pin="1234"), port=0)
    assert _served(srv.port)
    srv._server.trigger.close()  # the pipe goes as an unexpected close takes it (waitress's own handle_close)
    with caplog.at_level(logging.WARNING, logger="web.server"):
        srv.stop()  # before the fix: OSError [Errno 9] from the trigger, the loop and the port left running
    assert not srv._thread.is_alive(), "the server's loop still runs"
    assert _port_free(srv.port), "the port is still held"
    assert not _served(srv.port)
    assert "wake-up pipe was already closed" in caplog.text
