"""Südsee rules beyond the worked examples: placement reasons, legal-placement counts, the islander step and
its end, deliveries, market awards, refusals that change nothing, the end of the game."""
import json

import pytest

from tablehub.games.base import IllegalAction, Setup
from tablehub.games.suedsee.engine import ChooseShip, Deliver, RevealShip, SkipIslander, Suedsee, TakeBack
from tablehub.games.tiles.game import DiscardTile, PlaceFigure, PlaceTile

# ---- laying tiles (the rule book's placement pictures, described)


def test_the_bridge_and_the_sea_continue(table):
    assert table.game.validate(PlaceTile("U1", 1, 0, 90)) is None


def test_the_island_continues(table):
    assert table.game.validate(PlaceTile("E1", 0, -1, 180)) is None


def test_the_left_side_continues_the_island_and_the_bottom_continues_the_sea(table):
    table.play(("N1", 0, -1, 180), None, ("U1", 1, 0, 90), None)
    assert table.game.validate(PlaceTile("E1", 1, -1, 270)) is None


def test_a_tile_that_does_not_continue_the_island_is_refused_with_the_sides_named(table):
    table.play(("N1", 0, -1, 180), None, ("U1", 1, 0, 90), None)
    reason = table.refuses(PlaceTile("E1", 1, -1, 0), "edge_mismatch")
    assert reason.endswith("its west side (sea) does not continue the east side of the tile with an island, a sea, "
                           "a banana and a fish (island) (E1; N1 at 0, -1)")


def test_a_corner_is_not_a_connection_and_a_cell_holds_one_tile(table):
    assert "corners do not count" in table.refuses(PlaceTile("B1", 1, 1), "not_adjacent")
    assert table.refuses(PlaceTile("B1", 0, 0), "occupied") == \
        "The start tile already lies there (cell 0, 0 already holds tile start)"
    assert "0, 90, 180 or 270" in table.refuses(PlaceTile("B1", 0, 1, 45), "bad_rotation")
    assert "no such tile" in table.refuses(PlaceTile("Z9", 0, 1), "unknown_tile")


@pytest.mark.parametrize("tile,count", [("B1", 1), ("C", 1), ("U1", 3), ("X", 4), ("E1", 4), ("V1", 6)])
def test_legal_placements_next_to_the_start_tile(table, tile, count):
    assert len(table.game.legal_placements(tile)) == count


def test_legal_placement_counts_on_the_final_example_board(make):
    from tablehub.scenario import load_scenario, run_scenario
    from pathlib import Path

    data = load_scenario(Path(__file__).parent / "scenarios" / "final_evaluation.json")
    data["actions"] = [a for a in data["actions"] if a["type"] != "finish"]
    data["expect"] = []
    g = run_scenario(data)
    counts = {t: len(g.legal_placements(t)) for t in ("B1", "C", "U1", "X", "E1", "V1")}
    assert counts == {"B1": 7, "C": 1, "U1": 12, "X": 10, "E1": 23, "V1": 24}
    assert len(g.legal_placements("X")) == 2 * 5, "X (2 distinct turns) ends the 5 open bridge ends"
    assert all(g.validate(p) is None for p in g.legal_placements("V1")), "every listed placement is legal"


def test_a_tile_that_fits_nowhere_is_discarded_only_then(table):
    assert "can be placed" in table.refuses(DiscardTile("C"), "discard_placeable")
    table.play(("E1", 0, -1, 180), None)  # the start's island is closed: C (island all round) fits nowhere now
    assert table.game.legal_actions("C") == [DiscardTile("C")]
    table.play(DiscardTile("C"))
    assert table.game.tiles_left() == 70 and table.game.current_player == "Blue", "Blue draws again"


# ---- the islander step


def test_an_islander_goes_only_on_the_new_tile_and_only_one_per_turn(table):
    table.play(("U1", 1, 0, 90), "B:NS")
    assert "already used" in table.refuses(PlaceFigure("S:W"), "one_figure_action")
    assert "comes after laying" in Suedsee.validate(Suedsee(Setup("suedsee", ("A", "B"))), PlaceFigure("S"))


def test_an_islander_needs_a_known_region_of_the_new_tile(table):
    table.play(("U1", 1, 0, 90))
    reason = table.refuses(PlaceFigure("K"), "unknown_region")
    assert reason == "the tile just laid has no such area (tile U1 has no region 'K' (its regions: B:NS, S:W, S:E))"


def test_the_islander_step_ends_by_itself_when_the_next_tile_comes(table):
    table.play(("G", 0, -1), "I:NS", ("D2", 0, -2, 180))
    assert table.has("Red")["bananas"] == 0, "Blue may still place an islander: nothing is evaluated yet"
    table.play(("U1", 1, 0, 90))
    assert table.has("Red")["bananas"] == 2 and table.has("Red")["islanders_in_supply"] == 4
    ev = table.game.score_log[-1]
    assert ev.turn == 2, "the evaluation belongs to Blue's turn, which completed the island"


def test_a_delivery_ends_the_islander_step_and_may_use_the_goods_it_brings(make):
    t = make(ships=("s07", "s14", "s02", "s01"))
    t.play(("G", 0, -1), "I:NS", ("V1", 1, -1, 270), None)
    t.give("Red", fish=2)
    t.play(("E1", 0, -2, 180))                   # completes Red's island: 2 bananas, still unevaluated
    assert t.game.validate(Deliver("s07")) is None, "the 2 bananas of the evaluation pay the ship"
    assert Deliver("s07", {"banana": 2, "fish": 2}) in t.game.legal_actions(), "listed during the islander step"
    t.play(Deliver("s07"))
    assert t.has("Red")["ships"] == ["s07"] and t.has("Red")["goods"] == 1
    assert "already used" in t.refuses(PlaceFigure("S"), "one_figure_action")


def test_take_back_refused_when_the_islander_is_not_yours_or_not_there(make):
    t = make(takeback="any")
    t.play(("U1", 1, 0, 90), "B:NS", ("U1", -1, 0, 90))
    assert "no islander of Blue" in t.refuses(TakeBack(1, 0, "B:NS"), "no_figure")
    assert t.refuses(TakeBack(5, 5, "S"), "no_tile") == "no tile lies 5 east and 5 south of the start tile (cell 5, 5)"
    t.play(None, ("E1", 0, -1, 180))
    t.play(TakeBack(1, 0, "B:NS"))
    assert t.has("Red")["islanders_in_supply"] == 4
    assert "already used" in t.refuses(PlaceFigure("I:N"), "one_figure_action")


def test_skip_ends_the_step_once(table):
    assert "after laying" in table.refuses(SkipIslander(), "figure_before_tile")
    table.play(("U1", 1, 0, 90), None)
    assert "already used" in table.refuses(SkipIslander(), "one_figure_action")


# ---- deliveries


def test_a_delivery_is_refused_with_the_reason_and_changes_nothing(make):
    t = make(ships=("s01", "s02", "s03", "s05"))
    assert "after laying its tile" in t.refuses(Deliver("s01"), "deliver_before_tile")
    t.play(("U1", 1, 0, 90), None)
    t.give("Red", shell=3, fish=4)
    assert t.refuses(Deliver("s01"), "cannot_pay") == ("Red cannot pay ship s01 (2 shells + 1 banana + 1 fish; "
                                                      "5 points): Red has 3 shells + 4 fish")
    assert "not face up" in t.refuses(Deliver("s04"), "ship_not_face_up")
    assert "no such ship" in t.refuses(Deliver("s99"), "unknown_ship")
    assert t.refuses(Deliver("s05"), "goods_unnamed") == ("name the goods paid to ship s05 (3 goods of one kind "
                                                         "+ 1 of another): Red could pay 3 shells + 1 fish or "
                                                         "1 shell + 3 fish")
    assert "it asks for 4 goods of one kind" in t.refuses(Deliver("s03", {"shell": 2, "fish": 2}), "wrong_goods")
    assert "it asks for 6 goods" in t.refuses(Deliver("s02", {"shell": 3, "fish": 4}), "wrong_goods")
    assert "unknown good" in t.refuses(Deliver("s02", {"gold": 6}), "bad_goods")
    assert "cannot pay" in t.refuses(Deliver("s03", {"shell": 4}), "cannot_pay")
    t.play(Deliver("s03", {"fish": 4}))
    assert t.has("Red")["fish"] == 0 and t.has("Red")["ship_points"] == 3
    assert "exactly one per turn" in t.refuses(Deliver("s05", {"shell": 3, "fish": 1}), "one_delivery")


def test_a_delivery_with_one_possible_payment_needs_no_goods_named(make):
    t = make(ships=("s03", "s02", "s01", "s05"))
    t.play(("U1", 1, 0, 90), None)
    t.give("Red", shell=4, fish=2)
    t.play(Deliver("s03"))
    assert t.has("Red")["shells"] == 0 and t.has("Red")["fish"] == 2


def test_deliveries_are_listed_one_per_way_to_pay(make):
    t = make(ships=("s03", "s13", "s01", "s05"))
    t.play(("U1", 1, 0, 90), None)
    t.give("Red", shell=4, banana=1)
    listed = t.game.legal_actions()
    assert Deliver("s03", {"shell": 4}) in listed
    assert Deliver("s05", {"shell": 3, "banana": 1}) in listed
    assert sum(1 for a in listed if a.ship == "s13") == 2, "any 3: 3 shells, or 2 shells + 1 banana"
    assert all(t.game.validate(a) is None for a in listed)


def test_after_a_delivery_the_display_is_refilled_by_an_explicit_reveal(make):
    t = make(ships=("s03", "s02", "s01", "s05"))
    t.play(("U1", 1, 0, 90), None)
    t.give("Red", shell=4)
    t.play(Deliver("s03"))
    assert t.game.must_choose and len(t.game.legal_actions()) == 20
    assert "reveal the ship" in t.refuses(PlaceTile("E1", 0, -1, 180), "reveal_first")
    assert "is not in the pile: Red has taken it" in t.refuses(RevealShip("s03"), "ship_not_in_pile")
    t.play(RevealShip("s24"))
    assert not t.game.must_choose
    assert "no ship is to be revealed" in t.refuses(RevealShip("s23"), "no_reveal_due")


def test_the_game_starts_with_four_ships_revealed(make):
    g = Suedsee(Setup("suedsee", ("Red", "Blue")))
    assert g.must_choose and g.resources()["table"]["ships_in_pile"] == 24
    with pytest.raises(IllegalAction, match="reveal the ship turned face up from the pile \\(0 of 4 face up"):
        g.apply(PlaceTile("U1", 1, 0, 90))


# ---- markets


def test_a_choice_is_refused_when_no_award_waits(table):
    assert "no market award" in table.refuses(ChooseShip("s10"), "no_choice_due")


def test_a_market_completed_by_its_own_tile_gives_its_trader_a_ship_at_once(make):
    from tablehub.scenario import load_scenario, run_scenario
    from pathlib import Path

    data = load_scenario(Path(__file__).parent / "scenarios" / "two_markets_in_turn_order.json")
    cut = next(i for i, a in enumerate(data["actions"]) if a.get("tile") == "B2")
    data["actions"] = data["actions"][:cut + 1] + [{"type": "place_figure", "region": "K"}]
    data["expect"] = []
    g = run_scenario(data)
    assert [a.ship for a in g.legal_actions()] == ["s10", "s15"], "Blue chooses first: two 6s"
    g.apply(ChooseShip("s15"))
    g.apply(RevealShip("s24"))        # another 6: Blue's second market (the new tile's own) chooses again
    assert [a.ship for a in g.legal_actions()] == ["s10", "s24"]
    g.apply(ChooseShip("s10"))
    g.apply(RevealShip("s03"))
    g.apply(RevealShip("s05"))        # Red's market takes s24, the last 6, then the refill
    res = g.resources()["players"]
    assert res["Blue"]["ships"] == ["s15", "s10"] and res["Red"]["ships"] == ["s24"]
    assert res["Blue"]["islanders_in_supply"] == 4 and res["Red"]["islanders_in_supply"] == 4


def test_the_game_cannot_end_while_an_award_waits_for_a_ship_from_the_pile(make):
    from tablehub.scenario import load_scenario, run_scenario
    from pathlib import Path

    data = load_scenario(Path(__file__).parent / "scenarios" / "two_markets_in_turn_order.json")
    cut = next(i for i, a in enumerate(data["actions"]) if a["type"] == "choose_ship")
    data["actions"] = data["actions"][:cut]
    data["expect"] = []
    g = run_scenario(data)
    with pytest.raises(IllegalAction, match="cannot end yet"):
        g.finish()
    assert not g.finished and len(g.awards) == 2


# ---- the end


def test_the_game_ends_when_the_last_ship_is_taken(tmp_path, make):
    ships = {"format": "tablehub-ships/1", "game": "suedsee", "ships": [
        {"id": f"t{i}", "value": i, "requirement": {"any": 1}} for i in range(1, 5)]}
    path = tmp_path / "ships.json"
    path.write_text(json.dumps(ships))
    g = Suedsee(Setup("suedsee", ("Red", "Blue"), (), {"ships": str(path)}))
    for s in ("t1", "t2", "t3", "t4"):
        g.apply(RevealShip(s))
    g.goods[0]["fish"] = 5
    g.goods[1]["fish"] = 5
    moves = [("U1", 1, 0, 90), ("U1", -1, 0, 90), ("E1", 0, -1, 180), ("U2", 0, 1, 90)]
    for (tile, x, y, r), ship in zip(moves, ("t4", "t3", "t2", "t1")):
        assert not g.game_over
        g.apply(PlaceTile(tile, x, y, r))
        g.apply(Deliver(ship, {"fish": 1}))
    assert g.game_over and not g.must_choose
    with pytest.raises(IllegalAction, match="every ship has been taken"):
        g.apply(PlaceTile("V1", 2, 0, 0))
    g.finish()
    assert g.scores() == {"Red": 4 + 2 + 1, "Blue": 3 + 1 + 1}, "ship values + 1 per 3 goods left"
    assert g.provisional and "tile list" in g.provisional and "ships" not in g.provisional


def test_finish_ends_an_open_islander_step_first(table):
    table.play(("G", 0, -1), "I:NS", ("D2", 0, -2, 180))
    table.game.finish()
    kinds = [(e.player, e.kind) for e in table.game.score_log if "bananas" in e.reason and "gains" in e.reason]
    assert kinds == [("Red", "score")], "the completed island is evaluated as in play, not as a final area"
    assert table.game.finish() == [], "finish is idempotent"
    with pytest.raises(IllegalAction, match="game is over"):
        table.game.apply(PlaceTile("U1", 1, 0, 90))


def test_covered_fish_are_not_counted_again_and_boat_tokens_run_out(table):
    g = table.game
    g.boats_left = 1
    table.play(("E3", 0, 1, 180), "S")     # 3 fish; the last token covers E3's 2-fish group
    assert table.has("Red")["fish"] == 3 and g.resources()["table"]["boat_tokens_left"] == 0
    table.play(("E1", 0, -1, 180), None, ("B1", 1, 1), "S", ("B3", 2, 1), None)
    assert table.has("Red")["fish"] == 3 + 3, "start 1 + B1 2; E3's covered pair no longer counts"
    assert g.score_log[-1].reason.endswith("; no fishing boat token is left, so nothing is covered")
    assert table.has("Red")["islanders_in_supply"] == 4


# ---- the rule book's "Précisions"


def test_islands_whose_corners_touch_stay_two_islands(table):
    table.play(("G", 0, -1), "I:NS", ("I", 0, -2, 180))
    assert "already occupied (by Red)" in table.refuses(PlaceFigure("I:N"), "occupied_feature")
    table.play("I:W")
    assert table.has("Blue")["islanders_on_board"] == 1, "the other island of the tile is free"


def test_a_junction_tile_keeps_its_three_seas_apart_and_an_island_splits_two_seas(table):
    table.play(("L1", -1, 0), None, ("F", 0, 1), None)
    board = table.game.board
    seas = {board.feature((-1, 0), board.cells[(-1, 0)].tile.region(r).index) for r in ("S:N", "S:SE", "S:SW")}
    assert len(seas) == 3
    f = board.cells[(0, 1)].tile
    assert board.feature((0, 1), f.region("S:N").index) != board.feature((0, 1), f.region("S:S").index)
