"""A figure's base and region hold over a sub-pixel move of the mat (issue 14, session suedfig12).

A real camera's marker corners jitter by a few tenths of a pixel from frame to frame, and the mat's homography with
them by 0.1-0.2 mm. On the bench's Südsee ``--legal`` field/hard seed 4 board 4 a black figure below an island's rim
had 8 of its 31 pixels (at the figures' scale) in bits on the rim, apart from its body, over the finder's bar by a
hair: a 0.1 px move of the homography took them away, and the base (the median of the picture across the lean) moved
4.6 mm across the rim, from I:NW to S:out (its true region); a blue figure's picture had a strip of art 5 pixels long
beyond its near end, which came and went so, and its base moved 3 mm along the lean, from I:N (true) to S:N. A figure
is one solid body, no wider than its arms across the lean, leaning away from the nadir from its foot: its base is now
found without the bits apart from its body that it cannot have (``_main_body``, ``FigureReading.base_from_body``).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from tests.vision.conftest import BENCH
from tests.vision.test_sued_fig_hidden import _bench_board
from vision.figurereading import _main_body

# the moves of the image the homography is read from (px): a few tenths, as marker corners jitter
MOVES = [(0.0, 0.0), (0.2, 0.0), (-0.2, 0.0), (0.0, 0.2), (0.0, -0.2), (0.3, 0.3), (-0.3, -0.3), (0.1, -0.1)]


def test_the_main_body_leaves_out_bits_a_figure_cannot_have():
    nadir = (-100.0, 14.0)                               # the lean along x: across it is y
    body = np.zeros((30, 30), bool)
    body[11:19, 10:16] = True                            # 8 pixels across
    wide = body.copy()
    wide[[7, 7, 8, 8], [11, 13, 12, 14]] = True          # the art's rim a pixel above: 12 pixels across
    assert np.array_equal(_main_body(wide, nadir, 10.0), body)
    assert np.array_equal(_main_body(wide, None, 10.0), wide)      # no lean known: the whole picture
    assert np.array_equal(_main_body(wide, nadir, 13.0), wide)     # no wider than a figure: all of it its own
    ahead = body.copy()
    ahead[12:17, 7] = True                               # a strip of art a pixel nearer the nadir than the foot
    assert np.array_equal(_main_body(ahead, nadir, 10.0), body)
    behind = body.copy()
    behind[12:17, 18] = True                             # beyond the body, away from the nadir: may be its top
    assert np.array_equal(_main_body(behind, nadir, 10.0), behind)
    halves = body.copy()
    halves[:, 12:14] = False                             # a figure cut in two by a stripe of art: both its own
    assert np.array_equal(_main_body(halves, nadir, 10.0), halves)


def _figures(obs):
    return sorted((f.x, f.y, f.colour, f.region) for f in obs.figures)


def test_a_figure_reads_the_same_over_a_sub_pixel_move_of_the_mat(monkeypatch):
    frames = []
    render = BENCH.render

    # keep the frame the board was read from: wrap the bench's renderer, which _bench_board wraps in turn
    def keep(*a, **k):
        out = render(*a, **k)
        frames.append(out[0])
        return out

    monkeypatch.setattr(BENCH, "render", keep)
    rec, obs, truth = _bench_board(4, "field", 4, legal=True)
    frame, grid = frames[-1], obs.grid
    located = rec.rectifier.locate(frame)
    seen = []
    for dx, dy in MOVES:
        move = np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy], [0.0, 0.0, 1.0]])
        rec.rectifier.last = replace(located, homography=located.homography @ move)
        seen.append(_figures(rec.observe(frame, grid=grid, relocate=False)))
    assert all(s == seen[0] for s in seen), seen
    # before: I:NW unmoved (its base 4.6 mm off, across the rim), S:out moved by 0.1-0.3 px
    black = [f for f in seen[0] if f[:3] == (4, -3, "black")]
    assert black == [(4, -3, "black", "S:out")]
    assert any(g["x"] == 4 and g["y"] == -3 and g["region"] == "S:out" for g in truth.figures)
