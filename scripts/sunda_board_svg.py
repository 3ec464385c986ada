#!/usr/bin/env python3
"""Draw an example Sunda to Sahul board for the docs: docs/sunda-board.svg.

A hand-drawn archipelago (tablehub/games/sunda/drawing.py's convention: ``#`` land point, ``.``
water point) laid piece by piece through the engine: a ring island round a lake with a
small open islet in it, tribes, a water right and a resource marker, and one open island;
then drawn by the page's own board module (web/board_sunda.py).

    python scripts/sunda_board_svg.py [--out docs/sunda-board.svg]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablehub.games.base import Setup  # noqa: E402
from tablehub.games.sunda.engine import Sunda  # noqa: E402
from tablehub.games.sunda.drawing import cells, lay, pieces, piece_id  # noqa: E402
from web.board_sunda import render  # noqa: E402

ROWS = ["............",
        ".#######....",
        ".#.....#....",
        ".#.##..#.##.",
        ".#.....#.##.",
        ".#.....#.##.",
        ".#######.##.",
        "............"]
SKIP = {"c4_3", "c10_6"}
CLAIMS = {(1, 1): "pawn", (2, 1): "join", (3, 1): "pawn", (4, 1): "join", (7, 1): "pawn", (3, 3): "pawn",
          (9, 4): "pawn", (9, 5): "pawn", (5, 6): "join", (7, 6): "pawn", (5, 5): "water"}
JOIN = {(2, 1): (1, 1), (4, 1): (3, 1), (5, 6): (3, 1)}
PLAYERS = {"Ana": {"css": "#e63946"}, "Ben": {"css": "#f1c40f"}}


def build() -> Sunda:
    """The docs' layout: an island complete, one open, a lake's islet, tribes, a water right, a marker."""
    opts = {"pieces": pieces(ROWS), "tribes": True, "water_rights": True, "resources": True}
    g = Sunda(Setup("sunda", tuple(PLAYERS), options=opts))
    for q, r in cells(ROWS):
        if piece_id(q, r) in SKIP:
            continue
        g.apply(g.parse_action(lay(piece_id(q, r))[0]))
        for pt in g.formed_land:
            if CLAIMS.get(pt) == "pawn":
                g.apply(g.parse_action({"type": "place_pawn", "q": pt[0], "r": pt[1]}))
            elif CLAIMS.get(pt) == "join":
                q, r = JOIN[pt]
                g.apply(g.parse_action({"type": "place_pawn", "q": q, "r": r}))
                if pt == (2, 1):
                    g.apply(g.parse_action({"type": "place_marker", "marker": "orange"}))
        for pt in g.formed_fresh:
            if CLAIMS.get(pt) == "water" and g.claim is None:
                g.apply(g.parse_action({"type": "water_right", "q": pt[0], "r": pt[1]}))
    return g


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "sunda-board.svg"))
    args = ap.parse_args(argv)
    g = build()
    Path(args.out).write_text(render(g.view(), PLAYERS) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(g.board.placed)} pieces, tribes {g.tribes}, water rights {g.water}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
