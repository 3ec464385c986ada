"""The hub's side: publish the table's game to the venue's broker without ever waiting for it.

The session's listener only puts ``(session, kind, payload)`` on a queue and returns; one
worker thread turns them into messages (reading the game under the session's lock for a
moment) and hands them to paho, whose own network thread talks to the broker. While the
broker is away paho keeps the QoS 1 messages and sends them in order when it is back
(the reconnect backs off from 1 to 30 seconds); after every (re)connection the worker
publishes ``online`` and the latest state and results again, so a broker restarted
without persistence gets its retained messages back.

>>> from tablehub.config import VenueConfig
>>> start_publishing(VenueConfig(), hub=None) is None   # not configured: nothing at all
True
"""
from __future__ import annotations

import logging
import os
import queue
import threading
import time
import uuid
from typing import Any, Callable

from ..config import VenueConfig
from . import payloads
from .mqtt import make_client

log = logging.getLogger(__name__)

#: messages kept while the broker is away (a whole evening of a busy table is a few thousand)
MAX_QUEUED = 100_000


class VenuePublisher:
    """Publishes one table (``settings.venue`` / ``settings.table``) to ``settings.broker``."""

    def __init__(self, settings: VenueConfig, *, client_id: str | None = None,
                 clock: Callable[[], float] = time.time):
        if not settings.enabled:
            raise ValueError("the [venue] settings name no broker")
        self.settings = settings
        self.clock = clock
        self.run_id = uuid.uuid4().hex[:12]
        self._seq = 0
        self._queue: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self._session: Any = None
        self._unsubscribe: Callable[[], None] | None = None
        self._attach_lock = threading.Lock()
        self._state: tuple[str, bytes] | None = None         # the latest state, for republishing
        self._results: dict[str, bytes] = {}                 # topic -> retained result of this run
        self._last_event: str | None = None
        self.connected = threading.Event()
        self.published = 0                                   # messages handed to paho
        self.listener: Callable[[str, dict[str, Any]], None] | None = None  # sees each message (tests, bench)
        will = payloads.encode(payloads.status(self._head(seq=False), online=False))
        cid = client_id or f"tablehub-{settings.venue}-{settings.table}-{os.getpid()}"[:64]
        self._client = make_client(settings, cid, will=(self.topic("status"), will), max_queued=MAX_QUEUED)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._worker = threading.Thread(target=self._work, name="tablehub-venue", daemon=True)
        self._started = False
        self._busy = False

    # ---- life

    def start(self) -> "VenuePublisher":
        s = self.settings
        self._client.connect_async(s.broker, s.broker_port, keepalive=s.keepalive)
        self._client.loop_start()
        self._worker.start()
        self._started = True
        log.info("publishing table %r of venue %r to %s:%d", s.table, s.venue, s.broker, s.broker_port)
        return self

    def close(self, timeout: float = 3.0) -> None:
        """Say ``offline`` (if the broker is there), then disconnect. Never blocks past ``timeout``."""
        if not self._started:
            return
        self._started = False
        self.attach(None, announce=False)
        done = threading.Event()
        self._queue.put(("stop", done))
        self._worker.join(timeout)
        deadline = time.monotonic() + timeout
        if self.connected.is_set():
            info, _ = self._publish(self.topic("status"), payloads.status(self._head(), online=False), retain=True)
            while not info.is_published() and time.monotonic() < deadline and self.connected.is_set():
                time.sleep(0.01)
        self._client.disconnect()
        self._client.loop_stop()

    def topic(self, kind: str, game_id: int | None = None) -> str:
        return payloads.topic(self.settings.venue, self.settings.table, kind, game_id)

    def idle(self) -> bool:
        """Every queued session event has been handed to paho."""
        return self._queue.empty() and not self._busy

    def pending(self) -> int:
        """Messages not yet acknowledged by the broker (queued or in flight)."""
        return len(getattr(self._client, "_out_messages", {}))

    # ---- the session

    def attach(self, session: Any, announce: bool = True) -> None:
        """Follow ``session`` (``None``: no game on the table). Returns at once."""
        with self._attach_lock:
            if self._unsubscribe is not None:
                self._unsubscribe()
                self._unsubscribe = None
            self._session = session
            if session is not None:
                self._unsubscribe = session.subscribe(
                    lambda kind, payload, s=session: self._queue.put(("event", s, kind, payload)))
        if announce:
            self._queue.put(("attach", session))

    # ---- paho's thread

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("the venue broker refused the connection: %s", reason)
            return
        self.connected.set()
        log.info("connected to the venue broker %s", self.settings.broker)
        self._queue.put(("connected",))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.connected.is_set() and self._started:
            log.warning("lost the venue broker (%s); reconnecting, messages are kept meanwhile", reason)
        self.connected.clear()

    # ---- the worker

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            self._busy = True
            try:
                if item[0] == "stop":
                    item[1].set()
                    return
                self._handle(item)
            except Exception:  # a bad game state must not stop publishing for the evening
                log.exception("venue publisher: could not publish %s", item[0])
            finally:
                self._busy = False

    def _handle(self, item: tuple[Any, ...]) -> None:
        if item[0] == "connected":
            self._publish(self.topic("status"), payloads.status(self._head(), online=True), retain=True)
            for topic, body in list(self._results.items()):
                self._client.publish(topic, body, qos=1, retain=True)
            if self._state is not None:
                self._client.publish(self._state[0], self._state[1], qos=1, retain=True)
            return
        if item[0] == "attach":
            session = item[1]
            if session is not None:
                text = f"{'resumed' if session.rows else 'started'} game {session.game_id} ({session.setup.game})"
                self._publish(self.topic("events"), payloads.event(self._head(), session, "game", text, {}))
                self._last_event = text
            self._publish_state(session)
            return
        _, session, kind, payload = item
        if kind == "reopen":  # no result any more: an empty retained message clears it on the broker
            rtopic = self.topic("results", session.game_id)
            self._results.pop(rtopic, None)
            self._client.publish(rtopic, b"", qos=1, retain=True)
        text = describe(kind, payload, session)
        self._last_event = text
        self._publish(self.topic("events"), payloads.event(self._head(), session, kind, text, payload))
        self._publish_state(session)

    def _publish_state(self, session: Any) -> None:
        if session is None:
            message = payloads.state(self._head(), None, 0.0, None, self._last_event)
        else:
            with session.lock:
                row = session.store.game(session.game_id)
                message = payloads.state(self._head(), session, row.created, row.ended, self._last_event)
                result = (payloads.result(self._head(), session, row.created, row.ended)
                          if session.game.finished else None)
            rtopic = self.topic("results", session.game_id)
            if result is not None:
                self._results[rtopic] = self._publish(rtopic, result, retain=True)[1]
        self._state = (self.topic("state"), self._publish(self.topic("state"), message, retain=True)[1])

    def _head(self, seq: bool = True) -> dict[str, Any]:
        head: dict[str, Any] = {"v": payloads.SCHEMA_VERSION, "type": "", "venue": self.settings.venue,
                                "table": self.settings.table, "at": self.clock()}
        if seq:
            self._seq += 1
            head.update(run=self.run_id, seq=self._seq)
        return head

    def _publish(self, topic: str, message: dict[str, Any], retain: bool = False) -> tuple[Any, bytes]:
        """Hand one message to paho (it keeps it while the broker is away); its info and body."""
        body = payloads.encode(message)
        info = self._client.publish(topic, body, qos=1, retain=retain)
        self.published += 1
        if self.listener is not None:
            self.listener(topic, message)
        return info, body


def describe(kind: str, payload: dict[str, Any], session: Any) -> str:
    """One line for the board: the action in the game's words when it has them, and what it scored."""
    if kind == "action":
        action = payload.get("action") or {}
        words = None
        try:
            words = session.game.describe(action)
        except Exception:  # describe reads the game as it is now; never fail a message on it
            words = None
        if not words:
            fields = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
            words = str(action.get("type", "action")).replace("_", " ").capitalize()
            words += f" ({fields})" if fields else ""
        scored = "; ".join(f"{e['player']} {'+' if e['points'] >= 0 else ''}{e['points']}"
                           for e in payload.get("events", []) if e.get("points"))
        return f"{words}: {scored}" if scored else words
    if kind == "undo":
        return f"undo of {len(payload.get('actions', []))} action(s)"
    if kind == "finish":
        return "game ended: " + ", ".join(f"{p['name']} {p['score']}" for p in payloads.players_of(session))
    if kind == "reopen":
        return "game reopened"
    return kind


def start_publishing(settings: VenueConfig, hub: Any) -> VenuePublisher | None:
    """Publish ``hub``'s games when ``[venue]`` names a broker (else ``None``, nothing started).

    ``hub``: anything with a ``session`` and a list ``session_watchers`` of callables told of
    every new session (web.hub.Hub). ``close()`` the publisher when the hub stops.
    """
    if not settings.enabled:
        return None
    publisher = VenuePublisher(settings).start()
    hub.session_watchers.append(publisher.attach)
    publisher.attach(hub.session)
    return publisher
