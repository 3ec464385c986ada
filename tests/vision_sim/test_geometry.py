"""Region geometry from the slot model: every region drawn, anchors inside, rotations consistent."""
from __future__ import annotations

import numpy as np
import pytest

from vision import VisionError
from vision.geometry import ROTATIONS, SLOTS, TileGeometry, rotate_uv, unrotate_uv

SIZE = 48

#: where each slot's third of the side lies (just inside the border), unrotated
SLOT_POINTS = {}
for k, name in enumerate(SLOTS):
    side, third = divmod(k, 3)
    t = (third + 0.5) / 3
    SLOT_POINTS[name] = [(t, 0.02), (0.98, t), (1 - t, 0.98), (0.02, 1 - t)][side]


def test_labels_cover_every_region_of_every_neues_land_tile_in_all_rotations(nl_geometry):
    for tile in nl_geometry.tile_ids:
        n = len(nl_geometry.regions(tile))
        for rot in ROTATIONS:
            labels = nl_geometry.region_labels(tile, SIZE, rot)
            present = set(np.unique(labels).tolist())
            assert present == set(range(n)), f"tile {tile} rotation {rot} draws regions {present} of {n}"


def test_anchors_lie_inside_their_region_away_from_its_border(nl_geometry):
    for tile in nl_geometry.tile_ids:
        for rid, _terrain in nl_geometry.regions(tile):
            assert nl_geometry.anchor_clearance(tile, rid) > 0.05, f"{tile} {rid} anchor too near a border"
            for rot in ROTATIONS:
                u, v = nl_geometry.anchor(tile, rid, rot)
                assert 0.05 < u < 0.95 and 0.05 < v < 0.95
                assert nl_geometry.region_at(tile, rot, u, v) == rid, f"{tile} {rid} rot {rot}"


def test_each_slot_is_drawn_in_its_own_region(nl_geometry):
    for tile in nl_geometry.tile_ids:
        owners = nl_geometry.slot_regions(tile)
        for name, owner in zip(SLOTS, owners):
            u, v = SLOT_POINTS[name]
            assert nl_geometry.region_at(tile, 0, u, v) == owner, f"{tile} slot {name}"


def test_rotation_90_turns_the_north_side_to_the_east(nl_geometry):
    # ds001: G:N plain north, M:EW mountain band, S:S sea south
    assert nl_geometry.region_at("ds001", 0, 0.5, 0.03) == "G:N"
    assert nl_geometry.region_at("ds001", 90, 0.97, 0.5) == "G:N"
    assert nl_geometry.region_at("ds001", 90, 0.03, 0.5) == "S:S"
    assert nl_geometry.region_at("ds001", 180, 0.5, 0.97) == "G:N"
    assert nl_geometry.region_at("ds001", 270, 0.03, 0.5) == "G:N"


def test_a_region_of_opposite_sides_runs_through_the_middle(nl_geometry):
    assert nl_geometry.region_at("ds001", 0, 0.5, 0.5) == "M:EW"


def test_label_images_and_point_lookups_agree(nl_geometry):
    rng = np.random.default_rng(3)
    for tile in rng.choice(nl_geometry.tile_ids, 12, replace=False):
        for rot in ROTATIONS:
            labels = nl_geometry.region_labels(tile, SIZE, rot)
            ids = [r for r, _ in nl_geometry.regions(tile)]
            rows, cols = rng.integers(0, SIZE, 20), rng.integers(0, SIZE, 20)
            uv = np.column_stack([(cols + 0.5) / SIZE, (rows + 0.5) / SIZE])
            assert nl_geometry.regions_at(tile, rot, uv) == [ids[labels[r, c]] for r, c in zip(rows, cols)]


def test_rotate_and_unrotate_are_inverse():
    u, v = np.array([0.1, 0.7]), np.array([0.2, 0.9])
    for rot in ROTATIONS:
        uu, vv = unrotate_uv(*rotate_uv(u, v, rot), rot)
        assert np.allclose(uu, u) and np.allclose(vv, v)


SUDSEE_LIKE = {
    "format": "tablehub-tiles/1", "terrains": {"I": "island", "B": "bridge", "S": "sea", "K": "market"},
    "tiles": [
        {"id": "bridge", "regions": [{"id": "B", "terrain": "B", "slots": "Nc Sc"},
                                     {"id": "S:W", "terrain": "S", "slots": "Nl W Sr", "boat": True},
                                     {"id": "S:E", "terrain": "S", "slots": "Nr E Sl", "symbols": {"fish": 2}}]},
        {"id": "market", "regions": [{"id": "K", "terrain": "K", "slots": ""},
                                     {"id": "S", "terrain": "S", "slots": "N E S W"}]},
    ],
}


def test_bridges_cross_the_tile_and_markets_are_a_central_disc():
    geo = TileGeometry(SUDSEE_LIKE)
    assert geo.region_at("bridge", 0, 0.5, 0.5) == "B"
    assert geo.region_at("bridge", 0, 0.1, 0.5) == "S:W"
    assert geo.region_at("bridge", 90, 0.5, 0.1) == "S:W"
    assert geo.region_at("market", 0, 0.5, 0.5) == "K"
    assert geo.region_at("market", 0, 0.5, 0.1) == "S"
    assert geo.regions("bridge") == [("B", "B"), ("S:W", "S"), ("S:E", "S")]


def test_bad_catalog_entries_are_named():
    bad = {"tiles": [{"id": "x", "regions": [{"id": "G", "terrain": "G", "slots": "N E Q"}]}]}
    with pytest.raises(VisionError, match="tile x: region G: slots: unknown slot 'Q'"):
        TileGeometry(bad).regions("x")
    gap = {"tiles": [{"id": "y", "regions": [{"id": "G", "terrain": "G", "slots": "N E S"}]}]}
    with pytest.raises(VisionError, match="Wl Wc Wr belong to no region"):
        TileGeometry(gap).regions("y")
    with pytest.raises(VisionError, match="no tile 'zz'"):
        TileGeometry(SUDSEE_LIKE).regions("zz")
    with pytest.raises(VisionError, match="rotation"):
        TileGeometry(SUDSEE_LIKE).anchor("bridge", "B", 45)
