"""Figure actions read in table words: the region's terrain, its role and the sides of the table it
touches once the tile is turned (the catalog's region ids are in the tile's unturned frame)."""
from __future__ import annotations

import pytest

from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.games.tiles.game import table_sides


def test_table_sides_turn_with_the_tile():
    west = frozenset({9, 10, 11})
    assert table_sides(west, 0) == "west side"
    assert table_sides(west, 1) == "north side", "a quarter turn clockwise brings the west side north"
    assert table_sides(west | {0}, 2) == "east and south sides"
    assert table_sides(frozenset({0, 3, 6}), 0) == "north, east and south sides"
    assert table_sides(frozenset(range(12)), 3) == "all sides"
    assert table_sides(frozenset(), 0) == "middle of the tile"


def _first_west_region_move(game):
    """A legal first placement turned 90 of a tile with a figure region on its west side only."""
    for tile in game.catalog.tiles:
        regions = [r for r in tile.regions if r.sides == "W" and r.terrain in game.figure_roles]
        if tile.start or not regions:
            continue
        for place in game.legal_actions(tile=tile.id):
            if getattr(place, "rotation", None) == 90:
                return place, regions[0]
    raise AssertionError("no tile of the set has a west-only figure region that can be laid first turned 90")


@pytest.mark.parametrize("name", ["neuesland", "suedsee"])
def test_a_figure_is_described_on_the_turned_tile(name):
    game = new_game(Setup(name, ("Ana", "Ben")))
    while (steps := list(game.legal_actions())) and steps[0].to_dict()["type"] != "place_tile":
        game.apply(steps[0])  # what comes before the first tile (Südsee: the ships turned face up)
    place, region = _first_west_region_move(game)
    game.apply(place)
    terrain = game.catalog.terrains[region.terrain]
    role = game.figure_roles[region.terrain]
    words = game.describe({"type": "place_figure", "region": region.id})
    assert words == f"Place figure: {role} on the {terrain}, north side"
    assert game.describe({"type": "place_figure", "region": "nowhere"}) is None, "unknown region: generic words"
    assert game.describe({"type": "place_tile", "tile": place.tile, "x": 0, "y": 1, "rotation": 0}) is None
    words = game.describe({"type": game.figure_removal, "x": place.x, "y": place.y, "region": region.id})
    assert words.endswith(f"{role} on the {terrain}, north side, at ({place.x}, {place.y})")
