"""Carcassonne Neues Land (The Discovery): rules engine.

Rule book: ../shared/seeds/001_97c5b057a7c3aa51.txt; readings: RULINGS.md.

A turn: lay a tile (``place_tile``; a tile that fits nowhere is ``discard_tile``
and the player draws again), then at most one of: ``place_figure`` on the new
tile, or ``score_figure`` to take one of your figures back and score its area
now. ``finish()`` runs the final evaluation: every figure left on the board
scores its area as if complete (areas of at most 2 tiles score as incomplete).

>>> from tablehub.games.base import Setup
>>> g = NeuesLand(Setup("neuesland", ("Ana", "Ben")))
>>> _ = g.apply(PlaceTile("ds017", 1, 0, 0))
>>> g.current_player, g.tiles_left()
('Ana', 82)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Iterable, Iterator

from ...i18n import N_, T, Tc, Text, Tn
from ..base import Action, IllegalAction, OptionSpec, ScoreEvent, Setup
from ..tiles.board import Cell
from ..tiles.catalog import TileType
from ..tiles.game import DiscardTile, Figure, FigureOnBoard, PlaceFigure, PlaceTile, TileGame
from ..tiles.game import TILE_FIELDS

PLAIN, MOUNTAIN, SEA = "G", "M", "S"
#: the table words tiles.json and the roles give (tablehub/games/tiles/words.py builds them from the
#: catalog's English words), marked here so the catalogs hold them (neuesland.po, msgctxt "neuesland")
TABLE_WORDS = (
    Tc("neuesland", "plain"), Tc("neuesland", "mountain"), Tc("neuesland", "sea"),
    Tc("neuesland", "explorer"), Tc("neuesland", "thief"), Tc("neuesland", "sailor"),
    Tc("neuesland", "the plain {where}"), Tc("neuesland", "the mountain {where}"), Tc("neuesland", "the sea {where}"),
    Tc("neuesland", "the lake {where}"), Tc("neuesland", "the bay {where}"),
    Tc("neuesland", "on the plain {where}"), Tc("neuesland", "on the mountain {where}"),
    Tc("neuesland", "on the sea {where}"), Tc("neuesland", "on the lake {where}"),
    Tc("neuesland", "on the bay {where}"),
    N_("a plain"), N_("{count} plains"), N_("a mountain"), N_("{count} mountains"), N_("a sea"), N_("{count} seas"),
    N_("a lake"), N_("{count} lakes"), N_("a bay"), N_("{count} bays"), N_("a town"), N_("{count} towns"),
)
HAND_SIZE = 2


def tiles_to_set_aside(tiles_to_draw: int, players: int) -> int:
    """How many tiles the expert variant sets aside so that everyone gets the same number of turns:
    what is left of the draw pile after equal shares. The rule book's own reason; its table says 1
    for 5 players, which leaves 82 tiles for 5 players (RULINGS.md follows the reason).

    >>> [tiles_to_set_aside(83, n) for n in (2, 3, 4, 5)]
    [1, 2, 3, 3]
    """
    return tiles_to_draw % players


@dataclass(frozen=True)
class ScoreFigure(FigureOnBoard):
    """Take your figure back from region ``region`` of the tile at (x, y) and score its area now."""

    type: ClassVar[str] = "score_figure"
    label: ClassVar[str] = N_("Score figure")
    help: ClassVar[str] = N_("Take your figure back from a region of the tile at (x, y) and score its area now.")
    verb: ClassVar[str] = "Take back and score"
    words: ClassVar[str] = N_("Take back and score the {role} {region} of {tile}")


@dataclass(frozen=True)
class SetAside(Action):
    """Expert variant: a tile drawn at random and set aside, face down, before play."""

    type: ClassVar[str] = "set_aside"
    label: ClassVar[str] = N_("Set aside")
    help: ClassVar[str] = N_("Expert variant: a tile drawn at random and set aside, face down, before play.")
    field_labels: ClassVar[dict[str, str]] = TILE_FIELDS
    tile: str


@dataclass(frozen=True)
class Draw(Action):
    """Expert variant: a tile drawn face up into a hand (the first hand, from the current
    player in turn order, that holds fewer than 2 tiles)."""

    type: ClassVar[str] = "draw"
    label: ClassVar[str] = N_("Draw")
    help: ClassVar[str] = N_("Expert variant: a tile drawn face up into a hand (the first hand, in turn order from "
                             "the current player, that holds fewer than 2 tiles).")
    field_labels: ClassVar[dict[str, str]] = TILE_FIELDS
    tile: str


@dataclass(frozen=True)
class AreaValue:
    points: int
    terrain: str
    tiles: int
    towns: int
    complete: bool
    small: bool

    def describe(self, terrains: dict[str, str]) -> Text:
        """``"complete plain of 3 tiles: 3 tiles, 2 per tile"``: one whole sentence per terrain and state."""
        name = Tc("neuesland", terrains.get(self.terrain, self.terrain))
        size = Tn("{n} tile", "{n} tiles", self.tiles)
        towns = Tn("{n} town", "{n} towns", self.towns)
        state = "full" if self.complete and not self.small else "small" if self.complete else "incomplete"
        template = _AREA_TEXT[(self.terrain if self.terrain in (PLAIN, MOUNTAIN) else SEA, state)]
        return T(template, name=name, size=size, towns=towns)


#: an area's value in words, by terrain and state: complete ("full"), complete but of 2 tiles or fewer
#: ("small": scores as incomplete) or incomplete
_AREA_TEXT = {
    (PLAIN, "full"): N_("complete {name} of {size}: {size}, 2 per tile"),
    (PLAIN, "small"): N_("complete {name} of {size}: {size}, 1 per tile (an area of 2 tiles or fewer scores as "
                         "incomplete)"),
    (PLAIN, "incomplete"): N_("incomplete {name} of {size}: {size}, 1 per tile"),
    (MOUNTAIN, "full"): N_("complete {name} of {size}: {towns} on it and its neighbouring plains, 2 per town"),
    (MOUNTAIN, "small"): N_("complete {name} of {size}: {towns} on it and its neighbouring plains, 1 per town (an "
                            "area of 2 tiles or fewer scores as incomplete)"),
    (MOUNTAIN, "incomplete"): N_("incomplete {name} of {size}: {towns} on it and its neighbouring plains, 1 per "
                                 "town"),
    (SEA, "full"): N_("complete {name} of {size}: {towns} on its shores + {size}"),
    (SEA, "small"): N_("complete {name} of {size}: {towns} on its shores, 1 per town (an area of 2 tiles or fewer "
                       "scores as incomplete)"),
    (SEA, "incomplete"): N_("incomplete {name} of {size}: {towns} on its shores, 1 per town"),
}


class NeuesLand(TileGame):
    name = "neuesland"
    title = "Carcassonne Neues Land"
    min_players = 2
    max_players = 5
    catalog_file = Path(__file__).with_name("tiles.json")
    figures_per_player = 4  # 5 per colour, one marks the score
    figure_word = "figure"
    figure_removal = ScoreFigure
    figure_roles = {PLAIN: "explorer", MOUNTAIN: "thief", SEA: "sailor"}
    ACTIONS = {c.type: c for c in (PlaceTile, DiscardTile, PlaceFigure, ScoreFigure, SetAside, Draw)}
    OPTIONS = TileGame.BASE_OPTIONS + (
        OptionSpec("expert", False, "expert variant: each player holds 2 face-up tiles and plays one",
                   kind=bool),
        OptionSpec("set_aside", True, "expert variant: set tiles aside before play so that everyone gets the "
                                      "same number of turns (83 mod players: 1, 2, 3, 3 with 2 to 5 players); "
                                      "false: play every tile", kind=bool),
    )

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self.expert: bool = bool(self.options["expert"])
        self.hands: list[list[str]] = [[] for _ in self.players]
        self.set_aside: list[str] = []

    # ---- the expert variant's hands

    @property
    def set_aside_needed(self) -> int:
        """Tiles to set aside before play: the tiles after the start tile, modulo the players, in the
        expert variant with the option ``set_aside`` (on by default); else none."""
        if not (self.expert and self.options["set_aside"]):
            return 0
        return tiles_to_set_aside(self.catalog.total() - 1, len(self.players))

    def tile_available(self, tile_id: str) -> bool:
        if not self.expert:
            return super().tile_available(tile_id)
        return tile_id in self.hands[self.player_to_lay()]

    def take_tile(self, tile_id: str) -> None:
        if not self.expert:
            super().take_tile(tile_id)
        else:
            self.hands[self.current].remove(tile_id)

    def _check_tile_source(self, tile_id: str) -> None:
        if not self.expert:
            return super()._check_tile_source(tile_id)
        player = self.player_to_lay()
        if self.tiles_left() > 0 and len(self.set_aside) < self.set_aside_needed:
            raise IllegalAction(T("set aside {count} tile(s) before play ({done} so far)", count=self.set_aside_needed,
                                  done=len(self.set_aside)), rule="set_aside_first")
        short = [self.players[i] for i, h in enumerate(self.hands) if len(h) < HAND_SIZE]
        if self.tiles_left() > 0 and short:
            raise IllegalAction(T("draw first: {players} must hold {count} tiles while the box has tiles",
                                  players=", ".join(short), count=HAND_SIZE), rule="draw_first")
        if tile_id not in self.hands[player]:
            held = ", ".join(self.hands[player]) or T("nothing")
            raise IllegalAction(T("{player} does not hold tile {tile} (holds {held})", player=self.players[player],
                                  tile=tile_id, held=held), rule="tile_not_in_hand")

    # ---- validation of this game's own actions

    def _validate_other(self, action: Action) -> None:
        if isinstance(action, ScoreFigure):
            self._check_figure_step(T("scoring a figure"))
            self.figure_at((action.x, action.y), action.region, owner=self.current)
        elif isinstance(action, SetAside):
            if not self.expert:
                raise IllegalAction(T("tiles are set aside only in the expert variant (option expert)"),
                                    rule="not_expert")
            if not self.options["set_aside"]:
                raise IllegalAction(T("no tiles are set aside in this game (option set_aside is off)"),
                                    rule="set_aside_off")
            self._tile(action.tile)
            if len(self.set_aside) >= self.set_aside_needed:
                raise IllegalAction(T("{count} tile(s) are set aside with {players} players, and that is done",
                                      count=self.set_aside_needed, players=len(self.players)), rule="set_aside_done")
            if self.box[action.tile] <= 0:
                raise IllegalAction(T("tile {tile} is not in the box", tile=action.tile), rule="tile_unavailable")
        elif isinstance(action, Draw):
            if not self.expert:
                raise IllegalAction(T("drawing into a hand is the expert variant (option expert); in the basic "
                                      "game just place the drawn tile"), rule="not_expert")
            self._tile(action.tile)
            if len(self.set_aside) < self.set_aside_needed:
                raise IllegalAction(T("set aside {count} tile(s) before drawing", count=self.set_aside_needed),
                                    rule="set_aside_first")
            if self.box[action.tile] <= 0:
                raise IllegalAction(T("tile {tile} is not in the box", tile=action.tile), rule="tile_unavailable")
            if self._draw_target() is None:
                raise IllegalAction(T("every hand already holds {count} tiles", count=HAND_SIZE), rule="hands_full")
        else:
            super()._validate_other(action)

    def playout_setup(self, pile: list[str]) -> Iterator[Action]:
        for _ in range(self.set_aside_needed):
            yield SetAside(pile.pop())
        yield from self.playout_refill(pile)

    def playout_tiles(self, pile: list[str]) -> list[str]:
        if not self.expert:
            return super().playout_tiles(pile)
        return list(self.hands[self.player_to_lay()])

    def playout_refill(self, pile: list[str]) -> Iterator[Action]:
        while self.expert and pile and self._draw_target() is not None:
            yield Draw(pile.pop())

    def _draw_target(self) -> int | None:
        n = len(self.players)
        for k in range(n):
            i = (self.current + k) % n
            if len(self.hands[i]) < HAND_SIZE:
                return i
        return None

    def _apply_other(self, action: Action) -> None:
        if isinstance(action, ScoreFigure):
            fig = self.figure_at((action.x, action.y), action.region, owner=self.current)
            value = self.area_value(self.board.feature(fig.cell, fig.region))
            self.award(self.players[fig.owner], value.points,
                       T("removed {role} from {area}", role=self.role(value.terrain),
                         area=value.describe(self.catalog.terrains)))
            self.remove_figure(fig)
            self.figure_done = True
        elif isinstance(action, SetAside):
            self.box[action.tile] -= 1
            self.set_aside.append(action.tile)
        elif isinstance(action, Draw):
            target = self._draw_target()
            assert target is not None
            self.box[action.tile] -= 1
            self.hands[target].append(action.tile)

    def describe(self, action: Any) -> str | None:
        """The expert variant's own actions in table words (the rest: the tile core's)."""
        kind = action.get("type")
        if kind == "set_aside":
            return T("Set a tile aside, face down")
        if kind == "draw" and isinstance(action.get("tile"), str):
            return T("Draw {tile} into a hand, face up", tile=self.tile_words(action["tile"]))
        return super().describe(action)

    # ---- scoring

    def area_value(self, root: int, final: bool = False) -> AreaValue:
        """What a figure on feature ``root`` scores now (``final``: the area counts as complete)."""
        board = self.board
        terrain = board.terrain[root]
        tiles = board.tiles_in(root)
        complete = final or board.is_complete(root)
        small = complete and tiles <= 2
        full = complete and not small
        towns = 0
        if terrain == PLAIN:
            points = tiles * (2 if full else 1)
        elif terrain == MOUNTAIN:
            towns = len(self._mountain_towns(root))
            points = towns * (2 if full else 1)
        else:
            towns = len(self._shore_towns(root))
            points = towns + (tiles if full else 0)
        return AreaValue(points, terrain, tiles, towns, complete, small)

    def _towns_on_land(self, root: int) -> set[tuple[Cell, int]]:
        out = set()
        for cell, ri in self.board.members_of(root):
            for ti, town in enumerate(self.board.cells[cell].tile.towns):
                if town.land == ri:
                    out.add((cell, ti))
        return out

    def _mountain_towns(self, root: int) -> set[tuple[Cell, int]]:
        towns = self._towns_on_land(root)
        plains = set()
        for cell, ri in self.board.members_of(root):
            tile: TileType = self.board.cells[cell].tile
            for a, b in tile.touching:
                other = b if a == ri else a if b == ri else None
                if other is not None and tile.regions[other].terrain == PLAIN:
                    plains.add(self.board.feature(cell, other))
        for p in plains:
            towns |= self._towns_on_land(p)
        return towns

    def _shore_towns(self, root: int) -> set[tuple[Cell, int]]:
        out = set()
        for cell, ri in self.board.members_of(root):
            for ti, town in enumerate(self.board.cells[cell].tile.towns):
                if town.sea == ri:
                    out.add((cell, ti))
        return out

    def finish(self) -> list[ScoreEvent]:
        if self.finished:
            return []
        before = len(self.score_log)
        for fig in list(self.figures):
            value = self.area_value(self.board.feature(fig.cell, fig.region), final=True)
            self.award(self.players[fig.owner], value.points,
                       T("final scoring: {role} {place} on {area}", role=self.role(value.terrain),
                         place=self.cell_words(fig.cell), area=value.describe(self.catalog.terrains)), kind="final")
        self.finished = True
        return self.score_log[before:]

    @property
    def box_empty(self) -> bool:
        """No tile left to draw or hold: the game ends after this turn's figure step."""
        return self.tiles_left() == 0 and not any(self.hands)

    # ---- legal actions and resources

    def _legal_other(self) -> Iterable[Action]:
        if not self.placed or self.figure_done:
            return []
        out = []
        for f in self.figures:
            if f.owner == self.current:
                region = self.board.cells[f.cell].tile.regions[f.region]
                out.append(ScoreFigure(f.cell[0], f.cell[1], region.id))
        return out

    def resources(self) -> dict[str, Any]:
        players = {}
        for i, p in enumerate(self.players):
            entry: dict[str, Any] = {
                "figures_in_supply": self.supply[i],
                "figures_on_board": sum(1 for f in self.figures if f.owner == i),
            }
            if self.expert:
                entry["hand"] = list(self.hands[i])
            players[p] = entry
        table = {
            "tiles_left": self.tiles_left(),
            "tiles_placed": len(self.board.cells),
            "tiles_discarded": len(self.discarded),
        }
        if self.expert:
            table["tiles_set_aside"] = len(self.set_aside)
        return {"players": players, "table": table}

    def figure_value_now(self, fig: Figure) -> int:
        return self.area_value(self.board.feature(fig.cell, fig.region)).points
