"""Conformance over seeded random games at every level: a game replays equal from its action log,
undo round-trips through a Session on SQLite, records round-trip through JSON, and every claim the
engine lists validates."""
from __future__ import annotations

import random

import pytest

from tablehub.games.sunda.engine import LEVELS, Sunda
from tablehub.games.sunda.playout import all_levels, random_game
from tests.conformance import assert_record_round_trips, assert_undo_round_trips, fingerprint, replayed

LEVEL_OPTIONS = [("base", {})] + [(lvl, {lvl: True}) for lvl in LEVELS] + [("all", all_levels())]
GAMES = [(name, opts, players, seed) for name, opts in LEVEL_OPTIONS for players, seed in ((1, 1), (2, 2), (4, 3))]


@pytest.mark.parametrize("level, options, players, seed", GAMES, ids=[f"{g[0]}-{g[2]}p-{g[3]}" for g in GAMES])
def test_a_random_game_replays_equal_from_its_action_log(level, options, players, seed):
    game = random_game(players, seed, options)
    assert game.finished
    assert len(game.board.placed) > 100, "random games lay most of the pool"
    assert fingerprint(replayed(game, [a.to_dict() for a in game.history], finish=True)) == fingerprint(game)
    assert sum(e.points for e in game.score_log) == sum(game.scores().values())
    assert all(e.kind == "final" for e in game.score_log)
    assert random_game(players, seed, options).history == game.history, "the same seed plays the same game"


def test_every_level_is_exercised_by_the_random_games():
    seen = set()
    for seed in range(6):
        game = random_game(3, seed, all_levels())
        seen |= {a.type for a in game.history}
    assert {"place_piece", "place_pawn", "challenge", "roll", "place_marker", "consent"} <= seen, seen


@pytest.mark.parametrize("level, options", LEVEL_OPTIONS[::2], ids=[x[0] for x in LEVEL_OPTIONS[::2]])
def test_a_record_round_trips_through_json(level, options):
    assert_record_round_trips(random_game(3, 5, options))


@pytest.mark.parametrize("players, seed", [(2, 7), (3, 8)])
def test_undo_round_trips_through_a_session(store, players, seed):
    assert_undo_round_trips(store, random_game(players, seed, all_levels(), finish=False), seed,
                            undo_action=0.08, undo_turn=0.04)


def test_every_listed_claim_validates_and_every_played_claim_was_listed():
    game = random_game(3, 4, all_levels())
    probe = Sunda(game.setup)
    rng = random.Random(4)
    for action in game.history:
        if action.type != "place_piece":
            legal = list(probe.legal_actions())
            assert action in legal or action.type == "roll"
            for other in rng.sample(legal, min(5, len(legal))):
                assert probe.validate(other) is None, other
        else:
            assert (action.q, action.r, action.turn) in probe.legal_placements(action.piece)
        probe.apply(action)


def test_a_refused_action_changes_nothing():
    game = random_game(2, 9, all_levels(), finish=False)
    before = fingerprint(game)
    for bad in ({"type": "place_piece", "piece": "s001", "q": 0, "r": 0, "turn": 0},
                {"type": "place_pawn", "q": 99, "r": 99}, {"type": "roll", "challenger": [1], "defender": [1]},
                {"type": "place_marker", "marker": "red"}, {"type": "consent", "q": 0, "r": 0}):
        why = game.validate(game.parse_action(bad))
        assert why and "\n" not in why
    assert fingerprint(game) == before
