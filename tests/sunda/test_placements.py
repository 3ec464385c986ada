"""Legal-placement counts on fixed positions, worked out by hand from the lattice."""
from __future__ import annotations

from tablehub.games.base import Setup
from tablehub.games.sunda.engine import Sunda

from tablehub.games.sunda.drawing import pieces, play

SEA = {"id": "sea", "sides": "WWW WWW WWW WWW"}
SEA2 = {"id": "sea2", "sides": "WWW WWW WWW WWW"}
LAND = {"id": "land", "sides": "LLL LLL LLL LLL"}
ONE_SEA_SIDE = {"id": "bay", "sides": "WWW LLL LLL LLL"}


def game_with(extra, players=("Ana",)):
    return Sunda(Setup("sunda", players, options={"pieces": pieces(["."], extra)}))


def test_the_first_piece_has_its_six_turns_at_the_origin():
    g = game_with([SEA, LAND])
    assert g.legal_placements("land") == [(0, 0, t) for t in range(6)]


def test_next_to_one_piece_there_are_16_positions():
    # 4 sides, each faces one triangle; each has 2 other neighbours (2 rhombi), each rhombus 2 anchors
    g = game_with([SEA, SEA2, LAND, ONE_SEA_SIDE])
    g.apply(g.parse_action({"type": "place_piece", "piece": "sea", "q": 0, "r": 0, "turn": 0}))
    assert len(g.legal_placements("sea2")) == 16
    assert g.legal_placements("land") == [], "land cannot meet water along a side"
    # of the 4 placements per facing triangle, exactly one puts side 0 on the shared side
    assert len(g.legal_placements("bay")) == 4


def test_round_a_closed_three_by_three_island_only_sea_fits_48_ways():
    g = play(["....", ".##.", ".##.", "...."], extra=[SEA, LAND])
    # 12 outer sides, none of their facing triangles next to another: 12 x 2 x 2
    assert len(g.legal_placements("sea")) == 48
    assert g.legal_placements("land") == []
    assert g.legal_placements("c0_0") == [], "a piece already laid is not in the pool"
