"""The cell lattice can be turned and moved, and the benchmark's boards lie on the start tile's lattice.

At a real table tiles are laid against their neighbours, so the whole lattice follows the
start tile's small turn; boards whose other tiles sat on an exact 0-degree grid around the
mat centre carried a grid error of up to 3.5 mm six cells out that no table has.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from vision.sim import NUISANCE, Scene, SceneFigure, SceneTile, render
from vision.tiles import CatalogInfo

from .conftest import NEUESLAND

SMALL = (960, 540)


def test_a_turned_lattice_puts_cells_along_its_turn(mat):
    scene = Scene(mat=mat, origin_mm=(400.0, 300.0), grid_angle_deg=2.0)
    x, y = scene.cell_centre_mm(6, -2)
    a = math.radians(2.0)
    assert (x, y) == pytest.approx((400 + 45 * (6 * math.cos(a) + 2 * math.sin(a)),
                                    300 + 45 * (6 * math.sin(a) - 2 * math.cos(a))))
    assert scene.cell_at_mm(x + 10, y - 10) == (6, -2)
    # a tile's hand placement is taken along the lattice
    (cx, cy), angle = scene.tile_pose(SceneTile(6, -2, "ds001", 90, (1.0, 0.0), 0.5))
    assert (cx, cy) == pytest.approx(scene.cell_centre_mm(6 + 1 / 45, -2))
    assert angle == pytest.approx(2.5)


def test_figures_on_a_turned_lattice_stand_on_their_regions(mat, nl_geometry, drawn_art):
    tiles = [SceneTile(x, 0, t, 90 * (x % 4), (0.5, -0.3), 0.4) for x, t in zip(range(-3, 4), nl_geometry.tile_ids)]
    figures = [SceneFigure(t.x, 0, "red", nl_geometry.regions(t.tile)[-1][0], offset_mm=(0.0, 0.0)) for t in tiles]
    scene = Scene(mat=mat, tiles=tiles, figures=figures, grid_angle_deg=-1.5)
    _image, truth = render(scene, drawn_art, NUISANCE["clean"], np.random.default_rng(0), SMALL)
    assert truth.grid_angle_deg == -1.5
    for tile, fig in zip(truth.tiles, truth.figures):
        assert tile["angle_deg"] == pytest.approx(-1.1)
        # the figure stands where the region's anchor lies on the tile as it lies on the mat
        u, v = nl_geometry.anchor(tile["tile"], fig["region"], tile["rotation"])
        a = math.radians(tile["angle_deg"])
        lx, ly = (u - 0.5) * 45, (v - 0.5) * 45
        want = (tile["centre_mm"][0] + math.cos(a) * lx - math.sin(a) * ly,
                tile["centre_mm"][1] + math.sin(a) * lx + math.cos(a) * ly)
        assert fig["mat_mm"] == pytest.approx(want, abs=1e-6)


def test_benchmark_boards_lie_on_the_lattice_of_the_first_frames_start_tile(bench, mat):
    catalog = CatalogInfo.load(NEUESLAND)
    from vision.geometry import TileGeometry

    geometry = TileGeometry(NEUESLAND)
    rng = np.random.default_rng(3)
    first, lattice = bench.first_frame(catalog, rng, mat)
    (ox, oy), turn = lattice
    assert turn != 0.0 and (ox, oy) != mat.play_centre_mm, "the start tile is laid by hand"
    _, truth0 = render(first, None, NUISANCE["clean"], np.random.default_rng(1), SMALL, geometry=geometry)
    start0 = truth0.tiles[0]
    assert start0["centre_mm"] == pytest.approx((ox, oy)) and start0["angle_deg"] == pytest.approx(turn)
    for seed in (5, 6):
        board = bench.random_board(catalog, geometry, np.random.default_rng(seed), 60, 4, 1.5, mat=mat,
                                   lattice=lattice)
        _, truth = render(board, None, NUISANCE["clean"], np.random.default_rng(seed), SMALL, geometry=geometry)
        start = next(t for t in truth.tiles if (t["x"], t["y"]) == (0, 0))
        assert start["centre_mm"] == pytest.approx(start0["centre_mm"]), "the start tile stays where it was laid"
        assert start["angle_deg"] == pytest.approx(start0["angle_deg"])
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        for t, placed in zip(board.tiles, truth.tiles):
            # each tile lies within its own hand placement of the start tile's lattice point, not of an exact
            # 0-degree grid (six cells out those differ by 270 mm x sin(turn))
            gx, gy = t.x * 45.0, t.y * 45.0
            lattice_point = (ox + c * gx - s * gy, oy + s * gx + c * gy)
            off = math.dist(placed["centre_mm"], lattice_point)
            assert off <= math.hypot(*t.offset_mm) + 1e-6, f"tile at ({t.x}, {t.y}) is {off:.2f} mm off the lattice"
            assert placed["angle_deg"] == pytest.approx(turn + t.angle_deg)


def test_a_board_without_a_given_lattice_follows_its_own_start_tile(bench, mat):
    from vision.geometry import TileGeometry

    catalog = CatalogInfo.load(NEUESLAND)
    board = bench.random_board(catalog, TileGeometry(NEUESLAND), np.random.default_rng(9), 40, 0, 1.5, mat=mat)
    start = board.tiles[0]
    assert (start.x, start.y, start.offset_mm, start.angle_deg) == (0, 0, (0.0, 0.0), 0.0)
    assert board.grid_angle_deg != 0.0, "the lattice takes the start tile's hand-placed turn"
