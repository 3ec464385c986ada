"""The light a tile is seen in, for the figure search (issue 14, session suedlight): a gain per channel that the tile's
own spread of art sets only where the art spreads, else its mean level (``vision.pieces.gains_of_many``'s
``art_var``, ``FigureReading.light_art_var``).

Südsee's field camera at ``hard``: on a tile mostly of sea with a market on it, the free gain and offset per channel
came out flattened (G 0.39, offset +63, where the light alone is 0.94), its reference itself a camera's picture whose
noise, blur and misplacement the frame does not share; the market was predicted 20-40 levels too dull in red and read
as a red figure. The tile here is made the same way: sea with faint waves and a market, the reference and the frame
each a noisy, blurred picture of it, the frame a pixel off and in another light.
"""

import cv2
import numpy as np
import pytest

from vision.figurereading import FigureReading
from vision.pieces import gains_of_many

SEA = (116.0, 115.0, 97.0)        # BGR, the field camera's enrolled sea
MARKET = (73.0, 101.0, 188.0)
LIGHT = np.array([0.9, 0.94, 0.96], np.float32)   # the frame's light against the enrolment's, per channel


def _tile(colours, rng, n=48):
    """The art of a tile (float BGR) and the mask of its second colour: the first colour with faint waves, a disc
    of the second (17 mm across) off the middle."""
    yy, xx = np.mgrid[:n, :n]
    art = np.empty((n, n, 3), np.float32)
    art[:] = colours[0]
    art += (6 * np.sin(xx / 3.0) * np.cos(yy / 4.0))[..., None]
    disc = (xx - 30) ** 2 + (yy - 20) ** 2 < 8 ** 2
    art[disc] = colours[1]
    return art, disc


def _picture(art, rng, blur, shift, sd=8.0):
    out = np.roll(cv2.GaussianBlur(art, (0, 0), blur), shift, axis=1)
    return np.clip(out + rng.normal(0.0, sd, out.shape), 0, 255).astype(np.float32)


def _light(obs, ref, art_var):
    gain, offset = gains_of_many(obs[None, ::3, ::3], ref[None, ::3, ::3], art_var)   # as FigureReading samples
    return gain[0], offset[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_mostly_sea_tile_is_seen_in_the_light_it_lies_in(seed):
    rng = np.random.default_rng(seed)
    art, disc = _tile((SEA, MARKET), rng)
    ref = _picture(art, rng, 1.0, 0)
    obs = _picture(art * LIGHT, rng, 1.3, 1)
    gain, offset = _light(obs, ref, FigureReading.light_art_var)
    assert np.abs(gain - LIGHT).max() < 0.2, gain
    # the market, as the reference lit so predicts it, against what the frame shows of it
    predicted = art[disc].mean(axis=0) * gain + offset
    assert np.abs(predicted - np.asarray(MARKET) * LIGHT).max() < 13, predicted


def test_a_tile_whose_art_spreads_keeps_its_own_fit():
    """Where the tile's colours fix a gain and an offset, they stand: the ridge toward the light alone moves them
    little (a sand island on sea, a red market)."""
    rng = np.random.default_rng(5)
    art, disc = _tile(((150.0, 60.0, 30.0), (60.0, 200.0, 230.0)), rng)
    half = np.zeros(art.shape[:2], bool)
    half[:, :20] = True
    art[half] = (40.0, 140.0, 200.0)
    ref = _picture(art, rng, 1.0, 0, sd=4.0)
    obs = _picture(art * LIGHT + 12.0, rng, 1.3, 0, sd=4.0)      # a flare the enrolment did not have
    free = _light(obs, ref, 0.0)
    held = _light(obs, ref, FigureReading.light_art_var)
    assert np.abs(held[0] - free[0]).max() < 0.05
    assert np.abs(held[1] - free[1]).max() < 8
