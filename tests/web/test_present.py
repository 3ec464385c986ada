"""What the page says about actions, colours and results."""
from __future__ import annotations

from tablehub.games import new_game
from tablehub.games.base import Setup
from web.present import action_forms, colour_css, describe_action, player_colours, results


def test_actions_read_as_short_sentences():
    assert describe_action({"type": "place_tile", "tile": "ds017", "x": 1, "y": -2, "rotation": 90}) == \
        "Place tile ds017 at (1, -2), turned 90°"
    assert describe_action({"type": "place_figure", "region": "M:EW"}) == "Place figure region M:EW"
    assert describe_action({"type": "deliver", "ship": 3, "goods": {"fish": 2}, "confidence": 0.4}) == \
        "Deliver ship 3 goods fish 2"
    assert describe_action({"type": "bid", "amount": 4, "all_in": True}) == "Bid amount 4 all in yes"


def test_colours_always_have_a_safe_css_value():
    assert colour_css("Blue") == "#0072b2"
    assert colour_css("teal") == "teal"
    assert colour_css("url(javascript:x)") == "#8c8c8c", "anything odd becomes grey, never markup"


def test_players_without_colours_get_table_colours_in_order():
    assert player_colours(("A", "B"), ()) == ["red", "blue"]
    assert player_colours(("A", "B"), ("green", "black")) == ["green", "black"]


def test_forms_list_fields_with_kinds_and_player_choices():
    game = new_game(Setup("tahiti", ("Ana", "Ben")))
    forms = {f["type"]: f for f in action_forms(game)}
    bid = {f["name"]: f for f in forms["bid"]["fields"]}
    assert bid["player"]["choices"] == ["Ana", "Ben"] and bid["player"]["optional"]
    assert any(f["kind"] == "int" for f in bid.values())


def test_results_share_ranks_on_ties_and_explain_every_point():
    game = new_game(Setup("neuesland", ("Ana", "Ben", "Cy")))
    game.award("Ana", 5, "plain of 5 tiles")
    game.award("Ben", 5, "sea with 5 towns")
    game.award("Cy", 2, "mountain", kind="final")
    out = results(game)
    assert [(r["player"], r["rank"], r["winner"]) for r in out] == [("Ana", 1, True), ("Ben", 1, True), ("Cy", 3, False)]
    assert out[2]["at_end"] == 2 and out[2]["events"][0]["reason"] == "mountain"


def test_tile_actions_speak_table_words_and_keep_the_ids_in_small_print():
    from web.present import action_code

    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    lay = {"type": "place_tile", "tile": "ds054", "x": 0, "y": -1, "rotation": 90, "source": "camera"}
    words = describe_action(lay, game)
    assert words.startswith("Lay the tile with two plains, a sea and two towns north of the start tile")
    assert "ds054" not in words and "(0, -1)" not in words, "no ids or coordinates in the words"
    assert action_code(lay, game) == "place_tile ds054 (0, -1) 90°"
    assert describe_action(lay) == "Place tile ds054 at (0, -1), turned 90°", "without a game: the fields"


def test_tahiti_cells_and_track_spaces_in_table_words():
    game = new_game(Setup("tahiti", ("Ana", "Ben")))
    space = game.board.track[2]
    assert describe_action({"type": "place_sailboat", "space": 2}, game) == \
        f"Put the sailboat on the {space.letter} space with the {space.pearl} pearl"
    assert describe_action({"type": "place_boat", "cell": "BE", "pearl": "black"}, game) == \
        "Place a boat with a black pearl in row B, column E (north-east of Tahiti)"


def test_the_history_in_the_snapshot_has_words_and_codes(tmp_path):
    from tablehub.store import Store
    from web.hub import Hub

    hub = Hub(Store(tmp_path / "games.sqlite"), pin="1234")
    hub.start(Setup("neuesland", ("Ana", "Ben")))
    hub.submit({"type": "place_tile", "tile": "ds083", "x": 0, "y": 1, "rotation": 0}, source="phone")
    entry = hub.snapshot()["game"]["history"][-1]
    assert entry["label"] == "Lay the tile with sea all round south of the start tile"
    assert entry["code"] == "place_tile ds083 (0, 1) 0°"
