"""The board as an SVG picture, drawn from ``game.view()``.

Tile games (``{"kind": "tiles", ...}``): each tile is drawn from its 12 side slots
(terrain letters clockwise from the north-west end of the north side, already in
the rotated frame) as wedges meeting at the centre, with regions that touch no
side as a disc in the middle. Figures are discs in their owner's colour marked
with the owner's initial; the last tile laid is outlined; an illegal placement is
outlined in red with its reason. Empty cells next to the tiles are drawn faintly
and can be tapped to fill in x and y. Other views get a clean fallback picture.

>>> svg = render_board({"kind": "tiles", "terrains": {"G": "plain"}, "tiles": [
...     {"x": 0, "y": 0, "tile": "t1", "rotation": 0, "slots": "GGGGGGGGGGGG", "interior": []}],
...     "figures": [], "last": None, "flag": None}, {})
>>> svg.startswith("<svg") and 'data-x="0"' in svg
True
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping

from .board_karibik import karibik_svg

CELL = 100
#: terrain name -> fill colour; names not listed get a colour from a fixed list.
TERRAIN_FILLS: dict[str, str] = {
    "plain": "#a8d08d", "meadow": "#a8d08d", "field": "#c9dc8a", "grass": "#a8d08d",
    "mountain": "#b39672", "hill": "#b39672", "rock": "#9c8f82",
    "sea": "#5aa9e6", "water": "#5aa9e6", "lake": "#7cc2ee", "river": "#7cc2ee",
    "island": "#e8cf8e", "city": "#d9b877", "town": "#d9b877",
    "bridge": "#b5835a", "road": "#efe8da",
    "market": "#e07a5f", "cloister": "#e07a5f", "forest": "#4f8a4b",
}
#: terrain names that also get a texture, so they differ by more than hue
TERRAIN_PATTERNS = {"mountain": "hatch", "hill": "hatch", "rock": "hatch", "sea": "waves", "water": "waves",
                    "lake": "waves", "bridge": "planks"}
_SPARE_FILLS = ("#c7a0d9", "#f2b880", "#9fd8cb", "#f7d56a", "#c0c0c0", "#f4a6a6")

_DEFS = """<defs>
<pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<line x1="0" y1="0" x2="0" y2="8" stroke="#00000030" stroke-width="3"/></pattern>
<pattern id="waves" width="16" height="8" patternUnits="userSpaceOnUse">
<path d="M0 6 Q4 2 8 6 T16 6" fill="none" stroke="#ffffff66" stroke-width="1.6"/></pattern>
<pattern id="planks" width="6" height="6" patternUnits="userSpaceOnUse">
<line x1="0" y1="3" x2="6" y2="3" stroke="#00000035" stroke-width="1.2"/></pattern>
</defs>"""


def _slot_segment(i: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """End points of slot ``i`` on the unit square, clockwise from NW."""
    corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    side, k = divmod(i, 3)
    (ax, ay), (bx, by) = corners[side], corners[(side + 1) % 4]
    t0, t1 = k / 3, (k + 1) / 3
    return (ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)


def terrain_fill(letter: str, terrains: Mapping[str, str]) -> tuple[str, str | None, str]:
    """(fill colour, pattern id or None, terrain name) for a terrain letter."""
    name = str(terrains.get(letter, letter)).lower()
    fill = TERRAIN_FILLS.get(name)
    if fill is None:
        fill = _SPARE_FILLS[sum(map(ord, name)) % len(_SPARE_FILLS)]
    return fill, TERRAIN_PATTERNS.get(name), name


def _runs(slots: str) -> list[tuple[str, list[int]]]:
    """Consecutive slots of one terrain, wrapping round (so a side's wedges merge)."""
    n = len(slots)
    if n == 0:
        return []
    if len(set(slots)) == 1:
        return [(slots[0], list(range(n)))]
    start = next(i for i in range(n) if slots[i] != slots[i - 1])
    runs: list[tuple[str, list[int]]] = []
    for j in range(n):
        i = (start + j) % n
        if runs and runs[-1][0] == slots[i]:
            runs[-1][1].append(i)
        else:
            runs.append((slots[i], [i]))
    return runs


def _tile_svg(t: Mapping[str, Any], terrains: Mapping[str, str]) -> str:
    x0, y0 = int(t["x"]) * CELL, int(t["y"]) * CELL
    slots = str(t.get("slots", ""))
    parts = []
    names = []
    for letter, run in _runs(slots if len(slots) == 12 else ""):
        fill, pattern, name = terrain_fill(letter, terrains)
        names.append(name)
        if len(run) == 12:
            pts = [(0, 0), (1, 0), (1, 1), (0, 1)]
        else:
            pts = [(0.5, 0.5), _slot_segment(run[0])[0]] + [_slot_segment(i)[1] for i in run]
        d = " ".join(f"{x0 + px * CELL:.1f},{y0 + py * CELL:.1f}" for px, py in pts)
        parts.append(f'<polygon points="{d}" fill="{fill}"/>')
        if pattern:
            parts.append(f'<polygon points="{d}" fill="url(#{pattern})"/>')
    interior = list(t.get("interior") or [])
    for k, letter in enumerate(interior):
        fill, pattern, name = terrain_fill(str(letter), terrains)
        r = CELL * (0.2 - 0.05 * k)
        cx, cy = x0 + CELL / 2, y0 + CELL / 2
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r:.1f}" fill="{fill}" stroke="#00000040"/>')
        if pattern:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r:.1f}" fill="url(#{pattern})"/>')
    if len(slots) != 12:
        parts.append(f'<rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="#ddd"/>')
    label = f"{t.get('tile', '?')} at ({t['x']}, {t['y']}), turned {t.get('rotation', 0)}°"
    sides = _side_names(slots, terrains)
    if sides:
        label += ": " + sides
    parts.append(f'<rect class="tile-edge" x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="none" '
                 f'stroke="#3b3b3b" stroke-opacity="0.55" stroke-width="1.5"/>')
    return (f'<g class="tile" data-x="{t["x"]}" data-y="{t["y"]}" data-tile="{escape(str(t.get("tile", "")))}">'
            f"<title>{escape(label)}</title>{''.join(parts)}</g>")


def _side_names(slots: str, terrains: Mapping[str, str]) -> str:
    if len(slots) != 12:
        return ""
    out = []
    for side, word in enumerate(("north", "east", "south", "west")):
        letters = slots[3 * side: 3 * side + 3]
        names = [str(terrains.get(c, c)) for c in letters]
        out.append(f"{word} {names[1] if len(set(names)) == 1 else '|'.join(names)}")
    return ", ".join(out)


def _contrast(css: str) -> str:
    if css.startswith("#") and len(css) == 7:
        r, g, b = (int(css[i:i + 2], 16) for i in (1, 3, 5))
        return "#111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#fff"
    return "#fff"


def _figure_svg(f: Mapping[str, Any], players: Mapping[str, Mapping[str, str]]) -> str:
    u, v = (f.get("anchor") or [0.5, 0.5])[:2]
    cx, cy = (int(f["x"]) + float(u)) * CELL, (int(f["y"]) + float(v)) * CELL
    owner = f.get("owner")
    info = players.get(str(owner), {}) if owner is not None else {}
    css = info.get("css", "#777")
    colour = info.get("colour", "")
    name = str(owner if owner is not None else "?")
    initial = escape(name[:1].upper())
    where = f.get("terrain") or f.get("region") or ""
    title = f"{name}{f' ({colour})' if colour else ''} on {where}" if where else name
    return (f'<g class="figure"><title>{escape(title)}</title>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="15" fill="{css}" stroke="#111" stroke-width="3"/>'
            f'<text x="{cx:.1f}" y="{cy + 6:.1f}" text-anchor="middle" font-size="17" font-weight="800" '
            f'fill="{_contrast(css)}" font-family="sans-serif">{initial}</text></g>')


def _ghost_tile_svg(t: Mapping[str, Any], terrains: Mapping[str, str]) -> str:
    """A pending tile: translucent, a dashed white outline, "pending" in its title."""
    x0, y0 = int(t["x"]) * CELL, int(t["y"]) * CELL
    body = _tile_svg(t, terrains).replace('<g class="tile"', '<g class="tile-body"', 1)
    title = (f"pending (press NEXT or Commit now): {t.get('tile', '?')} at ({t['x']}, {t['y']}), "
             f"turned {t.get('rotation', 0)}°")
    return (f'<g class="ghost" data-x="{t["x"]}" data-y="{t["y"]}" data-tile="{escape(str(t.get("tile", "")))}">'
            f'<title>{escape(title)}</title><g opacity="0.5">{body}</g>'
            f'<rect x="{x0 + 3}" y="{y0 + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="4" fill="none" '
            f'stroke="#ffffff" stroke-width="5" stroke-dasharray="12 8"/></g>')


def _ghost_figure_svg(f: Mapping[str, Any], players: Mapping[str, Mapping[str, str]]) -> str:
    body = _figure_svg(f, players).replace('<g class="figure">', '<g class="figure-body">', 1)
    return f'<g class="ghost-figure" opacity="0.6" stroke-dasharray="4 3">{body}</g>'


def _neighbours(cells: set[tuple[int, int]]) -> list[tuple[int, int]]:
    free = set()
    for x, y in cells:
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            c = (x + dx, y + dy)
            if c not in cells:
                free.add(c)
    return sorted(free)


def render_board(view: Mapping[str, Any], players: Mapping[str, Mapping[str, str]],
                 flag: Mapping[str, Any] | None = None, ghost: Mapping[str, Any] | None = None) -> str:
    """SVG text for a game view. ``players`` maps a player name to ``{"css", "colour"}``;
    ``flag`` (the hub's illegal-placement flag) wins over the view's own. ``ghost``: the tiles
    and figures of the pending turn (``{"tiles": [...], "figures": [...]}`` in the view's
    format), drawn translucent with a dashed outline: read by the camera, not logged yet."""
    if view.get("kind") == "tahiti":
        return _tahiti_svg(view, players)
    if view.get("kind") == "karibik":
        return karibik_svg(view, players)
    if view.get("kind") != "tiles":
        return _fallback_svg(view)
    terrains = view.get("terrains") or {}
    tiles = list(view.get("tiles") or [])
    cells = {(int(t["x"]), int(t["y"])) for t in tiles}
    ghost_tiles = [t for t in (ghost or {}).get("tiles") or [] if (int(t["x"]), int(t["y"])) not in cells]
    ghost_figures = list((ghost or {}).get("figures") or [])
    ghost_cells = {(int(t["x"]), int(t["y"])) for t in ghost_tiles}
    flag = flag or view.get("flag")
    flag_cell = None
    if flag and flag.get("x") is not None and flag.get("y") is not None:
        flag_cell = (int(flag["x"]), int(flag["y"]))
    free = [c for c in _neighbours(cells) if c not in ghost_cells]
    xs = [c[0] for c in cells | ghost_cells | set(free)] or [0]
    ys = [c[1] for c in cells | ghost_cells | set(free)] or [0]
    if flag_cell:
        xs.append(flag_cell[0])
        ys.append(flag_cell[1])
    pad = 10
    vx, vy = min(xs) * CELL - pad, min(ys) * CELL - pad
    vw, vh = (max(xs) - min(xs) + 1) * CELL + 2 * pad, (max(ys) - min(ys) + 1) * CELL + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{vx} {vy} {vw} {vh}" '
           f'data-view="{vx} {vy} {vw} {vh}" role="img" aria-label="Board with {len(tiles)} tiles">', _DEFS]
    for x, y in free:
        out.append(f'<rect class="free" data-x="{x}" data-y="{y}" x="{x * CELL + 4}" y="{y * CELL + 4}" '
                   f'width="{CELL - 8}" height="{CELL - 8}" rx="8" fill="#ffffff06" stroke="#ffffff38" '
                   f'stroke-dasharray="6 6"><title>free cell ({x}, {y})</title></rect>')
    out.extend(_tile_svg(t, terrains) for t in tiles)
    last = view.get("last")
    if last:
        lx, ly = int(last["x"]) * CELL, int(last["y"]) * CELL
        out.append(f'<rect class="last" x="{lx + 3}" y="{ly + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                   f'fill="none" stroke="#ffd400" stroke-width="6" rx="4"><title>last tile laid</title></rect>')
    out.extend(_figure_svg(f, players) for f in view.get("figures") or [])
    out.extend(_ghost_tile_svg(t, terrains) for t in ghost_tiles)
    out.extend(_ghost_figure_svg(f, players) for f in ghost_figures)
    if flag_cell:
        fx, fy = flag_cell[0] * CELL, flag_cell[1] * CELL
        reason = escape(str(flag.get("reason", "illegal placement")))
        out.append(f'<g class="flag"><title>{reason}</title>'
                   f'<rect x="{fx + 2}" y="{fy + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="#d7263d33" '
                   f'stroke="#d7263d" stroke-width="7" stroke-dasharray="14 7" rx="4"/>'
                   f'<circle cx="{fx + CELL - 14}" cy="{fy + 14}" r="12" fill="#d7263d"/>'
                   f'<text x="{fx + CELL - 14}" y="{fy + 20}" text-anchor="middle" font-size="18" '
                   f'font-weight="900" fill="#fff" font-family="sans-serif">!</text></g>')
    out.append("</svg>")
    return "".join(out)


#: Tahiti pearl colours on the page
PEARL_FILLS = {"green": "#2e9e5b", "white": "#f4f4f4", "black": "#1b1b1b", "blue": "#2b6fd6"}
_TCELL = 60


def _track_positions(n: int, lo: float, hi: float) -> list[tuple[float, float]]:
    """``n`` points clockwise round the square [lo, hi]², starting at the top-left corner's right."""
    side = hi - lo
    out = []
    for i in range(n):
        d = (i + 0.5) * 4 * side / n
        k, t = divmod(d, side)
        x, y = [(lo + t, lo), (hi, lo + t), (hi - t, hi), (lo, hi - t)][int(k) % 4]
        out.append((x, y))
    return out


def _boat(cx: float, cy: float, css: str, initial: str, pearl: str | None, title: str) -> str:
    hull = (f'<path d="M{cx - 20:.1f} {cy - 2:.1f} h40 l-7 11 h-26 z" fill="{css}" stroke="#111" '
            f'stroke-width="2"/><text x="{cx:.1f}" y="{cy + 7:.1f}" text-anchor="middle" font-size="10" '
            f'font-weight="800" fill="{_contrast(css)}" font-family="sans-serif">{escape(initial)}</text>')
    pearl_svg = ""
    if pearl:
        fill = PEARL_FILLS.get(str(pearl), "#ccc")
        pearl_svg = (f'<circle cx="{cx:.1f}" cy="{cy - 11:.1f}" r="8" fill="{fill}" stroke="#111" '
                     f'stroke-width="1.5"/>')
    return f'<g class="boat"><title>{escape(title)}</title>{hull}{pearl_svg}</g>'


def _tahiti_svg(view: Mapping[str, Any], players: Mapping[str, Mapping[str, str]]) -> str:
    """The Tahiti map (7x7, Tahiti in the middle) with boats and pearls, and the track round it."""
    size = int(view.get("size", 7))
    rows = list(view.get("rows") or [])
    cols = list(view.get("columns") or [])
    grid = size * _TCELL
    margin = 110
    lo, hi = -margin + 40, grid + margin - 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-tahiti" '
           f'viewBox="{-margin} {-margin} {grid + 2 * margin} {grid + 2 * margin}" '
           f'data-view="{-margin} {-margin} {grid + 2 * margin} {grid + 2 * margin}" role="img" '
           f'aria-label="Tahiti map and track">',
           _DEFS,
           f'<rect x="{-margin + 6}" y="{-margin + 6}" width="{grid + 2 * margin - 12}" '
           f'height="{grid + 2 * margin - 12}" rx="28" fill="#174a6e"/>',
           f'<rect x="0" y="0" width="{grid}" height="{grid}" fill="#2f80b7"/>',
           f'<rect x="0" y="0" width="{grid}" height="{grid}" fill="url(#waves)"/>']
    for i, name in enumerate(rows):
        if name != "M":
            y = i * _TCELL + _TCELL / 2 + 6
            out.append(f'<text x="-16" y="{y}" text-anchor="middle" font-size="18" font-weight="800" '
                       f'fill="#ffd400" font-family="sans-serif">{escape(name)}</text>')
    for i, name in enumerate(cols):
        if name != "M":
            x = i * _TCELL + _TCELL / 2
            out.append(f'<text x="{x}" y="-10" text-anchor="middle" font-size="18" font-weight="800" '
                       f'fill="#ffd400" font-family="sans-serif">{escape(name)}</text>')
    for cell in view.get("cells") or []:
        x, y = int(cell["col"]) * _TCELL, int(cell["row"]) * _TCELL
        name = escape(str(cell.get("cell", "")))
        if cell.get("tahiti"):
            out.append(f'<g class="tahiti-island"><title>Tahiti</title><rect x="{x + 3}" y="{y + 3}" '
                       f'width="{_TCELL - 6}" height="{_TCELL - 6}" rx="22" fill="#6cbf5a" stroke="#e8cf8e" '
                       f'stroke-width="5"/><text x="{x + _TCELL / 2}" y="{y + _TCELL / 2 + 4}" '
                       f'text-anchor="middle" font-size="10" font-weight="800" fill="#10310a" '
                       f'font-family="sans-serif">TAHITI</text></g>')
            continue
        sectors = ", ".join(cell.get("sectors") or [])
        out.append(f'<rect class="cell" data-cell="{name}" x="{x + 1}" y="{y + 1}" width="{_TCELL - 2}" '
                   f'height="{_TCELL - 2}" fill="#ffffff08" stroke="#ffffff40"><title>{name} '
                   f'(sector {escape(sectors)})</title></rect>')
        boat = cell.get("boat")
        if boat:
            owner = str(boat.get("owner"))
            info = players.get(owner, {})
            out.append(_boat(x + _TCELL / 2, y + _TCELL / 2 + 6, info.get("css", "#777"), owner[:1].upper(),
                             boat.get("pearl"), f"{name}: {owner}'s boat with a {boat.get('pearl')} pearl"))
    track = list(view.get("track") or [])
    for (cx, cy), space in zip(_track_positions(len(track), lo, hi), track):
        pearl = str(space.get("pearl"))
        letter = escape(str(space.get("letter", "")))
        idx = int(space.get("space", 0))
        out.append(f'<g class="space" data-space="{idx}"><title>space {idx}: letter {letter}, '
                   f'{escape(pearl)} pearl</title>'
                   f'<rect x="{cx - 27:.1f}" y="{cy - 27:.1f}" width="54" height="54" rx="12" fill="#f3e6c4" '
                   f'stroke="#8b6a3a" stroke-width="2"/>'
                   f'<text x="{cx - 8:.1f}" y="{cy + 2:.1f}" text-anchor="middle" font-size="22" font-weight="900" '
                   f'fill="#3a2a10" font-family="sans-serif">{letter}</text>'
                   f'<circle cx="{cx + 13:.1f}" cy="{cy - 12:.1f}" r="7" fill="{PEARL_FILLS.get(pearl, "#ccc")}" '
                   f'stroke="#333" stroke-width="1.5"/>'
                   f'<text x="{cx - 19:.1f}" y="{cy - 16:.1f}" font-size="9" fill="#8b6a3a" '
                   f'font-family="sans-serif">{idx}</text></g>')
        markers = [(p, "sail") for p in space.get("sailboats") or []] + \
                  [(p, "letter") for p in space.get("letter_boats") or []]
        for k, (who, what) in enumerate(markers):
            info = players.get(str(who), {})
            mx, my = cx - 18 + 13 * k, cy + 17
            fill = info.get("css", "#777")
            shape = (f'<path d="M{mx - 6:.1f} {my + 5:.1f} L{mx:.1f} {my - 8:.1f} L{mx + 6:.1f} {my + 5:.1f} z"'
                     if what == "sail" else
                     f'<rect x="{mx - 6:.1f}" y="{my - 5:.1f}" width="12" height="10" rx="2"')
            label = "sailboat" if what == "sail" else "letter boat"
            out.append(f'<g class="{what}"><title>{escape(str(who))}\'s {label}</title>{shape} fill="{fill}" '
                       f'stroke="#111" stroke-width="1.5"/></g>')
    out.append("</svg>")
    return "".join(out)


def _fallback_svg(view: Mapping[str, Any]) -> str:
    kind = escape(str(view.get("kind", "none")))
    text = "No board to draw for this game yet" if kind == "none" else f"The {kind} board has no picture yet"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-fallback" viewBox="0 0 400 120" '
            f'data-view="0 0 400 120" role="img" aria-label="{text}">'
            f'<rect x="4" y="4" width="392" height="112" rx="14" fill="#ffffff10" stroke="#ffffff40" '
            f'stroke-dasharray="8 6"/><text x="200" y="66" text-anchor="middle" font-size="18" '
            f'fill="#cfd8e3" font-family="sans-serif">{text}</text></svg>')


def terrain_legend(view: Mapping[str, Any]) -> list[dict[str, str]]:
    """[{letter, name, fill, pattern}] for the terrains a view uses, for the page's legend."""
    terrains = view.get("terrains") or {}
    out = []
    for letter in terrains:
        fill, pattern, name = terrain_fill(letter, terrains)
        out.append({"letter": letter, "name": name, "fill": fill, "pattern": pattern or ""})
    return out
