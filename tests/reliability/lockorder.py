"""Lock-order recording for the hub's own locks: the order in which threads take them, and its cycles.

Two threads that take the same two locks in opposite orders can freeze each other: the hub's page,
the frame loop, the buttons and the voice all stop, with no error. Such a freeze shows only when the
two threads meet at the wrong moment, so waiting for one in a test proves little. What can be
checked every run is the *order*: :func:`recording` swaps each named module's ``threading`` for a
namespace whose ``Lock``, ``RLock`` and ``Condition`` make :class:`RecordingLock` s (named after the
line that made them, e.g. ``web.hub:140``). Each one notes, when a thread asks for it, every other
recorded lock that thread already holds: an edge *held -> asked*. A cycle in those edges (A -> B in
one place, B -> A in another, or a longer ring) is a deadlock waiting for its moment, even if this
run never hit it. This is the kernel's lockdep idea, for the few locks the hub shares between threads.

The recording only names locks made while it is on; locks made at import time are not seen.
"""
from __future__ import annotations

import contextlib
import sys
import threading
import traceback
from typing import Any, Iterator

_real = threading


class Orders:
    """The edges seen: ``(held, asked) -> where`` (the asking thread's name and stack, first time seen)."""

    def __init__(self) -> None:
        self.edges: dict[tuple[str, str], str] = {}
        self.taken: dict[str, int] = {}
        self._held = _real.local()
        self._guard = _real.Lock()  # a real lock: the recorder's own bookkeeping is never recorded

    def held(self) -> list[str]:
        if not hasattr(self._held, "names"):
            self._held.names = []
        return self._held.names

    def asking(self, name: str) -> None:
        held = self.held()
        if name in held:  # a re-entrant take of a lock already held adds no order
            return
        new = [(h, name) for h in dict.fromkeys(held) if (h, name) not in self.edges]
        if new:
            where = f"thread {_real.current_thread().name}:\n" + "".join(traceback.format_stack(limit=14)[:-3])
            with self._guard:
                for edge in new:
                    self.edges.setdefault(edge, where)

    def took(self, name: str, times: int = 1) -> None:
        self.held().extend([name] * times)
        with self._guard:
            self.taken[name] = self.taken.get(name, 0) + times

    def gave_back(self, name: str, every: bool = False) -> int:
        held = self.held()
        if every:
            count = held.count(name)
            held[:] = [h for h in held if h != name]
            return count
        for i in range(len(held) - 1, -1, -1):
            if held[i] == name:
                del held[i]
                return 1
        return 0

    def cycles(self) -> list[list[str]]:
        """Every elementary cycle's locks, found once each (from its smallest name)."""
        graph: dict[str, set[str]] = {}
        for a, b in self.edges:
            graph.setdefault(a, set()).add(b)
        found: list[list[str]] = []

        def walk(start: str, node: str, path: list[str]) -> None:
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    found.append(path[:])
                elif nxt > start and nxt not in path:
                    walk(start, nxt, path + [nxt])

        for start in sorted(graph):
            walk(start, start, [start])
        return found

    def explain(self, cycle: list[str]) -> str:
        ring = cycle + cycle[:1]
        return "\n".join(f"--- {a} held while asking for {b}, first at {self.edges[(a, b)]}"
                         for a, b in zip(ring, ring[1:]))


class RecordingLock:
    """A real ``Lock``/``RLock`` that tells :class:`Orders` when it is asked for, taken and given back."""

    def __init__(self, name: str, inner: Any, orders: Orders):
        self.name, self._inner, self._orders = name, inner, orders

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        self._orders.asking(self.name)
        got = self._inner.acquire(blocking, timeout)
        if got:
            self._orders.took(self.name)
        return got

    def release(self) -> None:
        self._orders.gave_back(self.name)
        self._inner.release()

    __enter__ = acquire

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def locked(self) -> bool:
        return self._inner.locked()

    # what threading.Condition uses to wait on a re-entrant lock (and falls back to for a plain one)
    def _is_owned(self) -> bool:
        if hasattr(self._inner, "_is_owned"):
            return self._inner._is_owned()
        if self._inner.acquire(False):
            self._inner.release()
            return False
        return True

    def _release_save(self) -> tuple[Any, int]:
        count = self._orders.gave_back(self.name, every=True)
        if hasattr(self._inner, "_release_save"):
            return self._inner._release_save(), count
        self._inner.release()
        return None, count

    def _acquire_restore(self, saved: tuple[Any, int]) -> None:
        state, count = saved
        self._orders.asking(self.name)
        if hasattr(self._inner, "_acquire_restore"):
            self._inner._acquire_restore(state)
        else:
            self._inner.acquire()
        self._orders.took(self.name, max(count, 1))


class _Threading:
    """``threading`` as the recorded modules see it: every lock they make is a :class:`RecordingLock`."""

    def __init__(self, orders: Orders):
        self._orders = orders

    def __getattr__(self, name: str) -> Any:
        return getattr(_real, name)

    def _name(self) -> str:
        frame = sys._getframe(2)
        return f"{frame.f_globals.get('__name__', '?')}:{frame.f_lineno}"

    def Lock(self) -> RecordingLock:  # noqa: N802 (threading's names)
        return RecordingLock(self._name(), _real.Lock(), self._orders)

    def RLock(self) -> RecordingLock:  # noqa: N802
        return RecordingLock(self._name(), _real.RLock(), self._orders)

    def Condition(self, lock: Any = None) -> Any:  # noqa: N802
        if lock is None:
            lock = RecordingLock(self._name(), _real.RLock(), self._orders)
        return _real.Condition(lock)


@contextlib.contextmanager
def recording(*module_names: str) -> Iterator[Orders]:
    """Record the lock order of every lock the named modules make while the block runs."""
    import importlib

    orders = Orders()
    shim = _Threading(orders)
    modules = [importlib.import_module(name) for name in module_names]
    saved = [m.threading for m in modules]
    for m in modules:
        m.threading = shim
    try:
        yield orders
    finally:
        for m, old in zip(modules, saved):
            m.threading = old
