"""When and where the supplies are counted again (``vision.sundasupply.SupplyGate``; docs/sunda.md, "The supply,
counted"): a frame that shows the mat as the last one counted keeps that count, and one where a pawn left the supply is
counted again only round that blob; the counts are those a full count of the frame gives."""
from __future__ import annotations

import numpy as np

from tests.vision.test_sundasupply import LOOSE, _table
from vision.sim.sundatable import render_sunda
from vision.sundasupply import SupplyCounter, SupplyGate, _closed, changed_cells


def _count_with_a_gate(level: str, seed: int, supplies: list[tuple]) -> list[tuple]:
    """Each supply (``loose_pawns``) rendered in turn on one table, read incrementally as the live loop reads it, and
    counted by a gate and by a full count of a counter of its own: (gate's counts, full counts, the gate's splits and
    refits, the gate's calls) a frame."""
    game, pos, scene, cam, reader, rng = _table(level, seed)
    gate = SupplyGate(SupplyCounter())
    splits = []
    real = gate.counter.split

    refit = gate.counter._refit

    def counted(*a, **k):
        splits.append(1)
        return real(*a, **k)

    def refitted(*a, **k):      # a heap that lost a pawn fitted from the frame before's split: fitted again too
        got = refit(*a, **k)
        splits.extend([1] if got is not None else [])
        return got
    gate.counter.split = counted
    gate.counter._refit = refitted
    out, reading = [], None
    for loose in supplies:
        scene.loose_pawns = tuple(loose)
        frame, _ = render_sunda(scene, cam, rng)
        reading = reader.read(frame, previous=reading)
        nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
        del splits[:]
        calls = dict(gate.calls)
        seen = gate.count(frame, reader, reading, nadir, cam_h)
        full = SupplyCounter().count(frame, reader, reading, nadir, cam_h)
        out.append((seen.counts, full.counts, len(splits), {k: gate.calls[k] - calls[k] for k in calls}))
    return out


def test_the_gate_counts_again_only_where_a_pawn_left_and_counts_as_a_full_count():
    red = [p for p in LOOSE if p[0] == "red"]
    lone = next(p for p in red if p[1] == (420.0, 676.0))
    of_three = red[2]                 # the row of three touching: its last
    steps = [LOOSE, LOOSE, [p for p in LOOSE if p != of_three], [p for p in LOOSE if p not in (of_three, lone)]]
    got = _count_with_a_gate("clean", 3, steps)
    for gate, full, _, _ in got:
        assert gate == full
    assert [g["red"] for g, *_ in got] == [7, 7, 6, 5]
    # the first frame counted whole; the same mat again: kept, nothing split; a pawn taken from the row: only that
    # blob split again (2 pawns now); the lone pawn taken: a blob gone, nothing split
    assert [c for *_, c in got] == [{"full": 1, "windows": 0, "kept": 0}, {"full": 0, "windows": 0, "kept": 1},
                                    {"full": 0, "windows": 1, "kept": 0}, {"full": 0, "windows": 1, "kept": 0}]
    assert [n for _, _, n, _ in got][1:] == [0, 1, 0]


def test_a_window_grows_to_hold_every_blob_it_meets_whole():
    # a change at 100-110 meets a blob reaching 90-140, which meets another to 160: one window 90-160; a blob apart
    # stays outside, and two windows that come to meet are merged
    boxes = [(90, 90, 50, 20), (135, 95, 25, 10), (300, 300, 10, 10)]
    assert _closed([(100, 100, 110, 110)], boxes, (1000, 1000)) == [(90, 90, 160, 110)]
    assert _closed([(100, 100, 110, 110), (150, 100, 152, 104)], boxes, (1000, 1000)) == [(90, 90, 160, 110)]
    assert _closed([(500, 500, 510, 510)], boxes, (1000, 1000)) == [(500, 500, 510, 510)]


def test_changed_cells_are_a_pawn_not_the_noise():
    rng = np.random.default_rng(2)
    before = rng.normal(120, 4, (60, 80, 3)).clip(0, 255).astype(np.uint8)
    now = (before.astype(np.int16) + rng.normal(0, 4, before.shape)).clip(0, 255).astype(np.uint8)
    assert not changed_cells(before, now).any()
    now[20:25, 30:35] = (40, 40, 160)           # a red pawn put down (5 cells across at the gate's scale)
    cells = changed_cells(before, now)
    ys, xs = np.nonzero(cells)
    assert cells.any() and (ys.min(), ys.max(), xs.min(), xs.max()) == (20, 24, 30, 34)


def test_the_paints_change_is_judged_on_where_the_masks_differ_as_on_the_whole_canvas():
    """``supply_change_agrees`` opens and labels only the box where the two frames' paint differs (the rest of the
    mat is 1.5 million pixels): the places it finds are those of the whole masks."""
    import cv2

    from vision.sundasupply import MARGIN, PAWN_MM, SupplySeen, supply_change_agrees

    def whole(a, b, one, taken):
        k = max(int(round(PAWN_MM / 4 * 2.0)), 3) | 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

        def places(mask):
            m = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, disc)
            _, _, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
            return int(np.count_nonzero(stats[1:, cv2.CC_STAT_AREA] >= MARGIN * one * 0.5))
        return places(a & ~b) == taken and places(b & ~a) == 0

    rng = np.random.default_rng(5)
    for trial in range(30):
        a = np.zeros((300, 400), np.uint8)
        for _ in range(6):
            cv2.circle(a, (int(rng.integers(0, 400)), int(rng.integers(0, 300))), 10, 1, -1)
        b = a.copy()
        for _ in range(int(rng.integers(0, 3))):     # pawns taken (some at the canvas's edge), a speck of noise
            cv2.circle(b, (int(rng.integers(0, 400)), int(rng.integers(0, 300))), 11, 0, -1)
        b[int(rng.integers(0, 300)), int(rng.integers(0, 400))] ^= 1
        a, b = a > 0, b > 0
        one = 300.0
        before = SupplySeen({}, {}, [], {}, {"red": one}, 2.0, {"red": a})
        now = SupplySeen({}, {}, [], {}, {"red": one}, 2.0, {"red": b})
        for taken in (0, 1, 2):
            assert supply_change_agrees(before, now, "red", taken) == whole(a, b, one, taken), (trial, taken)
    assert supply_change_agrees(before, before, "red", 0) and not supply_change_agrees(before, before, "red", 1)
