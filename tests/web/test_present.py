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
