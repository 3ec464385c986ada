"""Load check: many phones on the event stream of a real waitress server, all receiving updates.

Starts the app on 127.0.0.1 (a free port) with waitress, opens ``streams`` Server-Sent
Events connections, publishes ``events`` changes and measures, for every phone, how long
each change took to arrive. Everything is bounded: every socket read has a timeout and the
whole run has a deadline, after which it stops by itself.

    python -m web.loadcheck --streams 30 --events 10

prints figures such as ``30 streams x 10 events: 300/300 delivered, latency median 2.1 ms,
max 14.0 ms``.
"""
from __future__ import annotations

import argparse
import json
import socket
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tablehub.store import Store

from . import SPARE_THREADS, create_app, threads_for
from .hub import Hub
from .server import BackgroundServer

TOPIC = "loadcheck"


@dataclass
class LoadResult:
    streams: int
    events: int
    connected: int = 0
    delivered: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    page_load_ms: float | None = None  # GET /api/state while every stream is open

    @property
    def expected(self) -> int:
        return self.streams * self.events

    def summary(self) -> str:
        lat = sorted(self.latencies_ms) or [float("nan")]
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        return (f"{self.streams} streams x {self.events} events: {self.connected}/{self.streams} connected, "
                f"{self.delivered}/{self.expected} delivered, latency median {statistics.median(lat):.1f} ms, "
                f"p95 {p95:.1f} ms, max {lat[-1]:.1f} ms, "
                f"state page load meanwhile {self.page_load_ms if self.page_load_ms is None else round(self.page_load_ms, 1)} ms, "
                f"run {self.elapsed_s:.1f} s"
                + (f", {len(self.errors)} errors (first: {self.errors[0]})" if self.errors else ""))


class _Phone(threading.Thread):
    """One event-stream reader on a raw socket (HTTP/1.0, so no chunked framing)."""

    def __init__(self, port: int, events: int, timeout: float, result: LoadResult, lock: threading.Lock,
                 ready: threading.Barrier):
        super().__init__(daemon=True)
        self.port, self.events, self.timeout = port, events, timeout
        self.result, self.lock, self.ready = result, lock, ready
        self.seen: set[int] = set()

    def run(self) -> None:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout) as sock:
                sock.sendall(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                stream = sock.makefile("rb")
                status = stream.readline()
                if b" 200 " not in status:
                    raise ConnectionError(f"event stream answered {status.decode(errors='replace').strip()}")
                got_first = False
                for data in _sse_data(stream):
                    if not got_first:
                        got_first = True
                        with self.lock:
                            self.result.connected += 1
                        self.ready.wait(self.timeout)
                    self._record(data)
                    if len(self.seen) >= self.events:
                        return
        except (OSError, ConnectionError, threading.BrokenBarrierError) as exc:
            with self.lock:
                self.result.errors.append(f"{type(exc).__name__}: {exc}")

    def _record(self, data: dict[str, Any]) -> None:
        mark = (data.get("status") or {}).get(TOPIC)
        if not mark:
            return
        seq_text, _, sent = mark.partition(" ")
        seq = int(seq_text)
        if seq in self.seen:
            return
        self.seen.add(seq)
        with self.lock:
            self.result.delivered += 1
            self.result.latencies_ms.append((time.time() - float(sent)) * 1000)


def _sse_data(stream: Any):
    """The JSON payload of every ``state`` event on a byte stream."""
    event, data = None, []
    for raw in iter(stream.readline, b""):
        line = raw.decode().rstrip("\r\n")
        if line == "":
            if event == "state" and data:
                yield json.loads("\n".join(data))
            event, data = None, []
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])


def _page_load_ms(port: int, timeout: float) -> float | None:
    """Time one ordinary request while the streams hold their threads (``None`` if it failed)."""
    import http.client

    t0 = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("GET", "/api/state")
        ok = conn.getresponse().read() and True
        conn.close()
    except OSError:
        return None
    return (time.perf_counter() - t0) * 1000 if ok else None


def run_load(streams: int = 30, events: int = 10, interval: float = 0.05, timeout: float = 10.0,
             hub: Hub | None = None) -> LoadResult:
    """Run the check against a fresh waitress server; returns the measured figures.

    The server is stopped at the end, which also closes ``hub``'s event bus.
    """
    hub = hub or Hub(Store(), pin="0000", max_streams=streams)
    hub.bus.max_streams = max(hub.bus.max_streams, streams)
    app = create_app(hub, heartbeat=1.0, stream_lifetime=timeout + 5)
    server = BackgroundServer(hub, threads=threads_for(streams), app=app)
    port = server.port
    result = LoadResult(streams, events)
    lock = threading.Lock()
    ready = threading.Barrier(streams + 1)
    phones = [_Phone(port, events, timeout, result, lock, ready) for _ in range(streams)]
    start = time.monotonic()
    try:
        for p in phones:
            p.start()
        try:
            ready.wait(timeout)  # every phone has its first state
        except threading.BrokenBarrierError:
            result.errors.append(f"only {result.connected} of {streams} streams connected within {timeout} s")
        result.page_load_ms = _page_load_ms(port, timeout)
        for i in range(events):
            hub.set_status(TOPIC, f"{i} {time.time()!r}")
            time.sleep(interval)
        deadline = time.monotonic() + timeout
        for p in phones:
            p.join(max(0.0, deadline - time.monotonic()))
    finally:
        result.elapsed_s = time.monotonic() - start
        hub.set_status(TOPIC, None)
        server.stop()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.loadcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between published changes")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args(argv)
    result = run_load(args.streams, args.events, args.interval, args.timeout)
    print(result.summary())  # a command-line tool's output, not library logging
    print(f"waitress threads: {threads_for(args.streams)} ({SPARE_THREADS} spare for page loads)")
    return 0 if result.delivered == result.expected else 1


if __name__ == "__main__":
    raise SystemExit(main())
