"""The Tahiti rules engine (Ralf zur Linde & Ralf E. Kahlert, 1995).

Rule book: ``../shared/seeds/004_6a15a912272d4c8b.txt``; what it leaves open is
decided in ``../shared/RULINGS.md`` ("Tahiti"). Board conventions, the action
vocabulary and the position format are in docs/tahiti.md.

A game goes: every player puts their sailboat on the track (one turn each), then
takes a starting pearl of a colour nobody else took (one turn each). Then each
turn the roller rolls the die (``roll``); a blank face triggers the disc's event
once per turn (pay day, or savings announced with ``save`` by every player from
the roller on), and blanks after it are ignored; a number is auctioned (``bid`` /
``pass``), and the winner's sailboat moves that many spaces clockwise, after
which they ``take_letter``, ``take_pearl`` or ``place_boat`` as the rules force.
The game ends at once when a second pearl colour runs out (or when ``finish()``
is called), and the final scoring awards vaults and pearl banks (kind ``"final"``).

Money is tracked from the announced amounts: bids and savings carry them.
Forced non-moves are resolved by the engine (nobody bid; the sector is full; no
boat left): they hide no choice. Every choice a player makes is an action field.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ...i18n import T, Text
from ..base import Action, Game, IllegalAction, OptionSpec, PositionResult, Setup, confirmed, no_hints
from . import scoring
from .actions import ACTIONS, Bid, Pass, PlaceBoat, PlaceSailboat, Roll, Save, StartPearl, TakeLetter, TakePearl
from .camera import TahitiBoardMoves
from .board import LINES, PEARLS, PEARLS_PER_COLOUR, SECTORS, SIZE, TAHITI, TRACK_LENGTH, Board, Cell, all_cells, \
    cell_name, load_board, parse_cell, sectors_of
from .scoring import BOATS_PER_PLAYER, MapBoat
from .words import a_pearl, colour as colour_word, describe as describe_in_words, the_pearl, the_pearls

log = logging.getLogger(__name__)

START_CASH = 15
MAX_SAVING = 10
DIE_FACES: tuple[int | str, ...] = (1, 2, 3, 4, "blank")
DISC_PAY = "$"
DISC_TREASURE = "treasure"

# phases
SAILBOATS = "sailboats"
START_PEARLS = "start_pearls"
ROLL = "roll"
SAVE = "save"
AUCTION = "auction"
CHOOSE = "choose"
OVER = "over"


@dataclass
class PlayerState:
    cash: int = START_CASH
    vault: int = 0
    boats: int = BOATS_PER_PLAYER  # boats still in the player's supply
    pearl: str | None = None  # the pearl on a boat in front of the player
    letter_space: int | None = None  # the track space where the player's letter boat sits
    space: int | None = None  # the sailboat's track space


class Tahiti(Game):
    """Tahiti for 2-4 players; see the module docstring and docs/tahiti.md."""

    name = "tahiti"
    title = "Tahiti"
    min_players = 2
    max_players = 4
    ACTIONS = ACTIONS
    OPTIONS = (
        OptionSpec("board", None,
                   "the track order: a path to a board JSON file (or the board object); "
                   "default: the packaged provisional order"),
    )
    board_moves = TahitiBoardMoves()  # what the camera's view of the board means (tablehub.tracking.boardmoves)
    provisional = T("Tahiti: the order of the 12 track spaces is provisional (the rule book does not give it)")

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self.board: Board = load_board(self.options["board"])
        if not self.board.provisional:
            self.provisional = None
        n = len(self.players)
        self.state: list[PlayerState] = [PlayerState() for _ in range(n)]
        self.map: dict[Cell, MapBoat] = {}
        self.supply: dict[str, int] = {c: PEARLS_PER_COLOUR for c in PEARLS}
        self.exhausted: list[str] = []
        self.disc = DISC_PAY
        self.phase = SAILBOATS
        self.roller = 0
        self.event_done = False
        self.die: int | None = None
        self.savers: list[int] = []
        self.high_bid: int | None = None
        self.high_bidder: int | None = None
        self.passed: list[int] = []
        self.winner: int | None = None
        self.note: Text | None = None  # what the engine resolved by itself last
        self.final_lines: list[Text] = []
        self._turn_open = False

    # ------------------------------------------------------------------ helpers

    def _index(self, name: str) -> int:
        return self.players.index(name)

    def _space_name(self, space: int) -> Text:
        s = self.board.track[space]
        return T("space {space} ({letter}, {colour})", space=space, letter=s.letter, colour=colour_word(s.pearl))

    def boats_on_map(self, player: int) -> int:
        name = self.players[player]
        return sum(1 for b in self.map.values() if b.owner == name)

    def waiting_for(self) -> Text:
        """What the engine waits for, as a sentence ("Ana to roll the die")."""
        if self.finished:
            return T("the game is over")
        who = self.players[self.current]
        if self.phase == SAILBOATS:
            return T("{player} to place their sailboat on a track space", player=who)
        if self.phase == START_PEARLS:
            return T("{player} to take a starting pearl", player=who)
        if self.phase == ROLL:
            return T("{player} to roll the die", player=who)
        if self.phase == SAVE:
            return T("{player} to announce their savings (0-{most} $)", player=who, most=MAX_SAVING)
        if self.phase == AUCTION:
            bid = T("no bid yet") if self.high_bid is None else \
                T("{bidder} bids {amount} $", bidder=self.players[self.high_bidder],  # type: ignore[index]
                  amount=self.high_bid)
            return T("{player} to bid or pass for a move of {die} ({bid})", player=who, die=self.die, bid=bid)
        ps = self.state[self.current]
        space = self.board.track[ps.space]  # type: ignore[index]
        if ps.letter_space is not None:
            letter = self.board.track[ps.letter_space].letter
            return T("{player} to take {pearl} and place the boat in sector {letter}", player=who,
                     pearl=a_pearl(space.pearl), letter=letter)
        if ps.pearl is not None:
            return T("{player} to take letter {letter} and place {pearl} in sector {letter}", player=who,
                     letter=space.letter, pearl=the_pearl(ps.pearl))
        return T("{player} to take letter {letter} or {pearl}", player=who, letter=space.letter,
                 pearl=a_pearl(space.pearl))

    def _expected(self) -> tuple[type[Action], ...]:
        if self.phase == SAILBOATS:
            return (PlaceSailboat,)
        if self.phase == START_PEARLS:
            return (StartPearl,)
        if self.phase == ROLL:
            return (Roll,)
        if self.phase == SAVE:
            return (Save,)
        if self.phase == AUCTION:
            return (Bid, Pass)
        if self.phase == CHOOSE:
            ps = self.state[self.current]
            if ps.letter_space is None and ps.pearl is None:
                return (TakeLetter, TakePearl)
            return (PlaceBoat,)
        return ()

    # ------------------------------------------------------------------ validation

    def _validate(self, action: Action) -> None:
        if self.finished:
            raise IllegalAction(T("the game is over"), rule="game_over")
        expected = self.players[self.current]
        player = getattr(action, "player", None)
        if player is not None and player not in self.players:
            raise IllegalAction(T("{player} does not play in this game ({players})", player=repr(player),
                                  players=", ".join(self.players)), rule="unknown_player")
        if player is not None and player != expected:
            raise IllegalAction(T("waiting for {what}, not {player}", what=self.waiting_for(), player=player),
                                rule="not_your_turn")
        if not isinstance(action, self._expected()):
            raise IllegalAction(T("{action} is not possible now: waiting for {what}", action=action.type,
                                  what=self.waiting_for()), rule=self._wrong_phase_rule())
        getattr(self, f"_check_{action.type}")(action, expected, self.state[self.current])

    def _check_place_sailboat(self, action: PlaceSailboat, who: str, ps: PlayerState) -> None:
        if not 0 <= action.space < TRACK_LENGTH:
            raise IllegalAction(T("space must be a track space 0-{last}, got {space}", last=TRACK_LENGTH - 1,
                                  space=repr(action.space)), rule="space")

    def _check_start_pearl(self, action: StartPearl, who: str, ps: PlayerState) -> None:
        self._known_colour(action.pearl)
        for name, other in zip(self.players, self.state):
            if other.pearl == action.pearl:
                raise IllegalAction(T("{player} already took {pearl}: two players cannot start with the same "
                                      "colour", player=name, pearl=a_pearl(action.pearl)), rule="pearl_taken")

    def _check_roll(self, action: Roll, who: str, ps: PlayerState) -> None:
        if action.face not in DIE_FACES or isinstance(action.face, bool):
            raise IllegalAction(T("the die shows 1, 2, 3, 4 or \"blank\", got {face}", face=repr(action.face)),
                                rule="die_face")

    def _check_save(self, action: Save, who: str, ps: PlayerState) -> None:
        if not 0 <= action.amount <= MAX_SAVING:
            raise IllegalAction(T("a saving is 0 to {most} $, got {amount}", most=MAX_SAVING, amount=action.amount),
                                rule="save_range")
        if action.amount > ps.cash:
            raise IllegalAction(T("{player} has only {cash} $ in cash, cannot save {amount} $", player=who,
                                  cash=ps.cash, amount=action.amount), rule="save_above_cash")

    def _check_bid(self, action: Bid, who: str, ps: PlayerState) -> None:
        if self.high_bidder is None and action.amount < 0:
            raise IllegalAction(T("a bid is at least 0 $, got {amount}", amount=action.amount), rule="bid_too_low")
        if self.high_bidder is not None and action.amount <= self.high_bid:  # type: ignore[operator]
            raise IllegalAction(T("the bid is {amount} $ ({bidder}): bid more than that or pass",
                                  amount=self.high_bid, bidder=self.players[self.high_bidder]), rule="bid_too_low")
        if action.amount > ps.cash:
            raise IllegalAction(T("{player} has only {cash} $ in cash, cannot bid {amount} $", player=who,
                                  cash=ps.cash, amount=action.amount), rule="bid_above_cash")

    def _check_pass(self, action: Pass, who: str, ps: PlayerState) -> None:
        """Passing is always allowed in an auction."""

    def _check_take_letter(self, action: TakeLetter, who: str, ps: PlayerState) -> None:
        if ps.boats == 0:
            raise IllegalAction(T("{player} has no boat left", player=who), rule="no_boats")

    def _check_take_pearl(self, action: TakePearl, who: str, ps: PlayerState) -> None:
        if ps.boats == 0:
            raise IllegalAction(T("{player} has no boat left", player=who), rule="no_boats")
        self._pearl_taken(action.pearl)

    def _check_place_boat(self, action: PlaceBoat, who: str, ps: PlayerState) -> None:
        self._check_cell(action.cell, self._placing_letter())
        if ps.letter_space is not None:
            self._pearl_taken(action.pearl)
        elif action.pearl is not None and action.pearl != ps.pearl:
            raise IllegalAction(T("{player} places {pearl} in front of them, not {other}", player=who,
                                  pearl=the_pearl(ps.pearl), other=colour_word(action.pearl)), rule="pearl_held")

    def _wrong_phase_rule(self) -> str:
        if self.phase == CHOOSE:
            ps = self.state[self.current]
            if ps.letter_space is not None:
                return "must_take_pearl"
            if ps.pearl is not None:
                return "must_take_letter"
            return "must_choose"
        return "wrong_phase"

    def _known_colour(self, pearl: Any) -> str:
        if pearl not in PEARLS:
            raise IllegalAction(T("pearl colours are {colours}, got {pearl}", colours=", ".join(PEARLS),
                                  pearl=repr(pearl)), rule="unknown_colour")
        return pearl

    def _pearl_taken(self, chosen: str | None) -> str:
        """The colour a player takes on the current space, given their (optional) choice."""
        ps = self.state[self.current]
        colour = self.board.track[ps.space].pearl  # type: ignore[index]
        if self.supply[colour] > 0:
            if chosen is not None and chosen != colour:
                self._known_colour(chosen)
                raise IllegalAction(T("{pearls} are still in supply: take {colour}, not {chosen} (a substitute "
                                      "colour is only for a colour that has run out)", pearls=the_pearls(colour),
                                      colour=colour_word(colour), chosen=colour_word(chosen)),
                                    rule="colour_in_supply")
            return colour
        if chosen is None:
            raise IllegalAction(T("{pearls} have run out: name the colour taken instead (field 'pearl')",
                                  pearls=the_pearls(colour)), rule="substitute_required")
        self._known_colour(chosen)
        if self.supply[chosen] == 0:
            raise IllegalAction(T("{pearls} have run out too: choose a colour still in supply",
                                  pearls=the_pearls(chosen)), rule="colour_exhausted")
        return chosen

    def _placing_letter(self) -> str:
        ps = self.state[self.current]
        space = ps.letter_space if ps.letter_space is not None else ps.space
        return self.board.track[space].letter  # type: ignore[index]

    def _check_cell(self, name: str, letter: str) -> Cell:
        cell = parse_cell(name)
        if cell is None:
            raise IllegalAction(T("cell must be a row letter then a column letter (A-F, M for the middle line), "
                                  "like \"BE\"; got {cell}", cell=repr(name)), rule="cell")
        if cell == TAHITI:
            raise IllegalAction(T("MM is the island of Tahiti: no boat can sit there"), rule="tahiti")
        if cell not in SECTORS[letter]:
            raise IllegalAction(T("{cell} is outside sector {letter} (row {letter} and column {letter})",
                                  cell=cell_name(cell), letter=letter), rule="outside_sector")
        if cell in self.map:
            raise IllegalAction(T("{cell} already holds {owner}'s boat", cell=cell_name(cell),
                                  owner=self.map[cell].owner), rule="cell_taken")
        return cell

    # ------------------------------------------------------------------ applying

    def _apply(self, action: Action) -> None:
        if not self._turn_open:
            self.turn += 1
            self._turn_open = True
        self.note = None
        ps = self.state[self.current]
        who = self.players[self.current]
        if isinstance(action, PlaceSailboat):
            ps.space = action.space
            self._setup_next(START_PEARLS)
        elif isinstance(action, StartPearl):
            ps.pearl = action.pearl
            ps.boats -= 1
            self.supply[action.pearl] -= 1
            self._setup_next(ROLL)
        elif isinstance(action, Roll):
            self._roll(action.face)
        elif isinstance(action, Save):
            ps.cash -= action.amount
            ps.vault += action.amount
            self.savers.pop(0)
            if self.savers:
                self.current = self.savers[0]
            else:
                self._flip_disc()
                self.phase = ROLL
                self.current = self.roller
        elif isinstance(action, Bid):
            self.high_bid, self.high_bidder = action.amount, self.current
            self._next_bidder()
        elif isinstance(action, Pass):
            self.passed.append(self.current)
            self._next_bidder()
        elif isinstance(action, TakeLetter):
            ps.boats -= 1
            ps.letter_space = ps.space
            self._end_turn()
        elif isinstance(action, TakePearl):
            colour = self._pearl_taken(action.pearl)
            ps.boats -= 1
            ps.pearl = colour
            self._take_from_supply(colour)
            self._end_turn()
        elif isinstance(action, PlaceBoat):
            cell = parse_cell(action.cell)
            assert cell is not None
            if ps.letter_space is not None:
                colour = self._pearl_taken(action.pearl)
                ps.letter_space = None
                self.map[cell] = MapBoat(who, colour)
                self._take_from_supply(colour)
            else:
                self.map[cell] = MapBoat(who, ps.pearl)  # type: ignore[arg-type]
                ps.pearl = None
            self._end_turn()

    def _setup_next(self, following: str) -> None:
        self._turn_open = False
        if self.current + 1 < len(self.players):
            self.current += 1
            return
        self.phase = following
        self.current = self.roller = 0

    def _roll(self, face: int | str) -> None:
        if face == "blank":
            if self.event_done:
                self.note = T("blank face after an event: ignored, roll again")
                return
            self.event_done = True
            if self.disc == DISC_PAY:
                paid = []
                for i, ps in enumerate(self.state):
                    boats = self.boats_on_map(i)
                    ps.cash += boats
                    paid.append(f"{self.players[i]} +{boats} $")
                self.note = T("pay day: {paid}", paid=", ".join(paid))
                self._flip_disc()
            else:
                n = len(self.players)
                self.savers = [(self.roller + k) % n for k in range(n)]
                self.phase = SAVE
                self.current = self.savers[0]
                self.note = T("treasure: every player saves 0-{most} $ into their vault", most=MAX_SAVING)
            return
        self.die = int(face)
        self.phase = AUCTION
        self.high_bid = self.high_bidder = None
        self.passed = []
        self.current = self.roller

    def _flip_disc(self) -> None:
        self.disc = DISC_TREASURE if self.disc == DISC_PAY else DISC_PAY

    def _next_bidder(self) -> None:
        n = len(self.players)
        active = [i for i in range(n) if i not in self.passed]
        if not active:
            self.note = T("nobody bid for the {die}: nobody moves", die=self.die)
            self._end_turn()
            return
        if active == [self.high_bidder]:
            self._win_auction()
            return
        nxt = (self.current + 1) % n
        while nxt in self.passed:
            nxt = (nxt + 1) % n
        self.current = nxt

    def _win_auction(self) -> None:
        winner = self.high_bidder
        assert winner is not None and self.high_bid is not None and self.die is not None
        ps = self.state[winner]
        paid = self.passed[0]
        ps.cash -= self.high_bid
        self.state[paid].cash += self.high_bid
        ps.space = (ps.space + self.die) % TRACK_LENGTH  # type: ignore[operator]
        self.winner = winner
        self.current = winner
        self.phase = CHOOSE
        who = self.players[winner]
        reason = self._nothing_to_do(winner)
        moved = T("{player} pays {amount} $ to {paid} and sails {die} to {space}", player=who,
                  amount=self.high_bid, paid=self.players[paid], die=self.die, space=self._space_name(ps.space))
        if reason:
            self.note = T("{moved}; {reason}: nothing changes", moved=moved, reason=reason)
            self._end_turn()
        else:
            self.note = moved

    def _nothing_to_do(self, player: int) -> Text | None:
        """Why the auction winner can do nothing on the space reached (``None`` when they can)."""
        ps = self.state[player]
        if ps.letter_space is None and ps.pearl is None:
            return T("no boat left") if ps.boats == 0 else None
        letter = self._placing_letter()
        if all(cell in self.map for cell in SECTORS[letter]):
            return T("sector {letter} is full", letter=letter)
        return None

    def _take_from_supply(self, colour: str) -> None:
        self.supply[colour] -= 1
        if self.supply[colour] == 0:
            self.exhausted.append(colour)
            log.info("tahiti: the %s pearls have run out", colour)

    def _end_turn(self) -> None:
        self._turn_open = False
        if len(self.exhausted) >= 2:
            ends = T("{pearls} have run out, the second colour: the game ends",
                     pearls=the_pearls(self.exhausted[1]))
            self.note = T("{ends} ({note})", ends=ends, note=self.note) if self.note else ends
            self.finish()
            return
        n = len(self.players)
        self.roller = (self.roller + 1) % n
        self.current = self.roller
        self.phase = ROLL
        self.event_done = False
        self.die = None
        self.high_bid = self.high_bidder = None
        self.passed = []
        self.winner = None

    # ------------------------------------------------------------------ the end

    def finish(self) -> list[scoring.ScoreEvent]:
        """End the game: vaults and pearl banks are awarded (kind "final"). Idempotent."""
        if self.finished:
            return []
        before = len(self.score_log)
        banks = scoring.find_banks(self.map, self.players)
        vaults = {p: ps.vault for p, ps in zip(self.players, self.state)}
        events, self.final_lines = scoring.explain(banks, vaults, self.players)
        for ev in events:
            self.award(ev.player, ev.points, ev.reason, kind="final")
        self.finished = True
        self.phase = OVER
        return self.score_log[before:]

    @classmethod
    def score_position(cls, data: Mapping[str, Any], source: str = "<position>") -> PositionResult:
        """Score a position read off the table (boats with owner and pearl per cell, plus vaults);
        format in docs/tahiti.md. Raises :class:`scoring.PositionError` on bad input."""
        return scoring.score_position(data, source)

    # ------------------------------------------------------------------ views

    def legal_actions(self) -> Iterable[Action]:
        """Every legal action now (bids: every amount from the minimum to the bidder's cash)."""
        if self.finished:
            return []
        who = self.players[self.current]
        ps = self.state[self.current]
        if self.phase == SAILBOATS:
            return [PlaceSailboat(s, who) for s in range(TRACK_LENGTH)]
        if self.phase == START_PEARLS:
            taken = {p.pearl for p in self.state}
            return [StartPearl(c, who) for c in PEARLS if c not in taken]
        if self.phase == ROLL:
            return [Roll(f, who) for f in DIE_FACES]
        if self.phase == SAVE:
            return [Save(a, who) for a in range(min(MAX_SAVING, ps.cash) + 1)]
        if self.phase == AUCTION:
            low = 0 if self.high_bid is None else self.high_bid + 1
            return [Pass(who)] + [Bid(a, who) for a in range(low, ps.cash + 1)]
        if self.phase == CHOOSE:
            colours = self._colour_options()
            if ps.letter_space is None and ps.pearl is None:
                return [TakeLetter(who)] + [TakePearl(c, who) for c in colours]
            free = [cell_name(c) for c in SECTORS[self._placing_letter()] if c not in self.map]
            if ps.pearl is not None:
                return [PlaceBoat(c, None, who) for c in free]
            return [PlaceBoat(c, colour, who) for c in free for colour in colours]
        return []

    def hints(self, piece: str | None = None) -> dict[str, Any]:
        """The map cells the current player's boat may take now (its letter's sector, free), from the
        ``place_boat`` moves of :meth:`legal_actions` that :meth:`validate` accepts; none before the
        boat is to be placed."""
        if self.finished or self.phase != CHOOSE or PlaceBoat not in self._expected():
            return no_hints("tahiti", T("no boat to place: waiting for {what}", what=self.waiting_for()))
        by_cell: dict[str, list[Action]] = {}
        for a in confirmed(self, (a for a in self.legal_actions() if isinstance(a, PlaceBoat))):
            by_cell.setdefault(a.cell, []).append(a)  # type: ignore[attr-defined]
        places = []
        for name, actions in by_cell.items():
            cell = parse_cell(name)
            assert cell is not None
            places.append({"cell": name, "row": cell[0], "col": cell[1], "actions": [a.to_dict() for a in actions]})
        letter = self._placing_letter()
        note = None if places else T("sector {letter} is full: no cell left for a boat", letter=letter)
        return {"kind": "tahiti", "piece": None, "sector": letter, "player": self.players[self.current],
                "places": places, "note": note}

    def _colour_options(self) -> list[str | None]:
        colour = self.board.track[self.state[self.current].space].pearl  # type: ignore[index]
        if self.supply[colour] > 0:
            return [None]
        return [c for c in PEARLS if self.supply[c] > 0]

    def resources(self) -> dict[str, Any]:
        players = {}
        for i, (name, ps) in enumerate(zip(self.players, self.state)):
            players[name] = {
                "cash": ps.cash,
                "vault": ps.vault,
                "boats_left": ps.boats,
                "boats_on_map": self.boats_on_map(i),
                "pearl": ps.pearl,
                "letter": None if ps.letter_space is None else self.board.track[ps.letter_space].letter,
                "letter_space": ps.letter_space,
                "sailboat": ps.space,
            }
        table = {
            "pearls_left": dict(self.supply),
            "exhausted": list(self.exhausted),
            "disc": self.disc,
            "phase": self.phase,
            "die": self.die,
            "auction": None if self.phase != AUCTION else {
                "move": self.die,
                "bid": self.high_bid,
                "bidder": None if self.high_bidder is None else self.players[self.high_bidder],
                "passed": [self.players[i] for i in self.passed],
            },
            "waiting_for": self.waiting_for(),
            "note": self.note,
            "board": self.board.name,
        }
        return {"players": players, "table": table}

    def describe(self, action: Mapping[str, Any]) -> Text | None:
        """Cells by their printed row and column letters and where they lie from Tahiti, track
        spaces by letter and pearl (tahiti/words.py)."""
        return describe_in_words(self.board, action)

    def view(self) -> dict[str, Any]:
        """``{"kind": "tahiti", ...}``: the map cells (with boats), the track (with sailboats and
        letter boats), the disc, pearls left and what each player holds in front of them."""
        cells = []
        for cell in all_cells():
            boat = self.map.get(cell)
            cells.append({
                "cell": cell_name(cell), "row": cell[0], "col": cell[1],
                "tahiti": cell == TAHITI, "sectors": list(sectors_of(cell)),
                "boat": None if boat is None else {"owner": boat.owner, "pearl": boat.pearl},
            })
        track = []
        for i, space in enumerate(self.board.track):
            track.append({
                "space": i, "letter": space.letter, "pearl": space.pearl,
                "sailboats": [p for p, ps in zip(self.players, self.state) if ps.space == i],
                "letter_boats": [p for p, ps in zip(self.players, self.state) if ps.letter_space == i],
            })
        return {
            "kind": "tahiti",
            "size": SIZE,
            "rows": list(LINES),
            "columns": list(LINES),
            "cells": cells,
            "track": track,
            "fronts": {p: ps.pearl for p, ps in zip(self.players, self.state)},
            "disc": self.disc,
            "pearls_left": dict(self.supply),
            "current": None if self.finished else self.players[self.current],
            "waiting_for": self.waiting_for(),
            "note": self.note,
            "provisional": self.provisional,
            "final": list(self.final_lines),
        }
