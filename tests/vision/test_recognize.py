"""Whole-table recognition on seeded rendered boards: accuracy that must not regress.

The sets are enrolled from the simulated camera under other light and pose than the
boards (see conftest). Few boards, fixed seeds, thresholds just under what the
recogniser achieves today; the full figures come from ``tablehub bench vision``.
"""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.shared


def test_a_neues_land_board_of_45_tiles_is_read_right(neuesland):
    rec = neuesland.recognizer()
    frame, truth = neuesland.render(neuesland.board(seed=11, tiles=45, figures=8), seed=12)
    obs = rec.observe(frame)
    tally = neuesland.score(rec, obs, truth)
    assert tally.tiles_ok == tally.tiles == 45, f"every tile is read with its rotation: {tally.errors}"
    assert tally.figures_ok >= tally.figures - 1, f"at most one of 8 figures is missed: {tally.errors}"
    assert obs.tiles[(0, 0)].tile == neuesland.setup.catalog.start


def test_two_more_neues_land_boards_are_read_with_at_most_one_tile_wrong(neuesland):
    rec = neuesland.recognizer()
    ok = total = figs_ok = figs = 0
    for seed in (21, 31):
        frame, truth = neuesland.render(neuesland.board(seed=seed, tiles=60, figures=10), seed=seed + 1)
        tally = neuesland.score(rec, rec.observe(frame), truth)
        ok, total = ok + tally.tiles_ok, total + tally.tiles
        figs_ok, figs = figs_ok + tally.figures_ok, figs + tally.figures
    assert ok >= total - 1, f"at most one tile of {total} is misread: tile accuracy {ok}/{total}"
    assert figs_ok / figs >= 0.95, f"figure accuracy {figs_ok}/{figs}"


def test_an_incremental_update_reads_only_the_cells_that_changed(neuesland):
    rec = neuesland.recognizer()
    before_scene = neuesland.board(seed=41, tiles=40, figures=5)
    after_scene = neuesland.grow(before_scene, seed=42, colour="red")
    new = after_scene.tiles[-1]
    f0, _ = neuesland.render(before_scene, seed=43)
    f1, truth = neuesland.render(after_scene, seed=43)          # same seed: the camera did not move
    before = rec.observe(f0)
    after = rec.observe(f1, previous=before, relocate=False)
    assert (new.x, new.y) in after.changed, "the new tile's cell is examined"
    assert len(after.changed) <= 3, f"only the cells that changed are examined, not {after.changed}"
    seen = after.tiles[(new.x, new.y)]
    assert (seen.tile, seen.rotation) == (new.tile, new.rotation)
    assert any(f.x == new.x and f.y == new.y and f.colour == "red" for f in after.figures), "the new figure is seen"
    tally = neuesland.score(rec, after, truth)
    assert tally.tiles_ok == tally.tiles, tally.errors


def test_a_suedsee_board_in_drawn_art_is_read_right(suedsee):
    """The provisional Südsee art tells many tiles apart only by a small goods glyph (1 or 2 fish, a boat);
    today all 40 tiles are read right (39 before the glyph-aware verification): at most one may go."""
    rec = suedsee.recognizer()
    frame, truth = suedsee.render(suedsee.board(seed=51, tiles=40, figures=6), seed=52)
    obs = rec.observe(frame)
    tally = suedsee.score(rec, obs, truth)
    assert obs.tiles[(0, 0)].tile == suedsee.setup.catalog.start
    assert tally.tiles_ok >= tally.tiles - 1, f"tile accuracy {tally.tiles_ok}/{tally.tiles}: {tally.errors}"
    assert tally.figures_ok >= tally.figures - 1, tally.errors


@pytest.mark.parametrize("how", ["true lattice", "fitted to its tiles"])
def test_the_suedsee_board_is_read_right_on_the_grid_its_tiles_give(suedsee, how):
    """The same board read on its true lattice, and from scratch with the found grid fitted to the tiles read on it
    (``Recognizer.fit_found_grid``; the fit turns it 0.2 degrees, to within 0.11 mm and 0.01 degrees of the truth).
    On that grid, on OpenCV 4.11 and 5 alike, M's glyph was hidden by a band of sand taken for a figure (M read as
    N1) and Q's second shell, in view beside a green figure on the bridge where Q and S differ most, was not enough
    to tell them (Q read as S): the found grid's quarter degree off had read both right by chance."""
    from vision.tiles import Grid

    scene = suedsee.board(seed=51, tiles=40, figures=6)
    frame, truth = suedsee.render(scene, seed=52)
    rec = suedsee.recognizer()
    if how == "true lattice":
        obs = rec.observe(frame, grid=Grid(tuple(scene.origin_mm), scene.grid_angle_deg, 45.0))
    else:
        rec.fit_found_grid = True
        obs = rec.observe(frame)
        # (read again when the fit moved more than 1.5 mm somewhere: on OpenCV 4.11, not on 5)
    tally = suedsee.score(rec, obs, truth)
    assert tally.tiles_ok == tally.tiles == 40, tally.errors
    assert tally.figures_ok == tally.figures == 6, tally.errors


@pytest.mark.parametrize("game", ["neuesland", "suedsee"])
def test_the_first_frame_fixes_the_grid_the_benchmark_boards_lie_on(game, request):
    """The benchmark lays every board on the lattice of the first frame's start tile (as players lay tiles
    against their neighbours): the grid read from that frame must put the play area's far cells where the
    lattice has them, within 2 mm (the grid's angle is refined between quarter-degree steps from the start
    tile's sides; to the nearest step it was up to 1.45 mm off there)."""
    import math

    enrolled = request.getfixturevalue(game)
    bench = enrolled.bench
    for seed in (91, 92):
        first, ((ox, oy), turn) = bench.first_frame(enrolled.setup.catalog, np.random.default_rng(seed))
        grid = enrolled.recognizer().observe(enrolled.render(first, seed=seed)[0]).grid
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        for x, y in ((-6, -6), (6, -6), (-6, 6), (6, 6), (0, 0)):
            want = (ox + 45.0 * (c * x - s * y), oy + 45.0 * (s * x + c * y))
            off = math.dist(grid.cell_centre_mm(x, y), want)
            assert off <= 2.0, f"seed {seed}: cell ({x}, {y}) {off:.2f} mm off the start tile's lattice"


def test_the_start_tile_alone_fixes_the_grid_angle_from_its_outline(suedsee):
    """Matching the flat drawn start tile's picture was unsure by 2 degrees (cells five tiles away 7 mm off);
    its edges against the bare mat give its angle to about a tenth of a degree."""
    from vision.mat import Mat
    from vision.sim import Scene, SceneTile

    mat = Mat.default()
    for turn in (-1.0, 1.25):
        scene = Scene(mat=mat, tiles=[SceneTile(0, 0, suedsee.setup.catalog.start, 0, (0.3, -0.2), turn)],
                      origin_mm=mat.play_centre_mm)
        frame, _ = suedsee.render(scene, seed=61)
        grid = suedsee.recognizer().observe(frame).grid
        assert abs(grid.angle_deg - turn) <= 0.3, f"start tile turned {turn} degrees, grid at {grid.angle_deg}"


def test_the_start_tile_outline_gives_the_grid_angle_between_the_quarter_degrees(suedsee):
    """The outline's sharpness is tried in steps of a quarter degree, and it is flat between them; the slopes
    of the tile's four sides refine the best step. Turns between the steps came out to the nearest quarter
    degree (mean error 0.11 degrees on these eight, up to 0.13: 1.45 mm at a big board's far corner)."""
    from vision.mat import Mat
    from vision.sim import Scene, SceneTile

    mat = Mat.default()
    rec = suedsee.recognizer()
    errors = []
    for i, turn in enumerate((-1.13, -0.62, -0.37, 0.13, 0.4, 0.71, 1.08, 1.37)):
        scene = Scene(mat=mat, tiles=[SceneTile(0, 0, suedsee.setup.catalog.start, 0, (0.3, -0.2), turn)],
                      origin_mm=mat.play_centre_mm)
        frame, _ = suedsee.render(scene, seed=61 + i)
        errors.append(rec.observe(frame).grid.angle_deg - turn)
    mean = sum(abs(e) for e in errors) / len(errors)
    assert mean <= 0.06, f"mean angle error {mean:.3f} degrees: {[round(e, 3) for e in errors]}"
    assert max(abs(e) for e in errors) <= 0.15, [round(e, 3) for e in errors]
