"""Cell (0, 0) holds the start tile: the colour re-reading under a figure does not turn it into one of its twins.

The photo score refused its Südsee sim/default table 8 (seed 102408) with "no start tile at cell 0, 0": the start
search and the fitted grid were right (the table's lattice within 0.1 mm and 0.03 degrees) and the tile pass read the
start tile at (0, 0), a marked guess against its twins D1 and D2 (its drawn picture less a glyph or two).
A figure's picture lay on the cell, so the tiles read unsure under a figure were read again by their colours
(``FigureReading._reread_covered``): that compares whole references at whole-pixel shifts, and this enrolment cut
the start tile's reference 1.25 degrees turned against its twins' (the enrolment leaves each reference's small turn
in), which misfits the edges more than the missing shell weighs: D1 explained the cell clearly better (16.7 against
21.1) and (0, 0) lost the start tile. The rule the tile pass keeps there (``Recognizer._prefer``) now holds after
the re-reading too (``Recognizer._said_again``).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import BENCH, SUEDSEE, Enrolled


@pytest.fixture(scope="module")
def enrolled_as_the_photo_bench() -> Enrolled:
    """Südsee enrolled as the photo score's sim/default row enrols it (its seed, 1024): the start tile's reference
    lies turned against its twins' (the shared ``suedsee`` fixture's lie within a quarter degree)."""
    from vision.enroll import enrol_simulated

    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent (no Südsee catalog yet)")
    setup = BENCH.game_setup("suedsee", None)
    refs, colours, lens = enrol_simulated(setup.catalog_path, setup.art, BENCH.enrolment_camera("default", "sim"),
                                          np.random.default_rng(1024), size=BENCH.SIZE, geometry=setup.geometry,
                                          mat_colour=BENCH.mat_colour_of("sim"))
    return Enrolled(setup, refs, colours, lens, "default")


def _board_with_a_figure_on_the_start_tile(g: Enrolled, seed: int):
    """A 30-tile bench board on its first frame's lattice, a red figure standing anywhere on the start tile."""
    from vision.mat import Mat

    rng = np.random.default_rng(seed)
    cat, geo = g.setup.catalog, g.setup.geometry
    _, lattice = BENCH.first_frame(cat, rng, Mat.default())
    scene = BENCH.random_board(cat, geo, rng, 30, 4, BENCH.SLOPPINESS["default"], lattice=lattice,
                               true_regions=g.setup.true_regions)
    start = scene.tiles[0]
    regions = geo.regions(start.tile)
    region = regions[int(rng.integers(len(regions)))][0]
    scene.figures.append(BENCH.figure_anywhere(start, "red", region, geo, g.setup.true_regions, rng, 45.0))
    return g.render(scene, seed + 1)[0]


def _colour_rereadings(monkeypatch, twin_at_0_0: str | None = None) -> list[str]:
    """What the colour re-reading put at (0, 0), each time it changed the cell; with ``twin_at_0_0``, the re-reading
    is made to put that twin there whenever the cell holds the start tile (as the bench's enrolment made it do)."""
    from dataclasses import replace

    from vision.figurereading import FigureReading

    by_colour: list[str] = []
    reread = FigureReading._reread_covered

    def recorded(self, fc, group, tiles, found):
        changed = reread(self, fc, group, tiles, found)
        t = tiles.get((0, 0))
        if twin_at_0_0 is not None and (0, 0) in group and t is not None and t.tile == self.catalog.start:
            tiles[(0, 0)] = replace(t, tile=twin_at_0_0, confidence=min(t.confidence, 0.49))
            changed = [*changed, (0, 0)]
        if (0, 0) in changed:
            by_colour.append(tiles[(0, 0)].tile)
        return changed

    monkeypatch.setattr(FigureReading, "_reread_covered", recorded)
    return by_colour


@pytest.mark.parametrize("seed", [6])
def test_the_start_tile_read_at_0_0_stays_when_its_colours_are_read_again_under_a_figure(
        enrolled_as_the_photo_bench, monkeypatch, seed):
    """The table as it was: this enrolment's references, a figure on the start tile, the colours naming a twin."""
    cv2.setNumThreads(1)
    g = enrolled_as_the_photo_bench
    start = g.setup.catalog.start
    frame = _board_with_a_figure_on_the_start_tile(g, seed)
    by_colour = _colour_rereadings(monkeypatch)
    rec = g.recognizer()
    obs = rec.observe(frame)
    twins = {t for t, _ in rec._start_and_twins()} - {start}
    if not (by_colour and by_colour[0] in twins):
        # the references come out of the enrolment a little otherwise on another OpenCV (the warps' fixed point)
        pytest.skip(f"the colours named no twin at (0, 0) with this stack's enrolment ({by_colour}): the board does "
                    "not show the cause here (the next test shows the rule on every stack)")
    assert obs.tiles[(0, 0)].tile == start, obs.tiles[(0, 0)]
    assert obs.tiles[(0, 0)].rotation == 0


def test_the_start_tile_read_at_0_0_stays_when_the_colour_rereading_named_a_twin(suedsee, monkeypatch):
    """The rule on every stack and enrolment: the colour re-reading made to name the start tile's twin D1 at (0, 0)
    (as this enrolment's turned reference made it), the reading keeps the start tile there."""
    cv2.setNumThreads(1)
    start = suedsee.setup.catalog.start
    frame = _board_with_a_figure_on_the_start_tile(suedsee, 7)
    by_colour = _colour_rereadings(monkeypatch, "D1")
    obs = suedsee.recognizer().observe(frame)
    assert by_colour and set(by_colour) == {"D1"}, by_colour
    assert (obs.tiles[(0, 0)].tile, obs.tiles[(0, 0)].rotation) == (start, 0), obs.tiles[(0, 0)]
