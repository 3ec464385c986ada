"""Caps on long requests (event streams, camera streams) so they never take the page's last threads.

Each long request holds one waitress thread for as long as it lasts. :class:`Slots`
counts them in total and per client address; a request over either cap gets a 503 with
``Retry-After`` at once instead of a thread.

>>> slots = Slots("camera streams", total=2, per_client=1)
>>> release = slots.take("10.0.0.5")
>>> slots.take("10.0.0.5")
Traceback (most recent call last):
...
web.security.ApiError: the hub is busy: 1 camera streams are open from this address (at most 1); try again later
>>> release(); slots.open
0
"""
from __future__ import annotations

import threading
from collections import Counter
from typing import Any, Callable, Iterable, Iterator

from tablehub.i18n import T

from .security import ApiError


class Slots:
    """At most ``total`` at once, and ``per_client`` from one address (``None``: no cap).
    Addresses in ``exempt`` (the hub itself) count toward the total only."""

    def __init__(self, what: str, total: int | None, per_client: int | None,
                 exempt: Iterable[str] = ("127.0.0.1", "::1")):
        self.what = what
        self.total = total
        self.per_client = per_client
        self.exempt = frozenset(exempt)
        self._lock = threading.Lock()
        self._by_client: Counter[str] = Counter()

    @property
    def open(self) -> int:
        with self._lock:
            return sum(self._by_client.values())

    def take(self, client: str) -> Callable[[], None]:
        """A slot for ``client``: returns the function that gives it back (once), or raises a 503 ApiError."""
        with self._lock:
            if self.total is not None and sum(self._by_client.values()) >= self.total:
                raise ApiError(503, T("the hub is busy: {n} {what} are open (the most it serves); try again later",
                                    n=self.total, what=self.what))
            if (self.per_client is not None and client not in self.exempt
                    and self._by_client[client] >= self.per_client):
                raise ApiError(503, T("the hub is busy: {n} {what} are open from this address (at most {most}); try again "
                                    "later", n=self._by_client[client], what=self.what, most=self.per_client))
            self._by_client[client] += 1
        done = threading.Event()

        def release() -> None:
            if done.is_set():
                return
            done.set()
            with self._lock:
                self._by_client[client] -= 1
                if self._by_client[client] <= 0:
                    del self._by_client[client]

        return release


class Held:
    """An iterable response body that gives its slot back when the server closes it (or it ends),
    even if it never started (a client that hung up at once)."""

    def __init__(self, body: Iterable[Any], release: Callable[[], None]):
        self._body = body
        self._it: Iterator[Any] | None = None
        self._release = release

    def __iter__(self) -> "Held":
        return self

    def __next__(self) -> Any:
        if self._it is None:
            self._it = iter(self._body)
        try:
            return next(self._it)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            self._release()
