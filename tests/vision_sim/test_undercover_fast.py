"""The colour re-reading's fast kernel (issue 14, h-tilecpu7): :func:`vision.undercover.best_by_colour` tries every
shift at once (the brightness factors' sums as matrix products, the truncated misfits by one contraction) and gives
what the shift-by-shift loop it replaced gave: the same misfits up to float32 rounding, the same best shift (the first
of equal ones), no shift where too little shows."""
from __future__ import annotations

import numpy as np
import pytest

from vision import undercover
from vision.undercover import BRIGHTNESS, MIN_VISIBLE, TRUNCATE, best_by_colour


def _loop(window, visible, cands, pad, offset=None):
    """The computation the kernel replaced: one shift at a time over the visible pixels (undercover before h-tilecpu7)."""
    n, side = cands.shape[0], cands.shape[1]
    flat = cands.reshape(n, -1, 3)
    if offset is not None:
        off = np.asarray(offset, np.float32).reshape(1, 1, 3)
        above = flat - off
    best = np.full(n, np.inf, np.float32)
    where = np.zeros((n, 2), np.int32)
    for dy in range(-pad, pad + 1):
        for dx in range(-pad, pad + 1):
            obs = window[pad + dy:pad + dy + side, pad + dx:pad + dx + side]
            vis = visible[pad + dy:pad + dy + side, pad + dx:pad + dx + side].ravel()
            if vis.sum() < MIN_VISIBLE * side * side:
                continue
            o = obs.reshape(-1, 3)[vis]
            if offset is None:
                err = np.minimum(np.abs(flat[:, vis] - o[None]).sum(axis=2), TRUNCATE).mean(axis=1)
            else:
                c = above[:, vis]
                k = np.clip((c * (o - off)).sum(axis=(1, 2)) / np.maximum((c * c).sum(axis=(1, 2)), 1e-6),
                            *BRIGHTNESS).astype(np.float32)
                err = np.minimum(np.abs(c * k[:, None, None] + off - o[None]).sum(axis=2), TRUNCATE).mean(axis=1)
            better = err < best
            best[better] = err[better]
            where[better] = (dy, dx)
    return best, where


def _case(rng, n, side, pad, hidden_share):
    """A smooth tile-like picture seen a few pixels off with noise and a hidden blob, and ``n`` candidates: the
    picture itself, dimmer and brighter copies and unrelated smooth pictures."""
    import cv2

    def picture():
        small = rng.uniform(30, 230, (4, 4, 3)).astype(np.float32)
        return cv2.resize(small, (side + 2 * pad, side + 2 * pad), interpolation=cv2.INTER_CUBIC)

    scene = picture()
    window = np.clip(scene + rng.normal(0, 8, scene.shape), 0, 255).astype(np.float32)
    dy, dx = rng.integers(-pad, pad + 1, 2)
    truth = scene[pad + dy:pad + dy + side, pad + dx:pad + dx + side]
    cands = [truth, truth * 0.9, np.clip(truth * 1.1, 0, 255)] + [picture()[:side, :side] for _ in range(n - 3)]
    visible = np.ones(window.shape[:2], bool)
    yy, xx = np.mgrid[:window.shape[0], :window.shape[1]]
    cy, cx = rng.uniform(0, window.shape[0], 2)
    r = np.sqrt(hidden_share * window.size / 3 / np.pi)
    visible[(yy - cy) ** 2 + (xx - cx) ** 2 < r * r] = False
    return window, visible, np.stack(cands[:n]).astype(np.float32)


@pytest.mark.parametrize("n,side,pad", [(1, 48, 2), (24, 24, 2), (60, 12, 1), (5, 20, 4)])
@pytest.mark.parametrize("with_offset", [False, True])
def test_every_shift_at_once_gives_the_loops_misfits_and_shifts(n, side, pad, with_offset):
    rng = np.random.default_rng(side * 10 + n + with_offset)
    offset = np.array([6.7, 35.4, 29.7], np.float32) if with_offset else None
    for hidden_share in (0.0, 0.3, 0.7):
        window, visible, cands = _case(rng, n, side, pad, hidden_share)
        want, want_at = _loop(window, visible, cands, pad, offset)
        got, got_at = best_by_colour(window, visible, cands, pad, offset)
        assert got.dtype == np.float32 and got_at.dtype == np.int32
        assert np.array_equal(np.isfinite(got), np.isfinite(want))
        ok = np.isfinite(want)
        np.testing.assert_allclose(got[ok], want[ok], rtol=2e-5)
        assert np.array_equal(got_at, want_at)


def test_a_shift_showing_too_little_is_not_tried_and_none_gives_no_shift():
    rng = np.random.default_rng(3)
    window, visible, cands = _case(rng, 4, 16, 2, 0.0)
    visible[:, :] = False
    visible[:5, :] = True                                   # only the two top rows of shifts show a quarter
    want, want_at = _loop(window, visible, cands, 2)
    got, got_at = best_by_colour(window, visible, cands, 2)
    assert np.isfinite(want).all() and (want_at[:, 0] < 0).all()
    np.testing.assert_allclose(got, want, rtol=2e-5)
    assert np.array_equal(got_at, want_at)
    visible[:] = False
    got, got_at = best_by_colour(window, visible, cands, 2, np.zeros(3, np.float32))
    assert np.isinf(got).all() and not got_at.any()


def test_of_equal_misfits_the_first_shift_wins():
    window = np.full((20, 20, 3), 100.0, np.float32)         # every shift shows the same
    cands = np.full((2, 16, 16, 3), 90.0, np.float32)
    visible = np.ones((20, 20), bool)
    for offset in (None, np.array([5.0, 5.0, 5.0], np.float32)):
        want, want_at = _loop(window, visible, cands, 2, offset)
        got, got_at = best_by_colour(window, visible, cands, 2, offset)
        assert (want_at == -2).all() and np.array_equal(got_at, want_at)
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_every_shift_is_scored_in_one_pass(monkeypatch):
    calls = []
    real = undercover._misfits
    monkeypatch.setattr(undercover, "_misfits", lambda *a: calls.append(a[1].shape) or real(*a))
    rng = np.random.default_rng(9)
    window, visible, cands = _case(rng, 6, 24, 3, 0.2)
    best_by_colour(window, visible, cands, 3, np.ones(3, np.float32))
    assert calls == [(1, 49, 3, 24 * 24)], "one call for all 49 shifts"


def test_many_candidates_are_taken_in_blocks(monkeypatch):
    rng = np.random.default_rng(5)
    window, visible, cands = _case(rng, 40, 12, 1, 0.2)
    whole = best_by_colour(window, visible, cands, 1, np.ones(3, np.float32))
    monkeypatch.setattr(undercover, "_CHUNK", 9 * 144 * 7)   # seven candidates a block
    blocks = best_by_colour(window, visible, cands, 1, np.ones(3, np.float32))
    assert np.array_equal(whole[0], blocks[0]) and np.array_equal(whole[1], blocks[1])


@pytest.mark.parametrize("with_offset", [False, True])
def test_each_candidate_in_its_own_window_gives_what_one_call_each_gave(with_offset):
    from vision.undercover import each_by_colour

    rng = np.random.default_rng(7 + with_offset)
    offset = np.array([12.0, 30.0, 25.0], np.float32) if with_offset else None
    cases = [_case(rng, 1, 48, 2, share) for share in (0.0, 0.2, 0.5, 0.8, 0.4, 0.1)]
    windows = np.stack([c[0] for c in cases])
    visibles = np.stack([c[1] for c in cases])
    cands = np.concatenate([c[2] for c in cases])
    got, got_at = each_by_colour(windows, visibles, cands, 2, offset)
    for i, (window, visible, cand) in enumerate(cases):
        want, want_at = _loop(window, visible, cand, 2, offset)
        assert np.isfinite(got[i]) == np.isfinite(want[0])
        if np.isfinite(want[0]):
            np.testing.assert_allclose(got[i], want[0], rtol=2e-5)
        assert np.array_equal(got_at[i], want_at[0])


def _misfits_before(planes, obs, vis, scaled):
    """:func:`undercover._misfits` before h-tilecpu8 (its sum of the three channels started from zeros)."""
    n, shifts, npx = planes.shape[0], obs.shape[1], obs.shape[3]
    shared = obs.shape[0] == 1
    out = np.empty((n, shifts), np.float32)
    step = max(1, undercover._CHUNK // max(shifts * npx, 1))
    for a in range(0, n, step):
        c = planes[a:a + step]
        m = c.shape[0]
        o, v = (obs, vis) if shared else (obs[a:a + step], vis[a:a + step])
        if scaled:
            q = c[:, 0] * c[:, 0] + c[:, 1] * c[:, 1] + c[:, 2] * c[:, 2]
            if shared:
                num = c.reshape(m, -1) @ (o[0] * v[0][:, None, :]).reshape(shifts, -1).T
                den = q @ v[0].T
            else:
                num = np.einsum("icp,iscp->is", c, o * v[:, :, None, :])
                den = np.einsum("ip,isp->is", q, v)
            k = np.clip(num / np.maximum(den, 1e-6), *BRIGHTNESS).astype(np.float32)[:, :, None]
        e = np.zeros((m, shifts, npx), np.float32)
        t = np.empty_like(e)
        for ch in range(3):
            if scaled:
                np.multiply(k, c[:, None, ch, :], out=t)
            else:
                t[:] = c[:, None, ch, :]
            np.subtract(t, o[:, :, ch, :], out=t)
            e += np.abs(t, out=t)
        np.minimum(e, TRUNCATE, out=e)
        out[a:a + m] = np.einsum("isp,sp->is", e, v[0]) if shared else np.einsum("isp,isp->is", e, v)
    return out


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("scaled", [False, True])
def test_the_misfits_are_those_of_the_kernel_before_to_the_bit(shared, scaled):
    """h-tilecpu8: the first channel's misfit is written, not added to zeros: the same floats, not only close."""
    rng = np.random.default_rng(31 + 2 * shared + scaled)
    n, shifts, npx = 7, 9, 144
    planes = rng.uniform(-40, 220, (n, 3, npx)).astype(np.float32)
    obs = rng.uniform(-40, 220, (1 if shared else n, shifts, 3, npx)).astype(np.float32)
    vis = (rng.random((1 if shared else n, shifts, npx)) < 0.7).astype(np.float32)
    want = _misfits_before(planes, obs, vis, scaled)
    got = undercover._misfits(planes, obs, vis, scaled)
    assert np.array_equal(got, want)
