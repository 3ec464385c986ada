"""The tile core's conformance checks on Südsee with its own options (tests/tiles/test_conformance.py runs the
default game), plus invariants that hold in every random game: islanders, ships, boat tokens and goods are
conserved, every listed legal action is legal, and a random game always reaches the end condition."""
import json

import pytest

from tablehub.games.base import Setup
from tablehub.games.suedsee.engine import BOAT_TOKENS, ISLANDERS, Deliver
from tablehub.games.tiles.playout import PlayoutStats, random_game
from tablehub.records import Record, parse_record, record_of, replay
from tablehub.session import Session
from tests.conformance import fingerprint

CASES = [(2 + seed % 4, seed, {"takeback": "any"} if seed % 2 else {}) for seed in range(100, 108)]


@pytest.mark.parametrize("players,seed,opts", CASES)
def test_replay_and_record_round_trip(players, seed, opts):
    st = PlayoutStats()
    g = random_game("suedsee", players, seed, opts, stats=st)
    assert g.finished and st.placements + st.discards == 72
    again = replay(Record(g.setup, [a.to_dict() for a in st.actions]), finish=True)
    assert fingerprint(again) == fingerprint(g)
    back = replay(parse_record(json.loads(json.dumps(record_of(g).to_dict())), "roundtrip"), finish=True)
    assert fingerprint(back) == fingerprint(g)


@pytest.mark.parametrize("players,seed,opts", CASES)
def test_components_are_conserved_in_random_games(players, seed, opts):
    g = random_game("suedsee", players, seed, opts, finish=False)
    assert g.game_over, "the last tile is down or the last ship is taken"
    res = g.resources()
    for i, p in enumerate(g.players):
        r = res["players"][p]
        assert r["islanders_in_supply"] + r["islanders_on_board"] == ISLANDERS
    taken = sum(len(t) for t in g.taken)
    assert len(g.display) + len(g.pile) + taken == 24 and len(g.display) == min(4, 24 - taken)
    assert g.boats_left + len(g.covered) == BOAT_TOKENS
    gained = sum(int(e.reason.split()[1]) for e in g.score_log if e.reason.startswith("gains "))
    paid = 0
    for a in g.history:
        if isinstance(a, Deliver):
            paid += sum(a.goods.values())
    held = sum(r["goods"] for r in res["players"].values())
    assert gained == held + paid, "every good held or paid was gained in an explained event"
    g.finish()
    for p in g.players:
        r = g.resources()["players"][p]
        assert g.scores()[p] == r["ship_points"] + r["goods"] // 3


@pytest.mark.parametrize("seed", [3, 4])
def test_every_listed_action_is_legal_and_refusals_change_nothing(seed):
    st = PlayoutStats()
    g0 = random_game("suedsee", 3, seed, stats=st, finish=False)
    from tablehub.games import new_game

    g = new_game(g0.setup)
    checked = 0
    for a in st.actions:
        for option in g.legal_actions():
            assert g.validate(option) is None, (option, g.validate(option))
            checked += 1
        g.apply(a)
    assert checked > 200


@pytest.mark.parametrize("seed", [5])
def test_undo_round_trip_with_the_takeback_option(seed, store):
    st = PlayoutStats()
    g = random_game("suedsee", 2, seed, {"takeback": "any"}, stats=st, finish=False)
    actions = [a.to_dict() for a in st.actions][:80]
    s = Session.create(store, Setup("suedsee", g.players, (), {"takeback": "any"}))
    states = [fingerprint(s.game)]
    for a in actions:
        s.submit(a, source="test")
        states.append(fingerprint(s.game))
    for k in range(len(actions), len(actions) - 20, -1):
        s.undo_action()
        assert fingerprint(s.game) == states[k - 1]
