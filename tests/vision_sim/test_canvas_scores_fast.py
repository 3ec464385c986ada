""":meth:`FeatureCanvas.scores` gathers its places' windows from one strided view of the level (h-tilecpu8, issue 14,
CPU) instead of stacking a slice per place: the same correlations to the bit (the code before written out here)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.tiles import FeatureCanvas, GridCanvas, centre_lightness


def _scores_before(canvas, level, templates, norms, tops, lefts, reach):
    img = canvas.levels[level]
    k, n = templates.shape[0], templates.shape[1]
    side = n + 2 * reach
    h, w = img.shape[:2]
    tops = np.clip(np.asarray(tops, int) - reach, 0, h - side)
    lefts = np.clip(np.asarray(lefts, int) - reach, 0, w - side)
    regions = np.stack([img[t:t + side, l:l + side] for t, l in zip(tops, lefts)])
    p = 2 * reach + 1
    num = np.empty((k, p, p), np.float32)
    for dy in range(p):
        for dx in range(p):
            num[:, dy, dx] = np.einsum("kijc,kijc->k", regions[:, dy:dy + n, dx:dx + n], templates)
    il, isq = canvas._integral(level)
    r = (tops[:, None] + np.arange(p)[None, :])[:, :, None]
    c = (lefts[:, None] + np.arange(p)[None, :])[:, None, :]
    s1 = il[r + n, c + n] - il[r, c + n] - il[r + n, c] + il[r, c]
    s2 = isq[r + n, c + n] - isq[r, c + n] - isq[r + n, c] + isq[r, c]
    den = np.sqrt(np.maximum(s2 - s1 * s1 / (n * n), 1e-3)) * norms[:, None, None]
    return num / den, tops, lefts


@pytest.mark.parametrize("level,n,reach", [(0, 42, 1), (1, 21, 1), (0, 42, 3)])
def test_the_windows_gathered_at_once_give_the_same_scores_to_the_bit(level, n, reach):
    rng = np.random.default_rng(level * 10 + reach)
    bgr = rng.integers(0, 256, (3 * 48 + 16, 4 * 48 + 16, 3), dtype=np.uint8)
    canvas = FeatureCanvas(GridCanvas(bgr, 0, 0, 4, 3, 48, 8))
    templates = np.stack([centre_lightness(rng.normal(0, 20, (n, n, 3)).astype(np.float32)) for _ in range(7)])
    norms = np.linalg.norm(templates.reshape(7, -1), axis=1)
    h, w = canvas.levels[level].shape[:2]
    tops = rng.integers(-3, h - n + 3, 7)            # some beyond the edges: clipped
    lefts = rng.integers(-3, w - n + 3, 7)
    want = _scores_before(canvas, level, templates, norms, tops, lefts, reach)
    got = canvas.scores(level, templates, norms, tops, lefts, reach)
    for a, b in zip(got, want):
        assert np.array_equal(a, b)
