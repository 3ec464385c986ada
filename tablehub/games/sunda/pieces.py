"""Sunda to Sahul's pieces and resource markers as data (format: docs/sunda.md, "The pieces file").

A piece is a rhombus (see :mod:`.lattice`) described in its own frame: four sides
clockwise from the acute corner ``c0``, each side three *slots* (near its start
corner, middle, near its end corner), each slot ``L`` (land) or ``W`` (water), as
the tile games' sides. Slots around the piece form a ring of 12; runs of equal
slots are the piece's coast pieces. When a piece has several runs of land, ``join``
says whether its land runs are one land region joined across the piece
(``"land"``) or separate land regions with the water joined between them
(``"water"``, the default). A corner is ``L`` or ``W`` when the two slots beside
it agree, else ``C`` (a coast ends at that lattice point).

``outline`` (optional) is the land to draw, polygons in the piece's frame (``c0``
at ``(0, 0)``, ``c1`` at ``(1, 0)``, unit sides, y downwards); when absent it is
drawn from the slots.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ...i18n import T, Text
from ...jsonfile import read_json
from ..base import SetupError

FORMAT = "tablehub-sunda-pieces/1"
DEFAULT_PIECES = Path(__file__).with_name("pieces.json")
PIECE_KEYS = {"id", "sides", "join", "outline", "note"}
PIECES_IN_A_BOX = 136
MARKERS_IN_A_BOX = 6
H = math.sqrt(3) / 2
#: the corners of a piece in its own frame (c0 at the origin, turn 0)
FRAME = ((0.0, 0.0), (1.0, 0.0), (1.5, H), (0.5, H))


class PiecesError(SetupError):
    """A pieces file that breaks the format: one line naming the file, the piece and the field."""


@dataclass
class Piece:
    index: int
    id: str
    ring: str                      # 12 slots, clockwise from c0 (side k = ring[3k:3k+3])
    join: str
    region_of: tuple[int, ...]     # slot -> region index
    regions: tuple[str, ...]       # region index -> "L" or "W"
    corners: str                   # 4 letters L/W/C, corner k between slots 3k-1 and 3k
    outline: tuple[tuple[tuple[float, float], ...], ...]
    note: str = ""
    side_codes: tuple[int, ...] = ()
    fit_memo: dict[tuple[int, ...], bool] = field(default_factory=dict)  # side requirement -> fits

    def __deepcopy__(self, memo: dict) -> "Piece":
        return self

    def side(self, k: int) -> str:
        return self.ring[3 * k:3 * k + 3]

    @property
    def land(self) -> int:
        """Land slots out of 12 (0: an all-water piece)."""
        return self.ring.count("L")

    def regions_at_corner(self, k: int) -> tuple[int, ...]:
        """The regions touching corner ``k`` (one, or two when a coast ends there)."""
        a, b = self.region_of[(3 * k - 1) % 12], self.region_of[3 * k]
        return (a,) if a == b else (a, b)


@dataclass(frozen=True)
class Marker:
    id: str
    number: int


@dataclass
class PieceSet:
    source: str
    name: str
    provisional: bool
    notes: list[str]
    pieces: list[Piece]
    markers: list[Marker]
    by_id: dict[str, Piece] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)
    marker_by_id: dict[str, Marker] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> "PieceSet":
        return self  # immutable once loaded

    def code(self, triple: str) -> int:
        c = self.codes.get(triple)
        if c is None:
            c = self.codes[triple] = len(self.codes) + 1
        return c

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": "sunda", "set": self.name, "provisional": self.provisional,
                "notes": self.notes,
                "markers": [{"id": m.id, "number": m.number} for m in self.markers],
                "pieces": [piece_to_dict(p) for p in self.pieces]}


def piece_to_dict(p: Piece) -> dict[str, Any]:
    d: dict[str, Any] = {"id": p.id, "sides": " ".join(p.side(k) for k in range(4))}
    if p.join != "water":
        d["join"] = p.join
    d["outline"] = [[[round(x, 3), round(y, 3)] for x, y in poly] for poly in p.outline]
    if p.note:
        d["note"] = p.note
    return d


def runs(ring: str) -> list[tuple[int, int]]:
    """Runs of equal slots around the ring as (first slot, length), first run starting after a change."""
    if len(set(ring)) == 1:
        return [(0, 12)]
    start = next(i for i in range(12) if ring[i] != ring[i - 1])
    out = []
    i = start
    while len(out) == 0 or i % 12 != start:
        j = i
        while ring[(j + 1) % 12] == ring[i % 12] and (j + 1) % 12 != start:
            j += 1
        out.append((i % 12, j - i + 1))
        i = j + 1
    return out


def regions_of(ring: str, join: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Slot -> region and region terrains, from the runs and how they join."""
    region_of = [0] * 12
    terrains: list[str] = []
    joined: dict[str, int] = {}
    for start, length in runs(ring):
        t = ring[start]
        if (t == "L") == (join == "land"):  # the joined terrain: one region for all its runs
            if t not in joined:
                joined[t] = len(terrains)
                terrains.append(t)
            r = joined[t]
        else:
            r = len(terrains)
            terrains.append(t)
        for k in range(length):
            region_of[(start + k) % 12] = r
    return tuple(region_of), tuple(terrains)


def slot_point(slot: int, t: float) -> tuple[float, float]:
    """A point on the piece's border: ``t`` in 0..1 along slot ``slot``'s third of its side."""
    k, j = divmod(slot, 3)
    a, b = FRAME[k], FRAME[(k + 1) % 4]
    f = (j + t) / 3
    return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f


def default_outline(ring: str, join: str) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Land polygons drawn from the slots: each land run follows the border and closes through the inside."""
    if "L" not in ring:
        return ()
    if "W" not in ring:
        return (FRAME,)
    cx, cy = 0.75, H / 2
    region_of, terrains = regions_of(ring, join)
    polys = []
    for r, t in enumerate(terrains):
        if t != "L":
            continue
        pts: list[tuple[float, float]] = []
        for start, length in runs(ring):
            if region_of[start] != r:
                continue
            pts.append(slot_point(start, 0.25) if ring[start - 1] == "W" else slot_point(start, 0.0))
            for s in range(start, start + length):
                if s % 3 == 0 and s != start:
                    pts.append(FRAME[(s % 12) // 3])
                pts.append(slot_point(s % 12, 0.5))
            end = (start + length - 1) % 12
            pts.append(slot_point(end, 0.75))
            inner = 0.45 if join == "land" and terrains.count("L") == 1 and len(runs(ring)) > 2 else 0.6
            ex, ey = pts[-1]
            sx, sy = pts[0]
            mx, my = (ex + sx) / 2, (ey + sy) / 2
            pts.append((mx + (cx - mx) * inner, my + (cy - my) * inner))
        polys.append(tuple((round(x, 3), round(y, 3)) for x, y in pts))
    return tuple(polys)


def _err(source: str, where: Any, msg: Text) -> PiecesError:
    """One line: the file, the place in it (a field path or a piece) and what was expected."""
    return PiecesError(T("{source}: {where}: {problem}", source=source, where=where, problem=msg) if where else
                       T("{source}: {problem}", source=source, problem=msg))


def _piece_named(pid: str) -> Text:
    return T("piece {piece}", piece=pid)


def build_piece(index: int, pd: Any, source: str, field: str = "pieces") -> Piece:
    where: Any = f"{field}[{index}]"
    if not isinstance(pd, Mapping):
        raise _err(source, where, T("each piece is an object like {example}",
                                    example='{"id": "s001", "sides": "LLL LWW WWW WWL"}'))
    pid = pd.get("id")
    if not isinstance(pid, str) or not pid.strip():
        raise _err(source, where, T("field 'id' must be a non-empty string"))
    where = _piece_named(pid)
    extra = set(pd) - PIECE_KEYS
    if extra:
        raise _err(source, where, T("unknown field(s) {fields} (known: {known})", fields=", ".join(sorted(extra)),
                                    known=", ".join(sorted(PIECE_KEYS))))
    sides = pd.get("sides")
    ring = "".join(sides.split()) if isinstance(sides, str) else None
    if ring is None or len(ring) != 12 or set(ring) - {"L", "W"}:
        raise _err(source, where, T("field 'sides' must be 4 sides of 3 slots, L (land) or W (water), clockwise "
                                    "from the acute corner, like {example}; got {sides}",
                                    example='"LLL LWW WWW WWL"', sides=repr(sides)))
    join = pd.get("join", "water")
    if join not in ("land", "water"):
        raise _err(source, where, T("field 'join' must be \"land\" or \"water\", got {join}", join=repr(join)))
    region_of, terrains = regions_of(ring, join)
    corners = "".join(ring[3 * k] if ring[3 * k] == ring[3 * k - 1] else "C" for k in range(4))
    outline_data = pd.get("outline")
    if outline_data is None:
        outline = default_outline(ring, join)
    else:
        if not isinstance(outline_data, list):
            raise _err(source, where, T("field 'outline' must be a list of polygons, each a list of [x, y] points"))
        polys = []
        for i, poly in enumerate(outline_data):
            ok = isinstance(poly, list) and len(poly) >= 3 and all(
                isinstance(pt, list) and len(pt) == 2 and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and -0.01 <= v <= 1.51 for v in pt)
                for pt in poly)
            if not ok:
                raise _err(source, where, T("outline[{index}] must be at least 3 [x, y] points inside the piece "
                                            "(x 0-1.5, y 0-0.87)", index=i))
            polys.append(tuple((float(x), float(y)) for x, y in poly))
        outline = tuple(polys)
    note = pd.get("note", "")
    if not isinstance(note, str):
        raise _err(source, where, T("field 'note' must be a string"))
    return Piece(index, pid, ring, join, region_of, terrains, corners, outline, note)


def build_piece_set(data: Any, source: str = "<pieces>", field: str = "pieces") -> PieceSet:
    """Validate a parsed pieces file (``field``: how an error names the pieces list)."""
    if not isinstance(data, Mapping):
        raise _err(source, "", T("a pieces file is a JSON object with 'format', 'game', 'markers' and 'pieces'"))
    if data.get("format") != FORMAT:
        raise _err(source, "", T("field 'format' must be {format}, got {value}", format=repr(FORMAT),
                                 value=repr(data.get("format"))))
    if data.get("game") != "sunda":
        raise _err(source, "", T("field 'game' must be \"sunda\", got {value}", value=repr(data.get("game"))))
    extra = set(data) - {"format", "game", "set", "provisional", "notes", "markers", "pieces"}
    if extra:
        raise _err(source, "", T("unknown field(s) {fields}", fields=", ".join(sorted(extra))))
    provisional = data.get("provisional", False)
    if not isinstance(provisional, bool):
        raise _err(source, "", T("field 'provisional' must be true or false, got {value}", value=repr(provisional)))
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise _err(source, "", T("field 'notes' must be a list of strings"))
    markers_data = data.get("markers")
    if not isinstance(markers_data, list) or len(markers_data) != MARKERS_IN_A_BOX:
        raise _err(source, "", T("field 'markers' must list the {count} resource markers, like {example}",
                                 count=MARKERS_IN_A_BOX, example='{"id": "red", "number": 1}'))
    markers = []
    for i, md in enumerate(markers_data):
        if not isinstance(md, Mapping) or set(md) != {"id", "number"} or not isinstance(md["id"], str) \
                or not md["id"] or isinstance(md["number"], bool) or not isinstance(md["number"], int) \
                or md["number"] < 1:
            raise _err(source, f"markers[{i}]", T("must be {{\"id\": NAME, \"number\": a whole number >= 1}}"))
        if any(m.id == md["id"] for m in markers):
            raise _err(source, f"markers[{i}]", T("duplicate marker id {marker}", marker=repr(md["id"])))
        markers.append(Marker(md["id"], md["number"]))
    pieces_data = data.get("pieces")
    if not isinstance(pieces_data, list) or not pieces_data:
        raise _err(source, "", T("field 'pieces' must be a non-empty list"))
    pieces: list[Piece] = []
    by_id: dict[str, Piece] = {}
    for i, pd in enumerate(pieces_data):
        p = build_piece(i, pd, source, field)
        if p.id in by_id:
            raise _err(source, _piece_named(p.id), T("duplicate piece id"))
        by_id[p.id] = p
        pieces.append(p)
    ps = PieceSet(source, str(data.get("set", "")), provisional, list(notes), pieces, markers, by_id)
    ps.marker_by_id = {m.id: m for m in markers}
    for p in pieces:
        p.side_codes = tuple(ps.code(p.side(k)) for k in range(4))
    return ps


_CACHE: dict[str, PieceSet] = {}


def load_pieces(option: Any = None) -> PieceSet:
    """The pieces a game plays with: the packaged provisional set (``None``), a path to a pieces
    JSON file, or the pieces object itself."""
    if option is None:
        option = str(DEFAULT_PIECES)
    if isinstance(option, Mapping):
        return build_piece_set(option, "option 'pieces'")
    if not isinstance(option, (str, Path)):
        raise PiecesError(T("sunda: option 'pieces' must be a path to a pieces JSON file or a pieces object, got "
                            "{value}", value=repr(option)))
    key = str(Path(option).resolve())
    cached = _CACHE.get(key)
    if cached is None:
        data, source = read_json(option, PiecesError, "Sunda pieces file")
        cached = _CACHE[key] = build_piece_set(data, source)
    return cached
