#!/usr/bin/env python3
"""Generate Sunda to Sahul's provisional set of 136 pieces (tablehub/games/sunda/pieces.json).

The real pieces' art is not public. So that the provisional set plays like the real
game (islands whose coasts close, lakes, open sea), the pieces are cut from one drawn
archipelago: a land/water field over a parallelogram of 8 x 17 lattice cells (272 unit
triangles = 136 rhombi), with round islands, ring islands around lakes, islets inside
lakes and straits. Each rhombus is read off the field: three slots per side (at 1/6,
1/2 and 5/6 of the side), and whether its land runs join across its middle. Every
shared side of the cut matches its neighbour, so the set can be laid back into the
archipelago and into countless others.

    python scripts/sunda_pieces.py [--seed 3] [--out tablehub/games/sunda/pieces.json]
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablehub.games.sunda.lattice import corners, xy  # noqa: E402
from tablehub.games.sunda.pieces import FORMAT, build_piece_set, default_outline, runs  # noqa: E402

COLS, ROWS = 8, 17
MARKERS = [("red", 1), ("orange", 2), ("yellow", 3), ("green", 4), ("blue", 5), ("purple", 6)]


def archipelago(rng: random.Random):
    """A land/water field: positive is land."""
    w, h = COLS + ROWS / 2, ROWS * math.sqrt(3) / 2
    feats = []
    for _ in range(16):  # round islands
        feats.append(("blob", rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.7, 1.9), 0))
    for _ in range(5):   # ring islands around a lake, some with an islet
        feats.append(("ring", rng.uniform(2, w - 2), rng.uniform(2, h - 2), rng.uniform(1.5, 2.2),
                      rng.uniform(0.5, 0.8)))
    waves = [(rng.uniform(0.8, 2.2), rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)) for _ in range(4)]

    def field(x: float, y: float) -> float:
        best = -9.0
        for kind, cx, cy, rad, width in feats:
            d = math.hypot(x - cx, y - cy)
            if kind == "blob":
                v = rad - d
            else:
                v = max(width - abs(d - rad), 0.35 - d)  # the ring, and an islet in the middle
            best = max(best, v)
        wobble = sum(0.18 * math.sin(f * x * math.cos(a) + f * y * math.sin(a) + p) for f, a, p in waves)
        return best + wobble
    return field


def piece_from_field(field, q: int, r: int) -> tuple[str, str]:
    cs = [xy(p) for p in corners(q, r, 0)]
    ring = ""
    for k in range(4):
        (ax, ay), (bx, by) = cs[k], cs[(k + 1) % 4]
        for f in (1 / 6, 1 / 2, 5 / 6):
            ring += "L" if field(ax + (bx - ax) * f, ay + (by - ay) * f) > 0 else "W"
    cx = sum(x for x, _ in cs) / 4
    cy = sum(y for _, y in cs) / 4
    land_runs = sum(1 for s, _ in runs(ring) if ring[s] == "L")
    join = "land" if land_runs > 1 and field(cx, cy) > 0 else "water"
    return ring, join


def generate(seed: int) -> dict:
    rng = random.Random(seed)
    field = archipelago(rng)
    pieces = []
    cells = [(q, r) for r in range(ROWS) for q in range(COLS)]
    order = list(range(len(cells)))
    rng.shuffle(order)   # ids carry no hint of where a piece came from
    for n, i in enumerate(order):
        q, r = cells[i]
        ring, join = piece_from_field(field, q, r)
        piece = {"id": f"s{n + 1:03d}", "sides": " ".join(ring[3 * k:3 * k + 3] for k in range(4))}
        if join != "water":
            piece["join"] = join
        piece["outline"] = [[list(pt) for pt in poly] for poly in default_outline(ring, join)]
        pieces.append(piece)
    pieces.sort(key=lambda p: p["id"])
    return {
        "format": FORMAT, "game": "sunda", "set": f"provisional (generated, seed {seed})", "provisional": True,
        "notes": ["PROVISIONAL: the 136 real pieces' art is not public; these are cut by "
                  "scripts/sunda_pieces.py from one generated archipelago (islands, ring islands with lakes, "
                  "islets). Record your own pieces in this format (docs/sunda.md).",
                  "Resource marker numbers are not in the rule book: provisional 1 to 6."],
        "markers": [{"id": m, "number": v} for m, v in MARKERS],
        "pieces": pieces,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "tablehub/games/sunda/pieces.json"))
    args = ap.parse_args(argv)
    data = generate(args.seed)
    ps = build_piece_set(data, args.out)  # the loader's checks, before anything is written
    water = sum(1 for p in ps.pieces if p.land == 0)
    land = sum(1 for p in ps.pieces if p.land == 12)
    text = json.dumps(data, indent=None, separators=(",", ":"))
    text = text.replace('{"id"', '\n  {"id"')
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(f"{args.out}: {len(ps.pieces)} pieces ({land} all land, {water} all water, "
          f"{len(ps.pieces) - land - water} with a coast), {len(ps.codes)} kinds of side")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
