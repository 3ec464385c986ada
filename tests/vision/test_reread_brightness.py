"""The colour re-reading allows each reference its own brightness (issue 14, session nlfig4).

A camera's references are as bright as the light at each tile's place in the enrolment photo: 0.83-1.07 of their
scans' brightness (the median tile 1.0), the darkest ds044, which the enrolment layout puts in the field camera's dim
corner. The re-reading by colour (:mod:`vision.undercover`) took every reference into the frame's light alike, so
a right reading of ds044 (sea with a plain wedge) was *switched* to all-sea ds083 on four Neues Land ``field/hard``
seed 2 boards: ds083's brighter sea fitted the sea better than ds044's wedge cost it. One factor per candidate, the
same in every channel (:data:`vision.undercover.BRIGHTNESS`), explains a dim reference, never a wedge of another
colour.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

pytestmark = pytest.mark.shared

DIM = 0.84
"""ds044's reference against its scan, relative to the median tile, in both field/hard enrolments looked at."""


def _reread(scans, brightness, monkeypatch, light=((0.9, 0.73, 0.81), (6.7, 35.4, 29.7)), dim=DIM):
    from vision import undercover
    from vision.tiles import TileGuess

    monkeypatch.setattr(undercover, "BRIGHTNESS", brightness)
    ids = ["ds044", "ds083", "ds060", "ds045", "ds024"]
    refs = np.stack([cv2.resize(cv2.imread(str(scans / f"{t}.png"))[:, :, :3], (48, 48), interpolation=cv2.INTER_AREA)
                     for t in ids]).astype(np.float32)
    gain, offset = (np.array(v, np.float32) for v in light)
    seen = np.clip(refs[0] * gain + offset, 0, 255)                 # ds044 as the frame shows it
    refs[0] *= dim                                                  # its reference from the dim corner
    pad = 6
    canvas = np.zeros((48 + 2 * pad, 48 + 2 * pad, 3), np.float32)
    canvas[:] = seen.mean(axis=(0, 1))
    canvas[pad:pad + 48, pad:pad + 48] = seen
    rng = np.random.default_rng(1)
    canvas = np.clip(canvas + rng.normal(0, 6, canvas.shape), 0, 255).astype(np.uint8)
    guess = TileGuess(0, 0, "ds044", 0, 0.7, 0.08)
    out = undercover.reread(canvas, np.clip(refs, 0, 255).astype(np.uint8), ids, guess, pad, pad, 45 / 48,
                            np.zeros(canvas.shape[:2], bool), (gain, offset))
    return out.tile


def test_a_dim_reference_of_the_right_tile_is_kept(neuesland_scans, monkeypatch):
    from vision import undercover

    assert _reread(neuesland_scans, undercover.BRIGHTNESS, monkeypatch) == "ds044"


def test_without_the_factor_the_all_sea_tile_wins(neuesland_scans, monkeypatch):
    """The cause shows: with every reference taken as bright as the others, ds044 is switched to all sea."""
    assert _reread(neuesland_scans, (1.0, 1.0), monkeypatch) == "ds083"


def test_a_brightness_never_turns_sea_into_a_wedge(neuesland_scans, monkeypatch):
    """All sea seen (ds083's art, its reference bright or dim) stays all sea: no factor makes ds044's wedge fit."""
    from vision import undercover
    from vision.tiles import TileGuess

    ids = ["ds044", "ds083"]
    refs = np.stack([cv2.resize(cv2.imread(str(neuesland_scans / f"{t}.png"))[:, :, :3], (48, 48),
                                interpolation=cv2.INTER_AREA) for t in ids]).astype(np.float32)
    pad = 6
    for dim in (0.8, 1.0, 1.2):
        canvas = np.zeros((60, 60, 3), np.float32)
        canvas[:] = refs[1].mean(axis=(0, 1))
        canvas[pad:pad + 48, pad:pad + 48] = refs[1]
        r = refs.copy()
        r[1] = np.clip(r[1] * dim, 0, 255)
        guess = TileGuess(0, 0, "ds044", 0, 0.7, 0.08)
        out = undercover.reread(canvas.astype(np.uint8), r.astype(np.uint8), ids, guess, pad, pad, 45 / 48,
                                np.zeros((60, 60), bool), (np.ones(3, np.float32), np.zeros(3, np.float32)))
        assert out.tile == "ds083", dim
