"""The Tahiti board as SVG: the 7x7 pearl map with Tahiti in the middle, boats with their pearls,
and the 12-space track round it (registered with :func:`web.board_svg.drawer`). Every word is rendered
in ``lang`` (the reader's language); the printed "TAHITI" is a name and stays.

>>> svg = tahiti_svg({"size": 7, "rows": list("ABCMDEF"), "columns": list("ABCMDEF"), "cells": [
...     {"row": 0, "col": 0, "cell": "AA", "sectors": ["A"], "boat": {"owner": "Ana", "pearl": "green"}}],
...     "track": [{"space": 0, "letter": "A", "pearl": "black"}]}, {}, lang="fr")
>>> "perle noire" in svg and "perle verte" in svg
True
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping

from tablehub.games.tahiti.words import a_pearl, cell_words, the_pearl
from tablehub.i18n import T, join

from .board_svg import _DEFS, _contrast, drawer, say

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
    """A boat; ``title``: already in the reader's language and escaped."""
    hull = (f'<path d="M{cx - 20:.1f} {cy - 2:.1f} h40 l-7 11 h-26 z" fill="{css}" stroke="#111" '
            f'stroke-width="2"/><text x="{cx:.1f}" y="{cy + 7:.1f}" text-anchor="middle" font-size="10" '
            f'font-weight="800" fill="{_contrast(css)}" font-family="sans-serif">{escape(initial)}</text>')
    pearl_svg = ""
    if pearl:
        fill = PEARL_FILLS.get(str(pearl), "#ccc")
        pearl_svg = (f'<circle cx="{cx:.1f}" cy="{cy - 11:.1f}" r="8" fill="{fill}" stroke="#111" '
                     f'stroke-width="1.5"/>')
    return f'<g class="boat"><title>{title}</title>{hull}{pearl_svg}</g>'


@drawer("tahiti")
def tahiti_svg(view: Mapping[str, Any], players: Mapping[str, Mapping[str, str]], lang: str | None = None,
               **_: Any) -> str:
    """The Tahiti map (7x7, Tahiti in the middle) with boats and pearls, and the track round it, in ``lang``."""
    size = int(view.get("size", 7))
    rows = list(view.get("rows") or [])
    cols = list(view.get("columns") or [])
    grid = size * _TCELL
    margin = 110
    lo, hi = -margin + 40, grid + margin - 40
    label, island = say(T("Tahiti map and track"), lang), say(T("Tahiti"), lang)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-tahiti" '
           f'viewBox="{-margin} {-margin} {grid + 2 * margin} {grid + 2 * margin}" '
           f'data-view="{-margin} {-margin} {grid + 2 * margin} {grid + 2 * margin}" role="img" '
           f'aria-label="{label}">',
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
            out.append(f'<g class="tahiti-island"><title>{island}</title><rect x="{x + 3}" y="{y + 3}" '
                       f'width="{_TCELL - 6}" height="{_TCELL - 6}" rx="22" fill="#6cbf5a" stroke="#e8cf8e" '
                       f'stroke-width="5"/><text x="{x + _TCELL / 2}" y="{y + _TCELL / 2 + 4}" '
                       f'text-anchor="middle" font-size="10" font-weight="800" fill="#10310a" '
                       f'font-family="sans-serif">TAHITI</text></g>')
            continue
        sectors = list(cell.get("sectors") or [])
        words = cell_words((int(cell["row"]), int(cell["col"])))
        if len(sectors) > 1:
            title = T("{cell}, in the sectors of {sectors} [{id}]", cell=words, sectors=join(sectors),
                      id=cell.get("cell", ""))
        else:
            title = T("{cell}, in the sector of {sectors} [{id}]", cell=words, sectors=join(sectors),
                      id=cell.get("cell", ""))
        out.append(f'<rect class="cell" data-cell="{name}" x="{x + 1}" y="{y + 1}" width="{_TCELL - 2}" '
                   f'height="{_TCELL - 2}" fill="#ffffff08" stroke="#ffffff40">'
                   f'<title>{say(title, lang)}</title></rect>')
        boat = cell.get("boat")
        if boat:
            owner = str(boat.get("owner"))
            info = players.get(owner, {})
            out.append(_boat(x + _TCELL / 2, y + _TCELL / 2 + 6, info.get("css", "#777"), owner[:1].upper(),
                             boat.get("pearl"), say(T("{player}'s boat with {pearl} in {cell}", player=owner,
                                                      pearl=a_pearl(str(boat.get("pearl"))), cell=words), lang)))
    track = list(view.get("track") or [])
    for (cx, cy), space in zip(_track_positions(len(track), lo, hi), track):
        pearl = str(space.get("pearl"))
        letter = escape(str(space.get("letter", "")))
        idx = int(space.get("space", 0))
        letter_ = space.get("letter", "")
        what = T("the {letter} space with {pearl}", letter=letter_, pearl=the_pearl(pearl)) if pearl in PEARL_FILLS \
            else T("the {letter} space, its pearl not recorded yet", letter=letter_)
        title = say(T("{space} [space {n}]", space=what, n=idx), lang)
        out.append(f'<g class="space" data-space="{idx}"><title>{title}</title>'
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
            label = T("{player}'s sailboat", player=str(who)) if what == "sail" else \
                T("{player}'s letter boat", player=str(who))
            out.append(f'<g class="{what}"><title>{say(label, lang)}</title>{shape} fill="{fill}" '
                       f'stroke="#111" stroke-width="1.5"/></g>')
    out.append("</svg>")
    return "".join(out)
