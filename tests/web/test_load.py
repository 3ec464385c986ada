"""30 phones on the event stream of a real waitress server keep receiving every update.

Bounded: every read has a timeout and the run stops by itself. The figures are printed
(run with -s to see them); the test checks delivery, not speed.
"""
from __future__ import annotations

from tablehub.games.base import Setup
from web.loadcheck import run_load

from .conftest import COLOURS, PLAYERS


def test_thirty_event_streams_all_receive_every_change_of_a_game_in_progress(hub, nl_actions):
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    for a in nl_actions[:60]:
        hub.submit(a, source="camera")
    result = run_load(streams=30, events=8, interval=0.05, timeout=10, hub=hub)
    print("\n" + result.summary())
    assert result.errors == []
    assert result.connected == 30
    assert result.current == 30, "every phone ended on the newest change"
    # a stream that falls behind gets only the newest snapshot (web.events): on a busy machine a
    # phone may skip an intermediate change, but each one reached most phones
    assert result.delivered > result.expected // 2, result.summary()
    assert result.page_load_ms is not None, "a page load still got a thread while 30 streams were open"
    assert hub.bus.streams == 0 or hub.bus.streams <= 30


def test_a_phone_that_hangs_up_frees_its_stream_without_waiting_for_a_heartbeat(hub):
    import socket
    import time

    from web.server import BackgroundServer

    srv = BackgroundServer(hub, threads=20)  # the app's heartbeat is 15 s
    try:
        sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200" in sock.recv(4096)
        assert hub.bus.streams == 1
        sock.close()
        deadline = time.monotonic() + 5
        while hub.bus.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.bus.streams == 0, "the slot came back well before the next heartbeat"
    finally:
        srv.stop()
