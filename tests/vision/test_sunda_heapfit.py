"""A heap of pawns in a supply fitted cheaply (vision/sundasupply.py; docs/sunda.md, "When the count runs"): a few
pawns moved are measured on the pixels round them exactly as on the whole blob's window (``_Local``), and a heap that
lost one pawn since the frame before is fitted from that frame's split (``SupplyCounter._refit``), not afresh; one that
lost two, or gained paint, is fitted afresh."""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.sundasupply import PAWN_MM, SupplyCounter, _Blob, _Local, footprint

NADIR = np.array([200.0, 536.0])
CAM_H = 853.0


def _heap(bases: np.ndarray, c: SupplyCounter) -> tuple[np.ndarray, tuple[int, int]]:
    """The blob pawns standing at ``bases`` (mat mm) show on the canvas (each footprint drawn whole: their union),
    cut to its box, and the box's corner (canvas px)."""
    canvas = np.zeros((1600, 1600), np.uint8)
    for b in bases:
        poly = np.round(c.to_px(footprint(b, NADIR, CAM_H)) * 16).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(canvas, [poly], 1, cv2.LINE_8, 4)
    ys, xs = np.nonzero(canvas)
    x0, y0 = int(xs.min()), int(ys.min())
    return canvas[y0:ys.max() + 1, x0:xs.max() + 1].copy(), (x0, y0)


def _packed(n: int, at=(300.0, 500.0)) -> np.ndarray:
    """``n`` pawns touching, in rows of three (a pawn's width and a millimetre apart)."""
    step = PAWN_MM + 1.0
    return np.array([[at[0] + step * (i % 3) + (step / 2 if (i // 3) % 2 else 0.0),
                      at[1] + step * math.sqrt(3) / 2 * (i // 3)] for i in range(n)])


def test_a_few_pawns_moved_are_measured_round_them_as_on_the_whole_window():
    c = SupplyCounter()
    rng = np.random.default_rng(3)
    bases = _packed(8)
    blob, origin = _heap(bases + rng.normal(0, 0.6, bases.shape), c)       # the pawns fitted a little off
    pad = int(math.ceil(PAWN_MM * c.s))
    ref = np.zeros((blob.shape[0] + 2 * pad, blob.shape[1] + 2 * pad), np.uint8)
    ref[pad:-pad, pad:-pad] = blob
    shift = np.array([origin[0] - pad, origin[1] - pad], np.float64)
    shapes = [footprint(b, NADIR, CAM_H) - b for b in bases]
    whole = _Blob(ref)
    polys = c._polys(bases, shapes, shift)
    for movable in ([0], [3, 4], [1, 5, 7]):
        local = _Local.of(whole, polys, movable)
        assert local is not None
        now, at = list(polys), bases.copy()
        for _ in range(25):
            k = int(rng.choice(movable))
            trial = at.copy()
            trial[k] += rng.integers(-2, 3, 2) / c.s
            tpolys = list(now)
            tpolys[k] = c._polys(trial[k:k + 1], shapes[k:k + 1], shift)[0]
            if not local.holds(tpolys[k]):
                continue
            e = float(local.pixels + local.delta(tpolys)) + c._overlap(trial)
            assert e == c._misfit(whole, trial, tpolys)[0]
            if rng.random() < 0.4:
                local.taken(tpolys)
                now, at = tpolys, trial
    # every pawn movable: the refinement moves them as when it measures the whole window each time
    start = bases + rng.normal(0, 0.8, bases.shape)
    full = c._placed(blob, origin, start.copy(), NADIR, CAM_H, True)
    local = c._placed(blob, origin, start.copy(), NADIR, CAM_H, True, list(range(len(start))))
    assert full == local


def _split_once_counting(c: SupplyCounter, blob, origin) -> tuple:
    calls = []
    real = c.split

    def split(*a, **k):
        calls.append(1)
        return real(*a, **k)
    c.split = split
    try:
        said = c._split_once("red", blob, origin, NADIR, CAM_H)
    finally:
        c.split = real
    return said, len(calls)


def _turn(c: SupplyCounter) -> None:
    """A count's end: what it split is what the next compares with (``SupplyCounter._decide``)."""
    c._split_before, c._split_now = c._split_now, {}


def test_a_heap_that_lost_a_pawn_is_fitted_from_the_frame_before():
    c = SupplyCounter()
    bases = _packed(9)
    said, splits = _split_once_counting(c, *_heap(bases, c))
    assert splits == 1 and said.clear() and said.decide(None)[0] == 9
    _turn(c)
    # a pawn taken from the heap's edge: fitted from the frame before's pawns, nothing split
    said, splits = _split_once_counting(c, *_heap(np.delete(bases, 7, axis=0), c))
    assert splits == 0 and said.decide(None)[0] == 8
    _turn(c)
    # and one from inside what is left, the next frame
    said, splits = _split_once_counting(c, *_heap(np.delete(bases, [7, 4], axis=0), c))
    assert splits == 0 and said.decide(None)[0] == 7


def test_a_heap_that_lost_two_pawns_or_gained_one_is_split_afresh():
    for now in (np.delete(_packed(9), [2, 8], axis=0),                   # two taken at once, apart
                np.vstack([_packed(9), [[300.0 + 3 * 11.0, 500.0]]])):     # one put back at the heap's side
        c = SupplyCounter()
        said, _ = _split_once_counting(c, *_heap(_packed(9), c))
        assert said.decide(None)[0] == 9
        _turn(c)
        said, splits = _split_once_counting(c, *_heap(now, c))
        assert splits == 1 and said.decide(None)[0] == len(now)


def test_the_gate_grows_no_window_to_hold_a_blob_of_more_paint_than_a_players_pawns():
    """A dark table past the mat's edge takes the black pawns' class: a ring round the canvas, one blob of more paint
    than a player's pawns (never counted: its colour is not told). Every window met its box (the whole canvas) and was
    grown to it; now a pawn taken is counted again round its heap, and the counts are a full count's."""
    from tests.vision.test_sundasupply import LOOSE, _table
    from vision import sundasupply
    from vision.sim.sundatable import render_sunda
    from vision.sundasupply import SupplyGate

    game, pos, scene, cam, reader, rng = _table("clean", 3)
    scene.table_bgr = (30, 30, 30)
    red = [p for p in LOOSE if p[0] == "red"]
    gate = SupplyGate(SupplyCounter())
    grown = []
    real = sundasupply._closed

    def closed(*a):
        out = real(*a)
        grown.append(max((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in out) / (a[2][0] * a[2][1]))
        return out
    reading = None
    sundasupply._closed = closed
    try:
        for loose in (LOOSE, [p for p in LOOSE if p != red[2]]):
            scene.loose_pawns = tuple(loose)
            frame, _ = render_sunda(scene, cam, rng)
            reading = reader.read(frame, previous=reading)
            nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
            seen = gate.count(frame, reader, reading, nadir, cam_h)
            full = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
            assert seen.counts == full.counts
    finally:
        sundasupply._closed = real
    ring = max(b.area_px for b in full.blobs if b.colour == "black")
    assert full.counts["black"] is None and ring > sundasupply.MOST_PAWNS * full.pawn_px["red"]
    assert seen.counts["red"] == 6 and gate.calls["windows"] == 1
    assert max(grown) < 0.05            # the windows round the heap the pawn left, not the whole canvas
