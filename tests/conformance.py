"""What every game's conformance tests check, written once: a game's observable state, its record
through JSON, and undo through a Session on SQLite. The games' own tests choose the games (seeds,
players, options) and add their rules' checks."""
from __future__ import annotations

import json
import random
from typing import Callable

from tablehub.games.base import Game
from tablehub.records import Record, parse_record, record_of, replay
from tablehub.session import Session


def fingerprint(game: Game) -> str:
    """Everything a player can see of a game, as one comparable string."""
    return json.dumps([game.scores(), [e.to_dict() for e in game.score_log], game.resources(), game.view(),
                       game.turn, game.current, game.finished], sort_keys=True, default=str)


def replayed(game: Game, actions: list[dict], finish: bool = False) -> Game:
    """A fresh game of ``game``'s set-up with ``actions`` applied (the engine's own parse and apply)."""
    return replay(Record(game.setup, list(actions)), finish=finish)


def assert_record_round_trips(game: Game, finish: bool = True) -> None:
    """The game's record, written as JSON and read back, replays to the same game and winners."""
    text = json.dumps(record_of(game).to_dict())
    again = replay(parse_record(json.loads(text), "round trip"), finish=finish)
    assert fingerprint(again) == fingerprint(game)
    assert again.winners() == game.winners()


def assert_undo_round_trips(store, game: Game, seed: int, undo_action: float, undo_turn: float,
                            turn_ok: Callable[[list[dict]], bool] | None = None) -> None:
    """Play ``game``'s history into a Session; at random steps undo the last action or the whole turn
    and submit it again: each undo gives back the state before it, each redo the state after, and the
    session reopened from SQLite (a fresh process) holds the same game. ``turn_ok`` checks the
    actions an undo-turn drops (the game's idea of where a turn begins)."""
    actions = [a.to_dict() for a in game.history]
    rng = random.Random(seed)
    session = Session.create(store, game.setup)
    for i, action in enumerate(actions[:-1]):
        session.submit(action)
        if rng.random() < undo_action:
            before = fingerprint(session.game)
            assert session.undo_action() == action
            assert fingerprint(session.game) == fingerprint(replayed(game, actions[:i]))
            session.submit(action)
            assert fingerprint(session.game) == before
        elif rng.random() < undo_turn:
            before = fingerprint(session.game)
            dropped = session.undo_turn()
            assert dropped == actions[i + 1 - len(dropped):i + 1], "undo-turn drops the turn's trailing actions"
            if turn_ok is not None:
                assert turn_ok(dropped), f"not a turn: {[a['type'] for a in dropped]}"
            for a in dropped:
                session.submit(a)
            assert fingerprint(session.game) == before
    session.submit(actions[-1])
    assert fingerprint(session.game) == fingerprint(game)
    assert fingerprint(Session(store, session.game_id).game) == fingerprint(game)
