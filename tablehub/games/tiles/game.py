"""The turn skeleton shared by tile-laying games.

:class:`TileGame` owns the catalog, the box of tiles still to draw, the board
with the start tile, and the common actions: ``place_tile``, ``discard_tile``
(a tile that fits nowhere) and ``place_figure`` (a figure from the supply onto
an unoccupied feature of the tile just placed). A game adds its own figure
actions and its scoring through the hooks at the bottom.

Turns: a turn starts with the current player's first ``place_tile`` or
``discard_tile``; the next ``place_tile``/``discard_tile`` after a placement
starts the next player's turn. ``self.turn`` counts turns from 1.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Iterable, Iterator, Mapping

from ..base import Action, Game, IllegalAction, OptionSpec, SetupError, Setup
from .board import Cell, TileBoard
from .catalog import Catalog, CatalogError, TileType, load_catalog, rotation_index

_CATALOG_CACHE: dict[tuple[str, str], Catalog] = {}


def cached_catalog(path: str | Path, game: str) -> Catalog:
    """Catalogs are immutable after loading: share one per file."""
    key = (str(Path(path).resolve()), game)
    cat = _CATALOG_CACHE.get(key)
    if cat is None:
        cat = _CATALOG_CACHE[key] = load_catalog(path, expect_game=game)
    return cat


@dataclass(frozen=True)
class PlaceTile(Action):
    """Lay ``tile`` at cell (x, y) turned ``rotation`` degrees clockwise."""

    type: ClassVar[str] = "place_tile"
    tile: str
    x: int
    y: int
    rotation: int = field(default=0, metadata={"required": True})  # in records: required, never a silent 0


@dataclass(frozen=True)
class DiscardTile(Action):
    """Remove a drawn tile that fits nowhere from the game; the player draws again."""

    type: ClassVar[str] = "discard_tile"
    tile: str


@dataclass(frozen=True)
class PlaceFigure(Action):
    """Put a figure from the supply on ``region`` (id in the tile's own frame) of the tile just placed."""

    type: ClassVar[str] = "place_figure"
    region: str


@dataclass(frozen=True)
class FigureOnBoard(Action):
    """Base of the actions that name a figure already on the board: the tile's cell and the region
    (id in the tile's own frame). Games subclass it with their own ``type`` (Neues Land's
    ``score_figure``, Südsee's ``take_back``)."""

    x: int
    y: int
    region: str


@dataclass
class Figure:
    owner: int
    cell: Cell
    region: int  # region index on that tile

    def key(self) -> tuple[int, Cell, int]:
        return (self.owner, self.cell, self.region)


class TileGame(Game):
    """Base of Neues Land and Südsee. Subclasses set ``catalog_file``, ``figures_per_player``,
    ``figure_terrains`` and implement the scoring hooks."""

    catalog_file: ClassVar[Path]
    figures_per_player: ClassVar[int] = 4
    figure_word: ClassVar[str] = "figure"
    #: the action by which a figure leaves the board during play (seen by the camera as a figure gone)
    figure_removal: ClassVar[type[FigureOnBoard] | None] = None
    #: the action that ends the figure step with no figure, when the game has one (NEXT logs it after such a turn)
    figure_skip: ClassVar[type[Action] | None] = None
    #: terrain letter -> what a figure standing there is called ("explorer", ...)
    figure_roles: ClassVar[dict[str, str]] = {}
    BASE_OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("catalog", None, "path to your own tile catalog (docs/catalogs.md); default: the shipped set",
                   kind=str, what="a path to a tile catalog file (docs/catalogs.md)"),
    )

    def __init__(self, setup: Setup):
        super().__init__(setup)
        path = self.options.get("catalog") or self.catalog_file
        try:
            self.catalog: Catalog = cached_catalog(path, self.name)
        except CatalogError as exc:
            raise SetupError(str(exc)) from None
        self.board = TileBoard(self.catalog)
        start = self.catalog.start
        self.box: Counter[str] = Counter({t.id: t.count for t in self.catalog.tiles})
        self.box[start.id] -= 1
        self.board.place(start, (0, 0), 0)
        self.board.last = None
        self.discarded: list[str] = []
        self.supply: list[int] = [self.figures_per_player] * len(self.players)
        self.figures: list[Figure] = []
        self.placed = False         # the current player has laid their tile this turn
        self.figure_done = False    # the current player has used their figure step this turn
        self.last_cell: Cell | None = None

    # ---- tiles available to the current player (the expert variant overrides)

    def tile_available(self, tile_id: str) -> bool:
        return self.box[tile_id] > 0

    def take_tile(self, tile_id: str) -> None:
        self.box[tile_id] -= 1

    def tiles_left(self) -> int:
        return sum(self.box.values())

    # ---- turn bookkeeping

    def _next_turn_if_due(self) -> None:
        if self.turn == 0:
            self.turn = 1
        elif self.placed:
            self.current = (self.current + 1) % len(self.players)
            self.turn += 1
            self.placed = False
            self.figure_done = False
            self.last_cell = None

    def player_to_lay(self) -> int:
        """Index of the player the next place/discard would be made by."""
        if self.turn != 0 and self.placed:
            return (self.current + 1) % len(self.players)
        return self.current

    @property
    def to_play(self) -> str:
        return self.players[self.player_to_lay()]

    # ---- where tiles come from in a random playout (the physical draw); variants override

    def playout_setup(self, pile: list[str]) -> Iterator[Action]:
        """Actions before the first turn (e.g. tiles set aside), drawn from the shuffled ``pile``."""
        return iter(())

    def playout_tiles(self, pile: list[str]) -> list[str]:
        """The tiles the next player may lay: one drawn from ``pile`` (empty: the game is out of tiles)."""
        return [pile.pop()] if pile else []

    def playout_refill(self, pile: list[str]) -> Iterator[Action]:
        """Actions after a turn or a discard (e.g. drawing into hands); yielded one at a time, each
        applied before the next is asked for."""
        return iter(())

    # ---- validation

    def _tile(self, tile_id: str) -> TileType:
        try:
            return self.catalog.tile(tile_id)
        except KeyError:
            raise IllegalAction(f"unknown tile {tile_id!r}: the {self.title} set has no such tile",
                                rule="unknown_tile") from None

    def _validate(self, action: Action) -> None:
        if isinstance(action, PlaceTile):
            self._check_place(action)
        elif isinstance(action, DiscardTile):
            self._check_discard(action)
        elif isinstance(action, PlaceFigure):
            self._check_figure(action)
        else:
            self._validate_other(action)

    def _check_place(self, a: PlaceTile) -> None:
        tile = self._tile(a.tile)
        try:
            rot = rotation_index(a.rotation)
        except ValueError as exc:
            raise IllegalAction(str(exc), rule="bad_rotation") from None
        self._check_tile_source(a.tile)
        self.board.check(tile, (a.x, a.y), rot)

    def _check_tile_source(self, tile_id: str) -> None:
        if not self.tile_available(tile_id):
            left = self.box[tile_id] if tile_id in self.box else 0
            raise IllegalAction(f"tile {tile_id} is not in the box any more ({left} left)", rule="tile_unavailable")

    def _check_discard(self, a: DiscardTile) -> None:
        tile = self._tile(a.tile)
        self._check_tile_source(a.tile)
        if self.board.can_place(tile):
            n = len(self.board.legal_placements(tile))
            raise IllegalAction(f"tile {a.tile} can be placed ({n} legal placements); only a tile that fits "
                                f"nowhere is discarded", rule="discard_placeable")

    def _check_figure_step(self, what: str) -> None:
        if not self.placed:
            raise IllegalAction(f"{what} comes after laying the turn's tile", rule="figure_before_tile")
        if self.figure_done:
            raise IllegalAction(f"{self.current_player} has already used this turn's figure step",
                                rule="one_figure_action")

    def _check_figure(self, a: PlaceFigure) -> None:
        self._check_figure_step(f"placing a {self.figure_word}")
        if self.supply[self.current] <= 0:
            raise IllegalAction(f"{self.current_player} has no {self.figure_word} left in supply",
                                rule="no_supply")
        cell = self.last_cell
        assert cell is not None
        tile = self.board.cells[cell].tile
        try:
            region = tile.region(a.region)
        except KeyError as exc:
            raise IllegalAction(str(exc.args[0]), rule="unknown_region") from None
        if region.terrain not in self.figure_roles:
            raise IllegalAction(f"a {self.figure_word} cannot stand on {self._terrain(region.terrain)} "
                                f"(region {a.region} of {tile.id})", rule="bad_region")
        root = self.board.feature(cell, region.index)
        occ = self.board.occupants_of(root)
        if occ:
            who = ", ".join(sorted({self.players[f.owner] for f in occ}))
            raise IllegalAction(f"the {self._terrain(region.terrain)} of region {a.region} is already occupied "
                                f"(by {who})", rule="occupied_feature")
        self._check_figure_extra(tile, region, root)

    def _check_figure_extra(self, tile: TileType, region: Any, root: int) -> None:
        """Game-specific figure rules (hook)."""

    def _terrain(self, letter: str) -> str:
        return self.catalog.terrains.get(letter, letter)

    def describe(self, action: Mapping[str, Any]) -> str | None:
        """Figure actions with the region in table words: "Place figure: sailor on the sea, north
        side" instead of the catalog's region id (which is in the tile's unturned frame). Reads
        only the tile under the figure, which no action removes."""
        region_id = action.get("region")
        if not isinstance(region_id, str):
            return None
        x, y = action.get("x"), action.get("y")
        cell = (x, y) if isinstance(x, int) and isinstance(y, int) else self.last_cell
        placed = self.board.cells.get(cell) if cell is not None else None
        if placed is None:
            return None
        try:
            region = placed.tile.region(region_id)
        except KeyError:
            return None
        verb = str(action.get("type", "action")).replace("_", " ").capitalize()
        role = self.figure_roles.get(region.terrain, self.figure_word)
        where = f", at ({cell[0]}, {cell[1]})" if "x" in action else ""
        return f"{verb}: {role} on the {self._terrain(region.terrain)}, {table_sides(region.slots, placed.rot)}{where}"

    # ---- application

    def _apply(self, action: Action) -> None:
        if isinstance(action, PlaceTile):
            self._next_turn_if_due()
            tile = self.catalog.tile(action.tile)
            rot = rotation_index(action.rotation)
            self.take_tile(action.tile)
            roots = self.board.place(tile, (action.x, action.y), rot)
            self.placed = True
            self.last_cell = (action.x, action.y)
            self.after_place(tile, (action.x, action.y), roots)
        elif isinstance(action, DiscardTile):
            self._next_turn_if_due()
            self.take_tile(action.tile)
            self.discarded.append(action.tile)
        elif isinstance(action, PlaceFigure):
            cell = self.last_cell
            assert cell is not None
            region = self.board.cells[cell].tile.region(action.region)
            fig = Figure(self.current, cell, region.index)
            self.supply[self.current] -= 1
            self.figures.append(fig)
            self.board.occupants_of(self.board.feature(cell, region.index)).append(fig)
            self.figure_done = True
            self.after_figure(fig)
        else:
            self._apply_other(action)

    def remove_figure(self, fig: Figure) -> None:
        root = self.board.feature(fig.cell, fig.region)
        self.board.occupants_of(root).remove(fig)
        self.figures.remove(fig)
        self.supply[fig.owner] += 1

    def figure_at(self, cell: Cell, region_id: str, owner: int | None = None) -> Figure:
        if cell not in self.board.cells:
            raise IllegalAction(f"no tile at {cell[0]}, {cell[1]}", rule="no_tile")
        tile = self.board.cells[cell].tile
        try:
            region = tile.region(region_id)
        except KeyError as exc:
            raise IllegalAction(str(exc.args[0]), rule="unknown_region") from None
        for f in self.figures:
            if f.cell == cell and f.region == region.index and (owner is None or f.owner == owner):
                return f
        whose = "" if owner is None else f" of {self.players[owner]}"
        raise IllegalAction(f"no {self.figure_word}{whose} on region {region_id} of {tile.id} at "
                            f"{cell[0]}, {cell[1]}", rule="no_figure")

    # ---- legal actions

    def legal_placements(self, tile_id: str) -> list[PlaceTile]:
        tile = self._tile(tile_id)
        return [PlaceTile(tile_id, x, y, 90 * r) for x, y, r in self.board.legal_placements(tile)]

    def legal_figure_placements(self) -> list[PlaceFigure]:
        if not self.placed or self.figure_done or self.supply[self.current] <= 0 or self.last_cell is None:
            return []
        out = []
        for region in self.board.cells[self.last_cell].tile.regions:
            a = PlaceFigure(region.id)
            if self.validate(a) is None:
                out.append(a)
        return out

    def legal_actions(self, tile: str | None = None) -> list[Action]:
        """With ``tile``: where that drawn tile may go (or its discard). Otherwise the figure step."""
        if tile is not None:
            places: list[Action] = list(self.legal_placements(tile))
            return places or [DiscardTile(tile)]
        return list(self.legal_figure_placements()) + list(self._legal_other())

    def _legal_other(self) -> Iterable[Action]:
        return ()

    # ---- views

    def figure_view(self, f: Figure) -> dict[str, Any]:
        placed = self.board.cells[f.cell]
        region = placed.tile.regions[f.region]
        return {"x": f.cell[0], "y": f.cell[1], "region": region.id, "owner": self.players[f.owner],
                "color": self.setup.colors[f.owner] if self.setup.colors else None,
                "terrain": region.terrain, "anchor": region_anchor(region.slots, placed.rot)}

    def view(self) -> dict[str, Any]:
        return {
            "kind": "tiles",
            "terrains": dict(self.catalog.terrains),
            "tiles": [self.board.tile_view(c) for c, _ in sorted(self.board, key=lambda kv: kv[1].order)],
            "figures": [self.figure_view(f) for f in self.figures],
            "last": None if self.last_cell is None else {"x": self.last_cell[0], "y": self.last_cell[1]},
            "flag": None,
        }

    def iter_figures(self, owner: int | None = None) -> Iterator[Figure]:
        return (f for f in self.figures if owner is None or f.owner == owner)

    # ---- hooks for games

    def after_place(self, tile: TileType, cell: Cell, roots: list[int]) -> None:
        """Called after a tile is down (completion scoring in Südsee)."""

    def after_figure(self, fig: Figure) -> None:
        """Called after a figure is placed."""

    def _validate_other(self, action: Action) -> None:
        raise IllegalAction(f"{action.type} is not handled by {self.name}", rule="unknown_action")

    def _apply_other(self, action: Action) -> None:
        raise NotImplementedError(action.type)


_SIDE_WORDS = ("north", "east", "south", "west")


def table_sides(slots: frozenset[int], rot: int) -> str:
    """The sides of the table a region of a tile turned ``rot`` quarter turns touches, in words."""
    sides = sorted({((s + 3 * rot) % 12) // 3 for s in slots})
    if not sides:
        return "middle of the tile"
    if len(sides) == 4:
        return "all sides"
    words = [_SIDE_WORDS[i] for i in sides]
    return (" and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]) + \
        (" side" if len(words) == 1 else " sides")


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
