"""The Karibik rules engine (Antonow & Schliemann, Winning Moves 2004), 2 to 4 players.

Rule book: ``../shared/seeds/002_43ccf1c1c5a9f19a.txt``; what it leaves open is decided in
``../shared/RULINGS.md`` ("Karibik"). The board (spaces, adjacency, towns, hideouts, skulls) is
data (:mod:`.board`); the action vocabulary is :mod:`.actions`; docs/karibik.md explains both.

A game goes: ``deal`` (the 6 chests turned face up), ``place_ships`` (the six skull spaces, in
ship order). Then rounds: for each ship in order Arriba, Bravo, Caribic, Diabolo, Evita, Fuego,
every player's ``card`` on it; if the best bid is tied, each tied player still holding their
7th card answers ``seventh`` (revealed or kept hidden); the winner then moves the ship with
``sail`` (paths of spaces entered) and chest actions (``attack``, ``steal``, ``swap``,
``transfer``, ``safeguard``) in any order, and ``end_move``. A ship nobody wins does not move.
After Fuego the round ends: the game ends if a player reached the threshold (or no chest is left
in play); otherwise the next pile is turned up (``reveal_pile``) while piles remain.

Money is public: every doubloon is a score event with its sentence ("Bravo raided Port Royal").
"""
from __future__ import annotations

from itertools import combinations, permutations
from typing import Any, Iterable, Iterator, Mapping

from ...i18n import T, Tc, Text, Tn, join
from ..base import Action, Game, IllegalAction, OptionSpec, Setup, SetupError, no_hints
from .actions import (ACTIONS, Attack, Card, Deal, EndMove, PlaceShips, RevealPile, Safeguard, Sail, Seventh, Steal,
                      Swap, Transfer)
from .board import Board, colour_word, load_board
from .camera import KaribikBoardMoves
from .sentences import SENTENCES as _SENTENCES

SHIPS = ("Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego")
CARDS = (-1, 0, 1, 2, 3, 4, 5)
THIEF = -1
RAID_BONUS = 2000
THRESHOLDS = {2: 62000, 3: 41000, 4: 31000}
FACE_UP_AT_START = 6
PILE_SIZE = 2

# phases
DEAL = "deal"
SHIPS_PHASE = "place_ships"
BIDS = "cards"
SEVENTH = "seventh"
MOVE = "move"
PILE = "reveal_pile"
OVER = "over"

_MOVE_ACTIONS = (Sail, Attack, Steal, Swap, Transfer, Safeguard, EndMove)


def money(n: int) -> Text:
    """``7000`` -> ``"7,000"``, grouped as the reader's language writes it (``7 000``, ``7.000``)."""
    if abs(n) < 1000:
        return T("{units}", units=str(n))
    return T("{thousands},{units}", thousands=money(int(n / 1000)), units=format(abs(n) % 1000, "03d"))


class Karibik(Game):
    """Karibik for 2-4 players; see the module docstring and docs/karibik.md."""

    name = "karibik"
    title = "Karibik"
    min_players = 2
    max_players = 4
    ACTIONS = ACTIONS
    OPTIONS = (
        OptionSpec("board", None,
                   "the board: a path to a board JSON file (or the board object); "
                   "default: the packaged provisional board (invented map, real counts)"),
        OptionSpec("port_swap", True,
                   "a ship may swap its chest with a port's face-up chest (no bonus); the German rules are "
                   "silent, the French translation allows it after R. Dewsbery (RULINGS.md)", kind=bool),
        OptionSpec("goal", None,
                   "doubloons that end the game when a round is over (a shorter or longer game); "
                   "default: the rule book's 62,000 / 41,000 / 31,000 for 2 / 3 / 4 players"),
    )
    SENTENCES = _SENTENCES  # scenario sentences of this game (tablehub.scenario)
    board_moves = KaribikBoardMoves()  # what the camera's view of the board means (tablehub.tracking.boardmoves)
    provisional = T("Karibik: the board (spaces, adjacency, towns, chest values, hideouts) is provisional: "
                    "an invented map with the real counts (the real board's graph is not public)")

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self.board: Board = load_board(self.options["board"])
        if not self.board.provisional:
            self.provisional = None
        colours = tuple(setup.colors) if setup.colors else self.board.colours[:len(self.players)]
        for c in colours:
            if c not in self.board.colours:
                raise SetupError(T("karibik: colour {colour} has no hideouts on this board (expected one of "
                                   "{colours})", colour=repr(c), colours=", ".join(self.board.colours)))
        self.colours: dict[str, str] = dict(zip(self.players, colours))
        owner_of = {c: p for p, c in self.colours.items()}
        #: hideout space -> owning player (None: neutral, its colour is not playing)
        self.owners: dict[int, str | None] = {s: owner_of.get(c) for s, c in self.board.hideouts.items()}
        goal = self.options["goal"]
        if goal is not None and (isinstance(goal, bool) or not isinstance(goal, int) or goal <= 0):
            raise SetupError(T("karibik: option 'goal' must be a whole number of doubloons above 0, got {value}",
                               value=repr(goal)))
        self.threshold = THRESHOLDS[len(self.players)] if goal is None else goal
        self.phase = DEAL
        self.round = 0
        self.ship_at: dict[str, int] = {}
        self.occupant: dict[int, str] = {}
        self.hold: dict[str, str | None] = {s: None for s in SHIPS}
        self.face_up: dict[str, list[str]] = {t.name: [] for t in self.board.towns}  # town -> chests lying there
        self.dealt: list[str] = []  # chests turned up so far (deal, piles)
        self.secured: list[str] = []  # chests safeguarded: face down on their towns, out of play
        self.piles_left = (len(self.board.towns) - FACE_UP_AT_START) // PILE_SIZE
        self.ship_index = 0
        self.cards: dict[str, int] = {}  # the cards revealed on the current ship
        self.used: dict[str, list[int]] = {p: [] for p in self.players}  # cards shown this round (7th included)
        self.seventh_shown: dict[str, int | None] = {p: None for p in self.players}
        self.tied: list[str] = []
        self.answers: dict[str, int | None] = {}
        self.mover: str | None = None
        self.bid = 0
        self.allowance = 0
        self.steps = 0
        self.because = ""  # why the allowance is what it is
        self.path: list[int] = []  # the spaces entered this move (the page draws it)
        self.move_start = 0  # where the moving ship began its move
        self.last_path: tuple[str, list[int]] | None = None
        self.note: str | None = None
        self.final_lines: list[str] = []
        self._turn_open = False

    # ------------------------------------------------------------------ helpers

    @property
    def ship(self) -> str:
        """The ship being resolved."""
        return SHIPS[self.ship_index]

    def doubloons(self, player: str) -> int:
        return self.scores()[player]

    def chest_value(self, chest: str) -> int:
        town = self.board.town(chest)
        assert town is not None
        return town.chest

    def _value(self, ship: str) -> int | None:
        chest = self.hold[ship]
        return None if chest is None else self.chest_value(chest)

    def chest_words(self, chest: str) -> Text:
        return T("the {value} chest of {town}", value=money(self.chest_value(chest)), town=chest)

    def waiting_for(self) -> Text:
        """What the engine waits for, as a sentence."""
        if self.finished:
            return T("the game is over")
        if self.phase == DEAL:
            return T("the 6 chests turned face up (deal)")
        if self.phase == SHIPS_PHASE:
            return T("the six ships' skull spaces (place_ships)")
        if self.phase == BIDS:
            missing = [p for p in self.players if p not in self.cards]
            return T("the cards on {ship} from {players}", ship=self.ship, players=", ".join(missing))
        if self.phase == SEVENTH:
            missing = [p for p in self.tied if p not in self.answers]
            return T("{players} to reveal or keep their 7th card (tie on {ship})", players=", ".join(missing),
                     ship=self.ship)
        if self.phase == MOVE:
            left = self.allowance - self.steps
            return T("{player} to move {ship} ({left} of {allowance} spaces left) and end the move",
                     player=self.mover, ship=self.ship, left=left, allowance=self.allowance)
        if self.phase == PILE:
            return T("the next pile of {count} chests turned face up (reveal_pile)", count=PILE_SIZE)
        return T("nothing")

    def _available(self, player: str) -> list[int]:
        """The cards ``player`` may still show this round."""
        return [c for c in CARDS if c not in self.used[player]]

    def _in_play(self) -> int:
        """Chests still to be won: face up on towns, in holds, in the piles."""
        return (sum(len(v) for v in self.face_up.values()) + sum(1 for c in self.hold.values() if c)
                + self.piles_left * PILE_SIZE)

    # ------------------------------------------------------------------ validation

    def _validate(self, action: Action) -> None:
        if self.finished:
            raise IllegalAction(T("the game is over"), rule="game_over")
        player = getattr(action, "player", None)
        if player is not None and player not in self.players:
            raise IllegalAction(T("{player} does not play in this game ({players})", player=repr(player),
                                  players=", ".join(self.players)), rule="unknown_player")
        expected = {DEAL: (Deal,), SHIPS_PHASE: (PlaceShips,), BIDS: (Card,), SEVENTH: (Seventh,),
                    MOVE: _MOVE_ACTIONS, PILE: (RevealPile,)}.get(self.phase, ())
        if not isinstance(action, expected):
            raise IllegalAction(T("{action} is not possible now: waiting for {waiting}", action=action.type,
                                  waiting=self.waiting_for()), rule="wrong_phase")
        if self.phase == MOVE and player is not None and player != self.mover:
            raise IllegalAction(T("{mover} won the bid for {ship} and moves it, not {player}", mover=self.mover,
                                  ship=self.ship, player=player), rule="not_your_ship")
        getattr(self, f"_check_{action.type}")(action)

    def _check_towns(self, towns: tuple[str, ...], n: int, what: str) -> None:
        if len(towns) != n:
            raise IllegalAction(T("{action}: name {count} chests by their towns, got {got}", action=what, count=n,
                                  got=len(towns)), rule="chest_count")
        for t in towns:
            if self.board.town(t) is None:
                raise IllegalAction(T("{action}: no town {town} on this board", action=what, town=repr(t)),
                                    rule="unknown_town")
            if t in self.dealt:
                raise IllegalAction(T("{action}: the chest of {town} is already out of the piles", action=what,
                                      town=t), rule="chest_dealt")
        if len(set(towns)) != len(towns):
            raise IllegalAction(T("{action}: a chest is named twice", action=what), rule="chest_dealt")

    def _check_deal(self, action: Deal) -> None:
        self._check_towns(action.towns, FACE_UP_AT_START, "deal")

    def _check_reveal_pile(self, action: RevealPile) -> None:
        self._check_towns(action.towns, PILE_SIZE, "reveal_pile")

    def _check_place_ships(self, action: PlaceShips) -> None:
        if len(action.spaces) != len(SHIPS):
            raise IllegalAction(T("place_ships: give the start spaces of the {count} ships ({ships}), got {got}",
                                  count=len(SHIPS), ships=", ".join(SHIPS), got=len(action.spaces)), rule="ship_count")
        for ship, s in zip(SHIPS, action.spaces):
            if s not in self.board.skulls:
                raise IllegalAction(T("{ship} must start on a skull space ({skulls}), not {space}", ship=ship,
                                      skulls=", ".join(map(str, self.board.skulls)), space=s), rule="not_a_skull")
        if len(set(action.spaces)) != len(SHIPS):
            raise IllegalAction(T("place_ships: one ship per skull space"), rule="occupied")

    def _check_card(self, action: Card) -> None:
        p = action.player
        if action.ship is not None and action.ship != self.ship:
            raise IllegalAction(T("the cards on {ship} are being revealed, not on {other}", ship=self.ship,
                                  other=action.ship), rule="wrong_ship")
        if p in self.cards:
            raise IllegalAction(T("{player} already showed {card} on {ship}", player=p, card=self.cards[p],
                                  ship=self.ship), rule="card_given")
        if action.card not in CARDS:
            raise IllegalAction(T("a card is 0 to 5 barrels or -1 (the thief), got {card}", card=action.card),
                                rule="card_value")
        if action.card in self.used[p]:
            raise IllegalAction(T("{player} already showed their {card} card this round", player=p,
                                  card=action.card), rule="card_used")

    def _check_seventh(self, action: Seventh) -> None:
        p = action.player
        if p not in self.tied:
            raise IllegalAction(T("only {players} tied for {ship} and may show a 7th card",
                                  players=", ".join(self.tied), ship=self.ship), rule="not_tied")
        if self.seventh_shown[p] is not None:
            raise IllegalAction(T("{player} revealed their 7th card ({card}) earlier this round: it is out until "
                                  "the round ends", player=p, card=self.seventh_shown[p]), rule="seventh_out")
        if p in self.answers:
            raise IllegalAction(T("{player} already answered for their 7th card", player=p), rule="card_given")
        if action.card is not None:
            if action.card not in CARDS:
                raise IllegalAction(T("a card is 0 to 5 barrels or -1 (the thief), got {card}", card=action.card),
                                    rule="card_value")
            if action.card in self.used[p]:
                raise IllegalAction(T("{player} already showed their {card} card this round: it cannot be their "
                                      "7th", player=p, card=action.card), rule="card_used")

    def _ship_here(self, ship: str) -> str:
        """``ship`` must be another ship on a space adjacent to the moving one."""
        if ship not in SHIPS:
            raise IllegalAction(T("no ship {ship} (the ships are {ships})", ship=repr(ship), ships=", ".join(SHIPS)),
                                rule="unknown_ship")
        if ship == self.ship:
            raise IllegalAction(T("{ship} is the moving ship itself", ship=ship), rule="same_ship")
        here, there = self.ship_at[self.ship], self.ship_at[ship]
        if not self.board.adjacent(here, there):
            raise IllegalAction(T("{ship} on space {there} is not adjacent to {moving} on space {here}", ship=ship,
                                  there=there, moving=self.ship, here=here), rule="not_adjacent")
        return ship

    def _check_sail(self, action: Sail) -> None:
        if not action.path:
            raise IllegalAction(T("sail: the path is empty (give the spaces entered, in order)"), rule="empty_path")
        left = self.allowance - self.steps
        if len(action.path) > left:
            if self.steps:
                why = Tn("{ship} may move {n} space: {because}; it has sailed {sailed} already; this path enters "
                         "{entered}", "{ship} may move {n} spaces: {because}; it has sailed {sailed} already; this "
                         "path enters {entered}", self.allowance, ship=self.ship, because=self.because,
                         sailed=self.steps, entered=len(action.path))
            else:
                why = Tn("{ship} may move {n} space: {because}; this path enters {entered}",
                         "{ship} may move {n} spaces: {because}; this path enters {entered}", self.allowance,
                         ship=self.ship, because=self.because, entered=len(action.path))
            raise IllegalAction(why, rule="too_far")
        at = self.ship_at[self.ship]
        for s in action.path:
            if s not in self.board.neighbours:
                raise IllegalAction(T("space {space} is not on the board", space=s), rule="unknown_space")
            if not self.board.adjacent(at, s):
                raise IllegalAction(T("space {space} is not adjacent to space {at}", space=s, at=at),
                                    rule="not_adjacent")
            other = self.occupant.get(s)
            if other is not None and other != self.ship:
                raise IllegalAction(T("space {space} is occupied by {ship}", space=s, ship=other), rule="occupied")
            at = s

    def _port_chests(self, chest: str | None, swap: bool = False) -> tuple[str, str]:
        """The town the ship is in port of and the face-up chest taken there (by a raid, or by a
        swap with the port)."""
        here = self.ship_at[self.ship]
        town = self.board.port_town(here)
        if town is None:
            where = self.board.space_name(here)
            raise IllegalAction(T("{ship} is on {space}, not in a port: cannot swap with a port", ship=self.ship,
                                  space=where) if swap else
                                T("{ship} is on {space}, not in a port: cannot attack", ship=self.ship, space=where),
                                rule="not_in_port")
        lying = self.face_up[town.name]
        if not lying:
            raise IllegalAction(T("no chest lies face up in {town}", town=town.name), rule="no_chest_in_port")
        if chest is None:
            if len(lying) > 1:
                raise IllegalAction(T("{count} chests lie face up in {town} ({chests}): name the one taken (field "
                                      "'chest')", count=len(lying), town=town.name, chests=", ".join(lying)),
                                    rule="which_chest")
            chest = lying[0]
        elif chest not in lying:
            raise IllegalAction(T("the chest of {chest} does not lie face up in {town}", chest=chest, town=town.name),
                                rule="no_chest_in_port")
        return town.name, chest

    def _check_attack(self, action: Attack) -> None:
        self._port_chests(action.chest)
        self._hold_free(self.ship)

    def _hold_free(self, ship: str) -> None:
        chest = self.hold[ship]
        if chest:
            raise IllegalAction(T("{ship} already carries {chest}: a ship carries one chest", ship=ship,
                                  chest=self.chest_words(chest)), rule="hold_full")

    def _check_steal(self, action: Steal) -> None:
        self._ship_here(action.ship)
        self._hold_free(self.ship)
        if not self.hold[action.ship]:
            raise IllegalAction(T("{ship} carries no chest", ship=action.ship), rule="hold_empty")

    def _check_swap(self, action: Swap) -> None:
        if not self.hold[self.ship]:
            raise IllegalAction(T("{ship} carries no chest to swap", ship=self.ship), rule="hold_empty")
        if action.ship is not None:
            self._ship_here(action.ship)
            if not self.hold[action.ship]:
                raise IllegalAction(T("{ship} carries no chest to swap", ship=action.ship), rule="hold_empty")
            if action.chest is not None:
                raise IllegalAction(T("swap with a ship: leave out 'chest'"), rule="which_chest")
            return
        if not self.options["port_swap"]:
            raise IllegalAction(T("swapping with a port is off in this game (option port_swap)"),
                                rule="port_swap_off")
        self._port_chests(action.chest, swap=True)

    def _check_transfer(self, action: Transfer) -> None:
        self._ship_here(action.ship)
        if not self.hold[self.ship]:
            raise IllegalAction(T("{ship} carries no chest to hand over", ship=self.ship), rule="hold_empty")
        self._hold_free(action.ship)
        if action.safeguard and self.ship_at[action.ship] not in self.board.hideouts:
            raise IllegalAction(T("{ship} is on space {space}, not on a hideout: the chest cannot be safeguarded "
                                  "there", ship=action.ship, space=self.ship_at[action.ship]), rule="not_on_hideout")

    def _check_safeguard(self, action: Safeguard) -> None:
        here = self.ship_at[self.ship]
        if here not in self.board.hideouts:
            raise IllegalAction(T("{ship} is on {space}, not on a hideout", ship=self.ship,
                                  space=self.board.space_name(here)), rule="not_on_hideout")
        if not self.hold[self.ship]:
            raise IllegalAction(T("{ship} carries no chest to safeguard", ship=self.ship), rule="hold_empty")

    def _check_end_move(self, action: EndMove) -> None:
        """Ending the move is always allowed (a ship need not use its whole allowance)."""

    # ------------------------------------------------------------------ applying

    def _apply(self, action: Action) -> None:
        if not self._turn_open:
            self.turn += 1
            self._turn_open = True
        self.note = None
        getattr(self, f"_do_{action.type}")(action)

    def _close_turn(self) -> None:
        self._turn_open = False

    def _do_deal(self, action: Deal) -> None:
        for t in action.towns:
            self.face_up[t].append(t)
            self.dealt.append(t)
        self.phase = SHIPS_PHASE
        self._close_turn()

    def _do_place_ships(self, action: PlaceShips) -> None:
        for ship, s in zip(SHIPS, action.spaces):
            self.ship_at[ship] = s
            self.occupant[s] = ship
        self._close_turn()
        self._new_round()

    def _do_reveal_pile(self, action: RevealPile) -> None:
        for t in action.towns:
            self.face_up[t].append(t)
            self.dealt.append(t)
        self.piles_left -= 1
        self.note = T("pile turned up: {chests}", chests=join([self.chest_words(t) for t in action.towns]))
        self._close_turn()
        self._new_round()

    def _new_round(self) -> None:
        self.round += 1
        self.used = {p: [] for p in self.players}
        self.seventh_shown = {p: None for p in self.players}
        self.ship_index = 0
        self._open_ship()

    def _open_ship(self) -> None:
        self.phase = BIDS
        self.cards = {}
        self.tied = []
        self.answers = {}
        self.mover = None
        self.path = []
        self.steps = self.allowance = self.bid = 0
        self.because = ""
        self.current = 0

    def _do_card(self, action: Card) -> None:
        self.cards[action.player] = action.card
        self.used[action.player].append(action.card)
        missing = [p for p in self.players if p not in self.cards]
        if missing:
            self.current = self.players.index(missing[0])
            return
        best = max(self.cards.values())
        if best == THIEF:
            self._no_move(T("{ship} does not move: every card on it is a thief", ship=self.ship))
            return
        self.bid = best
        top = [p for p in self.players if self.cards[p] == best]
        if len(top) == 1:
            self._win(top[0])
            return
        self.tied = top
        holding = [p for p in top if self.seventh_shown[p] is None]
        for p in top:
            if p not in holding:
                self.answers[p] = None  # their 7th card is out until the round ends
        if not holding:
            self._no_move(T("{ship} does not move: {players} tied with {card} and none of them holds a 7th card",
                            ship=self.ship, players=join(top), card=best))
            return
        self.phase = SEVENTH
        self.current = self.players.index(holding[0])

    def _do_seventh(self, action: Seventh) -> None:
        p = action.player
        self.answers[p] = action.card
        if action.card is not None:
            self.seventh_shown[p] = action.card
            self.used[p].append(action.card)
        missing = [q for q in self.tied if q not in self.answers]
        if missing:
            self.current = self.players.index(missing[0])
            return
        shown = {q: c for q, c in self.answers.items() if c is not None}
        tied = join(self.tied)
        if not shown:
            self._no_move(T("{ship} does not move: {players} tied with {card} and nobody revealed a 7th card",
                            ship=self.ship, players=tied, card=self.bid))
            return
        best = max(shown.values())
        top = [q for q, c in shown.items() if c == best]
        if len(top) > 1:
            self._no_move(T("{ship} does not move: {players} tied with {card}, and {revealers} revealed {seventh} as "
                            "their 7th card", ship=self.ship, players=tied, card=self.bid, revealers=join(top),
                            seventh=best))
            return
        self._win(top[0], T("{players} tied with {card}; {player}'s 7th card {seventh} broke the tie", players=tied,
                            card=self.bid, player=top[0], seventh=best))

    def _win(self, player: str, tie: Text | None = None) -> None:
        thieves = [q for q in self.players if q != player and self.cards[q] == THIEF]
        self.mover = player
        self.allowance = max(0, self.bid - len(thieves))
        because = T("{player} bid {card}", player=player, card=self.bid)
        for q in thieves:
            because = T("{first}, {next}", first=because, next=T("{player} played a thief", player=q))
        self.because = because if tie is None else T("{why} ({tie})", why=because, tie=tie)
        self.steps = 0
        self.path = []
        self.move_start = self.ship_at[self.ship]
        self.phase = MOVE
        self.current = self.players.index(player)
        self.note = Tn("{ship} may move {n} space: {because}", "{ship} may move {n} spaces: {because}",
                       self.allowance, ship=self.ship, because=self.because)

    def _no_move(self, why: Text) -> None:
        self.note = why
        self._next_ship()

    def _next_ship(self) -> None:
        self._close_turn()
        if self.ship_index + 1 < len(SHIPS):
            self.ship_index += 1
            self._open_ship()
            return
        self._end_round()

    def _end_round(self) -> None:
        scores = self.scores()
        rich = [p for p in self.players if scores[p] >= self.threshold]
        if rich:
            self.note = T("round {round} is over and {players} reached {money} doubloons: the game ends",
                          round=self.round, players=join(rich), money=money(self.threshold))
            self.finish()
            return
        if self._in_play() == 0:
            self.note = T("round {round} is over and no chest is left in play: the game ends", round=self.round)
            self.finish()
            return
        self.mover = None
        if self.piles_left > 0:
            self.phase = PILE
            self.current = 0
        else:
            self._new_round()

    # ---- the move

    def _do_sail(self, action: Sail) -> None:
        ship = self.ship
        del self.occupant[self.ship_at[ship]]
        self.ship_at[ship] = action.path[-1]
        self.occupant[action.path[-1]] = ship
        self.steps += len(action.path)
        self.path.extend(action.path)
        self.last_path = (ship, [self.move_start] + list(self.path))

    def _pay(self, player: str | None, amount: int, reason: Text) -> None:
        if player is not None:
            self.award(player, amount, reason)

    def _do_attack(self, action: Attack) -> None:
        town, chest = self._port_chests(action.chest)
        self.face_up[town].remove(chest)
        self.hold[self.ship] = chest
        why = (T("{ship} raided {town}", ship=self.ship, town=town) if chest == town else
               T("{ship} raided {town}, taking {chest}", ship=self.ship, town=town, chest=self.chest_words(chest)))
        self.award(self.mover, RAID_BONUS, why)  # type: ignore[arg-type]

    def _do_steal(self, action: Steal) -> None:
        chest = self.hold[action.ship]
        self.hold[self.ship], self.hold[action.ship] = chest, None
        self.note = T("{ship} stole {chest} from {other}", ship=self.ship,
                      chest=self.chest_words(chest), other=action.ship)  # type: ignore[arg-type]

    def _do_swap(self, action: Swap) -> None:
        mine = self.hold[self.ship]
        if action.ship is not None:
            self.hold[self.ship], self.hold[action.ship] = self.hold[action.ship], mine
            self.note = T("{ship} swapped chests with {other}", ship=self.ship, other=action.ship)
            return
        town, chest = self._port_chests(action.chest, swap=True)
        self.face_up[town].remove(chest)
        self.face_up[town].append(mine)  # type: ignore[arg-type]
        self.hold[self.ship] = chest
        gave = self.chest_words(mine)  # type: ignore[arg-type]
        self.note = T("{ship} swapped {gave} for {chest} in {town} (no bonus)", ship=self.ship, gave=gave,
                      chest=self.chest_words(chest), town=town)

    def _do_transfer(self, action: Transfer) -> None:
        chest = self.hold[self.ship]
        assert chest is not None
        self.hold[self.ship] = None
        if action.safeguard:
            self._secure(chest, self.ship_at[action.ship], T("{ship} handed {chest} to {other}, safeguarded",
                                                             ship=self.ship, chest=self.chest_words(chest),
                                                             other=action.ship))
            return
        self.hold[action.ship] = chest
        self.note = T("{ship} handed {chest} to {other}", ship=self.ship, chest=self.chest_words(chest),
                      other=action.ship)

    def _do_safeguard(self, action: Safeguard) -> None:
        chest = self.hold[self.ship]
        assert chest is not None
        self.hold[self.ship] = None
        self._secure(chest, self.ship_at[self.ship], T("{ship} safeguarded {chest}", ship=self.ship,
                                                       chest=self.chest_words(chest)))

    def _secure(self, chest: str, hideout: int, what: Text) -> None:
        owner = self.owners[hideout]
        self.secured.append(chest)
        by = "" if owner == self.mover else T(", moved by {player}", player=self.mover)
        if owner is None:
            colour = colour_word(self.board.hideouts[hideout])
            self.note = T("{what} in a neutral ({colour}) hideout on space {space}{by}: nobody is paid", what=what,
                          colour=colour, space=hideout, by=by)
            return
        self._pay(owner, self.chest_value(chest), T("{what} in {owner}'s hideout (space {space}){by}", what=what,
                                                    owner=owner, space=hideout, by=by))

    def _do_end_move(self, action: EndMove) -> None:
        self.note = T("{player} ended the move of {ship}", player=self.mover, ship=self.ship)
        self._next_ship()

    # ------------------------------------------------------------------ the end

    def finish(self) -> list:
        """End the game now (idempotent). Karibik has no final scoring: the doubloons won decide."""
        if self.finished:
            return []
        self.finished = True
        self.phase = OVER
        scores = self.scores()
        ranked = sorted(self.players, key=lambda p: -scores[p])
        self.final_lines = [T("{player}: {money} doubloons", player=p, money=money(scores[p])) for p in ranked]
        return []

    # ------------------------------------------------------------------ views

    def reachable(self) -> dict[int, int]:
        """The spaces the moving ship can still reach this move, with their distance (its own at 0):
        the ends of the sails :meth:`validate` accepts now (:meth:`sail_paths`)."""
        if self.phase != MOVE or self.finished:
            return {}
        return {space: len(path) for space, path in self.sail_paths().items()}

    def sail_paths(self) -> dict[int, tuple[int, ...]]:
        """A shortest sail the rules accept to every space the moving ship can reach with what is left
        of its allowance (its own space: the empty path). Found by widening accepted paths one space
        at a time, each extension put to :meth:`validate`: the hint and the check are one rule."""
        if self.phase != MOVE or self.finished:
            return {}
        here = self.ship_at[self.ship]
        paths: dict[int, tuple[int, ...]] = {here: ()}
        ring = [here]
        for _ in range(max(0, self.allowance - self.steps)):
            nxt = []
            for at in ring:
                for n in self.board.neighbours[at]:
                    if n in paths:
                        continue
                    path = paths[at] + (n,)
                    if self.validate(Sail(path, self.mover)) is None:
                        paths[n] = path
                        nxt.append(n)
            ring = nxt
        return paths

    def hints(self, piece: str | None = None) -> dict[str, Any]:
        """The spaces the ship being resolved may sail to with what is left of its allowance, each with
        its distance and a shortest accepted sail (:meth:`sail_paths`); none outside a move."""
        if self.phase != MOVE or self.finished:
            return no_hints("karibik", T("no ship is moving: waiting for {waiting}", waiting=self.waiting_for()))
        here = self.ship_at[self.ship]
        left = self.allowance - self.steps
        b = self.board
        places = [{"space": s, "distance": len(path), "path": list(path), "center": list(b.centres[s]),
                   "polygon": [list(p) for p in b.polygons.get(s, ())], "actions": [Sail(path, self.mover).to_dict()]}
                  for s, path in sorted(self.sail_paths().items()) if s != here]
        note = None if places else (T("{ship} has no spaces left to sail this move", ship=self.ship) if left <= 0
                                    else T("{ship} is hemmed in: every space next to it is taken", ship=self.ship))
        return {"kind": "karibik", "piece": None, "ship": self.ship, "from": here, "left": left,
                "places": places, "note": note}

    def legal_actions(self) -> Iterable[Action]:
        """Every legal action now, lazily: the table's draws (every deal, start, pile); cards and 7th
        cards of the players still to answer; in a move, the chest actions, one-space sails and a
        shortest path to every reachable space."""
        if self.finished:
            return iter(())
        return self._legal()

    def _legal(self) -> Iterator[Action]:
        if self.phase == DEAL:  # what the table drew, every way it can fall (lazily: 8,008 deals)
            yield from (Deal(towns) for towns in combinations([t.name for t in self.board.towns], FACE_UP_AT_START))
            return
        if self.phase == SHIPS_PHASE:
            yield from (PlaceShips(spaces) for spaces in permutations(self.board.skulls))
            return
        if self.phase == PILE:
            left = [t.name for t in self.board.towns if t.name not in self.dealt]
            yield from (RevealPile(towns) for towns in combinations(left, PILE_SIZE))
            return
        if self.phase == BIDS:
            for p in self.players:
                if p not in self.cards:
                    for c in self._available(p):
                        yield Card(p, c, self.ship)
            return
        if self.phase == SEVENTH:
            for p in self.tied:
                if p not in self.answers:
                    yield Seventh(p, None)
                    for c in self._available(p):
                        yield Seventh(p, c)
            return
        who = self.mover
        ship = self.ship
        here = self.ship_at[ship]
        mine = self.hold[ship]
        town = self.board.port_town(here)
        lying = self.face_up[town.name] if town else []
        for chest in lying:
            one = None if len(lying) == 1 else chest
            if mine is None:
                yield Attack(one, who)
            elif self.options["port_swap"]:
                yield Swap(None, one, who)
        if mine is not None and here in self.board.hideouts:
            yield Safeguard(who)
        for n in self.board.neighbours[here]:
            other = self.occupant.get(n)
            if other is None:
                continue
            theirs = self.hold[other]
            if mine is None and theirs is not None:
                yield Steal(other, who)
            if mine is not None and theirs is not None:
                yield Swap(other, None, who)
            if mine is not None and theirs is None:
                yield Transfer(other, False, who)
                if n in self.board.hideouts:
                    yield Transfer(other, True, who)
        yield EndMove(who)
        left = self.allowance - self.steps
        if left <= 0:
            return
        blocked = set(self.occupant) - {here}
        for n in self.board.neighbours[here]:
            if n not in blocked:
                yield Sail((n,), who)
        for goal, dist in sorted(self.board.reachable(here, left, blocked).items()):
            if dist >= 2:
                path = self.board.shortest_path(here, goal, blocked)
                if path is not None:
                    yield Sail(tuple(path), who)

    def resources(self) -> dict[str, Any]:
        scores = self.scores()
        players = {}
        for p in self.players:
            shown = self.seventh_shown[p]
            players[p] = {
                "doubloons": scores[p],
                "colour": self.colours[p],
                "hideouts": sorted(s for s, o in self.owners.items() if o == p),
                "cards_shown": list(self.used[p]),
                "seventh": Tc("karibik", "kept") if shown is None else Tc("karibik", "revealed {card}", card=shown),
            }
        table = {
            "round": self.round,
            "phase": self.phase,
            "ship": None if self.phase not in (BIDS, SEVENTH, MOVE) else self.ship,
            "ships": {s: {"space": self.ship_at.get(s), "chest": self.hold[s], "value": self._value(s)} for s in SHIPS},
            "face_up": {t: list(c) for t, c in self.face_up.items() if c},
            "piles_left": self.piles_left,
            "chests_in_play": self._in_play(),
            "secured": list(self.secured),
            "hideouts": {str(s): {"colour": self.board.hideouts[s], "owner": o} for s, o in self.owners.items()},
            "cards": dict(self.cards),
            "mover": self.mover,
            "allowance": self.allowance if self.phase == MOVE else None,
            "spaces_left": self.allowance - self.steps if self.phase == MOVE else None,
            "because": self.because or None,
            "threshold": self.threshold,
            "waiting_for": self.waiting_for(),
            "note": self.note,
            "board": self.board.name,
        }
        return {"players": players, "table": table}

    def field_hints(self) -> dict[str, list[str]]:
        """Values for the page's entry form: the ship being resolved first, then the others; the
        chests lying face up where the moving ship is (or anywhere)."""
        ships = [self.ship] + [s for s in SHIPS if s != self.ship] if self.phase in (BIDS, SEVENTH, MOVE) \
            else list(SHIPS)
        here = self.board.port_town(self.ship_at.get(self.ship, -1)) if self.phase == MOVE else None
        chests = list(self.face_up[here.name]) if here else [c for cs in self.face_up.values() for c in cs]
        return {"ship": ships, "chest": chests}

    def describe(self, action: Mapping[str, Any]) -> Text | None:
        kind = action.get("type")
        # the page shows the action's player beside these words
        if kind == "deal":
            return T("Chests face up: {towns}", towns=", ".join(map(str, action.get("towns", []))))
        if kind == "place_ships":
            return T("Ships start on {starts}",
                     starts=", ".join(f"{s} {sp}" for s, sp in zip(SHIPS, action.get("spaces", []))))
        if kind == "reveal_pile":
            return T("Pile turned up: {towns}", towns=", ".join(map(str, action.get("towns", []))))
        if kind == "card":
            card, ship = action.get("card"), action.get("ship")
            if card == THIEF:
                return T("shows a thief (-1) on {ship}", ship=ship) if ship else T("shows a thief (-1)")
            if ship:
                return Tn("shows {n} barrel on {ship}", "shows {n} barrels on {ship}", card, ship=ship) \
                    if isinstance(card, int) else T("shows {card} barrels on {ship}", card=card, ship=ship)
            return Tn("shows {n} barrel", "shows {n} barrels", card) if isinstance(card, int) \
                else T("shows {card} barrels", card=card)
        if kind == "seventh":
            card = action.get("card")
            return T("keeps their 7th card hidden") if card is None else T("reveals {card} as their 7th card",
                                                                             card=card)
        if kind == "sail":
            path = list(action.get("path", []))
            names = []
            for s in path:
                town = self.board.port_town(s) if isinstance(s, int) else None
                names.append(f"{s} ({town.name})" if town else str(s))
            return Tn("Sail {n} space: {spaces}", "Sail {n} spaces: {spaces}", len(path), spaces=" → ".join(names))
        if kind == "attack":
            if action.get("chest"):
                return T("Raid the port (the {chest} chest)", chest=action["chest"])
            return T("Raid the port")
        if kind == "steal":
            return T("Steal the chest of {ship}", ship=action.get("ship"))
        if kind == "swap":
            if action.get("ship"):
                return T("Swap chests with {ship}", ship=action["ship"])
            return T("Swap chests with the port (no bonus)")
        if kind == "transfer":
            if action.get("safeguard"):
                return T("Hand the chest to {ship}, safeguarded in its hideout", ship=action.get("ship"))
            return T("Hand the chest to {ship}", ship=action.get("ship"))
        if kind == "safeguard":
            return T("Safeguard the chest in the hideout")
        if kind == "end_move":
            return T("End the move")
        return None

    def view(self) -> dict[str, Any]:
        """``{"kind": "karibik", ...}``: spaces (polygons, ports, hideouts with owners, skulls),
        land, towns with their chests, ships with their holds, the path just sailed and the
        reachable spaces of the moving ship."""
        b = self.board
        reach = self.reachable()
        spaces = []
        for s in b.centres:
            town = b.port_town(s)
            spaces.append({
                "id": s, "center": list(b.centres[s]),
                "polygon": [list(p) for p in b.polygons.get(s, ())],
                "port": town.name if town else None,
                "hideout": b.hideouts.get(s), "owner": self.owners.get(s),
                "skull": s in b.skulls, "ship": self.occupant.get(s),
                "reachable": s in reach and reach[s] > 0,
            })
        towns = [{"name": t.name, "at": list(t.at), "port": t.port, "value": t.chest,
                  "face_up": [{"chest": c, "value": self.chest_value(c)} for c in self.face_up[t.name]],
                  "secured": t.name in self.secured} for t in b.towns]
        ships = [{"ship": s, "space": self.ship_at.get(s), "chest": self.hold[s],
                  "value": self._value(s),
                  "moving": self.phase == MOVE and s == self.ship} for s in SHIPS]
        return {
            "kind": "karibik",
            "size": list(b.size),
            "spaces": spaces,
            "land": [[list(p) for p in poly] for poly in b.land],
            "towns": towns,
            "ships": ships,
            "piles": [{"at": list(at), "full": i >= len(b.piles) - self.piles_left} for i, at in enumerate(b.piles)],
            "colours": dict(self.colours),
            "path": None if self.last_path is None else {"ship": self.last_path[0], "spaces": self.last_path[1]},
            "reachable": sorted(s for s, d in reach.items() if d > 0),
            "ship": None if self.phase not in (BIDS, SEVENTH, MOVE) else self.ship,
            "mover": self.mover,
            "allowance": self.allowance if self.phase == MOVE else None,
            "spaces_left": self.allowance - self.steps if self.phase == MOVE else None,
            "round": self.round,
            "phase": self.phase,
            "current": None if self.finished else self.players[self.current],
            "waiting_for": self.waiting_for(),
            "note": self.note,
            "provisional": self.provisional,
            "final": list(self.final_lines),
        }
