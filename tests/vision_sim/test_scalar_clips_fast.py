"""A reading's confidence (:func:`vision.tiles._confidence`, a few hundred calls a reading) and a clear tile's offset
to a fraction of a pixel (:func:`vision.tiles._vertex`) are clipped by ``min`` and ``max`` instead of ``np.clip`` on
single numbers (h-tilecpu8, issue 14, CPU: numpy's cost per call was most of theirs): the same floats as the formulas
before (written out here), for Python floats and numpy scalars alike."""
from __future__ import annotations

import math

import numpy as np

from vision.tiles import _confidence, _vertex


def _confidence_before(best, second):
    margin = best - max(second, 0.0)
    quality = float(np.clip((best - 0.62) / 0.22, 0.0, 1.0))
    separation = float(np.clip(margin / 0.08, 0.0, 1.0))
    return quality * (0.5 + 0.5 * separation) if margin > 0 else quality * 0.4


def test_the_confidence_is_the_same_float_as_before():
    rng = np.random.default_rng(14)
    pairs = [tuple(p) for p in rng.uniform(-0.3, 1.2, (3000, 2))]
    pairs += [(0.62, 0.5), (0.84, 0.76), (0.84, 0.84), (0.9, -1.0), (1.0, 1.0), (0.5, 0.7), (0.7, 0.62)]
    for b, s in pairs:
        for best, second in ((float(b), float(s)), (np.float32(b), np.float32(s)), (np.float64(b), float(s))):
            want, got = _confidence_before(best, second), _confidence(best, second)
            assert type(got) is type(want) and got == want and math.copysign(1, got) == math.copysign(1, want)
    assert math.isnan(_confidence(float("nan"), 0.5)) and math.isnan(_confidence_before(float("nan"), 0.5))


def _vertex_before(left, mid, right):
    curve = float(left) - 2.0 * float(mid) + float(right)
    return float(np.clip(0.5 * (float(left) - float(right)) / curve, -0.5, 0.5)) if curve < 0 else 0.0


def test_the_parabolas_top_is_the_same_float_as_before():
    rng = np.random.default_rng(15)
    for a, b, c in rng.uniform(0.5, 1.0, (3000, 3)):
        for args in ((float(a), float(b), float(c)), (np.float32(a), np.float32(b), np.float32(c))):
            want, got = _vertex_before(*args), _vertex(*args)
            assert type(got) is type(want) and got == want
    assert _vertex(0.9, 0.95, 0.5) == _vertex_before(0.9, 0.95, 0.5) and _vertex(0.9, 0.8, 0.9) == 0.0
