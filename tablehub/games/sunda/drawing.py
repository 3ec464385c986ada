"""Hand-drawn Sunda positions (tests, docs pictures, examples): lattice points as text, pieces read off it.

Row ``r`` of the drawing is lattice row ``r``, character ``q`` is point ``(q, r)``:
``#`` land, ``.`` water, anything else no piece. Land is a disc of radius 0.6 round
each land point, so a side from point A to point B reads (A's terrain, L if either is
land, B's terrain), and a piece's land runs join across it when an obtuse corner is land.
Every cell ``(q, r)`` whose four points are drawn becomes one piece ``c{q}_{r}`` laid at
``(q, r)`` turn 0 (corners ``(q,r) (q+1,r) (q+1,r+1) (q,r+1)``), so the drawing can be laid back.
"""
from __future__ import annotations

from typing import Any, Iterable

from .lattice import corners
from .pieces import FORMAT

MARKERS = [{"id": m, "number": n} for m, n in
           (("red", 1), ("orange", 2), ("yellow", 3), ("green", 4), ("blue", 5), ("purple", 6))]


def points(rows: list[str]) -> dict[tuple[int, int], str]:
    out = {}
    for r, row in enumerate(rows):
        for q, ch in enumerate(row):
            if ch in "#.":
                out[(q, r)] = "L" if ch == "#" else "W"
    return out


def cells(rows: list[str]) -> list[tuple[int, int]]:
    pts = points(rows)
    return [(q, r) for (q, r) in sorted(pts, key=lambda p: (p[1], p[0]))
            if all(c in pts for c in corners(q, r, 0))]


def ring_of(pts: dict, q: int, r: int) -> tuple[str, str]:
    cs = corners(q, r, 0)
    ring = ""
    for k in range(4):
        a, b = pts[cs[k]], pts[cs[(k + 1) % 4]]
        ring += a + ("L" if "L" in (a, b) else "W") + b
    join = "land" if "L" in (pts[cs[1]], pts[cs[3]]) else "water"
    return ring, join


def piece_id(q: int, r: int) -> str:
    return f"c{q}_{r}"


def pieces(rows: list[str], extra: Iterable[dict] = ()) -> dict[str, Any]:
    """The inline pieces option for a drawing (plus ``extra`` piece objects)."""
    pts = points(rows)
    out = []
    for q, r in cells(rows):
        ring, join = ring_of(pts, q, r)
        d = {"id": piece_id(q, r), "sides": " ".join(ring[3 * k:3 * k + 3] for k in range(4))}
        if join == "land":
            d["join"] = "land"
        out.append(d)
    out.extend(extra)
    return {"format": FORMAT, "game": "sunda", "set": "drawn for a test", "provisional": False,
            "markers": MARKERS, "pieces": out}


def lay(ids: str) -> list[dict[str, Any]]:
    """``"c0_0 c1_0"`` -> place_piece actions at each cell, turn 0."""
    acts = []
    for pid in ids.split():
        q, r = (int(v) for v in pid[1:].split("_"))
        acts.append({"type": "place_piece", "piece": pid, "q": q, "r": r, "turn": 0})
    return acts


def expand(data: dict[str, Any]) -> dict[str, Any]:
    """A scenario with a ``drawing`` and ``{"lay": "..."}`` shorthands -> a plain scenario."""
    data = dict(data)
    if "drawing" in data:
        options = dict(data.get("options", {}))
        options["pieces"] = pieces(data.pop("drawing"), data.pop("extra_pieces", []))
        data["options"] = options
    actions = []
    for a in data["actions"]:
        if "lay" in a:
            actions.extend(lay(a["lay"]))
        else:
            actions.append(a)
    data["actions"] = actions
    return data


def play(rows: list[str], skip: Iterable[str] = (), players=("Ana", "Ben"), options=None, claim=(),
         extra: Iterable[dict] = ()):
    """Lay every cell of a drawing in reading order (but ``skip``), claiming the land nodes in
    ``claim`` with a pawn when they form, until the game ends. Returns the engine (not finished)."""
    from ..base import Setup
    from .engine import Sunda

    opts = dict(options or {})
    opts["pieces"] = pieces(rows, extra)
    game = Sunda(Setup("sunda", tuple(players), options=opts))
    claim = {tuple(c) for c in claim}
    for q, r in cells(rows):
        if piece_id(q, r) in skip:
            continue
        if game.game_over:
            break
        game.apply(game.parse_action(lay(piece_id(q, r))[0]))
        for pt in game.formed_land:
            if pt in claim:
                game.apply(game.parse_action({"type": "place_pawn", "q": pt[0], "r": pt[1]}))
                break
    return game
