"""A finished tile-game table scored from one photo (``tablehub score --photo``): what the camera read ->
a position consistent with the rules -> the engine's final evaluation, explained, and the cells the camera
was unsure of with what each would change.

This module is the rules side and imports no OpenCV: it takes the camera's reading as data (the shape
``tablehub recognize`` prints: tiles with runners-up and hidden twins, figures with their colour, cell,
region and place on the tile) and, optionally, ``region_at(tile, rotation, u, v)`` to name the region under
a figure when a repair lays another tile under it (or where a figure stands near another region). The
photo is read by :mod:`tablehub.photo` (which loads OpenCV and :mod:`vision` only when it reads one).

>>> reading = Reading.from_dict({"tiles": [
...     {"x": 0, "y": 0, "tile": "ds001", "rotation": 0, "confidence": 0.99, "score": 0.9, "runners_up": []},
...     {"x": 1, "y": 0, "tile": "ds002", "rotation": 0, "confidence": 0.98, "score": 0.9, "runners_up": []}],
...     "figures": [{"x": 1, "y": 0, "colour": "red", "region": "r1", "u": 0.5, "v": 0.5}]})
>>> sorted(reading.cells)
[(0, 0), (1, 0)]

What a photo cannot know is said in every result (:attr:`PhotoScore.notes`): the points scored during play
(Neues Land's score track: ``before``), the ships and goods in front of each Südsee player (``holdings``)
and the fishing boat tokens on Südsee's seas (none assumed).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from .games import new_game
from .games.base import Setup, TablehubError, check_name, show
from .games.tiles.board import STEP, Cell
from .games.tiles.catalog import Catalog, rotation_index
from .games.tiles.game import Figure, TileGame
from .i18n import N_, T, Tc, Tn, chain, reason, translate

UNSURE_CONFIDENCE = 0.5
"""A cell read with less confidence than this is unsure (the recogniser's own line: the tracker asks the
phone below it)."""
CLOSE_SCORE = 0.03
"""... and so is a cell whose runner-up scores within this of the best reading."""
SEARCH_NODES = 200_000
"""The repair's search gives up after this many partial assignments (it then drops cells, see
:func:`choose_tiles`)."""
FIGURE_NEAR = 0.08
"""A figure seen this near (in tile sides: about 3.6 mm on a 45 mm tile) to another region of its tile is unsure:
the list says what the scores would be with it there."""
SEAM_REACH = 0.15
"""A second figure seen on a tile is taken to stand on the tile across the nearer edge only when the camera puts its
base this near that edge (in tile sides: about 6.7 mm on a 45 mm tile): a figure's base reaches about 6 mm from
where it stands along its lean (``vision.standing.FOOT_MM``), so one standing on the next tile is never seen
farther in. One seen deeper in is on this tile (a phantom, or a figure the rules cannot place there)."""
MISSING_PENALTY = 0.5
"""A tile of the set seen nowhere on the table, put where a tile was read too often, scores this much below the
cell's best reading (every alternative the camera named comes first)."""
DEFAULT_COLOURS = ("red", "blue", "green", "yellow", "black")
"""The colours of the figures in the boxes, in the order players are added when too few are seen."""

RegionAt = Callable[[str, int, float, float], "str | None"]
TwinsOf = Callable[[str, int], Sequence[tuple[str, int]]]
"""``twins_of(tile, rotation)``: the (tile, rotation) pairs whose pictures differ from it only in a detail (the
recogniser's ``TileClassifier.twins_of``)."""


class PhotoScoreError(TablehubError):
    pass


# --------------------------------------------------------------------------- the camera's reading


@dataclass(frozen=True)
class Choice:
    """One reading of a cell: a tile turned clockwise by ``rotation`` degrees, and how well it matched."""

    tile: str
    rotation: int
    score: float


@dataclass(frozen=True)
class CellReading:
    x: int
    y: int
    choices: tuple[Choice, ...]
    """The best reading first, then the hidden twins (with its score), then the runners-up."""
    confidence: float
    hidden_twins: tuple[tuple[str, int], ...] = ()

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def why_unsure(self) -> str | None:
        """Why this cell's reading is unsure (``None``: it is sure)."""
        if self.hidden_twins:
            return T("a figure hides where its twin differs")
        if self.confidence < UNSURE_CONFIDENCE:
            return T("confidence {value}", value=format(self.confidence, ".2f"))
        close = [c for c in self.choices[1:] if self.best.score - c.score <= CLOSE_SCORE
                 and c.tile != self.best.tile]
        if close:
            return T("{tile} r{rotation} scores almost as well", tile=close[0].tile, rotation=close[0].rotation)
        return None


@dataclass(frozen=True)
class FigureReading:
    x: int
    y: int
    colour: str
    region: str | None
    u: float = 0.5
    v: float = 0.5
    confidence: float = 1.0


@dataclass
class Reading:
    """What the camera read on the table: tiles by cell (with alternatives) and figures."""

    cells: dict[Cell, CellReading]
    figures: list[FigureReading]
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: Any, source: str = "reading") -> "Reading":
        """From the JSON ``tablehub recognize`` prints (``Observation.to_dict()``); one-line errors naming the
        field."""
        if not isinstance(data, Mapping):
            raise PhotoScoreError(T("{source}: expected an object with 'tiles' and 'figures', got {value}", source=source,
                                    value=show(data)))
        cells: dict[Cell, CellReading] = {}
        for i, t in enumerate(_list(data, "tiles", source)):
            where = f"{source}: tiles[{i}]"
            x, y = _int(t, "x", where), _int(t, "y", where)
            best = Choice(_str(t, "tile", where), _rot(t, where), _num(t, "score", where, 1.0))
            twins = tuple((_str(h, "tile", f"{where}.hidden_twins"), _rot(h, f"{where}.hidden_twins"))
                          for h in t.get("hidden_twins", []) or [])
            more = [Choice(tile, rot, best.score) for tile, rot in twins]
            for k, r in enumerate(t.get("runners_up", []) or []):
                w = f"{where}.runners_up[{k}]"
                more.append(Choice(_str(r, "tile", w), _rot(r, w), _num(r, "score", w, 0.0)))
            seen, choices = set(), []
            for c in [best] + more:
                if (c.tile, c.rotation) not in seen:
                    seen.add((c.tile, c.rotation))
                    choices.append(c)
            if (x, y) in cells:
                raise PhotoScoreError(T("{where}: cell {x}, {y} is read twice", where=where, x=x, y=y))
            cells[(x, y)] = CellReading(x, y, tuple(choices), _num(t, "confidence", where, 1.0), twins)
        figures = []
        for i, f in enumerate(_list(data, "figures", source)):
            where = f"{source}: figures[{i}]"
            region = f.get("region")
            if region is not None and not isinstance(region, str):
                raise PhotoScoreError(T("{where}.region: expected a region id or null, got {value}", where=where,
                                        value=show(region)))
            figures.append(FigureReading(_int(f, "x", where), _int(f, "y", where),
                                         _str(f, "colour", where) if "colour" in f else _str(f, "color", where),
                                         region, _num(f, "u", where, 0.5), _num(f, "v", where, 0.5),
                                         _num(f, "confidence", where, 1.0)))
        warnings = [str(w) for w in data.get("warnings", []) or []]
        return cls(cells, figures, warnings)

    def with_twins(self, twins_of: TwinsOf | None) -> "Reading":
        """Where a figure hides what tells the best reading from its twins (a cell with hidden twins), every twin
        of that picture at that turn (``twins_of``) is as likely as the ones the camera named: the camera lists
        only the few it contested. They join the cell's choices (and hidden twins) at the best reading's score,
        after the named ones, for the rules to choose between (the set's counts, the neighbours)."""
        if twins_of is None:
            return self
        cells = dict(self.cells)
        for cell, r in self.cells.items():
            if not r.hidden_twins:
                continue
            have = {(c.tile, c.rotation) for c in r.choices}
            more = tuple((t, rot) for t, rot in twins_of(r.best.tile, r.best.rotation)
                         if rot == r.best.rotation and (t, rot) not in have)
            if more:
                n = 1 + len(r.hidden_twins)   # the best, then its named twins, then these, then the runners-up
                extra = tuple(Choice(t, rot, r.best.score) for t, rot in more)
                cells[cell] = replace(r, choices=r.choices[:n] + extra + r.choices[n:],
                                      hidden_twins=r.hidden_twins + more)
        return replace(self, cells=cells)


def _list(d: Mapping, key: str, where: str) -> list:
    v = d.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, Mapping) for x in v):
        raise PhotoScoreError(T("{where}: {key}: expected a list of objects, got {value}", where=where, key=key, value=show(v)))
    return v


def _int(d: Mapping, key: str, where: str) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise PhotoScoreError(T("{where}.{key}: expected a whole number, got {value}", where=where, key=key, value=show(v)))
    return v


def _str(d: Mapping, key: str, where: str) -> str:
    v = d.get(key)
    if not isinstance(v, str) or not v:
        raise PhotoScoreError(T("{where}.{key}: expected a name, got {value}", where=where, key=key, value=show(v)))
    return v


def _num(d: Mapping, key: str, where: str, default: float) -> float:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise PhotoScoreError(T("{where}.{key}: expected a number, got {value}", where=where, key=key, value=show(v)))
    return float(v)


def _rot(d: Mapping, where: str) -> int:
    v = d.get("rotation", 0)
    try:
        rotation_index(v)
    except ValueError as exc:
        raise PhotoScoreError(T("{where}.rotation: {why}", where=where, why=reason(exc))) from None
    return int(v)


# --------------------------------------------------------------------------- a consistent set of tiles


Assignment = dict[Cell, Choice]


@dataclass
class TileChoice:
    """The tiles chosen for the position: every one fits its neighbours, no tile is used more often than the
    set has it, every one is joined to the start tile."""

    tiles: Assignment
    repaired: dict[Cell, Choice] = field(default_factory=dict)
    why: dict[Cell, str] = field(default_factory=dict)
    """Why each repaired cell's best reading was not kept."""
    """Cells where an alternative was chosen over the best reading (the value: the best reading)."""
    dropped: dict[Cell, str] = field(default_factory=dict)
    """Cells left out of the position, with the reason."""
    overcount: dict[str, list[Cell]] = field(default_factory=dict)
    """Tiles read on more cells than the set has them (no alternative resolved it): one of those is misread."""


def _fits(catalog: Catalog, a: Choice, b: Choice, d: int) -> bool:
    """Whether tile ``b`` lying in direction ``d`` (N, E, S, W) of tile ``a`` continues it (:meth:`Catalog.continues`)."""
    return catalog.continues(a.tile, a.rotation, d, b.tile, b.rotation)


def _known(catalog: Catalog, c: Choice) -> bool:
    try:
        catalog.tile(c.tile)
        rotation_index(c.rotation)
    except (KeyError, ValueError):
        return False
    return True


def _conflicts(catalog: Catalog, tiles: Assignment) -> set[Cell]:
    """Cells on a side that does not fit, and cells holding a tile used more often than the set has it."""
    return _misfit_cells(catalog, tiles) | {c for cells in _overcount(catalog, tiles).values() for c in cells}


def _misfit_cells(catalog: Catalog, tiles: Assignment) -> set[Cell]:
    bad: set[Cell] = set()
    for (x, y), a in tiles.items():
        for d in (1, 2):  # east and south: every pair once
            n = (x + STEP[d][0], y + STEP[d][1])
            b = tiles.get(n)
            if b is not None and not _fits(catalog, a, b, d):
                bad |= {(x, y), n}
    return bad


def _overcount(catalog: Catalog, tiles: Assignment) -> dict[str, list[Cell]]:
    """Tile id -> the cells holding it, for every tile read more often than the set has it."""
    where: dict[str, list[Cell]] = {}
    for cell, c in tiles.items():
        where.setdefault(c.tile, []).append(cell)
    return {t: sorted(cells) for t, cells in where.items() if len(cells) > catalog.tile(t).count}


def _components(catalog: Catalog, tiles: Assignment, bad: set[Cell]) -> list[set[Cell]]:
    """The cells in conflict, grouped: neighbours in conflict, and the cells sharing a tile read too often."""
    links: dict[Cell, set[Cell]] = {c: set() for c in bad}
    for x, y in bad:
        for dx, dy in STEP:
            if (x + dx, y + dy) in bad:
                links[(x, y)].add((x + dx, y + dy))
    for cells in _overcount(catalog, tiles).values():
        for c in cells:
            links[c] |= set(cells) - {c}
    out, seen = [], set()
    for c in sorted(bad):
        if c in seen:
            continue
        comp, todo = {c}, [c]
        while todo:
            for n in links[todo.pop()]:
                if n not in comp:
                    comp.add(n)
                    todo.append(n)
        seen |= comp
        out.append(comp)
    return out


def _swap(catalog: Catalog, trial: Assignment, cell: Cell, was: Choice, reading: Reading
          ) -> tuple[Cell, Choice] | None:
    """Where the tile now at ``cell`` in ``trial`` also lies, a cell whose own reading named ``was`` (the tile
    read at ``cell``) among its choices and that could take it in some turn: the two readings swapped (twins
    read the wrong way round)."""
    def named(c: Cell) -> bool:
        r = reading.cells.get(c)
        return r is not None and any(ch.tile == was.tile for ch in r.choices)

    for other in sorted(c for c, t in trial.items() if t.tile == trial[cell].tile and c not in (cell, (0, 0))
                        and named(c)):
        for rot in (0, 90, 180, 270):
            turned = Choice(was.tile, rot, was.score)
            if not _misfits(catalog, {**trial, other: turned}, other):
                return other, turned
    return None


def _misfits(catalog: Catalog, tiles: Assignment, cell: Cell) -> bool:
    """Whether the tile at ``cell`` fails to continue one of its neighbours."""
    return any((cell[0] + dx, cell[1] + dy) in tiles
               and not _fits(catalog, tiles[cell], tiles[(cell[0] + dx, cell[1] + dy)], d)
               for d, (dx, dy) in enumerate(STEP))


def choose_tiles(reading: Reading, catalog: Catalog) -> TileChoice:
    """The consistent set of tiles with the highest total match: the best reading of every cell where that
    fits; where it does not, the cells in conflict (and then a ring or two around them) take the
    combination of their alternatives that fits with the highest total score. A conflict no combination
    resolves drops its least confident cell (said in :attr:`TileChoice.dropped`); so does a tile joined to
    the start tile by no chain of tiles."""
    out = TileChoice({})
    start = catalog.start
    options: dict[Cell, list[Choice]] = {}
    for cell, r in reading.cells.items():
        known = [c for c in r.choices if _known(catalog, c)]
        if cell == (0, 0):
            known = [c for c in known if c.tile == start.id]
        elif known:
            known = [c for c in known if c.tile != start.id or start.count > 1]
        if not known:
            out.dropped[cell] = (T("the start tile must lie here") if cell == (0, 0) else
                                 T("{tile} is not a tile of the set", tile=r.best.tile))
            continue
        options[cell] = known
    if (0, 0) not in options:
        raise PhotoScoreError(T("no start tile at cell 0, 0: the photo's grid is fixed by it (is it on the mat and "
                                "in view?)"))
    tiles = {cell: opts[0] for cell, opts in options.items()}
    first_misfits = _misfit_cells(catalog, tiles)
    for comp in _components(catalog, tiles, _conflicts(catalog, tiles)):
        # the set's counts first; a conflict they leave unsolved is solved for the edges alone (a twin read
        # twice costs less than a tile left out) and the tile read too often is said
        for counts in (True, False):
            best = next((b for ring in (0, 1, 2)
                         if (b := _search(catalog, tiles, options, _grow(comp, tiles, ring), counts)) is not None),
                        None)
            if best is not None:
                tiles.update(best)
                break
    _read_too_often(catalog, tiles, options)
    bad = _misfit_cells(catalog, tiles)
    while bad:  # nothing resolves it: leave out the least confident cell in conflict
        worst = min(bad - {(0, 0)} or bad, key=lambda c: (reading.cells[c].confidence, c))
        out.dropped[worst] = T("{tile} r{rotation} fits none of its neighbours' readings, nor does any of its "
                               "alternatives", tile=tiles[worst].tile, rotation=tiles[worst].rotation)
        del tiles[worst]
        bad = _misfit_cells(catalog, tiles)
    joined = _joined(tiles)
    for cell in sorted(set(tiles) - joined):
        out.dropped[cell] = T("it touches no chain of tiles from the start tile")
        del tiles[cell]
    out.tiles = tiles
    out.repaired = {c: options[c][0] for c, ch in tiles.items() if ch != options[c][0]}
    for c, best in out.repaired.items():
        out.why[c] = (T("does not fit its neighbours") if c in first_misfits else
                      T("is read on more cells than the set has it ({n})", n=catalog.tile(best.tile).count))
    out.overcount = _overcount(catalog, tiles)
    return out


def _read_too_often(catalog: Catalog, tiles: Assignment, options: dict[Cell, list[Choice]]) -> None:
    """A tile read on more cells than the set has it, where no alternative the camera named fits: one of those
    cells holds a tile of the set that is nowhere on the table. Those tiles (any turn, scored
    :data:`MISSING_PENALTY` below the cell's best reading) join the cells' options, and the search runs again."""
    for cells in list(_overcount(catalog, tiles).values()):
        used = Counter(c.tile for c in tiles.values())
        missing = [t.id for t in catalog.tiles if used[t.id] < t.count and not t.start]
        if not missing:
            return
        for cell in cells:
            best = options[cell][0].score - MISSING_PENALTY
            have = {(c.tile, c.rotation) for c in options[cell]}
            options[cell] = options[cell] + [Choice(t, 90 * r, best) for t in missing for r in range(4)
                                             if (t, 90 * r) not in have]
        found = _search(catalog, tiles, options, set(cells), True)
        if found is not None:
            tiles.update(found)


def _grow(cells: set[Cell], tiles: Assignment, ring: int) -> set[Cell]:
    out = set(cells)
    for _ in range(ring):
        out |= {(x + dx, y + dy) for x, y in out for dx, dy in STEP if (x + dx, y + dy) in tiles}
    return out


def _search(catalog: Catalog, tiles: Assignment, options: Mapping[Cell, list[Choice]], free: set[Cell],
            counts: bool = True) -> Assignment | None:
    """The highest-scoring choice for the ``free`` cells that fits the fixed ones, each other and (``counts``)
    the set's counts (branch and bound); ``None`` when there is none (or the search gives up)."""
    order = sorted(free, key=lambda c: (len(options[c]), c))
    fixed = {c: t for c, t in tiles.items() if c not in free}
    used = Counter(t.tile for t in fixed.values())
    rest = [0.0] * (len(order) + 1)
    for i in range(len(order) - 1, -1, -1):
        rest[i] = rest[i + 1] + options[order[i]][0].score
    best: list[Any] = [float("-inf"), None]
    nodes = [0]
    now: Assignment = {}

    def ok(cell: Cell, c: Choice) -> bool:
        if counts and used[c.tile] >= catalog.tile(c.tile).count:
            return False
        for d, (dx, dy) in enumerate(STEP):
            n = (cell[0] + dx, cell[1] + dy)
            other = now.get(n) or fixed.get(n)
            if other is not None and not _fits(catalog, c, other, d):
                return False
        return True

    def go(i: int, total: float) -> None:
        nodes[0] += 1
        if nodes[0] > SEARCH_NODES or total + rest[i] <= best[0]:
            return
        if i == len(order):
            best[0], best[1] = total, dict(now)
            return
        cell = order[i]
        for c in options[cell]:
            if ok(cell, c):
                now[cell] = c
                used[c.tile] += 1
                go(i + 1, total + c.score)
                used[c.tile] -= 1
                del now[cell]

    go(0, 0.0)
    return best[1]


def _joined(tiles: Assignment) -> set[Cell]:
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        x, y = todo.pop()
        for dx, dy in STEP:
            n = (x + dx, y + dy)
            if n in tiles and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# --------------------------------------------------------------------------- the position and its score


@dataclass
class Holdings:
    """What lies in front of the players, not on the mat: the points on Neues Land's score track before the
    final evaluation (``before``); Südsee's ships taken and goods held (``ships``, ``goods``)."""

    before: dict[str, int] = field(default_factory=dict)
    ships: dict[str, list[str]] = field(default_factory=dict)
    goods: dict[str, dict[str, int]] = field(default_factory=dict)
    covered: list[tuple[int, int, str]] = field(default_factory=list)
    """Südsee: fish groups under a fishing boat token, as (x, y, region id): the camera does not read the
    tokens."""


@dataclass
class Standing:
    """A figure as it goes into the position (or why it does not)."""

    reading: FigureReading
    player: str | None
    region: str | None
    problem: str | None = None


def players_for(figures: Iterable[FigureReading], names: Mapping[str, str] | None, cls: type[TileGame],
                colours: Sequence[str] = DEFAULT_COLOURS) -> dict[str, str]:
    """Colour -> player name: the named colours (``names``, in their order), then every other colour seen on
    the table (its name capitalised: ``"Red"``); a table with fewer colours than the game's fewest players is
    filled up from ``colours``."""
    out = dict(names or {})
    seen = sorted({f.colour for f in figures}, key=lambda c: (c not in colours, colours.index(c)
                                                                  if c in colours else 0, c))
    for colour in seen:
        out.setdefault(colour, colour.capitalize())
    for colour in colours:
        if len(out) >= cls.min_players:
            break
        out.setdefault(colour, colour.capitalize())
    if len(out) > cls.max_players:
        raise PhotoScoreError(T("players: {game} takes at most {most} players; the table shows the colours {colours}",
                                game=cls.title, most=cls.max_players, colours=", ".join(out)))
    for colour, name in out.items():
        check_name(name, f"players: {colour}")
    return out


def build_position(game: str, tiles: Assignment, figures: Sequence[FigureReading], players: Mapping[str, str],
                   reading: Reading | None = None, region_at: RegionAt | None = None,
                   holdings: Holdings | None = None, options: Mapping[str, Any] | None = None
                   ) -> tuple[TileGame, list[Standing]]:
    """A fresh engine holding ``tiles`` (each laid through the board's own check, from the start tile
    outwards) and the figures that may stand where they were seen; returns it and every figure's fate."""
    g = new_game(Setup(game, tuple(players.values()), tuple(players), dict(options or {})))
    if not isinstance(g, TileGame):
        raise PhotoScoreError(T("game: {game} is not a tile game (the photo reads Neues Land and Südsee)", game=game))
    catalog = g.catalog
    order = _from_start(tiles)
    for cell in order:
        if cell == (0, 0):
            continue
        c = tiles[cell]
        tile = catalog.tile(c.tile)
        rot = rotation_index(c.rotation)
        g.board.check(tile, cell, rot)   # IllegalAction here is a bug of choose_tiles: let it show
        g.board.place(tile, cell, rot)
        g.box[c.tile] -= 1
    g.board.last = None
    g.turn = max(1, len(tiles) - 1)
    index = {name: i for i, name in enumerate(players.values())}
    fates: list[Standing] = []
    for f in sorted(figures, key=lambda f: (-f.confidence, -_inside(f))):  # the surer, then the more inside first
        fate = _stand(g, f, tiles, players, reading, region_at)
        fates.append(fate)
        if fate.problem is None and any(fig.cell == (f.x, f.y) for fig in g.figures):
            fate.problem = ONE_PER_TILE
        if fate.problem is None and fate.player is not None and fate.region is not None:
            i = index[fate.player]
            if g.supply[i] <= 0:
                fate.problem = f"{fate.player} has only {g.figures_per_player} {g.figure_word}s"
                continue
            region = catalog.tile(tiles[(f.x, f.y)].tile).region(fate.region)
            fig = Figure(i, (f.x, f.y), region.index)
            g.supply[i] -= 1
            g.figures.append(fig)
            g.board.occupants_of(g.board.feature(fig.cell, fig.region)).append(fig)
    g.ignored_holdings = _hold(g, holdings) if holdings is not None else []  # type: ignore[attr-defined]
    return g, fates


ONE_PER_TILE = ("its tile already holds a figure (a figure goes only on the tile just laid, one a turn, so a tile "
                "holds at most one)")


def one_per_tile(figures: Sequence[FigureReading], tiles: Assignment, region_at: RegionAt | None
                 ) -> tuple[list[FigureReading], list[str]]:
    """A tile holds at most one figure (one is placed a turn, on the tile just laid). Where the camera saw two on
    one tile, the one nearer the tile's edge is taken to stand on the tile across that edge (a figure's base
    overhangs the seam), when it is seen within :data:`SEAM_REACH` of that edge, that tile holds none and
    ``region_at`` names the region there; returns the figures and a sentence per move. The others stay (the
    position leaves the second one out, saying why)."""
    out = list(figures)
    moves: list[str] = []
    held = Counter((f.x, f.y) for f in out)
    for cell in sorted(c for c, n in held.items() if n > 1):
        here = sorted((f for f in out if (f.x, f.y) == cell), key=_inside, reverse=True)
        for f in here[1:]:
            d, shift = _nearest_edge(f)
            n = (f.x + STEP[d][0], f.y + STEP[d][1])
            if region_at is None or n not in tiles or held[n] or _inside(f) > SEAM_REACH:
                continue
            u = min(max(f.u + shift[0], 0.02), 0.98)
            v = min(max(f.v + shift[1], 0.02), 0.98)
            region = region_at(tiles[n].tile, tiles[n].rotation, u, v)
            if region is None:
                continue
            moved = replace(f, x=n[0], y=n[1], u=u, v=v, region=region)
            out[out.index(f)] = moved
            held[cell] -= 1
            held[n] += 1
            moves.append(T("{colour} figure seen on the tile at {x},{y}, which holds another, taken to stand on {region} "
                           "of the tile at {to_x},{to_y} across the edge", colour=colour_said(f.colour), x=cell[0],
                           y=cell[1], region=region, to_x=n[0], to_y=n[1]))
    return out, moves


def _inside(f: FigureReading) -> float:
    return min(f.u, 1.0 - f.u, f.v, 1.0 - f.v)


def _nearest_edge(f: FigureReading) -> tuple[int, tuple[int, int]]:
    """The direction (N, E, S, W) of the tile edge nearest the figure, and how its (u, v) shift across it."""
    gaps = [(f.v, 0, (0, 1)), (1.0 - f.u, 1, (-1, 0)), (1.0 - f.v, 2, (0, -1)), (f.u, 3, (1, 0))]
    _, d, shift = min(gaps)
    return d, shift


def _from_start(tiles: Assignment) -> list[Cell]:
    seen, order, todo = {(0, 0)}, [(0, 0)], [(0, 0)]
    while todo:
        x, y = todo.pop(0)
        for dx, dy in STEP:
            n = (x + dx, y + dy)
            if n in tiles and n not in seen:
                seen.add(n)
                order.append(n)
                todo.append(n)
    return order


def _stand(g: TileGame, f: FigureReading, tiles: Assignment, players: Mapping[str, str],
           reading: Reading | None, region_at: RegionAt | None) -> Standing:
    player = players.get(f.colour)
    fate = Standing(f, player, f.region)
    if player is None:
        fate.problem = f"no player plays {f.colour}"
        return fate
    here = tiles.get((f.x, f.y))
    if here is None:
        fate.problem = "no tile lies under it in the position"
        return fate
    read = reading.cells[(f.x, f.y)].best if reading is not None and (f.x, f.y) in reading.cells else here
    if (read.tile, read.rotation) != (here.tile, here.rotation) or fate.region is None:
        fate.region = region_at(here.tile, here.rotation, f.u, f.v) if region_at is not None else \
            (fate.region if read.tile == here.tile else None)
    if fate.region is None:
        fate.problem = "the region under it is not known"
        return fate
    try:
        index = g.catalog.tile(here.tile).region(fate.region).index
    except KeyError:
        fate.problem = f"{here.tile} has no region {fate.region}"
        return fate
    fate.problem = g.standing_problem((f.x, f.y), index)
    return fate


def _hold(g: TileGame, h: Holdings) -> list[str]:
    hold = getattr(g, "hold", None)
    if h.before:
        if not getattr(g, "score_track", True):
            raise PhotoScoreError(T("before: {game} scores nothing during play (its points come at the end: give ships "
                                    "and goods instead)", game=g.title))
        for name, points in h.before.items():
            if name not in g.players:
                raise PhotoScoreError(T("before: {name} is not a player (players: {players})", name=show(name),
                                    players=", ".join(g.players)))
            g.award(name, int(points), T("points on the score track before the final evaluation (given, not read "
                                         "from the photo)"))
    if h.ships or h.goods or h.covered:
        if hold is None:
            raise PhotoScoreError(T("holdings: {game} has no ships, goods or fishing boats", game=g.title))
        return list(hold(h.ships, h.goods, h.covered) or [])
    return []


@dataclass
class Alternative:
    tile: str
    rotation: int | None
    """``None``: the alternative is no figure at all (for a figure the camera was unsure of)."""
    change: dict[str, int] | None
    """Score difference per player if the cell held this tile (``None``: it cannot lie there, see ``why``)."""
    why: Any = ""
    swapped: Any = ""
    """Where the set's only copies of this tile are read elsewhere: ``"and the ds057 at 4,0 were ds058 r180"``."""

    @property
    def label(self) -> Any:
        base: Any = self.tile if self.rotation is None else f"{self.tile} r{self.rotation}"
        if self.tile == "no figure" and self.rotation is None:
            base = T("no figure")
        return T("{tile} ({swapped})", tile=base, swapped=self.swapped) if self.swapped else base


#: a repaired cell's best reading, when no reason is recorded
DOES_NOT_FIT = T("does not fit")
#: how an unsure cell's alternative is said: a tile, or the region a figure would stand on
IF_IT_WERE = N_("if it were {alternative}: {change}")
IF_IT_STOOD_ON = N_("if it stood on {alternative}: {change}")


@dataclass
class Unsure:
    """A cell (or figure) the camera was unsure of, and what each alternative would change."""

    x: int
    y: int
    read: Any
    why: Any
    alternatives: list[Alternative] = field(default_factory=list)
    verb: Any = IF_IT_WERE

    def line(self) -> Any:
        def change(a: Alternative) -> Any:
            if a.change is None:
                return a.why or T("does not fit its neighbours")
            moved = [f"{p} {d:+d}" for p, d in a.change.items() if d]
            return ", ".join(moved) if moved else T("no score changes")
        alts = [T(self.verb, alternative=a.label, change=change(a)) for a in self.alternatives]
        line = T("cell {x},{y}: {read} ({why})", x=self.x, y=self.y, read=self.read, why=self.why)
        return chain([line] + alts, N_("{first}; {next}"))

    @property
    def matters(self) -> bool:
        """Some alternative that can lie there would change a score."""
        return any(a.change is not None and any(a.change.values()) for a in self.alternatives)

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y, "read": self.read, "why": self.why, "matters": self.matters,
                "alternatives": [{"tile": a.tile, "rotation": a.rotation, "fits": a.change is not None,
                                  "change": a.change, "why": a.why or None} for a in self.alternatives]}


@dataclass
class PhotoScore:
    """The explained final scores of a table read from a photo."""

    game: TileGame
    choice: TileChoice
    figures: list[Standing]
    unsure: list[Unsure]
    notes: list[str]
    warnings: list[str]
    moved: list[str] = field(default_factory=list)
    """Figures seen on a tile that already holds one, taken to stand on the next tile (see :func:`one_per_tile`)."""

    @property
    def scores(self) -> dict[str, int]:
        return self.game.scores()

    def lines(self, language: str = "en") -> list[str]:
        """The explained scores and every repair, cell left out and unsure cell, in ``language``."""
        from .explain import explain

        out: list[Any] = list(explain(self.game, language).splitlines())
        for cell, best in sorted(self.choice.repaired.items()):
            now = self.choice.tiles[cell]
            out.append(T("repaired: cell {x},{y}: {tile} r{rotation}, not the best reading {best} r{best_rotation}, "
                         "which {why}", x=cell[0], y=cell[1], tile=now.tile, rotation=now.rotation, best=best.tile,
                         best_rotation=best.rotation, why=self.choice.why.get(cell, DOES_NOT_FIT)))
        for tile, cells in sorted(self.choice.overcount.items()):
            n = self.game.catalog.tile(tile).count
            out.append(T("misread: the set has {n} {tile} but cells {cells} read it (no alternative fits): one of them "
                         "is another tile", n=n, tile=tile, cells=" ".join(f"{x},{y}" for x, y in cells)))
        out.extend(T("repaired: {what}", what=m) for m in self.moved)
        for cell, why in sorted(self.choice.dropped.items()):
            out.append(T("left out: cell {x},{y}: {why}", x=cell[0], y=cell[1], why=why))
        for s in self.figures:
            if s.problem:
                f = s.reading
                out.append(T("left out: {colour} figure at cell {x},{y}: {why}", colour=colour_said(f.colour), x=f.x,
                             y=f.y, why=s.problem))
        matter = [u for u in self.unsure if u.matters]
        idle = [u for u in self.unsure if not u.matters]
        out.append(T("Unsure:") if self.unsure else T("Unsure: nothing (every cell read with confidence)"))
        out.extend(T("  {line}", line=u.line()) for u in matter)
        if idle:
            out.append(Tn("  {n} more unsure cell, whose alternatives change no score: {cells}",
                          "  {n} more unsure cells, whose alternatives change no score: {cells}", len(idle),
                          cells=" ".join(f"{u.x},{u.y}" for u in idle)))
        out.extend(T("note: {note}", note=n) for n in self.notes)
        out.extend(T("camera: {warning}", warning=w) for w in self.warnings)
        return [translate(line, language) for line in out]

    def to_dict(self) -> dict[str, Any]:
        g = self.game
        return {"game": g.name, "players": list(g.players),
                "colours": dict(zip(g.setup.colors, g.players)),
                "scores": self.scores, "winners": g.winners(),
                "events": [e.to_dict() for e in g.score_log],
                "tiles": [{"x": c[0], "y": c[1], "tile": t.tile, "rotation": t.rotation}
                          for c, t in sorted(self.choice.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0]))],
                "figures": [{"x": s.reading.x, "y": s.reading.y, "colour": s.reading.colour, "player": s.player,
                             "region": s.region, "left_out": s.problem} for s in self.figures],
                "repaired": [{"x": c[0], "y": c[1], "read": b.tile, "read_rotation": b.rotation,
                              "tile": self.choice.tiles[c].tile, "rotation": self.choice.tiles[c].rotation}
                             for c, b in sorted(self.choice.repaired.items())],
                "left_out": [{"x": c[0], "y": c[1], "why": w} for c, w in sorted(self.choice.dropped.items())],
                "figures_moved": list(self.moved),
                "overcount": {t: [list(c) for c in cells] for t, cells in sorted(self.choice.overcount.items())},
                "unsure": [u.to_dict() for u in self.unsure], "notes": list(self.notes),
                "warnings": list(self.warnings), "provisional": g.provisional}


def score_reading(game: str, reading: Reading, names: Mapping[str, str] | None = None,
                  region_at: RegionAt | None = None, holdings: Holdings | None = None,
                  options: Mapping[str, Any] | None = None, colours: Sequence[str] = DEFAULT_COLOURS,
                  twins_of: TwinsOf | None = None) -> PhotoScore:
    """The whole step: a consistent position from ``reading`` (its hidden twins widened by ``twins_of``:
    :meth:`Reading.with_twins`), the final evaluation, the unsure cells."""
    from .games import game_class

    reading = reading.with_twins(twins_of)
    cls = game_class(game)
    if not issubclass(cls, TileGame):
        raise PhotoScoreError(T("game: {game} is not a tile game (the photo reads Neues Land and Südsee)", game=cls.title))
    players = players_for(reading.figures, names, cls, colours)
    probe = new_game(Setup(cls.name, tuple(players.values()), tuple(players), dict(options or {})))
    assert isinstance(probe, TileGame)
    choice = choose_tiles(reading, probe.catalog)
    figures, moves = one_per_tile(reading.figures, choice.tiles, region_at)

    def final(tiles: Assignment) -> tuple[TileGame, list[Standing]]:
        g, fates = build_position(cls.name, tiles, figures, players, reading, region_at, holdings, options)
        g.finish()
        return g, fates

    game_now, fates = final(choice.tiles)
    base = game_now.scores()
    unsure = []
    for cell in sorted(reading.cells, key=lambda c: (c[1], c[0])):
        r = reading.cells[cell]
        why = r.why_unsure()
        if cell in choice.repaired:
            why = T("repaired: the best reading {tile} r{rotation} {why}", tile=r.best.tile, rotation=r.best.rotation,
                    why=choice.why.get(cell, DOES_NOT_FIT))
        if why is None or cell not in choice.tiles:
            continue
        now = choice.tiles[cell]
        u = Unsure(cell[0], cell[1], T("{tile} r{rotation} read", tile=now.tile, rotation=now.rotation), why)
        for alt in r.choices:
            if (alt.tile, alt.rotation) == (now.tile, now.rotation) or not _known(probe.catalog, alt):
                continue
            trial = dict(choice.tiles)
            trial[cell] = alt
            if cell == (0, 0) or _misfits(probe.catalog, trial, cell):
                u.alternatives.append(Alternative(alt.tile, alt.rotation, None, T("does not fit its neighbours")))
                continue
            if sum(c.tile == alt.tile for c in trial.values()) > probe.catalog.tile(alt.tile).count:
                swap = _swap(probe.catalog, trial, cell, now, reading)
                if swap is None:
                    u.alternatives.append(Alternative(alt.tile, alt.rotation, None, T(
                        "every {tile} of the set lies elsewhere on the table", tile=alt.tile)))
                    continue
                other, turned = swap
                trial[other] = turned
                scores = final(trial)[0].scores()
                u.alternatives.append(Alternative(
                    alt.tile, alt.rotation, {p: scores[p] - base[p] for p in base},
                    swapped=T("and the {tile} at {x},{y} were {other} r{rotation}", tile=alt.tile, x=other[0],
                              y=other[1], other=turned.tile, rotation=turned.rotation)))
                continue
            scores = final(trial)[0].scores()
            u.alternatives.append(Alternative(alt.tile, alt.rotation, {p: scores[p] - base[p] for p in base}))
        unsure.append(u)
    for s in fates:
        f = s.reading
        if s.problem is None and f.confidence < UNSURE_CONFIDENCE:
            rest = [g for g in figures if g is not f]
            scores = final_without(cls.name, choice.tiles, rest, players, reading, region_at, holdings, options)
            unsure.append(Unsure(f.x, f.y, T("{colour} figure seen", colour=colour_said(f.colour)),
                                 T("confidence {value}", value=format(f.confidence, ".2f")),
                                 [Alternative("no figure", None, {p: scores[p] - base[p] for p in base})]))
        if s.problem is None and region_at is not None and s.region is not None and (f.x, f.y) not in choice.repaired:
            here = choice.tiles[(f.x, f.y)]
            near = _regions_near(region_at, here, f) - {s.region}
            alts = []
            for region in sorted(near):
                moved = [replace(g, region=region) if g is f else g for g in figures]
                g_alt, fates_alt = build_position(cls.name, choice.tiles, moved, players, reading, region_at, holdings,
                                                  options)
                if any(a.reading.region == region and a.problem for a in fates_alt if a.reading.x == f.x
                       and a.reading.y == f.y and a.reading.colour == f.colour):
                    continue   # the rules would not let it stand there
                g_alt.finish()
                scores = g_alt.scores()
                alts.append(Alternative(region, None, {p: scores[p] - base[p] for p in base}))
            if alts:
                unsure.append(Unsure(f.x, f.y, T("{colour} figure on {region} read", colour=colour_said(f.colour),
                                                 region=s.region),
                                     T("it stands within {distance} tile of another region",
                                       distance=format(FIGURE_NEAR, ".2f")), alts, IF_IT_STOOD_ON))
    notes = _notes(game_now, holdings) + list(getattr(game_now, "ignored_holdings", []))
    return PhotoScore(game_now, choice, fates, unsure, notes, list(reading.warnings), moves)


def _regions_near(region_at: RegionAt, tile: Choice, f: FigureReading) -> set[str]:
    """The regions of the tile within :data:`FIGURE_NEAR` of where the figure was seen (on the tile)."""
    out = set()
    for k in range(8):
        a = math.tau * k / 8
        u, v = f.u + FIGURE_NEAR * math.cos(a), f.v + FIGURE_NEAR * math.sin(a)
        if 0.0 <= u <= 1.0 and 0.0 <= v <= 1.0:
            region = region_at(tile.tile, tile.rotation, u, v)
            if region is not None:
                out.add(region)
    return out


def final_without(game: str, tiles: Assignment, figures: Sequence[FigureReading], players: Mapping[str, str],
                  reading: Reading, region_at: RegionAt | None, holdings: Holdings | None,
                  options: Mapping[str, Any] | None) -> dict[str, int]:
    g, _ = build_position(game, tiles, figures, players, reading, region_at, holdings, options)
    g.finish()
    return g.scores()


def colour_said(colour: str) -> Any:
    """A figure's colour as the readers say it (``red``: the tracker's colour words); another name stays."""
    words = {"red": Tc("colour", "red"), "blue": Tc("colour", "blue"), "green": Tc("colour", "green"),
             "yellow": Tc("colour", "yellow"), "black": Tc("colour", "black")}
    return words.get(colour, colour)


def _notes(g: TileGame, h: Holdings | None) -> list[Any]:
    h = h or Holdings()
    out = []
    if getattr(g, "score_track", True):
        if not h.before:
            out.append(T("the points scored during play (the score track) are not in the photo: these are the final "
                         "evaluation's points only; add the track's with --before COLOUR=POINTS"))
    else:
        if not (h.ships or h.goods):
            out.append(T("the ships and goods in front of the players are not in the photo: none counted; give them "
                         "with --holdings FILE"))
        if not h.covered:
            out.append(T("fishing boat tokens are not read: no fish is taken as covered (give them under "
                         "\"covered\" in --holdings)"))
    return out


def load_holdings(path: str | None, before: str | None = None, names: Mapping[str, str] | None = None
                  ) -> Holdings:
    """``--holdings FILE`` (``{"ships": {...}, "goods": {...}, "covered": [[x, y, region], ...]}``, docs/vision.md)
    and ``--before``; one-line errors naming the file and field."""
    from .jsonfile import read_json

    if not path:
        return Holdings(before=parse_before(before, names))
    data, source = read_json(path, PhotoScoreError, "holdings file")
    h = holdings_from(data, source, names)
    h.before = parse_before(before, names)
    return h


def holdings_from(data: Any, source: str, names: Mapping[str, str] | None = None) -> Holdings:
    """Holdings from their JSON (a ``--holdings`` file's content, or the page's); one-line errors."""
    h = Holdings()
    if not isinstance(data, Mapping) or set(data) - {"ships", "goods", "covered", "about"}:
        extra = ", ".join(sorted(set(data) - {"ships", "goods", "covered", "about"})) if isinstance(data, Mapping) \
            else show(data)
        raise PhotoScoreError(T("{source}: expected an object with ships, goods and covered, got {extra}", source=source,
                                extra=extra))
    ships, goods, covered = data.get("ships", {}), data.get("goods", {}), data.get("covered", [])
    if not isinstance(ships, Mapping) or not all(isinstance(v, list) for v in ships.values()):
        raise PhotoScoreError(T("{source}: ships: expected an object mapping each player to a list of ship ids, e.g. "
                                "{example}", source=source, example='{"Ana": ["s01"]}'))
    if not isinstance(goods, Mapping) or not all(isinstance(v, Mapping) for v in goods.values()):
        raise PhotoScoreError(T("{source}: goods: expected an object mapping each player to their goods, e.g. {example}",
                                source=source, example='{"Ana": {"shell": 2}}'))
    if not isinstance(covered, list):
        raise PhotoScoreError(T("{source}: covered: expected a list of [x, y, region] of fish under a boat token",
                                source=source))
    h.ships = {_name(k, names): list(v) for k, v in ships.items()}
    h.goods = {_name(k, names): dict(v) for k, v in goods.items()}
    h.covered = list(covered)
    return h


def _name(who: str, names: Mapping[str, str] | None) -> str:
    """A player given by colour (``red``) or name: the name."""
    key = str(who).strip()
    return (names or {}).get(key.lower(), key.capitalize() if key.lower() in DEFAULT_COLOURS else key)


def parse_names(text: str | None) -> dict[str, str]:
    """``"red=Ana,blue=Ben"`` -> ``{"red": "Ana", "blue": "Ben"}`` (one-line error otherwise)."""
    out: dict[str, str] = {}
    for part in [p.strip() for p in (text or "").split(",") if p.strip()]:
        colour, eq, name = part.partition("=")
        if not eq or not colour.strip() or not name.strip():
            raise PhotoScoreError(T("--players: expected COLOUR=NAME pairs, e.g. red=Ana,blue=Ben; got {value}",
                                    value=repr(part)))
        out[colour.strip().lower()] = name.strip()
    return out


def parse_before(text: str | None, players: Mapping[str, str] | None = None) -> dict[str, int]:
    """``"red=12,Ana=30"`` -> points per player name (a colour stands for its player)."""
    out: dict[str, int] = {}
    for part in [p.strip() for p in (text or "").split(",") if p.strip()]:
        who, eq, pts = part.partition("=")
        try:
            value = int(pts)
        except ValueError:
            value = -1
        if not eq or value < 0:
            raise PhotoScoreError(T("--before: expected PLAYER=POINTS pairs (a colour or a name, points a whole "
                                    "number >= 0), e.g. red=34,blue=20; got {value}", value=repr(part)))
        out[_name(who, players)] = value
    return out
