"""A flat tile partly covered by a figure is read by what its colours show (issue 14: the tile under a figure).

On a tile that is nearly all one terrain (ds083, all sea; ds024 and ds025, sea with a small mountain; ds074's sea
bay) a figure hides much of what little texture there is: the tile pass's correlation of the rest is near noise,
a textured tile won as a marked guess, and the figure was named on a region of that wrong tile. Such a guess is
now read again by colour, the figure left out (:mod:`vision.undercover`).

The board test reads each board twice: as the recogniser is, and with the re-reading off (the cause put back),
to show that the boards exercise it.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_figures_lean import field_hard  # noqa: F401  (the set enrolled on the field camera at hard)

FLAT = (("ds083", "S:NESW"), ("ds024", "M:E"), ("ds025", "M:E"), ("ds074", "S:S"), ("ds031", "M:SW"))
"""Flat tiles and the region whose figure hides most of their texture."""


def _flat_board(setup, seed: int, colours):
    """A bench board at ``hard`` hand placement with the flat tiles of :data:`FLAT` laid on cells apart from each
    other, each with a figure anywhere on its region (the bench's true shapes), photographed by the field camera
    at ``hard``: ``(frame, truth, cells)``."""
    from tests.vision.conftest import BENCH
    from vision.mat import Mat
    from vision.sim import SceneTile, render

    mat = Mat.default()
    rng = np.random.default_rng(seed)
    _, lattice = BENCH.first_frame(setup.catalog, rng, mat)
    scene = BENCH.random_board(setup.catalog, setup.geometry, rng, 50, 0, BENCH.SLOPPINESS["hard"], lattice=lattice)
    scene.mat_colour = BENCH.mat_colour_of("field")
    used: set = {(0, 0)}
    cells = []
    order = [int(i) for i in rng.permutation(len(scene.tiles))]
    for tile, region in FLAT:
        for i in order:
            t = scene.tiles[i]
            if (t.x, t.y) in used:
                continue
            t = SceneTile(t.x, t.y, tile, int(rng.integers(4)) * 90, t.offset_mm, t.angle_deg)
            scene.tiles[i] = t
            colour = colours[int(rng.integers(len(colours)))]
            scene.figures.append(BENCH.figure_anywhere(t, colour, region, setup.geometry, setup.true_regions, rng,
                                                       mat.tile_mm))
            used |= {(t.x + dx, t.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            cells.append((t.x, t.y))
            break
    cam = BENCH.camera_of("field", "hard")
    frame, truth = render(scene, setup.art, cam, np.random.default_rng(seed + 3), BENCH.SIZE,
                          geometry=setup.geometry, shapes=setup.true_regions)
    return frame, truth, cells


def _wrong(rec, frame, truth, cells) -> list:
    """The figures on ``cells`` not read with their tile (or a tile that looks the same), colour and region."""
    rec.rectifier.reset()
    obs = rec.observe(frame)
    clf = rec.classifier
    want = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in truth.tiles}
    got = {(f.x, f.y, f.colour, f.region) for f in obs.figures}
    out = []
    for f in truth.figures:
        cell = (f["x"], f["y"])
        if cell not in cells:
            continue
        t = obs.tiles.get(cell)
        w = want[cell]
        # the same tile for the game: one that looks the same, or the same tile turned where that plays the same
        # (ds083, all sea, in any turn)
        same = t is not None and (clf.look[clf.ids.index(w[0]) + w[1] // 90]
                                  == clf.look[clf.ids.index(t.tile) + t.rotation // 90]
                                  or (t.tile == w[0] and rec.catalog.same_for_the_game(w[0], w[1], t.rotation)))
        if not same or (f["x"], f["y"], f["color"], f["region"]) not in got:
            out.append((cell, w, None if t is None else (t.tile, t.rotation), f["color"], f["region"]))
    return out


@pytest.mark.shared
def test_flat_tiles_under_figures_are_read_by_their_colours(field_hard):
    """Ten boards of five flat tiles, each with a figure hiding most of its texture, on the field camera at
    ``hard``: at most four figures of 50 named wrong (their tile or region); with the re-reading off (the cause),
    more. (Five boards were enough until the start search read the grid in the frame's light: since then fewer of
    these tiles are misread in the first place, and seeds 11-15 no longer show the cause.)"""
    from vision.mat import Mat
    from vision.recognize import Recognizer
    from vision.rectify import Rectifier

    setup, refs, colours, lens = field_hard
    mat = Mat.default()
    rec = Recognizer(setup.catalog, refs, mat, geometry=setup.geometry, colours=colours,
                     rectifier=Rectifier(mat, lens=lens))
    names = [c.name for c in colours.colours]
    now, cause = [], []
    for seed in range(11, 21):
        frame, truth, cells = _flat_board(setup, seed, names)
        assert len(cells) == len(FLAT)
        rec.reread_covered = True
        now += _wrong(rec, frame, truth, cells)
        rec.reread_covered = False
        cause += _wrong(rec, frame, truth, cells)
    print(f"figures on flat tiles named wrong: {len(now)} of 50; with the re-reading off: {len(cause)}")
    assert len(now) <= 4, f"figures on flat tiles named wrong: {now}"
    assert len(cause) > len(now), f"the boards do not exercise the cause: with it {cause}, without {now}"


def test_colour_misfit_sees_the_sea_the_figure_leaves():
    """The colour comparison by itself: a sea tile with a figure over its only land is told from a land tile by
    the colour of what is left (a correlation of the flat rest could not: it has no texture)."""
    from vision.undercover import best_by_colour

    side, pad = 12, 2
    sea = np.zeros((side, side, 3), np.float32)
    sea[:] = (190, 120, 40)
    land = sea.copy()
    land[:, side // 2:] = (60, 150, 90)
    window = np.zeros((side + 2 * pad, side + 2 * pad, 3), np.float32)
    window[:] = (190, 120, 40)
    window += np.random.default_rng(1).normal(0, 4, window.shape).astype(np.float32)
    visible = np.ones(window.shape[:2], bool)
    visible[:, pad + side // 2 + 4:] = False   # a figure over most of the land (two columns show at any shift)
    misfit, _ = best_by_colour(window, visible, np.stack([land, sea]), pad)
    assert misfit[1] < 0.5 * misfit[0], misfit
