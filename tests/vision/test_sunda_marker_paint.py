"""Resource markers whose paint lies near the land's (vision.sundamarkers.MarkerFinder._paint_discs): a green marker on
the green land at `hard` is found by what a paint shows that no shade of the land does (the part of ``paint - land``
square to the land's shade line) and by its lightness; a lighter or darker patch of the land's print, as round, is
not (the synthetic canvas of tests/vision/test_sunda_markers_disc.py; the bench's own tables, where the disc pass
missed the marker, are in tests/photo/test_sunda_marker_paint.py). A marker laid against a marker by a tribe, farther
than 0.8 of a side from every tribe, follows that marker's tribe (``MarkerFinder._place``)."""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from tests.vision.test_sunda_markers_disc import NODE, PPM, _canvas, _find, _px
from vision.sim.art import PLAYER_COLOURS
from vision.sim.sundatable import LAND_BGR
from vision.sundamarkers import (MarkerFinder, MarkerReading, _lab, lightness_agrees, paint_direction, paint_fit,
                                 shade_direction)

LAND = _lab(np.asarray(LAND_BGR, np.float32)[None])[0]


def _jpeg(img: np.ndarray, quality: int = 65) -> np.ndarray:
    """The `hard` camera's JPEG (chroma at half the resolution of lightness, quantised hardest)."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def test_a_shade_of_the_land_shows_nothing_of_a_paint_a_green_marker_nearly_all_of_it():
    s = shade_direction(LAND)
    green = paint_direction(_lab(np.asarray(PLAYER_COLOURS["green"], np.float32)[None])[0], LAND)
    for f in (0.6, 0.85, 1.15, 1.3):      # the print a little lighter or darker, a stack's shadow
        diff = (_lab((np.asarray(LAND_BGR, np.float32) * f)[None])[0] - LAND) * [0.35, 1, 1]
        assert abs(float(diff @ green[0]) / green[1]) < 0.2 * green[1], f
        assert abs(float(diff @ s)) > 0.9 * np.linalg.norm(diff)
    seen = 0.8 * np.asarray(PLAYER_COLOURS["green"], np.float32) + 0.2 * np.asarray(LAND_BGR, np.float32)
    fit = paint_fit(_lab(seen[None])[0] - LAND, green, s)
    assert fit < 3.0, fit


def test_a_round_lighter_or_darker_patch_of_the_land_is_no_marker():
    for f in (0.8, 1.2):
        at = (NODE[0] + 15.0, NODE[1] + 6.0)

        def draw(img):
            cv2.circle(img, _px(at), int(3 * PPM), tuple(float(v) * f for v in LAND_BGR), -1, cv2.LINE_AA)
        found, _ = _find(_jpeg(_canvas(draw, blur_px=2.6)))
        assert not found, (f, [(m.marker, m.mat_mm) for m in found])


def test_the_colour_the_jpeg_smears_round_a_red_marker_is_not_a_green_marker():
    """As green as a green marker blurred into the land, but lighter than the land where the green paint is darker
    (photo bench seed 5 table 6: a green marker read 8 mm from an orange one, where none lies)."""
    green = _lab(np.asarray(PLAYER_COLOURS["green"], np.float32)[None])[0]
    halo = LAND + np.array([6.0, -12.0, 3.5])
    marker = LAND + np.array([-6.0, -14.0, 0.0])
    assert green[0] < LAND[0] - 4
    assert not lightness_agrees(halo, green, LAND)
    assert lightness_agrees(marker, green, LAND)
    yellow = _lab(np.asarray(PLAYER_COLOURS["yellow"], np.float32)[None])[0]     # lighter than the land
    assert lightness_agrees(LAND + np.array([8.0, 5.0, 20.0]), yellow, LAND)
    assert not lightness_agrees(marker, yellow, LAND)


def test_a_marker_laid_against_a_marker_by_a_tribe_follows_that_tribe():
    lattice = SimpleNamespace(side_mm=30.0, to_lattice=lambda mm: np.asarray(mm, float).reshape(-1, 2) / 30.0)
    tribe = SimpleNamespace(q=2, r=-1, mat_mm=(100.0, 100.0))
    red = MarkerReading("red", 2, -1, (117.0, 101.0), True)
    at = np.array([124.5, 102.0])           # 24.6 mm from the tribe, 7.6 mm from the red marker's middle
    m = MarkerFinder._place("blue", at, lattice, [tribe], [red])
    assert m.by_tribe and (m.q, m.r) == (2, -1)
    assert not MarkerFinder._place("blue", at, lattice, [tribe]).by_tribe      # alone: by no tribe
    far = MarkerFinder._place("blue", np.array([130.0, 102.0]), lattice, [tribe], [red])   # 13 mm apart
    assert not far.by_tribe
