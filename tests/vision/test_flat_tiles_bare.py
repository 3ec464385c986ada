"""A flat tile with nothing on it is read by its colours when its texture says too little (issue 14, whole boards).

On the bench's Neues Land ``field/hard`` rows (a 95 degree lens, a magenta or warm cast, an olive cloth, heavy noise
and JPEG) flat tiles with no figure on them (ds083 all sea, ds024 and ds031 sea with a little mountain) were read
as tiles half plain (ds059, ds073, ds003) at confidence 0.00: the tile pass correlates texture, and these tiles have
almost none. Such a marked guess is now read again by its colours in the light of the sure tiles around it, as one
under a figure was (``Recognizer.reread_flat``, :mod:`vision.undercover`).

Each board is read twice: as the recogniser is, and with the re-reading of bare tiles off (the cause put back).
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_figures_lean import field_hard  # noqa: F401  (the set enrolled on the field camera at hard)

FLAT = ("ds083", "ds024", "ds025", "ds031", "ds044")
"""Tiles nearly all one terrain (sea), with a small mountain or plain at most."""


def _bare_flat_board(setup, seed: int):
    """A bench board at ``hard`` hand placement, no figures, with the :data:`FLAT` tiles laid on cells apart from
    each other, photographed by the field camera at ``hard`` in a magenta cast: ``(frame, truth, cells)``."""
    from tests.vision.conftest import BENCH
    from vision.mat import Mat
    from vision.sim import MAGENTA, SceneTile, render

    mat = Mat.default()
    rng = np.random.default_rng(seed)
    _, lattice = BENCH.first_frame(setup.catalog, rng, mat)
    scene = BENCH.random_board(setup.catalog, setup.geometry, rng, 60, 0, BENCH.SLOPPINESS["hard"], lattice=lattice)
    scene.mat_colour = BENCH.mat_colour_of("field")
    used: set = {(0, 0)}
    cells = []
    order = [int(i) for i in rng.permutation(len(scene.tiles))]
    for tile in FLAT:
        for i in order:
            t = scene.tiles[i]
            if (t.x, t.y) in used:
                continue
            j = next((k for k, s in enumerate(scene.tiles) if s.tile == tile), None)
            if j is not None and j != i:       # the flat tile was dealt elsewhere: the two change places
                s = scene.tiles[j]
                scene.tiles[j] = SceneTile(s.x, s.y, t.tile, s.rotation, s.offset_mm, s.angle_deg)
            scene.tiles[i] = SceneTile(t.x, t.y, tile, int(rng.integers(4)) * 90, t.offset_mm, t.angle_deg)
            used |= {(t.x + dx, t.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            cells.append((t.x, t.y))
            break
    cam = BENCH.camera_of("field", "hard").with_(colour_cast=MAGENTA)
    frame, truth = render(scene, setup.art, cam, np.random.default_rng(seed + 7), BENCH.SIZE,
                          geometry=setup.geometry, shapes=setup.true_regions)
    return frame, truth, cells


def _wrong(rec, frame, truth, cells) -> list:
    """The tiles of ``cells`` not read as the tile that lies there (or one that looks the same, or the same tile
    turned where that plays the same)."""
    rec.rectifier.reset()
    obs = rec.observe(frame)
    clf = rec.classifier
    want = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in truth.tiles}
    out = []
    for cell in cells:
        w, t = want[cell], obs.tiles.get(cell)
        same = t is not None and (clf.look[clf.ids.index(w[0]) + w[1] // 90]
                                  == clf.look[clf.ids.index(t.tile) + t.rotation // 90]
                                  or (t.tile == w[0] and rec.catalog.same_for_the_game(w[0], w[1], t.rotation)))
        if not same:
            out.append((cell, w, None if t is None else (t.tile, t.rotation, round(t.confidence, 2))))
    return out


@pytest.mark.shared
def test_bare_flat_tiles_are_read_by_their_colours(field_hard):
    """Boards of five flat tiles with nothing on them, on the field camera at ``hard`` in a magenta cast: every
    flat tile read right but one at most; with the re-reading of bare tiles off (the cause), more wrong."""
    from vision.mat import Mat
    from vision.recognize import Recognizer
    from vision.rectify import Rectifier

    setup, refs, colours, lens = field_hard
    mat = Mat.default()
    rec = Recognizer(setup.catalog, refs, mat, geometry=setup.geometry, colours=colours,
                     rectifier=Rectifier(mat, lens=lens))
    now, cause = [], []
    # seeds 47-56: with the re-reading 0 of 50 wrong, without it 3 (session 10, after the twin contests on the
    # details in view: seeds 41-46, this test's first boards, no longer showed the cause either way; over seeds
    # 47-74, 1 of 140 wrong with it and 8 without)
    seeds = range(47, 57)
    for seed in seeds:
        frame, truth, cells = _bare_flat_board(setup, seed)
        assert len(cells) == len(FLAT)
        rec.reread_flat = True
        now += _wrong(rec, frame, truth, cells)
        rec.reread_flat = False
        cause += _wrong(rec, frame, truth, cells)
    print(f"bare flat tiles read wrong: {len(now)} of {len(FLAT) * len(seeds)}; with the re-reading off: {len(cause)}:"
          f" {cause}")
    assert len(now) <= 1, f"bare flat tiles read wrong: {now}"
    assert len(cause) > len(now), f"the boards do not exercise the cause: with it {now}, without {cause}"
