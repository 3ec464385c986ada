"""Conformance: seeded random playouts replay equal from their log, undo round-trips through a
Session, and records round-trip through JSON."""
from __future__ import annotations

import random

import pytest

from tablehub.games.tahiti.engine import Tahiti
from tablehub.games.tahiti.playout import random_game
from tests.conformance import assert_record_round_trips, assert_undo_round_trips, fingerprint, replayed

GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(4)]


@pytest.mark.parametrize("players, seed", GAMES)
def test_a_random_game_replays_equal_from_its_action_log(players, seed):
    game = random_game(players, seed)
    assert game.finished and len(game.exhausted) >= 2, "random games end by the rules"
    assert fingerprint(replayed(game, [a.to_dict() for a in game.history])) == fingerprint(game)
    assert sum(e.points for e in game.score_log) == sum(game.scores().values())
    assert random_game(players, seed).history == game.history, "the same seed plays the same game"


@pytest.mark.parametrize("players, seed", GAMES[::3])
def test_a_record_round_trips_through_json(players, seed):
    assert_record_round_trips(random_game(players, seed))


@pytest.mark.parametrize("players, seed", [(2, 7), (4, 8)])
def test_undo_round_trips_through_a_session(store, players, seed):
    assert_undo_round_trips(store, random_game(players, seed), seed, undo_action=0.1, undo_turn=0.05,
                            turn_ok=lambda d: len(d) == 1 or d[0]["type"] in ("roll", "place_sailboat", "start_pearl"))


def test_every_legal_action_validates_all_through_a_game():
    rng = random.Random(3)
    game = random_game(3, 3)
    probe = Tahiti(game.setup)
    for action in game.history:
        legal = list(probe.legal_actions())
        assert action in legal
        for other in rng.sample(legal, min(5, len(legal))):
            assert probe.validate(other) is None
        probe.apply(action)
