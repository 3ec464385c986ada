"""The provisional Südsee component data (tiles.json, ships.json), the options that replace them, what the
engine reports (resources, view, provisional line), and `tablehub score` on Südsee records and positions."""
import json
from collections import Counter
from pathlib import Path

import pytest

from tablehub.cli import main
from tablehub.games.base import SetupError, Setup
from tablehub.games.suedsee.engine import BOAT_TOKENS, Suedsee
from tablehub.games.suedsee.ships import Requirement, ShipsError, build_ships, load_ships
from tablehub.games.tiles.catalog import load_catalog

PACKAGE = Path(__file__).resolve().parents[2] / "tablehub" / "games" / "suedsee"
CLASSIC_COUNTS = {"A": 2, "B": 4, "C": 1, "D": 4, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3, "L": 3,
                  "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9, "W": 4, "X": 1}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(PACKAGE / "tiles.json", "suedsee")


def test_the_set_has_72_tiles_plus_a_start_tile_of_the_classic_base_set(catalog):
    assert catalog.total() == 73 and catalog.start.id == "start" and catalog.start.count == 1
    counts = Counter()
    for t in catalog.tiles:
        if not t.start:
            counts[t.id[0]] += t.count
    assert dict(counts) == CLASSIC_COUNTS, "24 types A-X in their standard counts"
    d = catalog.tile("D1")
    assert catalog.start.slot_region == d.slot_region, "the start tile has the D topology"


def test_the_set_is_marked_provisional_in_the_data_and_the_engine(catalog):
    assert catalog.provisional and "PROVISIONAL" in catalog.set_name
    assert load_ships(PACKAGE / "ships.json").provisional
    g = Suedsee(Setup("suedsee", ("Red", "Blue")))
    assert "provisional" in g.provisional and "tiles.json" in g.provisional and "ships.json" in g.provisional
    assert g.summary()["provisional"] == g.provisional


def test_markets_lie_inside_their_tile_and_bridges_end_at_stones(catalog):
    for t in catalog.tiles:
        for r in t.regions:
            if r.terrain == "K":
                assert not r.slots, f"{t.id}: a market touches no side"
    x = catalog.tile("X")
    assert [r.sides for r in x.regions if r.terrain == "B"] == ["N", "E", "S", "W"], "4 bridges end at the stone"


def test_goods_symbols_sit_on_their_terrain_and_fish_come_in_groups_of_1_or_2(catalog):
    kinds = {"B": "shell", "I": "banana", "S": "fish"}
    totals = Counter()
    boats = 0
    for t in catalog.tiles:
        for r in t.regions:
            for sym, n in r.symbols.items():
                assert sym == kinds[r.terrain], f"{t.id} {r.id}: {sym} on {r.terrain}"
                totals[(sym, n)] += t.count
            boats += t.count * r.boat
            assert not r.boat or r.terrain == "S"
    assert set(n for (sym, n) in totals if sym == "fish") == {1, 2}
    assert 0 < boats <= BOAT_TOKENS


def test_the_24_ships_include_the_five_of_the_rule_book():
    ships = load_ships(PACKAGE / "ships.json").ships
    assert len(ships) == 24
    seen = {(s.requirement.to_json().__repr__(), s.value) for s in ships.values()}
    for req, value in [({"exact": {"shell": 2, "banana": 1, "fish": 1}}, 5), ({"any": 6}, 5), ({"same": 4}, 3),
                       ({"any": 5}, 4), ({"kinds": [3, 1]}, 3)]:
        assert (Requirement.from_json(req, "t").to_json().__repr__(), value) in seen
    assert {2, 3, 4, 5, 6} <= {s.value for s in ships.values()}, "the values of the 27-point example exist"


@pytest.mark.parametrize("req,text", [
    ({"exact": {"shell": 2, "fish": 1, "banana": 1}}, "2 shells + 1 banana + 1 fish"),
    ({"any": 6}, "6 goods of the player's choice"),
    ({"same": 4}, "4 goods of one kind"),
    ({"kinds": [1, 3]}, "3 goods of one kind + 1 of another"),
    ({"kinds": [2, 1, 1]}, "2 goods of one kind + 1 of another + 1 of a third"),
])
def test_requirements_read_as_the_ship_shows_them(req, text):
    assert Requirement.from_json(req, "t").describe() == text


@pytest.mark.parametrize("data,message", [
    ({"format": "x"}, "my.json: missing field 'game'"),
    ({"format": "x", "game": "suedsee", "ships": []}, "format: expected 'tablehub-ships/1', got 'x'"),
    ({"format": "tablehub-ships/1", "game": "tahiti", "ships": []}, "game: expected 'suedsee', got 'tahiti'"),
    ({"format": "tablehub-ships/1", "game": "suedsee", "ships": [{"id": "a", "value": 1}]},
     "ships[0]: missing field 'requirement'"),
    ({"format": "tablehub-ships/1", "game": "suedsee", "ships": [{"id": "a", "value": -1, "requirement": {"any": 1}}]},
     "ships[0].value: expected the ship's points, a whole number from 0 to 20, got -1"),
    ({"format": "tablehub-ships/1", "game": "suedsee", "ships": [{"id": "a", "value": 1, "requirement": {"exact": {"gold": 1}}}]},
     "ships[0].requirement.exact: unknown field 'gold' (expected: banana, fish, shell)"),
    ({"format": "tablehub-ships/1", "game": "suedsee", "ships": [{"id": "a", "value": 1, "requirement": {"most": 1}}]},
     "ships[0].requirement: unknown field 'most' (expected: any, exact, kinds, same)"),
])
def test_a_broken_ships_file_gets_one_line(data, message):
    with pytest.raises(ShipsError, match=None) as exc:
        build_ships(data, "my.json")
    assert message in str(exc.value) and "\n" not in str(exc.value) and str(exc.value).startswith("my.json")


def test_an_owner_can_record_their_own_ships_and_tiles(tmp_path):
    ships = tmp_path / "ships.json"
    ships.write_text(json.dumps({"format": "tablehub-ships/1", "game": "suedsee", "provisional": False,
                                 "ships": [{"id": "r1", "value": 4, "requirement": {"any": 5}}]}))
    tiles = json.loads((PACKAGE / "tiles.json").read_text(encoding="utf-8"))
    tiles["provisional"] = False
    (tmp_path / "tiles.json").write_text(json.dumps(tiles))
    g = Suedsee(Setup("suedsee", ("Red", "Blue"), (), {"ships": str(ships), "catalog": str(tmp_path / "tiles.json")}))
    assert g.provisional is None and g.resources()["table"]["ships_in_pile"] == 1


def test_bad_options_are_refused_with_one_line(tmp_path):
    with pytest.raises(SetupError, match="option 'takeback' must be one of"):
        Suedsee(Setup("suedsee", ("Red", "Blue"), (), {"takeback": "never"}))
    with pytest.raises(SetupError, match="cannot read the ships file"):
        Suedsee(Setup("suedsee", ("Red", "Blue"), (), {"ships": str(tmp_path / "nope.json")}))
    neues_land = PACKAGE.parent / "neuesland" / "tiles.json"
    with pytest.raises(SetupError, match="this catalog is for 'neuesland'"):
        Suedsee(Setup("suedsee", ("Red", "Blue"), (), {"catalog": str(neues_land)}))
    tiles = json.loads((PACKAGE / "tiles.json").read_text(encoding="utf-8"))
    tiles["tiles"][1]["regions"][2]["symbols"] = {"fish": 3}
    (tmp_path / "t.json").write_text(json.dumps(tiles))
    with pytest.raises(SetupError, match="fish come as one group of 1 or 2 fish"):
        Suedsee(Setup("suedsee", ("Red", "Blue"), (), {"catalog": str(tmp_path / "t.json")}))


def test_resources_give_goods_ships_islanders_and_the_table(make):
    t = make()
    t.play(("E3", 0, 1, 180), "S")
    res = t.game.resources()
    assert res["players"]["Red"] == {"shells": 0, "bananas": 0, "fish": 3, "goods": 3, "ships": [], "ships_taken": 0,
                                     "ship_points": 0, "islanders_in_supply": 4, "islanders_on_board": 0}
    table = res["table"]
    assert [s["id"] for s in table["face_up_ships"]] == ["s10", "s15", "s01", "s02"]
    assert table["face_up_ships"][2] == {"id": "s01", "value": 5, "requirement": "2 shells + 1 banana + 1 fish"}
    assert (table["ships_in_pile"], table["boat_tokens_left"], table["tiles_left"]) == (20, 18, 71)
    assert table["waiting_for"] is None


def test_the_view_shows_symbols_boats_and_covered_fish(make):
    t = make()
    t.play(("E3", 0, 1, 180), "S")
    view = t.game.view()
    assert view["kind"] == "tiles" and len(view["tiles"]) == 2
    marks = {(m["x"], m["y"], m["region"]): m for m in view["symbols"]}
    assert marks[(0, 1, "S")]["boat"] and marks[(0, 1, "S")]["covered"] and marks[(0, 1, "S")]["symbols"] == {"fish": 2}
    assert marks[(0, 0, "S:S")]["covered"] is False


def _record_of_scenario(tmp_path, name: str) -> Path:
    data = json.loads((Path(__file__).parent / "scenarios" / f"{name}.json").read_text(encoding="utf-8"))
    actions = [a for a in data["actions"] if a["type"] not in ("expect", "finish") and "refused" not in a]
    path = tmp_path / f"{name}.record.json"
    path.write_text(json.dumps({"game": "suedsee", "players": data["players"], "actions": actions}))
    return path


def test_tablehub_score_explains_a_suedsee_record(tmp_path, capsys):
    assert main(["score", str(_record_of_scenario(tmp_path, "final_evaluation"))]) == 0
    out = capsys.readouterr().out
    assert "NOTE: provisional component data:" in out
    assert "Final scoring:" in out and "Black +0: final evaluation: the incomplete market at 2, 1 gives nothing" in out
    assert "Yellow wins." in out


def test_tablehub_score_shows_goods_gains_and_deliveries_during_play(tmp_path, capsys):
    assert main(["score", "--json", str(_record_of_scenario(tmp_path, "delivery_after_earning_goods"))]) == 0
    out = json.loads(capsys.readouterr().out)
    reasons = [e["reason"] for e in out["events"]]
    assert reasons[0].startswith("gains 2 bananas: complete island of 2 tiles")
    assert reasons[2].startswith("delivers 2 bananas + 2 fish to ship s07")
    assert out["scores"] == {"Red": 3, "Blue": 0}


def test_tablehub_score_on_a_counted_table(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"game": "suedsee", "players": ["Rouge", "Bleu"], "position": {
        "ships": {"Rouge": ["s06", "s03", "s04", "s11", "s01", "s10"], "Bleu": [5]},
        "goods": {"Rouge": {"shell": 4, "banana": 3, "fish": 3}, "Bleu": {"fish": 2}}}}))
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Rouge +6: ship s10 (2 shells + 2 bananas + 3 fish; 6 points)" in out
    assert out.strip().endswith("Totals: Rouge 27, Bleu 5 (Rouge wins)")
    assert "provisional" in out


def test_a_bad_position_is_one_line(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"game": "suedsee", "players": ["Rouge", "Vert"],
                                "position": {"ships": {"Rouge": ["zz"]}, "goods": {}}}))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "position.ships.Rouge[0]: ship 'zz' is not in" in err and err.count("\n") == 1
