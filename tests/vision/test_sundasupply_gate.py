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
    counted by a gate and by a full count of a counter of its own: (gate's counts, full counts, the gate's splits, the
    gate's calls) a frame."""
    game, pos, scene, cam, reader, rng = _table(level, seed)
    gate = SupplyGate(SupplyCounter())
    splits = []
    real = gate.counter.split

    def counted(*a, **k):
        splits.append(1)
        return real(*a, **k)
    gate.counter.split = counted
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
