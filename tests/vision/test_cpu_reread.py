"""The colour re-reading's kernel (vision.undercover), twelfth round of issue 14's CPU work (h-tilecpu11): the misfits
are made in blocks that stay in a core's cache, and the light's offset comes off each window once, before the window is
cut at every shift. Both give, to the bit, what the code before gave (written out here as it was)."""
from __future__ import annotations

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from vision import undercover


def _case(rng, n: int, side: int, pad: int, own: bool):
    """``n`` candidates of ``side`` pixels, and their window(s) ``pad`` pixels wider, a third of each hidden."""
    w = side + 2 * pad
    m = n if own else 1
    cands = rng.uniform(0, 255, (n, side, side, 3)).astype(np.float32)
    windows = rng.uniform(0, 255, (m, w, w, 3)).astype(np.float32)
    visibles = rng.random((m, w, w)) > 0.33
    return cands, windows, visibles


def _best_shifts_before(cands, windows, visibles, pad, offset):
    """:func:`undercover._best_shifts` before h-tilecpu11: every shift's window cut first, the offset taken off each
    cut, the masks made floats after, the misfits of every candidate in one 8 MB block."""
    n, side = cands.shape[0], cands.shape[1]
    npx = side * side
    m, span = windows.shape[0], windows.shape[1] - side + 1
    obs = np.ascontiguousarray(sliding_window_view(windows, (side, side), axis=(1, 2))).reshape(m, span * span, 3, npx)
    vis = np.ascontiguousarray(sliding_window_view(visibles, (side, side), axis=(1, 2))).reshape(m, span * span, npx)
    planes = np.ascontiguousarray(np.asarray(cands, np.float32).reshape(n, npx, 3).transpose(0, 2, 1))
    if offset is not None:
        off = np.asarray(offset, np.float32).reshape(1, 3, 1)
        planes, obs = planes - off, obs - off[None]
    block = undercover._CACHE_BLOCK
    undercover._CACHE_BLOCK = undercover._CHUNK
    try:
        err = undercover._misfits(planes, obs, vis.astype(np.float32), offset is not None)
    finally:
        undercover._CACHE_BLOCK = block
    return undercover._least(err, vis.sum(axis=2), npx, pad)  # the least shift's choice: unchanged by the round


# the re-reading's three stages as a Suedsee or Neues Land tile meets them: every candidate at a quarter of the size
# against one window, the best 24 at half, the best five or six at full size each in its own window
STAGES = [(240, 12, 1, False), (24, 24, 2, False), (6, 48, 2, True)]


@pytest.mark.parametrize("n, side, pad, own", STAGES)
@pytest.mark.parametrize("with_offset", [False, True])
def test_the_misfits_and_shifts_are_those_of_the_code_before_to_the_bit(n, side, pad, own, with_offset):
    rng = np.random.default_rng(n + side + with_offset)
    cands, windows, visibles = _case(rng, n, side, pad, own)
    offset = np.array([12.0, 30.0, 25.0], np.float32) if with_offset else None
    want = _best_shifts_before(cands, windows, visibles, pad, offset)
    if own:
        got = undercover.each_by_colour(windows, visibles, cands, pad, offset)
    else:
        got = undercover.best_by_colour(windows[0], visibles[0], cands, pad, offset)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_the_fine_stages_misfits_are_made_a_candidate_at_a_time(monkeypatch):
    """A block of the fine stage (25 shifts of 2304 pixels a candidate) holds one candidate: its working arrays
    (225 KB each) stay in a core's L2 cache through the three channels' passes, where six candidates at once
    (1.4 MB each) did not, 1.5-2.5 times slower (issue 14, CPU)."""
    rng = np.random.default_rng(3)
    cands, windows, visibles = _case(rng, 6, 48, 2, True)
    offset = np.array([5.0, 3.0, 2.0], np.float32)
    blocks = []
    real = np.einsum

    def spy(subscripts, *operands, **kw):
        if subscripts == "isp,isp->is":
            blocks.append(operands[0].shape[0])
        return real(subscripts, *operands, **kw)

    monkeypatch.setattr(np, "einsum", spy)
    undercover.each_by_colour(windows, visibles, cands, 2, offset)
    assert blocks == [1] * 6
    assert 25 * 48 * 48 <= undercover._CACHE_BLOCK < 2 * 25 * 48 * 48
