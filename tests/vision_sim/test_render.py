"""The renderer tells the truth: figures stand on their regions, tiles are turned the right way."""
from __future__ import annotations

import math

import numpy as np
import pytest

from vision import VisionError
from vision.geometry import TileGeometry
from vision.rectify import Rectifier
from vision.sim import (NUISANCE, PLAYER_COLOURS, DrawnArt, ScanArt, Scene, SceneFigure, SceneHand, SceneTile,
                        render, scene_from_view)

from .conftest import SUEDSEE

SMALL = (960, 540)


def _figures_scene(mat, geo: TileGeometry, seed: int = 0) -> Scene:
    rng = np.random.default_rng(seed)
    tiles, figures = [], []
    colours = list(PLAYER_COLOURS)
    for i, tile in enumerate(geo.tile_ids[:30]):
        x, y = i % 6 - 3, i // 6 - 2
        rot = int(rng.choice([0, 90, 180, 270]))
        tiles.append(SceneTile(x, y, tile, rot, (float(rng.normal(0, 0.5)), float(rng.normal(0, 0.5))),
                               float(rng.normal(0, 1.0))))
        regions = geo.regions(tile)
        region = regions[int(rng.integers(len(regions)))][0]
        figures.append(SceneFigure(x, y, colours[i % len(colours)], region))
    return Scene(mat=mat, tiles=tiles, figures=figures)


def _region_under(truth, scene: Scene, geo: TileGeometry, x_mm: float, y_mm: float) -> str:
    """Which region a mat point falls on, from the truth's tile placements (offsets and angles included)."""
    cx, cy = scene.cell_at_mm(x_mm, y_mm)
    tile = next(t for t in truth.tiles if (t["x"], t["y"]) == (cx, cy))
    tx, ty = tile["centre_mm"]
    a = math.radians(tile["angle_deg"])
    dx, dy = x_mm - tx, y_mm - ty
    lx, ly = math.cos(a) * dx + math.sin(a) * dy, -math.sin(a) * dx + math.cos(a) * dy
    return geo.region_at(tile["tile"], tile["rotation"], lx / scene.mat.tile_mm + 0.5, ly / scene.mat.tile_mm + 0.5)


def test_every_figure_stands_on_the_region_the_truth_names(mat, nl_geometry, drawn_art):
    scene = _figures_scene(mat, nl_geometry)
    _image, truth = render(scene, drawn_art, NUISANCE["clean"], np.random.default_rng(0), SMALL)
    assert len(truth.figures) == len(scene.figures)
    for fig, asked in zip(truth.figures, scene.figures):
        assert fig["region"] == asked.region
        assert _region_under(truth, scene, nl_geometry, *fig["mat_mm"]) == fig["region"]


def test_figures_seen_in_the_image_map_back_to_their_regions(mat, nl_geometry, drawn_art):
    scene = _figures_scene(mat, nl_geometry, seed=1)
    image, truth = render(scene, drawn_art, NUISANCE["default"], np.random.default_rng(1), (1920, 1080))
    rect = Rectifier(mat, lens=truth.lens())
    loc = rect.locate(image)
    for fig in truth.figures:
        base = truth.mat_to_image(np.array([fig["mat_mm"]]))
        x_mm, y_mm = rect.image_to_mat(base, loc)[0]
        assert _region_under(truth, scene, nl_geometry, x_mm, y_mm) == fig["region"]


def test_the_image_shows_each_figure_in_its_colour(mat, nl_geometry, drawn_art):
    scene = _figures_scene(mat, nl_geometry, seed=2)
    image, truth = render(scene, drawn_art, NUISANCE["clean"], np.random.default_rng(2), (1920, 1080))
    for fig in truth.figures:
        x, y = (int(round(v)) for v in fig["image_px"])
        seen = image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(axis=0)
        want = np.asarray(PLAYER_COLOURS[fig["color"]], float)
        assert np.abs(seen - want).max() < 80, f"{fig['color']} figure looks {seen.round()}"


def test_scan_art_is_turned_clockwise(mat, neuesland_scans, nl_geometry):
    import cv2

    art = ScanArt(neuesland_scans)
    scene = Scene(mat=mat, tiles=[SceneTile(0, 0, "ds001", 0), SceneTile(1, 0, "ds001", 90),
                                  SceneTile(2, 0, "ds001", 180), SceneTile(3, 0, "ds001", 270)])
    image, truth = render(scene, art, NUISANCE["clean"], np.random.default_rng(0), (1920, 1080))
    canvas = Rectifier(mat, px_per_mm=2.0).warp(image)
    scan = art.image("ds001", 80).astype(np.float32)
    for t in truth.tiles:
        cx, cy = (v * 2.0 for v in t["centre_mm"])
        patch = canvas[int(cy) - 40:int(cy) + 40, int(cx) - 40:int(cx) + 40].astype(np.float32)
        scores = {rot: float(cv2.matchTemplate(patch, np.ascontiguousarray(np.rot90(scan, -rot // 90)),
                                               cv2.TM_CCOEFF_NORMED).max()) for rot in (0, 90, 180, 270)}
        assert max(scores, key=scores.get) == t["rotation"], f"tile turned {t['rotation']} looks like {scores}"


def test_a_hand_reaching_for_a_marker_hides_it(mat):
    x, y = mat.marker_centre(0)
    _image, truth = render(Scene(mat=mat, hands=[SceneHand(x, y, "top")]), None, NUISANCE["clean"],
                           np.random.default_rng(0), SMALL)
    assert truth.markers_hidden == [0]
    assert truth.hands == [{"x_mm": x, "y_mm": y, "edge": "top"}]


def test_scene_from_a_tile_game_view(mat):
    view = {"kind": "tiles", "tiles": [{"x": 0, "y": 0, "tile": "ds001", "rotation": 0},
                                       {"x": 2, "y": -1, "tile": "ds002", "rotation": 270}],
            "figures": [{"x": 2, "y": -1, "region": "G:N", "color": "blue"}]}
    scene = scene_from_view(view, mat, rng=np.random.default_rng(0))
    assert [(t.x, t.y, t.tile, t.rotation) for t in scene.tiles] == [(0, 0, "ds001", 0), (2, -1, "ds002", 270)]
    assert scene.figures == [SceneFigure(2, -1, "blue", "G:N")]
    assert all(abs(t.offset_mm[0]) <= 1.2 and abs(t.angle_deg) <= 1.5 for t in scene.tiles)
    # the laid tiles are centred on the play area
    cx, cy = mat.play_centre_mm
    assert scene.cell_centre_mm(1, -0.5) == pytest.approx((cx, cy))


def test_figures_without_colours_get_one_per_owner(mat):
    view = {"kind": "tiles", "tiles": [{"x": 0, "y": 0, "tile": "ds001", "rotation": 0}],
            "figures": [{"x": 0, "y": 0, "region": "G:N", "owner": "Ana", "color": None},
                        {"x": 0, "y": 0, "region": "S:S", "owner": "Ben", "color": None},
                        {"x": 0, "y": 0, "region": "M:EW", "owner": "Ana", "color": None}]}
    assert [f.color for f in scene_from_view(view, mat).figures] == ["red", "blue", "red"]


def test_views_of_other_kinds_are_refused():
    with pytest.raises(VisionError, match="kind 'tiles'"):
        scene_from_view({"kind": "board"})


def test_unknown_figure_colours_are_named(mat, drawn_art):
    scene = Scene(mat=mat, tiles=[SceneTile(0, 0, "ds001")], figures=[SceneFigure(0, 0, "pink", "G:N")])
    with pytest.raises(VisionError, match="'pink' unknown"):
        render(scene, drawn_art, NUISANCE["clean"], size=SMALL)


def test_suedsee_tiles_have_drawn_art():
    if not SUEDSEE.is_file():
        pytest.skip("no Südsee catalog yet")
    geo = TileGeometry(SUEDSEE)
    art = DrawnArt(geo)
    for tile in geo.tile_ids:
        picture = art.image(tile, 60)
        assert picture.shape == (60, 60, 3)
        assert picture.std() > 5, f"{tile} is drawn flat"


def test_nuisance_presets():
    assert set(NUISANCE) == {"clean", "default", "hard"}
    assert NUISANCE["clean"].noise_sigma == 0 and NUISANCE["hard"].jpeg_quality < NUISANCE["default"].jpeg_quality
