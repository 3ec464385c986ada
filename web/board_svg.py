"""The board as an SVG picture, drawn from ``game.view()``.

Every word in the picture (titles, labels, the aria-label) is a :class:`~tablehub.i18n.Text` rendered
in the reader's language (``lang``, each phone its own; web/language.py): the drawers take
``lang`` and, for tile views, ``game`` (the engine's name: its terrain words' catalog context).

Tile games (``{"kind": "tiles", ...}``): each tile is drawn from its 12 side slots
(terrain letters clockwise from the north-west end of the north side, already in
the rotated frame) as wedges meeting at the centre, with regions that touch no
side as a disc in the middle. Figures are discs in their owner's colour marked
with the owner's initial; the last tile laid is outlined; an illegal placement is
outlined in red with its reason. Empty cells next to the tiles are drawn faintly
and can be tapped to fill in x and y. Other views get a clean fallback picture.

>>> svg = render_board({"kind": "tiles", "terrains": {"G": "plain"}, "tiles": [
...     {"x": 0, "y": 0, "tile": "t1", "rotation": 0, "slots": "GGGGGGGGGGGG", "interior": []}],
...     "figures": [], "last": None, "flag": None}, {}, lang="fr", game="neuesland")
>>> svg.startswith("<svg") and 'data-x="0"' in svg, "nord : plaine" in svg
(True, True)
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable, Mapping

from tablehub.i18n import T, Tc, Text, Tn, comma, translate
from tablehub.palette import mark_hex, terrain_hex

from .present import SETUP_COLOURS

CELL = 100
#: terrain names that also get a texture, so they differ by more than hue
TERRAIN_PATTERNS = {"mountain": "hatch", "hill": "hatch", "rock": "hatch", "sea": "waves", "water": "waves",
                    "lake": "waves", "bridge": "planks"}

#: the goods marks' words (Südsee's own templates): ``{n} fish``
_GOODS = {"fish": lambda n: Tn("{n} fish", "{n} fish", n), "banana": lambda n: Tn("{n} banana", "{n} bananas", n),
          "shell": lambda n: Tn("{n} shell", "{n} shells", n)}
_SIDES = (T("north"), T("east"), T("south"), T("west"))

#: view kind -> the function that draws it (``view``, ``players``, ``flag``, ``ghost``, ``lang``, ``game``) -> SVG.
#: A game with its own board registers here with :func:`drawer` (see web/board_tahiti.py).
DRAWERS: dict[str, Callable[..., str]] = {}


def drawer(kind: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Register the function that draws views of ``kind``: ``@drawer("tahiti")``."""
    def register(fn: Callable[..., str]) -> Callable[..., str]:
        DRAWERS[kind] = fn
        return fn
    return register


_DEFS = """<defs>
<pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<line x1="0" y1="0" x2="0" y2="8" stroke="#00000030" stroke-width="3"/></pattern>
<pattern id="waves" width="16" height="8" patternUnits="userSpaceOnUse">
<path d="M0 6 Q4 2 8 6 T16 6" fill="none" stroke="#ffffff66" stroke-width="1.6"/></pattern>
<pattern id="planks" width="6" height="6" patternUnits="userSpaceOnUse">
<line x1="0" y1="3" x2="6" y2="3" stroke="#00000035" stroke-width="1.2"/></pattern>
</defs>"""


def say(text: Any, lang: str | None) -> str:
    """``text`` (a Text or a plain value) in ``lang``, escaped for SVG text and attributes."""
    return escape(translate(text, lang))


def terrain_word(name: Any, game: str | None) -> Any:
    """A terrain's name as the game's catalogs say it (``Tc(game, name)``); a Text is kept; without the
    game, the plain name."""
    if isinstance(name, Text) or not game:
        return name
    return Tc(game, str(name))


def colour_word(colour: Any) -> Any:
    """A player's colour name in the reader's language (the page's colour words); other values kept."""
    return T(str(colour)) if str(colour) in SETUP_COLOURS else colour


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
    return terrain_hex(name), TERRAIN_PATTERNS.get(name), name


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


def _tile_svg(t: Mapping[str, Any], terrains: Mapping[str, str], lang: str | None = None,
              game: str | None = None) -> str:
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
    parts.extend(_mark_svg(m, x0, y0, lang) for m in t.get("marks") or [])
    if t.get("name"):
        label: Any = T("{tile} {where}", tile=t["name"], where=t["where"]) if t.get("where") else t["name"]
    else:
        label = T("{tile} at ({x}, {y})", tile=t.get("tile", "?"), x=t["x"], y=t["y"])
    sides = _side_names(slots, terrains, game)
    if sides:
        label = T("{tile}: {sides}", tile=label, sides=sides)
    label = T("{tile} [{id} at {x}, {y}, turned {degrees}°]", tile=label, id=t.get("tile", "?"), x=t["x"],
              y=t["y"], degrees=t.get("rotation", 0))
    parts.append(f'<rect class="tile-edge" x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="none" '
                 f'stroke="#3b3b3b" stroke-opacity="0.55" stroke-width="1.5"/>')
    return (f'<g class="tile" data-x="{t["x"]}" data-y="{t["y"]}" data-tile="{escape(str(t.get("tile", "")))}" '
            f'data-name="{escape(str(t.get("name", "")))}">'
            f"<title>{say(label, lang)}</title>{''.join(parts)}</g>")


def _mark_svg(m: Mapping[str, Any], x0: float, y0: float, lang: str | None = None) -> str:
    """A town, a goods symbol or a boat on a tile: what the score explanations count."""
    u, v = (m.get("at") or [0.5, 0.5])[:2]
    cx, cy = x0 + float(u) * CELL, y0 + float(v) * CELL
    kind = m.get("kind")
    if kind == "town":
        title = say(T("town"), lang)
        return (f'<g class="mark town"><title>{title}</title>'
                f'<path d="M{cx - 9:.1f} {cy + 7:.1f} v-8 l9 -8 l9 8 v8 z" fill="{mark_hex("town")}" '
                f'stroke="{mark_hex("roof")}" stroke-width="2" stroke-linejoin="round"/>'
                f'<rect x="{cx - 2.5:.1f}" y="{cy + 1:.1f}" width="5" height="6" fill="{mark_hex("roof")}"/></g>')
    if kind == "boat":
        title = say(T("fishing boat"), lang)
        return (f'<g class="mark boat"><title>{title}</title>'
                f'<path d="M{cx - 12:.1f} {cy + 8:.1f} h24 l-5 6 h-14 z" fill="{mark_hex("boat")}" stroke="#222" '
                f'stroke-width="1.2"/><path d="M{cx:.1f} {cy + 7:.1f} v-16 l9 13 z" fill="{mark_hex("sail")}" '
                f'stroke="#222" stroke-width="1"/></g>')
    if kind == "symbol":
        name = str(m.get("name", "?"))
        n = int(m.get("count", 1) or 1)
        fill = mark_hex(name)
        words = _GOODS[name](n) if name in _GOODS else T("{n} {goods}", n=n, goods=name)
        out = [f'<g class="mark symbol" data-symbol="{escape(name)}"><title>{say(words, lang)}</title>']
        for k in range(n):
            dx = (k - (n - 1) / 2) * 13
            out.append(_symbol_shape(name, cx + dx, cy, fill))
        out.append("</g>")
        return "".join(out)
    return ""


def _symbol_shape(name: str, cx: float, cy: float, fill: str) -> str:
    if name == "fish":
        return (f'<path d="M{cx - 7:.1f} {cy:.1f} q7 -7 12 0 q-5 7 -12 0 z M{cx + 4:.1f} {cy:.1f} l5 -4 v8 z" '
                f'fill="{fill}" stroke="#fff" stroke-width="0.8"/>')
    if name == "banana":
        return (f'<path d="M{cx - 7:.1f} {cy - 4:.1f} q7 12 14 0 q-7 6 -14 0 z" fill="{fill}" stroke="#6b5200" '
                f'stroke-width="1"/>')
    if name == "shell":
        return (f'<path d="M{cx:.1f} {cy + 6:.1f} l-7 -8 a7 7 0 0 1 14 0 z" fill="{fill}" stroke="#8a5a44" '
                f'stroke-width="1"/>')
    return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{fill}" stroke="#222" stroke-width="1"/>'


def _side_names(slots: str, terrains: Mapping[str, str], game: str | None = None) -> Any:
    """``north plain, east sea|plain|sea, ...``: what each side of a tile shows, in words."""
    if len(slots) != 12:
        return ""
    out = []
    for side, word in enumerate(_SIDES):
        letters = slots[3 * side: 3 * side + 3]
        names = [terrain_word(terrains.get(c, c), game) for c in letters]
        shown: Any = names[1]
        if len(set(map(str, names))) != 1:
            shown = names[0]
            for name in names[1:]:
                shown = T("{first}|{next}", first=shown, next=name)
        out.append(T("{side} {terrain}", side=word, terrain=shown))
    return comma(out)


def _contrast(css: str) -> str:
    if css.startswith("#") and len(css) == 7:
        r, g, b = (int(css[i:i + 2], 16) for i in (1, 3, 5))
        return "#111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#fff"
    return "#fff"


def _figure_svg(f: Mapping[str, Any], players: Mapping[str, Mapping[str, str]], lang: str | None = None,
                terrains: Mapping[str, str] | None = None, game: str | None = None) -> str:
    u, v = (f.get("anchor") or [0.5, 0.5])[:2]
    cx, cy = (int(f["x"]) + float(u)) * CELL, (int(f["y"]) + float(v)) * CELL
    owner = f.get("owner")
    info = players.get(str(owner), {}) if owner is not None else {}
    css = info.get("css", "#777")
    colour = info.get("colour", "")
    name = str(owner if owner is not None else "?")
    initial = escape(name[:1].upper())
    where: Any = f.get("terrain") or f.get("region") or ""
    if f.get("terrain") and terrains and f["terrain"] in terrains:
        where = terrain_word(terrains[f["terrain"]], game)
    title: Any = name
    if where:
        title = T("{player} ({colour}) on {terrain}", player=name, colour=colour_word(colour), terrain=where) \
            if colour else T("{player} on {terrain}", player=name, terrain=where)
    return (f'<g class="figure"><title>{say(title, lang)}</title>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="15" fill="{css}" stroke="#111" stroke-width="3"/>'
            f'<text x="{cx:.1f}" y="{cy + 6:.1f}" text-anchor="middle" font-size="17" font-weight="800" '
            f'fill="{_contrast(css)}" font-family="sans-serif">{initial}</text></g>')


def _ghost_tile_svg(t: Mapping[str, Any], terrains: Mapping[str, str], lang: str | None = None,
                    game: str | None = None) -> str:
    """A pending tile: translucent, a dashed white outline, "pending" in its title."""
    x0, y0 = int(t["x"]) * CELL, int(t["y"]) * CELL
    body = _tile_svg(t, terrains, lang, game).replace('<g class="tile"', '<g class="tile-body"', 1)
    title = T("pending (press NEXT or Commit now): {tile} {where} [{id} at {x}, {y}, turned {degrees}°]",
              tile=t.get("name") or t.get("tile", "?"), where=t.get("where", ""), id=t.get("tile", "?"), x=t["x"],
              y=t["y"], degrees=t.get("rotation", 0))
    return (f'<g class="ghost" data-x="{t["x"]}" data-y="{t["y"]}" data-tile="{escape(str(t.get("tile", "")))}">'
            f'<title>{say(title, lang)}</title><g opacity="0.5">{body}</g>'
            f'<rect x="{x0 + 3}" y="{y0 + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="4" fill="none" '
            f'stroke="#ffffff" stroke-width="5" stroke-dasharray="12 8"/></g>')


def _ghost_figure_svg(f: Mapping[str, Any], players: Mapping[str, Mapping[str, str]], lang: str | None = None,
                      terrains: Mapping[str, str] | None = None, game: str | None = None) -> str:
    body = _figure_svg(f, players, lang, terrains, game).replace('<g class="figure">', '<g class="figure-body">', 1)
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
                 flag: Mapping[str, Any] | None = None, ghost: Mapping[str, Any] | None = None,
                 lang: str | None = None, game: str | None = None) -> str:
    """SVG text for a game view. ``players`` maps a player name to ``{"css", "colour"}``;
    ``flag`` (the hub's illegal-placement flag) wins over the view's own. ``ghost``: the tiles
    and figures of the pending turn (``{"tiles": [...], "figures": [...]}`` in the view's
    format), drawn translucent with a dashed outline: read by the camera, not logged yet. ``lang``:
    the reader's language (English when ``None``); ``game``: the engine's name, the context of its
    terrain words (without it a tile view's terrain names stay as the view gives them)."""
    draw = DRAWERS.get(str(view.get("kind")))
    if draw is not None:
        return draw(view, players, flag=flag, ghost=ghost, lang=lang, game=game)
    if view.get("kind") != "tiles":
        return _fallback_svg(view, lang)
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
    label = say(Tn("Board with {n} tile", "Board with {n} tiles", len(tiles)), lang)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{vx} {vy} {vw} {vh}" '
           f'data-view="{vx} {vy} {vw} {vh}" role="img" aria-label="{label}">', _DEFS]
    for x, y in free:
        title = say(T("free cell ({x}, {y})", x=x, y=y), lang)
        out.append(f'<rect class="free" data-x="{x}" data-y="{y}" x="{x * CELL + 4}" y="{y * CELL + 4}" '
                   f'width="{CELL - 8}" height="{CELL - 8}" rx="8" fill="#ffffff06" stroke="#ffffff38" '
                   f'stroke-dasharray="6 6"><title>{title}</title></rect>')
    out.extend(_tile_svg(t, terrains, lang, game) for t in tiles)
    last = view.get("last")
    if last:
        lx, ly = int(last["x"]) * CELL, int(last["y"]) * CELL
        title = say(T("last tile laid"), lang)
        out.append(f'<rect class="last" x="{lx + 3}" y="{ly + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                   f'fill="none" stroke="#ffd400" stroke-width="6" rx="4"><title>{title}</title></rect>')
    out.extend(_figure_svg(f, players, lang, terrains, game) for f in view.get("figures") or [])
    out.extend(_ghost_tile_svg(t, terrains, lang, game) for t in ghost_tiles)
    out.extend(_ghost_figure_svg(f, players, lang, terrains, game) for f in ghost_figures)
    if flag_cell:
        fx, fy = flag_cell[0] * CELL, flag_cell[1] * CELL
        reason = say(flag.get("reason") or T("illegal placement"), lang)
        out.append(f'<g class="flag"><title>{reason}</title>'
                   f'<rect x="{fx + 2}" y="{fy + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="#d7263d33" '
                   f'stroke="#d7263d" stroke-width="7" stroke-dasharray="14 7" rx="4"/>'
                   f'<circle cx="{fx + CELL - 14}" cy="{fy + 14}" r="12" fill="#d7263d"/>'
                   f'<text x="{fx + CELL - 14}" y="{fy + 20}" text-anchor="middle" font-size="18" '
                   f'font-weight="900" fill="#fff" font-family="sans-serif">!</text></g>')
    out.append("</svg>")
    return "".join(out)


def _fallback_svg(view: Mapping[str, Any], lang: str | None = None) -> str:
    kind = str(view.get("kind", "none"))
    text = say(T("No board to draw for this game yet") if kind == "none" else
               T("The {kind} board has no picture yet", kind=kind), lang)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-fallback" viewBox="0 0 400 120" '
            f'data-view="0 0 400 120" role="img" aria-label="{text}">'
            f'<rect x="4" y="4" width="392" height="112" rx="14" fill="#ffffff10" stroke="#ffffff40" '
            f'stroke-dasharray="8 6"/><text x="200" y="66" text-anchor="middle" font-size="18" '
            f'fill="#cfd8e3" font-family="sans-serif">{text}</text></svg>')


def terrain_legend(view: Mapping[str, Any], lang: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
    """[{letter, name, fill, pattern}] for the terrains a view uses, for the page's legend. With
    ``lang`` the names are rendered in it; without, a name the engine wrote as a Text (or, with
    ``game``, its catalog word) stays a Text, which the page's JSON renders in the reader's language."""
    terrains = view.get("terrains") or {}
    out = []
    for letter in terrains:
        fill, pattern, name = terrain_fill(letter, terrains)
        given = terrains.get(letter)
        shown: Any = given if isinstance(given, Text) else terrain_word(name, game)
        if lang is not None:
            shown = translate(shown, lang)
        out.append({"letter": letter, "name": shown, "fill": fill, "pattern": pattern or ""})
    return out


# each module registers its game's drawer; add a game's board module here
from . import board_karibik, board_sunda, board_tahiti  # noqa: E402,F401
