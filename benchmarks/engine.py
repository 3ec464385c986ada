"""Engine benchmark: seeded random full games, legal placement enumeration for every drawn tile.

    tablehub bench engine [--game neuesland|suedsee|karibik|sunda|all] [--games N] [--seconds S]

Prints games/s, tile placements/s and legal placements listed/s per tile game on one
core, and ms per whole game and actions/s for the games with a random playout of their
own (Karibik; Sunda to Sahul per rule level: the base game, each level alone, all levels).
See docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import platform
import time

from tablehub.games import PLAYOUTS
from tablehub.games.tiles.playout import PlayoutStats, random_game

TILE_GAMES = ("neuesland", "suedsee")
#: games with a seeded random playout of their own; a playout module that lists ``LEVELS``
#: (rule levels, each an option) is timed per level
BOARD_GAMES = PLAYOUTS


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


def levels(game: str) -> list[tuple[str, dict]]:
    """The option sets a game is timed with: its rule levels when it has them, else its defaults."""
    mod = importlib.import_module(BOARD_GAMES[game].partition(":")[0])
    names = getattr(mod, "LEVELS", ())
    if not names:
        return [("", {})]
    return [("base", {})] + [(n, {n: True}) for n in names] + [("all levels", {n: True for n in names})]


def bench_board_game(game: str, games: int, seconds: float, players: int, options: dict | None = None,
                     warmup: int = 3) -> dict:
    """Whole seeded random games of a board game: CPU ms per game (mean and worst), actions/s."""
    module, _, func = BOARD_GAMES[game].partition(":")
    play = getattr(importlib.import_module(module), func)
    for s in range(warmup):  # warms the engines' memos, as a running hub has them
        play(players, 10_000 + s, options)
    t0, c0 = time.perf_counter(), time.process_time()
    played = actions = 0
    worst = 0.0
    while played < games or (time.perf_counter() - t0) < seconds:
        g0 = time.process_time()
        actions += len(play(players, played, options).history)
        worst = max(worst, time.process_time() - g0)
        played += 1
    dt = time.process_time() - c0
    return {"game": game, "games": played, "seconds": dt, "wall": time.perf_counter() - t0,
            "ms_per_game": 1000 * dt / played, "worst_ms": 1000 * worst, "actions_per_s": actions / dt,
            "actions_per_game": actions / played}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench engine", description=__doc__.splitlines()[0])
    p.add_argument("--game", default="all", help="neuesland, suedsee, karibik, sunda or all (default)")
    p.add_argument("--games", type=int, default=200, help="at least this many games per engine (default 200)")
    p.add_argument("--seconds", type=float, default=0.0, help="and at least this long per engine")
    p.add_argument("--players", type=int, default=3)
    args = p.parse_args(argv)
    known = TILE_GAMES + tuple(BOARD_GAMES)
    if args.game != "all" and args.game not in known:
        p.error(f"--game must be one of {', '.join(known)} or all, got {args.game!r}")
    games = [g for g in known if _installed(g)] if args.game == "all" else [args.game]
    print(f"engine benchmark: Python {platform.python_version()} on {platform.machine()}, one core, "
          f"{args.players} players, seeded random legal moves")
    print("rates are per CPU second of this process (process_time); wall time is shown too")
    board_games = [g for g in games if g in BOARD_GAMES]
    games = [g for g in games if g not in BOARD_GAMES]
    if games:
        print(f"{'game':<10} {'games':>6} {'games/s':>9} {'placements/s':>13} {'legal listed/s':>15} {'wall s':>7}")
    for g in games:
        r = bench_game(g, args.games, args.seconds, args.players)
        print(f"{g:<10} {r['games']:>6} {r['games_per_s']:>9.1f} {r['placements_per_s']:>13,.0f} "
              f"{r['enumerated_per_s']:>15,.0f} {r['wall']:>7.1f}")
    if board_games:
        print(f"{'game':<18} {'games':>6} {'ms/game':>9} {'worst ms':>9} {'actions/game':>13} {'actions/s':>10} "
              f"{'wall s':>7}")
    for g in board_games:
        for level, options in levels(g):
            r = bench_board_game(g, args.games, args.seconds, args.players, options)
            name = f"{g} {level}".strip()
            print(f"{name:<18} {r['games']:>6} {r['ms_per_game']:>9.1f} {r['worst_ms']:>9.1f} "
                  f"{r['actions_per_game']:>13.0f} {r['actions_per_s']:>10,.0f} {r['wall']:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
