"""Venue benchmark: many tables publishing to one Mosquitto, one board listening, on loopback.

    tablehub bench venue [--tables 50] [--rate 1] [--seconds 20]

Starts Debian's mosquitto on a free loopback port (no system service), then ``--tables``
simulated tables (seeded Neues Land playouts fed into real sessions, each with its own
publisher: paho client, queue and worker thread) play ``--rate`` actions a second each,
staggered, for ``--seconds``. Each action publishes an event and the table's state (plus
the result when a game ends). A board (:class:`tablehub.venue.board.VenueBoard` fed by its
own MQTT client) receives everything. Prints: messages per second through the broker to the
board, publish-to-board latency (the message's ``at`` when the hub made it, to its arrival
at the board, both on this machine's clock: median, 95th percentile, max), and how long a
move's ``session.submit`` took with the publisher listening (it only enqueues).
Everything runs in this one process on a shared machine, so the figures include the
publishers', the board's and the broker's CPU competing.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import threading
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench venue", description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=50, help="simulated tables (default 50)")
    p.add_argument("--rate", type=float, default=1.0, help="actions per second at each table (default 1)")
    p.add_argument("--seconds", type=float, default=20.0, help="how long the tables play (default 20, at most 300)")
    args = p.parse_args(argv)
    from tablehub.config import VenueConfig
    from tablehub.games.base import TablehubError
    from tablehub.venue.board import BoardListener, VenueBoard
    from tablehub.venue.broker import LocalBroker
    from tablehub.venue.sim import SimTable

    if not (1 <= args.tables <= 500 and 0 < args.rate <= 100 and 0 < args.seconds <= 300):
        raise TablehubError("--tables 1..500, --rate 0..100 and --seconds 0..300")
    with LocalBroker() as broker:
        latencies: list[float] = []
        counting = threading.Event()
        lock = threading.Lock()

        def arrived(topic: str, payload: bytes, received: float) -> None:
            if not counting.is_set() or not payload:
                return
            at = json.loads(payload).get("at")
            if at is not None:
                with lock:
                    latencies.append(received - at)

        board = VenueBoard("bench")
        listener = BoardListener(VenueConfig(broker=broker.host, port=broker.port, venue="bench", table="board"),
                                 board, on_message=arrived).start()
        if not listener.connected.wait(5):
            raise TablehubError("the board could not connect to the local mosquitto")
        tables = [SimTable(VenueConfig(broker=broker.host, port=broker.port, venue="bench", table=f"t{i + 1}"),
                           seed=1000 + i) for i in range(args.tables)]
        for t in tables:
            t.start()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(t.publisher.connected.is_set() for t in tables):
            time.sleep(0.05)
        time.sleep(0.5)  # the opening messages (online, first state) settle
        counting.set()
        published0 = sum(t.publisher.published for t in tables)
        submits: list[float] = []
        period = 1.0 / args.rate
        start = time.monotonic()
        schedule = sorted((start + k * period + i * period / args.tables, i)
                          for k in range(int(args.seconds * args.rate)) for i in range(args.tables))
        cpu0 = time.process_time()
        for when, i in schedule:
            delay = when - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            t0 = time.perf_counter()
            tables[i].step()
            submits.append(time.perf_counter() - t0)
        played = time.monotonic() - start
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(t.publisher.idle() for t in tables):
            time.sleep(0.01)
        published = sum(t.publisher.published for t in tables) - published0
        while time.monotonic() < deadline and len(latencies) < published:
            time.sleep(0.05)
        counting.clear()
        cpu = time.process_time() - cpu0
        for t in tables:
            t.close()
        listener.close()
    lat = sorted(latencies)
    ms = [x * 1000 for x in lat]
    print(f"venue bench: {args.tables} tables x {args.rate:g} action/s for {played:.1f} s on loopback "
          f"({platform.machine()}, Python {platform.python_version()}, mosquitto)")
    print(f"  actions played       {len(submits)}  ({len(submits) / played:.1f}/s)")
    print(f"  messages published   {published}  ({published / played:.1f}/s)")
    print(f"  messages at the board {len(lat)}  ({len(lat) / played:.1f}/s), lost {max(0, published - len(lat))}")
    if ms:
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"  publish-to-board latency  median {statistics.median(ms):.1f} ms, 95% {p95:.1f} ms, "
              f"max {ms[-1]:.1f} ms")
    sub = sorted(x * 1000 for x in submits)
    print(f"  session.submit with the publisher listening  median {statistics.median(sub):.2f} ms, "
          f"max {sub[-1]:.2f} ms")
    print(f"  CPU of this process (hubs + board) {cpu:.1f} s over {played:.1f} s")
    return 0 if published and len(lat) >= published else 1
