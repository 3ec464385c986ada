"""Tile catalogs: load, validate and precompute (format: docs/catalogs.md).

A :class:`Catalog` holds :class:`TileType` objects. Each tile type knows its
regions, the region of each of its 12 slots, and, per rotation, the code of
each side, so that edge matching is a comparison of small integers.

Slots are numbered clockwise from the NW end of the north side:
N = 0,1,2  E = 3,4,5  S = 6,7,8  W = 9,10,11. A clockwise quarter turn moves
slot ``k`` to ``(k + 3) % 12``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from ... import schemas
from ...jsonfile import read_json
from ...i18n import T, reason
from ..base import TablehubError

SIDES = "NESW"
SLOT_NAMES = tuple(f"{s}{p}" for s in SIDES for p in "lcr")
ROTATIONS = (0, 90, 180, 270)
FORMAT = "tablehub-tiles/1"



class CatalogError(TablehubError):
    """A catalog file that breaks the format; the message names file, tile and region."""


@dataclass(frozen=True)
class Region:
    index: int
    id: str
    terrain: str
    slots: frozenset[int]
    symbols: Mapping[str, int] = field(default_factory=dict)
    boat: bool = False

    @property
    def sides(self) -> str:
        """The sides the region touches, e.g. ``"NW"``."""
        return "".join(s for i, s in enumerate(SIDES) if any(3 * i + k in self.slots for k in range(3)))


@dataclass(frozen=True)
class Town:
    land: int  # region index
    sea: int   # region index


@dataclass
class TileType:
    """One kind of tile. ``index`` is its position in the catalog."""

    index: int
    id: str
    count: int
    start: bool
    regions: tuple[Region, ...]
    towns: tuple[Town, ...]
    touching: tuple[tuple[int, int], ...]
    note: str
    art: Mapping[str, Any]
    slot_region: tuple[int, ...] = ()      # 12 region indices (unrotated)
    side_codes: tuple[tuple[int, ...], ...] = ()   # [rotation_index][direction] -> side code
    distinct_rotations: tuple[int, ...] = ()       # rotation indices giving distinct placements
    region_by_id: dict[str, Region] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> "TileType":
        return self  # part of an immutable catalog

    def region(self, region_id: str) -> Region:
        try:
            return self.region_by_id[region_id]
        except KeyError:
            known = ", ".join(r.id for r in self.regions)
            raise KeyError(f"tile {self.id} has no region {region_id!r} (its regions: {known})") from None

    def side_terrain(self, side: int) -> str:
        """The three slot terrains of an unrotated side, clockwise."""
        return "".join(self.regions[self.slot_region[3 * side + k]].terrain for k in range(3))

    def slots_rotated(self, rot: int) -> str:
        """12 terrain letters in the rotated frame, clockwise from the NW end of N."""
        return "".join(self.regions[self.slot_region[(k - 3 * rot) % 12]].terrain for k in range(12))


class SideCodes:
    """Interns side triples (three terrain letters, clockwise) as small ints."""

    def __init__(self) -> None:
        self.code: dict[str, int] = {}
        self.mirror: list[int] = [0]
        self.names: list[str] = [""]

    def of(self, triple: str) -> int:
        c = self.code.get(triple)
        if c is None:
            c = len(self.names)
            self.code[triple] = c
            self.names.append(triple)
            self.mirror.append(0)
            m = self.of(triple[::-1]) if triple[::-1] != triple else c
            self.mirror[c] = m
        return c


@dataclass
class Catalog:
    path: str
    game: str
    set_name: str
    provisional: bool
    terrains: dict[str, str]
    notes: list[str]
    tiles: list[TileType]
    codes: SideCodes
    by_id: dict[str, TileType]
    raw: dict[str, Any]
    #: (tile index, side requirement) -> rotations that fit; filled lazily by boards
    fit_cache: dict[tuple[int, tuple[int, int, int, int]], tuple[int, ...]] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> "Catalog":
        return self  # immutable once loaded: copies of a game share it (and its fit memo)

    @property
    def start(self) -> TileType:
        return next(t for t in self.tiles if t.start)

    def tile(self, tile_id: str) -> TileType:
        try:
            return self.by_id[tile_id]
        except KeyError:
            raise KeyError(f"no tile {tile_id!r} in {self.game} catalog ({self.path})") from None

    def total(self) -> int:
        return sum(t.count for t in self.tiles)

    def continues(self, a: str, a_rotation: int, d: int, b: str, b_rotation: int) -> bool:
        """Whether tile ``b`` turned by ``b_rotation`` degrees, lying in direction ``d`` (0-3: N, E, S, W) of tile
        ``a`` turned by ``a_rotation``, continues it: the game's own rule, shared by the board, the photo's scoring
        and vision's twins (a side's code names its slots clockwise round its own tile, so the code it requires of
        its neighbour is its mirror)."""
        need = self.codes.mirror[self.tile(a).side_codes[rotation_index(a_rotation)][d]]
        return self.tile(b).side_codes[rotation_index(b_rotation)][(d + 2) % 4] == need


def parse_slots(text: str) -> list[int]:
    """``"N Wl"`` -> slot indices. Raises ValueError naming the bad token."""
    out: list[int] = []
    for token in text.split():
        if len(token) == 1 and token in SIDES:
            s = SIDES.index(token)
            out.extend(3 * s + k for k in range(3))
        elif token in SLOT_NAMES:
            out.append(SLOT_NAMES.index(token))
        else:
            raise ValueError(T("unknown slot {token} (expected a side N/E/S/W or a slot like Nl, Nc, Nr)", token=repr(token)))
    return out


def _canonical(tile: TileType, rot: int) -> tuple:
    """A description of the rotated tile that is equal for equal-looking placements."""
    labels: dict[int, int] = {}
    slots = []
    for k in range(12):
        r = tile.slot_region[(k - 3 * rot) % 12]
        if r not in labels:
            labels[r] = len(labels)
        reg = tile.regions[r]
        slots.append((labels[r], reg.terrain, tuple(sorted(reg.symbols.items())), reg.boat))
    towns = sorted((labels.get(t.land, -1), labels.get(t.sea, -1)) for t in tile.towns)
    touching = sorted((labels.get(a, -1), labels.get(b, -1)) for a, b in tile.touching)
    inner = sorted((r.terrain, tuple(sorted(r.symbols.items()))) for r in tile.regions if not r.slots)
    return tuple(slots), tuple(towns), tuple(touching), tuple(inner)


def _err(path: str, tile: str | None, msg: Any, region: str | None = None) -> CatalogError:
    where: Any = path
    if tile is not None:
        where = T("{path}: tile {tile}", path=path, tile=tile)
    if region is not None:
        where = T("{where}: region {region}", where=where, region=region)
    return CatalogError(T("{where}: {why}", where=where, why=msg))


def build_catalog(data: Any, path: str = "<catalog>", expect_game: str | None = None) -> Catalog:
    """Validate a parsed catalog and precompute slots, side codes and rotations."""
    schemas.check(data, "catalog", path, CatalogError)  # the declared format: types, known fields, ranges
    game = data["game"]
    if expect_game is not None and game != expect_game:
        raise _err(path, None, T("this catalog is for {game}, not {expected}", game=repr(game), expected=repr(expect_game)))
    terrains = data["terrains"]
    tiles_data = data["tiles"]
    codes = SideCodes()
    tiles: list[TileType] = []
    by_id: dict[str, TileType] = {}
    for ti, td in enumerate(tiles_data):
        tile = _build_tile(ti, td, path, terrains, codes)
        if tile.id in by_id:
            raise _err(path, tile.id, T("duplicate tile id"))
        by_id[tile.id] = tile
        tiles.append(tile)
    starts = [t for t in tiles if t.start]
    if len(starts) != 1:
        raise _err(path, None, T("exactly one tile must have \"start\": true, found {n}", n=len(starts)))
    _check_words(data.get("words"), path, terrains)
    return Catalog(path, game, str(data.get("set", "")), bool(data.get("provisional", False)),
                   dict(terrains), list(data.get("notes", [])), tiles, codes, by_id, data)


def _check_words(words: Any, path: str, terrains: Mapping[str, str]) -> None:
    """The optional ``words`` (how the page names regions, goods and boats): the schema declares
    their shape; here, that ``shapes`` names only this catalog's terrains."""
    for letter in (words or {}).get("shapes", {}):
        if letter not in terrains:
            raise _err(path, None, T("words: shapes names terrain {letter}, which is not one of {terrains}",
                                     letter=repr(letter), terrains=", ".join(terrains)))


def _build_tile(index: int, td: Any, path: str, terrains: Mapping[str, str], codes: SideCodes) -> TileType:
    tid = td["id"]
    count = int(td.get("count", 1))
    regions_data = td["regions"]
    regions: list[Region] = []
    slot_region = [-1] * 12
    ids: dict[str, int] = {}
    for ri, rd in enumerate(regions_data):
        rid = rd["id"]
        if rid in ids:
            raise _err(path, tid, T("duplicate region id"), rid)
        terrain = rd.get("terrain")
        if terrain not in terrains:
            raise _err(path, tid, T("terrain {terrain} is not one of {terrains}", terrain=repr(terrain),
                                    terrains=", ".join(terrains)), rid)
        slots_text = rd.get("slots", "")
        try:
            slots = parse_slots(slots_text)
        except ValueError as exc:
            raise _err(path, tid, reason(exc), rid) from None
        for s in slots:
            if slot_region[s] != -1:
                other = regions[slot_region[s]].id
                raise _err(path, tid, T("slot {slot} is also claimed by region {other}", slot=SLOT_NAMES[s], other=other),
                           rid)
            slot_region[s] = ri
        symbols = {k: int(v) for k, v in rd.get("symbols", {}).items()}
        boat = rd.get("boat", False)
        ids[rid] = ri
        regions.append(Region(ri, rid, terrain, frozenset(slots), dict(symbols), boat))
    missing = [SLOT_NAMES[s] for s in range(12) if slot_region[s] == -1]
    if missing:
        raise _err(path, tid, T("slots {slots} belong to no region (every slot needs exactly one)",
                                slots=" ".join(missing)))

    def region_ref(value: Any, what: str) -> int:
        if value not in ids:
            raise _err(path, tid, T("{what} names region {value}, which the tile does not have (its regions: {known})",
                                    what=what, value=repr(value), known=", ".join(ids)))
        return ids[value]

    towns = []
    for t in td.get("towns", []):
        towns.append(Town(region_ref(t["land"], T("a town's 'land'")), region_ref(t["sea"], T("a town's 'sea'"))))
    touching = []
    for pair in td.get("touching", []):
        touching.append((region_ref(pair[0], "'touching'"), region_ref(pair[1], "'touching'")))
    tile = TileType(index, tid, count, bool(td.get("start", False)), tuple(regions), tuple(towns),
                    tuple(touching), str(td.get("note", "")), td.get("art", {}))
    tile.slot_region = tuple(slot_region)
    tile.region_by_id = {r.id: r for r in regions}
    sides = [codes.of(tile.side_terrain(s)) for s in range(4)]
    # rotation r (quarter turns): the side facing direction d is unrotated side (d - r) % 4
    tile.side_codes = tuple(tuple(sides[(d - r) % 4] for d in range(4)) for r in range(4))
    seen: dict[tuple, int] = {}
    for r in range(4):
        seen.setdefault(_canonical(tile, r), r)
    tile.distinct_rotations = tuple(sorted(seen.values()))
    return tile


def load_catalog(path: str | Path, expect_game: str | None = None) -> Catalog:
    data, source = read_json(path, CatalogError, "catalog")
    return build_catalog(data, source, expect_game)


def rotation_index(degrees: Any) -> int:
    """0/90/180/270 degrees clockwise -> 0..3, with a clear error for anything else."""
    if isinstance(degrees, bool) or not isinstance(degrees, int) or degrees not in ROTATIONS:
        raise ValueError(T("rotation must be 0, 90, 180 or 270 (degrees clockwise), got {rotation}", rotation=repr(degrees)))
    return ROTATIONS.index(degrees)


def iter_rotations(tile: TileType) -> Iterable[int]:
    return tile.distinct_rotations
