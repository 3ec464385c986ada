"""'Where can it go?': the hints of ``game.hints()`` as an SVG layer over the board picture.

The layer (``<g class="hints">``) is drawn in the board's own units, so the page puts it inside
``/api/board.svg``'s ``<svg>`` as it is. Every place is a ``<g class="hint">`` with a ghost outline
(``.hint-ghost``), the moves it stands for in ``data-actions`` (JSON, one per look) and, where the
piece can lie several ways, one hidden ``<g class="hint-look">`` per way, drawn as the piece
lies (a tile turned, a Sunda piece turned): tapping a place shows its looks in turn and fills the
move form with the matching move (Karibik's let taps through: a tap on a space adds it to the
``path`` being built, as without hints). Drawers are registered per view kind like the boards'
(:func:`hint_drawer`); a kind without one gets an empty layer. The titles are rendered in ``lang``
(the reader's language); ``game`` names a tile game's terrain words' catalog context.

>>> layer = render_hints({"kind": "tahiti", "places": [{"cell": "AE", "row": 0, "col": 4,
...     "actions": [{"type": "place_boat", "cell": "AE"}]}]}, lang="de")
>>> layer.startswith('<g class="hints"') and 'data-hint-cell="AE"' in layer, "Schiff" in layer
(True, True)
"""
from __future__ import annotations

import json
import re
from html import escape
from typing import Any, Callable, Mapping

from tablehub.i18n import T, Tn

from .board_svg import CELL, _tile_svg, say
from .board_sunda import LAND, U, WATER
from .board_tahiti import _TCELL

GHOST = "#ffd400"
#: a look starts hidden and lets taps through to its ghost (the page shows one look at a time)
LOOK = 'display="none" pointer-events="none"'
#: hints kind (the view's) -> the function that draws their places (``hints``) -> SVG text per place
#: (the places, in order; a ``<defs>`` of shared drawings may come first)
HINT_DRAWERS: dict[str, Callable[..., list[str]]] = {}


def hint_drawer(kind: str) -> Callable[[Callable[..., list[str]]], Callable[..., list[str]]]:
    """Register the function that draws the places of hints of ``kind``: ``@hint_drawer("tiles")``."""
    def register(fn: Callable[..., list[str]]) -> Callable[..., list[str]]:
        HINT_DRAWERS[kind] = fn
        return fn
    return register


def render_hints(hints: Mapping[str, Any], lang: str | None = None, game: str | None = None) -> str:
    """The SVG layer of ``hints`` (from ``game.hints()``, which carry what the drawing needs: a tile
    game's terrains, a Karibik space's outline) for the board picture of the same game, in ``lang``."""
    draw = HINT_DRAWERS.get(str(hints.get("kind")))
    parts = draw(hints, lang=lang, game=game) if draw is not None and hints.get("places") else []
    count = len(hints.get("places") or []) if parts else 0
    return (f'<g class="hints" data-kind="{escape(str(hints.get("kind")))}" data-count="{count}">'
            f'{"".join(parts)}</g>')


def _place(attrs: Mapping[str, Any], title: Any, ghost: str, looks: list[str], actions: list[Any],
           tap: bool = True, lang: str | None = None) -> str:
    """One place: ``data-hint-<key>`` attributes (never the board's own ``data-x``, ``data-space``
    ...), its moves, its ghost and looks. ``tap=False``: taps go through to the board beneath."""
    data = " ".join(f'data-hint-{k}="{escape(str(v))}"' for k, v in attrs.items())
    through = "" if tap else ' pointer-events="none"'
    return (f'<g class="hint" {data} data-actions="{escape(json.dumps(actions, separators=(",", ":")))}"{through}>'
            f'<title>{say(title, lang)}</title>{ghost}{"".join(looks)}</g>')


def _ways(n: int) -> Any:
    return Tn("{n} way", "{n} ways", n)


@hint_drawer("tiles")
def _tiles(hints: Mapping[str, Any], lang: str | None = None, game: str | None = None) -> list[str]:
    terrains = hints.get("terrains") or {}
    name = hints.get("name") or hints.get("piece") or T("the tile")
    drawn: dict[str, str] = {}  # the tile turned each way, drawn once at the origin and reused at each cell
    out = []
    for p in hints["places"]:
        x, y = int(p["x"]), int(p["y"])
        x0, y0 = x * CELL, y * CELL
        looks = []
        for deg in p["rotations"]:
            if str(deg) not in drawn:
                look = p["looks"][str(deg)]
                t = {"x": 0, "y": 0, "tile": hints.get("piece"), "rotation": deg, "slots": look["slots"],
                     "interior": look["interior"], "marks": look["marks"], "name": name}
                body = re.sub(r"<title>.*?</title>", "", _tile_svg(t, terrains, lang, game), count=1)
                drawn[str(deg)] = body.replace('<g class="tile"', f'<g id="hint-tile-{deg}" class="hint-tile"', 1)
            looks.append(f'<g class="hint-look" data-look="{deg}" {LOOK} opacity="0.8">'
                         f'<use href="#hint-tile-{deg}" x="{x0}" y="{y0}"/></g>')
        turns = ", ".join(f"{d}°" for d in p["rotations"])
        title = T("{tile} can lie {where}: {ways} ({turns}); tap to see each", tile=name, where=p.get("where", ""),
                  ways=_ways(len(p["rotations"])), turns=turns)
        ghost = (f'<rect class="hint-ghost" x="{x0 + 6}" y="{y0 + 6}" width="{CELL - 12}" height="{CELL - 12}" '
                 f'rx="8" fill="{GHOST}2e" stroke="{GHOST}" stroke-width="4" stroke-dasharray="10 6"/>'
                 f'<text class="hint-ways" x="{x0 + CELL / 2}" y="{y0 + CELL / 2 + 9}" text-anchor="middle" '
                 f'font-size="26" font-weight="800" fill="{GHOST}" font-family="sans-serif" pointer-events="none">'
                 f'{len(p["rotations"])}↻</text>')
        out.append(_place({"x": x, "y": y, "looks": ",".join(map(str, p["rotations"]))}, title, ghost, looks,
                          p["actions"], lang=lang))
    if drawn:
        out.insert(0, f'<defs>{"".join(drawn.values())}</defs>')
    return out


@hint_drawer("karibik")
def _karibik(hints: Mapping[str, Any], lang: str | None = None, **_: Any) -> list[str]:
    ship = hints.get("ship") or T("the ship")
    out = []
    for p in hints["places"]:
        cx, cy = (float(v) for v in p["center"])
        poly = p.get("polygon") or []
        style = f'fill="{GHOST}40" stroke="{GHOST}" stroke-width="1.8" stroke-dasharray="3 2"'
        shape = (f'<polygon class="hint-ghost" points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in poly)}" {style}/>'
                 if poly else f'<circle class="hint-ghost" cx="{cx:.1f}" cy="{cy:.1f}" r="9" {style}/>')
        shape += (f'<text x="{cx:.1f}" y="{cy + 8.5:.1f}" text-anchor="middle" font-size="5" font-weight="800" '
                  f'fill="{GHOST}" font-family="sans-serif" pointer-events="none">{int(p["distance"])}</text>')
        path = " → ".join(map(str, p["path"]))
        title = T("{ship} can sail to space {space} ({distance} of {left} left): {path}", ship=ship, space=p["space"],
                  distance=p["distance"], left=hints.get("left"), path=path)
        # taps go through to the space: the board's own tap adds it to the path being built
        out.append(_place({"space": p["space"]}, title, shape, [], p["actions"], tap=False, lang=lang))
    return out


@hint_drawer("tahiti")
def _tahiti(hints: Mapping[str, Any], lang: str | None = None, **_: Any) -> list[str]:
    out = []
    for p in hints["places"]:
        x, y = int(p["col"]) * _TCELL, int(p["row"]) * _TCELL
        ghost = (f'<rect class="hint-ghost" x="{x + 5}" y="{y + 5}" width="{_TCELL - 10}" height="{_TCELL - 10}" '
                 f'rx="6" fill="{GHOST}40" stroke="{GHOST}" stroke-width="4" stroke-dasharray="8 5"/>')
        title = T("{player}'s boat can take {cell} (sector {sector})", player=hints.get("player") or T("the player"),
                  cell=p["cell"], sector=hints.get("sector"))
        out.append(_place({"cell": p["cell"]}, title, ghost, [], p["actions"], lang=lang))
    return out


def _poly(points: Any) -> str:
    return " ".join(f"{float(a) * U:.1f},{float(b) * U:.1f}" for a, b in points)


@hint_drawer("sunda")
def _sunda(hints: Mapping[str, Any], lang: str | None = None, **_: Any) -> list[str]:
    piece = str(hints.get("piece"))
    out = []
    for p in hints["places"]:
        first = p["looks"][str(p["turns"][0])]
        x, y = (float(v) * U for v in first["corners"][0])
        ghost = (f'<polygon class="hint-ghost" points="{_poly(first["corners"])}" fill="{GHOST}26" '
                 f'stroke="{GHOST}" stroke-width="3" stroke-dasharray="8 5"/>'
                 f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{GHOST}"/>')
        looks = []
        for turn in p["turns"]:
            look = p["looks"][str(turn)]
            land = "".join(f'<polygon points="{_poly(poly)}" fill="{LAND}"/>' for poly in look["land"])
            looks.append(f'<g class="hint-look" data-look="{turn}" {LOOK} opacity="0.85">'
                         f'<polygon points="{_poly(look["corners"])}" fill="{WATER}" stroke="{GHOST}" '
                         f'stroke-width="3"/>{land}</g>')
        title = T("{piece} fits with its sharp corner at {q},{r}: {ways} (turn {turns}); tap to see each", piece=piece,
                  q=p["q"], r=p["r"], ways=_ways(len(p["turns"])), turns=", ".join(map(str, p["turns"])))
        out.append(_place({"q": p["q"], "r": p["r"], "looks": ",".join(map(str, p["turns"]))}, title, ghost, looks,
                          p["actions"], lang=lang))
    return out
