"""The Karibik board as an SVG picture, drawn from ``game.view()`` (``{"kind": "karibik", ...}``).

Board millimetres are the picture's units. Sea spaces are their polygons (or discs round their
centres) and carry ``data-space`` so that a tap adds the space to the ``path`` of the move form;
land is sand; ports show their town's name and the chests lying face up there (gold, value in
thousands), a town whose chest was safeguarded shows it face down (dark); hideouts are filled
in their colour (hatched grey edge when neutral); skull spaces show a skull. Ships are hulls
marked with their initial, the chest aboard on the stern; the moving ship is outlined in
yellow, the path just sailed is a dashed line, the spaces still reachable are outlined.
Provisional boards say so across the top. Every word is rendered in ``lang`` (the reader's).

>>> svg = karibik_svg({"kind": "karibik", "size": [100, 60], "spaces": [
...     {"id": 1, "center": [20, 30], "polygon": [], "port": None, "hideout": None, "owner": None,
...      "skull": True, "ship": "Arriba", "reachable": False}], "ships": [
...     {"ship": "Arriba", "space": 1, "chest": None, "value": None, "moving": False}]}, {}, lang="de")
>>> svg.startswith("<svg") and 'data-space="1"' in svg and "Arriba" in svg, "Totenkopf" in svg
(True, True)
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping, Sequence

from tablehub.games.karibik.board import COLOUR_WORDS
from tablehub.games.karibik.engine import money
from tablehub.i18n import T, Tc, Tn

from .board_svg import drawer, say
from .present import colour_css

SEA = "#2f80b7"
LAND = "#e3cf96"
PORT = "#f6f1e3"
FACE_UP = "#f2c230"
FACE_DOWN = "#5a3d1e"


def _points(poly: Sequence[Sequence[float]]) -> str:
    return " ".join(f"{p[0]:.1f},{p[1]:.1f}" for p in poly)


def hideout_words(colour: str) -> Any:
    """``"green hideout"`` in the reader's language (the engine's hideout colours)."""
    return T("{colour} hideout", colour=COLOUR_WORDS.get(colour, colour))


def _space(s: Mapping[str, Any], colours: Mapping[str, str], lang: str | None = None) -> str:
    sid = int(s["id"])
    cx, cy = (float(v) for v in s["center"])
    fill, stroke, width, extra = "#3a8fc6", "#cfe8f7", 0.6, ""
    title: Any = Tc("karibik", "space {space}", space=sid)
    if s.get("port"):
        fill = PORT
        title = T("{space}: {what}", space=title, what=T("port of {town}", town=s["port"]))
    if s.get("hideout"):
        owner = s.get("owner")
        fill = colour_css(s["hideout"])
        whose = T("{player}'s", player=owner) if owner else T("neutral")
        title = T("{space}: {what}, {whose}", space=title, what=hideout_words(s["hideout"]), whose=whose)
        if not owner:
            extra = ' fill-opacity="0.45"'
    if s.get("skull"):
        title = T("{space}: {what}", space=title, what=T("skull (start)"))
    if s.get("reachable"):
        stroke, width = "#ffd400", 1.6
        title = T("{space}: {what}", space=title, what=T("reachable"))
    poly = s.get("polygon") or []
    if poly:
        shape = (f'<polygon points="{_points(poly)}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"'
                 f'{extra} stroke-linejoin="round"/>')
    else:
        shape = (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="9" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{width}"{extra}/>')
    cls = "space" + (" reachable" if s.get("reachable") else "")
    marks = []
    if s.get("skull"):
        marks.append(f'<text x="{cx:.1f}" y="{cy + 3.5:.1f}" text-anchor="middle" font-size="10" fill="#10324a" '
                     f'opacity="0.7">☠</text>')
    if s.get("hideout"):
        marks.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" font-size="8" fill="#111" '
                     f'font-family="sans-serif" opacity="0.8">⌂</text>')
    marks.append(f'<text x="{cx:.1f}" y="{cy - 6:.1f}" text-anchor="middle" font-size="4.2" fill="#0b2236" '
                 f'font-family="sans-serif" opacity="0.75">{sid}</text>')
    return (f'<g class="{cls}" data-space="{sid}"><title>{say(title, lang)}</title>{shape}{"".join(marks)}</g>')


def _chest(x: float, y: float, value: int | None, face_up: bool, label: str) -> str:
    """A chest; ``label``: its title, already in the reader's language and escaped."""
    fill = FACE_UP if face_up else FACE_DOWN
    text = f"{value // 1000}" if face_up and value else "✓"
    colour = "#111" if face_up else "#f6f1e3"
    return (f'<g class="chest {"face-up" if face_up else "face-down"}"><title>{label}</title>'
            f'<rect x="{x - 5:.1f}" y="{y - 4:.1f}" width="10" height="8" rx="1.5" fill="{fill}" stroke="#3b2a10" '
            f'stroke-width="0.8"/><text x="{x:.1f}" y="{y + 2.6:.1f}" text-anchor="middle" font-size="6.5" '
            f'font-weight="800" fill="{colour}" font-family="sans-serif">{text}</text></g>')


def _town(t: Mapping[str, Any], lang: str | None = None) -> str:
    x, y = (float(v) for v in t["at"])
    name = str(t["name"])
    title = say(T("{town}: chest {value}", town=name, value=money(int(t["value"]))), lang)
    out = [f'<g class="town"><title>{title}</title>'
           f'<text x="{x:.1f}" y="{y + 12:.1f}" text-anchor="middle" font-size="6" font-weight="700" '
           f'fill="#3b2a10" font-family="sans-serif" paint-order="stroke" stroke="{LAND}" stroke-width="1.6">'
           f'{escape(name)}</text>']
    chests = list(t.get("face_up") or [])
    for k, c in enumerate(chests):
        label = say(T("face up in {town}: the {value} chest of {chest}", town=name, value=money(int(c["value"])),
                      chest=c["chest"]), lang)
        out.append(_chest(x + (k - (len(chests) - 1) / 2) * 11, y, int(c["value"]), True, label))
    if t.get("secured"):
        out.append(_chest(x + 6 * len(chests) + (6 if chests else 0), y, None, False,
                          say(T("the chest of {town} is safeguarded (face down)", town=name), lang)))
    out.append("</g>")
    return "".join(out)


def _ship(s: Mapping[str, Any], centres: Mapping[int, tuple[float, float]], lang: str | None = None) -> str:
    if s.get("space") is None or int(s["space"]) not in centres:
        return ""
    x, y = centres[int(s["space"])]
    name = str(s["ship"])
    stroke = "#ffd400" if s.get("moving") else "#1b1b1b"
    hull = (f'<path d="M {x - 10:.1f} {y - 1:.1f} L {x + 10:.1f} {y - 1:.1f} L {x + 6:.1f} {y + 6:.1f} '
            f'L {x - 6:.1f} {y + 6:.1f} Z" fill="#7a4b22" stroke="{stroke}" '
            f'stroke-width="{2 if s.get("moving") else 0.8}"/>'
            f'<path d="M {x:.1f} {y - 1:.1f} L {x:.1f} {y - 13:.1f} L {x + 7:.1f} {y - 4:.1f} Z" fill="#f4f4f4" '
            f'stroke="#333" stroke-width="0.5"/>'
            f'<text x="{x - 4:.1f}" y="{y - 3:.1f}" text-anchor="middle" font-size="7" font-weight="900" '
            f'fill="#fff" stroke="#000" stroke-width="0.4" font-family="sans-serif">{escape(name[0])}</text>')
    title = say(T("{ship} on space {space}, carrying the {value} chest of {chest}", ship=name, space=s["space"],
                  value=money(int(s["value"])), chest=s["chest"]) if s.get("chest") else
                T("{ship} on space {space}, empty", ship=name, space=s["space"]), lang)
    chest = _chest(x + 9, y + 5, int(s["value"]), True, title) if s.get("chest") else ""
    return f'<g class="ship" data-ship="{escape(name)}"><title>{title}</title>{hull}{chest}</g>'


@drawer("karibik")
def karibik_svg(view: Mapping[str, Any], players: Mapping[str, Mapping[str, str]], lang: str | None = None,
                **_: Any) -> str:
    """SVG text for a Karibik view in ``lang``. ``players`` maps a player name to ``{"css", "colour"}``."""
    w, h = (float(v) for v in (view.get("size") or [600, 420]))
    pad = 8
    box = f"{-pad} {-pad} {w + 2 * pad:.0f} {h + 2 * pad:.0f}"
    label = say(T("Karibik board"), lang)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-karibik" viewBox="{box}" data-view="{box}" '
           f'role="img" aria-label="{label}">',
           f'<rect x="{-pad}" y="{-pad}" width="{w + 2 * pad:.0f}" height="{h + 2 * pad:.0f}" rx="6" fill="#174a6e"/>',
           f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="{SEA}"/>']
    for poly in view.get("land") or []:
        out.append(f'<polygon points="{_points(poly)}" fill="{LAND}" stroke="{LAND}" stroke-width="0.8"/>')
    colours = dict(view.get("colours") or {})
    centres: dict[int, tuple[float, float]] = {}
    for s in view.get("spaces") or []:
        centres[int(s["id"])] = (float(s["center"][0]), float(s["center"][1]))
        out.append(_space(s, colours, lang))
    path = view.get("path")
    if path and len(path.get("spaces") or []) > 1:
        pts = [centres[int(p)] for p in path["spaces"] if int(p) in centres]
        sailed = say(Tn("{ship} sailed {n} space", "{ship} sailed {n} spaces", len(pts) - 1,
                        ship=str(path.get("ship"))), lang)
        out.append(f'<polyline class="path" points="{_points(pts)}" fill="none" stroke="#ffd400" stroke-width="2.2" '
                   f'stroke-dasharray="4 3" stroke-linecap="round" stroke-linejoin="round">'
                   f'<title>{sailed}</title></polyline>')
    for t in view.get("towns") or []:
        out.append(_town(t, lang))
    for k, pile in enumerate(view.get("piles") or []):
        x, y = (float(v) for v in pile["at"])
        if pile.get("full"):
            title = say(T("pile {n}: 2 chests face down", n=k + 1), lang)
            out.append(f'<g class="pile"><title>{title}</title>'
                       f'<rect x="{x - 6:.1f}" y="{y - 7:.1f}" width="12" height="9" rx="1.5" fill="{FACE_DOWN}"/>'
                       f'<rect x="{x - 5:.1f}" y="{y - 3:.1f}" width="12" height="9" rx="1.5" fill="{FACE_DOWN}" '
                       f'stroke="#f6f1e3" stroke-width="0.5"/></g>')
        else:
            title = say(T("pile {n}: turned up", n=k + 1), lang)
            out.append(f'<rect class="pile-empty" x="{x - 6:.1f}" y="{y - 5:.1f}" width="12" height="10" rx="1.5" '
                       f'fill="none" stroke="#3b2a10" stroke-dasharray="2 2">'
                       f'<title>{title}</title></rect>')
    for s in view.get("ships") or []:
        out.append(_ship(s, centres, lang))
    if view.get("provisional"):
        words = say(T("PROVISIONAL BOARD (invented map, real counts)"), lang)
        out.append(f'<text x="{w / 2:.1f}" y="{-1.5:.1f}" text-anchor="middle" font-size="6" fill="#ffd400" '
                   f'font-family="sans-serif">{words}</text>')
    out.append("</svg>")
    return "".join(out)
