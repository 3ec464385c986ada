"""The Karibik board as data: sea spaces, their adjacency, the 16 port towns with their chests,
the 12 hideouts, the 6 skull start spaces and where the 5 chest piles lie.

The rule book gives none of this (its pictures were lost and the board's graph is not public),
so the engine reads a board file (format in docs/karibik.md). ``board.json`` beside this module
is a **provisional** board with the right counts on an invented map (made by
:mod:`.provisional`); an owner passes their own board as the option ``board`` (a path to a JSON
file of the same shape, or that object inline). Coordinates are board millimetres, x to the
right and y down from the top-left corner.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from ...i18n import T, Tc, Text
from ...jsonfile import read_json
from ..base import SetupError

DEFAULT_BOARD = Path(__file__).with_name("board.json")
#: boards shipped with the package, by name (the option ``board`` may name one)
PACKAGED = {"provisional": DEFAULT_BOARD, "grid": Path(__file__).with_name("grid_board.json")}
TOWNS = 16
HIDEOUTS_PER_COLOUR = 3
COLOURS = 4
SKULLS = 6
PILES = 5
CHEST_MIN, CHEST_MAX = 4000, 8000

Point = tuple[float, float]

#: the player colours the German edition prints, in the reader's language (a board may name others:
#: they are kept as written)
COLOUR_WORDS = {"red": Tc("karibik", "red"), "blue": Tc("karibik", "blue"), "green": Tc("karibik", "green"),
                "yellow": Tc("karibik", "yellow"), "black": Tc("karibik", "black"), "white": Tc("karibik", "white")}


def colour_word(colour: str) -> Text | str:
    """A hideout's colour as people read it (``"red"``, ``"rouge"``, ``"rot"``)."""
    return COLOUR_WORDS.get(colour, colour)


class BoardError(SetupError):
    """A board file that cannot be used: one line naming the file and the field."""


@dataclass(frozen=True)
class Town:
    name: str
    chest: int  # the value of this town's chest, in doubloons
    port: int  # the sea space that is this town's port
    at: Point  # where the town is drawn


@dataclass(frozen=True)
class Board:
    """A checked board. ``neighbours[s]`` lists the spaces adjacent to space ``s``."""

    name: str
    provisional: bool
    source: str
    size: Point
    centres: Mapping[int, Point]
    polygons: Mapping[int, tuple[Point, ...]]
    neighbours: Mapping[int, tuple[int, ...]]
    towns: tuple[Town, ...]
    hideouts: Mapping[int, str]  # space -> colour
    skulls: tuple[int, ...]
    piles: tuple[Point, ...]
    colours: tuple[str, ...]
    land: tuple[tuple[Point, ...], ...] = ()

    def __deepcopy__(self, memo: dict) -> "Board":
        return self  # immutable: game copies share it

    @property
    def spaces(self) -> tuple[int, ...]:
        return tuple(self.centres)

    def town(self, name: str) -> Town | None:
        for t in self.towns:
            if t.name == name:
                return t
        return None

    def port_town(self, space: int) -> Town | None:
        """The town whose port is ``space`` (``None`` on open sea)."""
        return self._ports.get(space)

    @property
    def _ports(self) -> dict[int, Town]:
        cached = self.__dict__.get("_port_cache")
        if cached is None:
            cached = {t.port: t for t in self.towns}
            object.__setattr__(self, "_port_cache", cached)
        return cached

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours.get(a, ())

    def space_name(self, space: int) -> Text:
        """``"space 12"``, ``"space 12 (port of Tortuga)"`` or ``"space 40 (red hideout)"``."""
        town = self.port_town(space)
        if town is not None:
            return Tc("karibik", "space {space} (port of {town})", space=space, town=town.name)
        if space in self.hideouts:
            return Tc("karibik", "space {space} ({colour} hideout)", space=space,
                      colour=colour_word(self.hideouts[space]))
        return Tc("karibik", "space {space}", space=space)

    def reachable(self, start: int, steps: int, blocked: Iterable[int] = ()) -> dict[int, int]:
        """Every space a ship on ``start`` can end on within ``steps`` moves without entering a
        space in ``blocked``, with its distance (``start`` itself at 0)."""
        blocked = set(blocked) - {start}
        dist = {start: 0}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            if dist[s] == steps:
                continue
            for n in self.neighbours[s]:
                if n not in dist and n not in blocked:
                    dist[n] = dist[s] + 1
                    queue.append(n)
        return dist

    def shortest_path(self, start: int, goal: int, blocked: Iterable[int] = ()) -> list[int] | None:
        """The spaces entered from ``start`` to ``goal`` by a shortest free way (``None`` if none)."""
        blocked = set(blocked) - {start}
        prev: dict[int, int] = {start: start}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            if s == goal:
                path = []
                while s != start:
                    path.append(s)
                    s = prev[s]
                return path[::-1]
            for n in self.neighbours[s]:
                if n not in prev and n not in blocked:
                    prev[n] = s
                    queue.append(n)
        return None

    def printed(self) -> dict[str, Any]:
        """What the printed board shows, as plain geometry for a renderer (``vision.boards.render_board``
        arguments): the sea spaces' outlines, land, a flag on each hideout, the space numbers and
        the town names."""
        outline = {s: self.polygons.get(s) or _disc(self.centres[s], 12.0) for s in self.centres}
        return {
            "size_mm": self.size,
            "spaces": [outline[s] for s in self.centres],
            "land": list(self.land),
            "marks": [(*self.centres[s], (40, 40, 200)) for s in self.hideouts],
            "labels": [(x, y + 8, str(s)) for s, (x, y) in self.centres.items()]
                      + [(t.at[0], t.at[1], t.name) for t in self.towns],
        }

    def to_dict(self) -> dict[str, Any]:
        pairs = sorted({(min(a, b), max(a, b)) for a, ns in self.neighbours.items() for b in ns})
        return {
            "name": self.name, "provisional": self.provisional, "size_mm": list(self.size),
            "colours": list(self.colours),
            "spaces": [{"id": s, "center": list(self.centres[s]),
                        **({"polygon": [list(p) for p in self.polygons[s]]} if s in self.polygons else {})}
                       for s in self.centres],
            "adjacency": [list(p) for p in pairs],
            "towns": [{"name": t.name, "chest": t.chest, "port": t.port, "at": list(t.at)} for t in self.towns],
            "hideouts": [{"space": s, "colour": c} for s, c in self.hideouts.items()],
            "skulls": list(self.skulls),
            "piles": [list(p) for p in self.piles],
            "land": [[list(p) for p in poly] for poly in self.land],
        }


def _disc(centre: Point, r: float) -> tuple[Point, ...]:
    """A hexagon of radius ``r`` round ``centre`` (an outline for a space given by its centre only)."""
    import math

    return tuple((centre[0] + r * math.cos(math.pi * k / 3), centre[1] + r * math.sin(math.pi * k / 3))
                 for k in range(6))


# --------------------------------------------------------------------------- the loader


def _at(where: Any, field: str) -> Any:
    """``where`` (a file, or a field in it) and then ``field``: ``"my_board.json: towns[2]"``
    (a :class:`Text` when ``where`` is one, so the traced board's name reads in each language)."""
    sep = "" if field.startswith(("[", ".")) else ": "
    return T("{where}{sep}{field}", where=where, sep=sep, field=field) if isinstance(where, Text) else \
        f"{where}{sep}{field}"


def _point(value: Any, where: Any) -> Point:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise BoardError(T("{where} must be a point [x, y] in millimetres, got {value}", where=where,
                           value=repr(value)))
    return float(value[0]), float(value[1])


def _polygon(value: Any, where: Any) -> tuple[Point, ...]:
    if not isinstance(value, list) or len(value) < 3:
        raise BoardError(T("{where} must be a list of at least 3 points [x, y], got {value}", where=where,
                           value=repr(value)))
    return tuple(_point(p, _at(where, f"[{i}]")) for i, p in enumerate(value))


def _list(data: Mapping[str, Any], key: str, source: Any, n: int | None = None) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise BoardError(T("{source}: '{key}' must be a list, got {value}", source=source, key=key, value=repr(value)))
    if n is not None and len(value) != n:
        raise BoardError(T("{source}: '{key}' must list {count} items, got {got}", source=source, key=key, count=n,
                           got=len(value)))
    return value


def _space(value: Any, known: Mapping[int, Any], where: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in known:
        raise BoardError(T("{where} must be the id of a space of the board, got {value}", where=where,
                           value=repr(value)))
    return value


def board_from_dict(data: Any, source: Any) -> Board:
    """Check a board description (format in docs/karibik.md); one-line :class:`BoardError`s.
    ``source`` names it in them (a path; a :class:`Text` where it is words)."""
    if not isinstance(data, Mapping):
        raise BoardError(T("{source}: a Karibik board is an object with 'spaces', 'adjacency', 'towns', 'hideouts', "
                           "'skulls' and 'piles'", source=source))
    if data.get("draft"):
        raise BoardError(T("{source}: a traced draft: fill in its {towns} towns, {hideouts} hideouts, {skulls} skulls "
                           "and {piles} piles (docs/karibik.md), then remove 'draft'", source=source, towns=TOWNS,
                           hideouts=HIDEOUTS_PER_COLOUR * COLOURS, skulls=SKULLS, piles=PILES))
    size = _point(data.get("size_mm"), _at(source, "'size_mm'"))
    colours = _list(data, "colours", source, COLOURS)
    if not all(isinstance(c, str) and c for c in colours) or len(set(colours)) != COLOURS:
        raise BoardError(T("{source}: 'colours' must name {count} distinct player colours, got {value}", source=source,
                           count=COLOURS, value=repr(colours)))
    centres: dict[int, Point] = {}
    polygons: dict[int, tuple[Point, ...]] = {}
    for i, sp in enumerate(_list(data, "spaces", source)):
        where = _at(source, f"spaces[{i}]")
        if not isinstance(sp, Mapping):
            raise BoardError(T("{where} must be an object like {example}", where=where,
                               example='{"id": 1, "center": [x, y]}'))
        sid = sp.get("id")
        if isinstance(sid, bool) or not isinstance(sid, int) or sid < 0:
            raise BoardError(T("{where}.id must be a whole number >= 0, got {value}", where=where, value=repr(sid)))
        if sid in centres:
            raise BoardError(T("{where}.id {id} is used twice", where=where, id=sid))
        if "polygon" in sp:
            polygons[sid] = _polygon(sp["polygon"], _at(where, ".polygon"))
        if "center" in sp:
            centres[sid] = _point(sp["center"], _at(where, ".center"))
        elif sid in polygons:
            pts = polygons[sid]
            centres[sid] = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        else:
            raise BoardError(T("{where} needs a 'center' [x, y] or a 'polygon'", where=where))
    if not centres:
        raise BoardError(T("{source}: 'spaces' is empty", source=source))
    neighbours: dict[int, set[int]] = {s: set() for s in centres}
    for i, pair in enumerate(_list(data, "adjacency", source)):
        where = _at(source, f"adjacency[{i}]")
        if not isinstance(pair, list) or len(pair) != 2:
            raise BoardError(T("{where} must be a pair of space ids [a, b], got {value}", where=where,
                               value=repr(pair)))
        a = _space(pair[0], centres, _at(where, "[0]"))
        b = _space(pair[1], centres, _at(where, "[1]"))
        if a == b:
            raise BoardError(T("{where}: a space is not adjacent to itself ({space})", where=where, space=a))
        neighbours[a].add(b)
        neighbours[b].add(a)
    first = next(iter(centres))
    seen = {first}
    queue = deque([first])
    while queue:
        for n in neighbours[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    if len(seen) != len(centres):
        cut = sorted(set(centres) - seen)[:5]
        raise BoardError(T("{source}: 'adjacency' leaves spaces unreachable from space {space} (e.g. {cut})",
                           source=source, space=first, cut=str(cut)))
    towns: list[Town] = []
    ports: set[int] = set()
    for i, t in enumerate(_list(data, "towns", source, TOWNS)):
        where = _at(source, f"towns[{i}]")
        if not isinstance(t, Mapping):
            raise BoardError(T("{where} must be an object like {example}", where=where,
                               example='{"name": "Tortuga", "chest": 7000, "port": 12, "at": [x, y]}'))
        name = t.get("name")
        if not isinstance(name, str) or not name.strip():
            raise BoardError(T("{where}.name must be the town's name, got {value}", where=where, value=repr(name)))
        if any(o.name == name for o in towns):
            raise BoardError(T("{where}.name {name} is used twice", where=where, name=repr(name)))
        chest = t.get("chest")
        if isinstance(chest, bool) or not isinstance(chest, int) or not CHEST_MIN <= chest <= CHEST_MAX:
            raise BoardError(T("{where}.chest must be the chest's value, {least} to {most} doubloons, got {value}",
                               where=where, least=CHEST_MIN, most=CHEST_MAX, value=repr(chest)))
        port = _space(t.get("port"), centres, _at(where, ".port"))
        if port in ports:
            raise BoardError(T("{where}.port: space {space} is already another town's port", where=where, space=port))
        ports.add(port)
        at = _point(t["at"], _at(where, ".at")) if "at" in t else centres[port]
        towns.append(Town(name, chest, port, at))
    hideouts: dict[int, str] = {}
    for i, h in enumerate(_list(data, "hideouts", source, HIDEOUTS_PER_COLOUR * COLOURS)):
        where = _at(source, f"hideouts[{i}]")
        if not isinstance(h, Mapping):
            raise BoardError(T("{where} must be an object like {example}", where=where,
                               example='{"space": 5, "colour": "%s"}' % colours[0]))
        space = _space(h.get("space"), centres, _at(where, ".space"))
        if space in hideouts:
            raise BoardError(T("{where}.space: space {space} is already a hideout", where=where, space=space))
        if space in ports:
            raise BoardError(T("{where}.space: space {space} is a port, not a hideout", where=where, space=space))
        colour = h.get("colour")
        if colour not in colours:
            raise BoardError(T("{where}.colour must be one of {colours}, got {value}", where=where,
                               colours=", ".join(colours), value=repr(colour)))
        hideouts[space] = colour
    for c in colours:
        n = sum(1 for v in hideouts.values() if v == c)
        if n != HIDEOUTS_PER_COLOUR:
            raise BoardError(T("{source}: 'hideouts' must give each colour {count} hideouts; {colour} has {got}",
                               source=source, count=HIDEOUTS_PER_COLOUR, colour=colour_word(c), got=n))
    skulls: list[int] = []
    for i, s in enumerate(_list(data, "skulls", source, SKULLS)):
        where = _at(source, f"skulls[{i}]")
        space = _space(s, centres, where)
        if space in skulls:
            raise BoardError(T("{where}: space {space} is listed twice", where=where, space=space))
        if space in ports or space in hideouts:
            raise BoardError(T("{where}: space {space} is a port or a hideout, not open sea", where=where,
                               space=space))
        skulls.append(space)
    piles = tuple(_point(p, _at(source, f"piles[{i}]")) for i, p in enumerate(_list(data, "piles", source, PILES)))
    land = tuple(_polygon(p, _at(source, f"land[{i}]")) for i, p in enumerate(data.get("land") or []))
    provisional = data.get("provisional", False)
    if not isinstance(provisional, bool):
        raise BoardError(T("{source}: 'provisional' must be true or false, got {value}", source=source,
                           value=repr(provisional)))
    return Board(str(data.get("name", source)), provisional, str(source), size, centres, polygons,
                 {s: tuple(sorted(ns)) for s, ns in neighbours.items()}, tuple(towns), hideouts,
                 tuple(skulls), piles, tuple(colours), land)


def draft_board(size: tuple[float, float], polygons: list[list[tuple[float, float]]],
                centres: list[tuple[float, float]], adjacency: list[tuple[int, int]],
                colours: tuple[str, ...] = ("red", "blue", "green", "yellow")) -> dict[str, Any]:
    """A board file drafted from traced geometry (``tablehub board trace``): the spaces, numbered
    from 1 in reading order, and their adjacency; towns, hideouts, skulls and piles left for the
    owner to fill in (``"draft"`` says so, and the loader refuses the file until they have)."""
    rows = max(1.0, size[1] / 12)  # reading order: bands of about a twelfth of the board's height
    order = sorted(range(len(centres)), key=lambda k: (round(centres[k][1] / rows), centres[k][0]))
    ids = {k: i + 1 for i, k in enumerate(order)}
    return {
        "name": "traced from a photo",
        "provisional": True,
        "draft": (f"fill in the {TOWNS} towns (name, chest, port space, at), the {HIDEOUTS_PER_COLOUR * COLOURS} "
                  f"hideouts (space, colour), the {SKULLS} skull spaces and the {PILES} pile positions, check "
                  f"the spaces against the overlay picture, then remove this line"),
        "size_mm": [float(size[0]), float(size[1])],
        "colours": list(colours),
        "spaces": [{"id": ids[k], "center": list(centres[k]), "polygon": [list(p) for p in polygons[k]]}
                   for k in order],
        "adjacency": sorted([min(ids[a], ids[b]), max(ids[a], ids[b])] for a, b in adjacency),
        "towns": [], "hideouts": [], "skulls": [], "piles": [],
    }


_CACHE: dict[str, Board] = {}


def load_board(option: Any = None) -> Board:
    """The board an engine plays on: the packaged provisional one (``None``), a packaged board by
    name (``"provisional"``, ``"grid"``: the test board of docs/karibik.md), a path to a JSON file,
    or the board object itself."""
    if option is None:
        option = str(DEFAULT_BOARD)
    if isinstance(option, str) and option in PACKAGED:
        option = str(PACKAGED[option])
    if isinstance(option, Mapping):
        return board_from_dict(option, "option 'board'")
    if not isinstance(option, (str, Path)):
        raise BoardError(T("karibik: option 'board' must be a path to a board JSON file or a board object, got "
                           "{value}", value=repr(option)))
    key = str(option)
    packaged = key in {str(p) for p in PACKAGED.values()}
    if packaged and key in _CACHE:
        return _CACHE[key]
    data, source = read_json(option, BoardError, "Karibik board file")
    board = board_from_dict(data, source)
    if packaged:
        _CACHE[key] = board
    return board
