"""The "Trace the board" screen's pictures (docs/karibik.md, docs/tahiti.md).

:func:`karibik_trace_svg`: a traced Karibik board (a draft or a saved board file, the same
format) drawn over the straightened photo in board millimetres: each space an outline the owner
taps (``data-space``), ports with their town and chest, hideouts in their colour, skull start
spaces, the adjacent pairs as thin lines, the chest piles (``data-pile``).
:func:`tahiti_track_svg`: the page's Tahiti map with the 12 track spaces as recorded so far
(an unrecorded space shows ``?``). Both take ``lang``, the reader's language of their words.
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping

from tablehub.games.karibik.engine import money
from tablehub.i18n import T, Tc

from .board_karibik import hideout_words
from .board_svg import say
from .board_tahiti import tahiti_svg

HIDEOUT_FILLS = {"red": "#e0443e", "blue": "#2f6fe0", "green": "#2ea44f", "yellow": "#f2c230",
                 "black": "#222", "white": "#eee", "purple": "#8e44ad", "orange": "#f08c1a"}


def _pts(poly: Any) -> str:
    return " ".join(f"{float(x):.1f},{float(y):.1f}" for x, y in poly)


def karibik_trace_svg(board: Mapping[str, Any], photo_url: str | None, saved: bool = False,
                      lang: str | None = None) -> str:
    """``board``: a draft or board dict (docs/karibik.md format); ``photo_url``: the straightened
    photo to draw under it (``None``: plain sea)."""
    w, h = (float(v) for v in board["size_mm"])
    centres = {sp["id"]: sp["center"] for sp in board["spaces"]}
    ports = {t["port"]: t for t in board.get("towns") or []}
    hideouts = {x["space"]: x["colour"] for x in board.get("hideouts") or []}
    skulls = set(board.get("skulls") or [])
    kind = "saved" if saved else "draft"
    label = T("the saved board over the photo") if saved else T("the draft board over the photo")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="trace-board trace-{kind}" viewBox="0 0 {w:g} {h:g}" '
           f'data-size="{w:g} {h:g}" role="img" aria-label="{say(label, lang)}">']
    if photo_url:
        out.append(f'<image href="{escape(photo_url)}" x="0" y="0" width="{w:g}" height="{h:g}" '
                   f'preserveAspectRatio="none"/>')
    else:
        out.append(f'<rect width="{w:g}" height="{h:g}" fill="#1d5b86"/>')
    out.append('<g class="adj" stroke="#ffd400" stroke-width="0.8" opacity="0.7">')
    for a, b in board.get("adjacency") or []:
        if a in centres and b in centres:
            (x1, y1), (x2, y2) = centres[a], centres[b]
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append("</g>")
    for sp in board["spaces"]:
        sid = sp["id"]
        poly = sp.get("polygon")
        cx, cy = sp["center"]
        what: Any
        if sid in ports:
            mark, fill = "port", "#ffd40066"
            what = T("port of {town} (chest {value})", town=ports[sid]["name"], value=money(int(ports[sid]["chest"])))
        elif sid in hideouts:
            colour = hideouts[sid]
            mark, fill, what = "hideout", HIDEOUT_FILLS.get(colour, "#999") + "88", hideout_words(colour)
        elif sid in skulls:
            mark, fill, what = "skull", "#ffffff55", T("skull start space")
        else:
            mark, fill, what = "sea", "#00000001", T("open sea")
        title = T("{space}: {what}", space=Tc("karibik", "space {space}", space=sid), what=what)
        shape = (f'<polygon points="{_pts(poly)}"' if poly else f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="10"')
        out.append(f'<g class="sp {mark}" data-space="{sid}"><title>{say(title, lang)}</title>'
                   f'{shape} fill="{fill}" stroke="#39ff6a" stroke-width="1.2"/>'
                   f'<text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" font-size="9" font-weight="800" '
                   f'fill="#fff" stroke="#000" stroke-width="2" paint-order="stroke" '
                   f'font-family="sans-serif">{sid}</text>')
        if sid in ports:
            t = ports[sid]
            out.append(f'<text x="{cx:.1f}" y="{cy - 7:.1f}" text-anchor="middle" font-size="7" fill="#ffd400" '
                       f'stroke="#000" stroke-width="1.6" paint-order="stroke" font-family="sans-serif">'
                       f'{escape(t["name"])} {t["chest"] // 1000}k</text>')
        elif sid in skulls:
            out.append(f'<text x="{cx:.1f}" y="{cy - 6:.1f}" text-anchor="middle" font-size="10" '
                       f'font-family="sans-serif">\u2620</text>')
        out.append("</g>")
    for i, (x, y) in enumerate(board.get("piles") or []):
        title = say(T("chest pile {n}", n=i + 1), lang)
        out.append(f'<g class="pile" data-pile="{i}"><title>{title}</title><rect x="{x - 5:.1f}" '
                   f'y="{y - 5:.1f}" width="10" height="10" rx="2" fill="#b8860b" stroke="#000"/>'
                   f'<text x="{x:.1f}" y="{y + 3:.1f}" text-anchor="middle" font-size="8" fill="#000" '
                   f'font-family="sans-serif">{i + 1}</text></g>')
    out.append("</svg>")
    return "".join(out)


def tahiti_track_svg(track: list[Any], lang: str | None = None) -> str:
    """The map (no boats) with the track as recorded: space ``i`` is ``data-space="i"``."""
    from tablehub.games.tahiti.board import LINES, MIDDLE, SIZE, sectors_of

    cells = [{"row": r, "col": c, "cell": LINES[r] + LINES[c], "tahiti": (r, c) == (MIDDLE, MIDDLE),
              "sectors": list(sectors_of((r, c)))} for r in range(SIZE) for c in range(SIZE)]
    view = {"size": SIZE, "rows": list(LINES), "columns": list(LINES), "cells": cells,
            "track": [{"space": i, "letter": (s or {}).get("letter", "?"), "pearl": (s or {}).get("pearl", "unset")}
                      for i, s in enumerate(track)]}
    return tahiti_svg(view, {}, lang=lang)
