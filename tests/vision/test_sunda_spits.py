"""A one-slot spit of land blurred into open water (vision/sunda.py ``_blurred_spits``, ``BLURRED_SPIT``): at `hard`
a spit a slot wide by a piece's acute corner, blurred with the water about it and the dark cut edge, reads as
neither land nor water but as the cloth's class, so the slot showed water or nothing and the spit was lost
(docs/sunda.md, "Session 13")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_joint import LAT  # noqa: E402
from vision.sunda import corners_of  # noqa: E402


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _water_piece(reader, blank_share: float, slot: int = 3):
    """An all-water piece at 0,0 turn 0 whose slot ``slot`` (its point on its side, up to 3 mm inside) shows the
    cloth's class on ``blank_share`` of its pixels and water on the rest (a spit's blurred mix: a fine
    checkerboard of the two, as JPEG's blocks and the blur leave it). Returns the ring read."""
    x0, y0, x1, y1 = reader._play
    label = np.zeros((y1 - y0, x1 - x0), np.uint8)
    C = LAT.to_mm(np.array(corners_of(0, 0, 0), float))
    px = np.round(reader._px(C) * 16).astype(np.int32)
    cv2.fillPoly(label, [px], 2, cv2.LINE_8, shift=4)
    s, j = divmod(slot, 3)
    a, b = C[s], C[(s + 1) % 4]
    mid = C.mean(axis=0)
    spot = a + (j + 0.5) / 3 * (b - a)
    spot = spot + (mid - spot) / np.linalg.norm(mid - spot) * 1.5
    disc = np.zeros(label.shape, np.uint8)
    c = np.round(reader._px(spot[None])[0]).astype(int)
    cv2.circle(disc, (int(c[0]), int(c[1])), int(round(3.5 * reader.s)), 1, -1)
    noise = np.random.default_rng(7).random(label.shape) < blank_share
    label[(disc > 0) & noise] = 0
    pieces = [{"q": 0, "r": 0, "turn": 0}]
    reader._read_sides(pieces, LAT, label)
    reader._fill_hidden(pieces, set(), LAT, [])
    return "".join(pieces[0]["ring"])


def test_a_spit_blurred_to_the_cloths_class_between_water_slots_is_land(reader, monkeypatch):
    ring = _water_piece(reader, 0.92)
    assert ring == "WWWLWWWWWWWW", ring
    monkeypatch.setattr(sunda, "BLURRED_SPIT", 0.0)
    assert _water_piece(reader, 0.92) == "W" * 12


def test_water_that_shows_some_cloth_class_by_a_corner_stays_water(reader):
    """A water slot by an acute corner takes some of the cut edge's dark and the cloth: it still shows a quarter of
    its samples as water, which no blurred spit does."""
    assert _water_piece(reader, 0.6) == "W" * 12
