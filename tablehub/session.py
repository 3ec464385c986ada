"""Event-sourced game sessions.

A :class:`Session` is a setup plus the append-only action log in a
:class:`~tablehub.store.Store`. It is the single writer of game state: every
source (camera tracker, buttons, phone) goes through :meth:`Session.submit` (or
:meth:`Session.submit_many` for a turn of several actions).

Every change is all or nothing: the rules check it, the log row is committed,
and only then does the game object the page reads change. A refusal by the
rules raises their error; a write the database refuses raises
:class:`~tablehub.store.NotSaved` ("not saved: <reason>; nothing changed") and
the game is as it was. Undo replays the log without the dropped actions.

Each change bumps :attr:`Session.revision` (kept in the database). A caller that
passes ``expect=`` the revision it saw is refused with :class:`Stale` when the
game has moved on since, and nothing changes: 20 phones pressing "undo" on the
same state undo one action, not 20.

>>> from tablehub.games.base import Setup
>>> s = Session.create(Store(), Setup("neuesland", ("Ana", "Ben")))
>>> events = s.submit({"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0})
>>> s.game.turn, s.revision
(1, 1)
>>> s.undo_action(expect=0)
Traceback (most recent call last):
...
tablehub.session.Stale: the game moved on (this page saw change 0, the game is at change 1): look again; nothing changed
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .games import new_game
from .games.base import Action, Game, ScoreEvent, Setup, TablehubError
from .i18n import T, reason
from .store import ActionRow, NotSaved, Store

__all__ = ["Broken", "NotSaved", "Paused", "Session", "SessionError", "Stale", "replay_rows"]

Listener = Callable[[str, dict[str, Any]], None]


class SessionError(TablehubError):
    pass


class Stale(SessionError):
    """The caller saw an older state of the game than the one now; nothing changed."""


class Paused(SessionError):
    """The game's log stops replaying: no change until the owner chooses what to do."""


@dataclass(frozen=True)
class Broken:
    """Where a game's log stops replaying: action ``seq`` is refused for ``reason``; ``good``
    live actions before it replay, ``bad`` live actions from it on do not."""

    game_id: int
    seq: int
    reason: str
    good: int
    bad: int

    def describe(self) -> str:
        return (f"game {self.game_id}: the log no longer replays at action {self.seq}: {self.reason} "
                f"({self.good} action(s) before it replay, {self.bad} from it on do not)")


def replay_rows(setup: Setup, rows: Sequence[ActionRow], game_id: int = 0
                ) -> tuple[Game, int, "Broken | None"]:
    """Replay ``rows`` on a new game: (the game after the last action that replays, how many
    replayed, where it stopped or ``None``). Raises the setup's error when the game itself
    cannot be set up any more (an unknown game, a missing catalog)."""
    game = new_game(setup)
    for i, row in enumerate(rows):
        try:
            game.apply(game.parse_action(row.action, where=f"logged action {row.seq}"))
        except TablehubError as exc:
            return game, i, Broken(game_id, row.seq, str(exc), i, len(rows) - i)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:  # a row edited into nonsense
            return game, i, Broken(game_id, row.seq, f"unreadable action ({type(exc).__name__}: {exc})",
                                   i, len(rows) - i)
    return game, len(rows), None


class Session:
    """One game and its log. ``tolerant``: open a game whose log stops replaying up to its
    last good action (:attr:`broken` says where) instead of raising; it refuses changes
    until :meth:`repair` sets the bad tail aside."""

    def __init__(self, store: Store, game_id: int, *, tolerant: bool = False):
        self.store = store
        self.game_id = game_id
        row = store.game(game_id)
        self.setup: Setup = row.setup
        self.revision: int = row.revision
        self.ended_at: float | None = row.ended
        self.lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.game: Game
        self.rows: list[ActionRow] = []
        self.broken: Broken | None = None
        rows = store.actions(game_id)
        try:
            game, good, broken = replay_rows(self.setup, rows, game_id)
        except TablehubError as exc:
            raise SessionError(T("game {id} ({game}) cannot be set up any more: {why}", id=game_id, game=self.setup.game,
                                   why=reason(exc))) from None
        if broken is not None and not tolerant:
            raise SessionError(broken.describe())
        if self.ended and broken is None and not game.finished:
            game.finish()
        self.game, self.rows, self.broken = game, rows[:good], broken

    # ---- construction

    @property
    def ended(self) -> bool:
        """Whether the store marks the game ended (the rules or a person ended it)."""
        return self.ended_at is not None

    @classmethod
    def create(cls, store: Store, setup: Setup, current: bool = False) -> "Session":
        """A new game; ``current``: also record it as the game on the table (one transaction)."""
        new_game(setup)  # validates players and options before anything is stored
        return cls(store, store.create_game(setup, current=current))

    @classmethod
    def resume(cls, store: Store, game_id: int | None = None, *, tolerant: bool = False) -> "Session | None":
        """Reopen a game (the latest unfinished one by default)."""
        if game_id is None:
            row = store.latest_open_game()
            if row is None:
                return None
            game_id = row.id
        return cls(store, game_id, tolerant=tolerant)

    def _replay(self, rows: Sequence[ActionRow], finish: bool = False) -> Game:
        """The game after ``rows`` (which replayed before: they are the live log's prefix)."""
        game, _, broken = replay_rows(self.setup, rows, self.game_id)
        if broken is not None:  # pragma: no cover - the rows replayed when they were logged
            raise SessionError(broken.describe())
        if finish and not game.finished:
            game.finish()
        return game

    # ---- events for pages and lights

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, kind: str, payload: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(kind, payload)

    # ---- the single writer

    def parse(self, action: Action | Mapping[str, Any]) -> Action:
        if isinstance(action, Action):
            return action
        return self.game.parse_action(action)

    def check(self, action: Action | Mapping[str, Any]) -> str | None:
        """The reason ``action`` would be refused now, or ``None``."""
        with self.lock:
            try:
                act = self.parse(action)
            except TablehubError as exc:
                return str(exc)
            return self.game.validate(act)

    def _writable(self, expect: int | None) -> None:
        """Refuse a change to a game whose log stops replaying, or one made on an older state."""
        if self.broken is not None:
            raise Paused(T("{why}; nothing changed: choose on the page (continue from the last good action, or start "
                           "a new game) or run 'tablehub games repair {id}'", why=self.broken.describe(), id=self.game_id))
        if expect is not None and expect != self.revision:
            raise Stale(T("the game moved on (this page saw change {seen}, the game is at change {now}): look again; "
                          "nothing changed", seen=expect, now=self.revision))

    def submit(self, action: Action | Mapping[str, Any], source: str = "manual",
               expect: int | None = None) -> list[ScoreEvent]:
        """Validate, apply and log one action. Raises a TablehubError and changes nothing if refused
        (by the rules, by the database: :class:`NotSaved`, or as :class:`Stale`)."""
        return self.submit_many([(action, source)], expect=expect)

    def submit_many(self, batch: Sequence[tuple[Action | Mapping[str, Any], str]],
                    expect: int | None = None) -> list[ScoreEvent]:
        """Log a turn of several ``(action, source)`` pairs as one change: every one of them or none.

        The rules check them in order on a copy of the game; the rows are committed in one
        transaction; only then does the game change.
        """
        if not batch:
            return []
        with self.lock:
            self._writable(expect)
            single = len(batch) == 1
            # one action: the engine validates before it changes anything, so the game itself is
            # safe to apply to; a turn of several goes on a copy, so that a refusal half-way leaves nothing
            game = self.game if single else self.game.copy()
            events: list[list[ScoreEvent]] = []
            logged: list[tuple[dict[str, Any], str, int]] = []
            for action, src in batch:
                act = action if isinstance(action, Action) else game.parse_action(action)
                events.append(game.apply(act))
                logged.append((act.to_dict(), src, game.turn))
            ended = game.finished and not self.ended  # the rules ended it (e.g. Tahiti's second colour runs out)
            try:
                seqs = self.store.append_many(self.game_id, logged, ended=ended)
            except NotSaved:
                if single:  # roll the game back to the log
                    self.game = self._replay(self.rows, finish=self.ended)
                raise
            now = time.time()
            self.game = game
            self.rows.extend(ActionRow(seq, a, src, turn, now) for seq, (a, src, turn) in zip(seqs, logged))
            if ended:
                self.ended_at = now
            self.revision += 1
        for seq, (a, src, _), evs in zip(seqs, logged, events):
            self._emit("action", {"seq": seq, "action": a, "source": src, "events": [e.to_dict() for e in evs]})
        return [e for evs in events for e in evs]

    def undo_action(self, expect: int | None = None) -> dict[str, Any]:
        """Drop the last action. Returns it."""
        with self.lock:
            self._check_undo(expect)
            last = self.rows[-1]
            self._drop(len(self.rows) - 1)
        self._emit("undo", {"actions": [last.action]})
        return last.action

    def undo_turn(self, expect: int | None = None) -> list[dict[str, Any]]:
        """Drop every action of the most recent turn. Returns them."""
        with self.lock:
            self._check_undo(expect)
            # the trailing actions that share the last action's turn number
            turn = self.rows[-1].turn
            k = len(self.rows)
            while k > 0 and self.rows[k - 1].turn == turn:
                k -= 1
            dropped = self.rows[k:]
            self._drop(k)
        self._emit("undo", {"actions": [r.action for r in dropped]})
        return [r.action for r in dropped]

    def _check_undo(self, expect: int | None) -> None:
        self._writable(expect)
        if not self.rows:
            raise SessionError(T("nothing to undo: no action has been played"))
        if self.game.finished:
            raise SessionError(T("the game has ended; reopen it before undoing"))

    def _drop(self, keep: int) -> None:
        """Mark every live action after the first ``keep`` undone; the game follows once it is saved."""
        game = self._replay(self.rows[:keep])
        self.store.mark_undone(self.game_id, [r.seq for r in self.rows[keep:]])
        self.game, self.rows = game, self.rows[:keep]
        self.revision += 1

    def finish(self, expect: int | None = None) -> list[ScoreEvent]:
        """End the game: final evaluation, and the store marks it ended."""
        with self.lock:
            self._writable(expect)
            game = self.game.copy()
            events = game.finish()
            self.store.set_ended(self.game_id, True)
            self.game, self.ended_at = game, time.time()
            self.revision += 1
        self._emit("finish", {"events": [e.to_dict() for e in events]})
        return events

    def reopen(self, expect: int | None = None) -> None:
        with self.lock:
            self._writable(expect)
            game = self._replay(self.rows)
            self.store.set_ended(self.game_id, False)
            self.game, self.ended_at = game, None
            self.revision += 1
        self._emit("reopen", {})

    def repair(self, note: str = "") -> int:
        """Set aside the tail of a log that stops replaying (the rows are marked undone with a note,
        never deleted); the game continues from its last good action. Returns how many rows."""
        with self.lock:
            broken = self.broken
            if broken is None:
                return 0
            seqs = [r.seq for r in self.store.actions(self.game_id) if r.seq >= broken.seq]
            why = note or (f"set aside by repair on {time.strftime('%Y-%m-%d %H:%M:%S')}: action {broken.seq} "
                           f"no longer replays: {broken.reason}")
            self.store.mark_undone(self.game_id, seqs, note=why)
            self.broken = None
            if self.ended and not self.game.finished:
                self.game = self._replay(self.rows, finish=True)
            self.revision += 1
        self._emit("repair", {"actions": len(seqs)})
        return len(seqs)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [r.action for r in self.rows]
