"""Board tracing benchmark: spaces and adjacency recovered from photos of boards whose truth is known.

    tablehub bench trace [--boards provisional,grid] [--photos N]

Each packaged Karibik board is printed (vision.boards.render_board: outlines, land, hideout
flags, space numbers, town names) and photographed N times per condition (perspective, light
gradient, noise, blur, JPEG); vision.boards.trace_board proposes the spaces and adjacency
before any correction. Prints, per board and condition, the share of spaces recovered one to
one, of true adjacent pairs found, of proposed pairs that are true, and ms per photo (CPU).
Target: 98 % spaces and adjacency. See docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import time

from tablehub.games.karibik.board import load_board
from vision.boards import photograph, render_board, score_trace, trace_board

CONDITIONS = {
    "clean": dict(tilt=0.0, noise=0.0, blur=0.0, jpeg=0),
    "default": dict(tilt=0.08, noise=4.0, blur=0.8, jpeg=85),
    "hard": dict(tilt=0.15, noise=10.0, blur=1.3, jpeg=60),
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench trace", description=__doc__.splitlines()[0])
    p.add_argument("--boards", default="provisional,grid", help="packaged boards, comma-separated")
    p.add_argument("--photos", type=int, default=5, help="photos per board and condition (default 5)")
    args = p.parse_args(argv)
    print("board trace benchmark: spaces / adjacent pairs recovered before any correction, one core")
    print(f"{'board':<12} {'condition':<9} {'photos':>6} {'spaces':>8} {'pairs':>8} {'precision':>9} {'ms/photo':>9}")
    for name in args.boards.split(","):
        board = load_board(name.strip())
        printed = board.printed()
        straight = render_board(printed.pop("size_mm"), **printed)
        truth = {(min(a, b), max(a, b)) for a, ns in board.neighbours.items() for b in ns}
        for cond, params in CONDITIONS.items():
            totals = {"spaces": 0.0, "pairs": 0.0, "precision": 0.0}
            cpu = 0.0
            for seed in range(args.photos):
                photo = photograph(straight, seed=seed, **params)
                c0 = time.process_time()
                traced = trace_board(photo, board.size)
                cpu += time.process_time() - c0
                for k, v in score_trace(dict(board.centres), truth, traced).items():
                    totals[k] += v
            n = args.photos
            print(f"{name:<12} {cond:<9} {n:>6} {100 * totals['spaces'] / n:>7.2f}% {100 * totals['pairs'] / n:>7.2f}% "
                  f"{100 * totals['precision'] / n:>8.2f}% {1000 * cpu / n:>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
