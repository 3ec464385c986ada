"""Sunda to Sahul's layout as an SVG picture, drawn from ``game.view()`` (``{"kind": "sunda", ...}``).

Every piece is its rhombus of water with its land drawn on it; an island's land is
outlined solid when the island is complete, dashed when it is still open, and grey
when it is a small incomplete island inside a lake (not land). Tribes are stacks of
discs in their owners' colours with the tribe's height beside them (the chief's
disc is on top of the count); water rights are drops on fresh-water nodes; resource
markers are numbered squares. Nodes formed by the piece just laid are ringed in
yellow: the placer may claim one. A declared challenge draws an arrow from the
attacking to the defending tribe and writes the exact odds before the dice are entered.
Every word is rendered in ``lang`` (the reader's language).

>>> svg = render({"kind": "sunda", "pieces": [{"id": "s001", "q": 0, "r": 0, "turn": 0,
...     "corners": [[0, 0], [1, 0], [1.5, 0.866], [0.5, 0.866]], "land": [], "island": None, "last": True}],
...     "nodes": [], "islands": [], "challenge": None}, {}, lang="fr")
>>> svg.startswith("<svg") and 'data-piece="s001"' in svg, "tour 0" in svg
(True, True)
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping

from tablehub.games.sunda.engine import marker_word
from tablehub.i18n import T, Tc, Tn, comma

from .board_svg import _contrast, drawer, say

U = 64  # pixels per lattice side
WATER, LAND, TABLE = "#5aa9e6", "#d9c07a", "#2b3a42"
OUTLINE = {"complete": ("#1f6b2a", ""), "open": ("#b5542a", ' stroke-dasharray="7 5"'),
           "islet": ("#777", ' stroke-dasharray="3 4"')}


def _pts(points: Any) -> str:
    return " ".join(f"{float(x) * U:.1f},{float(y) * U:.1f}" for x, y in points)


def _on_side(a: Any, b: Any, corners: Any) -> bool:
    """Whether segment a-b runs along one side of the rhombus (a seam, not a coast)."""
    for k in range(4):
        p, q = corners[k], corners[(k + 1) % 4]
        vx, vy = float(q[0]) - float(p[0]), float(q[1]) - float(p[1])
        ok = True
        for pt in (a, b):
            wx, wy = float(pt[0]) - float(p[0]), float(pt[1]) - float(p[1])
            if abs(vx * wy - vy * wx) > 0.02 or not -0.02 <= (vx * wx + vy * wy) <= 1.02:
                ok = False
                break
        if ok:
            return True
    return False


def _coast_path(poly: Any, corners: Any) -> str:
    d = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if not _on_side(a, b, corners):
            d.append(f"M{float(a[0]) * U:.1f} {float(a[1]) * U:.1f}L{float(b[0]) * U:.1f} {float(b[1]) * U:.1f}")
    return "".join(d)


def _disc(cx: float, cy: float, r: float, player: str, players: Mapping[str, Mapping[str, str]]) -> str:
    css = players.get(player, {}).get("css", "#888")
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{css}" stroke="#111" stroke-width="2"/>'
            f'<text x="{cx:.1f}" y="{cy + r * 0.42:.1f}" text-anchor="middle" font-size="{r * 1.15:.0f}" '
            f'font-weight="800" fill="{_contrast(css)}" font-family="sans-serif">{escape(player[:1].upper())}</text>')


def _dice(n: int) -> Any:
    return Tn("{n} die", "{n} dice", n)


def _at(q: Any, r: Any) -> str:
    return f"{q},{r}"


def _node_kind(kind: Any) -> Any:
    return {"land": Tc("sunda", "land"), "water": Tc("sunda", "water"), "fresh": T("fresh water")}.get(kind, kind)


def _node(n: Mapping[str, Any], players: Mapping[str, Mapping[str, str]], lang: str | None = None) -> str:
    x, y = float(n["x"]) * U, float(n["y"]) * U
    q, r = n["q"], n["r"]
    parts = []
    title: Any = T("node {q},{r} ({kind})", q=q, r=r, kind=_node_kind(n.get("kind")))
    if n.get("formed_now"):
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="none" stroke="#ffd400" stroke-width="4"/>')
        title = T("{node}, formed by the piece just laid: the placer may claim it", node=title)
    tribe = list(n.get("tribe") or [])
    if tribe:
        for i, owner in enumerate(tribe):
            parts.append(_disc(x, y - 5 * i, 11, owner, players))
        parts.append(f'<text x="{x + 14:.1f}" y="{y - 5 * len(tribe) - 2:.1f}" font-size="15" font-weight="800" '
                     f'fill="#fff" stroke="#111" stroke-width="3" paint-order="stroke" '
                     f'font-family="sans-serif">{len(tribe)}</text>')
        title = T("{node}: tribe of {n} ({pawns}, bottom to top), chief {chief}", n=len(tribe), node=title,
                  pawns=comma(tribe), chief=n.get("chief"))
    elif n.get("kind") == "fresh":
        owner = n.get("water_right")
        if owner:
            css = players.get(owner, {}).get("css", "#888")
            parts.append(f'<path d="M{x:.1f} {y - 13:.1f} Q{x + 10:.1f} {y:.1f} {x:.1f} {y + 8:.1f} '
                         f'Q{x - 10:.1f} {y:.1f} {x:.1f} {y - 13:.1f} z" fill="{css}" stroke="#fff" stroke-width="2"/>')
            title = T("{node}: water right of {player}", node=title, player=owner)
        else:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#bfe6ff" stroke="#fff"/>')
            # (the node's kind already says fresh water: nobody holds its right yet)
    elif n.get("kind") == "land":
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#5b4a1f"/>')
    for i, m in enumerate(n.get("markers") or []):
        mx, my = x - 24 - 16 * i, y + 6
        parts.append(f'<rect x="{mx:.1f}" y="{my:.1f}" width="14" height="14" fill="{escape(str(m["id"]))}" '
                     f'stroke="#111"/><text x="{mx + 7:.1f}" y="{my + 11:.1f}" font-size="11" text-anchor="middle" '
                     f'font-weight="800" fill="#111" font-family="sans-serif">{int(m["number"])}</text>')
        title = T("{node}, {colour} marker ({number})", node=title, colour=marker_word(m["id"]), number=m["number"])
    return (f'<g class="node" data-q="{q}" data-r="{r}"><title>{say(title, lang)}</title>{"".join(parts)}</g>')


@drawer("sunda")
def render(view: Mapping[str, Any], players: Mapping[str, Mapping[str, str]], lang: str | None = None,
           **_: Any) -> str:
    """SVG text for a Sunda view in ``lang``; ``players`` maps a name to ``{"css", "colour"}``."""
    pieces = list(view.get("pieces") or [])
    xs = [float(c[0]) for p in pieces for c in p["corners"]] or [0.0]
    ys = [float(c[1]) for p in pieces for c in p["corners"]] or [0.0]
    pad = 1.2
    top = 1.4 if view.get("challenge") else 0.6   # room for the challenge's odds
    x0, y0 = (min(xs) - pad) * U, (min(ys) - pad - top) * U
    w, h = (max(xs) - min(xs) + 2 * pad) * U, (max(ys) - min(ys) + 2 * pad + top) * U
    box = f"{x0:.0f} {y0:.0f} {w:.0f} {h:.0f}"
    label = say(T("Sunda to Sahul layout"), lang)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-sunda" viewBox="{box}" data-view="{box}" '
           f'role="img" aria-label="{label}">',
           f'<rect x="{x0:.0f}" y="{y0:.0f}" width="{w:.0f}" height="{h:.0f}" fill="{TABLE}"/>']
    for p in pieces:
        title = T("{piece} at {q},{r} turn {turn}", piece=str(p["id"]), q=p["q"], r=p["r"], turn=p["turn"])
        out.append(f'<g class="piece" data-piece="{escape(str(p["id"]))}"><title>{say(title, lang)}</title>'
                   f'<polygon points="{_pts(p["corners"])}" fill="{WATER}" stroke="#3b7fb3" stroke-width="1"/>')
        for poly in p.get("land") or []:
            out.append(f'<polygon points="{_pts(poly)}" fill="{LAND}"/>')
        out.append("</g>")
    # coasts: the land/water lines inside each piece, drawn by the island's state
    for p in pieces:
        state = p.get("island")
        if state and p.get("land"):
            colour, dash = OUTLINE.get(state, OUTLINE["open"])
            d = "".join(_coast_path(poly, p["corners"]) for poly in p["land"])
            if d:
                out.append(f'<path class="coast coast-{state}" d="{d}" fill="none" stroke="{colour}" '
                           f'stroke-width="3" stroke-linejoin="round"{dash}/>')
    for p in pieces:
        if p.get("last"):
            out.append(f'<polygon class="last" points="{_pts(p["corners"])}" fill="none" stroke="#fff" '
                       f'stroke-width="3"/>')
    for n in view.get("nodes") or []:
        out.append(_node(n, players, lang))
    ch = view.get("challenge")
    if ch:
        (aq, ar), (dq, dr) = ch["attacker"], ch["defender"]
        ax, ay = (aq + ar / 2) * U, ar * 0.8660254 * U
        dx, dy = (dq + dr / 2) * U, dr * 0.8660254 * U
        out.append(f'<g class="challenge"><line x1="{ax:.1f}" y1="{ay:.1f}" x2="{dx:.1f}" y2="{dy:.1f}" '
                   f'stroke="#ff3b30" stroke-width="5" stroke-dasharray="10 6"/>'
                   f'<circle cx="{dx:.1f}" cy="{dy:.1f}" r="22" fill="none" stroke="#ff3b30" stroke-width="4"/></g>')
        size = max(14.0, w / 26)
        lines = (T("Challenge: {challenger} {attacker} v {defender} {defended}", challenger=ch["challenger"],
                   attacker=_at(aq, ar), defender=ch["defender_chief"], defended=_at(dq, dr)),
                 T("{odds} ({challenger_dice} v {defender_dice})", odds=ch["odds_text"],
                   challenger_dice=_dice(ch["challenger_dice"]), defender_dice=_dice(ch["defender_dice"])))
        for i, text in enumerate(lines):
            out.append(f'<text class="odds" x="{x0 + 10:.0f}" y="{y0 + (i + 1.1) * size * 1.25:.0f}" '
                       f'font-size="{size:.0f}" font-weight="800" fill="#ffd400" '
                       f'font-family="sans-serif">{say(text, lang)}</text>')
    if view.get("provisional"):
        words = say(T("provisional pieces"), lang)
        out.append(f'<text x="{x0 + w - 10:.0f}" y="{y0 + h - 10:.0f}" text-anchor="end" font-size="13" '
                   f'fill="#ffffffaa" font-family="sans-serif">{words}</text>')
    if not pieces:
        words = say(T("No piece laid yet: the first goes with c0 at 0,0"), lang)
        out.append(f'<text x="{x0 + w / 2:.0f}" y="{y0 + h / 2:.0f}" text-anchor="middle" font-size="16" '
                   f'fill="#fff" font-family="sans-serif">'
                   f'{words}</text>')
    out.append("</svg>")
    return "".join(out)
