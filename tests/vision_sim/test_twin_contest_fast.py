"""The twin contests' kept pieces (issue 14, h-tilecpu7): :meth:`TileClassifier._alignments` takes the thinned smoothed
references and the pixels at every shift from tables kept per reference and size, and :meth:`TileClassifier._contest`
keeps each pair's summed difference and, with nothing covered, takes every pixel without a mask. Both give, to the
bit, what the computations they replaced gave (written out here as they were, with h-suedtiles' misfit as each
alignment's fifth element)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.refs import ReferenceSet
from vision.tiles import TileClassifier, whole_details


def _smooth_picture(rng, side: int) -> np.ndarray:
    small = rng.integers(30, 230, (6, 6, 3), dtype=np.uint8)
    return cv2.resize(small, (side, side), interpolation=cv2.INTER_CUBIC)


@pytest.fixture(scope="module")
def clf():
    rng = np.random.default_rng(4)
    base = _smooth_picture(rng, 48)
    twin = base.copy()
    twin[14:24, 20:32] = (40, 200, 60)                       # a detail: a patch of another colour
    other = _smooth_picture(rng, 48)
    return TileClassifier(ReferenceSet("t", ["base", "twin", "other"], np.stack([base, twin, other])))


def _old_alignments(self, smooth, vis, pad, js, angle=0.0):
    js = list(dict.fromkeys(js))
    k = self.verify_ring
    idx = np.arange(k, self.px - k, 3)
    t = np.stack([self._blurred(j, angle)[idx[:, None], idx[None, :]].reshape(-1, 3) for j in js])
    r = self.verify_reach
    n = 2 * r + 1
    dy, dx = np.divmod(np.arange(n * n), n)
    rows = pad - r + dy[:, None, None] + idx[None, :, None]
    cols = pad - r + dx[:, None, None] + idx[None, None, :]
    o = smooth[rows, cols].reshape(n * n, -1, 3)
    seen = np.ones(o.shape[:2], np.float32) if vis is None else vis[rows, cols].reshape(n * n, -1).astype(np.float32)
    agree = (((t - t[:1]) ** 2).sum(axis=2) <= self.verify_detail ** 2).astype(np.float32)
    agree[agree.mean(axis=1) < 0.25] = 1.0
    at = agree[None] * t.transpose(2, 0, 1)
    so = (seen[..., None] * o).transpose(2, 1, 0)
    sw = np.maximum(agree @ seen.T, 1.0)
    mt = (at @ seen.T) / sw
    mo = (agree @ so) / sw
    tt = ((at * t.transpose(2, 0, 1)) @ seen.T) / sw - mt * mt
    to = (at @ so) / sw - mt * mo
    oo = (agree @ (so * o.transpose(2, 1, 0))) / sw - mo * mo
    ridge = self.verify_gain_ridge
    gain = np.clip((to + ridge) / (tt + ridge), *self.verify_gains)
    err = (oo - 2 * gain * to + gain * gain * tt).sum(axis=0)
    best = err.argmin(axis=1)
    return {j: (int(dy[best[i]]) - r, int(dx[best[i]]) - r, gain[:, i, best[i]],
                mo[:, i, best[i]] - gain[:, i, best[i]] * mt[:, i, best[i]], float(err[i, best[i]]))
            for i, j in enumerate(js)}


def _old_contest(self, smooth, vis, pad, ja, jb, fits, angle=0.0):
    diff = self._difference(ja, jb, angle)
    if diff is None:
        return None
    rows, cols, dn2, ra, rb = diff
    total = float(dn2.sum())
    preds = []
    for j, ref in ((ja, ra), (jb, rb)):
        dy, dx, gain, offset, _ = fits[j]
        preds.append((pad + dy + rows, pad + dx + cols, gain * ref + offset))
    keep = np.ones(len(rows), bool)
    if vis is not None:
        for rr, cc, _ in preds:
            keep &= vis[rr, cc]
    seen = float(dn2[keep].sum())
    if 4 * int(keep.sum()) < self.verify_pixels or seen < self.verify_seen * total:
        keep = whole_details(rows, cols, keep, self.px)
        if 4 * int(keep.sum()) < self.verify_pixels:
            return None
        seen = float(dn2[keep].sum())
    errs = [float(((smooth[rr[keep], cc[keep]] - pred[keep]) ** 2).sum()) for rr, cc, pred in preds]
    return (errs[0] - errs[1]) / seen


def _photo(clf, j, rng, pad, cover):
    """Template j seen a pixel off with noise, smoothed as :meth:`_verify` smooths the canvas, and what is clear."""
    side = clf.px + 2 * pad
    feat = np.zeros((side, side, 3), np.float32)
    feat[:] = clf.templates[j].mean(axis=(0, 1))
    feat[pad + 1:pad + clf.px, pad:pad + clf.px] = clf.templates[j][:clf.px - 1]
    feat += rng.normal(0, 2.0, feat.shape).astype(np.float32)
    smooth = cv2.GaussianBlur(feat, (0, 0), clf.verify_sigma)
    if not cover:
        return smooth, None
    vis = np.ones((side, side), bool)
    vis[pad + 10:pad + 30, pad + 15:pad + 40] = False        # a figure over much of the detail
    return smooth, vis


@pytest.mark.parametrize("cover", [False, True])
@pytest.mark.parametrize("angle", [0.0, 2.0])
def test_the_kept_tables_give_the_alignments_and_contests_to_the_bit(clf, cover, angle):
    rng = np.random.default_rng(11 + cover)
    pad = int(3 * clf.verify_sigma) + clf.verify_reach
    js = list(range(len(clf.templates)))
    for j in (0, 4, 2):                                      # base, twin, base turned
        smooth, vis = _photo(clf, j, rng, pad, cover)
        first = [j] + [i for i in js if i != j]
        want = _old_alignments(clf, smooth, vis, pad, first, angle)
        for _ in range(2):                                   # built, then kept
            got = clf._alignments(smooth, vis, pad, first, angle)
            assert all((i, angle) in clf._thin for i in first), "the thinned references are kept"
            assert got.keys() == want.keys()
            for i in want:
                assert got[i][:2] == want[i][:2]
                assert np.array_equal(got[i][2], want[i][2]) and np.array_equal(got[i][3], want[i][3])
                assert got[i][4] == want[i][4]                  # the misfit left (tiles._less_art's yardstick)
        contests = 0
        for jc in first[1:]:
            old = _old_contest(clf, smooth, vis, pad, j, jc, want, angle)
            for _ in range(2):
                new = clf._contest(smooth, vis, pad, j, jc, want, angle)
                assert new == old                           # the same float, or both None
            if old is not None:
                assert (j, jc, angle) in clf._difference_totals, "the pair's summed difference is kept"
            contests += old is not None
        assert contests > 0
