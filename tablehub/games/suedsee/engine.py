"""Carcassonne Südsee: rules engine.

Rule book: ../shared/seeds/000_8b2730813e71c21c.txt; readings: RULINGS.md
("Carcassonne Südsee"); actions and data formats: docs/suedsee.md.

A turn: lay a tile (``place_tile``; one that fits nowhere is ``discard_tile`` and
the player draws again); then the islander step: ``place_figure`` on the new tile,
or ``take_back`` one of your islanders, or ``skip_islander`` (the step also ends by
itself when any later action comes); then the evaluation runs (goods for
completed bridges, islands and seas and for seas a fishing boat joins; a ship for
every completed market); finally at most one ``deliver`` to a face-up ship.
Ships turned face up from the pile are ``reveal_ship`` actions and a market award
among equal ships is ``choose_ship``: the engine never guesses them.

Goods are resources, not points: each gain or payment is logged as a 0-point
:class:`~tablehub.games.base.ScoreEvent` explaining it; the points come at the end
(ship values + 1 per 3 goods).

>>> from tablehub.games.base import Setup
>>> g = Suedsee(Setup("suedsee", ("Ana", "Ben")))
>>> for ship in ("s01", "s02", "s03", "s04"):
...     _ = g.apply(RevealShip(ship))
>>> _ = g.apply(PlaceTile("U1", 1, 0, 90))
>>> g.current_player, g.tiles_left()
('Ana', 71)
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Mapping

from ... import schemas
from ...i18n import N_, T, Tc, Text, Tn, chain, reason
from ..base import (Action, IllegalAction, OptionSpec, PositionResult, ScoreEvent, Setup, SetupError, show, verdict,
                    winners_of)
from ..tiles.board import Cell
from ..tiles.catalog import Catalog, TileType
from ..tiles.game import DiscardTile, Figure, FigureOnBoard, PlaceFigure, PlaceTile, TileGame, region_anchor
from .ships import KINDS, Ship, ShipSet, ShipsError, good_count, goods_text, load_ships, uncovered_fish

BRIDGE, ISLAND, SEA, MARKET = "B", "I", "S", "K"
#: the good a completed feature gives, by terrain
GOOD_OF = {BRIDGE: "shell", ISLAND: "banana", SEA: "fish"}
DISPLAY_SIZE = 4
BOAT_TOKENS = 19
ISLANDERS = 4  # 20 islanders, 4 of each of the 5 colours
SHIPS_FILE = Path(__file__).with_name("ships.json")
#: the table words tiles.json and the roles give (tablehub/games/tiles/words.py builds them from the
#: catalog's English words), marked here so the catalogs hold them (suedsee.po, msgctxt "suedsee")
TABLE_WORDS = (
    Tc("suedsee", "bridge"), Tc("suedsee", "island"), Tc("suedsee", "sea"), Tc("suedsee", "market"),
    Tc("suedsee", "shell collector"), Tc("suedsee", "banana picker"), Tc("suedsee", "fisher"), Tc("suedsee", "trader"),
    Tc("suedsee", "shell collectors"), Tc("suedsee", "banana pickers"), Tc("suedsee", "fishers"),
    Tc("suedsee", "traders"),
    Tc("suedsee", "the bridge {where}"), Tc("suedsee", "the island {where}"), Tc("suedsee", "the sea {where}"),
    Tc("suedsee", "the market {where}"), Tc("suedsee", "on the bridge {where}"), Tc("suedsee", "on the island {where}"),
    Tc("suedsee", "on the sea {where}"), Tc("suedsee", "on the market {where}"),
    N_("a bridge"), N_("{count} bridges"), N_("an island"), N_("{count} islands"), N_("a market"),
    N_("{count} markets"),
    N_("a shell"), N_("{count} shells"), N_("a banana"), N_("{count} bananas"), N_("a fish"), N_("{count} fish"),
    N_("a fishing boat"), N_("{count} fishing boats"),
)
PROVISIONAL = ("the Südsee tile list (tiles.json) and the 24 ships (ships.json) are provisional: the rule book's "
               "pictures were lost, so the classic base-set topology with guessed goods and ships stands in")


# --------------------------------------------------------------------------- actions


#: what the hand-entry form calls these actions' fields (web/present.py action_forms; suedsee.po)
SHIP_FIELDS: dict[str, str] = {
    "ship": N_("ship"),
    "goods": N_("goods"),
}


@dataclass(frozen=True)
class TakeBack(FigureOnBoard):
    """Islander step 2b: take your islander on ``region`` of the tile at (x, y) back into your supply (no goods)."""

    type: ClassVar[str] = "take_back"
    label: ClassVar[str] = N_("Take back")
    help: ClassVar[str] = N_("Islander step: take your islander on a region of the tile at (x, y) back into your "
                             "supply (no goods).")
    words: ClassVar[str] = N_("Take back the {role} {region} of {tile}")


@dataclass(frozen=True)
class SkipIslander(Action):
    """End the islander step without placing or taking back an islander (optional: any later action ends it too)."""

    type: ClassVar[str] = "skip_islander"
    label: ClassVar[str] = N_("Skip islander")
    help: ClassVar[str] = N_("End the islander step without placing or taking back an islander (optional: any later "
                             "action ends it too).")


@dataclass(frozen=True)
class RevealShip(Action):
    """The ship token turned face up from the pile (4 at the start; one after each award or delivery)."""

    type: ClassVar[str] = "reveal_ship"
    label: ClassVar[str] = N_("Reveal ship")
    help: ClassVar[str] = N_("The ship token turned face up from the pile (4 at the start; one after each award or "
                             "delivery).")
    field_labels: ClassVar[dict[str, str]] = SHIP_FIELDS
    ship: str


@dataclass(frozen=True)
class ChooseShip(Action):
    """A completed market's award when several face-up ships share the highest value: which one is taken."""

    type: ClassVar[str] = "choose_ship"
    label: ClassVar[str] = N_("Choose ship")
    help: ClassVar[str] = N_("A completed market's award when several face-up ships share the highest value: which "
                             "one is taken.")
    field_labels: ClassVar[dict[str, str]] = SHIP_FIELDS
    ship: str


@dataclass(frozen=True)
class Deliver(Action):
    """Deliver goods to the face-up ``ship`` at the end of your turn. ``goods`` (e.g. ``{"fish": 3,
    "banana": 3}``) names what is paid; it may be left out when only one payment is possible."""

    type: ClassVar[str] = "deliver"
    label: ClassVar[str] = N_("Deliver")
    help: ClassVar[str] = N_("Deliver goods to a face-up ship at the end of your turn; the goods paid may be left out "
                             "when only one payment is possible.")
    field_labels: ClassVar[dict[str, str]] = SHIP_FIELDS
    ship: str
    goods: dict | None = None

    def __hash__(self) -> int:  # goods is a dict: hash its items
        return hash((self.type, self.ship, tuple(sorted((self.goods or {}).items()))))


# --------------------------------------------------------------------------- evaluation values


@dataclass
class Outcome:
    """What evaluating one feature gives: the good, how many, and to whom (the players with most islanders)."""

    root: int
    terrain: str
    good: str
    amount: int
    tiles: int
    counts: dict[int, int]          # owner -> islanders in the feature
    winners: list[int]
    boats: int = 0                  # fishing boats the new tile brings into this sea
    complete: bool = False


@dataclass
class Plan:
    """The evaluation the end of the islander step will run (computed without changing anything)."""

    outcomes: list[Outcome] = field(default_factory=list)
    markets: list[tuple[int, Cell]] = field(default_factory=list)  # (owner, market cell), in award order

    def gains(self, player: int) -> Counter[str]:
        out: Counter[str] = Counter()
        for o in self.outcomes:
            if player in o.winners:
                out[o.good] += o.amount
        return out


class Suedsee(TileGame):
    name = "suedsee"
    title = "Carcassonne Südsee"
    min_players = 2
    max_players = 5
    catalog_file = Path(__file__).with_name("tiles.json")
    figures_per_player = ISLANDERS
    figure_word = "islander"
    FIGURE_TEXT = {
        "placing": N_("placing an islander"),
        "no_supply": N_("{player} has no islander left in supply"),
        "bad_region": N_("an islander cannot stand {region} (region {region_id} of {tile})"),
        "cannot_stand": N_("an islander cannot stand {region}"),
        "no_figure": N_("no islander {region} of {tile} (region {region_id} of {tile_id} at {x}, {y})"),
        "no_figure_of": N_("no islander of {player} {region} of {tile} (region {region_id} of {tile_id} at {x}, "
                           "{y})"),
    }
    figure_removal = TakeBack
    figure_skip = SkipIslander
    figure_roles = {BRIDGE: "shell collector", ISLAND: "banana picker", SEA: "fisher", MARKET: "trader"}
    provisional = PROVISIONAL
    ACTIONS = {c.type: c for c in (PlaceTile, DiscardTile, PlaceFigure, TakeBack, SkipIslander, RevealShip,
                                   ChooseShip, Deliver)}
    OPTIONS = TileGame.BASE_OPTIONS + (
        OptionSpec("ships", None, "path to your own ships file (docs/suedsee.md); default: the shipped "
                                  "provisional 24 ships", kind=str, what="a path to a ships file (docs/suedsee.md)"),
        OptionSpec("takeback", "seed", "when an islander may be taken back (step 2b): 'seed' = only with an "
                                       "empty supply (the French rule book); 'any' = whenever the player places "
                                       "no islander that turn (the German rule book)", choices=("seed", "any")),
    )

    def __init__(self, setup: Setup):
        super().__init__(setup)
        _check_catalog(self.catalog)
        try:
            self.shipset: ShipSet = load_ships(self.options.get("ships") or SHIPS_FILE)
        except ShipsError as exc:
            raise SetupError(str(exc)) from None
        parts = []
        if self.catalog.provisional:
            parts.append(f"the tile list ({Path(self.catalog.path).name})")
        if self.shipset.provisional:
            parts.append(f"the ships ({Path(self.shipset.path).name})")
        shipped = not self.options.get("ships") and not self.options.get("catalog")
        self.provisional = (PROVISIONAL if shipped else  # type: ignore[misc]
                            f"{' and '.join(parts)} {'are' if len(parts) > 1 else 'is'} provisional" if parts else None)
        self.display: list[str] = []
        self.pile: set[str] = set(self.shipset.ships)
        self.taken: list[list[str]] = [[] for _ in self.players]
        self.goods: list[Counter[str]] = [Counter() for _ in self.players]
        self.covered: set[tuple[Cell, int]] = set()
        self.boats_left = BOAT_TOKENS
        self.step_open = False     # the islander step of this turn has not ended yet
        self.delivered = False     # the current player has delivered a ship this turn
        self.awards: list[tuple[int, Cell]] = []  # market awards still to hand out, in order

    # ---- ships

    def ship(self, ship_id: str) -> Ship:
        try:
            return self.shipset.ship(ship_id)
        except KeyError:
            raise IllegalAction(T("unknown ship {ship}: the ships file has no such ship", ship=repr(ship_id)),
                                rule="unknown_ship") from None

    @property
    def needs_reveal(self) -> bool:
        return len(self.display) < DISPLAY_SIZE and bool(self.pile)

    @property
    def ships_out(self) -> bool:
        """Every ship is taken: the display and the pile are both empty."""
        return not self.display and not self.pile

    def _tied_ships(self) -> list[str]:
        best = max(self.ship(s).value for s in self.display)
        return [s for s in self.display if self.ship(s).value == best]

    def _where_ship(self, ship_id: str) -> Text:
        if ship_id in self.display:
            return T("it is face up")
        if ship_id in self.pile:
            return T("it is still in the pile")
        for i, ids in enumerate(self.taken):
            if ship_id in ids:
                return T("{player} has taken it", player=self.players[i])
        return T("it is nowhere")

    # ---- what the game waits for

    def describe(self, action: Mapping[str, Any]) -> str | None:
        """The tile words of :class:`TileGame`, and the islander step ended with no islander."""
        if action.get("type") == "skip_islander":
            return T("No islander this turn")
        return super().describe(action)

    def waiting_for(self) -> Text | None:
        """A line naming the mandatory choice the game waits for, or ``None``."""
        if self.needs_reveal:
            return T("reveal the ship turned face up from the pile ({shown} of {size} face up, {pile} in the pile): "
                     "{action}", shown=len(self.display), size=DISPLAY_SIZE, pile=len(self.pile),
                     action='{"type": "reveal_ship", "ship": ...}')
        if self.awards:
            player, cell = self.awards[0]
            tied = self._tied_ships()
            return T("{player} chooses the ship for the completed market at {x}, {y} among the equal highest ships "
                     "{ships}: {action}", player=self.players[player], x=cell[0], y=cell[1], ships=", ".join(tied),
                     action='{"type": "choose_ship", "ship": ...}')
        if self.step_open and self._plan().markets:
            return T("{player} ends the islander step (place_figure, take_back or skip_islander) so that the "
                     "completed market's ship can be awarded", player=self.current_player)
        return None

    @property
    def must_choose(self) -> bool:
        """A mandatory choice is pending (random playouts then always pick one of ``legal_actions()``)."""
        return self.waiting_for() is not None

    @property
    def game_over(self) -> bool:
        """The end condition is met: the last tile is down or the last ship is taken (``finish()`` scores)."""
        return self.turn > 0 and (self.tiles_left() == 0 or self.ships_out) and not self.must_choose

    # ---- turn bookkeeping

    def _next_turn_if_due(self) -> None:
        new_turn = self.turn == 0 or self.placed
        super()._next_turn_if_due()
        if new_turn:
            self.delivered = False

    # ---- validation

    def _validate(self, action: Action) -> None:
        if isinstance(action, (PlaceTile, DiscardTile)):
            self._check_turn_start()
        super()._validate(action)

    def _check_no_pending(self, what: Text) -> None:
        if self.needs_reveal:
            raise IllegalAction(T("{what} must wait: {why}", what=what, why=self.waiting_for()), rule="reveal_first")
        if self.awards:
            raise IllegalAction(T("{what} must wait: {why}", what=what, why=self.waiting_for()), rule="choose_first")

    def _check_turn_start(self) -> None:
        self._check_no_pending(T("laying a tile"))
        if self.step_open and self._plan().markets:
            raise IllegalAction(T("laying the next tile must wait: {why}", why=self.waiting_for()),
                                rule="end_islander_step")
        if self.turn > 0 and self.ships_out and (self.placed or self.step_open):
            raise IllegalAction(T("every ship has been taken: the game ended with {player}'s turn (finish it for "
                                  "the final evaluation)", player=self.current_player), rule="game_over")

    def standing_problem(self, cell: Cell, region_index: int) -> str | None:
        """Also: a completed feature is evaluated at once and its islanders go home, and a market's trader goes
        home when the market is completed (all 8 neighbours laid): neither can still stand at the end."""
        why = super().standing_problem(cell, region_index)
        if why is not None:
            return why
        placed = self.board.cells[cell]
        region = placed.tile.regions[region_index]
        if region.terrain == MARKET:
            if self.board.neighbours8(cell) == 8:
                return T("the market is complete (all 8 neighbours laid): its trader went home when it was "
                         "evaluated")
        elif self.board.is_complete(self.board.feature(cell, region_index)):
            return T("the {terrain} is complete: its islanders went home when it was evaluated",
                     terrain=self._terrain(region.terrain))
        return None

    def _check_figure_extra(self, tile: TileType, region: Any, root: int) -> None:
        if not self.step_open:
            raise IllegalAction(T("the islander step of this turn is over"), rule="one_figure_action")

    def _validate_other(self, action: Action) -> None:
        if isinstance(action, TakeBack):
            self._check_take_back(action)
        elif isinstance(action, SkipIslander):
            self._check_figure_step(T("ending the islander step"))
            if not self.step_open:
                raise IllegalAction(T("the islander step of this turn is over"), rule="one_figure_action")
        elif isinstance(action, RevealShip):
            self._check_reveal(action)
        elif isinstance(action, ChooseShip):
            self._check_choose(action)
        elif isinstance(action, Deliver):
            self._check_deliver(action)
        else:
            super()._validate_other(action)

    def _check_take_back(self, a: TakeBack) -> None:
        self._check_figure_step(T("taking an islander back"))
        if self.options["takeback"] == "seed" and self.supply[self.current] > 0:
            n = self.supply[self.current]
            raise IllegalAction(Tn("{player} still has {n} islander in supply: the rule book allows taking one back "
                                   "only with an empty supply (option takeback=any allows it whenever no islander is "
                                   "placed)",
                                   "{player} still has {n} islanders in supply: the rule book allows taking one back "
                                   "only with an empty supply (option takeback=any allows it whenever no islander is "
                                   "placed)", n, player=self.current_player), rule="takeback_supply")
        self.figure_at((a.x, a.y), a.region, owner=self.current)

    def _check_reveal(self, a: RevealShip) -> None:
        ship = self.ship(a.ship)
        if not self.needs_reveal:
            why = (T("{count} ships are face up already", count=len(self.display)) if self.pile
                   else T("the ship pile is empty"))
            raise IllegalAction(T("no ship is to be revealed now: {why}", why=why), rule="no_reveal_due")
        if ship.id not in self.pile:
            raise IllegalAction(T("ship {ship} is not in the pile: {where}", ship=ship.id,
                                  where=self._where_ship(ship.id)), rule="ship_not_in_pile")

    def _check_choose(self, a: ChooseShip) -> None:
        ship = self.ship(a.ship)
        if self.needs_reveal or not self.awards:
            raise IllegalAction(T("no market award waits for a choice of ship now"), rule="no_choice_due")
        tied = self._tied_ships()
        if ship.id not in self.display:
            raise IllegalAction(T("ship {ship} is not face up ({where}); the market gives one of {ships}",
                                  ship=ship.id, where=self._where_ship(ship.id), ships=", ".join(tied)),
                                rule="ship_not_face_up")
        if ship.id not in tied:
            best = self.ship(tied[0]).value
            raise IllegalAction(T("ship {ship} ({points} points) is not a highest-valued face-up ship: the market "
                                  "gives one of {ships} ({best} points)", ship=ship.id, points=ship.value,
                                  ships=", ".join(tied), best=best), rule="not_highest_ship")

    def _check_deliver(self, a: Deliver) -> None:
        who = self.current_player
        if self.turn == 0 or not self.placed:
            raise IllegalAction(T("a ship is delivered at the end of the turn, after laying its tile"),
                                rule="deliver_before_tile")
        if self.delivered:
            raise IllegalAction(T("{player} has already delivered a ship this turn (exactly one per turn)", player=who),
                                rule="one_delivery")
        self._check_no_pending(T("a delivery"))
        ship = self.ship(a.ship)
        if ship.id not in self.display:
            shown = ", ".join(self.display) or Tc("ship", "none")
            raise IllegalAction(T("ship {ship} is not face up ({where}; face up: {shown})", ship=ship.id,
                                  where=self._where_ship(ship.id), shown=shown), rule="ship_not_face_up")
        holdings = Counter(self.goods[self.current])
        if self.step_open:
            plan = self._plan()
            if plan.markets:
                raise IllegalAction(T("the delivery must wait: {why}", why=self.waiting_for()),
                                    rule="end_islander_step")
            holdings.update(plan.gains(self.current))
        self._payment(ship, a.goods, holdings)

    def _payment(self, ship: Ship, goods: Mapping[str, Any] | None, holdings: Mapping[str, int]) -> dict[str, int]:
        """The goods a delivery pays, checked against the requirement and the holdings."""
        req = ship.requirement
        who = self.current_player
        has = goods_text(holdings)
        if goods is None:
            options = req.payments(holdings)
            if len(options) == 1:
                return options[0]
            if not options:
                raise IllegalAction(T("{player} cannot pay {ship}: {player} has {goods}", player=who,
                                      ship=ship.describe(), goods=has), rule="cannot_pay")
            ways: Any = goods_text(options[0])
            for other in options[1:4]:
                ways = T("{first} or {next}", first=ways, next=goods_text(other))
            if len(options) > 4:
                ways = T("{first} or ...", first=ways)
            raise IllegalAction(T("name the goods paid to ship {ship} ({goods}): {player} could pay {ways}",
                                  ship=ship.id, goods=req.describe(), player=who, ways=ways), rule="goods_unnamed")
        paid: dict[str, int] = {}
        for kind, n in goods.items():
            if kind not in KINDS:
                raise IllegalAction(T("unknown good {good} in the delivery (goods are {goods})", good=repr(kind),
                                      goods=", ".join(KINDS)), rule="bad_goods")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise IllegalAction(T("the delivery's {good} count must be a whole number >= 0, got {count}", good=kind,
                                      count=repr(n)), rule="bad_goods")
            if n:
                paid[kind] = n
        why = req.problem(paid)
        if why:
            raise IllegalAction(T("{goods} does not fit ship {ship}: {why}", goods=goods_text(paid), ship=ship.id,
                                  why=why), rule="wrong_goods")
        short = [k for k in paid if holdings.get(k, 0) < paid[k]]
        if short:
            raise IllegalAction(T("{player} cannot pay {goods} to ship {ship}: {player} has {held}", player=who,
                                  goods=goods_text(paid), ship=ship.id, held=has), rule="cannot_pay")
        return paid

    # ---- application

    def _apply(self, action: Action) -> None:
        if self.step_open and not isinstance(action, (PlaceFigure, TakeBack, SkipIslander)):
            self._end_islander_step()
        if isinstance(action, TakeBack):
            fig = self.figure_at((action.x, action.y), action.region, owner=self.current)
            self.remove_figure(fig)
            self.figure_done = True
            self._end_islander_step()
        elif isinstance(action, SkipIslander):
            self.figure_done = True
            self._end_islander_step()
        elif isinstance(action, RevealShip):
            self.pile.remove(action.ship)
            self.display.append(action.ship)
            self._hand_out_awards()
        elif isinstance(action, ChooseShip):
            player, cell = self.awards.pop(0)
            self._take_ship(player, action.ship, cell, chosen=True)
            self._hand_out_awards()
        elif isinstance(action, Deliver):
            ship = self.ship(action.ship)
            paid = self._payment(ship, action.goods, self.goods[self.current])
            self.goods[self.current].subtract(paid)
            self.display.remove(ship.id)
            self.taken[self.current].append(ship.id)
            self.delivered = True
            self.award(self.current_player, 0, T("delivers {goods} to {ship}: {points} points at the end",
                                                 goods=goods_text(paid), ship=ship.describe(), points=ship.value))
        else:
            super()._apply(action)

    def after_place(self, tile: TileType, cell: Cell, roots: list[int]) -> None:
        self.step_open = True

    def after_figure(self, fig: Figure) -> None:
        self._end_islander_step()

    # ---- evaluation

    def apply(self, action: Action) -> list[ScoreEvent]:
        # The evaluation plan is a pure function of the state, asked for many times between two
        # actions (waiting_for, legal_actions, validation): memoise it between actions only.
        self._plan_memo = None
        self._applying = True
        try:
            return super().apply(action)
        finally:
            self._applying = False
            self._plan_memo = None

    def _plan(self) -> Plan:
        """What ending the islander step now evaluates (pure; memoised between actions)."""
        if getattr(self, "_applying", False) or self.finished:
            return self._compute_plan()
        memo = getattr(self, "_plan_memo", None)
        if memo is None:
            memo = self._plan_memo = self._compute_plan()
        return memo

    def _compute_plan(self) -> Plan:
        plan = Plan()
        cell = self.last_cell
        if cell is None:
            return plan
        board = self.board
        tile = board.cells[cell].tile
        by_root: dict[int, Outcome] = {}
        for region in tile.regions:
            if region.terrain == MARKET:
                continue
            root = board.feature(cell, region.index)
            if not board.occupants_of(root):
                continue
            boat = int(region.boat and region.terrain == SEA)
            if root in by_root:
                by_root[root].boats += boat
            elif boat or board.is_complete(root):
                by_root[root] = self._outcome(root)
                by_root[root].boats = boat
        plan.outcomes = list(by_root.values())
        markets = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = (cell[0] + dx, cell[1] + dy)
                placed = board.cells.get(c)
                if placed is None:
                    continue
                here = [r for r in placed.tile.regions if r.terrain == MARKET]
                if not here or board.neighbours8(c) < 8:
                    continue
                for region in here:
                    for f in board.occupants_of(board.feature(c, region.index)):
                        markets.append((f.owner, c))
        n = len(self.players)
        markets.sort(key=lambda m: ((m[0] - self.current) % n, m[1][1], m[1][0]))
        plan.markets = markets
        return plan

    def _outcome(self, root: int) -> Outcome:
        board = self.board
        terrain = board.terrain[root]
        good = GOOD_OF[terrain]
        amount = 0
        for cell, ri in board.members_of(root):
            if terrain == SEA and (cell, ri) in self.covered:
                continue
            amount += board.cells[cell].tile.regions[ri].symbols.get(good, 0)
        counts: dict[int, int] = {}
        for f in board.occupants_of(root):
            counts[f.owner] = counts.get(f.owner, 0) + 1
        best = max(counts.values())
        winners = [p for p in range(len(self.players)) if counts.get(p) == best]
        return Outcome(root, terrain, good, amount, board.tiles_in(root), counts, winners,
                       complete=board.is_complete(root))

    def _end_islander_step(self) -> None:
        self.step_open = False
        self.figure_done = True
        plan = self._plan()
        for outcome in plan.outcomes:
            cover = self._cover(outcome.root, outcome.boats) if outcome.boats else ""
            self._give(outcome, cover=cover)
            for fig in list(self.board.occupants_of(outcome.root)):
                self.remove_figure(fig)
        self.awards.extend(plan.markets)
        self._hand_out_awards()

    def _cover(self, root: int, boats: int) -> Text | str:
        """Cover fish groups with fishing boat tokens (2-fish groups first); say what was covered."""
        said = []
        for _ in range(boats):
            if self.boats_left <= 0:
                said.append(T("no fishing boat token is left, so nothing is covered"))
                continue
            groups = [(self.board.cells[c].order, c, ri, self.board.cells[c].tile.regions[ri].symbols.get("fish", 0))
                      for c, ri in self.board.members_of(root) if (c, ri) not in self.covered]
            groups = [g for g in groups if g[3]]
            if not groups:
                said.append(T("no uncovered fish is left to cover"))
                continue
            size = 2 if any(g[3] == 2 for g in groups) else 1
            _, c, ri, _ = min(g for g in groups if g[3] == size)
            self.covered.add((c, ri))
            self.boats_left -= 1
            said.append(T("a fishing boat token covers the {count}-fish group on {tile} at {x}, {y}", count=size,
                          tile=self.board.cells[c].tile.id, x=c[0], y=c[1]))
        return chain(said, N_("{first}; {next}"))

    def _describe(self, o: Outcome, final: bool = False) -> Text:
        name = self._terrain(o.terrain)
        state = "complete" if o.complete else "incomplete"
        boats = "" if not o.boats or final else "boat" if not o.complete else "also boat"
        template = _OUTCOME_TEXT[(state, boats)]
        goods = uncovered_fish(o.amount) if o.terrain == SEA else good_count(o.good, o.amount)
        return T(template, name=name, size=Tn("{n} tile", "{n} tiles", o.tiles), goods=goods)

    def _majority(self, o: Outcome, player: int) -> Text:
        role = self.role(o.terrain)
        roles = Tc(self.name, _ROLES_PLURAL.get(o.terrain, self.figure_roles[o.terrain] + "s"))
        mine = o.counts[player]
        if len(o.counts) == 1:
            if mine == 1:
                return T("{player}'s {role} alone", player=self.players[player], role=role)
            return T("{player}'s {roles} alone", player=self.players[player], roles=roles)
        if len(o.winners) > 1:
            names: Any = self.players[o.winners[0]]
            for p in o.winners[1:]:
                names = T("{first} and {last}", first=names, last=self.players[p])
            rest = self._others(o, o.winners)
            if rest is None:
                return T("{players} tie for most {roles} with {count} each: every tied player gets them all",
                         players=names, roles=roles, count=mine)
            return T("{players} tie for most {roles} with {count} each; also {others}: every tied player gets them all",
                     players=names, roles=roles, count=mine, others=rest)
        rest = self._others(o, [player])
        if rest is None:
            return T("most {roles}: {player} {count}", roles=roles, player=self.players[player], count=mine)
        return T("most {roles}: {player} {count} against {others}", roles=roles, player=self.players[player],
                 count=mine,
                 others=rest)

    def _others(self, o: Outcome, skip: list[int]) -> str | None:
        rest = [f"{self.players[p]} {n}" for p, n in o.counts.items() if p not in skip]
        return ", ".join(rest) if rest else None

    def _give(self, o: Outcome, cover: Any = "", final: bool = False) -> None:
        for p in o.winners:
            self.goods[p][o.good] += o.amount
            template = N_("final evaluation: gains {goods}: {what} ({why})") if final else \
                N_("gains {goods}: {what} ({why})")
            reason = T(template, goods=good_count(o.good, o.amount), what=self._describe(o, final),
                       why=self._majority(o, p))
            if cover:
                reason = T("{reason}; {cover}", reason=reason, cover=cover)
            self.award(self.players[p], 0, reason, kind="final" if final else "score")

    def _hand_out_awards(self) -> None:
        """Award pending market ships while no reveal or choice is needed."""
        while self.awards and not self.needs_reveal:
            player, cell = self.awards[0]
            if not self.display:
                self.awards.pop(0)
                self._return_trader(cell)
                self.award(self.players[player], 0, T("the completed market at {x}, {y} gives nothing: no ship is "
                                                      "left", x=cell[0], y=cell[1]))
                continue
            tied = self._tied_ships()
            if len(tied) > 1:
                return  # choose_ship
            self.awards.pop(0)
            self._take_ship(player, tied[0], cell, chosen=False)

    def _take_ship(self, player: int, ship_id: str, cell: Cell, chosen: bool) -> None:
        ship = self.ship(ship_id)
        how = T("chosen among the equal highest face-up ships") if chosen else T("the highest face-up ship")
        self.display.remove(ship_id)
        self.taken[player].append(ship_id)
        self._return_trader(cell)
        self.award(self.players[player], 0, T("completed market at {x}, {y}: the trader takes {ship}, {how}, "
                                              "without delivering; {points} points at the end", x=cell[0], y=cell[1],
                                              ship=ship.describe(), how=how, points=ship.value))

    def _return_trader(self, cell: Cell) -> None:
        """A completed market's trader goes back to its owner's supply once the market is evaluated."""
        for region in self.board.cells[cell].tile.regions:
            if region.terrain == MARKET:
                for fig in list(self.board.occupants_of(self.board.feature(cell, region.index))):
                    self.remove_figure(fig)

    # ---- the end

    def finish(self) -> list[ScoreEvent]:
        self._plan_memo = None
        self._applying = True  # the final evaluation changes the state as it goes: no memo
        try:
            return self._finish()
        finally:
            self._applying = False
            self._plan_memo = None

    def _finish(self) -> list[ScoreEvent]:
        if self.finished:
            return []
        self._check_can_finish()
        before = len(self.score_log)
        if self.step_open:
            self._end_islander_step()
        while self.awards:  # only a choice among equal ships is left: any of them scores the same
            player, cell = self.awards.pop(0)
            ship = self._tied_ships()[0]
            self._take_ship(player, ship, cell, chosen=True)
        self._final_evaluation()
        self.finished = True
        return self.score_log[before:]

    def _check_can_finish(self) -> None:
        """Refuse to end while an award still depends on a ship not yet revealed (changes nothing)."""
        awards = len(self.awards) + (len(self._plan().markets) if self.step_open else 0)
        if awards and (self.needs_reveal or (awards > 1 and self.pile)):
            raise IllegalAction(T("the game cannot end yet: a market award depends on the next ship from the pile; "
                                  "{what}", what=self.waiting_for() or T("end the islander step first")),
                                rule="reveal_first")

    def _final_evaluation(self) -> None:
        seen: set[int] = set()
        for fig in list(self.figures):
            root = self.board.feature(fig.cell, fig.region)
            if root in seen:
                continue
            seen.add(root)
            if self.board.terrain[root] == MARKET:
                self.award(self.players[fig.owner], 0, T("final evaluation: the incomplete market at {x}, {y} gives "
                                                         "nothing", x=fig.cell[0], y=fig.cell[1]), kind="final")
                continue
            self._give(self._outcome(root), final=True)
        for i, p in enumerate(self.players):
            for ship_id in self.taken[i]:
                ship = self.ship(ship_id)
                self.award(p, ship.value, ship.describe(), kind="final")
            goods = self.goods[i]
            total = sum(goods.values())
            self.award(p, total // 3, _goods_left(goods), kind="final")

    # ---- legal actions

    def legal_actions(self, tile: str | None = None) -> list[Action]:
        if tile is not None:
            return super().legal_actions(tile)
        if self.finished:
            return []
        if self.needs_reveal:
            return [RevealShip(s) for s in self.shipset.ships if s in self.pile]
        if self.awards:
            return [ChooseShip(s) for s in self._tied_ships()]
        if self.step_open:
            out: list[Action] = list(self.legal_figure_placements())
            out.extend(a for a in self._take_backs() if self.validate(a) is None)
            out.append(SkipIslander())
            return out + list(self.legal_deliveries())
        if self.placed and not self.delivered:
            return self.legal_deliveries()
        return []

    def _take_backs(self) -> list[TakeBack]:
        out = []
        for f in self.figures:
            if f.owner == self.current:
                region = self.board.cells[f.cell].tile.regions[f.region]
                out.append(TakeBack(f.cell[0], f.cell[1], region.id))
        return out

    def legal_deliveries(self) -> list[Deliver]:
        """Every delivery the current player can make now, one per way to pay (a delivery made during the
        islander step ends it first, so the goods of its evaluation count)."""
        if self.turn == 0 or not self.placed or self.delivered or self.needs_reveal or self.awards:
            return []
        holdings = Counter(self.goods[self.current])
        if self.step_open:
            plan = self._plan()
            if plan.markets:
                return []
            holdings.update(plan.gains(self.current))
        return [Deliver(s, pay) for s in self.display for pay in self.ship(s).requirement.payments(holdings)]

    # ---- resources and views

    def resources(self) -> dict[str, Any]:
        players = {}
        for i, p in enumerate(self.players):
            g = self.goods[i]
            players[p] = {
                "shells": g["shell"], "bananas": g["banana"], "fish": g["fish"], "goods": sum(g.values()),
                "ships": list(self.taken[i]), "ships_taken": len(self.taken[i]),
                "ship_points": sum(self.ship(s).value for s in self.taken[i]),
                "islanders_in_supply": self.supply[i],
                "islanders_on_board": sum(1 for f in self.figures if f.owner == i),
            }
        table = {
            "face_up_ships": [{"id": s, "value": self.ship(s).value,
                               "requirement": self.ship(s).requirement.describe()} for s in self.display],
            "ships_in_pile": len(self.pile),
            "boat_tokens_left": self.boats_left,
            "tiles_left": self.tiles_left(),
            "tiles_placed": len(self.board.cells),
            "tiles_discarded": len(self.discarded),
            "waiting_for": self.waiting_for(),
        }
        return {"players": players, "table": table}

    def view(self) -> dict[str, Any]:
        out = super().view()
        marks = []
        for cell, placed in sorted(self.board, key=lambda kv: kv[1].order):
            for region in placed.tile.regions:
                if region.symbols or region.boat:
                    marks.append({"x": cell[0], "y": cell[1], "region": region.id, "symbols": dict(region.symbols),
                                  "boat": region.boat, "covered": (cell, region.index) in self.covered,
                                  "anchor": region_anchor(region.slots, placed.rot)})
        out["symbols"] = marks
        return out

    score_track = False
    """Nothing is scored during play (goods are resources; the points come at the end)."""

    def hold(self, ships: Mapping[str, list[str]], goods: Mapping[str, Mapping[str, int]],
             covered: Any = ()) -> list[str]:
        """Set what lies in front of each player before the final evaluation (a table read from a photo, where
        no log says it): ship ids taken or delivered and goods held, by player name, and the fish groups under
        fishing boat tokens. One-line errors; returns the covered groups not found on this table (the photo
        may have read another tile there), which are not counted."""
        for key, value in (("ships", ships), ("goods", goods)):
            for name in value:
                if name not in self.players:
                    raise SetupError(T("holdings.{key}: {name} is not a player (players: {players})", key=key,
                                       name=show(name), players=", ".join(self.players)))
        owner: dict[str, str] = {}
        for name, ids in ships.items():
            i = self.players.index(name)
            for k, ship_id in enumerate(ids):
                if not isinstance(ship_id, str) or ship_id not in self.shipset.ships:
                    raise SetupError(T("holdings.ships.{name}[{k}]: {ship} is not a ship of {file}", name=name, k=k,
                                       ship=show(ship_id), file=Path(self.shipset.path).name))
                if ship_id in owner:
                    raise SetupError(T("holdings.ships.{name}[{k}]: ship {ship} is counted twice (also {owner}'s); there "
                                       "is one of each ship", name=name, k=k, ship=ship_id, owner=owner[ship_id]))
                owner[ship_id] = name
                self.pile.discard(ship_id)
                self.taken[i].append(ship_id)
        for name, held in goods.items():
            i = self.players.index(name)
            for kind, n in held.items():
                if kind not in KINDS or isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise SetupError(T("holdings.goods.{name}.{kind}: expected a good ({kinds}) and a whole number >= 0, "
                                       "got {value}", name=name, kind=kind, kinds=", ".join(KINDS), value=show(n)))
                self.goods[i][kind] += n
        ignored = []
        for k, item in enumerate(covered):
            where = f"holdings.covered[{k}]"
            try:
                x, y, region_id = item
                x, y, region_id = int(x), int(y), str(region_id)
            except (TypeError, ValueError):
                raise SetupError(T("{where}: expected [x, y, region] of a sea with fish, got {value}", where=where,
                                   value=show(item))) from None
            placed = self.board.cells.get((x, y))
            region = placed.tile.region_by_id.get(region_id) if placed is not None else None
            if region is None or region.terrain != SEA or not region.symbols.get("fish"):
                what = T("no tile") if placed is None else T("{tile}, with no fish on {region}", tile=placed.tile.id,
                                                                region=region_id)
                ignored.append(T("{where}: the table holds {what} at {x}, {y}: not counted as covered", where=where,
                                 what=what, x=x, y=y))
                continue
            self.covered.add(((x, y), region.index))
            self.boats_left -= 1
        return ignored

    # ---- scoring a counted table (tablehub score POSITION.json)

    @classmethod
    def score_position(cls, data: Mapping[str, Any], source: str = "<position>") -> PositionResult:
        """Final score from what lies in front of each player: ``{"ships": {player: [ship ids or values]},
        "goods": {player: {"shell": n, ...}}}`` (after the final evaluation)."""
        players = data.get("players")
        if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
            raise SetupError(T("{source}: players: expected a list of names (Südsee positions name their players)",
                                 source=source))
        pos = data.get("position")
        schemas.check(pos, "suedsee-position", source, SetupError, at=("position",))
        options = data.get("options", {}) or {}
        ships_file = options.get("ships") or SHIPS_FILE
        if not isinstance(ships_file, (str, Path)):
            raise SetupError(T("{source}: options.ships: expected a path to a ships file, got {value}", source=source,
                                 value=show(ships_file)))
        try:
            shipset = load_ships(ships_file)
        except ShipsError as exc:
            raise SetupError(reason(exc)) from None
        ships, goods = pos["ships"], pos["goods"]
        for key, value in (("ships", ships), ("goods", goods)):
            for name in value:
                if name not in players:
                    raise SetupError(T("{source}: position.{key}: {name} is not a player (players: {players})",
                                       source=source, key=key, name=show(name), players=", ".join(players)))
        values = sorted({s.value for s in shipset.ships.values()})
        owner: dict[str, str] = {}
        events: list[ScoreEvent] = []
        for p in players:
            for i, item in enumerate(ships.get(p, [])):
                where = T("{source}: position.ships.{player}[{i}]", source=source, player=p, i=i)
                if isinstance(item, str):
                    if item not in shipset.ships:
                        raise SetupError(T("{where}: ship {ship} is not in {file}", where=where, ship=show(item),
                                           file=str(shipset.path)))
                    if item in owner:
                        raise SetupError(T("{where}: ship {ship} is counted twice (also {owner}'s); there is one of each ship",
                                           where=where, ship=item, owner=owner[item]))
                    owner[item] = p
                    s = shipset.ships[item]
                    events.append(ScoreEvent(p, s.value, s.describe(), "final"))
                else:
                    item = int(item)  # the schema took 3.0 as a whole number
                    if item not in values:
                        raise SetupError(T("{where}: no ship is worth {points} points in {file} (values: {values})", where=where,
                                           points=item, file=Path(shipset.path).name,
                                           values=", ".join(map(str, values))))
                    events.append(ScoreEvent(p, item, T("a ship worth {points}", points=item), "final"))
            held = {k: int(n) for k, n in goods.get(p, {}).items()}
            total = sum(held.values())
            events.append(ScoreEvent(p, total // 3, _goods_left(held), "final"))
        scores = {p: sum(e.points for e in events if e.player == p) for p in players}
        lines = [str(e) for e in events]
        lines.append(T("Totals: {totals} ({verdict})", totals=", ".join(f"{p} {scores[p]}" for p in players),
                       verdict=verdict(winners_of(scores))))
        prov = T("the ships (ships.json) are provisional") if shipset.provisional and any(
            isinstance(i, str) for v in ships.values() for i in v) else None
        return PositionResult(scores, events, lines, prov)


def _goods_left(goods: Mapping[str, int]) -> Text:
    total = sum(goods.values())
    return Tn("{n} good left ({goods}): 1 point per 3 goods = {points}",
              "{n} goods left ({goods}): 1 point per 3 goods = {points}", total, goods=goods_text(goods),
              points=total // 3)


#: the roles in the plural ("most fishers")
_ROLES_PLURAL = {BRIDGE: "shell collectors", ISLAND: "banana pickers", SEA: "fishers", MARKET: "traders"}
#: an evaluated feature in words: (complete or incomplete, sea or land, what the new tile's fishing boat did)
_OUTCOME_TEXT = {
    ("complete", ""): N_("complete {name} of {size} with {goods}"),
    ("incomplete", ""): N_("incomplete {name} of {size} with {goods}"),
    ("incomplete", "boat"): N_("incomplete {name} of {size} with {goods}, evaluated because the new tile brings a "
                               "fishing boat"),
    ("complete", "also boat"): N_("complete {name} of {size} with {goods} (the new tile also brings a fishing boat: "
                                  "evaluated once)"),
}


_CHECKED: set[int] = set()


def _check_catalog(catalog: Catalog) -> None:
    """The Südsee reading of a tile catalog: terrains B/I/S/K, markets inside a tile, fish groups of 1 or 2."""
    if id(catalog) in _CHECKED:
        return
    where = catalog.path
    if set(catalog.terrains) != {BRIDGE, ISLAND, SEA, MARKET}:
        raise SetupError(T("{where}: a Südsee catalog has the terrains B (bridge), I (island), S (sea) and K (market), "
                           "got {terrains}", where=str(where), terrains=", ".join(sorted(catalog.terrains))))
    for tile in catalog.tiles:
        for r in tile.regions:
            if r.terrain == MARKET and r.slots:
                raise SetupError(T("{where}: tile {tile}: region {region}: a market lies inside its tile ({field})",
                                   where=str(where), tile=tile.id, region=r.id, field='"slots": ""'))
            fish = r.symbols.get("fish")
            if fish is not None and (r.terrain != SEA or fish not in (1, 2)):
                raise SetupError(T("{where}: tile {tile}: region {region}: fish come as one group of 1 or 2 fish on a "
                                   "sea region ({one} or {two}), got {fish} on {terrain}", where=str(where),
                                   tile=tile.id, region=r.id, one='{"fish": 1}', two='{"fish": 2}', fish=repr(fish),
                                   terrain=catalog.terrains.get(r.terrain, r.terrain)))
            if r.boat and r.terrain != SEA:
                raise SetupError(T("{where}: tile {tile}: region {region}: a fishing boat lies on a sea region",
                                   where=str(where), tile=tile.id, region=r.id))
    _CHECKED.add(id(catalog))


__all__ = ["Suedsee", "TakeBack", "SkipIslander", "RevealShip", "ChooseShip", "Deliver", "PlaceTile",
           "DiscardTile", "PlaceFigure"]
