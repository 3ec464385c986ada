"""A figure the gate saw against the art is looked for without a spot of its colour (issue 14, session nlboards3).

The figure search looks closely only at cells with a *spot*: a figure-sized blob of a player colour, by colour alone
(``FigureReading._covered``). On canvases of many cells a gate runs first (``_figure_possible``): the figure finder,
its bars lowered, against every tile's art in its light. A yellow figure on a yellow-green plain under the field
camera's warm cast is 13-17 units from yellow and the plain around it 15-30: by colour alone figure and plain are one
blob far larger than a figure, and no pixel lies within yellow's calibrated spread (9.6), so there was no spot, and
the figure was lost although the gate, which compares with the art, had found it (Neues Land bench ``field/hard``
seed 4 board 0). Where the gate ran, a cell it passed is looked at without a spot (``FigureReading.gate_spots``).
"""
from __future__ import annotations

import numpy as np

from vision.figurereading import FigureReading
from tests.vision.test_figure_base_tile import _Canvas, _Stub as _BaseStub
from vision.tiles import TILE_PX


class _Stub(_BaseStub):
    """What :meth:`FigureReading._figure_pass` asks of a recogniser: the gate passes ``possible``, no spots anywhere,
    every cell's picture unexplained by its tile (over the hint), none unlike its tile."""

    figure_gate = True
    figure_gate_cells = 2
    gate_spots = getattr(FigureReading, "gate_spots", None)

    def __init__(self, possible):
        super().__init__()
        self.possible = set(possible)
        self.classifier = type("C", (), {"unexplained": staticmethod(lambda fc, t: 5.0)})()

    def _figure_possible(self, fc, tiles, cells, fitted):
        return self.possible & set(cells)


def test_a_cell_the_gate_passed_is_looked_at_without_a_spot():
    tiles = {(0, 0): object(), (1, 0): object()}
    spots = np.zeros((4 * TILE_PX, 4 * TILE_PX), bool)          # no spot of a player colour anywhere
    stub = _Stub(possible=[(1, 0)])
    FigureReading._figure_pass(stub, _Canvas(), [(0, 0), (1, 0)], spots, tiles, None)
    assert stub.looked == [(1, 0)]                # the gate's cell, not the other
    stub = _Stub(possible=[(1, 0)])
    stub.gate_spots = False                       # as before: a spot needed, none looked at
    FigureReading._figure_pass(stub, _Canvas(), [(0, 0), (1, 0)], spots, tiles, None)
    assert stub.looked == []


def test_the_bench_yellow_figure_on_the_yellow_plain_is_found(monkeypatch):
    """The bench's Neues Land ``field/hard`` row, seed 4, board 0: the yellow figure on ds014's plain (G:EW) at
    (-2, -1). Before: not seen."""
    from tests.vision.conftest import BENCH
    from tests.vision.test_sued_fig_hidden import _bench_board

    cell, want = (-2, -1), ("yellow", "G:EW")
    rec, obs, truth = _bench_board(4, "field", 0, game="neuesland", level="hard")
    assert (-2, -1, "yellow", "G:EW") in {(f["x"], f["y"], f["color"], f["region"]) for f in truth.figures}
    seen = [(f.colour, f.region) for f in obs.figures if (f.x, f.y) == cell]
    assert seen == [want], obs.figures
    tally = BENCH.Tally()
    BENCH.score_board(rec, obs, truth, tally, "board")
    assert not tally.errors, tally.errors
    monkeypatch.setattr(FigureReading, "gate_spots", False)
    rec, obs, _ = _bench_board(4, "field", 0, game="neuesland", level="hard")
    assert not [f for f in obs.figures if (f.x, f.y) == cell], obs.figures
