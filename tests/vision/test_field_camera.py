"""Südsee on the second camera (``vision.sim.FIELD``): the grid the first frame fixes, and colours in neutral light.

The grid:

On the field camera at ``hard`` (warm light, dim corner, olive cloth, blur and JPEG 50) Südsee's start tile
was read as itself and as its twins D1 and D2 (the same drawn picture but for a glyph of a few pixels) at
equal scores, so its place never counted as clear: the grid was taken from the lattice of the lone tile's own
edges, up to 3 degrees off, which puts a cell six out 14 mm away (61 % of tiles right on the bench's seed 2).

The colours: the start search compared the cells it sampled with the references unbalanced (right only while a
frame's light is the enrolment's), and the enrolment now records its light for reading in neutral light
(``vision.colourcast``, off by default: ``Recognizer.neutral_light``).
"""
from __future__ import annotations

import functools

import numpy as np
import pytest

from vision.mat import Mat
from vision.recognize import Recognizer
from vision.rectify import Rectifier
from vision.tiles import Grid

from tests.vision.conftest import BENCH, SUEDSEE

LEVEL = "hard"
FAMILY = "field"


@pytest.fixture(scope="module")
def field_suedsee():
    """Südsee enrolled on the field camera (another session's light and pose) on the olive cloth, as the bench
    does for its ``field/hard`` row."""
    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent")
    setup = BENCH.game_setup("suedsee", None)
    rec, refs, colours, _ = BENCH.enrolled_recognizer(setup, LEVEL, FAMILY, np.random.default_rng(2))
    return setup, rec, refs, colours


def _first_frame(setup, seed: int):
    from vision.sim import render

    rng = np.random.default_rng(seed)
    first, lattice = BENCH.first_frame(setup.catalog, rng)
    first.mat_colour = BENCH.mat_colour_of(FAMILY)
    frame, _ = render(first, setup.art, BENCH.camera_of(FAMILY, LEVEL), rng, BENCH.SIZE, geometry=setup.geometry)
    return frame, lattice


def _grid_and_fallback(rec, frame):
    """The grid the first frame gives, and whether it came from the lone tile's own edges (``_lattice``, the
    fallback when the start tile's place is not clear)."""
    fallback = []
    lattice_of = rec._lattice
    rec._lattice = lambda *a, **k: fallback.append(1) or lattice_of(*a, **k)
    try:
        return rec.observe(frame).grid, fallback
    finally:
        rec._lattice = lattice_of


def _angle_error(grid: Grid, lattice) -> float:
    return abs((grid.angle_deg - lattice[1] + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_lone_start_tile_is_found_clear_of_its_twins_and_fixes_the_grid(field_suedsee, seed):
    setup, rec, *_ = field_suedsee
    frame, lattice = _first_frame(setup, seed)
    grid, fallback = _grid_and_fallback(rec, frame)
    assert not fallback, "the start tile's place was clear (its twins D1, D2 stand at the same place and turn)"
    assert _angle_error(grid, lattice) <= 0.5, f"grid {grid} against the tile laid at {lattice}"
    assert np.hypot(grid.origin_mm[0] - lattice[0][0], grid.origin_mm[1] - lattice[0][1]) <= 1.5


def test_twins_of_the_start_tile_are_its_glyph_twins_only(field_suedsee):
    _, rec, *_ = field_suedsee
    assert rec._start_and_twins() == {("start", 0), ("D1", 0), ("D2", 0)}


@pytest.mark.parametrize("off", [-4.5, 3.5])
def test_squaring_the_lone_start_tile_reaches_past_three_degrees(field_suedsee, off):
    """A start tile taken 3.5-4.5 degrees off (from the lattice of its own edges) is squared to its outline;
    the squaring used to give up when the outline was sharpest at the end of its 3-degree range."""
    setup, rec, *_ = field_suedsee
    frame, lattice = _first_frame(setup, 12)
    location = rec.rectifier.locate(frame)
    size = (frame.shape[1], frame.shape[0])

    def to_frame(p):
        return rec.rectifier.mat_to_image(p, location, size)

    key = (location.homography.tobytes(), size)
    turned = Grid(lattice[0], lattice[1] + off, 45.0)
    squared = rec._squared_up(frame, to_frame, turned, rec.mat_colour(frame, to_frame, key))
    assert _angle_error(squared, lattice) <= 0.5, f"squared to {squared.angle_deg:.2f}, laid at {lattice[1]:.2f}"


def test_the_enrolment_records_its_light_and_the_recogniser_reads_in_neutral_light(field_suedsee, monkeypatch):
    from vision.colourcast import neutral_gains

    setup, _, refs, colours = field_suedsee
    monkeypatch.setattr(Recognizer, "neutral_light", True)
    rec = Recognizer(setup.catalog, refs, Mat.default(), geometry=setup.geometry, colours=colours)
    white = np.asarray(refs.meta["white_bgr"], np.float32)
    # the field camera's warm light (B 0.74, G 0.95, R 1.3 and a little more red at enrolment): blue the weakest
    assert white[0] < white[1] < white[2], f"the markers' paper under warm light: {white}"
    gains = neutral_gains(white)
    assert np.ptp(white * gains) < 1.0, "the gains make the paper grey"
    assert np.allclose(rec._neutral, gains)
    # the recogniser's references are the enrolled ones in neutral light
    j = refs.index_of("C")
    assert np.abs(rec.refs.images[j].astype(np.float32).mean(axis=(0, 1))
                  - refs.images[j].astype(np.float32).mean(axis=(0, 1)) * gains).max() < 1.5


def test_under_a_magenta_cast_the_start_search_reads_the_cells_in_balanced_light(field_suedsee):
    """The start search sampled the frame cell by cell and compared it with the references unbalanced: right only
    while the frame's light was the enrolment's. Under the field camera's magenta cast (the set enrolled under its
    warm light) the start tile's place must still be found clearly."""
    from vision.sim import MAGENTA, render

    setup, rec, *_ = field_suedsee
    rng = np.random.default_rng(21)
    first, lattice = BENCH.first_frame(setup.catalog, rng)
    first.mat_colour = BENCH.mat_colour_of(FAMILY)
    camera = BENCH.camera_of(FAMILY, LEVEL).with_(colour_cast=MAGENTA)
    frame, _ = render(first, setup.art, camera, rng, BENCH.SIZE, geometry=setup.geometry)
    grid, fallback = _grid_and_fallback(rec, frame)
    assert not fallback, "the start tile's place was clear"
    assert _angle_error(grid, lattice) <= 0.5, f"grid {grid} against the tile laid at {lattice}"


def test_refs_without_a_recorded_light_are_read_as_before(field_suedsee, monkeypatch):
    """Scans and references enrolled before the light was recorded: no neutral gains, the mat balance alone."""
    import dataclasses

    setup, _, refs, colours = field_suedsee
    monkeypatch.setattr(Recognizer, "neutral_light", True)
    meta = {k: v for k, v in refs.meta.items() if k != "white_bgr"}
    rec = Recognizer(setup.catalog, dataclasses.replace(refs, meta=meta), Mat.default(), geometry=setup.geometry,
                     colours=colours)
    assert np.array_equal(rec.refs.images, refs.images)
    assert [c.lab for c in rec.colours.colours] == [c.lab for c in colours.colours]


@pytest.fixture(scope="module")
def bench_field_default_seed_1():
    """The bench's ``field/default`` row at seed 1 (both cameras): its enrolment and its game's first frame."""
    from vision.enroll import enrol_simulated
    from vision.sim import render

    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent")
    setup = BENCH.game_setup("suedsee", None)
    rng = np.random.default_rng(1 * 1000 + BENCH.LEVELS.index("default") * 17 + len("suedsee") + 7919)
    refs, colours, lens = enrol_simulated(setup.catalog_path, setup.art, BENCH.enrolment_camera("default", FAMILY),
                                          rng, size=BENCH.SIZE, geometry=setup.geometry,
                                          mat_colour=BENCH.mat_colour_of(FAMILY))
    mat = Mat.default()
    rec = Recognizer(setup.catalog, refs, mat, geometry=setup.geometry, colours=colours,
                     rectifier=Rectifier(mat, lens=lens))
    first, lattice = BENCH.first_frame(setup.catalog, rng, mat)
    first.mat_colour = BENCH.mat_colour_of(FAMILY)
    frame, _ = render(first, setup.art, BENCH.camera_of(FAMILY, "default"), rng, BENCH.SIZE, geometry=setup.geometry,
                      shapes=setup.true_regions)
    return rec, frame, lattice


def test_the_bench_field_default_first_frame_fixes_the_grid(bench_field_default_seed_1):
    """79.46 % of Südsee's tiles were right on that row: its first frame's grid came out 3.0 degrees off (the lone
    start tile's place not clear: D2, cut a millimetre off, counted as another picture)."""
    rec, frame, lattice = bench_field_default_seed_1
    grid, fallback = _grid_and_fallback(rec, frame)
    assert not fallback, "the start tile's place was clear (its twins D1, D2 stand at the same place and turn)"
    assert _angle_error(grid, lattice) <= 0.5, f"grid {grid} against the tile laid at {lattice}"
    assert np.hypot(grid.origin_mm[0] - lattice[0][0], grid.origin_mm[1] - lattice[0][1]) <= 1.5


def test_a_twin_cut_a_millimetre_off_by_the_enrolment_is_still_a_twin(bench_field_default_seed_1):
    """The enrolment cuts each reference where it finds the tile, to about a pixel (a millimetre), its small turn
    left in. Compared where they were cut, D2 (cut 1.1 mm and 0.9 degrees from the start tile in this enrolment)
    differed from the start tile on 13 % of the pixels and was no twin; laid against each other first, 4.5 %."""
    rec, *_ = bench_field_default_seed_1
    assert rec._start_and_twins() == {("start", 0), ("D1", 0), ("D2", 0)}


@functools.lru_cache(maxsize=2)
def _bench_boards(level: str, seed: int, boards: int):
    """The first ``boards`` boards of the bench's Südsee ``field/<level>`` row at ``seed`` (both cameras), made as
    ``benchmarks/vision.py``'s ``run_level`` makes them: the recogniser, the game's grid, [(frame, truth)]."""
    from vision.enroll import enrol_simulated
    from vision.sim import render

    setup = BENCH.game_setup("suedsee", None)
    rng = np.random.default_rng(seed * 1000 + BENCH.LEVELS.index(level) * 17 + len("suedsee") + 7919)
    camera, cloth, shapes = BENCH.camera_of(FAMILY, level), BENCH.mat_colour_of(FAMILY), setup.true_regions
    refs, colours, lens = enrol_simulated(setup.catalog_path, setup.art, BENCH.enrolment_camera(level, FAMILY), rng,
                                          size=BENCH.SIZE, geometry=setup.geometry, mat_colour=cloth)
    mat = Mat.default()
    rec = Recognizer(setup.catalog, refs, mat, geometry=setup.geometry, colours=colours,
                     rectifier=Rectifier(mat, lens=lens))
    first, lattice = BENCH.first_frame(setup.catalog, rng, mat)
    first.mat_colour = cloth
    frame0, _ = render(first, setup.art, camera, rng, BENCH.SIZE, geometry=setup.geometry, shapes=shapes)
    grid0 = rec.observe(frame0).grid
    lo, hi = 40, min(84, sum(setup.catalog.counts.values()))
    out = []
    for b in range(boards):
        n = int(rng.integers(lo, hi + 1))
        scene = BENCH.random_board(setup.catalog, setup.geometry, rng, n, 10, BENCH.SLOPPINESS[level],
                                   lattice=lattice, true_regions=shapes)
        scene.mat_colour = cloth
        cam = BENCH.board_camera(FAMILY, level, b, mat, rng)
        out.append(render(scene, setup.art, cam, rng, BENCH.SIZE, geometry=setup.geometry, shapes=shapes))
    return rec, grid0, out


def _wrong_tiles(obs, truth) -> dict:
    want = {(w["x"], w["y"]): (w["tile"], w["rotation"]) for w in truth.tiles}
    return {c: (g.tile, g.rotation) for c, g in obs.tiles.items() if want.get(c) != (g.tile, g.rotation)}


def _unmarked_wrong_tiles(obs, truth) -> dict:
    """The tiles read wrong without a mark: neither below 0.5 confidence nor with the true tile among their hidden
    twins. (Session 11: on this board R1 at (2, 3) reads R2 at 0.4 with R1 as its hidden twin on OpenCV 5, right on
    4.11; a glyph twin the phone is asked about, not this test's cause.)"""
    want = {(w["x"], w["y"]): (w["tile"], w["rotation"]) for w in truth.tiles}
    return {c: t for c, t in _wrong_tiles(obs, truth).items()
            if obs.tiles[c].confidence >= 0.5 and want.get(c) not in tuple(obs.tiles[c].hidden_twins)}


def test_a_reef_strip_the_colour_of_a_red_figure_is_read_as_the_art_it_is():
    """Cause 4: under the field camera's warm light Südsee's red reef lies near the red figures' colour. On the
    bench's ``field/hard`` board 0 (seed 1) the reef strip that runs from A2's edge to its island passed the covered
    test as a figure; the classifier left it out, A2 and B1 (its twin without the strip) then looked alike, A2 was
    guessed as B1 (confidence 0.4, a hidden twin) and a red figure was reported on it where there is none."""
    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent")
    rec, grid0, boards = _bench_boards("hard", 1, 3)
    frame, truth = boards[0]
    obs = rec.observe(frame, grid=grid0)
    t = obs.tiles[(2, 1)]
    assert (t.tile, t.rotation) == ("A2", 180), t
    assert not t.hidden_twins and t.confidence >= 0.5
    assert not [f for f in obs.figures if (f.x, f.y) == (2, 1)], "no figure stands on A2"
    assert not _unmarked_wrong_tiles(obs, truth)


def test_no_tile_is_read_on_the_mats_markers():
    """On the bench's ``field/hard`` board 2 (seed 1) the two corner cells that lie over the mat's markers (56 % of
    each) were read as the all-sea tile C (confidence 0.34): a marker's black square reads as a black figure, and
    a covered cell passes a lower bar. A tile cannot lie on a marker the rectifier sees (one laid over a marker
    hides it and is read: tests/vision/test_coverage.py)."""
    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent")
    rec, grid0, boards = _bench_boards("hard", 1, 3)
    frame, truth = boards[2]
    obs = rec.observe(frame, grid=grid0)
    assert not _wrong_tiles(obs, truth)
    markers = Mat.default().marker_ids
    assert rec._on_marker(grid0, (-7, 7), markers) > 0.5 and rec._on_marker(grid0, (0, 0), markers) == 0.0
    assert rec._on_marker(grid0, (-7, 7), ()) == 0.0, "a marker not seen (a tile on it) does not count"


def test_reef_bands_taken_for_figures_do_not_leave_glyph_twins_guessed():
    """Cause 4 at its widest: on the bench's ``field/hard`` board 0 (seed 2) whole reef bands passed the covered
    test, and U2, V2, E2, N1 and W2 were guessed as twins (confidence 0.4, hidden twins: U1, V1, E1, I, U1), W2 with
    two phantom figures on it. Every one of the pieces their art explains, uncovered, reads them clearly."""
    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent")
    rec, grid0, boards = _bench_boards("hard", 2, 1)
    frame, truth = boards[0]
    obs = rec.observe(frame, grid=grid0)
    for cell, tile in (((-4, -3), ("U2", 0)), ((-6, -2), ("V2", 180)), ((-2, -4), ("E2", 0)),
                       ((-4, -4), ("N1", 270)), ((-1, -2), ("W2", 0))):
        t = obs.tiles[cell]
        assert (t.tile, t.rotation) == tile and not t.hidden_twins, t
    assert not [f for f in obs.figures if (f.x, f.y) == (-1, -2)], "no figure stands on W2"
    # (the board's other errors: D1 at (0, 3) read as the start tile, and on OpenCV 4.11 M at (1, 0); not this cause)


def test_a_twin_read_as_the_start_tile_away_from_the_start_is_a_marked_guess(field_suedsee):
    """The start tile is one and lies at (0, 0). On the bench's ``field/hard`` rows D1 was read as the start tile
    elsewhere at confidence 0.50-0.53, without a mark (seed 1's full board at (-2, 6), seed 2's board 0 at (0, 3)):
    such a reading is a guess among the start tile and its glyph twins, marked, and the box settles it."""
    from vision.tiles import Candidate, TileGuess, settle_hidden

    setup, rec, *_ = field_suedsee
    read = TileGuess(-2, 6, "start", 270, 0.90, 0.53, (Candidate("D1", 270, 0.89), Candidate("C", 0, 0.5)))
    marked = rec._start_twin_elsewhere(read)
    assert marked.confidence <= 0.4 and set(marked.hidden_twins) == {("D1", 270), ("D2", 270)}
    assert [(c.tile, c.rotation) for c in marked.runners_up[:2]] == [("D1", 270), ("D2", 270)]
    # at (0, 0), and read clearly elsewhere (the start search's lattice, whose (0, 0) is anywhere): as read
    home = TileGuess(0, 0, "start", 0, 0.90, 0.53, (Candidate("D1", 0, 0.89),))
    assert rec._start_twin_elsewhere(home) == home
    clear = TileGuess(3, 1, "start", 0, 0.95, 0.85, (Candidate("D1", 0, 0.80),))
    assert rec._start_twin_elsewhere(clear) == clear
    # the box: the start tile's one copy lies at (0, 0), so the marked cell takes a twin
    start = TileGuess(0, 0, "start", 0, 0.95, 0.9)
    settled = settle_hidden({(0, 0): start, (-2, 6): marked}, setup.catalog.counts)
    assert settled[(-2, 6)].tile in ("D1", "D2") and settled[(-2, 6)].hidden_twins
