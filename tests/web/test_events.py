"""The event bus: ids, reconnect replay, snapshot collapsing, heartbeats, limits, shutdown."""
from __future__ import annotations

import json
import threading

import pytest

from web.events import EventBus, StreamLimit


def test_events_get_increasing_ids_and_sse_text():
    bus = EventBus()
    a = bus.publish("state", {"n": 1})
    b = bus.publish("notice", {"text": "two\nlines"})
    assert (a.id, b.id) == (1, 2)
    assert a.sse() == 'id: 1\nevent: state\ndata: {"n":1}\n\n'
    assert "data: " in b.sse() and b.sse().endswith("\n\n")


def test_a_reconnecting_client_gets_only_the_newest_snapshot_and_every_notice():
    bus = EventBus()
    bus.publish("state", {"n": 1})
    bus.publish("notice", {"text": "a"})
    bus.publish("state", {"n": 2})
    missed = bus.since(0)
    assert [(e.kind, json.loads(e.data)) for e in missed] == [("notice", {"text": "a"}), ("state", {"n": 2})]


def test_the_newest_snapshot_survives_eviction_from_the_ring():
    bus = EventBus(keep=3)
    bus.publish("state", {"n": 1})
    for i in range(5):
        bus.publish("notice", {"i": i})
    missed = bus.since(0)
    assert missed[0].kind == "state", "a client that missed evicted events still gets the state"
    assert [json.loads(e.data)["i"] for e in missed[1:]] == [2, 3, 4]


def test_a_new_stream_starts_with_retry_and_the_current_state():
    bus = EventBus()
    bus.publish("state", {"n": 7})
    stream = bus.stream(None, heartbeat=0.05, lifetime=1)
    first = next(stream)
    assert first.startswith("retry: 2000\n\n")
    assert '"n":7' in first
    stream.close()
    assert bus.streams == 0


def test_a_stream_sends_new_events_then_heartbeats_then_ends_by_itself():
    bus = EventBus()
    bus.publish("state", {"n": 1})
    stream = bus.stream(None, heartbeat=0.05, lifetime=0.4)
    next(stream)
    threading.Timer(0.02, bus.publish, ("state", {"n": 2})).start()
    assert '"n":2' in next(stream)
    assert next(stream) == ": ping\n\n"
    rest = list(stream)  # ends after its lifetime
    assert all(chunk == ": ping\n\n" for chunk in rest)
    assert bus.streams == 0


def test_last_event_id_replays_what_was_missed():
    bus = EventBus()
    bus.publish("state", {"n": 1})
    bus.publish("notice", {"text": "x"})
    bus.publish("state", {"n": 3})
    stream = bus.stream(1, heartbeat=0.05, lifetime=0.2)
    first = next(stream)
    assert "id: 2\n" in first and "id: 3\n" in first and "id: 1\n" not in first
    stream.close()


def test_an_id_from_before_a_restart_gets_the_current_state():
    bus = EventBus()
    bus.publish("state", {"n": 1})
    stream = bus.stream(999, heartbeat=0.05, lifetime=0.2)
    assert '"n":1' in next(stream)
    stream.close()


def test_streams_beyond_the_limit_are_refused():
    bus = EventBus(max_streams=2)
    s1, s2 = bus.stream(None), bus.stream(None)
    next(s1), next(s2)
    with pytest.raises(StreamLimit, match="2 event streams are open"):
        bus.stream(None)
    s1.close()
    s3 = bus.stream(None)
    next(s3)
    s2.close(), s3.close()
    assert bus.streams == 0


def test_close_ends_every_stream_promptly():
    bus = EventBus()
    stream = bus.stream(None, heartbeat=30, lifetime=60)
    next(stream)
    done = threading.Event()

    def drain():
        list(stream)
        done.set()

    threading.Thread(target=drain, daemon=True).start()
    bus.close()
    assert done.wait(2), "the stream ended when the bus closed"


def test_a_stream_closed_before_it_started_frees_its_slot():
    bus = EventBus(max_streams=1)
    bus.stream(None).close()
    assert bus.streams == 0
    bus.stream(None).close()


def test_a_stream_ends_soon_after_its_client_hangs_up():
    bus = EventBus()
    bus.POLL = 0.02
    hung_up = threading.Event()
    stream = bus.stream(None, heartbeat=30, lifetime=60, gone=hung_up.is_set)
    next(stream)
    threading.Timer(0.05, hung_up.set).start()
    assert list(stream) == [], "no heartbeat was needed to notice"
    assert bus.streams == 0
