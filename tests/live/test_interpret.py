"""The tracker's reading of a table change, against the real Neues Land engine."""
from __future__ import annotations

import pytest

from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.tracking.interpret import interpret
from tablehub.tracking.table import FigureSeen, TableSeen, TileSeen, expected_from_view


@pytest.fixture()
def game():
    return new_game(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))


def table_with(game, *tiles: TileSeen, figures=()) -> TableSeen:
    base = expected_from_view(game.view())
    return TableSeen({**base.tiles, **{t.cell: t for t in tiles}}, tuple(base.figures) + tuple(figures))


def test_a_confident_legal_tile_is_pending(game):
    reading = interpret(game, expected_from_view(game.view()), table_with(game, TileSeen(0, 1, "ds040", 270, 0.95)))
    assert reading.state == "pending"
    assert reading.actions == [{"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}]


def test_a_tile_that_does_not_fit_is_flagged_with_the_rule(game):
    reading = interpret(game, expected_from_view(game.view()), table_with(game, TileSeen(0, 1, "ds040", 0, 0.95)))
    assert reading.state == "illegal"
    assert reading.cell == (0, 1)
    assert "does not continue" in reading.reason


def test_an_unsure_read_offers_the_legal_choices_best_first(game):
    seen = table_with(game, TileSeen(0, 1, "ds040", 270, 0.55, alternatives=(("ds040", 0, 0.5), ("ds041", 270, 0.4))))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "unsure"
    offered = [dict(c.action) for c in reading.choices]
    assert offered[0] == {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}
    assert all(game.validate(game.parse_action(a)) is None for a in offered), "only legal reads are offered"


def test_a_confident_but_illegal_top_read_with_a_legal_runner_up_is_asked_not_played(game):
    seen = table_with(game, TileSeen(0, 1, "ds040", 0, 0.9, alternatives=(("ds040", 270, 0.85),)))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "unsure"
    assert [c.action["rotation"] for c in reading.choices] == [270]


def test_a_nudged_tile_is_not_a_move(game):
    game.apply(game.parse_action({"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}))
    expected = expected_from_view(game.view())
    nudged = TableSeen({c: TileSeen(c[0], c[1], t.tile, t.rotation, 0.6) for c, t in expected.tiles.items()})
    assert interpret(game, expected, nudged).state == "same"


def test_a_lifted_tile_is_waited_for_and_is_not_a_move(game):
    game.apply(game.parse_action({"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}))
    expected = expected_from_view(game.view())
    lifted = TableSeen({(0, 0): expected.tiles[(0, 0)]})
    reading = interpret(game, expected, lifted)
    assert reading.state == "waiting" and reading.actions == []
    assert "0,1" in reading.reason


def test_two_new_tiles_are_flagged(game):
    seen = table_with(game, TileSeen(0, 1, "ds040", 270), TileSeen(1, 0, "ds040", 0))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "illegal" and "one tile per turn" in reading.reason


def test_a_figure_on_the_new_tile_follows_the_tile(game):
    region = game.catalog.tile("ds040").regions[0].id
    seen = table_with(game, TileSeen(0, 1, "ds040", 270), figures=[FigureSeen(0, 1, "red", region)])
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "pending"
    assert reading.actions[1] == {"type": "place_figure", "region": region}


def test_a_figure_of_the_wrong_colour_is_flagged(game):
    region = game.catalog.tile("ds040").regions[0].id
    seen = table_with(game, TileSeen(0, 1, "ds040", 270), figures=[FigureSeen(0, 1, "blue", region)])
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "illegal" and "Ana's turn" in reading.reason


def test_a_figure_taken_off_after_the_tile_scores_it(game):
    region = game.catalog.tile("ds040").regions[0].id
    for a in ({"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270},
              {"type": "place_figure", "region": region},
              {"type": "place_tile", "tile": "ds041", "x": 1, "y": 0, "rotation": 0}):
        assert game.validate(game.parse_action(a)) is None, a
        game.apply(game.parse_action(a))
    game_state = expected_from_view(game.view())
    # Ana's turn again: she lays a tile and takes her figure off to score it
    nxt = next(p for p in game.legal_placements("ds042"))
    seen = TableSeen({**game_state.tiles, (nxt.x, nxt.y): TileSeen(nxt.x, nxt.y, "ds042", nxt.rotation)}, ())
    reading = interpret(game, game_state, seen)
    assert reading.state == "pending"
    assert reading.actions[-1] == {"type": "score_figure", "x": 0, "y": 1, "region": region}


def test_a_figure_taken_off_before_the_tile_is_waited_for(game):
    region = game.catalog.tile("ds040").regions[0].id
    for a in ({"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270},
              {"type": "place_figure", "region": region},
              {"type": "place_tile", "tile": "ds041", "x": 1, "y": 0, "rotation": 0}):
        game.apply(game.parse_action(a))
    state = expected_from_view(game.view())
    reading = interpret(game, state, TableSeen(state.tiles, ()))
    # Ben has placed his tile this turn, so a red figure vanishing is Ana's, not his to score
    assert reading.state in ("same", "waiting") and reading.actions == []


# ---- confidences for reads grouped by what they mean to the rules (vision's raw match scores)

def calibrate(best: float, second: float) -> float:
    recognize = pytest.importorskip("vision.recognize")
    return recognize.TrackerRecognizer.confidence(best, second)


def scored_read(*scores: tuple[str, int, float], vision_confidence: float) -> TileSeen:
    tile, rotation, _ = scores[0]
    return TileSeen(0, 1, tile, rotation, vision_confidence, separated=True, scores=scores, calibrate=calibrate)


def test_twins_with_different_pictures_are_no_rivals_to_each_other(game):
    from tablehub.tracking.interpret import appearance

    assert appearance(game, "ds022", 0) == appearance(game, "ds023", 0) != appearance(game, "ds024", 0)
    # vision weighed ds022 against ds023 (another picture) and was unsure: 0.5
    seen = table_with(game, scored_read(("ds022", 0, 0.95), ("ds023", 0, 0.949), ("ds024", 0, 0.80),
                                        vision_confidence=0.5))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "pending", reading.describe()
    assert reading.actions[0]["tile"] in {"ds022", "ds023"}


def test_near_equal_reads_that_mean_different_things_stay_unsure(game):
    from tablehub.tracking.interpret import appearance

    assert appearance(game, "ds022", 0) != appearance(game, "ds024", 0)
    seen = table_with(game, scored_read(("ds022", 0, 0.95), ("ds023", 0, 0.949), ("ds024", 0, 0.945),
                                        vision_confidence=0.5))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "unsure", "a rival with another meaning a hair behind must go to the phone"
    assert {c.action["tile"] for c in reading.choices} >= {"ds024"}


def test_when_every_listed_read_is_a_twin_the_last_listed_score_bounds_the_rival(game):
    seen = table_with(game, scored_read(("ds022", 0, 0.95), ("ds023", 0, 0.949), vision_confidence=0.5))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "unsure", "an unlisted rival may score as high as the last listed read"


def test_a_figure_on_a_look_alike_is_named_on_the_logged_tile(game):
    from tablehub.tracking.interpret import appearance, region_as

    assert appearance(game, "ds026", 270) == appearance(game, "ds025", 90)
    assert region_as(game, "M:W", ("ds026", 270), ("ds025", 90)) == "M:E"
    assert region_as(game, "S:NES", ("ds026", 270), ("ds025", 90)) == "S:NSW"


def test_a_figure_put_on_a_tile_logged_as_its_look_alike_is_placed_on_the_logged_tile(game):
    game.apply(game.parse_action({"type": "place_tile", "tile": "ds025", "x": 0, "y": 1, "rotation": 90}))
    expected = expected_from_view(game.view())
    seen = TableSeen({**expected.tiles, (0, 1): TileSeen(0, 1, "ds026", 270, 0.9)},  # vision reads the twin
                     (FigureSeen(0, 1, "red", "M:W"),))
    reading = interpret(game, expected, seen)
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_figure", "region": "M:E"}]


# ---- cells the camera does not see (beyond the edge of the picture)

def _play(game, *actions):
    for a in actions:
        assert game.validate(game.parse_action(a)) is None, a
        game.apply(game.parse_action(a))


def test_a_tile_out_of_view_is_not_lifted_and_the_rest_of_the_table_is_read(game):
    region = game.catalog.tile("ds040").regions[0].id
    _play(game, {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270},
          {"type": "place_figure", "region": region})
    committed = expected_from_view(game.view())
    view = frozenset({(0, 0), (1, 0), (-1, 0), (0, -1)})   # (0, 1) and its figure are beyond the picture's edge
    seen = TableSeen({(0, 0): committed.tiles[(0, 0)]}, (), view)
    reading = interpret(game, committed, seen)
    assert reading.state == "same", reading.describe()
    assert reading.notes == ["tile at 0,1 is outside the camera's view: enter what is played there on the phone"]
    # Ben lays a tile in view: it is read, and Ana's figure out of view is neither scored nor missed
    nxt = next(p for p in game.legal_placements("ds041") if (p.x, p.y) in view)
    seen = TableSeen({**seen.tiles, (nxt.x, nxt.y): TileSeen(nxt.x, nxt.y, "ds041", nxt.rotation)}, (), view)
    reading = interpret(game, committed, seen)
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_tile", "tile": "ds041", "x": nxt.x, "y": nxt.y,
                                "rotation": nxt.rotation}]


def test_a_tile_lifted_inside_the_view_is_still_waited_for(game):
    _play(game, {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270})
    committed = expected_from_view(game.view())
    seen = TableSeen({(0, 0): committed.tiles[(0, 0)]}, (), frozenset({(0, 0), (0, 1)}))
    reading = interpret(game, committed, seen)
    assert reading.state == "waiting" and "0,1 is lifted or hidden" in reading.reason


# ---- one figure step per turn: a figure the camera misses is not a second one

def _ana_with_a_figure_and_ben_after(game) -> str:
    region = game.catalog.tile("ds040").regions[0].id
    _play(game, {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270},
          {"type": "place_figure", "region": region},
          {"type": "place_tile", "tile": "ds041", "x": 1, "y": 0, "rotation": 0})
    return region


def test_a_figure_missed_while_this_turns_figure_step_is_taken_is_a_note_not_an_illegal_move(game):
    """The e2e log showed 'illegal: Ben has already used this turn's figure step' after the phone logged a
    turn: the camera saw the new figure and also missed an older one of the same player, and read the
    miss as a second figure step."""
    old_region = _ana_with_a_figure_and_ben_after(game)
    place = next(p for p in game.legal_placements("ds042"))
    new_region = next(r.id for r in game.catalog.tile("ds042").regions if r.terrain in game.figure_roles)
    committed = expected_from_view(game.view())
    tiles = {**committed.tiles, (place.x, place.y): TileSeen(place.x, place.y, "ds042", place.rotation)}
    # Ana's tile with her figure on it; her figure at 0,1 is not seen (a hand's shadow, a misread)
    seen = TableSeen(tiles, (FigureSeen(place.x, place.y, "red", new_region),))
    reading = interpret(game, committed, seen)
    assert reading.state == "pending", reading.describe()
    assert reading.actions[-1] == {"type": "place_figure", "region": new_region}
    assert any("figure at 0,1 is not seen" in n for n in reading.notes), reading.notes
    assert (0, 1, old_region) not in {(a.get("x"), a.get("y"), a.get("region")) for a in reading.actions}
    # logged (NEXT): the same table read again is no new move, not an illegal second figure step
    for a in reading.actions:
        game.apply(game.parse_action(a))
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "same", reading.describe()


# ---- a figure on a tile the phone logged differently from the camera's read

def test_a_figures_region_is_named_from_its_place_on_the_tile_the_log_holds(game):
    _play(game, {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270})
    committed = expected_from_view(game.view())
    asked = []

    def region_at(tile, rotation, u, v):
        asked.append((tile, rotation, u, v))
        return "S:E" if u > 0.7 else "M:NSW"

    # the camera read ds013 there (the phone logged ds040) and named the figure's region on ds013; it
    # stands at (0.9, 0.5) of the tile: on ds040's sea
    seen = TableSeen({**committed.tiles, (0, 1): TileSeen(0, 1, "ds013", 0, 0.9)},
                     (FigureSeen(0, 1, "red", "G:N", at=(0.9, 0.5)),), None, region_at)
    reading = interpret(game, committed, seen)
    assert asked == [("ds040", 270, 0.9, 0.5)]
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_figure", "region": "S:E"}]
