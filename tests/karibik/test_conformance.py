"""Conformance: seeded random Karibik games replay equal from their log, undo round-trips through
a Session on SQLite, records round-trip through JSON, and every listed legal action is legal."""
from __future__ import annotations

import random

import pytest

from tablehub.games.karibik.actions import Card, Seventh
from tablehub.games.karibik.engine import Karibik
from tablehub.games.karibik.playout import random_game
from tests.conformance import assert_record_round_trips, assert_undo_round_trips, fingerprint, replayed

GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(4)]


@pytest.mark.parametrize("players, seed", GAMES)
def test_a_random_game_replays_equal_from_its_action_log(players, seed):
    game = random_game(players, seed)
    assert game.finished, "random games end by the rules"
    scores = game.scores()
    assert max(scores.values()) >= game.threshold or game._in_play() == 0
    assert fingerprint(replayed(game, [a.to_dict() for a in game.history])) == fingerprint(game)
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
    assert_record_round_trips(random_game(players, seed))


@pytest.mark.parametrize("players, seed", [(2, 18), (4, 12)])
def test_undo_round_trips_through_a_session(store, players, seed):
    # a turn is a ship's resolution (from its first card) or a draw of the table
    assert_undo_round_trips(store, random_game(players, seed), seed, undo_action=0.05, undo_turn=0.03,
                            turn_ok=lambda dropped: dropped[0]["type"] in ("card", "deal", "place_ships", "reveal_pile"))


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
