"""A figure on a picture of its own colour is found.

Neues Land's ds076 has a golden palace drawn on its plain (G:NW), where a yellow figure stands. After the
figure finder's gain fit the palace is much of the figure's yellow, so the figure's pixels there differ from
the tile's reference by less than the strict bound (four times the tile's median misfit): what was left of
the figure was a stub under the smallest figure's area, or pieces no 3x3 square fits in, and the figure was
not reported (``tablehub bench vision --games neuesland --levels default --boards 60``, board 50). Pixels of
a player colour that differ by half as much now join a blob of that colour beside them. Before the fix,
seed 703 below (a standing figure on the palace) was missed.
"""
from __future__ import annotations

import dataclasses

import pytest

pytestmark = pytest.mark.shared


def test_a_yellow_figure_on_the_golden_palace_is_found(neuesland):
    from vision.sim import SceneFigure

    rec = neuesland.recognizer()
    wrong = []
    for k in range(8):
        seed = 700 + k
        scene = neuesland.board(seed=seed, tiles=30, figures=0)
        spot = next(i for i, t in enumerate(scene.tiles) if (t.x, t.y) != (0, 0) and abs(t.x) + abs(t.y) >= 2)
        t = scene.tiles[spot]
        scene.tiles[spot] = dataclasses.replace(t, tile="ds076", rotation=90 * (k % 4))
        scene.figures = [SceneFigure(t.x, t.y, "yellow", "G:NW", None, lying=k % 2 == 0)]
        frame, truth = neuesland.render(scene, seed=seed + 50)
        obs = rec.observe(frame)
        assert obs.tiles.get((t.x, t.y)) is not None and obs.tiles[(t.x, t.y)].tile == "ds076"
        got = [(f.x, f.y, f.colour, f.region) for f in obs.figures]
        if got != [(t.x, t.y, "yellow", truth.figures[0]["region"])]:
            wrong.append((seed, got))
    assert not wrong, f"a yellow figure on ds076's palace (G:NW): (seed, figures seen) {wrong}"
