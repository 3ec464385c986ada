"""The supplies by the mat's markers and the frame's edge (vision/sundasupply.py, ``SupplyCounter._cut`` and ``_room``;
docs/sunda.md, "The supply, counted"): a blob one of whose pawns reached into the unseen (a marker's square, past the
frame's edge) by a millimetre was asked, its colour uncounted and the heights the count would tell asked with it,
although every pawn of it is seen. It is counted where the unseen has no room for one more pawn whose seen part
(:data:`~vision.sundasupply.SPECK` of a footprint at least: a pawn seen less is a speck to the count anywhere) lies
within the blob's paint, a pawn's width from the counted ones; the blob's paint by the bounds must still be its
pawns'."""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_sundasupply import SEP
from tests.vision.test_sundasupply_edges import _count

NADIR = np.array([350.0, 350.0])
CAM_H = 1040.0
N = 200     # the synthetic canvas (px at 2 px/mm: 100 mm square); the unseen is every pixel left of 20 mm


def _paint(counter, bases, hidden):
    from vision.sundasupply import footprint

    m = np.zeros((N, N), np.uint8)
    for b in bases:
        poly = np.round(counter.to_px(footprint(np.asarray(b, float), NADIR, CAM_H)) * 16).astype(np.int32)
        cv2.fillPoly(m, [poly.reshape(-1, 1, 2)], 1, cv2.LINE_8, 4)
    return (m.astype(bool) & ~hidden).astype(np.uint8)


def test_the_unseen_has_room_only_for_a_pawn_seen_within_the_paint():
    from vision.sundasupply import SupplyCounter

    counter = SupplyCounter(2.0)
    edge = int(counter.to_px(np.array([[20.0, 0.0]]))[0, 0])
    hidden = np.zeros((N, N), bool)
    hidden[:, :edge] = True
    a, b = (26.0, 30.0), (26.0 + SEP, 30.0)        # a pair touching, A's footprint a millimetre into the unseen
    assert not counter._room(_paint(counter, [a, b], hidden), hidden, (0, 0), [a, b], NADIR, CAM_H)
    # a third pawn beside A, a millimetre into the unseen, its paint part of the blob, the count told two: room
    third = (24.0, 40.1)
    assert counter._room(_paint(counter, [a, b, third], hidden), hidden, (0, 0), [a, b], NADIR, CAM_H)
    # ... told three: none
    assert not counter._room(_paint(counter, [a, b, third], hidden), hidden, (0, 0), [a, b, third], NADIR, CAM_H)


def test_pawns_reaching_a_markers_square_are_counted():
    # the markers at 5-45 mm: a red pair touching, the first's base a millimetre and a half off the square at 655-695
    # mm (y), its top pushed onto it (away from the nadir); a yellow pawn half a millimetre off the square at 5-45 mm,
    # its top overhanging it. Every pawn seen, no room for another seen within their paint: counted (were asked)
    seen = _count([("red", (51.5, 664.0)), ("red", (51.5 + SEP, 664.0)), ("yellow", (50.5, 30.0))])
    assert seen.counts["red"] == 2, seen.why
    assert seen.counts["yellow"] == 1, seen.why


def test_a_pair_whose_count_the_cut_paint_leaves_unclear_is_asked():
    # the pair's first base half a millimetre onto the square (its top further): the paint seen fits one pawn nearly
    # as well as two (the part under the square is not seen): asked, not a count
    seen = _count([("red", (49.5, 664.0)), ("red", (49.5 + SEP, 664.0))])
    assert seen.counts["red"] is None and "marker" in seen.why["red"], seen.why
