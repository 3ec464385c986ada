"""The shared tile-laying board: grid, edge matching, frontier, feature merging.

Placed regions are nodes of a union-find. Each feature (root) keeps its terrain,
the cells it covers, its member regions, its occupants (figures) and a count of
*open slots*: slots on a side with no neighbour yet. Two touching slots close
each other, so a feature is complete exactly when its open count reaches 0,
an O(1) check after every placement.

The frontier maps every empty cell next to a tile to the side codes its
neighbours require (0 = unconstrained). Which rotations of a tile type fit a
given requirement is memoised, so enumerating legal placements is one dict
lookup per open cell.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

from ...i18n import N_, T, Text
from ..base import IllegalAction
from ..unionfind import root as uf_root
from .catalog import Catalog, TileType
from .words import TileWords

Cell = tuple[int, int]
#: (dx, dy) per direction N, E, S, W; y grows to the south
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIRECTION_NAMES = ("north", "east", "south", "west")
#: a tile whose side d does not continue its neighbour's: one whole sentence per direction
_MISMATCH = (
    N_("{tile} cannot lie {place} this way: its north side ({mine}) does not continue the south side of {other} "
       "({theirs}) ({ids}; {other_id} at {x}, {y})"),
    N_("{tile} cannot lie {place} this way: its east side ({mine}) does not continue the west side of {other} "
       "({theirs}) ({ids}; {other_id} at {x}, {y})"),
    N_("{tile} cannot lie {place} this way: its south side ({mine}) does not continue the north side of {other} "
       "({theirs}) ({ids}; {other_id} at {x}, {y})"),
    N_("{tile} cannot lie {place} this way: its west side ({mine}) does not continue the east side of {other} "
       "({theirs}) ({ids}; {other_id} at {x}, {y})"),
)


class Placed:
    __slots__ = ("tile", "rot", "base", "order")

    def __init__(self, tile: TileType, rot: int, base: int, order: int):
        self.tile = tile
        self.rot = rot
        self.base = base
        self.order = order


class TileBoard:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.cells: dict[Cell, Placed] = {}
        self.open: dict[Cell, tuple[int, int, int, int]] = {}
        # the same frontier grouped by requirement: few groups, so enumeration is one memo lookup per group
        self.groups: dict[tuple[int, int, int, int], dict[Cell, None]] = {}
        # which rotations fit which requirement: shared by every board of this catalog
        self._fit = catalog.fit_cache
        # union-find arrays, indexed by node id
        self.parent: list[int] = []
        self.terrain: list[str] = []
        self.open_slots: list[int] = []
        self.cover: list[set[Cell] | None] = []
        self.members: list[list[tuple[Cell, int]] | None] = []
        self.occupants: list[list[Any] | None] = []
        self.node_cell: list[Cell] = []
        self.node_region: list[int] = []
        self.last: Cell | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "TileBoard":
        """A board copy in about a tenth of a generic deepcopy (the tracker and the page fork the
        game for every reading): tuples, cells and ``Placed`` records never change once made, so
        they are shared; every container that does change is copied; figures go through ``memo``
        so the copy's occupants are the copied game's figures."""
        new = TileBoard.__new__(TileBoard)
        memo[id(self)] = new
        new.catalog, new._fit, new.last = self.catalog, self._fit, self.last
        new.cells = dict(self.cells)
        new.open = dict(self.open)
        new.groups = {cons: dict(cells) for cons, cells in self.groups.items()}
        new.parent, new.terrain, new.open_slots = list(self.parent), list(self.terrain), list(self.open_slots)
        new.node_cell, new.node_region = list(self.node_cell), list(self.node_region)
        new.cover = [None if c is None else set(c) for c in self.cover]
        new.members = [None if m is None else list(m) for m in self.members]
        new.occupants = copy.deepcopy(self.occupants, memo)
        return new

    # ---- union-find

    def find(self, n: int) -> int:
        return uf_root(self.parent, n)

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self.members[ra]) < len(self.members[rb]):  # type: ignore[arg-type]
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.open_slots[ra] += self.open_slots[rb]
        self.cover[ra] |= self.cover[rb]  # type: ignore[operator]
        self.members[ra].extend(self.members[rb])  # type: ignore[union-attr]
        self.occupants[ra].extend(self.occupants[rb])  # type: ignore[union-attr]
        self.cover[rb] = self.members[rb] = self.occupants[rb] = None
        return ra

    # ---- queries

    def node(self, cell: Cell, region_index: int) -> int:
        return self.cells[cell].base + region_index

    def feature(self, cell: Cell, region_index: int) -> int:
        """The root node of the feature that region ``region_index`` of the tile at ``cell`` belongs to."""
        return self.find(self.cells[cell].base + region_index)

    def is_complete(self, root: int) -> bool:
        return self.open_slots[root] == 0

    def tiles_in(self, root: int) -> int:
        return len(self.cover[root])  # type: ignore[arg-type]

    def members_of(self, root: int) -> list[tuple[Cell, int]]:
        return self.members[root]  # type: ignore[return-value]

    def occupants_of(self, root: int) -> list[Any]:
        return self.occupants[root]  # type: ignore[return-value]

    def neighbours8(self, cell: Cell) -> int:
        x, y = cell
        return sum((x + dx, y + dy) in self.cells for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

    def roots_of_tile(self, cell: Cell) -> list[int]:
        p = self.cells[cell]
        return [self.find(p.base + i) for i in range(len(p.tile.regions))]

    # ---- legality

    def fits(self, tile: TileType, cons: tuple[int, int, int, int]) -> tuple[int, ...]:
        key = (tile.index, cons)
        rots = self._fit.get(key)
        if rots is None:
            rots = tuple(r for r in tile.distinct_rotations
                         if all(c == 0 or c == s for c, s in zip(cons, tile.side_codes[r])))
            self._fit[key] = rots
        return rots

    def legal_placements(self, tile: TileType) -> list[tuple[int, int, int]]:
        """Every (x, y, rotation index) where ``tile`` may go; symmetric rotations listed once."""
        out: list[tuple[int, int, int]] = []
        fit = self._fit
        idx = tile.index
        for cons, cells in self.groups.items():
            rots = fit.get((idx, cons))
            if rots is None:
                rots = self.fits(tile, cons)
            if rots:
                for x, y in cells:
                    for r in rots:
                        out.append((x, y, r))
        return out

    def can_place(self, tile: TileType) -> bool:
        fits = self.fits
        return any(fits(tile, cons) for cons in self.groups)

    def _set_open(self, cell: Cell, cons: tuple[int, int, int, int] | None) -> None:
        old = self.open.pop(cell, None)
        if old is not None:
            group = self.groups[old]
            del group[cell]
            if not group:
                del self.groups[old]
        if cons is not None:
            self.open[cell] = cons
            self.groups.setdefault(cons, {})[cell] = None

    def check(self, tile: TileType, cell: Cell, rot: int) -> None:
        """Raise :class:`IllegalAction` with the precise reason when ``tile`` cannot go there: in table
        words, the ids after them (for whoever corrects a record)."""
        words = self.words
        if cell in self.cells:
            other = self.cells[cell].tile
            ids = T("cell {x}, {y} already holds tile {tile}", x=cell[0], y=cell[1], tile=other.id)
            if other.start:
                raise IllegalAction(T("{tile} already lies there ({ids})", tile=words.Tile(other), ids=ids),
                                    rule="occupied")
            raise IllegalAction(T("{tile} already lies {place} ({ids})", tile=words.Tile(other),
                                  place=words.place(self.cells, cell, exclude=cell), ids=ids), rule="occupied")
        cons = self.open.get(cell)
        if cons is None:
            raise IllegalAction(T("The place {place} touches no tile on the table: at least one side must touch "
                                  "one; corners do not count (cell {x}, {y} touches no placed tile)",
                                  place=words.place(self.cells, cell), x=cell[0], y=cell[1]), rule="not_adjacent")
        codes = tile.side_codes[rot]
        for d in range(4):
            if cons[d] and cons[d] != codes[d]:
                nx, ny = cell[0] + STEP[d][0], cell[1] + STEP[d][1]
                other = self.cells[(nx, ny)]
                mine = self.describe(self.catalog.codes.names[codes[d]])
                theirs = self.describe(self.catalog.codes.names[self.catalog.codes.mirror[cons[d]]][::-1])
                own = "NESW"[(d - rot) % 4]
                ids = (T("{tile} turned {degrees}: its own {side} side", tile=tile.id, degrees=90 * rot, side=own)
                       if rot else tile.id)
                raise IllegalAction(T(
                    _MISMATCH[d], tile=words.Tile(tile), place=words.place(self.cells, cell, exclude=cell), mine=mine,
                    other=words.tile_of(other.tile), theirs=theirs, ids=ids, other_id=other.tile.id, x=nx, y=ny),
                    rule="edge_mismatch")

    @property
    def words(self) -> TileWords:
        return TileWords.of(self.catalog)

    def describe(self, triple: str) -> Text:
        """A side's three slot terrains: ``"sea"``, or ``"plain | sea | plain"`` when they differ."""
        names = [self.words.terrain(ch) for ch in triple]
        if len(set(names)) == 1:
            return names[0]
        return T("{first} | {second} | {third}", first=names[0], second=names[1], third=names[2])

    # ---- changes

    def place(self, tile: TileType, cell: Cell, rot: int) -> list[int]:
        """Put a tile down (legality is the caller's business: see :meth:`check`).

        Returns the roots of the features the new tile's regions now belong to.
        """
        base = len(self.parent)
        for i, region in enumerate(tile.regions):
            n = base + i
            self.parent.append(n)
            self.terrain.append(region.terrain)
            self.open_slots.append(len(region.slots))
            self.cover.append({cell})
            self.members.append([(cell, i)])
            self.occupants.append([])
            self.node_cell.append(cell)
            self.node_region.append(i)
        self.cells[cell] = Placed(tile, rot, base, len(self.cells))
        self._set_open(cell, None)
        slot_region = tile.slot_region
        codes = tile.side_codes[rot]
        mirror = self.catalog.codes.mirror
        x, y = cell
        for d in range(4):
            ncell = (x + STEP[d][0], y + STEP[d][1])
            other = self.cells.get(ncell)
            if other is None:
                cons = self.open.get(ncell, (0, 0, 0, 0))
                od = (d + 2) % 4
                self._set_open(ncell, cons[:od] + (mirror[codes[d]],) + cons[od + 1:])
                continue
            od = (d + 2) % 4
            oslots = other.tile.slot_region
            for k in range(3):
                mine = base + slot_region[(3 * d + k - 3 * rot) % 12]
                theirs = other.base + oslots[(3 * od + 2 - k - 3 * other.rot) % 12]
                root = self._union(mine, theirs)
                self.open_slots[root] -= 2
        self.last = cell
        return [self.find(base + i) for i in range(len(tile.regions))]

    # ---- views

    def __iter__(self) -> Iterator[tuple[Cell, Placed]]:
        return iter(self.cells.items())

    def tile_view(self, cell: Cell) -> dict[str, Any]:
        p = self.cells[cell]
        return {
            "x": cell[0], "y": cell[1], "tile": p.tile.id, "rotation": 90 * p.rot,
            "slots": p.tile.slots_rotated(p.rot),
            "interior": [r.terrain for r in p.tile.regions if not r.slots],
            "marks": tile_marks(p.tile, p.rot),
            "name": self.words.tile(p.tile),
            "where": self.words.place(self.cells, cell, exclude=cell),
        }

    def ascii(self) -> str:
        """A small text picture: one character per side terrain, for debugging and docs."""
        if not self.cells:
            return "(empty)"
        xs = [c[0] for c in self.cells]
        ys = [c[1] for c in self.cells]
        lines = []
        for y in range(min(ys), max(ys) + 1):
            rows = ["", "", ""]
            for x in range(min(xs), max(xs) + 1):
                p = self.cells.get((x, y))
                if p is None:
                    rows[0] += "     "
                    rows[1] += "  .  "
                    rows[2] += "     "
                    continue
                s = p.tile.slots_rotated(p.rot)
                rows[0] += f" {s[0]}{s[1]}{s[2]} "
                mark = "*" if (x, y) == self.last else ("o" if p.order == 0 else " ")
                rows[1] += f"{s[10]} {mark} {s[4]}"
                rows[2] += f" {s[8]}{s[7]}{s[6]} "
            lines.extend(rows)
        return "\n".join(line.rstrip() for line in lines)


# Unit-square points for the 12 slots (middle of each third of each side), clockwise from NW.
_SLOT_POINTS = [(1 / 6, 0), (0.5, 0), (5 / 6, 0), (1, 1 / 6), (1, 0.5), (1, 5 / 6),
                (5 / 6, 1), (0.5, 1), (1 / 6, 1), (0, 5 / 6), (0, 0.5), (0, 1 / 6)]


def region_anchor(slots: frozenset[int], rot: int) -> list[float]:
    """Where to draw a figure on a region, in rotated tile fractions (u east, v south)."""
    if not slots:
        return [0.5, 0.5]
    pts = [_SLOT_POINTS[(s + 3 * rot) % 12] for s in slots]
    u = sum(p[0] for p in pts) / len(pts)
    v = sum(p[1] for p in pts) / len(pts)
    # pull towards the side: a region's anchor sits between its slots and the centre
    if abs(u - 0.5) < 0.05 and abs(v - 0.5) < 0.05:
        u, v = pts[0]
    return [round(0.5 + (u - 0.5) * 0.6, 3), round(0.5 + (v - 0.5) * 0.6, 3)]


def tile_marks(tile: TileType, rot: int) -> list[dict[str, Any]]:
    """What scores on a tile besides its terrains, placed for drawing on the turned tile: towns
    (at the coast between their land and their sea), goods symbols and boats (in their region).
    ``[{"kind": "town"|"symbol"|"boat", "at": [u, v], "name"?: str, "count"?: int}]``."""
    out: list[dict[str, Any]] = []
    for town in tile.towns:
        land = region_anchor(tile.regions[town.land].slots, rot)
        sea = region_anchor(tile.regions[town.sea].slots, rot)
        out.append({"kind": "town", "at": [round(land[0] + 0.45 * (sea[0] - land[0]), 3),
                                           round(land[1] + 0.45 * (sea[1] - land[1]), 3)]})
    for region in tile.regions:
        at = region_anchor(region.slots, rot)
        for name, n in region.symbols.items():
            out.append({"kind": "symbol", "name": name, "count": n, "at": at})
        if region.boat:
            out.append({"kind": "boat", "at": at})
    return out
