"""The provisional Karibik board: an invented map with the real counts (16 port towns, 12
hideouts in 4 colours, 6 skull start spaces, 5 chest piles in the top right corner).

The real board's graph is not public, so this one is made, deterministically, from a hex
lattice whose vertices are jittered (the spaces are irregular polygons that still tile the sea
exactly) with islands and a mainland cut out of it. Regenerate ``board.json`` with::

    python -m tablehub.games.karibik.provisional > tablehub/games/karibik/board.json

An owner's own board replaces it through the engine option ``board`` (docs/karibik.md).
"""
from __future__ import annotations

import json
import math
import random
from typing import Any

WIDTH, HEIGHT = 600.0, 420.0
RADIUS = 28.0
JITTER = 6.0
COLOURS = ("red", "blue", "green", "yellow")
TOWN_NAMES = ("Havana", "Santiago", "Port Royal", "Tortuga", "Santo Domingo", "San Juan", "Nassau", "Veracruz",
              "Campeche", "Portobelo", "Cartagena", "Maracaibo", "Curaçao", "Trinidad", "Martinique", "Barbados")
CHEST_VALUES = (4000, 4000, 4000, 5000, 5000, 5000, 6000, 6000, 6000, 6000, 7000, 7000, 7000, 8000, 8000, 8000)
PILE_BOX = (470.0, 0.0, 600.0, 95.0)  # x0, y0, x1, y1: the reserve, top right

# land shapes: (centre x, centre y, radius x, radius y, angle in degrees)
ISLANDS = (
    (215.0, 95.0, 120.0, 26.0, 12.0),   # the long island in the north
    (400.0, 155.0, 58.0, 24.0, -8.0),   # the second large island
    (235.0, 215.0, 30.0, 15.0, 0.0),    # a small island in the middle
    (535.0, 185.0, 26.0, 15.0, 0.0),    # a small island in the east
    (20.0, 230.0, 45.0, 80.0, 0.0),     # the peninsula in the west
    (250.0, 430.0, 260.0, 48.0, 0.0),   # the mainland in the south
    (590.0, 330.0, 22.0, 30.0, 0.0),    # the eastern chain
)


def _in_shape(x: float, y: float) -> bool:
    for cx, cy, rx, ry, angle in ISLANDS:
        a = math.radians(angle)
        dx, dy = x - cx, y - cy
        u = dx * math.cos(a) + dy * math.sin(a)
        v = -dx * math.sin(a) + dy * math.cos(a)
        if (u / rx) ** 2 + (v / ry) ** 2 <= 1.0:
            return True
    x0, y0, x1, y1 = PILE_BOX
    return x0 <= x <= x1 and y0 <= y <= y1


def _lattice() -> tuple[dict[tuple[int, int], tuple[float, float]], list[tuple[int, int]]]:
    cells = {}
    dx, dy = 1.5 * RADIUS, math.sqrt(3) * RADIUS
    col = 0
    while RADIUS + col * dx <= WIDTH - RADIUS * 0.2:
        row = 0
        while True:
            y = dy / 2 + row * dy + (dy / 2 if col % 2 else 0)
            if y > HEIGHT - dy * 0.3:
                break
            cells[(col, row)] = (RADIUS * 0.6 + col * dx, y)
            row += 1
        col += 1
    return cells, sorted(cells)


def _neighbours(c: tuple[int, int]) -> list[tuple[int, int]]:
    col, row = c
    if col % 2 == 0:
        d = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
    else:
        d = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))
    return [(col + a, row + b) for a, b in d]


def _spread(rng: random.Random, candidates: list[Any], n: int, pos, avoid: list[tuple[float, float]]) -> list[Any]:
    """``n`` candidates far from each other and from ``avoid`` (farthest-point sampling)."""
    chosen: list[Any] = []
    points = list(avoid)
    pool = list(candidates)
    rng.shuffle(pool)
    for _ in range(n):
        def score(c: Any) -> float:
            x, y = pos(c)
            return min((math.hypot(x - px, y - py) for px, py in points), default=1e9) + rng.random()
        best = max(pool, key=score)
        pool.remove(best)
        chosen.append(best)
        points.append(pos(best))
    return chosen


def make_board(seed: int = 2004) -> dict[str, Any]:
    rng = random.Random(seed)
    centres, order = _lattice()
    vertices: dict[tuple[int, int], tuple[float, float]] = {}

    def vertex(x: float, y: float) -> tuple[float, float]:
        key = (round(x * 4), round(y * 4))
        if key not in vertices:
            jx = 0.0 if x <= 0.5 or x >= WIDTH - 0.5 else rng.uniform(-JITTER, JITTER)
            jy = 0.0 if y <= 0.5 or y >= HEIGHT - 0.5 else rng.uniform(-JITTER, JITTER)
            vertices[key] = (round(min(max(x + jx, 0.0), WIDTH), 1), round(min(max(y + jy, 0.0), HEIGHT), 1))
        return vertices[key]

    polys = {}
    for c in order:
        cx, cy = centres[c]
        pts = []
        for k in range(6):
            a = math.radians(60 * k)
            pts.append(vertex(min(max(cx + RADIUS * math.cos(a), 0.0), WIDTH),
                              min(max(cy + RADIUS * math.sin(a), 0.0), HEIGHT)))
        polys[c] = pts
    land = {c for c in order if _in_shape(*centres[c])}
    sea = [c for c in order if c not in land]
    # keep the largest connected sea
    comps, seen = [], set()
    for c in sea:
        if c in seen:
            continue
        comp, stack = [], [c]
        seen.add(c)
        while stack:
            x = stack.pop()
            comp.append(x)
            for n in _neighbours(x):
                if n in centres and n not in land and n not in seen:
                    seen.add(n)
                    stack.append(n)
        comps.append(comp)
    main = set(max(comps, key=len))
    land |= set(sea) - main
    sea = [c for c in sea if c in main]
    sea.sort(key=lambda c: (round(centres[c][1] / (math.sqrt(3) * RADIUS / 2)), centres[c][0]))
    ids = {c: i + 1 for i, c in enumerate(sea)}

    def centroid(c: tuple[int, int]) -> tuple[float, float]:
        pts = polys[c]
        return round(sum(p[0] for p in pts) / 6, 1), round(sum(p[1] for p in pts) / 6, 1)

    def in_box(c: tuple[int, int]) -> bool:
        x0, y0, x1, y1 = PILE_BOX
        x, y = centres[c]
        return x0 <= x <= x1 and y0 <= y <= y1

    coast = [c for c in sea if any(n in land and not in_box(n) for n in _neighbours(c) if n in centres)]
    ports = _spread(rng, coast, len(TOWN_NAMES), centroid, [])
    values = list(CHEST_VALUES)
    rng.shuffle(values)
    towns = []
    used_land: set[tuple[int, int]] = set()
    for name, port, value in zip(TOWN_NAMES, ports, values):
        shore = [n for n in _neighbours(port) if n in land and n in centres and not in_box(n)]
        free = [n for n in shore if n not in used_land] or shore
        spot = free[0]
        used_land.add(spot)
        px, py = centroid(port)
        lx, ly = centroid(spot)
        towns.append({"name": name, "chest": value, "port": ids[port],
                      "at": [round(px + (lx - px) * 0.7, 1), round(py + (ly - py) * 0.7, 1)]})
    rest = [c for c in sea if c not in ports]
    hideouts = _spread(rng, rest, 12, centroid, [centroid(p) for p in ports])
    colours = [COLOURS[i % 4] for i in range(12)]
    rest = [c for c in rest if c not in hideouts]
    middle = [c for c in rest if 120 < centres[c][0] < 520 and 60 < centres[c][1] < 360]
    skulls = _spread(rng, middle, 6, centroid, [centroid(p) for p in ports + hideouts])
    pairs = sorted({(min(ids[a], ids[n]), max(ids[a], ids[n])) for a in sea for n in _neighbours(a) if n in ids})
    x0, y0, x1, y1 = PILE_BOX
    piles = [[round(x0 + 14 + k * (x1 - x0 - 28) / 4, 1), round((y0 + y1) / 2, 1)] for k in range(5)]
    return {
        "name": "provisional (invented map, real counts)",
        "provisional": True,
        "size_mm": [WIDTH, HEIGHT],
        "colours": list(COLOURS),
        "spaces": [{"id": ids[c], "center": list(centroid(c)), "polygon": [list(p) for p in polys[c]]}
                   for c in sea],
        "adjacency": [list(p) for p in pairs],
        "towns": towns,
        "hideouts": [{"space": ids[h], "colour": col} for h, col in zip(hideouts, colours)],
        "skulls": [ids[s] for s in skulls],
        "piles": piles,
        "land": [[list(p) for p in polys[c]] for c in order if c in land],
    }


def dumps(board: dict[str, Any]) -> str:
    """The board as JSON, one space / pair / town per line (diffs stay readable)."""
    lines = ["{"]
    keys = list(board)
    for i, key in enumerate(keys):
        value = board[key]
        end = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], (dict, list)) and key != "size_mm":
            lines.append(f'  "{key}": [')
            for j, item in enumerate(value):
                lines.append("    " + json.dumps(item, ensure_ascii=False) + ("," if j < len(value) - 1 else ""))
            lines.append("  ]" + end)
        else:
            lines.append(f'  "{key}": {json.dumps(value, ensure_ascii=False)}{end}')
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(dumps(make_board()), end="")
