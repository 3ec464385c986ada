"""A heap's count where the fill ranks the tops' count first by under the margin (vision/sundasupply.py,
``FILL_TOPS``, ``SupplyCounter._by_fill``; docs/sunda.md, "The supply, counted"). Inside a heap of many touching pawns
a pawn more or less changes the paint, as the blur fills it, by little: the fill alone cannot part the counts by half a
footprint there. The tops count each pawn; where the paint as the blur fills it ranks their count first, their pawns
fit it as any count must and leave no pawn's patch unexplained, the heap is counted. Such heaps were asked."""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_sundasupply_clusters import _bench_table
from tests.vision.test_sundasupply_fill import CAM_H, NADIR


@pytest.mark.parametrize("fill_tops", [True, False])
def test_a_large_heap_the_tops_count_and_the_fill_ranks_first_is_counted(monkeypatch, fill_tops):
    # `hard`, seed 2, table 0, no pawn put on: a red heap of 20 touching pawns, all 20 tops seen; the footprints
    # (the waists filled) read more pawns, and the fill ranks 20 first by 0.42 of a footprint, under the margin: the
    # yellow supply was asked. With the tops' reading it is counted as it stands; no colour is counted other than it
    # stands either way
    from vision import sundasupply
    from vision.sundasupply import SupplyCounter

    monkeypatch.setattr(sundasupply, "FILL_TOPS", fill_tops)
    frame, truth, reader = _bench_table("hard", 2, 0, 0, own_set=True)
    reading = reader.read(frame)
    nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
    seen = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
    stands = {c: sum(p["colour"] == c for p in truth.supply) for c in ("red", "yellow")}
    if fill_tops:
        assert seen.counts["red"] == stands["red"], seen.why["red"]
    else:
        assert seen.counts["red"] is None
    for colour in ("red", "yellow"):
        assert seen.counts[colour] in (None, stands[colour]), seen.why[colour]


def test_the_tops_count_under_the_margin_needs_the_fill_to_rank_it_first_and_no_paint_unexplained(monkeypatch):
    # the fill's misfits set per count (a pawn more or less inside a heap changes the filled paint by a fifth of a
    # footprint): the tops' count, ranked first by under the margin, is taken where their pawns leave no pawn's patch
    # of paint unexplained; asked where they leave one (a top missed on the heap's rim), where the fill ranks another
    # count first, where it ranks none first (a tie), and where the tops' pawns were not fitted
    from vision.sundasupply import MARGIN, SupplyCounter, _Split, _Tops

    c = SupplyCounter()
    one = 400.0
    sp = _Split(20 * one, one, {n: (0.0, [(float(k), 0.0) for k in range(n)], 0, 0) for n in (19, 20, 21)})
    fit = _Tops(np.zeros((20, 2)), 0.0, [(float(k), 0.0) for k in range(20)], loose=0.0)
    blob, o = np.ones((4, 4), np.uint8), (0, 0)

    def misfits(errs):
        monkeypatch.setattr(c, "_filled_misfit", lambda b, org, bases, *a: errs[len(bases)] * one)

    misfits({19: 1.2, 20: 1.0, 21: 1.2})
    got, why, bases = c._by_fill(sp, fit, 2.0, 3.0, blob, o, NADIR, CAM_H)
    assert got == 20 and len(bases) == 20, why
    got, why, _ = c._by_fill(sp, fit._replace(loose=MARGIN * one), 2.0, 3.0, blob, o, NADIR, CAM_H)
    assert got is None and "20 or 19 pawns" in why
    got, why, _ = c._by_fill(sp, _Tops(fit.at, None, []), 2.0, 3.0, blob, o, NADIR, CAM_H)
    assert got is None
    misfits({19: 1.2, 20: 1.0, 21: 1.0})
    assert c._by_fill(sp, fit, 2.0, 3.0, blob, o, NADIR, CAM_H)[0] is None
    misfits({19: 1.2, 20: 1.1, 21: 1.0})
    got, why, _ = c._by_fill(sp, fit, 2.0, 3.0, blob, o, NADIR, CAM_H)
    assert got is None and "21 or 20 pawns" in why
