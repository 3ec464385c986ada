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
from ..base import (Action, IllegalAction, OptionSpec, PositionResult, ScoreEvent, Setup, SetupError, show, verdict,
                    winners_of)
from ..tiles.board import Cell
from ..tiles.catalog import Catalog, TileType
from ..tiles.game import DiscardTile, Figure, FigureOnBoard, PlaceFigure, PlaceTile, TileGame, region_anchor
from .ships import KINDS, PLURAL, Ship, ShipSet, ShipsError, goods_text, load_ships

BRIDGE, ISLAND, SEA, MARKET = "B", "I", "S", "K"
#: the good a completed feature gives, by terrain
GOOD_OF = {BRIDGE: "shell", ISLAND: "banana", SEA: "fish"}
DISPLAY_SIZE = 4
BOAT_TOKENS = 19
ISLANDERS = 4  # 20 islanders, 4 of each of the 5 colours
SHIPS_FILE = Path(__file__).with_name("ships.json")
PROVISIONAL = ("the Südsee tile list (tiles.json) and the 24 ships (ships.json) are provisional: the rule book's "
               "pictures were lost, so the classic base-set topology with guessed goods and ships stands in")


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class TakeBack(FigureOnBoard):
    """Islander step 2b: take your islander on ``region`` of the tile at (x, y) back into your supply (no goods)."""

    type: ClassVar[str] = "take_back"


@dataclass(frozen=True)
class SkipIslander(Action):
    """End the islander step without placing or taking back an islander (optional: any later action ends it too)."""

    type: ClassVar[str] = "skip_islander"


@dataclass(frozen=True)
class RevealShip(Action):
    """The ship token turned face up from the pile (4 at the start; one after each award or delivery)."""

    type: ClassVar[str] = "reveal_ship"
    ship: str


@dataclass(frozen=True)
class ChooseShip(Action):
    """A completed market's award when several face-up ships share the highest value: which one is taken."""

    type: ClassVar[str] = "choose_ship"
    ship: str


@dataclass(frozen=True)
class Deliver(Action):
    """Deliver goods to the face-up ``ship`` at the end of your turn. ``goods`` (e.g. ``{"fish": 3,
    "banana": 3}``) names what is paid; it may be left out when only one payment is possible."""

    type: ClassVar[str] = "deliver"
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
            raise IllegalAction(f"unknown ship {ship_id!r}: the ships file has no such ship",
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

    def _where_ship(self, ship_id: str) -> str:
        if ship_id in self.display:
            return "it is face up"
        if ship_id in self.pile:
            return "it is still in the pile"
        for i, ids in enumerate(self.taken):
            if ship_id in ids:
                return f"{self.players[i]} has taken it"
        return "it is nowhere"

    # ---- what the game waits for

    def describe(self, action: Mapping[str, Any]) -> str | None:
        """The tile words of :class:`TileGame`, and the islander step ended with no islander."""
        if action.get("type") == "skip_islander":
            return "No islander this turn"
        return super().describe(action)

    def waiting_for(self) -> str | None:
        """A line naming the mandatory choice the game waits for, or ``None``."""
        if self.needs_reveal:
            return (f"reveal the ship turned face up from the pile ({len(self.display)} of {DISPLAY_SIZE} face up, "
                    f"{len(self.pile)} in the pile): {{\"type\": \"reveal_ship\", \"ship\": ...}}")
        if self.awards:
            player, cell = self.awards[0]
            tied = self._tied_ships()
            return (f"{self.players[player]} chooses the ship for the completed market at {cell[0]}, {cell[1]} among "
                    f"the equal highest ships {', '.join(tied)}: {{\"type\": \"choose_ship\", \"ship\": ...}}")
        if self.step_open and self._plan().markets:
            return (f"{self.current_player} ends the islander step (place_figure, take_back or skip_islander) "
                    f"so that the completed market's ship can be awarded")
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

    def _check_no_pending(self, what: str) -> None:
        if self.needs_reveal:
            raise IllegalAction(f"{what} must wait: {self.waiting_for()}", rule="reveal_first")
        if self.awards:
            raise IllegalAction(f"{what} must wait: {self.waiting_for()}", rule="choose_first")

    def _check_turn_start(self) -> None:
        self._check_no_pending("laying a tile")
        if self.step_open and self._plan().markets:
            raise IllegalAction(f"laying the next tile must wait: {self.waiting_for()}", rule="end_islander_step")
        if self.turn > 0 and self.ships_out and (self.placed or self.step_open):
            raise IllegalAction(f"every ship has been taken: the game ended with {self.current_player}'s turn "
                                f"(finish it for the final evaluation)", rule="game_over")

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
                return "the market is complete (all 8 neighbours laid): its trader went home when it was evaluated"
        elif self.board.is_complete(self.board.feature(cell, region_index)):
            return (f"the {self._terrain(region.terrain)} is complete: its islanders went home when it was "
                    f"evaluated")
        return None

    def _check_figure_extra(self, tile: TileType, region: Any, root: int) -> None:
        if not self.step_open:
            raise IllegalAction("the islander step of this turn is over", rule="one_figure_action")

    def _validate_other(self, action: Action) -> None:
        if isinstance(action, TakeBack):
            self._check_take_back(action)
        elif isinstance(action, SkipIslander):
            self._check_figure_step("ending the islander step")
            if not self.step_open:
                raise IllegalAction("the islander step of this turn is over", rule="one_figure_action")
        elif isinstance(action, RevealShip):
            self._check_reveal(action)
        elif isinstance(action, ChooseShip):
            self._check_choose(action)
        elif isinstance(action, Deliver):
            self._check_deliver(action)
        else:
            super()._validate_other(action)

    def _check_take_back(self, a: TakeBack) -> None:
        self._check_figure_step("taking an islander back")
        if self.options["takeback"] == "seed" and self.supply[self.current] > 0:
            n = self.supply[self.current]
            raise IllegalAction(f"{self.current_player} still has {n} islander{'s' if n != 1 else ''} in supply: "
                                f"the rule book allows taking one back only with an empty supply "
                                f"(option takeback=any allows it whenever no islander is placed)",
                                rule="takeback_supply")
        self.figure_at((a.x, a.y), a.region, owner=self.current)

    def _check_reveal(self, a: RevealShip) -> None:
        ship = self.ship(a.ship)
        if not self.needs_reveal:
            why = (f"{len(self.display)} ships are face up already" if self.pile else "the ship pile is empty")
            raise IllegalAction(f"no ship is to be revealed now: {why}", rule="no_reveal_due")
        if ship.id not in self.pile:
            raise IllegalAction(f"ship {ship.id} is not in the pile: {self._where_ship(ship.id)}",
                                rule="ship_not_in_pile")

    def _check_choose(self, a: ChooseShip) -> None:
        ship = self.ship(a.ship)
        if self.needs_reveal or not self.awards:
            raise IllegalAction("no market award waits for a choice of ship now", rule="no_choice_due")
        tied = self._tied_ships()
        if ship.id not in self.display:
            raise IllegalAction(f"ship {ship.id} is not face up ({self._where_ship(ship.id)}); the market gives one "
                                f"of {', '.join(tied)}", rule="ship_not_face_up")
        if ship.id not in tied:
            best = self.ship(tied[0]).value
            raise IllegalAction(f"ship {ship.id} ({ship.value} points) is not a highest-valued face-up ship: the "
                                f"market gives one of {', '.join(tied)} ({best} points)", rule="not_highest_ship")

    def _check_deliver(self, a: Deliver) -> None:
        who = self.current_player
        if self.turn == 0 or not self.placed:
            raise IllegalAction("a ship is delivered at the end of the turn, after laying its tile",
                                rule="deliver_before_tile")
        if self.delivered:
            raise IllegalAction(f"{who} has already delivered a ship this turn (exactly one per turn)",
                                rule="one_delivery")
        self._check_no_pending("a delivery")
        ship = self.ship(a.ship)
        if ship.id not in self.display:
            shown = ", ".join(self.display) or "none"
            raise IllegalAction(f"ship {ship.id} is not face up ({self._where_ship(ship.id)}; face up: {shown})",
                                rule="ship_not_face_up")
        holdings = Counter(self.goods[self.current])
        if self.step_open:
            plan = self._plan()
            if plan.markets:
                raise IllegalAction(f"the delivery must wait: {self.waiting_for()}", rule="end_islander_step")
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
                raise IllegalAction(f"{who} cannot pay {ship.describe()}: {who} has {has}", rule="cannot_pay")
            raise IllegalAction(f"name the goods paid to ship {ship.id} ({req.describe()}): {who} could pay "
                                f"{' or '.join(goods_text(o) for o in options[:4])}"
                                f"{' or ...' if len(options) > 4 else ''}", rule="goods_unnamed")
        paid: dict[str, int] = {}
        for kind, n in goods.items():
            if kind not in KINDS:
                raise IllegalAction(f"unknown good {kind!r} in the delivery (goods are {', '.join(KINDS)})",
                                    rule="bad_goods")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise IllegalAction(f"the delivery's {kind} count must be a whole number >= 0, got {n!r}",
                                    rule="bad_goods")
            if n:
                paid[kind] = n
        why = req.problem(paid)
        if why:
            raise IllegalAction(f"{goods_text(paid)} does not fit ship {ship.id}: {why}", rule="wrong_goods")
        short = [k for k in paid if holdings.get(k, 0) < paid[k]]
        if short:
            raise IllegalAction(f"{who} cannot pay {goods_text(paid)} to ship {ship.id}: {who} has {has}",
                                rule="cannot_pay")
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
            self.award(self.current_player, 0, f"delivers {goods_text(paid)} to {ship.describe()}: "
                                               f"{ship.value} points at the end")
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

    def _cover(self, root: int, boats: int) -> str:
        """Cover fish groups with fishing boat tokens (2-fish groups first); say what was covered."""
        said = []
        for _ in range(boats):
            if self.boats_left <= 0:
                said.append("no fishing boat token is left, so nothing is covered")
                continue
            groups = [(self.board.cells[c].order, c, ri, self.board.cells[c].tile.regions[ri].symbols.get("fish", 0))
                      for c, ri in self.board.members_of(root) if (c, ri) not in self.covered]
            groups = [g for g in groups if g[3]]
            if not groups:
                said.append("no uncovered fish is left to cover")
                continue
            size = 2 if any(g[3] == 2 for g in groups) else 1
            _, c, ri, _ = min(g for g in groups if g[3] == size)
            self.covered.add((c, ri))
            self.boats_left -= 1
            said.append(f"a fishing boat token covers the {size}-fish group on {self.board.cells[c].tile.id} at "
                        f"{c[0]}, {c[1]}")
        return "; ".join(said)

    def _describe(self, o: Outcome, final: bool = False) -> str:
        name = self._terrain(o.terrain)
        state = "complete" if o.complete else "incomplete"
        size = f"{o.tiles} tile{'s' if o.tiles != 1 else ''}"
        fish = " uncovered" if o.terrain == SEA else ""
        unit = o.good if o.amount == 1 else PLURAL[o.good]
        what = f"{state} {name} of {size} with {o.amount}{fish} {unit}"
        if o.boats and not final:
            what = (f"{what}, evaluated because the new tile brings a fishing boat" if not o.complete else
                    f"{what} (the new tile also brings a fishing boat: evaluated once)")
        return what

    def _majority(self, o: Outcome, player: int) -> str:
        role = self.figure_roles[o.terrain]
        mine = o.counts[player]
        if len(o.counts) == 1:
            return f"{self.players[player]}'s {role}{'s' if mine != 1 else ''} alone"
        if len(o.winners) > 1:
            names = " and ".join(self.players[p] for p in o.winners)
            return (f"{names} tie for most {role}s with {mine} each"
                    f"{self._others(o, o.winners)}: every tied player gets them all")
        return f"most {role}s: {self.players[player]} {mine}{self._others(o, [player], ' against ')}"

    def _others(self, o: Outcome, skip: list[int], lead: str = "; also ") -> str:
        rest = [f"{self.players[p]} {n}" for p, n in o.counts.items() if p not in skip]
        return lead + ", ".join(rest) if rest else ""

    def _give(self, o: Outcome, cover: str = "", final: bool = False) -> None:
        for p in o.winners:
            self.goods[p][o.good] += o.amount
            unit = o.good if o.amount == 1 else PLURAL[o.good]
            prefix = "final evaluation: " if final else ""
            reason = f"{prefix}gains {o.amount} {unit}: {self._describe(o, final)} ({self._majority(o, p)})"
            if cover:
                reason += f"; {cover}"
            self.award(self.players[p], 0, reason, kind="final" if final else "score")

    def _hand_out_awards(self) -> None:
        """Award pending market ships while no reveal or choice is needed."""
        while self.awards and not self.needs_reveal:
            player, cell = self.awards[0]
            if not self.display:
                self.awards.pop(0)
                self._return_trader(cell)
                self.award(self.players[player], 0, f"the completed market at {cell[0]}, {cell[1]} gives nothing: "
                                                    f"no ship is left")
                continue
            tied = self._tied_ships()
            if len(tied) > 1:
                return  # choose_ship
            self.awards.pop(0)
            self._take_ship(player, tied[0], cell, chosen=False)

    def _take_ship(self, player: int, ship_id: str, cell: Cell, chosen: bool) -> None:
        ship = self.ship(ship_id)
        how = "chosen among the equal highest face-up ships" if chosen else "the highest face-up ship"
        self.display.remove(ship_id)
        self.taken[player].append(ship_id)
        self._return_trader(cell)
        self.award(self.players[player], 0, f"completed market at {cell[0]}, {cell[1]}: the trader takes "
                                            f"{ship.describe()}, {how}, without delivering; {ship.value} points "
                                            f"at the end")

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
            raise IllegalAction(f"the game cannot end yet: a market award depends on the next ship from the pile; "
                                f"{self.waiting_for() or 'end the islander step first'}", rule="reveal_first")

    def _final_evaluation(self) -> None:
        seen: set[int] = set()
        for fig in list(self.figures):
            root = self.board.feature(fig.cell, fig.region)
            if root in seen:
                continue
            seen.add(root)
            if self.board.terrain[root] == MARKET:
                self.award(self.players[fig.owner], 0, f"final evaluation: the incomplete market at {fig.cell[0]}, "
                                                       f"{fig.cell[1]} gives nothing", kind="final")
                continue
            self._give(self._outcome(root), final=True)
        for i, p in enumerate(self.players):
            for ship_id in self.taken[i]:
                ship = self.ship(ship_id)
                self.award(p, ship.value, f"{ship.describe()}", kind="final")
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
                    raise SetupError(f"holdings.{key}: {show(name)} is not a player (players: "
                                     f"{', '.join(self.players)})")
        owner: dict[str, str] = {}
        for name, ids in ships.items():
            i = self.players.index(name)
            for k, ship_id in enumerate(ids):
                if not isinstance(ship_id, str) or ship_id not in self.shipset.ships:
                    raise SetupError(f"holdings.ships.{name}[{k}]: {show(ship_id)} is not a ship of "
                                     f"{Path(self.shipset.path).name}")
                if ship_id in owner:
                    raise SetupError(f"holdings.ships.{name}[{k}]: ship {ship_id} is counted twice (also "
                                     f"{owner[ship_id]}'s); there is one of each ship")
                owner[ship_id] = name
                self.pile.discard(ship_id)
                self.taken[i].append(ship_id)
        for name, held in goods.items():
            i = self.players.index(name)
            for kind, n in held.items():
                if kind not in KINDS or isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise SetupError(f"holdings.goods.{name}.{kind}: expected a good ({', '.join(KINDS)}) and a "
                                     f"whole number >= 0, got {show(n)}")
                self.goods[i][kind] += n
        ignored = []
        for k, item in enumerate(covered):
            where = f"holdings.covered[{k}]"
            try:
                x, y, region_id = item
                x, y, region_id = int(x), int(y), str(region_id)
            except (TypeError, ValueError):
                raise SetupError(f"{where}: expected [x, y, region] of a sea with fish, got {show(item)}") from None
            placed = self.board.cells.get((x, y))
            region = placed.tile.region_by_id.get(region_id) if placed is not None else None
            if region is None or region.terrain != SEA or not region.symbols.get("fish"):
                what = "no tile" if placed is None else f"{placed.tile.id}, with no fish on {region_id}"
                ignored.append(f"{where}: the table holds {what} at {x}, {y}: not counted as covered")
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
            raise SetupError(f"{source}: players: expected a list of names (Südsee positions name their players)")
        pos = data.get("position")
        schemas.check(pos, "suedsee-position", source, SetupError, at=("position",))
        options = data.get("options", {}) or {}
        ships_file = options.get("ships") or SHIPS_FILE
        if not isinstance(ships_file, (str, Path)):
            raise SetupError(f"{source}: options.ships: expected a path to a ships file, got {show(ships_file)}")
        try:
            shipset = load_ships(ships_file)
        except ShipsError as exc:
            raise SetupError(str(exc)) from None
        ships, goods = pos["ships"], pos["goods"]
        for key, value in (("ships", ships), ("goods", goods)):
            for name in value:
                if name not in players:
                    raise SetupError(f"{source}: position.{key}: {show(name)} is not a player "
                                     f"(players: {', '.join(players)})")
        values = sorted({s.value for s in shipset.ships.values()})
        owner: dict[str, str] = {}
        events: list[ScoreEvent] = []
        for p in players:
            for i, item in enumerate(ships.get(p, [])):
                where = f"{source}: position.ships.{p}[{i}]"
                if isinstance(item, str):
                    if item not in shipset.ships:
                        raise SetupError(f"{where}: ship {show(item)} is not in {shipset.path}")
                    if item in owner:
                        raise SetupError(f"{where}: ship {item} is counted twice (also {owner[item]}'s); "
                                         f"there is one of each ship")
                    owner[item] = p
                    s = shipset.ships[item]
                    events.append(ScoreEvent(p, s.value, s.describe(), "final"))
                else:
                    item = int(item)  # the schema took 3.0 as a whole number
                    if item not in values:
                        raise SetupError(f"{where}: no ship is worth {item} points in {Path(shipset.path).name} "
                                         f"(values: {', '.join(map(str, values))})")
                    events.append(ScoreEvent(p, item, f"a ship worth {item}", "final"))
            held = {k: int(n) for k, n in goods.get(p, {}).items()}
            total = sum(held.values())
            events.append(ScoreEvent(p, total // 3, _goods_left(held), "final"))
        scores = {p: sum(e.points for e in events if e.player == p) for p in players}
        lines = [str(e) for e in events]
        lines.append("Totals: " + ", ".join(f"{p} {scores[p]}" for p in players)
                     + f" ({verdict(winners_of(scores))})")
        prov = "the ships (ships.json) are provisional" if shipset.provisional and any(
            isinstance(i, str) for v in ships.values() for i in v) else None
        return PositionResult(scores, events, lines, prov)


def _goods_left(goods: Mapping[str, int]) -> str:
    total = sum(goods.values())
    return (f"{total} good{'s' if total != 1 else ''} left ({goods_text(goods)}): 1 point per 3 goods = "
            f"{total // 3}")


_CHECKED: set[int] = set()


def _check_catalog(catalog: Catalog) -> None:
    """The Südsee reading of a tile catalog: terrains B/I/S/K, markets inside a tile, fish groups of 1 or 2."""
    if id(catalog) in _CHECKED:
        return
    where = catalog.path
    if set(catalog.terrains) != {BRIDGE, ISLAND, SEA, MARKET}:
        raise SetupError(f"{where}: a Südsee catalog has the terrains B (bridge), I (island), S (sea) and K (market), "
                         f"got {', '.join(sorted(catalog.terrains))}")
    for tile in catalog.tiles:
        for r in tile.regions:
            if r.terrain == MARKET and r.slots:
                raise SetupError(f"{where}: tile {tile.id}: region {r.id}: a market lies inside its tile "
                                 f"(\"slots\": \"\")")
            fish = r.symbols.get("fish")
            if fish is not None and (r.terrain != SEA or fish not in (1, 2)):
                raise SetupError(f"{where}: tile {tile.id}: region {r.id}: fish come as one group of 1 or 2 fish "
                                 f"on a sea region ({{\"fish\": 1}} or {{\"fish\": 2}}), got {fish!r} on "
                                 f"{catalog.terrains.get(r.terrain, r.terrain)}")
            if r.boat and r.terrain != SEA:
                raise SetupError(f"{where}: tile {tile.id}: region {r.id}: a fishing boat lies on a sea region")
    _CHECKED.add(id(catalog))


__all__ = ["Suedsee", "TakeBack", "SkipIslander", "RevealShip", "ChooseShip", "Deliver", "PlaceTile",
           "DiscardTile", "PlaceFigure"]
