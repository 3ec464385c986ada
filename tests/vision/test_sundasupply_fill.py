"""A heap's paint as the camera's blur fills it (vision/sundasupply.py, ``FILL``, ``SupplyCounter._filled_misfit``,
``_fill_sigma``, ``_by_fill``; docs/sunda.md, "The supply, counted"). The paint of touching pawns is not their
footprints side by side: it is their union (the top of one hides the foot of its neighbour), blurred by the camera and
the colour table's own half millimetre, and taken where the blur exceeds the level that puts a straight edge the
frame's edge spread out, so the waists between touching pawns fill. Read as footprints, that paint is a pawn more
(the misfit and the area), while the tops count the heap right: such heaps were asked. The fill, with as many tops
seen, counts them."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.test_sundasupply import SEP
from tests.vision.test_sundasupply_clusters import _bench_table

NADIR, CAM_H = np.array([350.0, 350.0]), 1040.0


def _heap(c, bases, sigma_px: float, level: float):
    """The paint of pawns standing at ``bases`` as a camera blurring by ``sigma_px`` and a colour table taking a
    pawn's class above ``level`` of the blurred union see it: the blob's mask and its box's corner (canvas px)."""
    from vision.sundasupply import footprint

    union = np.zeros((1500, 1500), np.uint8)
    for b in bases:
        cv2.fillPoly(union, [np.round(c.to_px(footprint(b, NADIR, CAM_H)) * 16).astype(np.int32).reshape(-1, 1, 2)],
                     1, cv2.LINE_8, 4)
    paint = (cv2.GaussianBlur(union.astype(np.float32), (0, 0), sigma_px) >= level).astype(np.uint8)
    ys, xs = np.nonzero(paint)
    x0, y0 = int(xs.min()), int(ys.min())
    return paint[y0:ys.max() + 1, x0:xs.max() + 1].copy(), (x0, y0)


def _delta(sigma_px: float, level: float) -> float:
    """How far out (px) a straight edge lies, blurred by ``sigma_px`` and cut at ``level``."""
    lo, hi = 0.0, 5 * sigma_px
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if 0.5 * math.erfc(mid / (sigma_px * math.sqrt(2))) >= level else (lo, mid)
    return lo


ROW = np.array([[650.0, 600.0], [650.0 + SEP, 600.0], [650.0 + 2 * SEP, 600.0], [650.0 + SEP / 2, 600.0 + SEP * 0.87]])


def test_the_fill_models_touching_pawns_paint_and_parts_the_counts():
    # four touching pawns far from the nadir, blurred by 1.5 mm and fattened (the colour table's level 0.4): their
    # union so blurred is the paint to a few pixels, where the footprints side by side miss its waists and the
    # overlaps of tops and feet; one pawn fewer or more misfits the filled paint by half a footprint more at least
    from vision.sundasupply import MARGIN, SupplyCounter

    c = SupplyCounter()
    sigma, level = 3.0, 0.4
    blob, o = _heap(c, ROW, sigma, level)
    delta = _delta(sigma, level)
    one = c._single_px(ROW.mean(axis=0), NADIR, CAM_H)
    right = c._filled_misfit(blob, o, ROW, NADIR, CAM_H, sigma, delta)
    assert right < 0.1 * one
    plain = c._placed(blob, o, ROW, NADIR, CAM_H, False)[0]       # the footprints side by side
    assert plain > right + 0.2 * one
    fewer = c._filled_misfit(blob, o, ROW[:3], NADIR, CAM_H, sigma, delta)
    more = c._filled_misfit(blob, o, np.vstack([ROW, [650.0 + 1.5 * SEP, 600.0 + SEP * 0.87]]), NADIR, CAM_H, sigma,
                            delta)
    assert min(fewer, more) > right + MARGIN * one


@pytest.mark.parametrize("sigma_mm", [1.0, 1.5])
def test_the_frames_blur_is_measured_on_the_heaps_whose_count_is_clear(sigma_mm):
    # a heap the misfit alone counts, its pawns 2 mm apart (as a supply stands: touching or a little apart), its paint
    # blurred by 1 or 1.5 mm into one blob: the blur the fill measures is that one
    from vision.sundasupply import SupplyCounter, _Found, _Split

    c = SupplyCounter()
    sigma = sigma_mm * c.s
    apart = SEP + 2.0
    heap = np.array([[650.0, 600.0], [650.0 + apart, 600.0], [650.0 + 2 * apart, 600.0],
                     [650.0 + apart / 2, 600.0 + apart * 0.87]])
    blob, o = _heap(c, heap, sigma, 0.45)
    assert cv2.connectedComponents(blob)[0] == 2              # one blob: the gaps filled
    one = c._single_px(heap.mean(axis=0), NADIR, CAM_H)
    sp = _Split(float(blob.sum()), one, {4: (0.1 * one, [tuple(b) for b in heap], 4 * one, 200),
                                          3: (1.5 * one, [tuple(b) for b in heap[:3]], 3 * one, 160)})
    assert sp.clear() and sp.best == 4
    found = [_Found("red", (0.0, 0.0), int(blob.sum()), sp, ("red", *o, *blob.shape[::-1]), None, None, (blob, o))]
    assert c._fill_sigma(found, _delta(sigma, 0.45), NADIR, CAM_H) == pytest.approx(sigma, abs=0.25 * c.s + 1e-9)


def test_the_fill_counts_a_heap_only_where_as_many_tops_are_seen():
    # the fill tells 4 pawns clearly: taken with 4 tops seen, asked (with the fill's reading) with 3
    from vision.sundasupply import SupplyCounter, _Split, _Tops

    c = SupplyCounter()
    sigma, level = 3.0, 0.4
    blob, o = _heap(c, ROW, sigma, level)
    delta = _delta(sigma, level)
    one = c._single_px(ROW.mean(axis=0), NADIR, CAM_H)
    fits = {n: (0.0, [tuple(b) for b in bases], 0, 0) for n, bases in
            ((3, ROW[:3]), (4, ROW), (5, np.vstack([ROW, [650.0 + 1.5 * SEP, 600.0 + SEP * 0.87]])))}
    sp = _Split(float(blob.sum()), one, fits)
    tops = ROW + (ROW - NADIR) * 7.0 / (CAM_H - 7.0)
    got, why, bases = c._by_fill(sp, _Tops(tops, None, []), delta, sigma, blob, o, NADIR, CAM_H)
    assert got == 4 and len(bases) == 4, why
    got, why, _ = c._by_fill(sp, _Tops(tops[:3], None, []), delta, sigma, blob, o, NADIR, CAM_H)
    assert got is None and "4 pawns, 3 tops" in why


def test_a_heap_asked_at_hard_whose_waists_the_blur_filled_is_counted():
    # `hard`, seed 2, table 0, 6 pawns put on: a yellow heap of 12 touching pawns whose tops were all seen, but whose
    # paint, the waists filled, the footprints read as more pawns and the tops' 12 did not hold (the yellow supply
    # asked). Its paint as the blur fills it tells 12 with the tops: yellow is counted as it stands, and no colour is
    # counted other than it stands
    from vision.sundasupply import SupplyCounter

    frame, truth, reader = _bench_table("hard", 2, 0, 6, own_set=True)
    reading = reader.read(frame)
    nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
    seen = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
    assert seen.counts["yellow"] == sum(p["colour"] == "yellow" for p in truth.supply), seen.why["yellow"]
    for colour in ("red", "yellow"):
        assert seen.counts[colour] in (None, sum(p["colour"] == colour for p in truth.supply)), seen.why[colour]
