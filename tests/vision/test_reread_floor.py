"""The colour re-reading weighs candidates by what they misfit beyond the frame's noise floor (issue 14, nlfig5).

In a noisy frame (the field camera at ``hard``: noise, JPEG 65, a magenta cast) the right reference of a tile still
misfits 23-27 units (B+G+R, truncated) where it lies. Neues Land field/hard seed 1 board 3: ds048 r90 under a yellow
figure was read as ds078 r180 (confidence 0.33); the re-reading found ds048 best (32.0) but not below 0.7 of the
guess's 38.8, so the figure was named on ds078's region and ds048's town was a phantom yellow figure. The tiles read
for sure beside it misfit 26.5 against their own references (:func:`vision.undercover.noise_floor`): beyond that
floor ds048 misfits 5.5, ds078 12.3.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

pytestmark = pytest.mark.shared

NOISE = 26.0
"""Per-channel noise (sd): every right reference then misfits some 59 units and ds078 75 on what the figure leaves
visible; the plain ratio (0.79) is short of 0.7, as in the bench's frame (32.0 against 38.8: 0.82), where noise, JPEG
and the blur of both frame and references made the floor."""


def _refs(scans, ids):
    return np.stack([cv2.resize(cv2.imread(str(scans / f"{t}.png"))[:, :, :3], (48, 48), interpolation=cv2.INTER_AREA)
                     for t in ids]).astype(np.uint8)


def _scene(scans, seed):
    """A canvas of three tiles in a row, ds083 | ds048 r90 | ds002 as a noisy frame shows them, half of ds048's
    town (where ds078 has no mountain) hidden by a figure; the references, the figure's mask, the light."""
    ids = ["ds048", "ds078", "ds083", "ds002", "ds047", "ds065"]
    refs = _refs(scans, ids)
    gain, offset = np.array((0.9, 0.8, 0.85), np.float32), np.array((10.0, 25.0, 20.0), np.float32)
    pad = 8
    canvas = np.zeros((48 + 2 * pad, 3 * 48 + 2 * pad, 3), np.float32)
    canvas[:] = (90, 110, 100)
    for k, (j, turn) in enumerate(((2, 0), (0, 1), (3, 0))):
        canvas[pad:pad + 48, pad + 48 * k:pad + 48 * (k + 1)] = np.rot90(refs[j], -turn) * gain + offset
    rng = np.random.default_rng(seed)
    canvas = np.clip(canvas + rng.normal(0, NOISE, canvas.shape), 0, 255).astype(np.uint8)
    hidden = np.zeros(canvas.shape[:2], bool)
    hidden[pad + 14:pad + 30, pad + 48 + 24:pad + 48 + 40] = True      # the figure on the town
    sure = [(np.rot90(refs[2], 0), pad, pad), (refs[3], pad, pad + 96)]
    return ids, refs, canvas, hidden, sure, (gain, offset), pad


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_beyond_the_floor_the_right_tile_wins(neuesland_scans, seed):
    from vision import undercover
    from vision.tiles import TileGuess

    ids, refs, canvas, hidden, sure, light, pad = _scene(neuesland_scans, seed)
    floor = undercover.noise_floor(canvas, sure, ~hidden, light)
    assert floor is not None and floor > 15.0          # the noise is no small part of every misfit
    guess = TileGuess(0, 0, "ds078", 180, 0.76, 0.33)
    out = undercover.reread(canvas, refs, ids, guess, pad, pad + 48, 45 / 48, hidden, light, floor)
    assert (out.tile, out.rotation) == ("ds048", 90)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_by_the_plain_ratio_the_wrong_guess_stays(neuesland_scans, seed):
    """The cause: without the floor the right tile is not clearly better than the wrong guess in this much noise."""
    from vision import undercover
    from vision.tiles import TileGuess

    ids, refs, canvas, hidden, _, light, pad = _scene(neuesland_scans, seed)
    guess = TileGuess(0, 0, "ds078", 180, 0.76, 0.33)
    out = undercover.reread(canvas, refs, ids, guess, pad, pad + 48, 45 / 48, hidden, light)
    assert (out.tile, out.rotation) == ("ds078", 180)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_right_guess_is_kept_at_the_floor(neuesland_scans, seed):
    """The right guess at the floor is never switched to a look-alike (ds047, ds065) by noise."""
    from vision import undercover
    from vision.tiles import TileGuess

    ids, refs, canvas, hidden, sure, light, pad = _scene(neuesland_scans, seed)
    floor = undercover.noise_floor(canvas, sure, ~hidden, light)
    guess = TileGuess(0, 0, "ds048", 90, 0.76, 0.33)
    out = undercover.reread(canvas, refs, ids, guess, pad, pad + 48, 45 / 48, hidden, light, floor)
    assert (out.tile, out.rotation) == ("ds048", 90)


def test_clearly_better_needs_a_margin_over_the_floor():
    from vision.undercover import clearly_better

    assert clearly_better(20.0, 30.0, None)                 # the plain ratio, as before
    assert not clearly_better(32.0, 38.8, None)
    assert clearly_better(32.0, 38.8, 26.5)
    assert not clearly_better(26.9, 27.3, 26.7)             # both at the floor: noise
