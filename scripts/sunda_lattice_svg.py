#!/usr/bin/env python3
"""Draw Sunda to Sahul's coordinates: docs/sunda-lattice.svg.

Lattice points with their (q, r), the six directions, and one rhombus for each
``turn`` 0-5 with its corners c0-c3 (c0 is the anchor, an acute corner).

    python scripts/sunda_lattice_svg.py [--out docs/sunda-lattice.svg]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablehub.games.sunda.lattice import DIRECTIONS, corners, xy  # noqa: E402

S = 70  # pixels per lattice side
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


def px(p):
    x, y = xy(p)
    return 40 + (x + 0.5) * S, 80 + (y + 0.3) * S


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "sunda-lattice.svg"))
    args = ap.parse_args(argv)
    pts = [(q, r) for r in range(0, 6) for q in range(-3, 13) if -0.1 <= xy((q, r))[0] <= 12.1]
    w, h = 40 + 16.2 * S, 80 + 5.2 * S
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="26" font-size="16">Sunda to Sahul coordinates: lattice point (q, r) is drawn at '
           'x = q + r/2, y = r·√3/2 (y down, unit side).</text>',
           '<text x="20" y="50" font-size="16">A piece at (q, r, turn): c0 = (q, r), c1 = c0 + D(turn), '
           'c3 = c0 + D(turn+1), c2 = c1 + D(turn+1); side k runs from ck to ck+1; c0, c2 acute.</text>']
    # lattice lines
    for p in pts:
        for d in DIRECTIONS[:3]:
            n = (p[0] + d[0], p[1] + d[1])
            if n in pts:
                (x1, y1), (x2, y2) = px(p), px(n)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#ccc"/>')
    # one rhombus per turn
    anchors = [(0, 2), (3, 1), (6, 1), (10, 2), (6, 4), (2, 5)]
    for turn, a in enumerate(anchors):
        cs = corners(a[0], a[1], turn)
        poly = " ".join(f"{px(c)[0]:.1f},{px(c)[1]:.1f}" for c in cs)
        col = COLOURS[turn]
        out.append(f'<polygon points="{poly}" fill="{col}" fill-opacity="0.25" stroke="{col}" stroke-width="3"/>')
        cx = sum(px(c)[0] for c in cs) / 4
        cy = sum(px(c)[1] for c in cs) / 4
        out.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="15" text-anchor="middle" fill="{col}" '
                   f'font-weight="bold">turn {turn}</text>')
        for k, c in enumerate(cs):
            x, y = px(c)
            dx, dy = (cx - x) * 0.28, (cy - y) * 0.28
            out.append(f'<text x="{x + dx:.1f}" y="{y + dy + 4:.1f}" font-size="12" text-anchor="middle" '
                       f'fill="{col}">c{k}</text>')
    for p in pts:
        x, y = px(p)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#333"/>')
        out.append(f'<text x="{x + 4:.1f}" y="{y - 5:.1f}" font-size="10" fill="#555">{p[0]},{p[1]}</text>')
    # the six directions
    ox, oy = 40 + 14.3 * S, 80 + 2.8 * S
    out.append(f'<text x="{ox:.0f}" y="{oy - 1.35 * S:.0f}" font-size="13" text-anchor="middle">directions D0-D5</text>')
    for i, d in enumerate(DIRECTIONS):
        x, y = xy(d)
        ex, ey = ox + x * S * 0.9, oy + y * S * 0.9
        out.append(f'<line x1="{ox:.0f}" y1="{oy:.0f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="#333" stroke-width="2"/>')
        out.append(f'<text x="{ox + x * S * 1.15:.1f}" y="{oy + y * S * 1.15 + 4:.1f}" font-size="11" '
                   f'text-anchor="middle">D{i} {d[0]},{d[1]}</text>')
    out.append("</svg>")
    Path(args.out).write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
