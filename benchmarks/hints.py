"""Hints benchmark: how long 'Where can it go?' takes at a mid-game position.

    tablehub bench hints [--seed N] [--players N]

For Neues Land and Südsee: a seeded random game replayed to half way, then the engine's
``hints(tile)`` for every tile still in the box (every cell x rotation put to ``validate``),
and the page's path (``Hub.hints``: the engine's hints, the SVG layer, and the same question
again from the cache). For Karibik, Tahiti and Sunda to Sahul: the first positions of a seeded
game where a ship sails, a boat is placed, or a piece is laid half way through. One core;
the figures are printed, nothing is asserted. See docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any, Callable

from tablehub.games import new_game
from tablehub.games.base import Game, Setup
from tablehub.games.tiles.playout import PlayoutStats, random_game
from tablehub.store import Store


def _timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    best = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1000, out


def _line(name: str, ms: list[float], places: list[int], extra: str = "") -> None:
    print(f"  {name:<10} {len(ms):3d} pieces  hints median {statistics.median(ms):6.2f} ms  max {max(ms):6.2f} ms  "
          f"places median {statistics.median(places):5.1f}{extra}")


def tile_game(name: str, seed: int, players: int) -> None:
    stats = PlayoutStats()
    random_game(name, players, seed=seed, stats=stats, finish=False)
    names = tuple(f"P{i + 1}" for i in range(players))
    g = new_game(Setup(name, names))
    half = stats.actions[: len(stats.actions) // 2]
    for a in half:
        g.apply(a)
    tiles = sorted(t for t, n in g.box.items() if n > 0)  # type: ignore[attr-defined]
    ms, places = [], []
    for t in tiles:
        took, out = _timed(lambda: g.hints(t))
        ms.append(took)
        places.append(len(out["places"]))
    print(f"{name}: {len(g.board.cells)} tiles down, {len(g.board.open)} open cells "  # type: ignore[attr-defined]
          f"({len(half)} of {len(stats.actions)} actions)")
    _line("engine", ms, places)
    _hub(name, names, [a.to_dict() for a in half], max(tiles, key=lambda t: len(g.hints(t)["places"])))


def _hub(game: str, names: tuple[str, ...], actions: list[dict[str, Any]], piece: str | None) -> None:
    from web import Hub

    hub = Hub(Store(), pin="1234")
    try:
        hub.start(Setup(game, names))
        for a in actions:
            hub.submit(a, source="phone")
        first, out = _timed(lambda: hub.hints(piece))
        again, cached = _timed(lambda: hub.hints(piece), repeat=5)
        assert cached["cached"]
        print(f"  hub        first {first:6.2f} ms (hints and SVG layer {out['ms']:.2f} ms, "
              f"{len(out['svg']) / 1024:.0f} KiB)  cached {again:6.3f} ms   ({out['count']} places for {piece})")
    finally:
        hub.shutdown()


def board_game(name: str, game: Game, piece: str | None = None) -> None:
    took, out = _timed(lambda: game.hints(piece), repeat=3)
    print(f"{name}: hints {took:6.2f} ms, {len(out['places'])} places{f' for {piece}' if piece else ''}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tablehub bench hints", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; seed {args.seed}")
    for name in ("neuesland", "suedsee"):
        tile_game(name, args.seed, args.players)

    from tablehub.games.karibik.engine import MOVE, Karibik
    from tablehub.games.karibik.playout import random_game as karibik
    from tablehub.games.sunda.engine import Sunda
    from tablehub.games.sunda.playout import random_game as sunda
    from tablehub.games.tahiti.actions import PlaceBoat
    from tablehub.games.tahiti.engine import Tahiti
    from tablehub.games.tahiti.playout import random_game as tahiti

    names = tuple(f"P{i + 1}" for i in range(args.players))
    for fresh, done, want, label in (
            (lambda: Karibik(Setup("karibik", names)), karibik(args.players, args.seed),
             lambda g: g.phase == MOVE and g.allowance - g.steps >= 4, "karibik"),
            (lambda: Tahiti(Setup("tahiti", names)), tahiti(args.players, args.seed),
             lambda g: any(isinstance(a, PlaceBoat) for a in g.legal_actions()), "tahiti")):
        g = fresh()
        for a in done.history:
            if want(g):
                break
            g.apply(a)
        board_game(label, g)
    done = sunda(2, seed=args.seed, finish=False)
    g = Sunda(Setup("sunda", ("P1", "P2")))
    for a in done.history[: len(done.history) // 2]:
        g.apply(a)
    piece = next((p for p in sorted(g.pool) if g.hints(p)["places"]), None)
    board_game(f"sunda ({len(g.board.placed)} pieces down)", g, piece)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
