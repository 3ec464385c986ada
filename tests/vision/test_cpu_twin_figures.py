"""Figures looked for against a tile's hidden twins at the cost of the windows alone (issue 14, CPU: a full board from
scratch <= 250 ms on one core).

``FigureReading._seen_on_twins`` (session suedfig6) looks for figures on a tile with hidden twins against each twin:
one figure pass over that cell per twin, each made afresh, so every one fitted the light of the eight tiles around
again, placed and seated them again and tested the whole canvas for the bare mat again (a fifth to a tenth of a
Südsee ``field`` reading, 46-58 ms, profiled). Now the passes of one call share what does not depend on the tile in
the cell looked at (``fitted``; :func:`vision.figurereading._forget_cell` drops the rest before and after each), and
where the canvas shows the mat is made once per canvas and grid (``FeatureCanvas.kept``): every pass gives the same
sightings as one made afresh.
"""
from __future__ import annotations

import cv2

from tests.vision.test_sued_fig_hidden import _bench_board
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
    calls: list = []
    on_mat: list = []       # the canvases the bare mat was looked for on, one entry a time (kept alive: ids unique)

    def spied(self, fc, group, spots, tiles, nadir, halved=None, mat_bgr=None, grid=None, must=(), fitted=None):
        if fitted is None:
            return real(self, fc, group, spots, tiles, nadir, halved, mat_bgr, grid, must)
        given = set(fitted)
        occ = fc.occlusion(0)
        out = real(self, fc, group, spots, tiles, nadir, halved, mat_bgr, grid, must, fitted=fitted)
        calls.append((self, fc, list(group), dict(tiles), nadir, halved, mat_bgr, grid, list(must),
                      None if occ is None else occ.copy(), given, out))
        return out

    def counted(self, fc, grid, *a, **k):
        on_mat.append((fc, grid))
        return real_on_mat(self, fc, grid, *a, **k)

    monkeypatch.setattr(FigureReading, "_figure_pass", spied)
    monkeypatch.setattr(FigureReading, "_on_mat", counted)
    # the bench's Südsee field/hard board 4 of seed 1 (tiles read with hidden twins under and beside figures)
    _bench_board(1, "field", 4)
    assert len(calls) >= 2, "fewer than two passes against twins: the board no longer tests what it should"
    reused = 0
    for self, fc, group, tiles, nadir, halved, mat_bgr, grid, must, occ, given, out in calls:
        if occ is not None:
            fc.set_occlusion(occ)       # the covered mask the pass saw
        fresh = real(self, fc, group, None, tiles, nadir, halved, mat_bgr, grid, must)
        assert fresh == out, group
        reused += any(isinstance(k, tuple) and k[0] == "light" for k in given)
    # the tiles around were fitted once for the passes of a call, not again for each twin
    assert reused >= 1, [sorted(map(str, c[10])) for c in calls]
    # where the canvas shows the mat: made once per canvas and grid (a pass against a twin makes none of its own)
    made = [(id(fc), grid) for fc, grid in on_mat]
    assert made and len(made) == len(set(made)), made
