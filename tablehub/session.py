"""Event-sourced game sessions.

A :class:`Session` is a setup plus the append-only action log in a
:class:`~tablehub.store.Store`. It is the single writer of game state: every
source (camera tracker, buttons, phone) goes through :meth:`Session.submit`,
which validates, applies, and only then appends to the log. A refused action
changes nothing. Undo replays the log without the dropped actions.

>>> from tablehub.games.base import Setup
>>> s = Session.create(Store(), Setup("neuesland", ("Ana", "Ben")))
>>> events = s.submit({"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 0})
>>> s.game.turn
1
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Mapping

from .games import new_game
from .games.base import Action, Game, ScoreEvent, Setup, TablehubError
from .store import ActionRow, Store

Listener = Callable[[str, dict[str, Any]], None]


class SessionError(TablehubError):
    pass


class Session:
    def __init__(self, store: Store, game_id: int):
        self.store = store
        self.game_id = game_id
        row = store.game(game_id)
        self.setup: Setup = row.setup
        self.lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.game: Game
        self.rows: list[ActionRow] = []
        self._rebuild(ended=row.ended is not None)

    # ---- construction

    @classmethod
    def create(cls, store: Store, setup: Setup) -> "Session":
        new_game(setup)  # validates players and options before anything is stored
        return cls(store, store.create_game(setup))

    @classmethod
    def resume(cls, store: Store, game_id: int | None = None) -> "Session | None":
        """Reopen a game (the latest unfinished one by default)."""
        if game_id is None:
            row = store.latest_open_game()
            if row is None:
                return None
            game_id = row.id
        return cls(store, game_id)

    def _rebuild(self, ended: bool = False) -> None:
        game = new_game(self.setup)
        rows = self.store.actions(self.game_id)
        for row in rows:
            try:
                game.apply(game.parse_action(row.action, where=f"logged action {row.seq}"))
            except TablehubError as exc:
                raise SessionError(f"game {self.game_id}: the log no longer replays at action {row.seq}: {exc}") from None
        if ended and not game.finished:
            game.finish()
        self.game = game
        self.rows = rows

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

    def submit(self, action: Action | Mapping[str, Any], source: str = "manual") -> list[ScoreEvent]:
        """Validate, apply and log one action. Raises a TablehubError and changes nothing if refused."""
        with self.lock:
            act = self.parse(action)
            # Engines validate before they change anything, so a refusal leaves the game as it was.
            events = self.game.apply(act)
            seq = self.store.append(self.game_id, act.to_dict(), source, self.game.turn)
            self.rows.append(ActionRow(seq, act.to_dict(), source, self.game.turn, 0.0))
            if self.game.finished:  # the rules ended the game (e.g. Tahiti's second colour runs out)
                self.store.set_ended(self.game_id, True)
        self._emit("action", {"seq": seq, "action": act.to_dict(), "source": source,
                              "events": [e.to_dict() for e in events]})
        return events

    def undo_action(self) -> dict[str, Any]:
        """Drop the last action. Returns it."""
        with self.lock:
            if not self.rows:
                raise SessionError("nothing to undo: no action has been played")
            if self.game.finished:
                raise SessionError("the game has ended; reopen it before undoing")
            last = self.rows[-1]
            self.store.mark_undone(self.game_id, [last.seq])
            self._rebuild()
        self._emit("undo", {"actions": [last.action]})
        return last.action

    def undo_turn(self) -> list[dict[str, Any]]:
        """Drop every action of the most recent turn. Returns them."""
        with self.lock:
            if not self.rows:
                raise SessionError("nothing to undo: no action has been played")
            if self.game.finished:
                raise SessionError("the game has ended; reopen it before undoing")
            # the trailing actions that share the last action's turn number
            turn = self.rows[-1].turn
            k = len(self.rows)
            while k > 0 and self.rows[k - 1].turn == turn:
                k -= 1
            dropped = self.rows[k:]
            self.store.mark_undone(self.game_id, [r.seq for r in dropped])
            self._rebuild()
        self._emit("undo", {"actions": [r.action for r in dropped]})
        return [r.action for r in dropped]

    def finish(self) -> list[ScoreEvent]:
        """End the game: final evaluation, and the store marks it ended."""
        with self.lock:
            events = self.game.finish()
            self.store.set_ended(self.game_id, True)
        self._emit("finish", {"events": [e.to_dict() for e in events]})
        return events

    def reopen(self) -> None:
        with self.lock:
            self.store.set_ended(self.game_id, False)
            self._rebuild()
        self._emit("reopen", {})

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [r.action for r in self.rows]
