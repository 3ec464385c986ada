"""A small thread-safe event bus that fans hub events out to Server-Sent Events streams.

Every event gets an increasing id. Its JSON is written once in English; a phone that reads
French or German gets the event rendered in its language (every :class:`tablehub.i18n.Text` in
the payload), once per language per event however many phones read it
(:meth:`Event.data_in`). The bus keeps the most recent events so a
phone that reconnects with ``Last-Event-ID`` receives what it missed; ``state``
events are full snapshots, so only the newest one is replayed.

>>> bus = EventBus(keep=10)
>>> bus.publish("notice", {"text": "hello"}).id
1
>>> [e.kind for e in bus.since(0)]
['notice']
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from tablehub.i18n import DEFAULT_LANGUAGE, T

from .language import has_text, localize


@dataclass(frozen=True)
class Event:
    id: int
    kind: str
    data: str  # JSON text in English, serialised once for every listener
    #: the payload when it holds Text to render in other languages (else None: every language reads ``data``)
    payload: Any = field(default=None, compare=False, repr=False)
    _rendered: dict = field(default_factory=dict, compare=False, repr=False)

    def data_in(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The JSON text for a phone reading ``lang``: rendered once per language, then shared."""
        if self.payload is None or lang == DEFAULT_LANGUAGE:
            return self.data
        text = self._rendered.get(lang)
        if text is None:  # two phones racing here render twice, harmlessly; the dict keeps one
            text = self._rendered.setdefault(lang, _dumps(localize(self.payload, lang)))
        return text

    def sse(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The event as Server-Sent Events wire text, for a phone reading ``lang``."""
        lines = [f"id: {self.id}", f"event: {self.kind}"]
        lines += [f"data: {line}" for line in self.data_in(lang).splitlines() or [""]]
        return "\n".join(lines) + "\n\n"


def _dumps(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), default=str)


class StreamLimit(Exception):
    """Every stream slot is taken."""


class EventBus:
    """Publish events; streams wait for new ones with a timeout (for heartbeats)."""

    #: event kinds where only the latest matters on reconnect
    SNAPSHOT_KINDS = frozenset({"state"})
    #: seconds between checks that a client is still there (when the server can tell)
    POLL = 1.0

    def __init__(self, keep: int = 200, max_streams: int = 64):
        self._cond = threading.Condition()
        self._events: deque[Event] = deque(maxlen=keep)
        self._latest: dict[str, Event] = {}  # newest event of each snapshot kind, never evicted
        self._last_id = 0
        self._closed = False
        self._streams = 0
        self.max_streams = max_streams

    # ---- publishing

    def publish(self, kind: str, payload: Any) -> Event:
        text = _dumps(payload)
        keep = payload if has_text(payload) else None
        with self._cond:
            self._last_id += 1
            event = Event(self._last_id, kind, text, keep)
            self._events.append(event)
            if kind in self.SNAPSHOT_KINDS:
                self._latest[kind] = event
            self._cond.notify_all()
        return event

    def close(self) -> None:
        """Wake every stream and make them end (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def last_id(self) -> int:
        with self._cond:
            return self._last_id

    @property
    def streams(self) -> int:
        with self._cond:
            return self._streams

    # ---- reading

    def since(self, last_id: int) -> list[Event]:
        """Events after ``last_id``, with older snapshots collapsed into the newest one.

        When some events after ``last_id`` were already evicted, the newest snapshots
        are included even if older than what is left, so a client is never left stale.
        """
        with self._cond:
            newer = [e for e in self._events if e.id > last_id]
            evicted = bool(self._events) and self._events[0].id > last_id + 1
            if evicted:
                have = {e.id for e in newer}
                newer = sorted([e for e in self._latest.values() if e.id not in have] + newer,
                               key=lambda e: e.id)
        latest: dict[str, int] = {}
        for e in newer:
            if e.kind in self.SNAPSHOT_KINDS:
                latest[e.kind] = e.id
        return [e for e in newer if e.kind not in self.SNAPSHOT_KINDS or latest[e.kind] == e.id]

    def latest(self, kind: str) -> Event | None:
        """The newest event of a snapshot kind (``state``), or ``None``."""
        with self._cond:
            return self._latest.get(kind)

    def wait(self, last_id: int, timeout: float) -> list[Event]:
        """Block until there are events after ``last_id`` (or the timeout, or close)."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._last_id > last_id, timeout=timeout)
        return self.since(last_id)

    def stream(self, last_id: int | None, heartbeat: float = 15.0, lifetime: float = 600.0,
               retry_ms: int = 2000, gone: Callable[[], bool] | None = None,
               lang: str = DEFAULT_LANGUAGE) -> Iterator[str]:
        """SSE text chunks for one client. Raises :class:`StreamLimit` when every slot is taken.

        The first chunk is sent at once: the ``retry`` hint plus either what the client
        missed (``last_id`` given) or the current ``state``. A comment line goes out every
        ``heartbeat`` seconds so dead clients are noticed; after ``lifetime`` seconds the
        stream ends and the browser reconnects by itself, so no thread is held forever.
        ``gone()``, when given, says the client has hung up (waitress's
        ``waitress.client_disconnected``); it is checked every :attr:`POLL` seconds so a
        phone that leaves frees its thread at once rather than at the next heartbeat.
        ``lang``: the phone's language (:meth:`Event.data_in`).
        """
        with self._cond:
            if self._streams >= self.max_streams:
                raise StreamLimit(T("{open} event streams are open (the limit is {most})", open=self._streams,
                                   most=self.max_streams))
            self._streams += 1
        return _Stream(self, self._stream(last_id, heartbeat, lifetime, retry_ms, gone, lang))

    def _release(self) -> None:
        with self._cond:
            self._streams -= 1

    def _stream(self, last_id: int | None, heartbeat: float, lifetime: float, retry_ms: int,
                gone: Callable[[], bool] | None, lang: str = DEFAULT_LANGUAGE) -> Iterator[str]:
        try:
            if last_id is None or last_id > self.last_id:  # new client, or one from before a restart
                with self._cond:
                    state = self._latest.get("state")
                    cursor = self._last_id
                first = [state] if state else []
            else:
                first = self.since(last_id)
                cursor = max([last_id] + [e.id for e in first])
            yield f"retry: {retry_ms}\n\n" + "".join(e.sse(lang) for e in first)
            now = time.monotonic()
            deadline = now + lifetime
            next_ping = now + heartbeat
            while not self._closed:
                now = time.monotonic()
                if now >= deadline:
                    break
                step = min(next_ping, deadline) - now
                if gone is not None:
                    step = min(step, self.POLL)
                events = self.wait(cursor, timeout=max(0.0, step))
                if self._closed or (gone is not None and gone()):
                    break
                if events:
                    cursor = events[-1].id
                    next_ping = time.monotonic() + heartbeat
                    yield "".join(e.sse(lang) for e in events)
                elif time.monotonic() >= next_ping:
                    next_ping = time.monotonic() + heartbeat
                    yield ": ping\n\n"
        finally:
            self._release()


class _Stream:
    """An SSE iterator that frees its slot on ``close()`` even if it never started."""

    def __init__(self, bus: EventBus, gen: Iterator[str]):
        self._bus = bus
        self._gen = gen
        self._started = False
        self._closed = False

    def __iter__(self) -> "_Stream":
        return self

    def __next__(self) -> str:
        if self._closed:
            raise StopIteration
        self._started = True
        return next(self._gen)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._started:
            self._gen.close()  # runs the generator's finally, which frees the slot
        else:
            self._bus._release()
