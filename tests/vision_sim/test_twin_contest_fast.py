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


def _old_less_art(self, smooth, covered, pad, fits, angle=0.0):
    """:meth:`TileClassifier._less_art` as it was before h-tilecpu8: every pixel's misfit made, then summed per part."""
    n, labels = cv2.connectedComponents(covered.astype(np.uint8), connectivity=8)
    if n <= 1:
        return covered
    px = self.px
    ring = np.zeros(covered.shape, bool)
    k = self.verify_ring
    ring[pad + k:pad + px - k, pad + k:pad + px - k] = True
    inside = np.bincount(labels[ring], minlength=n).astype(np.float64)
    best = np.full(n, np.inf)
    for j, (dy, dx, gain, offset, misfit) in fits.items():
        pred = self._blurred(j, angle) * gain + offset
        win = smooth[pad + dy:pad + dy + px, pad + dx:pad + dx + px]
        resid = np.zeros(covered.shape, np.float64)
        resid[pad:pad + px, pad:pad + px] = ((win - pred) ** 2).sum(axis=2)
        per = np.bincount(labels[ring], weights=resid[ring], minlength=n) / np.maximum(inside, 1.0)
        best = np.minimum(best, per / max(misfit, 1e-6))
    art = (best <= self.verify_art) & (inside >= self.verify_pixels)
    art[0] = False
    return covered & ~(art[labels] & ring)


def _old_part_scores(self, smooth, covered, pad, fits, angle=0.0):
    """Each covered part's best misfit ratio as the old :meth:`_less_art` weighed it (part 0, the bare pixels, left
    out): the numbers its decision compares, to check them to the bit and not only the mask they gave."""
    n, labels = cv2.connectedComponents(covered.astype(np.uint8), connectivity=8)
    px, k = self.px, self.verify_ring
    ring = np.zeros(covered.shape, bool)
    ring[pad + k:pad + px - k, pad + k:pad + px - k] = True
    out = []
    for j, (dy, dx, gain, offset, misfit) in fits.items():
        pred = self._blurred(j, angle) * gain + offset
        win = smooth[pad + dy:pad + dy + px, pad + dx:pad + dx + px]
        resid = np.zeros(covered.shape, np.float64)
        resid[pad:pad + px, pad:pad + px] = ((win - pred) ** 2).sum(axis=2)
        out.append(np.bincount(labels[ring], weights=resid[ring], minlength=n)[1:])
    return out


@pytest.mark.parametrize("angle", [0.0, 2.0])
def test_the_art_given_back_is_weighed_on_the_covered_parts_alone_to_the_bit(clf, angle, monkeypatch):
    """:meth:`TileClassifier._less_art` takes each reference's misfit on the covered parts' pixels in the ring only
    (h-tilecpu8): the same parts given back as when every pixel's misfit was made, and each part's summed misfit the
    same float."""
    rng = np.random.default_rng(23)
    pad = int(3 * clf.verify_sigma) + clf.verify_reach
    side = clf.px + 2 * pad
    given_back = kept = 0
    for j in (0, 4, 2):
        smooth, _ = _photo(clf, j, rng, pad, False)
        first = [j] + [i for i in range(len(clf.templates)) if i != j]
        fits = clf._alignments(smooth, None, pad, first, angle)
        covered = np.zeros((side, side), bool)
        covered[pad + 14:pad + 24, pad + 20:pad + 32] = True     # over the twins' detail: art
        covered[pad + 30:pad + 44, pad + 4:pad + 16] = True      # elsewhere on the tile
        covered[0:pad + 6, 0:pad + 6] = True                     # across the seam
        covered[pad + 40:pad + 41, pad + 40:pad + 41] = True     # a speck
        dark = smooth.copy()
        dark[pad + 30:pad + 44, pad + 4:pad + 16] *= 0.4          # a figure's shadow there
        want = _old_less_art(clf, dark, covered, pad, fits, angle)
        got = clf._less_art(dark, covered, pad, fits, angle)
        assert np.array_equal(got, want)
        given_back += int((covered & ~got).any())
        kept += int(got.any())
        # the sums the decision compares, to the bit: the new code's bincounts seen through np.bincount
        sums = []
        real = np.bincount

        def spy(x, weights=None, minlength=0):
            out = real(x, weights=weights, minlength=minlength)
            if weights is not None:
                sums.append(out[1:])
            return out
        monkeypatch.setattr(np, "bincount", spy)
        clf._less_art(dark, covered, pad, fits, angle)
        monkeypatch.setattr(np, "bincount", real)
        old = _old_part_scores(clf, dark, covered, pad, fits, angle)
        assert len(sums) == len(old)
        for a, b in zip(sums, old):
            assert np.array_equal(a, b)
    assert given_back and kept, "both outcomes met"
