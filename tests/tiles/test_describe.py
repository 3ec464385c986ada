"""Figure actions read in table words: the region's terrain, its role and the sides of the table it
touches once the tile is turned (the catalog's region ids are in the tile's unturned frame)."""
from __future__ import annotations

import pytest

from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.games.neuesland import ScoreFigure
from tablehub.games.tiles.game import PlaceFigure, PlaceTile, table_sides


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
    role = game.figure_roles[region.terrain]
    noun = game.words.region_noun(region)
    article = "an" if role[0] in "aeiou" else "a"
    words = game.describe({"type": "place_figure", "region": region.id})
    assert words == f"Place {article} {role} on the {noun} in the north", "a west region turned 90 lies north"
    assert region.id not in words
    assert game.describe({"type": "place_figure", "region": "nowhere"}) is None, "unknown region: generic words"
    words = game.describe({"type": game.figure_removal.type, "x": place.x, "y": place.y, "region": region.id})
    assert f"the {role} on the {noun} in the north of the tile with " in words
    assert words.endswith(f"({game.cell_words((place.x, place.y))})") and place.tile not in words


def test_where_a_region_lies_on_the_turned_tile():
    from tablehub.games.tiles.words import where_on_tile
    assert where_on_tile({0, 1, 2, 3, 4, 5}, 0) == "in the north-east"
    assert where_on_tile({0, 1, 2, 3, 4, 5}, 2) == "in the south-west"
    assert where_on_tile({3, 4, 5, 9, 10, 11}, 1) == "from north to south"
    assert where_on_tile({11, 3}, 0) == "in the north", "a Südsee sea between a bridge and the north side"
    assert where_on_tile(set(range(12)), 3) == "all round"


def test_tiles_are_named_by_what_is_on_them():
    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    name = game.tile_words
    assert name("ds001") == "the start tile"
    assert name("ds054") == "the tile with two plains, a sea and two towns"
    assert name("ds081") == "the tile with a lake, two plains and two mountains"
    assert name("ds050") == "the tile with two bays, a plain and a town"
    assert name("ds083") == "the tile with sea all round"
    south = new_game(Setup("suedsee", ("Ana", "Ben"))).tile_words
    assert south("A2") == "the tile with a bridge, a sea, a market, two fish and a fishing boat"
    assert south("X") == "the tile with four bridges, four seas and two shells"


def test_a_laid_tile_is_placed_by_what_is_around_it():
    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    lay = {"type": "place_tile", "tile": "ds083", "x": 0, "y": 1, "rotation": 0}
    assert game.describe(lay) == "Lay the tile with sea all round south of the start tile", \
        "an all-sea tile looks the same every way: no sides named"
    game.apply(PlaceTile("ds083", 0, 1, 0))
    assert game.describe(lay) == "Lay the tile with sea all round south of the start tile", "the same words after"
    words = game.describe({"type": "place_tile", "tile": "ds054", "x": 0, "y": 2, "rotation": 90})
    assert words.startswith("Lay the tile with two plains, a sea and two towns south of the tile with sea all round (")
    assert "ds" not in words
    assert game.cell_words((3, -2)) == "3 east and 2 north of the start tile"
    assert game.code(lay) == "place_tile ds083 (0, 1) 0°"


def test_refusals_speak_table_words_with_the_ids_after_them():
    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    reason = game.validate(PlaceTile("ds040", 0, 1, 0))
    assert reason.startswith("The tile with a bay, a mountain and a town cannot lie south of the start tile this way: "
                             "its north side (mountain) does not continue the south side of the start tile (sea)")
    assert reason.endswith("(ds040; ds001 at 0, 0)")
    game.apply(PlaceTile("ds017", 1, 0, 0))
    reason = game.validate(PlaceFigure("S:S"))
    assert reason.startswith("the tile just laid has no such area")
    game.apply(PlaceFigure("G:S"))
    game.apply(PlaceTile("ds083", 0, 1, 0))  # Ben's turn: Ana's explorer is not his to score
    assert game.validate(ScoreFigure(1, 0, "G:S")) == (
        "no figure of Ben on the plain in the south of the tile with a plain and three mountains (east of the "
        "start tile) (region G:S of ds017 at 1, 0)")


@pytest.mark.parametrize("words, message", [
    ({"shapes": {"Q": {"inland": "lake"}}}, "words: shapes names terrain 'Q', which is not one of G, M, S"),
    ({"symbols": {"fish": "fish"}}, "words.symbols.fish: expected [singular, plural]"),
    ({"colour": 1}, "words: unknown field 'colour' (expected: boat, shapes, start, symbols, town)"),
])
def test_a_catalog_with_bad_words_gets_one_clear_line(words, message):
    import json
    from pathlib import Path

    from tablehub.games.tiles.catalog import CatalogError, build_catalog

    data = json.loads((Path(__file__).parents[2] / "tablehub/games/neuesland/tiles.json").read_text())
    with pytest.raises(CatalogError, match="^mine.json: " + message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        build_catalog(dict(data, words=words), "mine.json")


def test_the_cameras_reading_is_said_in_table_words_when_the_game_is_at_hand():
    """The tracker's commit line ("Ana: ...") once read "ds050 at 4,6 turned 0; figure off S:NE"."""
    from tablehub.tracking.interpret import Reading

    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    reading = Reading("pending", actions=[{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0},
                                          {"type": "place_figure", "region": "G:S"}])
    assert reading.describe(game) == ("pending: Lay the tile with a plain and three mountains east of the start "
                                      "tile (mountain north, east and west, plain south); Place an explorer on the "
                                      "plain in the south")
    assert len(game.history) == 0, "the words are read on a copy"
    assert reading.describe() == "pending: place_tile ds017 (1, 0) 0°; place_figure G:S", \
        "logs without a game: the record's fields (tracking names no game's actions)"
