"""Resource markers found as what they are, discs 6 mm across on the land (vision.sundamarkers.MarkerFinder._discs):
the markers the colour classes miss (blurred into the land at `hard`, two touching) are found, and what is not a
disc on the ground (a pawn's top, a stack's soft shadow, the coast) is not. A synthetic canvas at the reader's scale
(2 px/mm), the simulated paints; each test also shows that without the disc pass the marker is missed (the cause)."""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.sim.art import PLAYER_COLOURS
from vision.sim.sundatable import CLOTHS, LAND_BGR, WATER_BGR
from vision.sunda import SundaColours
from vision.sundamarkers import MarkerFinder, _lab
from vision.sundastacks import ColourTable

PPM = 2.0
NODE = (100.0, 100.0)     # mm: the tribe's node (a red pawn stands on it)


def _finder() -> MarkerFinder:
    lab = lambda bgr: _lab(np.asarray(bgr, np.float32)[None])[0]   # noqa: E731
    colours = SundaColours(lab(LAND_BGR), lab(WATER_BGR), np.asarray(CLOTHS[0], np.float32),
                           {c: lab(PLAYER_COLOURS[c]) for c in ("red", "yellow", "black", "purple")})
    return MarkerFinder(colours, {m: lab(PLAYER_COLOURS[m]) for m in
                                  ("red", "orange", "yellow", "green", "blue", "purple")})


def _canvas(draw, blur_px: float = 2.2, seed: int = 0) -> np.ndarray:
    """200 x 200 mm of land at 2 px/mm, a red pawn (10 mm) on the node, ``draw(img)`` on it, blurred (the lens at
    `hard`), noise."""
    img = np.zeros((400, 400, 3), np.float32)
    img[:] = LAND_BGR
    rng = np.random.default_rng(seed)
    img *= (1 + 0.03 * cv2.GaussianBlur(rng.standard_normal((400, 400)).astype(np.float32), (0, 0), 1.0))[..., None]
    cv2.circle(img, _px(NODE), int(5 * PPM), PLAYER_COLOURS["red"], -1, cv2.LINE_AA)
    draw(img)
    img = cv2.GaussianBlur(img, (0, 0), blur_px)
    img += rng.normal(0, 2.0, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _px(mm) -> tuple[int, int]:
    return int(round(mm[0] * PPM)), int(round(mm[1] * PPM))


def _disc(img, name: str, at, mm: float = 6.0) -> None:
    bgr = np.asarray(PLAYER_COLOURS[name], np.float32)
    cv2.circle(img, _px(at), int(mm / 2 * PPM), tuple(float(v) for v in bgr * 0.7), -1, cv2.LINE_AA)
    cv2.circle(img, _px(at), int((mm / 2 - 0.4) * PPM), tuple(float(v) for v in bgr), -1, cv2.LINE_AA)


def _find(img, without_discs: bool = False, only_discs: bool = False):
    f = _finder()
    if without_discs:
        f._discs = lambda *a, **k: []
    if only_discs:     # every colour taken as land: the colour classes' blobs find nothing, the disc pass must
        table = f._table

        def land_only(gain, cloth):
            _, names, ground = table(gain, cloth)
            return ColourTable(gain, lambda bgr: np.full(len(bgr), len(names) + 2, np.uint8), np.uint8), names, ground
        f._table = land_only
    lattice = SimpleNamespace(side_mm=30.0, to_lattice=lambda mm: np.asarray(mm, float).reshape(-1, 2) / 30.0)
    tribe = SimpleNamespace(q=0, r=0, mat_mm=NODE)
    gain = np.ones(3, np.float32)
    return f.find(img, gain, np.asarray(CLOTHS[0], np.float32), (0, 0), PPM, lattice, [tribe]), f


def _near(found, name: str, at, tol: float = 2.5) -> bool:
    return any(m.marker == name and np.hypot(*(np.asarray(m.mat_mm) - at)) <= tol for m in found)


def test_two_touching_markers_are_two_discs():
    a, b = (NODE[0] + 13.0, NODE[1]), (NODE[0] + 19.0, NODE[1])      # 6 mm apart: touching
    img = _canvas(lambda im: (_disc(im, "orange", a), _disc(im, "blue", b)))
    found, _ = _find(img)
    assert _near(found, "orange", a) and _near(found, "blue", b), [(m.marker, m.mat_mm) for m in found]
    alone, _ = _find(img, without_discs=True)
    assert not (_near(alone, "orange", a) and _near(alone, "blue", b))   # the colour classes' blobs miss the pair


@pytest.mark.parametrize("name", ["orange", "blue", "purple", "yellow"])
def test_a_marker_blurred_into_the_land_is_found_with_its_colour(name):
    at = (NODE[0] - 6.0, NODE[1] + 13.0)
    img = _canvas(lambda im: _disc(im, name, at), blur_px=3.0, seed=3)
    for only in (False, True):      # with the colour classes, and by the disc pass alone
        found, _ = _find(img, only_discs=only)
        assert [(m.marker) for m in found if np.hypot(*(np.asarray(m.mat_mm) - at)) <= 2.5] == [name], only
        assert len(found) == 1, [(m.marker, m.mat_mm) for m in found]


def test_a_pawns_top_a_stacks_shadow_and_the_coast_are_no_marker():
    def draw(im):
        # a soft shadow of a stack beside the pawn, a yellow pawn standing 25 mm off (no node of ours: not a marker),
        # and the sea 15 mm from the node
        sh = np.zeros(im.shape[:2], np.float32)
        cv2.circle(sh, _px((NODE[0] - 8, NODE[1] - 8)), int(9 * PPM), 1.0, -1)
        sh = cv2.GaussianBlur(sh, (0, 0), 3 * PPM)
        im *= (1 - 0.45 * sh)[..., None]
        cv2.circle(im, _px((NODE[0], NODE[1] - 22)), int(5 * PPM), PLAYER_COLOURS["yellow"], -1, cv2.LINE_AA)
        pts = np.array([_px((NODE[0] + 15, NODE[1] - 40)), _px((NODE[0] + 60, NODE[1] - 40)),
                        _px((NODE[0] + 60, NODE[1] + 40)), _px((NODE[0] + 15, NODE[1] + 40))], np.int32)
        cv2.fillPoly(im, [pts], WATER_BGR)
    img = _canvas(draw, blur_px=2.5, seed=7)
    for only in (False, True):
        found, f = _find(img, only_discs=only)
        assert found == [], [(m.marker, m.mat_mm) for m in found]


def test_a_marker_by_no_tribe_is_not_taken():
    at = (NODE[0] + 60.0, NODE[1] + 60.0)      # 2.8 sides from the only tribe
    found, _ = _find(_canvas(lambda im: _disc(im, "orange", at)))
    assert found == []


def test_a_disc_of_no_marker_paint_is_not_read_but_kept_as_doubtful():
    at = (NODE[0] + 2.0, NODE[1] - 14.0)

    def draw(im):   # a token of a paint no marker has (a grey-brown), as a marker whose colour the light moved
        cv2.circle(im, _px(at), int(3 * PPM), (70.0, 80.0, 120.0), -1, cv2.LINE_AA)
    found, f = _find(_canvas(draw, blur_px=2.2, seed=11), only_discs=True)
    assert found == []
    assert len(f.doubtful) == 1, f.rejected
    m, may = f.doubtful[0]
    assert (m.q, m.r) == (0, 0) and np.hypot(*(np.asarray(m.mat_mm) - at)) <= 2.5 and 1 <= len(may) <= 2
