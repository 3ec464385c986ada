"""Tiles that differ only by a small glyph (goods, fish, a boat) are told apart where their pictures differ.

Südsee's drawn art has many such twins (V1/V2/V3/V4, B1/B2/B3, E1/E2/E3, R1/R2, N1/N2, O/P1/P2),
Neues Land a few near-twins (ds022/ds063, ds024/ds025). The whole-tile score cannot tell them
apart reliably; :meth:`vision.tiles.TileClassifier._verify` compares them on the few pixels
where their references differ, under the photo's own light. Fixed seeds, small scenes.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.refs import ReferenceSet
from vision.tiles import FeatureCanvas, GridCanvas, TileClassifier

PX, MARGIN = 48, 12


GLYPHS = {"fish": [(34, 14, (150, 120, 60))],            # a dark fish on the sea
          "shell": [(11, 33, (200, 215, 240))],          # a light shell on the sand
          "both": [(34, 14, (150, 120, 60)), (11, 33, (200, 215, 240))]}


def _picture(name: str, seed: int) -> np.ndarray:
    """A tile with a coast (sand left, sea right) and the glyphs of ``name``; its texture drawn afresh for every
    ``seed``, as every print and every photo of a tile differs a little."""
    rng = np.random.default_rng(seed)
    img = np.zeros((PX, PX, 3), np.float32)
    img[:, :22] = (120, 190, 205)
    img[:, 22:] = (190, 160, 95)
    img += cv2.GaussianBlur(rng.normal(0, 14, (PX, PX, 3)).astype(np.float32), (0, 0), 1.2)
    for x, y, colour in GLYPHS.get(name, []):
        cv2.circle(img, (x, y), 2, colour, -1, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def _cut_off(image: np.ndarray, side: int) -> np.ndarray:
    """The reference as an enrolment crop a pixel off leaves it: one edge row taking in the dark tile border."""
    out = np.rot90(image, side).copy()
    out[0] = (0.5 * out[0] + 0.5 * np.array((35, 62, 40))).astype(np.uint8)
    return np.ascontiguousarray(np.rot90(out, -side))


def _glyph_twins() -> TileClassifier:
    pictures = [_cut_off(_picture(name, seed), seed) for seed, name in enumerate(GLYPHS, 1)]
    other = np.full((PX, PX, 3), (70, 168, 128), np.uint8)
    return TileClassifier(ReferenceSet("t", [*GLYPHS, "other"], np.stack([*pictures, other])))


def _photo(picture: np.ndarray, gain: float, offset: float, shift: tuple[int, int], seed: int = 0) -> FeatureCanvas:
    """The picture on a bit of mat under other light, laid ``shift`` pixels off its cell, blurred and noisy."""
    img = np.full((PX + 2 * MARGIN, PX + 2 * MARGIN, 3), (58, 84, 62), np.float32)
    dy, dx = shift
    img[MARGIN + dy:MARGIN + dy + PX, MARGIN + dx:MARGIN + dx + PX] = picture
    img = cv2.GaussianBlur(img * gain + offset, (0, 0), 0.7)
    img += np.random.default_rng(seed).normal(0, 2.0, img.shape)
    return FeatureCanvas(GridCanvas(np.clip(img, 0, 255).astype(np.uint8), 0, 0, 1, 1, PX, MARGIN))


def _settled(clf: TileClassifier, fc: FeatureCanvas, first: str, then: list[str]) -> str:
    """What the verification makes of a cell whose whole-tile ranking put ``first`` ahead of ``then``."""
    top, left = fc.top_left(0, 0)
    scored = [(0.95 - 0.01 * i, clf.ids.index(t), top, left, 0.0) for i, t in enumerate([first, *then])]
    return clf.ids[clf._verify(fc, scored)[0][0][1]]


@pytest.mark.parametrize("light", [(1.0, 0.0), (1.15, -12.0), (0.85, 10.0)])
def test_a_glyph_of_a_few_pixels_decides_between_twins_under_any_light(light):
    clf = _glyph_twins()
    j = {t: clf.ids.index(t) for t in GLYPHS}
    assert j["shell"] in clf.twins(j["fish"]) and j["both"] in clf.twins(j["fish"]), "glyph twins are twins"
    for seed, truth in enumerate(GLYPHS, 10):
        fc = _photo(_picture(truth, seed), *light, shift=(1, -1), seed=seed)
        for first in GLYPHS:
            rest = [t for t in GLYPHS if t != first]
            assert _settled(clf, fc, first, rest) == truth, f"{truth} photographed, {first} ranked first"


def test_a_figure_on_the_glyph_leaves_the_best_whole_tile_reading():
    clf = _glyph_twins()
    # a figure (red: no tile's art) stands where the shell would be: "fish" and "both" differ only there, so
    # nothing can be said (a covered part that a reference explains is the tile's art: test_twin_evidence.py)
    picture = _picture("fish", 20).copy()
    cv2.circle(picture, (11, 33), 6, (40, 40, 200), -1, cv2.LINE_AA)
    fc = _photo(picture, 1.0, 0.0, (0, 0))
    covered = np.zeros(fc.image.shape[:2], bool)
    covered[MARGIN + 26:MARGIN + 40, MARGIN + 4:MARGIN + 18] = True
    fc.set_occlusion(covered)
    assert _settled(clf, fc, "both", ["fish"]) == "both", "a hidden glyph changes nothing"
    assert _settled(clf, fc, "fish", ["both"]) == "fish"
    # "shell" differs from "fish" also where the fish is, in plain view
    assert _settled(clf, fc, "shell", ["fish"]) == "fish", "what is in view still decides"


def _read(enrolled, tiles, seed: int):
    """The game's first frame (the start tile alone) fixes the grid; then the given (x, y, tile, rotation)
    are laid by hand on its lattice around the start tile, as in the benchmark, and read."""
    from vision.sim import SceneTile

    bench = enrolled.bench
    rng = np.random.default_rng(seed)
    first, lattice = bench.first_frame(enrolled.setup.catalog, rng)
    rec = enrolled.recognizer()
    grid = rec.observe(enrolled.render(first, seed=seed)[0]).grid
    laid = [bench._sloppy(SceneTile(x, y, t, r), rng, bench.SLOPPINESS["default"]) for x, y, t, r in tiles]
    board = bench.on_lattice(first.mat, list(first.tiles) + laid, [], lattice)
    frame, truth = enrolled.render(board, seed=seed + 1)
    return enrolled.score(rec, rec.observe(frame, grid=grid), truth)


def _ring(ids: list[str], seed: int) -> list[tuple[int, int, str, int]]:
    """The tiles in random turns on the cells around the start tile, row by row."""
    rng = np.random.default_rng(seed)
    cells = [(x, y) for y in range(-3, 4) for x in range(-4, 5) if (x, y) != (0, 0)]
    return [(x, y, t, int(rng.integers(4)) * 90) for (x, y), t in zip(cells, ids)]


SUEDSEE_TWINS = ["V1", "V2", "V3", "V4", "B1", "B2", "B3", "E1", "E2", "E3", "R1", "R2", "N1", "N2",
                 "O", "P1", "P2", "U1", "U2", "U3", "H1", "H2", "D1", "D2", "J1", "J2", "K1", "K2"]


def test_suedsee_glyph_twins_without_figures_are_all_read_right(suedsee):
    """Before the glyph-aware verification, boards like this lost one or two of these tiles each (R2 read as
    R1 with its boat in plain view)."""
    tally = _read(suedsee, _ring(SUEDSEE_TWINS, 7), seed=71)
    assert tally.tiles == len(SUEDSEE_TWINS) + 1
    assert tally.tiles_ok == tally.tiles, f"every glyph twin is read with its rotation: {tally.errors}"


def test_neues_land_near_twins_without_figures_are_all_read_right(neuesland):
    twins = ["ds022", "ds063", "ds024", "ds025", "ds039", "ds040", "ds041", "ds083", "ds026", "ds059", "ds031",
             "ds029", "ds027", "ds028", "ds005", "ds006"]
    tally = _read(neuesland, _ring(twins, 8), seed=81)
    assert tally.tiles_ok == tally.tiles == len(twins) + 1, f"every near twin is read: {tally.errors}"


def _read_board(enrolled, seed: int, tiles: int = 60, figures: int = 10, observed: list | None = None):
    """A benchmark board (connected, random tiles and turns, figures on random regions) read on the grid that
    the game's first frame, its start tile alone, fixed. ``observed``: gets (observation, truth) appended."""
    bench = enrolled.bench
    board = enrolled.board(seed=seed, tiles=tiles, figures=figures)
    first = bench.on_lattice(board.mat, board.tiles[:1], [], (board.origin, board.grid_angle_deg))
    rec = enrolled.recognizer()
    grid = rec.observe(enrolled.render(first, seed=seed + 1)[0]).grid
    frame, truth = enrolled.render(board, seed=seed + 1)
    obs = rec.observe(frame, grid=grid)
    if observed is not None:
        observed.append((obs, truth))
    return enrolled.score(rec, obs, truth)


def test_three_suedsee_boards_with_figures_are_read_without_an_unmarked_error(suedsee):
    """Seeds where the verification before this one (first runner-up under a misfit ratio, tile edges
    counted, no light fitted) misread 4 tiles (V1 as V4, O as P2, T as S, S as T). Of boards 101-108,
    8 x 60 tiles with 10 figures, it misread 14 tiles; the glyph-aware one 6, each a goods glyph under a
    figure; with twins under figures settled by the box (test_hidden_twins.py) 3. Here two tiles may be
    wrong, but only as marked guesses that name the tile that lies there (board 105: R2, its boat and the sea
    where S has its bridge under a figure, is taken for S, of which the box holds two; since the lone start
    tile's grid is taken from its picture among its glyph twins, 0.16 mm from where it lies instead of 0.8, a
    V2 on board 107 is a marked guess too: one more than before)."""
    wrong = []
    for seed in (103, 105, 107):
        observed: list = []
        tally = _read_board(suedsee, seed, observed=observed)
        assert tally.figures_ok >= tally.figures - 2, f"board {seed}: {tally.errors}"
        obs, truth = observed[0]
        for t in truth.tiles:
            got = obs.tiles.get((t["x"], t["y"]))
            assert got is not None, f"board {seed}: tile at {t['x']}, {t['y']} not seen"
            if (got.tile, got.rotation) != (t["tile"], t["rotation"]):
                wrong.append(got)
                assert (t["tile"], t["rotation"]) in got.hidden_twins and got.confidence < 0.5, \
                    f"board {seed}: {t} read as {got.to_dict()} without a mark"
    assert len(wrong) <= 2, [g.to_dict() for g in wrong]
