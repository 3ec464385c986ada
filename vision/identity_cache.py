"""A small cache of what is computed from an object (a reference set, an empty board, a piece book), found again by
the object's identity.

Keyed by ``id()`` alone, a cache answers a *new* object with an old one's entry once the old one is freed: CPython
hands the freed address to the next object of the same size at once (a re-enrolled reference set of the same shape
got the previous set's rotated stack, every time it was tried). Each entry here holds its objects, so their ids
cannot be reused while the entry lives, and a hit is checked with ``is``.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")


class IdentityCache:
    """At most ``size`` entries, the oldest dropped first. :meth:`get` returns the value built for the very same
    objects (and the same ``extra`` key), or builds it.

    >>> import numpy as np
    >>> cache = IdentityCache(2)
    >>> a = np.zeros(3)
    >>> cache.get((a,), "sum", lambda: float(a.sum()))
    0.0
    >>> del a
    >>> b = np.ones(3)                      # may well get the freed array's id
    >>> cache.get((b,), "sum", lambda: float(b.sum()))
    3.0
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[tuple, tuple[tuple, Any]] = OrderedDict()

    def get(self, objs: tuple, extra: Hashable, build: Callable[[], T]) -> T:
        key = (tuple(id(o) for o in objs), extra)
        hit = self._entries.get(key)
        if hit is not None and len(hit[0]) == len(objs) and all(a is b for a, b in zip(hit[0], objs)):
            self._entries.move_to_end(key)
            return hit[1]
        value = build()
        self._entries[key] = (tuple(objs), value)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self._entries.clear()
