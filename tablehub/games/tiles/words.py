"""Tiles, regions and places in the words of the people at the table.

Tile ids and region ids are for files. At the table a tile is named by what is on it
("the tile with a bay, a plain and two towns"), a region by its terrain and where it lies
on the tile as the tile lies on the table ("the sea in the north-east"), and a cell by
something visible ("east of the start tile", "south of the tile with a lake"). The
game-specific words (terrain names, "lake" for a sea inside a tile, "fishing boat", the
goods' names) come from the catalog's ``terrains`` and ``words`` (docs/catalogs.md).

Every phrase is a :class:`~tablehub.i18n.Text` (its ``str`` is the English): whole templates
("the tile with {contents}", "north of {tile}"), the catalog's words as catalog entries in the
game's context (``msgctxt "neuesland"``: "a town" / "{count} towns", "the sea {where}", "on the
sea {where}"), so French and German translators write each phrase with its gender and case. A
tile or region has a form for after a preposition (:meth:`TileWords.tile_of`,
:meth:`TileWords.region_on`: German dative), and a capitalised form to begin a sentence.

>>> from tablehub.games.tiles.game import cached_catalog
>>> from pathlib import Path
>>> import tablehub.games.neuesland as nl
>>> words = TileWords(cached_catalog(Path(nl.__file__).with_name("tiles.json"), "neuesland"))
>>> words.tile(words.catalog.tile("ds001"))
'the start tile'
>>> words.tile(words.catalog.tile("ds081"))
'the tile with a lake, two plains and two mountains'
>>> words.region(words.catalog.tile("ds001").region("S:S"), rot=1)
'the bay in the west'
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

from ...i18n import N_, T, Tc, Text, join
from .catalog import Catalog, Region, TileType

Cell = tuple[int, int]
COMPASS = ("north", "east", "south", "west")
_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
#: the number words of counted things ("two towns"), marked for the catalogs
_NUMBER_TEXT = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"), 7: N_("seven"),
                8: N_("eight"), 9: N_("nine"), 10: N_("ten"), 11: N_("eleven"), 12: N_("twelve")}
#: unit-square points of the 12 slots (middle of each third of each side), clockwise from NW
_SLOT_POINTS = [(1 / 6, 0), (0.5, 0), (5 / 6, 0), (1, 1 / 6), (1, 0.5), (1, 5 / 6),
                (5 / 6, 1), (0.5, 1), (1 / 6, 1), (0, 5 / 6), (0, 0.5), (0, 1 / 6)]
_EIGHT = (N_("in the north"), N_("in the north-east"), N_("in the east"), N_("in the south-east"),
          N_("in the south"), N_("in the south-west"), N_("in the west"), N_("in the north-west"))
#: a side's name in a list of sides ("on the north and east sides"), and where a terrain lies ("sea north")
_SIDE = (N_("north"), N_("east"), N_("south"), N_("west"))
#: a cell next to a landmark, by direction N, E, S, W
_NEXT_TO = (N_("north of {tile}"), N_("east of {tile}"), N_("south of {tile}"), N_("west of {tile}"))
#: the context of a tile's or region's words after a preposition (German: the dative)
AFTER_PREPOSITION = "after a preposition"


def count_words(n: int, one: str, many: str) -> str:
    """``count_words(2, "town", "towns")`` -> ``"two towns"``; ``1`` -> ``"a town"`` (``an`` before a vowel)."""
    if n == 1:
        return f"{'an' if one[:1].lower() in 'aeiou' else 'a'} {one}"
    number = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{number} {many}"


def counted(context: str, n: int, one: str, many: str) -> Text:
    """:func:`count_words` as a :class:`Text`: the catalog entries are ``msgid "a town"`` and
    ``msgid "{count} towns"`` (``{count}``: the number in words, "two" to "twelve"), written for the
    place they are used (after "with": German dative); ``context`` is kept for the caller's sake (the
    entries are shared: "a sea" is the same in every tile game).

    >>> counted("neuesland", 2, "town", "towns")
    'two towns'
    """
    if n == 1:
        return Text(count_words(1, one, many))
    number: Any = T(_NUMBER_TEXT[n]) if n in _NUMBER_TEXT else str(n)
    return Text(f"{{count}} {many}", count=number)


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


def where_on_tile(slots: Iterable[int], rot: int) -> Text:
    """Where a region lies on a tile turned ``rot``, as seen on the table: ``"in the north-east"``,
    ``"from north to south"``, ``"all round"``, ``"in the middle"``.

    >>> where_on_tile({9, 10, 11}, 1), where_on_tile({0, 1, 2, 6, 7, 8}, 0), where_on_tile(set(), 0)
    ('in the north', 'from north to south', 'in the middle')
    """
    turned = turned_slots(slots, rot)
    if not turned:
        return T("in the middle")
    sides = sorted({s // 3 for s in turned})
    if len(turned) == 12:
        return T("all round")
    u = sum(_SLOT_POINTS[s][0] for s in turned) / len(turned) - 0.5
    v = sum(_SLOT_POINTS[s][1] for s in turned) / len(turned) - 0.5
    if abs(u) < 0.08 and abs(v) < 0.08:
        if sides == [0, 2]:
            return T("from north to south")
        if sides == [1, 3]:
            return T("from east to west")
        return T("on the {sides} sides", sides=join([T(_SIDE[s]) for s in sides]))
    angle = (math.degrees(math.atan2(u, -v)) + 360) % 360  # 0 = north, clockwise
    return T(_EIGHT[int((angle + 22.5) // 45) % 8])


def side_name(direction: int) -> Text:
    """``"north"`` .. ``"west"`` (0..3) as a :class:`Text`."""
    return T(_SIDE[direction])


class TileWords:
    """Table words for one catalog's tiles and regions (every phrase a :class:`Text`)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.game = catalog.game
        words = catalog.raw.get("words") if isinstance(catalog.raw, dict) else None
        words = words if isinstance(words, dict) else {}
        self.shapes: Mapping[str, Mapping[str, str]] = words.get("shapes") or {}
        self.symbols: Mapping[str, list[str]] = words.get("symbols") or {}
        self.town: list[str] = list(words.get("town") or ["town", "towns"])
        self.boat: list[str] = list(words.get("boat") or ["boat", "boats"])
        self.start_words: str = str(words.get("start") or "the start tile")
        self._names: dict[tuple[str, str], Text] = {}

    @classmethod
    def of(cls, catalog: Catalog) -> "TileWords":
        """The words of ``catalog``, made once per catalog (catalogs never change once loaded)."""
        words = catalog.__dict__.get("_table_words")
        if words is None:
            words = catalog.__dict__["_table_words"] = cls(catalog)
        return words

    # ---- regions

    def terrain(self, letter: str) -> Text:
        """The terrain's name (``"sea"``), a word of the game's context."""
        return Tc(self.game, str(self.catalog.terrains.get(letter, letter)))

    def region_noun(self, region: Region) -> str:
        """The region's terrain name, or the catalog's word for its shape ("lake", "bay"), in English."""
        shapes = self.shapes.get(region.terrain) or {}
        sides = len(region.sides)
        if not region.slots and "inland" in shapes:
            return shapes["inland"]
        if sides == 1 and "one side" in shapes:
            return shapes["one side"]
        return str(self.catalog.terrains.get(region.terrain, region.terrain))

    def region(self, region: Region, rot: int) -> Text:
        """``"the sea in the north-east"`` for ``region`` of a tile turned ``rot`` quarter turns."""
        return Text(f"the {self.region_noun(region)} {{where}}", context=self.game,
                    where=where_on_tile(region.slots, rot))

    def region_on(self, region: Region, rot: int) -> Text:
        """``"on the sea in the north-east"``: the region after "on" (German: auf + dative)."""
        return Text(f"on the {self.region_noun(region)} {{where}}", context=self.game,
                    where=where_on_tile(region.slots, rot))

    # ---- tiles

    def tile(self, tile: TileType) -> Text:
        """``"the tile with a bay, a plain and two towns"``: what is on it, whichever way it lies."""
        return self._tile(tile, "")

    def tile_of(self, tile: TileType) -> Text:
        """:meth:`tile` after a preposition ("east of the tile with a lake"; German: dative)."""
        return self._tile(tile, AFTER_PREPOSITION)

    def Tile(self, tile: TileType) -> Text:
        """:meth:`tile` beginning a sentence: ``"The tile with a lake"``."""
        return self._tile(tile, "capital")

    def _tile(self, tile: TileType, form: str) -> Text:
        name = self._names.get((tile.id, form))
        if name is None:
            name = self._names[(tile.id, form)] = self._make_name(tile, form)
        return name

    def _make_name(self, tile: TileType, form: str) -> Text:
        if tile.start:
            if self.start_words != "the start tile":  # a catalog's own word (English until a catalog has it)
                start = self.start_words[:1].upper() + self.start_words[1:] if form == "capital" else self.start_words
                return Text(start, context=AFTER_PREPOSITION if form == AFTER_PREPOSITION else None)
            if form == "capital":
                return T("The start tile")
            return Tc("after a preposition", "the start tile") if form == AFTER_PREPOSITION else T("the start tile")
        if len(tile.regions) == 1:
            terrain = self.terrain(tile.regions[0].terrain)
            if form == "capital":
                return T("The tile with {terrain} all round", terrain=terrain)
            if form == AFTER_PREPOSITION:
                return Tc("after a preposition", "the tile with {terrain} all round", terrain=terrain)
            return T("the tile with {terrain} all round", terrain=terrain)
        contents = self.contents(tile)
        if form == "capital":
            return T("The tile with {contents}", contents=contents)
        if form == AFTER_PREPOSITION:
            return Tc("after a preposition", "the tile with {contents}", contents=contents)
        return T("the tile with {contents}", contents=contents)

    def contents(self, tile: TileType) -> Text:
        """What is on a tile: its regions by shape and terrain, towns, goods and boats (after "with")."""
        if len(tile.regions) == 1:
            return T("{terrain} all round", terrain=self.terrain(tile.regions[0].terrain))
        order = list(self.catalog.terrains)
        counts: dict[str, int] = {}
        special: dict[str, int] = {}
        for r in sorted(tile.regions, key=lambda r: (order.index(r.terrain) if r.terrain in order else 99)):
            noun = self.region_noun(r)
            target = special if noun != self.catalog.terrains.get(r.terrain, r.terrain) else counts
            target[noun] = target.get(noun, 0) + 1
        ctx = self.game
        parts = [counted(ctx, n, noun, _plural(noun)) for noun, n in special.items()]
        parts += [counted(ctx, n, noun, _plural(noun)) for noun, n in counts.items()]
        if tile.towns:
            parts.append(counted(ctx, len(tile.towns), *self.town))
        goods: dict[str, int] = {}
        boats = 0
        for r in tile.regions:
            for sym, n in r.symbols.items():
                goods[sym] = goods.get(sym, 0) + n
            boats += int(r.boat)
        for sym, n in goods.items():
            one, many = (list(self.symbols.get(sym) or []) + [sym, _plural(sym)])[:2]
            parts.append(counted(ctx, n, one, many))
        if boats:
            parts.append(counted(ctx, boats, *self.boat))
        return join(parts)

    def sides(self, tile: TileType, rot: int) -> Text | str:
        """Which way a tile lies: ``"sea north, plain east and west, mountain south"``, or ``""``
        when every way looks the same."""
        if len(tile.distinct_rotations) == 1:
            return ""
        by_terrain: dict[str, list[int]] = {}
        slots = tile.slots_rotated(rot)
        for d in range(4):
            by_terrain.setdefault(slots[3 * d + 1], []).append(d)
        parts = [T("{terrain} {directions}", terrain=self.terrain(t), directions=join([side_name(d) for d in ds]))
                 for t, ds in by_terrain.items()]
        out: Any = parts[0]
        for part in parts[1:]:
            out = T("{first}, {next}", first=out, next=part)
        return out

    # ---- places

    def place(self, cells: Mapping[Cell, Any], cell: Cell, exclude: Cell | None = None) -> Text:
        """Where ``cell`` is, by what is visible around it. ``cells`` maps a cell to its placed tile
        (``.tile``); ``exclude`` (the cell itself, once its tile is down) is not a landmark."""
        x, y = cell
        start = self.catalog.start
        if (x, y) == (0, 0):
            return T("on {tile}", tile=self.tile_of(start))
        if abs(x) + abs(y) == 1:
            return self.next_to(x, y, self.tile_of(start))
        names: dict[str, int] = {}
        for c, placed in cells.items():
            if c != exclude and c != cell:
                n = str(self.tile(placed.tile))
                names[n] = names.get(n, 0) + 1
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):  # the neighbours to the N, E, S and W
            other = cells.get((x + dx, y + dy))
            if other is not None and (x + dx, y + dy) != exclude:
                name = str(self.tile(other.tile))
                if names.get(name) == 1 or other.tile.start:
                    return self.next_to(-dx, -dy, self.tile_of(other.tile))
        return self.offset(x, y)

    def next_to(self, dx: int, dy: int, tile: Any) -> Text:
        """``"east of the start tile"``: the cell one step (dx, dy) from the landmark ``tile``."""
        return T(_NEXT_TO[((0, -1), (1, 0), (0, 1), (-1, 0)).index((dx, dy))], tile=tile)

    def offset(self, x: int, y: int) -> Text:
        """``"2 east and 1 south of the start tile"``."""
        start = self.tile_of(self.catalog.start)
        ex, sy = abs(x), abs(y)
        if x and y:
            template = {(True, True): N_("{x} east and {y} south of {tile}"),
                        (True, False): N_("{x} east and {y} north of {tile}"),
                        (False, True): N_("{x} west and {y} south of {tile}"),
                        (False, False): N_("{x} west and {y} north of {tile}")}[(x > 0, y > 0)]
        elif x:
            template = N_("{x} east of {tile}") if x > 0 else N_("{x} west of {tile}")
        else:
            template = N_("{y} south of {tile}") if y > 0 else N_("{y} north of {tile}")
        return T(template, x=ex, y=sy, tile=start)

    @staticmethod
    def direction(dx: int, dy: int) -> str:
        return {(0, -1): "north", (1, 0): "east", (0, 1): "south", (-1, 0): "west"}[(dx, dy)]
