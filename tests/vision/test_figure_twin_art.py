"""A figure found on a marked guess where a runner-up shows its own art is that runner-up's art (issue 14, session
suedlight; ``FigureReading._art_of_another``).

Südsee's field camera at ``hard``: J1 was read as its twin L1 (the twin contest left to the box, a figure on the
tile), and J1's market, which L1 lacks, was then read as a red figure on L1, the blue figure standing on the tile named
on L1's regions (two wrong figures); L1 read as D2 the same way. A figure stands up from the tile: its paint and its
shadow are on no tile's art; a market that the twin has is explained by the twin's reference as well as the rest of
the tile is.
"""
from types import SimpleNamespace

import cv2
import numpy as np

from vision.figurereading import FigureReading
from vision.pieces import FigureSeen
from vision.tiles import TILE_PX, Candidate, TileGuess

MARGIN = 12
SEA = (116.0, 115.0, 97.0)
MARKET = (73.0, 101.0, 188.0)          # the market's orange-red (BGR)
RED_PAINT = (40.0, 40.0, 200.0)
LIGHT = np.array([0.9, 0.94, 0.96], np.float32)
DISC = ((30, 18), 8)                   # centre (x, y) and radius, tile pixels


def _art(market: bool) -> np.ndarray:
    yy, xx = np.mgrid[:TILE_PX, :TILE_PX]
    art = np.empty((TILE_PX, TILE_PX, 3), np.float32)
    art[:] = SEA
    art += (6 * np.sin(xx / 3.0) * np.cos(yy / 4.0))[..., None]
    if market:
        cv2.circle(art, DISC[0], DISC[1], MARKET, -1)
    return art


def _picture(art: np.ndarray, rng, sd: float = 8.0) -> np.ndarray:
    return np.clip(cv2.GaussianBlur(art, (0, 0), 1.2) + rng.normal(0, sd, art.shape), 0, 255).astype(np.uint8)


def _reading(rng):
    """A stand-in for the recogniser's figure reading: the two twins' references (each a noisy picture)."""
    refs = {"plain": _picture(_art(False), rng), "market": _picture(_art(True), rng)}
    ids = list(refs)
    fr = SimpleNamespace(classifier=SimpleNamespace(mm_per_px=0.94), figure_scale=2,
                         _ref_bgr=[refs[i] for i in ids], refs=SimpleNamespace(index_of=ids.index),
                         light_art_var=FigureReading.light_art_var, twin_explains=FigureReading.twin_explains,
                         twin_better=FigureReading.twin_better, twin_fits_rest=FigureReading.twin_fits_rest)
    fr._misfit_of_pictures = FigureReading._misfit_of_pictures.__get__(fr)
    return fr


def _canvas(tile_picture: np.ndarray):
    size = TILE_PX + 2 * MARGIN
    bgr = np.zeros((size, size, 3), np.uint8)
    bgr[:] = (60, 100, 95)
    bgr[MARGIN:MARGIN + TILE_PX, MARGIN:MARGIN + TILE_PX] = tile_picture
    return SimpleNamespace(bgr=bgr, x0=0, y0=0, margin=MARGIN,
                           top_left=lambda x, y: (MARGIN + y * TILE_PX, MARGIN + x * TILE_PX))


def _found(mask: np.ndarray, colour: str = "red"):
    """A sighting whose picture is ``mask`` (tile pixels), as the figure pass hands it on: its pixels on the grid at
    the figures' scale (2)."""
    ys, xs = np.nonzero(mask)
    pixels = frozenset(zip((xs // 2).tolist(), (ys // 2).tolist()))     # the tile's top-left on the grid is (0, 0)
    return [(FigureSeen(0, 0, colour, None, 0.6, 0.4, 1.0, 150.0), False, (0.1, -0.1), pixels)]


def _guess(tile: str, twin: str) -> dict:
    return {(0, 0): TileGuess(0, 0, tile, 0, 0.9, 0.28, runners_up=(Candidate(twin, 0, 0.9),),
                              hidden_twins=((twin, 0),))}


def _disc_mask() -> np.ndarray:
    m = np.zeros((TILE_PX, TILE_PX), np.uint8)
    cv2.circle(m, DISC[0], DISC[1] + 1, 1, -1)
    return m.astype(bool)


def test_the_twins_market_read_as_a_figure_names_the_twin():
    for seed in (1, 2, 3):
        rng = np.random.default_rng(seed)
        fr = _reading(rng)
        photo = _picture(_art(True) * LIGHT, rng)
        tiles = _guess("plain", "market")
        changed = FigureReading._art_of_another(fr, _canvas(photo), [(0, 0)], tiles, _found(_disc_mask()))
        assert changed == [(0, 0)] and tiles[(0, 0)].tile == "market", seed


def test_a_figure_on_the_tile_is_no_twins_art():
    """A red figure standing where the twin has its market (its paint redder and darker than the market, its shadow
    beside it): no reference shows it, and the guess stays."""
    for seed in (4, 5, 6):
        rng = np.random.default_rng(seed)
        fr = _reading(rng)
        art = _art(False)
        shadow = np.zeros((TILE_PX, TILE_PX), np.uint8)
        cv2.ellipse(shadow, (34, 24), (9, 5), 30, 0, 360, 1, -1)
        art[shadow.astype(bool)] *= 0.55
        figure = np.zeros((TILE_PX, TILE_PX), np.uint8)
        cv2.ellipse(figure, DISC[0], (8, 6), 0, 0, 360, 1, -1)
        art[figure.astype(bool)] = RED_PAINT
        photo = _picture(art * LIGHT, rng)
        tiles = _guess("plain", "market")
        changed = FigureReading._art_of_another(fr, _canvas(photo), [(0, 0)], tiles,
                                                _found(figure.astype(bool) | shadow.astype(bool)))
        assert changed == [] and tiles[(0, 0)].tile == "plain", seed
