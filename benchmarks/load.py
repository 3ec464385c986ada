"""``tablehub bench load``: 100 phones on the event stream while the state changes twice a
second, with 45 strangers asking for the camera stream and 200 idle connections from strangers,
against a real waitress server on loopback. Prints whether every phone got every update, how the
page answered meanwhile, and the update latency (median, p95, max). See docs/benchmarks.md.

    tablehub bench load                       # the defaults below
    tablehub bench load --streams 30 --events 6 --cameras 10 --idle 50
"""
from __future__ import annotations

from web.loadcheck import main as loadcheck

DEFAULTS = ["--streams", "100", "--events", "20", "--interval", "0.5", "--cameras", "45", "--idle", "200",
            "--timeout", "20"]


def main(argv: list[str] | None = None) -> int:
    return loadcheck(DEFAULTS + list(argv or []))


if __name__ == "__main__":
    raise SystemExit(main())
