"""Resource markers seen by the camera become ``place_marker`` (tablehub/games/sunda/camera.py), checked by the
engine; a marker on another island than the pawn it follows is flagged. No vision here (the readings are written
from the games, in a turned and shifted reader frame, as in test_sunda_layout_moves)."""
from __future__ import annotations

import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.tracking.layoutmoves import LayoutSeen, layout_reading
from tests.live.test_sunda_layout_moves import _to_reader, seen_of

OPTIONS = {"tribes": True, "resources": True}
K, SHIFT = 2, (3, -4)


def _games(seed: int = 4):
    whole = random_game(2, seed, options=OPTIONS, finish=False)
    i = next(i for i, a in enumerate(whole.history) if a.to_dict()["type"] == "place_marker"
             and whole.history[i - 1].to_dict()["type"] == "place_pawn")
    return whole, i


def _upto(whole, n):
    game = type(whole)(whole.setup)
    for a in whole.history[:n]:
        game.apply(a)
    return game


def _seen(game, markers):
    seen = seen_of(game, K, SHIFT)
    obs = dict(seen.observation)
    obs["markers"] = [{"marker": m, "q": _to_reader(*pt, K, SHIFT)[0], "r": _to_reader(*pt, K, SHIFT)[1]}
                      for m, pt in markers]
    return LayoutSeen(obs)


def test_a_new_marker_by_the_pawn_just_logged_is_place_marker():
    whole, i = _games()
    game = _upto(whole, i)                       # the pawn is logged
    marker = whole.history[i].to_dict()["marker"]
    after = _upto(whole, i + 1)
    reading = layout_reading(game, _seen(after, [(marker, game.claim_at)] + [(m, pt) for m, pt in game.markers.items()]))
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_marker", "marker": marker}]
    # once logged, the same table is the same
    game.apply(game.parse_action(reading.actions[0]))
    assert layout_reading(game, _seen(after, list(game.markers.items()))).state == "same"


def test_a_pawn_and_its_marker_seen_together_are_both_read():
    whole, i = _games()
    game = _upto(whole, i - 1)                   # before the pawn
    pawn, marker = whole.history[i - 1].to_dict(), whole.history[i].to_dict()["marker"]
    after = _upto(whole, i + 1)
    reading = layout_reading(game, _seen(after, [(marker, (pawn["q"], pawn["r"]))] + list(game.markers.items())))
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_pawn", "q": pawn["q"], "r": pawn["r"]},
                               {"type": "place_marker", "marker": marker}]


def test_a_marker_with_no_pawn_added_is_flagged_with_the_engines_reason():
    whole, i = _games()
    j = next(j for j in range(i + 1, len(whole.history)) if whole.history[j].to_dict()["type"] == "place_piece")
    game = _upto(whole, j + 1)                   # a piece laid, nothing claimed this phase
    free = next(m.id for m in game.set.markers if m.id not in game.markers)
    node = next(iter(game.tribes))
    reading = layout_reading(game, _seen(game, list(game.markers.items()) + [(free, node)]))
    assert reading.state == "illegal", reading.describe()
    assert "follows a pawn or a water right" in str(reading.reason)


def test_a_marker_on_another_island_than_its_pawn_is_flagged():
    for seed in range(4, 30):
        whole, i = _games(seed)
        game = _upto(whole, i)
        marker = whole.history[i].to_dict()["marker"]
        home = game.island_at(game.claim_at)
        other = next((pt for pt in game.tribes if game.board.nodes[pt].kind == "land" and game.island_at(pt) != home),
                     None)
        if other is None:
            continue
        reading = layout_reading(game, _seen(game, list(game.markers.items()) + [(marker, other)]))
        assert reading.state == "illegal", reading.describe()
        assert "not on the island of the pawn it follows" in str(reading.reason)
        return
    pytest.fail("no game with tribes on two islands")
