"""Cells far from the others are read on canvases of their own (issue 14, CPU: a full board from scratch <= 250 ms).

Beyond the play area the field camera's olive cloth made a cell worth a look 14 cells from the tiles (the bench's
Südsee ``field/hard`` full board, seed 1: cell (16, -14)), and the one canvas over every cell to read was 22 x 20 cells
for 74 of them: sampled, balanced, turned into features and searched for player colours and figures' blobs whole
(``sample``, ``occlusion`` and the figure gate two to three times the ``sim`` camera's). ``Recognizer._canvases`` now
puts cells more than ``Recognizer.canvas_gap`` cells from all others on canvases of their own.
"""
from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from tests.vision.conftest import BENCH, SUEDSEE
from vision.recognize import Recognizer, _apart


def _clusters(cells, gap):
    """Single-linkage clusters of ``cells`` (cells at most ``gap`` apart, by the largest of the two steps, joined), by
    comparing every pair: the slow way."""
    parent = {c: c for c in cells}

    def root(c):
        while parent[c] != c:
            c = parent[c]
        return c

    for a, b in itertools.combinations(cells, 2):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= gap:
            parent[root(a)] = root(b)
    return sorted(sorted(c for c in cells if root(c) == r) for r in {root(c) for c in cells})


@pytest.mark.parametrize("seed", range(40))
def test_cells_are_grouped_as_single_linkage_clusters_in_their_order(seed):
    rng = np.random.default_rng(seed)
    gap = int(rng.integers(1, 5))
    cells = list(dict.fromkeys((int(x), int(y)) for x, y in rng.integers(-20, 20, (int(rng.integers(1, 40)), 2))))
    groups = _apart(cells, gap)
    assert sorted(sorted(g) for g in groups) == _clusters(cells, gap)
    assert all(g == [c for c in cells if c in set(g)] for g in groups)       # each group in the cells' order
    firsts = [cells.index(g[0]) for g in groups]
    assert firsts == sorted(firsts)                                            # the groups in their first cell's


def test_a_lone_cell_far_from_the_tiles_gets_its_own_canvas_and_the_reading_stays_the_same(monkeypatch):
    """The bench's Südsee ``field/hard`` full board (seed 1: the recogniser enrolled as the bench does, the frame
    rendered on the olive cloth): read with one canvas over every cell (``canvas_gap`` larger than the table) and
    with the far cell apart, the same observation; the pixels sampled a third."""
    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent")
    cv2.setNumThreads(1)
    frame, rec = _bench_full_board("suedsee", "hard", "field", 1)
    sizes: list[int] = []
    canvases = Recognizer._canvases

    def spied(self, *a, **kw):
        out = canvases(self, *a, **kw)
        sizes.append(sum(gc.image.shape[0] * gc.image.shape[1] for gc, _ in out))
        return out

    monkeypatch.setattr(Recognizer, "_canvases", spied)
    apart = rec.observe(frame)
    split = sizes[-1]
    rec.canvas_gap = 1000
    whole = rec.observe(frame)
    assert split < sizes[-1] / 2, (split, sizes[-1])
    assert apart.to_dict() == whole.to_dict()


def _bench_full_board(game: str, level: str, family: str, seed: int) -> tuple[np.ndarray, Recognizer]:
    """The full board the bench times on that row (``benchmarks/vision.py`` ``run_level`` with no boards before it)
    and the bench's recogniser."""
    import argparse

    args = argparse.Namespace(boards=0, tiles=(40, 84), figures=10, incremental=0, repeats=1, anywhere=True,
                              from_scratch=False, anchored=False)
    seen: list = []
    observe = Recognizer.observe

    def kept(self, frame, *a, **kw):
        seen.append((frame, self))
        return observe(self, frame, *a, **kw)

    Recognizer.observe = kept
    try:
        g = BENCH.game_setup(game, BENCH.scans_folder("neuesland"))
        BENCH.run_level(g, level, args, BENCH.row_seed(seed, game, level, family, ["default", "hard"]), family)
    finally:
        Recognizer.observe = observe
    return seen[-1]         # the last reading of the timing loop: the full board
