"""Conformance of the tile games over many seeded random games: replay equality, undo round trip,
record round trip. Runs on every tile game that is installed (Neues Land, Südsee)."""
import importlib.util
import json

import pytest

from tablehub.games.base import Setup
from tablehub.games.tiles.playout import PlayoutStats, random_game
from tablehub.records import Record, parse_record, record_of, replay
from tablehub.session import Session
from tests.conformance import fingerprint

def _installed(game: str) -> bool:
    try:
        return importlib.util.find_spec(f"tablehub.games.{game}.engine") is not None
    except ModuleNotFoundError:
        return False


GAMES = [g for g in ("neuesland", "suedsee") if _installed(g)]
CASES = [(g, players, seed, opts) for g in GAMES for seed in range(12)
         for players, opts in [(2 + seed % 4, {}), (2 + (seed + 1) % 4, {"expert": True} if g == "neuesland" else {})]]


@pytest.mark.parametrize("game,players,seed,opts", CASES)
def test_replaying_the_action_log_gives_the_same_game(game, players, seed, opts):
    st = PlayoutStats()
    g = random_game(game, players, seed, opts, stats=st)
    assert g.finished and st.placements > 40
    again = replay(Record(g.setup, [a.to_dict() for a in st.actions]), finish=True)
    assert fingerprint(again) == fingerprint(g)


@pytest.mark.parametrize("game,players,seed,opts", CASES[::3])
def test_record_round_trip_through_json(game, players, seed, opts):
    g = random_game(game, players, seed, opts)
    text = json.dumps(record_of(g).to_dict())
    back = replay(parse_record(json.loads(text), "roundtrip"), finish=True)
    assert fingerprint(back) == fingerprint(g)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_undo_round_trip_through_the_sqlite_session(game, seed, store):
    st = PlayoutStats()
    g = random_game(game, 3, seed, stats=st, finish=False)
    actions = [a.to_dict() for a in st.actions][:60]
    s = Session.create(store, Setup(game, g.players))
    states = [fingerprint(s.game)]
    for a in actions:
        s.submit(a, source="test")
        states.append(fingerprint(s.game))
    # undo every action one by one: each undo gives back the state before it
    for k in range(len(actions), len(actions) - 15, -1):
        s.undo_action()
        assert fingerprint(s.game) == states[k - 1]
    # redo, then undo whole turns: the state is always one at a turn boundary
    for a in actions[len(actions) - 15:]:
        s.submit(a, source="test")
    assert fingerprint(s.game) == states[-1]
    turn = s.game.turn
    dropped = s.undo_turn()
    assert dropped and s.game.turn == turn - 1
    # the reopened session (a fresh process) sees the same game
    again = Session(store, s.game_id)
    assert fingerprint(again.game) == fingerprint(s.game)
