"""Load check: many phones on the event stream of a real waitress server, all receiving updates,
while strangers hold camera streams and idle connections.

Starts the app on 127.0.0.1 (a free port) with waitress and the settings ``tablehub run``
uses, opens ``streams`` Server-Sent Events connections, lets ``cameras`` strangers ask for
``/camera.mjpg`` and ``idle`` strangers open connections that send nothing, publishes
``events`` changes (every ``interval`` seconds) and measures, for every phone, how long
each change took to arrive, and how long the page took to load meanwhile. Everything is
bounded: every socket read has a timeout and the whole run has a deadline.

    python -m web.loadcheck --streams 100 --events 20 --interval 0.5 --cameras 45 --idle 200

prints figures such as ``100 streams x 20 events: 2000/2000 delivered, latency median 2.1 ms,
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

from . import CAMERA_STREAMS, SPARE_THREADS, create_app, threads_for
from .hub import Hub
from .server import BackgroundServer

TOPIC = "loadcheck"


@dataclass
class LoadResult:
    streams: int
    events: int
    connected: int = 0
    delivered: int = 0
    current: int = 0          # phones whose last state was the newest change (what a phone shows)
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    page_load_ms: float | None = None  # GET /api/state while every stream is open
    page_loads_ms: list[float] = field(default_factory=list)  # GET / during the run
    page_failures: int = 0
    cameras: int = 0
    cameras_served: int = 0   # camera streams that got a 200 (the rest: 503, busy)
    cameras_refused: int = 0
    idle: int = 0
    idle_open: int = 0        # idle connections the server accepted

    @property
    def expected(self) -> int:
        return self.streams * self.events

    def summary(self) -> str:
        lat = sorted(self.latencies_ms) or [float("nan")]
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        return (f"{self.streams} streams x {self.events} events: {self.connected}/{self.streams} connected, "
                f"{self.delivered}/{self.expected} delivered ({self.current}/{self.streams} on the newest), latency median {statistics.median(lat):.1f} ms, "
                f"p95 {p95:.1f} ms, max {lat[-1]:.1f} ms, "
                f"state page load meanwhile {self.page_load_ms if self.page_load_ms is None else round(self.page_load_ms, 1)} ms, "
                f"run {self.elapsed_s:.1f} s"
                + (f", {len(self.errors)} errors (first: {self.errors[0]})" if self.errors else ""))

    def strangers(self) -> str:
        loads = sorted(self.page_loads_ms) or [float("nan")]
        return (f"strangers: {self.cameras} camera streams asked ({self.cameras_served} served, "
                f"{self.cameras_refused} told busy), {self.idle_open}/{self.idle} idle connections held; "
                f"page GET / during the run: {len(self.page_loads_ms)} answered, {self.page_failures} failed, "
                f"median {statistics.median(loads):.1f} ms, max {loads[-1]:.1f} ms")

    @property
    def every_phone_got_every_update(self) -> bool:
        return self.connected == self.streams and self.delivered == self.expected

    @property
    def every_phone_is_current(self) -> bool:
        """Every phone ended on the newest change. A state event is a whole snapshot: a stream that
        falls behind is sent only the newest one (web.events), so on a busy machine a phone may skip
        an intermediate change, never the last."""
        return self.connected == self.streams and self.current == self.streams


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
                    if self.events - 1 in self.seen:  # the newest change: nothing later will come
                        with self.lock:
                            self.result.current += 1
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


def _camera(port: int, timeout: float, result: LoadResult, lock: threading.Lock, socks: list) -> None:
    """A stranger asking for the camera stream; a served one stays open (and is read slowly)."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        sock.sendall(b"GET /camera.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status = sock.recv(64)
    except OSError as exc:
        with lock:
            result.errors.append(f"camera: {type(exc).__name__}: {exc}")
        return
    with lock:
        if b" 200 " in status:
            result.cameras_served += 1
        else:
            result.cameras_refused += 1
        socks.append(sock)


def _page_loads(port: int, timeout: float, stop: threading.Event, result: LoadResult, lock: threading.Lock) -> None:
    """Load the page every 0.2 s while the run lasts."""
    import http.client

    while not stop.wait(0.2):
        t0 = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            conn.request("GET", "/")
            ok = conn.getresponse().status == 200
            conn.close()
        except OSError:
            ok = False
        with lock:
            if ok:
                result.page_loads_ms.append((time.perf_counter() - t0) * 1000)
            else:
                result.page_failures += 1


def run_load(streams: int = 30, events: int = 10, interval: float = 0.05, timeout: float = 10.0,
             hub: Hub | None = None, cameras: int = 0, idle: int = 0) -> LoadResult:
    """Run the check against a fresh waitress server; returns the measured figures.

    The server is stopped at the end, which also closes ``hub``'s event bus.
    """
    if not (1 <= streams <= 500 and 1 <= events <= 1000 and 0 <= cameras <= 200 and 0 <= idle <= 350):
        raise ValueError("bounded run: 1-500 streams, 1-1000 events, 0-200 cameras, 0-350 idle connections")
    frame = b"\xff\xd8" + bytes(20_000) + b"\xff\xd9"  # a 20 kB JPEG-sized frame
    hub = hub or Hub(Store(), pin="00000000", max_streams=streams,
                     camera_preview=(lambda overlay: frame) if cameras else None)
    hub.bus.max_streams = max(hub.bus.max_streams, streams)
    app = create_app(hub, heartbeat=1.0, stream_lifetime=timeout + events * interval + 5)
    server = BackgroundServer(hub, threads=threads_for(streams), app=app)
    port = server.port
    result = LoadResult(streams, events, cameras=cameras, idle=idle)
    strangers: list[socket.socket] = []
    lock = threading.Lock()
    ready = threading.Barrier(streams + 1)
    phones = [_Phone(port, events, timeout, result, lock, ready) for _ in range(streams)]
    start = time.monotonic()
    stop = threading.Event()
    loader = threading.Thread(target=_page_loads, args=(port, timeout, stop, result, lock), daemon=True)
    try:
        for _ in range(idle):  # strangers that connect and say nothing
            try:
                strangers.append(socket.create_connection(("127.0.0.1", port), timeout=timeout))
                result.idle_open += 1
            except OSError as exc:
                result.errors.append(f"idle: {type(exc).__name__}: {exc}")
                break
        for _ in range(cameras):
            _camera(port, timeout, result, lock, strangers)
        for p in phones:
            p.start()
        try:
            ready.wait(timeout)  # every phone has its first state
        except threading.BrokenBarrierError:
            result.errors.append(f"only {result.connected} of {streams} streams connected within {timeout} s")
        result.page_load_ms = _page_load_ms(port, timeout)
        if cameras or idle:  # the page's answers are what strangers might spoil
            loader.start()
        for i in range(events):
            hub.set_status(TOPIC, f"{i} {time.time()!r}")
            time.sleep(interval)
        deadline = time.monotonic() + timeout
        for p in phones:
            p.join(max(0.0, deadline - time.monotonic()))
    finally:
        stop.set()
        result.elapsed_s = time.monotonic() - start
        for s in strangers:
            s.close()
        hub.set_status(TOPIC, None)
        server.stop()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.loadcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between published changes")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--cameras", type=int, default=0, help="strangers asking for /camera.mjpg")
    parser.add_argument("--idle", type=int, default=0, help="strangers holding idle connections")
    args = parser.parse_args(argv)
    try:
        result = run_load(args.streams, args.events, args.interval, args.timeout, cameras=args.cameras,
                          idle=args.idle)
    except ValueError as exc:
        parser.error(str(exc))
    print(result.summary())  # a command-line tool's output, not library logging
    if args.cameras or args.idle:
        print(result.strangers())
    print("every phone got every update: " + ("yes" if result.every_phone_got_every_update else
                                               "no (intermediate snapshots coalesced under load)")
          + "; every phone on the newest: " + ("yes" if result.every_phone_is_current else "NO"))
    print(f"waitress threads: {threads_for(args.streams)} ({SPARE_THREADS} spare for page loads, "
          f"{CAMERA_STREAMS} for camera streams)")
    return 0 if result.every_phone_is_current and not result.page_failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
