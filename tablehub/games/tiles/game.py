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

from ...i18n import N_, T, Tc, Text
from ..base import Action, Game, IllegalAction, OptionSpec, SetupError, Setup, confirmed, no_hints
from .board import Cell, TileBoard
from .catalog import Catalog, CatalogError, TileType, load_catalog, rotation_index
from .board import region_anchor, tile_marks  # noqa: F401  (games import region_anchor from here)
from .words import TileWords

_CATALOG_CACHE: dict[tuple[str, str], Catalog] = {}


def cached_catalog(path: str | Path, game: str) -> Catalog:
    """Catalogs are immutable after loading: share one per file."""
    key = (str(Path(path).resolve()), game)
    cat = _CATALOG_CACHE.get(key)
    if cat is None:
        cat = _CATALOG_CACHE[key] = load_catalog(path, expect_game=game)
    return cat


#: what the hand-entry form calls these actions' fields (web/present.py action_forms; tiles.po)
TILE_FIELDS: dict[str, str] = {
    "tile": N_("tile"),
    "rotation": N_("rotation"),
    "region": N_("region"),
}


@dataclass(frozen=True)
class PlaceTile(Action):
    """Lay ``tile`` at cell (x, y) turned ``rotation`` degrees clockwise."""

    type: ClassVar[str] = "place_tile"
    label: ClassVar[str] = N_("Place tile")
    help: ClassVar[str] = N_("Lay the tile at cell (x, y), turned clockwise by the rotation in degrees.")
    field_labels: ClassVar[dict[str, str]] = TILE_FIELDS
    tile: str
    x: int
    y: int
    rotation: int = field(default=0, metadata={"required": True})  # in records: required, never a silent 0


@dataclass(frozen=True)
class DiscardTile(Action):
    """Remove a drawn tile that fits nowhere from the game; the player draws again."""

    type: ClassVar[str] = "discard_tile"
    label: ClassVar[str] = N_("Discard tile")
    help: ClassVar[str] = N_("Remove a drawn tile that fits nowhere from the game; the player draws again.")
    field_labels: ClassVar[dict[str, str]] = TILE_FIELDS
    tile: str


@dataclass(frozen=True)
class PlaceFigure(Action):
    """Put a figure from the supply on ``region`` (id in the tile's own frame) of the tile just placed."""

    type: ClassVar[str] = "place_figure"
    label: ClassVar[str] = N_("Place figure")
    help: ClassVar[str] = N_("Put a figure from the supply on a region (its id in the tile's own frame) of the tile "
                             "just laid.")
    field_labels: ClassVar[dict[str, str]] = TILE_FIELDS
    region: str


@dataclass(frozen=True)
class FigureOnBoard(Action):
    """Base of the actions that name a figure already on the board: the tile's cell and the region
    (id in the tile's own frame). Games subclass it with their own ``type`` (Neues Land's
    ``score_figure``, Südsee's ``take_back``) and may set ``verb``, the words the page says it with, and
    ``words``, the whole sentence describing it (a template with ``{role}``, ``{region}``, ``{tile}``)."""

    verb: ClassVar[str | None] = None
    words: ClassVar[str | None] = None
    field_labels: ClassVar[dict[str, str]] = TILE_FIELDS

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
    #: the sentences that name the game's figure, whole (a game whose figure has another name overrides them)
    FIGURE_TEXT: ClassVar[Mapping[str, str]] = {
        "placing": N_("placing a figure"),
        "no_supply": N_("{player} has no figure left in supply"),
        "bad_region": N_("a figure cannot stand {region} (region {region_id} of {tile})"),
        "cannot_stand": N_("a figure cannot stand {region}"),
        "no_figure": N_("no figure {region} of {tile} (region {region_id} of {tile_id} at {x}, {y})"),
        "no_figure_of": N_("no figure of {player} {region} of {tile} (region {region_id} of {tile_id} at {x}, {y})"),
    }

    def _figure_text(self, key: str, **params: Any) -> Text:
        """One of :attr:`FIGURE_TEXT`'s sentences (looked up here: a key written inside ``T(...)`` would be
        taken for a template by bookworm's babel 2.10 extractor)."""
        return T(self.FIGURE_TEXT[key], **params)
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
            raise IllegalAction(T("unknown tile {tile}: the {game} set has no such tile", tile=repr(tile_id),
                                  game=self.title), rule="unknown_tile") from None

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
        except ValueError:
            raise IllegalAction(T("rotation must be 0, 90, 180 or 270 (degrees clockwise), got {rotation}",
                                  rotation=repr(a.rotation)), rule="bad_rotation") from None
        self._check_tile_source(a.tile)
        self.board.check(tile, (a.x, a.y), rot)

    def _check_tile_source(self, tile_id: str) -> None:
        if not self.tile_available(tile_id):
            left = self.box[tile_id] if tile_id in self.box else 0
            raise IllegalAction(T("{tile} is not in the box any more (tile {tile_id} is not in the box any more: "
                                  "{left} left)", tile=self.tile_words(tile_id, capital=True), tile_id=tile_id,
                                  left=left), rule="tile_unavailable")

    def _check_discard(self, a: DiscardTile) -> None:
        tile = self._tile(a.tile)
        self._check_tile_source(a.tile)
        if self.board.can_place(tile):
            n = len(self.board.legal_placements(tile))
            raise IllegalAction(T("{tile} can be placed ({count} legal placements); only a tile that fits nowhere "
                                  "is discarded (tile {tile_id})", tile=self.tile_words(a.tile, capital=True), count=n,
                                  tile_id=a.tile), rule="discard_placeable")

    def _check_figure_step(self, what: str) -> None:
        if not self.placed:
            raise IllegalAction(T("{what} comes after laying the turn's tile", what=what), rule="figure_before_tile")
        if self.figure_done:
            raise IllegalAction(T("{player} has already used this turn's figure step", player=self.current_player),
                                rule="one_figure_action")

    def _check_figure(self, a: PlaceFigure) -> None:
        self._check_figure_step(self._figure_text("placing"))
        if self.supply[self.current] <= 0:
            raise IllegalAction(self._figure_text("no_supply", player=self.current_player), rule="no_supply")
        cell = self.last_cell
        assert cell is not None
        tile = self.board.cells[cell].tile
        try:
            region = tile.region(a.region)
        except KeyError:
            raise IllegalAction(T("the tile just laid has no such area ({why})", why=_no_region(tile, a.region)),
                                rule="unknown_region") from None
        rot = self.board.cells[cell].rot
        if region.terrain not in self.figure_roles:
            raise IllegalAction(self._figure_text("bad_region", region=self.words.region_on(region, rot),
                                  region_id=a.region, tile=tile.id), rule="bad_region")
        root = self.board.feature(cell, region.index)
        occ = self.board.occupants_of(root)
        if occ:
            who = ", ".join(sorted({self.players[f.owner] for f in occ}))
            raise IllegalAction(T("{region} is already occupied (by {players}) (region {region_id} of {tile})",
                                  region=self.words.region(region, rot), players=who, region_id=a.region,
                                  tile=tile.id), rule="occupied_feature")
        self._check_figure_extra(tile, region, root)

    def _check_figure_extra(self, tile: TileType, region: Any, root: int) -> None:
        """Game-specific figure rules (hook)."""

    def standing_problem(self, cell: Cell, region_index: int) -> str | None:
        """Why no figure can still be standing on region ``region_index`` of the tile at ``cell`` when the
        game ends (``None``: one can). Used to check a table read off at the end (``tablehub score --photo``),
        where no history says how the figure got there; games add their own reasons."""
        placed = self.board.cells.get(cell)
        if placed is None:
            return T("no tile lies at {x}, {y}", x=cell[0], y=cell[1])
        region = placed.tile.regions[region_index]
        if region.terrain not in self.figure_roles:
            return self._figure_text("cannot_stand", region=self.words.region_on(region, placed.rot))
        return None

    def _terrain(self, letter: str) -> Text:
        return self.words.terrain(letter)

    @property
    def words(self) -> TileWords:
        """Table words for this game's tiles, regions and cells (:mod:`.words`)."""
        return TileWords.of(self.catalog)

    def tile_words(self, tile_id: str, capital: bool = False, of: bool = False) -> Text:
        """``"the tile with a bay and a town"``, or the id itself for a tile the set does not have;
        ``capital``: to begin a sentence; ``of``: after a preposition (:meth:`TileWords.tile_of`)."""
        try:
            tile = self.catalog.tile(tile_id)
        except KeyError:
            return T("Tile {tile}", tile=tile_id) if capital else T("tile {tile}", tile=tile_id)
        return self.words.Tile(tile) if capital else self.words.tile_of(tile) if of else self.words.tile(tile)

    def cell_words(self, cell: Cell) -> Text:
        """Where ``cell`` is on the table: ``"east of the start tile"``; the tile on it (if any) is
        not its own landmark, so the words are the same before and after it is laid."""
        return self.words.place(self.board.cells, cell, exclude=cell)

    def placed_words(self, cell: Cell, of: bool = False) -> Text:
        """The tile lying on ``cell`` and where: ``"the tile with a lake (2 east of the start tile)"``;
        ``of``: after a preposition ("the explorer on the plain in the north of ...")."""
        placed = self.board.cells.get(cell)
        if placed is None:
            return T("the empty cell {place}", place=self.cell_words(cell))
        tile = self.words.tile_of(placed.tile) if of else self.words.tile(placed.tile)
        if placed.tile.start:
            return tile
        return T("{tile} ({place})", tile=tile, place=self.cell_words(cell))

    def role(self, terrain: str) -> Text:
        """What a figure on ``terrain`` is called (``"explorer"``), a word of the game's context."""
        return Tc(self.name, self.figure_roles.get(terrain, self.figure_word))

    def figure_words(self, cell: Cell, region_id: str) -> Text | None:
        """``"sailor on the bay in the north"`` for a figure on region ``region_id`` of the tile at ``cell``."""
        found = self._figure_place(cell, region_id)
        if found is None:
            return None
        role, where = found
        return T("{role} {region}", role=role, region=where)

    def _figure_place(self, cell: Cell, region_id: str) -> tuple[Text, Text] | None:
        """The role of a figure on region ``region_id`` of the tile at ``cell`` and "on the ..." where it stands."""
        placed = self.board.cells.get(cell)
        if placed is None:
            return None
        try:
            region = placed.tile.region(region_id)
        except KeyError:
            return None
        return self.role(region.terrain), self.words.region_on(region, placed.rot)

    def describe(self, action: Mapping[str, Any]) -> str | None:
        """Tile actions in table words: the tile by what is on it, the cell by what is around it, a
        region by its terrain and where it lies on the tile as the tile lies ("Place an explorer on
        the plain in the north-east"), never the catalog's ids (the page prints :meth:`code` small).
        Reads only the tiles around the action's cell, which no later action moves."""
        kind = action.get("type")
        if kind == "place_tile" and isinstance(action.get("tile"), str):
            x, y, rot = action.get("x"), action.get("y"), action.get("rotation", 0)
            if not (isinstance(x, int) and isinstance(y, int)):
                return None
            tile, place = self.tile_words(action["tile"]), self.cell_words((x, y))
            try:
                lies = self.words.sides(self.catalog.tile(action["tile"]), rotation_index(rot))
            except (KeyError, ValueError):
                lies = ""
            if lies:
                return T("Lay {tile} {place} ({sides})", tile=tile, place=place, sides=lies)
            return T("Lay {tile} {place}", tile=tile, place=place)
        if kind == "discard_tile" and isinstance(action.get("tile"), str):
            return T("Discard {tile}: it fits nowhere", tile=self.tile_words(action["tile"]))
        region_id = action.get("region")
        if not isinstance(region_id, str):
            return None
        x, y = action.get("x"), action.get("y")
        if "x" in action:
            if not (isinstance(x, int) and isinstance(y, int)):
                return None
            found = self._figure_place((x, y), region_id)
            if found is None:
                return None
            role, where = found
            words = getattr(self.ACTIONS.get(str(kind)), "words", None)
            tile = self.placed_words((x, y), of=True)
            if words:
                return T(words, role=role, region=where, tile=tile)
            verb = str(kind).replace("_", " ").capitalize()
            return T("{verb} the {role} {region} of {tile}", verb=verb, role=role, region=where, tile=tile)
        if self.last_cell is None:
            return None
        found = self._figure_place(self.last_cell, region_id)
        if found is None:
            return None
        role, where = found
        if str(role)[:1] in "aeiou":
            return T("Place an {role} {region}", role=role, region=where)
        return T("Place a {role} {region}", role=role, region=where)

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
            raise IllegalAction(T("no tile lies {place} (cell {x}, {y})", place=self.cell_words(cell), x=cell[0],
                                  y=cell[1]), rule="no_tile")
        tile = self.board.cells[cell].tile
        try:
            region = tile.region(region_id)
        except KeyError:
            raise IllegalAction(T("{tile} has no such area ({why})", tile=self.placed_words(cell),
                                  why=_no_region(tile, region_id)), rule="unknown_region") from None
        for f in self.figures:
            if f.cell == cell and f.region == region.index and (owner is None or f.owner == owner):
                return f
        rot = self.board.cells[cell].rot
        template = self.FIGURE_TEXT["no_figure" if owner is None else "no_figure_of"]
        raise IllegalAction(T(template, player=None if owner is None else self.players[owner],
                              region=self.words.region_on(region, rot), tile=self.placed_words(cell, of=True),
                              region_id=region_id, tile_id=tile.id, x=cell[0], y=cell[1]), rule="no_figure")

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

    # ---- where can it go? (hints)

    def hints(self, piece: str | None = None) -> dict[str, Any]:
        """Every cell where tile ``piece`` may be laid now, each with every rotation the rules accept
        there (a symmetric tile's equal turns included), and the tile as it looks turned each way.

        The candidates are the board's own enumeration (:meth:`legal_placements`, which lists a
        symmetric tile's equal turns once) and, at each of its cells, every turn that shows the
        same sides as one listed; each goes through :meth:`validate`, and only what it accepts is
        hinted. No tile: no places (the page asks for the drawn tile)."""
        if piece is None:
            return no_hints("tiles", T("choose the drawn tile to see where it can go"))
        tile = self._tile(piece)
        sides: dict[Cell, set[tuple[int, ...]]] = {}
        for p in self.legal_placements(piece):
            sides.setdefault((p.x, p.y), set()).add(tile.side_codes[p.rotation // 90])
        places = []
        looks: dict[int, dict[str, Any]] = {}  # the tile turned each way: the same at every cell
        for (x, y), shown in sorted(sides.items()):
            turns = [r for r in range(4) if tile.side_codes[r] in shown]
            ok = confirmed(self, (PlaceTile(piece, x, y, 90 * r) for r in turns))
            if ok:
                for a in ok:
                    if a.rotation not in looks:
                        looks[a.rotation] = self._hint_look(tile, a.rotation // 90)
                places.append({"x": x, "y": y, "rotations": [a.rotation for a in ok], "where": self.cell_words((x, y)),
                               "looks": {str(a.rotation): looks[a.rotation] for a in ok},
                               "actions": [a.to_dict() for a in ok]})
        note = None
        if not places:
            cell = next(iter(sorted(self.board.open)), None)
            why = self.validate(PlaceTile(piece, cell[0], cell[1], 0)) if cell is not None else None
            note = why or T("{tile} fits nowhere: it is discarded", tile=self.tile_words(piece, capital=True))
        return {"kind": "tiles", "piece": piece, "name": self.tile_words(piece), "places": places, "note": note,
                "terrains": dict(self.catalog.terrains)}

    def _hint_look(self, tile: TileType, rot: int) -> dict[str, Any]:
        """What the page draws of ``tile`` turned ``rot`` quarter turns (as :meth:`view`'s tiles)."""
        return {"slots": tile.slots_rotated(rot), "interior": [r.terrain for r in tile.regions if not r.slots],
                "marks": tile_marks(tile, rot), "sides": self.words.sides(tile, rot)}

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
        raise IllegalAction(T("{action} is not handled by {game}", action=action.type, game=self.name),
                            rule="unknown_action")

    def _apply_other(self, action: Action) -> None:
        raise NotImplementedError(action.type)


def _no_region(tile: TileType, region_id: str) -> Text:
    """``"tile ds017 has no region 'X' (its regions: G:N, S:S)"``: the ids, for whoever corrects a record."""
    return T("tile {tile} has no region {region} (its regions: {regions})", tile=tile.id, region=repr(region_id),
             regions=", ".join(r.id for r in tile.regions))


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


