"""One table publishing to a real Mosquitto: topics, retained messages, the schema, never blocking."""
from __future__ import annotations

import json
import threading
import time

import jsonschema
import pytest

from tablehub.config import VenueConfig
from tablehub.games.base import Setup
from tablehub.games.tiles.playout import PlayoutStats, random_game
from tablehub.session import Session
from tablehub.store import Store
from tablehub.venue import payloads
from tablehub.venue.board import BoardListener, VenueBoard
from tablehub.venue.mqtt import make_client
from tablehub.venue.publisher import VenuePublisher, start_publishing
from tablehub.venue.sim import SimTable

from .conftest import wait_for


def settings(broker, table="t1", venue="cafe") -> VenueConfig:
    return VenueConfig(broker=broker.host, port=broker.port, venue=venue, table=table, keepalive=5)


class Recorder:
    """A plain paho subscriber keeping every message (topic, payload, retain flag)."""

    def __init__(self, broker, pattern: str = "tablehub/#"):
        self.messages: list[tuple[str, bytes, bool]] = []
        self.ready = threading.Event()
        self.client = make_client(VenueConfig(broker=broker.host, port=broker.port))
        self.client.on_connect = lambda c, *a: (c.subscribe(pattern, qos=1), self.ready.set())
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload), bool(m.retain)))
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert self.ready.wait(5)

    def decoded(self, kind: str | None = None) -> list[dict]:
        return [json.loads(p) for t, p, _ in self.messages if p and (kind is None or t.endswith("/" + kind))]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_whole_game_is_published_and_every_message_matches_the_schema(broker):
    rec = Recorder(broker)
    table = SimTable(settings(broker), seed=3).start()
    try:
        while table.step():
            pass
        wait_for(lambda: any(m.get("finished") for m in rec.decoded("state")), what="the final state")
    finally:
        table.close()
    wait_for(lambda: any(m.get("status") == "offline" for m in rec.decoded("status")), what="offline")
    validator = jsonschema.Draft202012Validator(payloads.schema())
    validator.check_schema(payloads.schema())
    messages = rec.decoded()
    for m in messages:
        validator.validate(m)
    kinds = {t.split("/")[3] for t, _, _ in rec.messages}
    assert kinds == {"state", "events", "status", "results"}
    assert all(t.startswith("tablehub/cafe/t1/") for t, _, _ in rec.messages)
    final = [m for m in rec.decoded("state") if m["finished"]][-1]
    assert {p["name"]: p["score"] for p in final["players"]} == table.expected
    assert final["winners"] and final["current"] is None
    events = rec.decoded("events")
    assert [e["kind"] for e in events].count("action") == len(table.actions)
    assert events[-1]["kind"] == "finish"
    assert len(set(m["run"] for m in messages if "run" in m)) == 1
    by_seq: dict[int, list[dict]] = {}
    for m in messages:
        if "seq" in m:
            by_seq.setdefault(m["seq"], []).append(m)
    # each message its own number; a number seen twice is the same retained message sent again on (re)connection
    assert all(all(c == copies[0] for c in copies) and (len(copies) == 1 or copies[0]["type"] in ("state", "result"))
               for copies in by_seq.values())
    assert sorted(by_seq) == list(range(1, max(by_seq) + 1))


def test_a_message_that_breaks_the_schema_is_caught():
    bad = {"v": 1, "type": "state", "venue": "cafe", "table": "t 1", "at": 1.0}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, payloads.schema())


def test_a_late_board_gets_the_retained_state_status_and_results(broker):
    table = SimTable(settings(broker, "t2"), seed=5).start()
    while table.step():
        pass
    wait_for(lambda: table.publisher.pending() == 0, what="every message acknowledged")
    board = VenueBoard("cafe")
    listener = BoardListener(settings(broker, "board"), board).start()
    try:
        wait_for(lambda: board.results(None) and board.tables() and board.tables()[0]["finished"]
                 and board.tables()[0]["online"], what="the retained result, state and status")
        (row,) = board.tables()
        assert {p["name"]: p["score"] for p in row["players"]} == table.expected
        assert board.results(None)[0]["winners"] == row["winners"]
    finally:
        listener.close()
        table.close()


def test_the_session_listener_returns_at_once_while_the_broker_is_away(broker):
    broker.stop()
    store = Store()
    session = Session.create(store, Setup("neuesland", ("Ana", "Ben")))
    publisher = VenuePublisher(settings(broker, "t3")).start()
    publisher.attach(session)
    slow = []
    session.subscribe(lambda kind, payload: slow.append(kind))
    table = SimTable(settings(broker, "t3"), seed=2)
    t0 = time.monotonic()
    for action in table.actions[:40]:
        session.submit(action)
    spent = time.monotonic() - t0
    assert len(slow) == 40
    assert spent < 5.0, f"40 moves took {spent:.1f} s with the broker away"
    assert not publisher.connected.is_set()
    # the broker comes back: what was kept goes out, in order
    broker.start()
    board = VenueBoard("cafe")
    listener = BoardListener(settings(broker, "board"), board).start()
    try:
        wait_for(lambda: board.tables() and board.tables()[0]["turn"] == session.game.turn, 15,
                 what="the state after the broker came back")
        assert {p["name"]: p["score"] for p in board.tables()[0]["players"]} == session.game.scores()
    finally:
        listener.close()
        publisher.close()
        table.close()
        store.close()


def test_nothing_is_published_when_not_configured():
    class FakeHub:  # the two attributes start_publishing reads
        session = None
        session_watchers: list = []

    hub = FakeHub()
    assert start_publishing(VenueConfig(), hub) is None
    assert hub.session_watchers == []
    with pytest.raises(ValueError):
        VenuePublisher(VenueConfig())


def test_the_hub_publishes_each_game_it_shows(broker):
    from web.hub import Hub

    store = Store()
    hub = Hub(store, pin="1234")
    publisher = start_publishing(settings(broker, "t4"), hub)
    board = VenueBoard("cafe")
    listener = BoardListener(settings(broker, "board"), board).start()
    try:
        hub.start(Setup("neuesland", ("Ana", "Ben")))
        stats = PlayoutStats()
        random_game("neuesland", 2, 1, stats=stats)
        first = stats.actions[0]
        hub.submit(first.to_dict())
        wait_for(lambda: board.tables() and board.tables()[0]["turn"] == 1, what="the first move")
        assert [p["name"] for p in board.tables()[0]["players"]] == ["Ana", "Ben"]
        second = hub.start(Setup("neuesland", ("Cy", "Dee", "Eve")))
        wait_for(lambda: board.tables()[0]["game_id"] == second.game_id, what="the second game")
        assert [p["name"] for p in board.tables()[0]["players"]] == ["Cy", "Dee", "Eve"]
        hub.end()
        wait_for(lambda: board.results(None), what="the second game's result")
        assert board.results(None)[0]["game_id"] == second.game_id
        hub.reopen()
        wait_for(lambda: not board.results(None), what="the result withdrawn on reopen")
    finally:
        listener.close()
        publisher.close()
        store.close()


def test_nothing_received_over_mqtt_changes_a_game(broker):
    store = Store()
    session = Session.create(store, Setup("neuesland", ("Ana", "Ben")))
    publisher = VenuePublisher(settings(broker, "t5")).start()
    publisher.attach(session)
    wait_for(publisher.connected.is_set, what="the connection")
    intruder = make_client(VenueConfig(broker=broker.host, port=broker.port))
    intruder.connect(broker.host, broker.port)
    intruder.loop_start()
    action = json.dumps({"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 0})
    for topic in ("tablehub/cafe/t5/events", "tablehub/cafe/t5/actions", "tablehub/cafe/t5/state",
                  "tablehub/cafe/t5/command"):
        intruder.publish(topic, action, qos=1).wait_for_publish(5)
    time.sleep(0.3)
    intruder.disconnect()
    intruder.loop_stop()
    assert session.rows == [] and session.game.turn == 0
    publisher.close()
    store.close()
