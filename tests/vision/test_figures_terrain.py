"""Figures whose colour is near what lies around them are still looked for (issue 14, cause 2).

Two ways a figure was never looked for, both by its colour against what is around it:

- a black figure standing at a tile's edge that borders the bare mat: its picture runs onto the dark green mat,
  whose pixels are near black too, and the two made one blob far larger than a figure, so no spot of a player's
  colour marked the tile for the figure search. A pixel nearer the mat's colour than to every player colour is
  the mat (``Recognizer._covered`` with the mat's colour);
- a yellow figure on an orange mountain changes the tile's picture too little for the search's gate (how badly
  the worst spot of the tile fits its reference, ``TileClassifier.unexplained``); a spot of a player's colour on
  art that is not of that colour now opens the search too (``Recognizer._unlike_its_tile``).

Each test reads its boards twice: as the recogniser is, and with the cause put back, to show that the boards
exercise it (a test whose boards never met the cause could not fail).
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_figures_lean import field_hard  # noqa: F401  (the set enrolled on the field camera at hard)

def _board_with(setup, seed: int, colour: str, pick, n: int, camera, cloth: str | None = "field"):
    """A bench board with ``n`` figures of ``colour``, each on a tile and region and at a point that
    ``pick(tile, region, ru, rv, cells)`` chooses (a boolean mask over the region's points, turned as the tile
    lies; None: none there), photographed by ``camera`` on ``cloth``'s mat (a bench camera family's; None: the
    default): ``(frame, truth)``."""
    from tests.vision.conftest import BENCH
    from vision.geometry import rotate_uv
    from vision.mat import Mat
    from vision.sim import SceneFigure, render

    mat = Mat.default()
    rng = np.random.default_rng(seed)
    _, lattice = BENCH.first_frame(setup.catalog, rng, mat)
    scene = BENCH.random_board(setup.catalog, setup.geometry, rng, 50, 0, 1.5, lattice=lattice)
    if cloth is not None:
        scene.mat_colour = BENCH.mat_colour_of(cloth)
    T = mat.tile_mm
    used: set = set()
    for t in rng.permutation(len(scene.tiles)):
        t = scene.tiles[int(t)]
        if (t.x, t.y) in used or (t.x, t.y) == (0, 0):
            continue
        for region in rng.permutation([r[0] for r in setup.geometry.regions(t.tile)]):
            pts = setup.true_regions.points_in(t.tile, str(region), 3.0 / T)
            ru, rv = rotate_uv(pts[:, 0], pts[:, 1], t.rotation)
            ok = pick(t, str(region), np.asarray(ru), np.asarray(rv))
            if ok is None or not ok.any():
                continue
            k = int(rng.choice(np.nonzero(ok)[0]))
            au, av = setup.true_regions.anchor(t.tile, str(region), t.rotation)
            scene.figures.append(SceneFigure(t.x, t.y, colour, str(region), ((ru[k] - au) * T, (rv[k] - av) * T)))
            used |= {(t.x + dx, t.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            break
        if len(scene.figures) >= n:
            break
    assert len(scene.figures) == n, f"board {seed}: room for {len(scene.figures)} of {n} figures"
    return render(scene, setup.art, camera, np.random.default_rng(seed + 7), BENCH.SIZE, geometry=setup.geometry,
                  shapes=setup.true_regions)


def _missed(rec, frame, truth) -> list:
    rec.rectifier.reset()
    obs = rec.observe(frame)
    got = {(f.x, f.y, f.colour) for f in obs.figures}
    return [(f["x"], f["y"], f["color"], f["region"]) for f in truth.figures if (f["x"], f["y"], f["color"]) not in got]


@pytest.mark.shared
def test_a_black_figure_against_the_dark_mat_is_a_spot_of_its_own(neuesland):
    """A black figure (its calibrated colour) standing over a tile's edge onto the bare mat, a dark green cloth:
    the figure search's spots hold it; without the mat's colour (the cause) the mat, near black too, joins it
    into one blob larger than any figure and no spot is left there."""
    import cv2

    from vision.tiles import TILE_PX

    rec = neuesland.recognizer()
    black = next(c for c in rec.colours.colours if c.name == "black")
    black_bgr = cv2.cvtColor(np.array([[black.lab]], np.uint8), cv2.COLOR_Lab2BGR)[0, 0].astype(np.float32)
    # the bench's green cloth as the enrolment at ``hard`` saw it (dimmer light): 22 weighted Lab units from the
    # calibrated black, nearer than the 26 within which a pixel counts as a player's colour
    mat_bgr = np.array([43.0, 65.0, 56.0], np.float32)
    mm = rec.classifier.mm_per_px
    canvas = np.empty((3 * TILE_PX, 3 * TILE_PX, 3), np.float32)
    canvas[:] = mat_bgr
    plain = rec._ref_bgr[rec.refs.index_of(rec.catalog.start)]
    canvas[:, TILE_PX:2 * TILE_PX] = plain[np.arange(3 * TILE_PX) % TILE_PX]
    rng = np.random.default_rng(5)
    canvas += rng.normal(0, 3, canvas.shape)
    yy, xx = np.mgrid[0:3 * TILE_PX, 0:3 * TILE_PX]
    cx, cy = TILE_PX + 5.0 / mm, 1.5 * TILE_PX            # its middle 5 mm inside the tile: it overhangs the seam
    figure = ((xx - cx) / (8 / mm)) ** 2 + ((yy - cy) / (5 / mm)) ** 2 <= 1
    canvas[figure] = black_bgr
    canvas = np.clip(canvas, 0, 255).astype(np.uint8)
    _, spots = rec._covered(canvas, mat_bgr)
    assert spots[int(cy), int(cx)], "the black figure over the tile's edge is a spot of its own"
    # the cause, with the spots by the figure's own paint off (they find this figure too, another way)
    rec.spots_by_paint = False
    _, merged = rec._covered(canvas, None)
    assert not merged[figure].any(), (f"the cause: without the mat's colour the figure joins the mat (mat {mat_bgr}, "
                                      f"{merged[figure].mean():.2f} of the figure a spot)")


def _on_mountains(t, region, ru, rv):
    """A point of a mountain region (the art's orange-brown) 9 mm or more inside the tile: where the figure's base
    is found (1-3 mm off, near a seam on the next tile: another cause) does not decide here."""
    return (np.minimum(np.minimum(ru, 1 - ru), np.minimum(rv, 1 - rv)) >= 0.2) if region.startswith("M:") else None


@pytest.mark.shared
def test_yellow_figures_on_mountains_are_looked_for(field_hard, monkeypatch):
    """Yellow figures on mountains under the bench's ``field`` light at ``hard`` (a warm or magenta cast,
    an olive cloth, JPEG 50), the set enrolled on that camera: each found on its tile (one may be missed); with
    the search opened only by how badly the tile fits its reference (the cause), more are missed."""
    from tests.vision.conftest import BENCH
    from vision.mat import Mat
    from vision.recognize import Recognizer
    from vision.rectify import Rectifier

    setup, refs, colours, lens = field_hard
    mat = Mat.default()
    rec = Recognizer(setup.catalog, refs, mat, geometry=setup.geometry, colours=colours,
                     rectifier=Rectifier(mat, lens=lens))
    camera = BENCH.camera_of("field", "hard")
    boards = [_board_with(setup, seed, "yellow", _on_mountains, 6, camera) for seed in (421, 422, 423)]
    missed = [m for frame, truth in boards for m in _missed(rec, frame, truth)]
    assert len(missed) <= 1, f"yellow figures on mountains not found: {missed}"

    monkeypatch.setattr(Recognizer, "_unlike_its_tile", lambda self, fc, t, spots: False)
    # (a cell the figure gate passed is looked at without a spot since session nlboards3, ``gate_spots``: that finds
    # these figures another way, and is turned off to show the cause)
    monkeypatch.setattr(Recognizer, "gate_spots", False)
    before = [m for frame, truth in boards for m in _missed(rec, frame, truth)]
    assert len(before) > len(missed), ("the boards do not exercise the cause: as many yellow figures missed with "
                                       f"the gate on the tile's fit alone ({before}) as now ({missed})")
