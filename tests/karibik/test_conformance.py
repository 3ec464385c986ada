"""Conformance: seeded random Karibik games replay equal from their log, undo round-trips through
a Session on SQLite, records round-trip through JSON, and every listed legal action is legal."""
from __future__ import annotations

import json
import random

import pytest

from tablehub.games.base import Setup
from tablehub.games.karibik.actions import Card, Seventh
from tablehub.games.karibik.engine import Karibik
from tablehub.games.karibik.playout import random_game
from tablehub.records import parse_record, record_of, replay
from tablehub.session import Session

GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(4)]


def state(game: Karibik) -> str:
    return json.dumps([game.resources(), game.view(), game.scores(), [e.to_dict() for e in game.score_log],
                       game.turn, game.finished], sort_keys=True)


def replayed(setup: Setup, actions: list[dict]) -> Karibik:
    game = Karibik(setup)
    for a in actions:
        game.apply(game.parse_action(a))
    return game


@pytest.mark.parametrize("players, seed", GAMES)
def test_a_random_game_replays_equal_from_its_action_log(players, seed):
    game = random_game(players, seed)
    assert game.finished, "random games end by the rules"
    scores = game.scores()
    assert max(scores.values()) >= game.threshold or game._in_play() == 0
    again = replayed(game.setup, [a.to_dict() for a in game.history])
    assert state(again) == state(game)
    assert random_game(players, seed).history == game.history, "the same seed plays the same game"


@pytest.mark.parametrize("players, seed", GAMES)
def test_every_doubloon_is_explained_and_no_chest_is_lost(players, seed):
    game = random_game(players, seed)
    for ev in game.score_log:
        assert ev.points in (2000,) or 4000 <= ev.points <= 8000
        assert "raided" in ev.reason or "safeguarded" in ev.reason
    held = [c for c in game.hold.values() if c]
    lying = [c for cs in game.face_up.values() for c in cs]
    assert sorted(held + lying + game.secured) == sorted(game.dealt), "every dealt chest is somewhere, once"


@pytest.mark.parametrize("players, seed", GAMES[::3])
def test_a_record_round_trips_through_json(players, seed):
    game = random_game(players, seed)
    text = json.dumps(record_of(game).to_dict())
    again = replay(parse_record(json.loads(text), "round trip"))
    assert state(again) == state(game)
    assert again.winners() == game.winners()


@pytest.mark.parametrize("players, seed", [(2, 18), (4, 12)])
def test_undo_round_trips_through_a_session(store, players, seed):
    game = random_game(players, seed)
    actions = [a.to_dict() for a in game.history]
    rng = random.Random(seed)
    session = Session.create(store, game.setup)
    for i, action in enumerate(actions[:-1]):
        session.submit(action)
        if rng.random() < 0.05:
            before = state(session.game)
            assert session.undo_action() == action
            assert state(session.game) == state(replayed(game.setup, actions[:i]))
            session.submit(action)
            assert state(session.game) == before
        elif rng.random() < 0.03:
            before = state(session.game)
            dropped = session.undo_turn()
            assert dropped == actions[i + 1 - len(dropped):i + 1], "undo-turn drops the turn's trailing actions"
            assert dropped[0]["type"] in ("card", "deal", "place_ships", "reveal_pile"), \
                "a turn is a ship's resolution (from its first card) or a draw of the table"
            for a in dropped:
                session.submit(a)
            assert state(session.game) == before
    session.submit(actions[-1])
    assert state(session.game) == state(game)
    reopened = Session(store, session.game_id)
    assert state(reopened.game) == state(game)


def test_every_legal_action_validates_all_through_a_game():
    rng = random.Random(3)
    game = random_game(3, 3)
    probe = Karibik(game.setup)
    for action in game.history:
        legal = list(probe.legal_actions())
        if isinstance(action, (Card, Seventh)) or probe.phase == "move":
            assert action in legal or (probe.phase == "move" and len(getattr(action, "path", ())) > 1)
        for other in rng.sample(legal, min(5, len(legal))):
            assert probe.validate(other) is None, (other, probe.validate(other))
        probe.apply(action)
