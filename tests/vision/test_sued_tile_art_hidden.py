"""Südsee at ``field/hard``: a tile's own art left out as figures, read again whole (brief suedtiles2).

The vision bench's Südsee ``field/hard`` seed 2, boards 1 and 2: B1 (a red island on the sea) under the field camera's
warm cast. The island passed the covered test as a red figure and stood as phantom figures: three quarters of the cell
were left out, the sea that showed fitted K2 (a red reef strip) as well as B1, the cell was read K2 at confidence 0.00
and the colour re-reading, leaving the same pixels out, saw nothing better. Read whole, B1 explains the cell at the
frame's noise floor (24.8 against 23.7) and K2 does not (58.1): the island is art. A figure standing on the tile
misfits every reference, and the guess stays as it was.
"""
from __future__ import annotations

import numpy as np

from vision.tiles import TileGuess
from vision.undercover import WHOLE_CELL, reread

SIDE, PAD, TOP = 40, 4, 10
SEA, RED, GREEN = (170, 110, 60), (60, 70, 200), (60, 170, 40)


def _tiles() -> tuple[np.ndarray, list[str]]:
    """B1: a red disc in the middle of the sea; K2: a red reef bar along the left edge; X: all sea. Where the photo
    leaves out the disc and the left edge, the three look alike."""
    refs = np.zeros((3, SIDE, SIDE, 3), np.uint8)
    refs[:] = SEA
    yy, xx = np.mgrid[:SIDE, :SIDE]
    refs[0][(yy - 20) ** 2 + (xx - 20) ** 2 <= 12 ** 2] = RED
    refs[1][4:36, 2:7] = RED
    return refs, ["B1", "K2", "X"]


def _photo(refs: np.ndarray, figure: bool, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The canvas (sea around) with B1 at (TOP, TOP), camera noise; and the pixels left out: the island (taken for
    figures) and, with ``figure``, a green figure standing on it."""
    bgr = np.empty((TOP * 2 + SIDE, TOP * 2 + SIDE, 3), np.float32)
    bgr[:] = SEA
    bgr[TOP:TOP + SIDE, TOP:TOP + SIDE] = refs[0]
    yy, xx = np.mgrid[:bgr.shape[0], :bgr.shape[1]]
    island = (yy - TOP - 20) ** 2 + (xx - TOP - 20) ** 2 <= 13 ** 2
    if figure:
        bgr[(yy - TOP - 20) ** 2 + (xx - TOP - 20) ** 2 <= 11 ** 2] = GREEN
    bgr += rng.normal(0, 4.0, bgr.shape).astype(np.float32)
    hidden = island.copy()
    hidden[TOP:TOP + SIDE, TOP:TOP + 8] = True          # the shadows and rims around the phantoms
    return np.clip(bgr, 0, 255), hidden


def _guess() -> TileGuess:
    return TileGuess(0, 0, "K2", 0, 0.60, 0.0, ())


LIGHT = (np.ones(3, np.float32), np.zeros(3, np.float32))
FLOOR = 10.0            # what the right tiles around misfit in this noise (3 channels x ~3.2)


def test_a_marked_guess_whose_hidden_part_is_its_art_is_read_whole():
    refs, ids = _tiles()
    bgr, hidden = _photo(refs, figure=False, rng=np.random.default_rng(1))
    new = reread(bgr, refs, ids, _guess(), TOP, TOP, 1.0, hidden, LIGHT, FLOOR)
    assert new.tile == "B1"                              # a disc: every turn alike
    assert new.confidence < 0.5, "still a reading to check"
    assert new.runners_up[0].tile == "K2", "the reading it replaces listed first"


def test_a_figure_on_the_tile_is_no_art_and_the_guess_stands():
    """The same cell with a green figure over the island: every reference misfits the figure's paint, nothing
    explains the whole cell within the noise, and the guess stays (its hidden part is a figure)."""
    refs, ids = _tiles()
    bgr, hidden = _photo(refs, figure=True, rng=np.random.default_rng(1))
    guess = _guess()
    assert reread(bgr, refs, ids, guess, TOP, TOP, 1.0, hidden, LIGHT, FLOOR) is guess
    assert WHOLE_CELL * FLOOR < 40.0


def test_a_reading_that_passes_as_sure_is_not_read_whole():
    """Only a marked guess (confidence below MAX_CONFIDENCE) is read with nothing left out."""
    refs, ids = _tiles()
    bgr, hidden = _photo(refs, figure=False, rng=np.random.default_rng(1))
    guess = TileGuess(0, 0, "K2", 0, 0.90, 0.45, ())
    assert reread(bgr, refs, ids, guess, TOP, TOP, 1.0, hidden, LIGHT, FLOOR) is guess
