"""The Sunda reader's fast paths give what the computations they replace give, on a rendered table (`hard` camera, a
game with tribes and resources): the colour cell index in 16 bits, the lines' morphology on the grey levels, the colour
tables filled as cells are looked up (the stacks' membership, the markers' classes), the local ground's median on the
boxes round the tribes only, a stack's profiles sampled on the strip and band alone (docs/sunda.md, "What a read
costs"). Each test also checks that the fast path is the one taken."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.games.sunda.position import position_of
from vision.sim.camera import NUISANCE
from vision.sim.sundatable import random_scene
from vision import sunda, sundastacks as stacks
from vision.sunda import colour_index, nearest
from vision.sundamarkers import DISC_CORE_MM, DISC_GROUND_MM, _lab, _median_near
from tests.sunda_render import read_rendered

COLOURS = {"P1": "red", "P2": "yellow"}
OPTIONS = {"tribes": True, "resources": True}


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(11)
    cam = NUISANCE["hard"].with_(tilt_azimuth_deg=120.0, light_angle_deg=40.0, pose_jitter_deg=0.0)
    game = next(g for g in (random_game(2, s, options=OPTIONS) for s in range(1000, 1040)) if len(g.markers) >= 2)
    pos = position_of(game, outlines=True)
    scene = random_scene(pos["position"], COLOURS, rng)
    reader, _, reading = read_rendered(scene, cam, rng, markers=True, pieces=[p.ring for p in game.set.pieces])
    assert reading.tribes and len(reading.pieces) > 100
    return reader, reading


def _grid_bgr(gain: np.ndarray) -> np.ndarray:
    """Every cell's colour as a whole table's grid holds it (the computation the tables did before)."""
    lv = np.arange(32, dtype=np.float32) * 8 + 4
    return np.stack(np.meshgrid(lv, lv, lv, indexing="ij"), -1).reshape(-1, 3) * gain.astype(np.float32)


def test_the_colour_index_in_16_bits_is_the_cell_in_32_bits(table):
    reader, _ = table
    img = reader._for_stacks[0]
    q = (img >> 3).astype(np.int32)
    want = (q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]
    got = colour_index(img)
    assert got.dtype == np.uint16
    assert np.array_equal(got, want)


def test_the_lines_morphology_on_the_grey_levels_equals_the_one_on_the_lightness(table):
    reader, reading = table
    img, gain, _ = reader._for_stacks
    label, L, _ = reader._classify(img, gain, reading._cloth)
    piece = (label == 1) | (label == 2)
    assert reader._grey8[1] is L                       # the fast path: the grey levels of this lightness
    fast = reader._lines(L, piece)
    reader._grey8 = (None, None)                       # the morphology on the float lightness, as before
    slow = reader._lines(L, piece)
    assert np.array_equal(fast, slow)
    assert (fast > 0).sum() > 10000


def test_the_pawn_blobs_are_opened_once_a_read(table):
    reader, reading = table
    label = reader._classify(*reader._for_stacks[:2], reading._cloth)[0]
    first = reader._pawn_blobs(label)
    assert reader._pawn_blobs(label) is first
    k = int(2 * round(1.5 * reader.s) + 1)
    # the pawn colours' pixels the majority over PAWN_MAJORITY_MM (a dark pawn's sieve on a dark cloth), then opened
    pawn = cv2.medianBlur((label >= 3).astype(np.uint8), int(2 * round(sunda.PAWN_MAJORITY_MM / 2 * reader.s) + 1))
    want = cv2.morphologyEx(pawn, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    assert np.array_equal(first, want)


def test_the_membership_table_fills_only_the_cells_seen_with_the_whole_tables_entries(table):
    reader, reading = table
    img, gain, centres = reader._for_stacks
    pawn_labs = [centres[n] for n in reader.pawn_names]
    ground = [centres[k] for k in ("land", "water", "cloth")]
    stacks._TABLE.clear()
    x0, y0 = reader._play[:2]
    crops = []
    for t in reading.tribes:                           # round each stack, as measure() crops it
        cx, cy = int(t.mat_mm[0] * reader.s) - x0, int(t.mat_mm[1] * reader.s) - y0
        crops.append(img[max(cy - 30, 0):cy + 30, max(cx - 30, 0):cx + 30])
    got = [stacks.membership(c, gain, pawn_labs, ground) for c in crops]
    tab = next(iter(stacks._TABLE.values()))
    assert 0 < tab.done.sum() < 32 * 32 * 32 / 4       # the fast path: the cells the stacks show, not all 32768
    pawn_shades = [s for c in pawn_labs for s in stacks._shades(c, stacks.SIDE_SHADES)]
    ground_shades = [s for c in ground for s in stacks._shades(c, stacks.GROUND_SHADES)]
    whole = stacks._membership_rows(_grid_bgr(gain), pawn_shades, ground_shades)
    for c, g in zip(crops, got):
        assert np.array_equal(g, whole[colour_index(c).astype(np.int64)])


def test_the_markers_classes_fill_only_the_cells_seen_with_the_whole_tables_entries(table):
    reader, reading = table
    finder = reader.markers
    finder._tables.clear()
    img, gain, _ = reader._for_stacks
    lut, names, _ = finder._table(gain, reading._cloth)
    crop = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    box = crop[100:260, 150:330]
    got = lut.lookup(box)
    assert 0 < lut.done.sum() < 32 * 32 * 32 / 4
    # the whole table, as _table built it before: every cell's class at once
    tab2 = finder._tables[next(iter(finder._tables))]
    cls_whole = tab2[0]._rows(_grid_bgr(gain))
    assert np.array_equal(got, cls_whole[colour_index(box).astype(np.int64)])
    assert len(np.unique(got)) >= 2


def test_a_single_cell_looked_up_takes_the_whole_tables_entry(table):
    """A product of matrices of one row rounds otherwise in BLAS: a lookup of one cell is padded to MIN_ROWS."""
    reader, reading = table
    img, gain, centres = reader._for_stacks
    cent = np.stack([centres[k] for k in centres])
    whole = nearest(_lab(_grid_bgr(gain)), cent)
    for cell in (0, 12345, 32767, 21000):
        t = stacks.ColourTable(gain, lambda bgr: nearest(_lab(bgr), cent), np.int64)
        b, g, r = cell >> 10, (cell >> 5) & 31, cell & 31
        px = np.array([[[b * 8 + 3, g * 8 + 5, r * 8]]], np.uint8)
        assert t.lookup(px)[0, 0] == whole[cell]
        assert t.done.sum() == 1


def test_the_ground_median_round_the_tribes_equals_the_whole_median_there(table):
    reader, reading = table
    img = reader._for_stacks[0]
    crop = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    s = reader.s / 2
    mask = np.zeros(crop.shape[:2], bool)
    x0, y0 = reader._play[:2]
    for t in reading.tribes[:6]:                       # boxes round tribes, some by the edge of the crop
        cx, cy = int((t.mat_mm[0] * reader.s - x0) * s / reader.s), int((t.mat_mm[1] * reader.s - y0) * s / reader.s)
        mask[max(cy - 30, 0):cy + 31, max(cx - 30, 0):cx + 31] = True
    mask[:20, 200:260] = True
    k = int(round(DISC_GROUND_MM * s)) | 1
    reach = int(math.ceil(DISC_CORE_MM / 2 * s)) + 1
    got = _median_near(crop, mask, k, reach)
    whole = cv2.medianBlur(crop, k)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0
    assert np.array_equal(got[near], whole[near])
    assert (got == 0).all(axis=2).mean() > 0.3         # the fast path: the median only round the boxes


def test_a_stacks_profiles_sampled_alone_equal_the_whole_grid(table):
    """measure() samples the strip along u and the band across it alone: the whole grid's rows and columns there."""
    reader, reading = table
    img = reader._for_stacks[0].astype(np.float32)
    rng = np.random.default_rng(0)
    for _ in range(5):
        ang = rng.uniform(0, 2 * math.pi)
        u, v = np.array([math.cos(ang), math.sin(ang)]), np.array([-math.sin(ang), math.cos(ang)])
        c = rng.uniform([20, 20], [img.shape[1] / reader.s - 20, img.shape[0] / reader.s - 20])
        ua, va = np.arange(c @ u - 15, c @ u + 15, stacks.STEP_MM), np.arange(c @ v - 10, c @ v + 10, stacks.STEP_MM)
        origin, lo = (3, 5), np.array([int(rng.integers(0, 9)), int(rng.integers(0, 9))])
        rows, cols = np.abs(va - c @ v - rng.uniform(-3, 3)) <= 2.0, np.abs(ua - c @ u - rng.uniform(-8, 8)) <= 1.0
        mx, my = stacks._grid_px(ua, va, u, v, reader.s, origin, lo)
        rx, ry = stacks._grid_px(ua, va[rows], u, v, reader.s, origin, lo)
        cx, cy = stacks._grid_px(ua[cols], va, u, v, reader.s, origin, lo)
        assert np.array_equal(rx, mx[rows]) and np.array_equal(ry, my[rows])
        assert np.array_equal(cx, mx[:, cols]) and np.array_equal(cy, my[:, cols])
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE):
            whole = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=border, borderValue=0.0)
            assert np.array_equal(stacks._sample(img, rx, ry, border), whole[rows])
            assert np.array_equal(stacks._sample(img, cx, cy, border), whole[:, cols])


def test_the_pawn_blobs_labelled_in_16_bits_are_the_32_bit_labels(table):
    """_tribes labels the pawn blobs in 16 bits (each blob holds the opening's disc, so they fit): the same labels and
    boxes as in 32 bits."""
    reader, reading = table
    label = reader._classify(*reader._for_stacks[:2], reading._cloth)[0]
    pawn = reader._pawn_blobs(label)
    n16, lab16, st16, _ = cv2.connectedComponentsWithStats(pawn, connectivity=8, ltype=cv2.CV_16U)
    n32, lab32, st32, _ = cv2.connectedComponentsWithStats(pawn, connectivity=8)
    assert lab16.dtype == np.uint16 and n16 == n32 >= 3
    assert np.array_equal(lab16, lab32) and np.array_equal(st16, st32)


def test_the_line_pixels_found_are_np_nonzeros_in_its_order(table, monkeypatch):
    """_fit_lattice takes the line pixels with cv2.findNonZero: the pixels and the raster order of np.nonzero (the fit
    samples them at random by index, so the order matters)."""
    reader, reading = table
    img, gain, _ = reader._for_stacks
    label, L, _ = reader._classify(img, gain, reading._cloth)
    piece = (label == 1) | (label == 2)
    lines = reader._lines(L, piece)
    seen = {}
    real = cv2.findNonZero

    def spy(mask):
        seen["mask"] = mask.copy()
        return real(mask)
    monkeypatch.setattr(cv2, "findNonZero", spy)
    reader._win = reader._play
    lat = reader._fit_lattice(lines, piece)
    assert abs(lat.angle_deg - reading.lattice.angle_deg) < 1e-9
    mask = seen["mask"].astype(bool)
    found = real(seen["mask"]).reshape(-1, 2)
    ys, xs = np.nonzero(mask)
    assert len(xs) > 10000
    assert np.array_equal(found[:, 0], xs) and np.array_equal(found[:, 1], ys)


def test_a_colour_table_as_an_array_is_the_whole_table(table):
    """np.asarray of a ColourTable fills every cell: the table as it was built before (a test's hook or a caller
    that wants the whole table gets it)."""
    reader, reading = table
    img, gain, centres = reader._for_stacks
    cent = np.stack([centres[k] for k in centres])
    t = stacks.ColourTable(gain, lambda bgr: nearest(_lab(bgr), cent), np.int64)
    t.lookup(img[:50, :50])
    assert np.array_equal(np.asarray(t), nearest(_lab(_grid_bgr(gain)), cent))
    assert t.done.all()
