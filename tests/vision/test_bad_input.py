"""Bad input never ends in a traceback: one clear line, or a low-confidence result."""
from __future__ import annotations

import numpy as np
import pytest

from vision import VisionError

pytestmark = pytest.mark.shared


def test_a_blank_frame_is_refused_with_a_clear_message(neuesland):
    rec = neuesland.recognizer()
    with pytest.raises(VisionError, match="blank image"):
        rec.observe(np.full((1080, 1920, 3), 128, np.uint8))


def test_an_overexposed_frame_is_refused_with_a_clear_message(neuesland):
    rec = neuesland.recognizer()
    frame = np.full((1080, 1920, 3), 255, np.uint8)
    frame[::7, ::7] = 200
    with pytest.raises(VisionError, match="overexposed|blank"):
        rec.observe(frame)


def test_a_photo_without_the_mat_says_which_markers_are_missing(neuesland):
    rec = neuesland.recognizer()
    noise = np.random.default_rng(0).integers(0, 255, (1080, 1920, 3), dtype=np.uint8)
    with pytest.raises(VisionError, match="markers"):
        rec.observe(noise)


def test_a_table_without_the_start_tile_says_so(neuesland):
    from vision.sim import Scene

    rec = neuesland.recognizer()
    frame, _ = neuesland.render(Scene(), seed=3)
    with pytest.raises(VisionError, match="start tile"):
        rec.observe(frame)


def test_a_tile_not_in_the_set_comes_out_with_low_confidence(neuesland, suedsee):
    """A Südsee tile among Neues Land tiles: reported as the nearest look-alike, but unsure."""
    foreign = "D1"
    from vision.sim import render

    scene = neuesland.board(seed=61, tiles=12, figures=0)
    free = {(t.x, t.y) for t in scene.tiles}
    cell = next((x, 0) for x in range(1, 7) if (x, 0) not in free)
    from vision.sim import SceneTile

    class Mixed:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def image(self, tile_id, size):
            return (self.b if tile_id == foreign else self.a).image(tile_id, size)

    scene.tiles.append(SceneTile(cell[0], cell[1], foreign, 0))
    frame, _ = render(scene, Mixed(neuesland.setup.art, suedsee.setup.art), "default", np.random.default_rng(62),
                      geometry=None)
    obs = neuesland.recognizer().observe(frame)
    assert cell in obs.tiles, "the foreign tile occupies its cell"
    assert obs.tiles[cell].confidence < 0.5, f"and is reported unsure: {obs.tiles[cell]}"
    assert any(f"({cell[0]}, {cell[1]})" in w for w in obs.warnings)


def test_a_figure_of_a_colour_nobody_plays_is_not_reported_as_a_player(neuesland):
    from vision.sim import SceneFigure

    scene = neuesland.board(seed=71, tiles=20, figures=0)
    t = scene.tiles[5]
    scene.figures.append(SceneFigure(t.x, t.y, "purple", neuesland.setup.geometry.regions(t.tile)[0][0]))
    frame, truth = neuesland.render(scene, seed=72)
    obs = neuesland.recognizer().observe(frame)
    assert not [f for f in obs.figures if f.colour in ("red", "blue", "green", "yellow", "black")], obs.figures
    assert (t.x, t.y) in obs.tiles, "the tile under it is still read"
