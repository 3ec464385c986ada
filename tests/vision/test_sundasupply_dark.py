"""A dark paint's supply is not counted by its tops (vision/sundasupply.py, ``TOP_LIGHT``, ``_by_tops``; docs/sunda.md,
"The supply, counted"). A top is its pawn's lightest face, but its excess over the pawn's side is a share of what the
paint reflects: on black pawns it is a few levels, and the noise and the blur make peaks that are no top and lose true
ones (docs/history/sunda-measured.md, session 21). Agreeing with a count the misfit alone does not tell, such tops made
black counts that were sure and wrong; now such a blob is asked, with the reason."""
from __future__ import annotations

import numpy as np

from tests.vision.test_sundasupply_clusters import _bench_table


def test_a_black_heap_whose_tops_miss_a_pawn_at_hard_is_asked_not_counted_wrong():
    # 4 players, seed 3, table 0, `hard`, 6 pawns put on: a black heap of 3 whose paint's area and the 2 tops seen in
    # it (the third lost in the dark paint's noise) agreed on 2: a blob told 2 where 3 black pawns stand. Now no black
    # blob is told other than its pawns (that heap is asked: the paint too dark for its tops), and red and yellow are
    # counted as they stand
    from vision.sundasupply import PAWN_MM, SupplyCounter

    frame, truth, reader = _bench_table("hard", 3, 0, 6, players=4, own_set=True)
    reading = reader.read(frame)
    nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
    seen = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
    black = np.array([p["base_mm"] for p in truth.supply if p["colour"] == "black"], float)
    told = [b for b in seen.blobs if b.colour == "black" and b.pawns is not None]
    for b in told:
        near = np.linalg.norm(black[:, None] - np.asarray(b.bases_mm, float)[None], axis=2).min(axis=1) < PAWN_MM
        assert b.pawns == np.count_nonzero(near), (b.centre_mm, b.pawns, np.count_nonzero(near))
    assert any("too dark" in b.why for b in seen.blobs if b.colour == "black"), seen.why["black"]
    for colour in ("red", "yellow"):
        assert seen.counts[colour] == sum(p["colour"] == colour for p in truth.supply), seen.why[colour]
