"""Figures looked for against a tile's hidden twins at the cost of the windows alone (issue 14, CPU: a full board from
scratch <= 250 ms on one core).

``FigureReading._seen_on_twins`` (session suedfig6) looks for figures on a tile with hidden twins against each twin:
one figure pass over that cell per twin, each made afresh, so every one fitted the light of the eight tiles around
again, placed and seated them again and tested the whole canvas for the bare mat again (a twelfth to a sixteenth of
a Südsee ``field`` reading, 46-58 ms, timed per function). Now the passes of one call share what does not depend on
the tile in the cell looked at (``fitted``; :func:`vision.figurereading._forget_cell` drops the rest before and after
each), and where the canvas shows the mat is made once per canvas and grid (``FeatureCanvas.kept``): every pass gives
the same sightings as one made afresh.
"""
from __future__ import annotations

import cv2

from tests.vision.test_sued_fig_hidden import _bench_board
from vision import figurereading
from vision.figurereading import FigureReading, _forget_cell


def test_forget_cell_drops_what_depends_on_that_cells_tile_and_keeps_the_rest():
    fitted = {"mat": 1, "grid": 2, "small": 3, "on mat": 4,
              ("place", 1, 2): 5, ("seat", 1, 2): 6, ("light", 1, 2): 7, ("lit", 1, 2): 8,
              ("place", 2, 2): 9, ("light", 2, 2): 10, ("lit", 2, 2): 11,
              ("lit", 2, 2, "in the light of", (1, 2)): 12, ("lit", 2, 3, "in the light of", (2, 2)): 13}
    _forget_cell(fitted, (1, 2))
    assert set(fitted) == {"mat", "grid", "small", "on mat", ("place", 2, 2), ("light", 2, 2), ("lit", 2, 2)}


def test_the_passes_against_the_twins_see_what_passes_made_afresh_see(monkeypatch):
    cv2.setNumThreads(1)
    real = FigureReading._figure_pass
    real_on_mat = FigureReading._on_mat
    real_gain = figurereading._gain_of
    calls: list = []
    on_mat: list = []       # the canvases the bare mat was looked for on, one entry a time (kept alive: ids unique)
    gains = {"n": 0}

    def spied(self, fc, group, spots, tiles, nadir, halved=None, mat_bgr=None, grid=None, must=(), fitted=None):
        if fitted is None:
            return real(self, fc, group, spots, tiles, nadir, halved, mat_bgr, grid, must)
        occ = fc.occlusion(0)
        out = real(self, fc, group, spots, tiles, nadir, halved, mat_bgr, grid, must, fitted=fitted)
        calls.append((self, fc, list(group), dict(tiles), nadir, halved, mat_bgr, grid, list(must),
                      None if occ is None else occ.copy(), out))
        return out

    def counted(self, fc, grid, *a, **k):
        on_mat.append((fc, grid))
        return real_on_mat(self, fc, grid, *a, **k)

    def fitting(*a, **k):
        gains["n"] += 1
        return real_gain(*a, **k)

    monkeypatch.setattr(FigureReading, "_figure_pass", spied)
    monkeypatch.setattr(FigureReading, "_on_mat", counted)
    monkeypatch.setattr(figurereading, "_gain_of", fitting)
    # the bench's Südsee field/hard board 4 of seed 1 (tiles read with hidden twins under and beside figures)
    _bench_board(1, "field", 4)
    assert calls, "no pass against a twin: the board no longer tests what it should"
    # where the canvas shows the mat: made once per canvas and grid (a pass against a twin makes none of its own)
    made = [(id(fc), grid) for fc, grid in on_mat]
    assert made and len(made) == len(set(made)), made
    for self, fc, group, tiles, nadir, halved, mat_bgr, grid, must, occ, out in calls:
        if occ is not None:
            fc.set_occlusion(occ)       # the covered mask the pass saw
        args = (self, fc, group, None, tiles, nadir, halved, mat_bgr, grid, must)
        assert real(*args) == out, group            # as a pass made afresh
        # a second pass over the cell (the next twin's) with what the first left: the same, the tiles around not fitted
        # again
        shared: dict = {}
        gains["n"] = 0
        first = real(*args, fitted=shared)
        fits_first = gains["n"]
        _forget_cell(shared, group[0])
        gains["n"] = 0
        assert real(*args, fitted=shared) == first == out, group
        assert gains["n"] < fits_first, (gains["n"], fits_first)
