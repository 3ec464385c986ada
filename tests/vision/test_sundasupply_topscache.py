"""A blob's tops and their fit kept between counts (vision/sundasupply.py, ``SupplyCounter._tops_fit``,
``_tops_lost_one``): a heap the split cache takes for the same blob is read as it was, and a heap that lost one pawn
has its tops fitted from the last count's, only the pawns by the one gone moved. The counts are those of a count
made afresh."""
from __future__ import annotations

import numpy as np

from tests.vision.test_sundasupply_clusters import _bench_table


def test_the_counts_with_the_tops_kept_are_those_of_counts_made_afresh_over_a_tracked_table():
    # seed 1, table 1, `default` (the bench's tracked table): pawns put on one by one, each frame counted by one counter
    # (its tops kept from the frame before) and by a counter of its own (nothing kept): the same counts, reasons and
    # blobs; the unchanged heaps (the 9 yellow pawns whose tops are fitted among them) not looked at again
    from vision.sundasupply import SupplyCounter

    kept = SupplyCounter()
    reader = None
    for on in range(5, 9):
        frame, _, r = _bench_table("default", 1, 1, on)
        reader = reader or r
        reading = reader.read(frame)
        nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
        seen = kept.count(frame, reader, reading, nadir, cam_h)
        fresh = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
        assert seen.counts == fresh.counts and seen.why == fresh.why
        assert [(b.colour, b.pawns, b.why) for b in seen.blobs] == [(b.colour, b.pawns, b.why) for b in fresh.blobs]
    assert kept.tops_calls["tops kept"] >= 3 * 10     # every frame after the first: most blobs kept
    assert kept.tops_calls["tops"] < kept.tops_calls["tops kept"]


def test_a_heap_that_lost_one_pawn_has_its_tops_fitted_from_the_last_count():
    # the last count fitted three pawns under three tops in a row; now two of those tops are seen (within a pixel), the
    # third gone: the two start where they were fitted, and only those by the one gone move. A top moved by more than
    # a pixel, or two gone: fitted afresh
    from vision.sundasupply import PAWN_MM, SupplyCounter, _Tops

    c = SupplyCounter()
    at = np.array([[100.0, 100.0], [110.0, 100.0], [140.0, 100.0]])
    bases = [(99.5, 99.6), (109.5, 99.6), (139.4, 99.7)]
    fit_of = (3, False, np.array([350.0, 350.0]).tobytes(), 1040.0)
    key = ("red", 180, 180, 100, 30)
    c._tops_of[key] = (None, None, fit_of, at, _Tops(at, 10.0, bases), None)
    now = at[[0, 2]] + 0.2 / c.s
    got = c._tops_lost_one(("red", 181, 180, 99, 30), now, (2,) + fit_of[1:], now - 0.5)
    assert got is not None
    start, by = got
    assert np.allclose(start, [bases[0], bases[2]])
    assert by == [i for i, b in enumerate(now - 0.5) if np.linalg.norm(b - np.asarray(bases[1])) <= 2 * PAWN_MM]
    assert by == [0]
    assert c._tops_lost_one(("red", 181, 180, 99, 30), now + [3.0 / c.s, 0], fit_of, now) is None
    assert c._tops_lost_one(("red", 181, 180, 99, 30), at[[0]], fit_of, at[[0]]) is None
    assert c._tops_lost_one(("yellow", 181, 180, 99, 30), now, fit_of, now) is None
