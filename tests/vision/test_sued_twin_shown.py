"""A hidden twin's own art seen beside the figure that hides the rest of the difference (issue 14, session suedfig9).

Südsee's R1, R2 and Q (the sea to the south) and S and T (a bridge from the south) differ at a side. A figure on the
bridge's place hides most of the difference, and the twins are named hidden (``TileClassifier.hidden_under``); on a
table's frontier no neighbour tells them apart by the rules (``FigureReading._twins_by_sides``). But the rest of the
difference, between the figure and the island, shows: against the bridge of the tile taken, R1's sea there was found
as a blue figure of its own. That picture is the twin's art (``FigureReading._twin_shown``): the twin lies there, the
picture is no figure, and the figure standing on the sea is named on the sea.
"""
from __future__ import annotations

from tests.vision.conftest import BENCH
from tests.vision.test_sued_fig_hidden import _bench_board
from vision.figurereading import FigureReading


def _errors_at(rec, obs, truth, cell):
    tally = BENCH.Tally()
    BENCH.score_board(rec, obs, truth, tally, "board")
    return [e for e in tally.errors if f"({cell[0]}, {cell[1]}" in e]


def test_the_sea_beside_a_figure_shows_the_twin_without_the_bridge(monkeypatch):
    # the bench's --legal sim/hard seed 2 board 3: R1 r270 at (-1, -1), its east side on the table's frontier, a red
    # figure on its sea where S has its bridge
    cell = (-1, -1)
    rec, obs, truth = _bench_board(2, "sim", 3, legal=True)
    got = obs.tiles[cell]
    assert (got.tile, got.rotation) == ("R1", 270), got.to_dict()
    assert not _errors_at(rec, obs, truth, cell)
    # before: S taken, R1 a hidden twin, the figure asked and the sea a blue phantom on S's bridge
    monkeypatch.setattr(FigureReading, "twin_shown", False)
    rec, obs, truth = _bench_board(2, "sim", 3, legal=True)
    assert obs.tiles[cell].tile == "S"
    assert any("seen but not there" in e for e in _errors_at(rec, obs, truth, cell))


def test_twins_alike_at_their_sides_stay_named():
    class _Cat:
        edges = {"R1": ("III", "III", "SSS", "III"), "R2": ("III", "III", "SSS", "III"),
                 "Q": ("III", "III", "SSS", "III"), "S": ("III", "III", "SBS", "III")}

        def edges_turned(self, tile, rotation):
            own = self.edges[tile]
            k = (rotation // 90) % 4
            return tuple(own[(d - k) % 4] for d in range(4))

    reader = FigureReading.__new__(FigureReading)
    reader.catalog = _Cat()
    assert reader._alike_at_sides(("R1", 90), [("R2", 90), ("S", 90), ("Q", 180)]) == (("R2", 90),)
