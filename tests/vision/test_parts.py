"""The parts of recognition on their own: references, colours, constraints, catalogs, enrolment layout."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.pieces import ColourError, PlayerColour, PlayerColours, bgr_to_lab
from vision.refs import ReferenceSet, RefsError
from vision.tiles import CatalogInfo, Constraints, FeatureCanvas, Grid, GridCanvas, TileClassifier

NEUESLAND = Path(__file__).resolve().parents[2] / "tablehub" / "games" / "neuesland" / "tiles.json"


def _textured(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    small = rng.integers(30, 230, (6, 6, 3), dtype=np.uint8)
    return cv2.resize(small, (48, 48), interpolation=cv2.INTER_CUBIC)


def test_references_survive_a_round_trip_through_their_folder(tmp_path):
    refs = ReferenceSet("neuesland", ["a", "b"], np.stack([_textured(1), _textured(2)]), camera="pi",
                        meta={"mat_bgr": [60, 80, 60]})
    refs.save(tmp_path / "r")
    back = ReferenceSet.load(tmp_path / "r")
    assert back.tile_ids == ["a", "b"] and back.camera == "pi" and back.meta["mat_bgr"] == [60, 80, 60]
    assert np.array_equal(back.images, refs.images)
    assert np.array_equal(back.image("a", 90), np.rot90(refs.images[0], -1)), "rotation 90 turns clockwise"


def test_a_folder_that_is_not_a_reference_folder_is_refused_in_one_line(tmp_path):
    with pytest.raises(RefsError, match="no index.json"):
        ReferenceSet.load(tmp_path)
    (tmp_path / "index.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(RefsError, match="format"):
        ReferenceSet.load(tmp_path)


def test_red_is_one_colour_on_both_sides_of_the_hue_wrap():
    colours = PlayerColours.defaults(["red", "yellow", "blue"])
    # two reds whose HSV hues sit at opposite ends of the hue circle (about 2 and about 178)
    reds = np.array([[[30, 40, 200]], [[60, 30, 200]]], np.uint8)
    hues = cv2.cvtColor(reds, cv2.COLOR_BGR2HSV)[:, 0, 0]
    assert hues.min() < 10 and hues.max() > 170
    idx, dist = colours.nearest(bgr_to_lab(reds.reshape(-1, 3)))
    assert [colours.names[i] for i in idx] == ["red", "red"]


def test_player_colours_are_stored_as_a_small_json_file(tmp_path):
    colours = PlayerColours([PlayerColour("red", (90.0, 170.0, 150.0), 5.0), PlayerColour("black", (40.0, 128.0, 128.0))])
    path = colours.save(tmp_path / "colours.json")
    assert PlayerColours.load(path).to_dict() == colours.to_dict()
    path.write_text("{}")
    with pytest.raises(ColourError, match="tablehub-colours/1"):
        PlayerColours.load(path)


def test_colours_with_no_default_ask_for_a_calibration():
    with pytest.raises(ColourError, match="calibrate"):
        PlayerColours.defaults(["red", "teal"])


def test_catalog_edges_turn_clockwise_with_the_tile():
    cat = CatalogInfo.load(NEUESLAND)
    assert cat.start == "ds001"
    n, e, s, w = cat.edges["ds001"]
    assert (n, e, s, w) == ("GGG", "MMM", "SSS", "MMM")
    assert cat.edges_turned("ds001", 90) == (w, n, e, s), "turned 90: its north side faces east"


def _canvas_with(tile: np.ndarray) -> FeatureCanvas:
    px, m = 48, 12
    img = np.full((px + 2 * m, px + 2 * m, 3), (60, 80, 60), np.uint8)
    img[m:m + px, m:m + px] = tile
    return FeatureCanvas(GridCanvas(img, 0, 0, 1, 1, px, m))


def test_constraints_break_a_tie_between_tiles_that_look_the_same():
    a = _textured(7)
    refs = ReferenceSet("t", ["twin1", "twin2", "other"], np.stack([a, a, _textured(9)]))
    clf = TileClassifier(refs)
    fc = _canvas_with(a)
    free = clf.classify(fc, [(0, 0)])[0]
    assert free.tile in ("twin1", "twin2")
    # whichever twin wins on appearance (floating-point noise decides, and differs between OpenCV
    # builds), a box holding only the other twin makes the constraint pick that one
    other_twin = "twin2" if free.tile == "twin1" else "twin1"
    boxed = clf.classify(fc, [(0, 0)], Constraints(in_box=frozenset({other_twin, "other"})))[0]
    assert boxed.tile == other_twin and boxed.constrained
    kept = clf.classify(fc, [(0, 0)], Constraints(in_box=frozenset({free.tile, "other"})))[0]
    assert kept.tile == free.tile and not kept.constrained


def test_constraints_never_explain_away_a_tile_that_is_clearly_seen():
    a, b = _textured(7), _textured(9)
    refs = ReferenceSet("t", ["seen", "other"], np.stack([a, b]))
    clf = TileClassifier(refs)
    guess = clf.classify(_canvas_with(a), [(0, 0)], Constraints(in_box=frozenset({"other"})))[0]
    assert guess.tile == "seen" and not guess.constrained, "an illegal placement reaches the tracker as it is"
    assert guess.confidence > 0.8


def test_a_turned_tile_is_read_with_its_rotation():
    a, b = _textured(3), _textured(4)
    clf = TileClassifier(ReferenceSet("t", ["a", "b"], np.stack([a, b])))
    guess = clf.classify(_canvas_with(np.rot90(a, -1)), [(0, 0)])[0]
    assert (guess.tile, guess.rotation) == ("a", 90)


def test_the_grid_turns_with_the_start_tile():
    grid = Grid((100.0, 100.0), 90.0, 45.0)
    x, y = grid.cell_centre_mm(1, 0)
    assert (round(x, 6), round(y, 6)) == (100.0, 145.0), "east of a start tile laid north-to-the-right is mat south"
    assert Grid.from_dict(grid.to_dict()) == grid


def test_a_tile_that_plays_the_same_turned_is_known_from_the_catalog():
    cat = CatalogInfo.load(NEUESLAND)
    assert cat.same_for_the_game("ds083", 90, 270), "ds083 is all sea: any turn plays the same"
    assert not cat.same_for_the_game("ds001", 0, 180)


def test_the_grid_fitted_to_the_tiles_follows_their_small_turn():
    import math

    from vision.recognize import fit_grid
    from vision.tiles import TileGuess

    grid = Grid((300.0, 300.0), 0.0, 45.0)
    turn = math.radians(0.6)
    tiles = []
    for x in range(-3, 4):
        for y in range(-2, 3):
            px, py = x * 45.0, y * 45.0
            rx, ry = px * math.cos(turn) - py * math.sin(turn), px * math.sin(turn) + py * math.cos(turn)
            tiles.append(TileGuess(x, y, "t", 0, 0.95, 0.95, offset_mm=(rx - px + 0.4, ry - py - 0.2)))
    fitted = fit_grid(grid, tiles)
    assert abs(fitted.angle_deg - 0.6) < 0.01
    assert abs(fitted.origin_mm[0] - 300.4) < 0.01 and abs(fitted.origin_mm[1] - 299.8) < 0.01


def _fine_texture(seed: int) -> np.ndarray:
    """Sand-coloured tile with fine dark strokes (like drawn mountains): every tile's strokes differ."""
    rng = np.random.default_rng(seed)
    img = np.full((48, 48, 3), (150, 200, 225), np.uint8)
    dark = rng.random((48, 48)) < 0.25
    img[dark] = (80, 110, 130)
    return img


def test_twins_that_differ_only_in_a_small_town_are_told_apart_where_they_differ():
    plain = _fine_texture(1)
    town = plain.copy()
    town[8:20, 10:22] = (40, 90, 170)                     # a small brown town, top left
    clf = TileClassifier(ReferenceSet("t", ["plain", "town", "other"], np.stack([plain, town, _textured(5)])))
    j_plain, j_town = clf.ids.index("plain"), clf.ids.index("town")
    assert j_town in clf.twins(j_plain), "a tile and the same tile with a town are twins"
    assert clf.ids.index("other") not in clf.twins(j_plain)
    # the photo shows the town, its mountains drawn with other strokes; the town's twin is ranked first
    photo = _fine_texture(2)
    photo[8:20, 10:22] = (40, 90, 170)
    fc = _canvas_with(photo)
    top, left = fc.top_left(0, 0)
    wrong_first = [(0.80, j_plain, top, left, 0.0), (0.79, j_town, top, left, 0.0)]
    assert clf.ids[clf._verify(fc, wrong_first)[0][0][1]] == "town", "the town decides"
    right_first = [(0.80, j_town, top, left, 0.0), (0.79, j_plain, top, left, 0.0)]
    assert clf.ids[clf._verify(fc, right_first)[0][0][1]] == "town", "a right reading is kept"
    # without the town in the photo the plain tile wins, even when ranked second
    fc = _canvas_with(_fine_texture(3))
    assert clf.ids[clf._verify(fc, wrong_first[::-1])[0][0][1]] == "plain"
