"""The supplies' count between two frames (``vision.sundasupply.SupplyGate``; docs/sunda.md, "When the count runs"): a
heap whose pixels did not change keeps its count and its split, the heap a pawn left is fitted again; a colour whose
paint no window changed keeps the very array of the last count (its pixels not copied nor counted again), the colour
that changed gets a new one and the last count's is left as it was; and the counts are a full count's."""
from __future__ import annotations

import numpy as np

from tests.vision.test_sundasupply import LOOSE, _table
from vision.sim.sundatable import render_sunda
from vision.sundasupply import SupplyCounter, SupplyGate


def _two_frames():
    """The gate's counts of two frames of one table (``clean``, seed 3): every loose pawn, then the last of the red
    row of three taken. (seen before, seen after, the full count after, the colours fitted afresh in the second
    count, the blobs' splits before and after by colour and box)."""
    red = [p for p in LOOSE if p[0] == "red"]
    game, pos, scene, cam, reader, rng = _table("clean", 3)
    gate = SupplyGate(SupplyCounter())
    c = gate.counter
    fitted: list[str] = []
    colour_now: list[str] = []
    split, refit, once = c.split, c._refit, c._split_once

    def split_once(colour, *a, **k):
        colour_now[:] = [colour]
        return once(colour, *a, **k)

    def counted(*a, **k):
        fitted.append(colour_now[0])
        return split(*a, **k)

    def refitted(colour, *a, **k):
        got = refit(colour, *a, **k)
        fitted.extend([colour] if got is not None else [])
        return got
    c._split_once, c.split, c._refit = split_once, counted, refitted
    out, reading, splits = [], None, []
    for loose in (LOOSE, [p for p in LOOSE if p != red[2]]):
        scene.loose_pawns = tuple(loose)
        frame, _ = render_sunda(scene, cam, rng)
        reading = reader.read(frame, previous=reading)
        nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
        del fitted[:]
        seen = gate.count(frame, reader, reading, nadir, cam_h)
        out.append(seen)
        splits.append({f.key: f.split for f in c.last.found})
        if len(out) == 1:
            kept = {col: p.copy() for col, p in seen.paint.items()}
    full = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
    return out[0], out[1], full, list(fitted), splits, kept, gate.calls


def test_an_unchanged_colours_paint_is_kept_and_a_changed_one_is_new():
    before, after, full, _, _, kept, calls = _two_frames()
    assert calls == {"full": 1, "windows": 1, "kept": 0}
    assert after.counts == full.counts and after.counts["red"] == before.counts["red"] - 1 == 6
    # yellow's paint: no window changed it, the very array of the frame before
    assert after.paint["yellow"] is before.paint["yellow"]
    # red's: a new array where the pawn's paint is gone, the frame before's left as it was (what the live loop
    # compares the two with: ``supply_change_agrees``)
    assert after.paint["red"] is not before.paint["red"]
    assert np.count_nonzero(before.paint["red"] & ~after.paint["red"]) > 0.5 * after.pawn_px["red"]
    for col, p in before.paint.items():
        assert np.array_equal(p, kept[col])
    for seen in (before, after):
        assert seen.area_px == {col: int(np.count_nonzero(p)) for col, p in seen.paint.items()}


def test_the_heap_a_pawn_left_is_fitted_again_and_the_others_keep_their_splits():
    before, after, _, fitted, splits, _, _ = _two_frames()
    assert fitted == ["red"]                   # the row of three, two pawns now: fitted again; nothing else
    same = [k for k in splits[1] if k in splits[0]]
    assert {k[0] for k in same} == {"red", "yellow"}
    for k in same:                             # every other heap: its split of the frame before, the same object
        assert splits[1][k] is splits[0][k]
    changed = [b for b in after.blobs if b.colour == "red" and b.pawns == 2]
    assert len(changed) == 1


def test_the_cells_median_is_numpys():
    """The gate's noise level, the median of the largest channel's difference, taken as :func:`changed_cells` takes
    it (all the cells as one channel, :func:`vision.sampling.median_u8`)."""
    from vision.sampling import median_u8

    rng = np.random.default_rng(4)
    for n in range(1, 200):
        d = rng.integers(0, int(rng.integers(1, 256)), (n, int(rng.integers(1, 30)))).astype(np.uint8)
        assert float(median_u8(d.reshape(-1, 1))[0]) == float(np.median(d))
