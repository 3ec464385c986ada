"""Island completion, lakes and nodes on hand-drawn positions (tablehub/games/sunda/drawing.py)."""
from __future__ import annotations

from tablehub.games.base import Setup
from tablehub.games.sunda.engine import Sunda
from tablehub.games.sunda.lattice import corners, placements_covering, side_neighbours, triangle_of, triangles, \
    triangles_at

from tablehub.games.sunda.drawing import play

LAKE_WITH_ISLET = [".........",
                   ".#######.",
                   ".#.....#.",
                   ".#.##..#.",
                   ".#.....#.",
                   ".#.....#.",
                   ".#######.",
                   "........."]


def islands(game):
    return {tuple(i.label): i for i in game.board.analyse().islands.values()}


def test_a_closed_coast_makes_a_complete_island_and_an_open_one_does_not():
    rows = ["....", ".##.", ".##.", "...."]
    done = play(rows)
    (isl,) = islands(done).values()
    assert isl.complete and isl.depth == 1
    part = play(rows, skip={"c2_2"})
    (isl,) = islands(part).values()
    assert not isl.complete, "the missing corner piece would add land"


def test_a_small_incomplete_island_inside_a_lake_is_not_land_and_the_ring_is_still_complete():
    game = play(LAKE_WITH_ISLET, skip={"c4_3"}, claim=[(3, 3), (1, 1)])
    found = islands(game)
    ring, islet = found[(1, 1)], found[(3, 3)]
    assert ring.complete and not ring.in_lake
    assert islet.in_lake and not islet.complete
    game.finish()
    reasons = {e.reason: e.points for e in game.score_log}
    assert any("inside a lake is not land" in r and p == 0 for r, p in reasons.items()), reasons
    assert any("pawn at 1,1 on the complete island" in r and p == 2 for r, p in reasons.items()), reasons


def test_a_complete_islet_inside_a_lake_counts():
    game = play(LAKE_WITH_ISLET, claim=[(3, 3)])
    islet = islands(game)[(3, 3)]
    assert islet.complete and islet.in_lake and islet.depth == 3
    game.finish()
    assert [e.points for e in game.score_log] == [2]


def test_the_lake_belongs_to_the_innermost_island_and_its_nodes_turn_fresh_when_the_ring_closes():
    rows = ["......", ".####.", ".#..#.", ".#..#.", ".####.", "......"]
    game = play(rows, skip={"c3_3", "c4_4"}, options={"water_rights": True})
    assert game.fresh_seen == set(), "open to the sea through the missing piece"
    game.apply(game.parse_action({"type": "place_piece", "piece": "c3_3", "q": 3, "r": 3}))
    assert sorted(game.formed_fresh) == [(2, 2), (2, 3), (3, 2), (3, 3)]
    assert game.island_at((2, 2)) == game.board.island_root((1, 1))


def test_a_lone_empty_triangle_never_counts_as_room_for_land():
    game = Sunda(Setup("sunda", ("Ana",)))
    board = game.board
    land = next(p for p in game.set.pieces if p.land == 12)
    # five 60-degree corners round 0,0 and a piece closing the sixth sector's outside
    for turn in range(5):
        board.place(land, 0, 0, turn)
    hole = triangles(0, 0, 5)[0]
    assert board.coverable(hole)
    outer = triangle_of((1, -1), (1, 0), (2, -1))   # beyond the hole's outer side
    n = next(n for n, _ in side_neighbours(outer) if n != hole and n not in board.tri)
    board.place(land, *placements_covering(outer, n)[0])
    assert hole not in board.tri and not board.coverable(hole)


def test_nodes_form_from_three_to_six_pieces():
    game = Sunda(Setup("sunda", ("Ana",)))
    land = next(p for p in game.set.pieces if p.land == 12)
    board = game.board
    # 3 x 120: obtuse corners round 1,0
    for pos in ((0, 0, 0), (2, -1, 2)):
        assert board.place(land, *pos) == []
    assert [n.point for n in board.place(land, 1, 1, 4)] == [(1, 0)]
    # 6 x 60: acute corners round 10,10
    formed = [board.place(land, 10, 10, t) for t in range(6)]
    assert [len(f) for f in formed] == [0, 0, 0, 0, 0, 1] and formed[-1][0].point == (10, 10)
    assert formed[-1][0].kind == "land"
    # every triangle round each node is covered
    for pt in ((1, 0), (10, 10)):
        assert all(t in board.tri for t in triangles_at(pt))


def test_rhombus_corners_are_clockwise_with_acute_corners_at_c0_and_c2():
    for turn in range(6):
        cs = corners(0, 0, turn)
        assert len(set(cs)) == 4
        assert cs[2] == (cs[1][0] + cs[3][0], cs[1][1] + cs[3][1])  # a parallelogram
        assert len(set(triangles(0, 0, turn))) == 2


def test_fresh_water_found_near_each_piece_matches_the_whole_layout_analysis():
    """The engine finds lakes by a search from each new piece; after every placement of random
    games, the water nodes it has called fresh are exactly the water nodes the whole-layout
    analysis puts inside a lake."""
    from tablehub.games.sunda.actions import PlacePiece
    from tablehub.games.sunda.playout import random_game

    games = []   # random games that made lakes, one at least with a fresh-water node
    for seed in range(80):
        done = random_game(2, seed, {"water_rights": True}, finish=False)
        if done.fresh_seen or (len(games) < 2 and done.board.analyse().enclosed):
            games.append(done)
        if len(games) >= 3 and any(d.fresh_seen for d in games):
            break
    checked = fresh = lakes = 0
    for done in games:
        g = Sunda(done.setup)
        for action in done.history:
            g.apply(action)
            if not isinstance(action, PlacePiece):
                continue
            an = g.board.analyse()
            inside = {pt for pt, n in g.board.nodes.items() if n.kind == "water"
                      and an.water_comp.get(g.board.find(n.region)) in an.enclosed}
            assert g.fresh_seen == inside, len(g.history)
            checked += 1
            fresh = max(fresh, len(inside))
            lakes = max(lakes, len(an.enclosed))
    assert checked > 300 and lakes >= 1 and fresh > 0, "the random games made lakes"
