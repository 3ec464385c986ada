"""A count's work kept between the frames of an incremental read (vision/sundasupply.py): a heap's fill
(``SupplyCounter._fill_again``) kept for the edge spread's last few values, and what ``_cut`` said of a blob by the
bounds (``SupplyCounter._cut_once``), each taken only where everything it was drawn from is the same."""
from __future__ import annotations

import numpy as np


def _blob() -> tuple[np.ndarray, tuple[int, int]]:
    m = np.zeros((20, 30), bool)
    m[4:16, 5:25] = True
    return m, (100, 200)


def test_a_fill_is_taken_again_only_from_the_same_split_tops_spread_blur_mask_and_camera():
    from vision.sundasupply import FILL_SEEN, SupplyCounter

    c = SupplyCounter()
    sp, tops, other = object(), object(), object()
    nadir, cam_h = np.array([350.0, 300.0]), 1040.0
    key = ("red", 100, 200, 30, 20)
    mask = _blob()
    fill_a, fill_b = (3, "", [(1.0, 2.0)]), (None, "the paint as the blur fills it", [])
    # two fills of the same heap, drawn under two edge spreads (another heap's pawn left, and came back in its median)
    c._fill_seen[key] = [((sp, tops, 0.37, 4.0), mask, nadir.tobytes(), cam_h, fill_b),
                         ((sp, tops, 0.35, 4.0), mask, nadir.tobytes(), cam_h, fill_a)]
    assert c._fill_again(key, (sp, tops, 0.35, 4.0), mask, nadir, cam_h) is fill_a
    assert c._fill_again(key, (sp, tops, 0.37, 4.0), (mask[0].copy(), mask[1]), nadir, cam_h) is fill_b
    assert c.fill_calls["fill seen"] == 2
    # anything else differing: drawn afresh
    moved = mask[0].copy()
    moved[4, 4] = True
    assert c._fill_again(key, (sp, tops, 0.36, 4.0), mask, nadir, cam_h) is None
    assert c._fill_again(key, (sp, tops, 0.35, 3.0), mask, nadir, cam_h) is None
    assert c._fill_again(key, (other, tops, 0.35, 4.0), mask, nadir, cam_h) is None
    assert c._fill_again(key, (sp, other, 0.35, 4.0), mask, nadir, cam_h) is None
    assert c._fill_again(key, (sp, tops, 0.35, 4.0), (moved, mask[1]), nadir, cam_h) is None
    assert c._fill_again(key, (sp, tops, 0.35, 4.0), (mask[0], (101, 200)), nadir, cam_h) is None
    assert c._fill_again(key, (sp, tops, 0.35, 4.0), mask, nadir + 1, cam_h) is None
    assert c._fill_again(key, (sp, tops, 0.35, 4.0), mask, nadir, cam_h + 1) is None
    assert c._fill_again(("red", 101, 200, 30, 20), (sp, tops, 0.35, 4.0), mask, nadir, cam_h) is None
    assert FILL_SEEN >= 2


def test_a_blob_by_the_bounds_is_cut_again_only_when_its_mask_its_bases_or_the_zones_changed(monkeypatch):
    from vision.sundasupply import SupplyCounter, _Masks

    c = SupplyCounter()
    calls = []

    def cut(blob, origin_px, bases, nadir, cam_h, unseen, bounds):
        calls.append(len(bases))
        return len(bases) == 2

    monkeypatch.setattr(c, "_cut", cut)
    z = np.zeros((400, 400), bool)
    masks = _Masks(z, z.copy(), z, z, z, 100.0, z.copy())
    nadir, cam_h, key, edge = np.array([350.0, 300.0]), 1040.0, ("red", 100, 200, 30, 20), _blob()
    bases = [(60.0, 110.0), (66.0, 110.0)]
    now: dict = {}
    assert c._cut_once(key, edge, bases, nadir, cam_h, masks, now) is True
    c._cut_of, now = now, {}
    assert c._cut_once(key, (edge[0].copy(), edge[1]), [list(b) for b in bases], nadir, cam_h, masks, now) is True
    assert calls == [2] and key in now        # the same blob, bases and zones: what was said stands
    c._cut_of, now = now, {}
    assert c._cut_once(key, edge, bases[:1], nadir, cam_h, masks, now) is False
    c._cut_of, now = now, {}
    moved = edge[0].copy()
    moved[4, 4] = True
    assert c._cut_once(key, (moved, edge[1]), bases[:1], nadir, cam_h, masks, now) is False
    c._cut_of, now = now, {}
    other = _Masks(z, z, z, z, z, 100.0, z.copy())      # the zones made again (the camera moved)
    assert c._cut_once(key, (moved, edge[1]), bases[:1], nadir, cam_h, other, now) is False
    c._cut_of, now = now, {}
    assert c._cut_once(key, (moved, edge[1]), bases[:1], nadir + 1, cam_h, other, now) is False
    assert calls == [2, 1, 1, 1, 1]
