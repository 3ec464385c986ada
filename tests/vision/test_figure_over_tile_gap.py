"""A figure standing over the gap between two tiles read (issue 14, session nlfig6).

Each tile's offset from its cell is read on its own, to a pixel (0.94 mm): two tiles laid by hand a millimetre apart
are seated with a pixel's gap between them, and the figure finder took that gap for the bare mat beside the tiles.
There a dark picture is a shadow on the cloth (no figure), and the seam rings of both tiles keep out the weak pixels:
a black figure standing 3.5 mm inside its tile, its picture leaning over the seam, was cut in two along the gap and
neither half was a figure (Neues Land bench, sim camera, ``default`` seed 2 board 6: 67 mm2 of it kept, never seen).
A gap between two tiles read narrower than :data:`vision.figurereading.TILE_GAP_MM` is where they meet.
"""
from __future__ import annotations

import numpy as np
import pytest

from vision import figurereading
from vision.figurereading import _tiles_meet


def test_a_gap_between_two_tiles_is_filled_and_the_outline_kept():
    known = np.zeros((40, 40), bool)
    known[:19, :30] = True          # a tile above ...
    known[20:, :20] = True          # ... a tile below, a pixel's gap between them; the bare mat right of it
    out = _tiles_meet(known, 4)
    assert out[19, :20].all()                       # the gap where the two tiles meet
    assert not out[20:, 20:].any()                  # the bare mat beside the lower tile, its corner too
    assert not out[:, 30:].any() and (out[:19] == known[:19]).all()
    wide = known.copy()
    wide[19:25] = False                             # 6 pixels apart: bare mat between them
    assert (_tiles_meet(wide, 4) == wide).all()


@pytest.mark.shared
def test_a_black_figure_over_the_gap_between_two_tiles_is_found(neuesland, monkeypatch):
    from dataclasses import replace

    from vision.sim import SceneFigure

    def lost(gap_mm: float) -> tuple[int, list]:
        monkeypatch.setattr(figurereading, "TILE_GAP_MM", gap_mm)
        rec = neuesland.recognizer()
        total, out = 0, []
        for seed in range(3):
            scene = neuesland.board(seed=900 + seed, tiles=30, figures=0)
            at = {(t.x, t.y): i for i, t in enumerate(scene.tiles)}
            figures, used = [], set()
            for (x, y), i in sorted(at.items()):
                below = at.get((x, y + 1))
                if y >= 0 or below is None or (x, y + 1) == (0, 0) or {(x - 1, y), (x, y), (x + 1, y)} & used:
                    continue
                # the upper tile laid 0.6 mm north of its cell, the lower 0.5 mm south: a millimetre's gap
                scene.tiles[i] = replace(scene.tiles[i], offset_mm=(scene.tiles[i].offset_mm[0], -0.6))
                scene.tiles[below] = replace(scene.tiles[below], offset_mm=(scene.tiles[below].offset_mm[0], 0.5))
                # a black figure 3.5 mm inside the lower tile's north edge, north of the camera: it leans over the seam
                figures.append(SceneFigure(x, y + 1, "black", None, (0.0, -19.0)))
                used.add((x, y))
            scene.figures = figures
            frame, truth = neuesland.render(scene, seed=950 + seed)
            obs = rec.observe(frame)
            seen = {(f.x, f.y) for f in obs.figures if f.colour == "black"}
            total += len(figures)
            out += [(seed, f.x, f.y) for f in figures if (f.x, f.y) not in seen]
        return total, out

    total, missed = lost(figurereading.TILE_GAP_MM)
    assert total >= 6 and missed == [], f"black figures over a gap not seen: {missed} of {total}"
