"""The players' supplies counted by the pawns' tops (vision/sundasupply.py, ``SupplyCounter.tops``, ``_by_tops``;
docs/sunda.md, "The supply, counted"). At ``default`` and ``hard`` the colour table fills the waist between touching
pawns, so a heap's paint is one smooth blob and its count was read two ways, or one pawn too many by the paint's area
(a sure count, wrong: only the log's sum caught it). Each pawn's top is its lightest face, a disc of known size at a
known height, ringed by its shaded side or the gap to its neighbour: the tops in the frame's lightness count the heap,
and a count is taken only where the tops and the footprints fitted from under them agree with the paint."""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_sundasupply import SEP
from tests.vision.test_sundasupply_clusters import _bench_table


def test_a_heap_read_one_pawn_too_many_at_default_is_counted_by_its_tops():
    # seed 1, table 1, `default`: a yellow heap of 9 touching pawns, its waists filled by the colour table, fitted 10
    # or 9 by the footprints and taken as 10 by the paint's area (yellow counted 24 of 23). Its 9 tops are seen, and
    # 9 pawns fitted from under them hold the paint: every colour is counted as it stands
    assert_counted_as_it_stands("default", 1, 1, 6)


def assert_counted_as_it_stands(level: str, seed: int, table: int, put_on: int) -> None:
    """The bench's table (``level``, ``seed``, ``table``, after ``put_on`` pawns put on) counted afresh: every drawn
    colour's supply counted as it stands (the reasons of the count in the message)."""
    from vision.sundasupply import SupplyCounter

    frame, truth, reader = _bench_table(level, seed, table, put_on)
    reading = reader.read(frame)
    nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
    seen = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
    for colour in ("red", "yellow"):
        assert seen.counts[colour] == sum(p["colour"] == colour for p in truth.supply), seen.why


def test_the_tops_of_touching_pawns_are_found_where_the_paint_is_one_blob():
    # three pawns in a row, touching, far from the nadir (their sides show): drawn as the renderer draws them (shaded
    # side, lighter top), blurred; the blob is their paint with the waists filled. One top per pawn, each within a
    # millimetre of where the projection puts it, none between them
    from vision.sundasupply import PAWN_HEIGHT_MM, SupplyCounter, footprint

    c = SupplyCounter()
    nadir, cam_h = np.array([350.0, 350.0]), 1040.0
    bases = np.array([[650.0, 600.0], [650.0 + SEP, 600.0], [650.0, 600.0 + SEP]])
    tops = bases + (bases - nadir) * PAWN_HEIGHT_MM / (cam_h - PAWN_HEIGHT_MM)
    size = (1500, 1500)
    grey = np.full(size, 150, np.uint8)
    for b in bases:
        cv2.fillPoly(grey, [np.round(c.to_px(footprint(b, nadir, cam_h)) * 16).astype(np.int32).reshape(-1, 1, 2)],
                     110, cv2.LINE_8, 4)
    rt = 5.0 * cam_h / (cam_h - PAWN_HEIGHT_MM) * c.s
    for t in tops:
        p = np.round(c.to_px(t) * 16).astype(int)
        cv2.circle(grey, (int(p[0]), int(p[1])), int(round(rt * 16)), 200, -1, cv2.LINE_AA, 4)
    grey = cv2.GaussianBlur(grey, (0, 0), 2.0)
    c._grey = grey
    paint = (grey < 140) | (grey > 170)
    paint = cv2.morphologyEx(paint.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))  # waists filled
    n, comp = cv2.connectedComponents(paint)
    big = 1 + int(np.argmax(np.bincount(comp.ravel())[1:]))
    ys, xs = np.nonzero(comp == big)
    x0, y0 = int(xs.min()), int(ys.min())
    blob = (comp[y0:ys.max() + 1, x0:xs.max() + 1] == big).astype(np.uint8)
    assert len(c.seeds(blob, (x0, y0), bases.mean(axis=0), nadir, cam_h)) < 3       # the footprints lose a pawn
    got = c.tops(blob, (x0, y0), cam_h)
    assert got is not None and len(got) == 3
    for t in tops:
        assert np.min(np.linalg.norm(got - t, axis=1)) < 1.0


def test_a_count_the_tops_contradict_is_asked_not_taken():
    # the footprints' count is kept only where as many tops are seen; a clear misfit with a top too few is asked
    from vision.sundasupply import SupplyCounter, _Split, _Tops

    one = 400.0
    sp = _Split(3 * one, one, {3: (0.1 * one, [(0.0, 0.0)] * 3, 3 * one, 100),
                               2: (1.2 * one, [(0.0, 0.0)] * 2, 2 * one, 80)})
    assert sp.decide(None)[0] == 3
    c = SupplyCounter()
    assert c._by_tops(sp, 3, "", _Tops(np.zeros((3, 2)), None, []), 0.0)[0] == 3
    got, why, _ = c._by_tops(sp, 3, "", _Tops(np.zeros((2, 2)), 2.0 * one, [(0.0, 0.0)] * 2), 0.0)
    assert got is None and "tops" in why
