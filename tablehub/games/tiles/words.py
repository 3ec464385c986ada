"""Tiles, regions and places in the words of the people at the table.

Tile ids and region ids are for files. At the table a tile is named by what is on it
("the tile with a bay, a plain and two towns"), a region by its terrain and where it lies
on the tile as the tile lies on the table ("the sea in the north-east"), and a cell by
something visible ("east of the start tile", "south of the tile with a lake"). The
game-specific words (terrain names, "lake" for a sea inside a tile, "fishing boat", the
goods' names) come from the catalog's ``terrains`` and ``words`` (docs/catalogs.md).

>>> from tablehub.games.tiles.game import cached_catalog
>>> from pathlib import Path
>>> import tablehub.games.neuesland as nl
>>> words = TileWords(cached_catalog(Path(nl.__file__).with_name("tiles.json"), "neuesland"))
>>> words.tile(words.catalog.tile("ds001"))
'the start tile'
>>> words.tile(words.catalog.tile("ds081"))
'the tile with a lake, a plain and a mountain'
>>> words.region(words.catalog.tile("ds001").region("S:S"), rot=1)
'the sea in the west'
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

from .catalog import Catalog, Region, TileType

Cell = tuple[int, int]
COMPASS = ("north", "east", "south", "west")
_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
#: unit-square points of the 12 slots (middle of each third of each side), clockwise from NW
_SLOT_POINTS = [(1 / 6, 0), (0.5, 0), (5 / 6, 0), (1, 1 / 6), (1, 0.5), (1, 5 / 6),
                (5 / 6, 1), (0.5, 1), (1 / 6, 1), (0, 5 / 6), (0, 0.5), (0, 1 / 6)]
_EIGHT = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


def count_words(n: int, one: str, many: str) -> str:
    """``count_words(2, "town", "towns")`` -> ``"two towns"``; ``1`` -> ``"a town"`` (``an`` before a vowel)."""
    if n == 1:
        return f"{'an' if one[:1].lower() in 'aeiou' else 'a'} {one}"
    number = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{number} {many}"


def join_words(items: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    if len(items) < 3:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _plural(word: str) -> str:
    if word.endswith(("s", "sh", "ch", "x")):
        return word + "es"
    return word + "s"


def turned_slots(slots: Iterable[int], rot: int) -> list[int]:
    """A region's slots once its tile is turned ``rot`` clockwise quarter turns."""
    return sorted((s + 3 * rot) % 12 for s in slots)


def where_on_tile(slots: Iterable[int], rot: int) -> str:
    """Where a region lies on a tile turned ``rot``, as seen on the table: ``"in the north-east"``,
    ``"from north to south"``, ``"all round"``, ``"in the middle"``.

    >>> where_on_tile({9, 10, 11}, 1), where_on_tile({0, 1, 2, 6, 7, 8}, 0), where_on_tile(set(), 0)
    ('in the north', 'from north to south', 'in the middle')
    """
    turned = turned_slots(slots, rot)
    if not turned:
        return "in the middle"
    sides = sorted({s // 3 for s in turned})
    if len(turned) == 12:
        return "all round"
    u = sum(_SLOT_POINTS[s][0] for s in turned) / len(turned) - 0.5
    v = sum(_SLOT_POINTS[s][1] for s in turned) / len(turned) - 0.5
    if abs(u) < 0.08 and abs(v) < 0.08:
        if sides == [0, 2]:
            return "from north to south"
        if sides == [1, 3]:
            return "from east to west"
        return "on the " + join_words([COMPASS[s] for s in sides]) + " sides"
    angle = (math.degrees(math.atan2(u, -v)) + 360) % 360  # 0 = north, clockwise
    return "in the " + _EIGHT[int((angle + 22.5) // 45) % 8]


class TileWords:
    """Table words for one catalog's tiles and regions."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        words = catalog.raw.get("words") if isinstance(catalog.raw, dict) else None
        words = words if isinstance(words, dict) else {}
        self.shapes: Mapping[str, Mapping[str, str]] = words.get("shapes") or {}
        self.symbols: Mapping[str, list[str]] = words.get("symbols") or {}
        self.town: list[str] = list(words.get("town") or ["town", "towns"])
        self.boat: list[str] = list(words.get("boat") or ["boat", "boats"])
        self.start_words: str = str(words.get("start") or "the start tile")
        self._names: dict[str, str] = {}

    @classmethod
    def of(cls, catalog: Catalog) -> "TileWords":
        """The words of ``catalog``, made once per catalog (catalogs never change once loaded)."""
        words = catalog.__dict__.get("_table_words")
        if words is None:
            words = catalog.__dict__["_table_words"] = cls(catalog)
        return words

    # ---- regions

    def terrain(self, letter: str) -> str:
        return str(self.catalog.terrains.get(letter, letter))

    def region_noun(self, region: Region) -> str:
        """The region's terrain name, or the catalog's word for its shape ("lake", "bay")."""
        shapes = self.shapes.get(region.terrain) or {}
        sides = len(region.sides)
        if not region.slots and "inland" in shapes:
            return shapes["inland"]
        if sides == 1 and "one side" in shapes:
            return shapes["one side"]
        return self.terrain(region.terrain)

    def region(self, region: Region, rot: int) -> str:
        """``"the sea in the north-east"`` for ``region`` of a tile turned ``rot`` quarter turns."""
        return f"the {self.region_noun(region)} {where_on_tile(region.slots, rot)}"

    # ---- tiles

    def tile(self, tile: TileType) -> str:
        """``"the tile with a bay, a plain and two towns"``: what is on it, whichever way it lies."""
        name = self._names.get(tile.id)
        if name is None:
            name = self._names[tile.id] = self.start_words if tile.start else "the tile with " + self.contents(tile)
        return name

    def contents(self, tile: TileType) -> str:
        """What is on a tile: its regions by shape and terrain, towns, goods and boats."""
        if len(tile.regions) == 1:
            return f"{self.terrain(tile.regions[0].terrain)} all round"
        order = list(self.catalog.terrains)
        counts: dict[str, int] = {}
        special: dict[str, int] = {}
        for r in sorted(tile.regions, key=lambda r: (order.index(r.terrain) if r.terrain in order else 99)):
            noun = self.region_noun(r)
            target = special if noun != self.terrain(r.terrain) else counts
            target[noun] = target.get(noun, 0) + 1
        parts = [count_words(n, noun, _plural(noun)) for noun, n in special.items()]
        parts += [count_words(n, noun, _plural(noun)) for noun, n in counts.items()]
        if tile.towns:
            parts.append(count_words(len(tile.towns), *self.town))
        goods: dict[str, int] = {}
        boats = 0
        for r in tile.regions:
            for sym, n in r.symbols.items():
                goods[sym] = goods.get(sym, 0) + n
            boats += int(r.boat)
        for sym, n in goods.items():
            one, many = (list(self.symbols.get(sym) or []) + [sym, _plural(sym)])[:2]
            parts.append(count_words(n, one, many))
        if boats:
            parts.append(count_words(boats, *self.boat))
        return join_words(parts)

    def sides(self, tile: TileType, rot: int) -> str:
        """Which way a tile lies: ``"sea north, plain east and west, mountain south"``, or ``""``
        when every way looks the same."""
        if len(tile.distinct_rotations) == 1:
            return ""
        by_terrain: dict[str, list[str]] = {}
        slots = tile.slots_rotated(rot)
        for d, word in enumerate(COMPASS):
            by_terrain.setdefault(self.terrain(slots[3 * d + 1]), []).append(word)
        return ", ".join(f"{t} {join_words(ds)}" for t, ds in by_terrain.items())

    # ---- places

    def place(self, cells: Mapping[Cell, Any], cell: Cell, exclude: Cell | None = None) -> str:
        """Where ``cell`` is, by what is visible around it. ``cells`` maps a cell to its placed tile
        (``.tile``); ``exclude`` (the cell itself, once its tile is down) is not a landmark."""
        x, y = cell
        if (x, y) == (0, 0):
            return "on " + self.start_words
        if abs(x) + abs(y) == 1:
            return f"{self.direction(x, y)} of {self.start_words}"
        names: dict[str, int] = {}
        for c, placed in cells.items():
            if c != exclude and c != cell:
                n = self.tile(placed.tile)
                names[n] = names.get(n, 0) + 1
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):  # the neighbours to the N, E, S and W
            other = cells.get((x + dx, y + dy))
            if other is not None and (x + dx, y + dy) != exclude:
                name = self.tile(other.tile)
                if names.get(name) == 1 or other.tile.start:
                    return f"{self.direction(-dx, -dy)} of {name}"
        return self.offset(x, y)

    def offset(self, x: int, y: int) -> str:
        """``"2 east and 1 south of the start tile"``."""
        bits = []
        if x:
            bits.append(f"{abs(x)} {'east' if x > 0 else 'west'}")
        if y:
            bits.append(f"{abs(y)} {'south' if y > 0 else 'north'}")
        return f"{' and '.join(bits)} of {self.start_words}"

    @staticmethod
    def direction(dx: int, dy: int) -> str:
        return {(0, -1): "north", (1, 0): "east", (0, 1): "south", (-1, 0): "west"}[(dx, dy)]
