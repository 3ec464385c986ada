"""The tile catalog format: the shipped Neues Land set, and one-line errors for broken files."""
import copy
import json
from pathlib import Path

import pytest

from tablehub.games.tiles.catalog import CatalogError, build_catalog, load_catalog, parse_slots, rotation_index

NL = Path(__file__).resolve().parents[2] / "tablehub" / "games" / "neuesland" / "tiles.json"


@pytest.fixture(scope="module")
def raw():
    return json.loads(NL.read_text())


@pytest.fixture(scope="module")
def nl():
    return load_catalog(NL, expect_game="neuesland")


def test_neues_land_has_84_tiles_ds001_to_ds084(nl):
    assert [t.id for t in nl.tiles] == [f"ds{i:03d}" for i in range(1, 85)]
    assert nl.total() == 84
    assert nl.start.id == "ds001"


def test_neues_land_has_37_towns_and_three_one_terrain_tiles(nl):
    assert sum(len(t.towns) for t in nl.tiles) == 37
    assert len(nl.tile("ds054").towns) == 2
    one_terrain = [t.id for t in nl.tiles if len({r.terrain for r in t.regions}) == 1]
    assert one_terrain == ["ds082", "ds083", "ds084"]


def test_every_neues_land_side_is_one_terrain(nl):
    for t in nl.tiles:
        for s in range(4):
            assert len(set(t.side_terrain(s))) == 1, f"{t.id} side {'NESW'[s]}"


def test_the_lake_of_ds081_touches_no_side(nl):
    lake = nl.tile("ds081").region("S:interior")
    assert lake.slots == frozenset() and lake.terrain == "S"


def test_region_ids_name_the_sides_they_touch(nl):
    for t in nl.tiles:
        for r in t.regions:
            if r.slots:
                assert r.id == f"{r.terrain}:{r.sides}", t.id


def test_the_catalog_matches_the_shared_transcription(nl, shared_dir):
    src = json.loads((shared_dir / "data" / "neues_land" / "tiles.json").read_text())
    for t, s in zip(nl.tiles, src["tiles"]):
        assert t.id + ".png" == s["image"]
        assert {r.id for r in t.regions} == {r["id"] for r in s["regions"]}
        assert len(t.towns) == len(s["towns"])


def test_symmetric_tiles_list_each_distinct_rotation_once(nl):
    assert nl.tile("ds083").distinct_rotations == (0,)       # all sea
    assert len(nl.tile("ds017").distinct_rotations) == 4
    # a plain between two mountains on opposite sides looks the same turned half way
    sym = [t for t in nl.tiles if len(t.distinct_rotations) == 2]
    for t in sym:
        assert t.slots_rotated(0) == t.slots_rotated(2)


def test_slots_parse_sides_and_single_slots():
    assert parse_slots("N") == [0, 1, 2]
    assert parse_slots("Wc Er") == [10, 5]
    with pytest.raises(ValueError, match="unknown slot 'Q'"):
        parse_slots("Q")


@pytest.mark.parametrize("deg,idx", [(0, 0), (90, 1), (180, 2), (270, 3)])
def test_rotation_degrees(deg, idx):
    assert rotation_index(deg) == idx


def test_a_rotation_of_45_is_refused():
    with pytest.raises(ValueError, match="rotation must be 0, 90, 180 or 270"):
        rotation_index(45)


def _broken(raw, fn):
    data = copy.deepcopy(raw)
    fn(data)
    return data


@pytest.mark.parametrize("breaker,message", [
    (lambda d: d["tiles"][16]["regions"][3].update(slots="S N"),
     "tile ds017: region G:S: slot Nl is also claimed by region M:N"),
    (lambda d: d["tiles"][16]["regions"].pop(), "tile ds017: slots Sl Sc Sr belong to no region"),
    (lambda d: d["tiles"][16]["regions"][3].update(terrain="X"), "tile ds017: region G:S: terrain 'X' is not one of"),
    (lambda d: d["tiles"][0].update(towns=[{"land": "M:EW", "sea": "S:X"}]),
     "tile ds001: a town's 'sea' names region 'S:X'"),
    (lambda d: d["tiles"][3].update(colour="red"), "tiles[3]: unknown field 'colour' (expected: art, count"),
    (lambda d: d["tiles"][5].update(id="ds005"), "tile ds005: duplicate tile id"),
    (lambda d: d["tiles"][1].update(start=True), "exactly one tile must have \"start\": true, found 2"),
    (lambda d: d.update(format="v0"), "format: expected 'tablehub-tiles/1', got 'v0'"),
    (lambda d: d["tiles"][7].update(count=0), "tiles[7].count: expected a whole number from 1 to 100, got 0"),
    (lambda d: d["tiles"][9]["regions"][0].update(slots="N Q"), "tile ds010: region G:N: unknown slot 'Q'"),
])
def test_a_broken_catalog_gets_one_line_naming_file_tile_and_region(raw, breaker, message):
    with pytest.raises(CatalogError) as err:
        build_catalog(_broken(raw, breaker), "my_tiles.json")
    text = str(err.value)
    assert text.startswith("my_tiles.json: ") and "\n" not in text
    assert message in text


def test_unreadable_and_invalid_json_files(tmp_path):
    with pytest.raises(CatalogError, match="cannot read the catalog"):
        load_catalog(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(CatalogError, match=r"bad.json: not valid JSON \(line 1"):
        load_catalog(bad)


def test_a_catalog_for_another_game_is_refused():
    with pytest.raises(CatalogError, match="this catalog is for 'neuesland', not 'suedsee'"):
        load_catalog(NL, expect_game="suedsee")
