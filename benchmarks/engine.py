"""Engine benchmark: seeded random full games, legal placement enumeration for every drawn tile.

    tablehub bench engine [--game neuesland|suedsee|all] [--games N] [--seconds S]

Prints games/s, tile placements/s and legal placements listed/s per game on one
core. See docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import platform
import time

from tablehub.games.tiles.playout import PlayoutStats, random_game

TILE_GAMES = ("neuesland", "suedsee")
#: games with their own playout: name -> (module, function(players, seed, options), options per level)
PLAYOUTS = {"sunda": ("tablehub.games.sunda.playout", "random_game", "levels")}


def _installed(game: str) -> bool:
    try:
        return importlib.util.find_spec(f"tablehub.games.{game}.engine") is not None
    except ModuleNotFoundError:
        return False


def bench_game(game: str, games: int, seconds: float, players: int, warmup: int = 5) -> dict:
    for s in range(warmup):  # fills the per-catalog fit memo, as a long-running hub would have it
        random_game(game, players, 10_000 + s)
    st = PlayoutStats()
    t0, c0 = time.perf_counter(), time.process_time()
    played = 0
    while played < games or (time.perf_counter() - t0) < seconds:
        random_game(game, players, played, stats=st)
        played += 1
        st.actions.clear()
    wall = time.perf_counter() - t0
    # CPU seconds of this process: what one idle core gives, even on a busy machine
    dt = time.process_time() - c0
    return {"game": game, "games": played, "seconds": dt, "wall": wall, "games_per_s": played / dt,
            "placements_per_s": st.placements / dt, "enumerated_per_s": st.enumerated / dt,
            "placements": st.placements, "discards": st.discards}


def bench_playout(game: str, games: int, seconds: float, players: int) -> None:
    """A game with its own playout: whole random games per level (base, each level alone, all levels),
    with the mean and worst CPU milliseconds per game."""
    module, func, _ = PLAYOUTS[game]
    mod = importlib.import_module(module)
    play = getattr(mod, func)
    levels = [("base", {})] + [(lvl, {lvl: True}) for lvl in mod.LEVELS] + [("all levels", mod.all_levels())]
    for name, options in levels:
        play(players, 10_000, options)  # warm the fit memo, as a running hub has it
        times, placed = [], 0
        t0 = time.perf_counter()
        n = 0
        while n < max(1, games // len(levels)) or (time.perf_counter() - t0) < seconds / len(levels):
            c0 = time.process_time()
            g = play(players, n, options)
            times.append(time.process_time() - c0)
            placed += len(g.board.placed)
            n += 1
        mean = sum(times) / len(times)
        print(f"{game + ' ' + name:<24} {n:>6} {1 / mean:>9.1f} {placed / sum(times):>13,.0f} "
              f"{'':>15} {time.perf_counter() - t0:>7.1f}   mean {mean * 1000:.0f} ms, worst "
              f"{max(times) * 1000:.0f} ms per whole game")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench engine", description=__doc__.splitlines()[0])
    p.add_argument("--game", default="all", help="neuesland, suedsee or all (default)")
    p.add_argument("--games", type=int, default=200, help="at least this many games per engine (default 200)")
    p.add_argument("--seconds", type=float, default=0.0, help="and at least this long per engine")
    p.add_argument("--players", type=int, default=3)
    args = p.parse_args(argv)
    games = [g for g in (*TILE_GAMES, *PLAYOUTS) if _installed(g)] if args.game == "all" else [args.game]
    print(f"engine benchmark: Python {platform.python_version()} on {platform.machine()}, one core, "
          f"{args.players} players, seeded random legal moves")
    print("rates are per CPU second of this process (process_time); wall time is shown too")
    print(f"{'game':<10} {'games':>6} {'games/s':>9} {'placements/s':>13} {'legal listed/s':>15} {'wall s':>7}")
    for g in games:
        if g in PLAYOUTS:
            bench_playout(g, args.games, args.seconds, args.players)
            continue
        r = bench_game(g, args.games, args.seconds, args.players)
        print(f"{g:<10} {r['games']:>6} {r['games_per_s']:>9.1f} {r['placements_per_s']:>13,.0f} "
              f"{r['enumerated_per_s']:>15,.0f} {r['wall']:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
