"""One-slot spits of land in open water that the slot's own samples do not show (docs/history/sunda-measured.md,
"Session 12, spits"):
blurred into the water they read as the cloth's class (vision/sunda.py ``_blurred_spits``, ``BLURRED_SPIT``), or a
pawn on the node hides the slot while the spit's body shows deeper in (``HIDDEN_DEEP``)."""
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


def _slot_spot(slot: int, inside_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Slot ``slot``'s point on the side of the piece at 0,0 turn 0, ``inside_mm`` towards its middle; the middle."""
    C = LAT.to_mm(np.array(corners_of(0, 0, 0), float))
    s, j = divmod(slot, 3)
    a, b = C[s], C[(s + 1) % 4]
    mid = C.mean(axis=0)
    spot = a + (j + 0.5) / 3 * (b - a)
    return spot + (mid - spot) / np.linalg.norm(mid - spot) * inside_mm, mid


def _disc(reader, label, centre_mm, radius_mm, value, where=None):
    disc = np.zeros(label.shape, np.uint8)
    c = np.round(reader._px(centre_mm[None])[0]).astype(int)
    cv2.circle(disc, (int(c[0]), int(c[1])), int(round(radius_mm * reader.s)), 1, -1)
    label[(disc > 0) & (True if where is None else where)] = value


def _water_label(reader):
    x0, y0, x1, y1 = reader._play
    label = np.zeros((y1 - y0, x1 - x0), np.uint8)
    px = np.round(reader._px(LAT.to_mm(np.array(corners_of(0, 0, 0), float))) * 16).astype(np.int32)
    cv2.fillPoly(label, [px], 2, cv2.LINE_8, shift=4)
    return label


def _ring(reader, label, rim=None):
    pieces = [{"q": 0, "r": 0, "turn": 0}]
    reader._read_sides(pieces, LAT, label, rim)
    reader._fill_hidden(pieces, set(), LAT, [])
    return "".join(pieces[0]["ring"])


def _water_piece(reader, blank_share: float, slot: int = 3):
    """An all-water piece at 0,0 turn 0 whose slot ``slot`` (its point on its side, up to 3 mm inside) shows the
    cloth's class on ``blank_share`` of its pixels and water on the rest (a spit's blurred mix: a fine
    checkerboard of the two, as JPEG's blocks and the blur leave it). Returns the ring read."""
    label = _water_label(reader)
    spot, _ = _slot_spot(slot, 1.5)
    _disc(reader, label, spot, 3.5, 0, np.random.default_rng(7).random(label.shape) < blank_share)
    return _ring(reader, label)


def test_a_spit_blurred_to_the_cloths_class_between_water_slots_is_land(reader, monkeypatch):
    ring = _water_piece(reader, 0.92)
    assert ring == "WWWLWWWWWWWW", ring
    monkeypatch.setattr(sunda, "BLURRED_SPIT", 0.0)
    monkeypatch.setattr(sunda, "BLEND_DEEP", 0.0)      # the blend reaches the deep samples too (test_sunda_blend.py)
    assert _water_piece(reader, 0.92) == "W" * 12


def test_water_that_shows_some_cloth_class_by_a_corner_stays_water(reader):
    """A water slot by an acute corner takes some of the cut edge's dark and the cloth: it still shows a quarter of
    its samples as water, which no blurred spit does."""
    assert _water_piece(reader, 0.6) == "W" * 12


def test_a_spit_under_a_pawn_shows_deeper_in(reader, monkeypatch):
    """A pawn on the node hides slot 3's samples (its paint's class); the spit's land runs on under it towards the
    piece's middle, where the deep samples see it: land. Without reading the deep samples of a hidden slot the
    slot takes the water that shows at the pawn's edge."""
    def ring():
        label = _water_label(reader)
        spot, mid = _slot_spot(3, 0.0)
        body = spot + (mid - spot) * 0.3
        _disc(reader, label, body, 2.0, 1)
        _disc(reader, label, spot + (mid - spot) / np.linalg.norm(mid - spot) * 1.0, 2.0, 3)
        return _ring(reader, label)
    assert ring() == "WWWLWWWWWWWW"
    monkeypatch.setattr(sunda, "HIDDEN_DEEP", False)
    assert ring() == "W" * 12



def _traced_piece(reader, land_share: float, body_mm: float | None, slot: int = 3) -> str:
    """An all-water piece at 0,0 turn 0 whose slot ``slot`` shows land on ``land_share`` of the pixels of a strip
    along its side, 1.4 mm deep (a trace under ``LAND_SHARE``: the print blended with the cut edge and a light
    cloth at `hard`), and, with ``body_mm``, a body of land 2 mm wide that runs on from the side towards the middle
    for that far (a true spit). Returns the ring read."""
    label = _water_label(reader)
    C = LAT.to_mm(np.array(corners_of(0, 0, 0), float))
    s, j = divmod(slot, 3)
    a, b = C[s], C[(s + 1) % 4]
    spot, mid = _slot_spot(slot, 0.0)
    along = (b - a) / np.linalg.norm(b - a)
    inward = (mid - spot) / np.linalg.norm(mid - spot)
    half = np.linalg.norm(b - a) / 6
    strip = np.array([spot - along * half, spot + along * half,
                      spot + along * half + inward * 1.4, spot - along * half + inward * 1.4])
    mask = np.zeros(label.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(reader._px(strip) * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    label[(mask > 0) & (np.random.default_rng(3).random(label.shape) < land_share)] = 1
    if body_mm is not None:
        for t in np.arange(0.0, body_mm, 0.5):
            _disc(reader, label, spot + inward * t, 1.0, 1)
    return _ring(reader, label)


@pytest.mark.parametrize("share", [0.2, 0.35])
def test_a_trace_of_land_at_a_side_with_no_body_deeper_in_stays_water(reader, monkeypatch, share):
    """Open sea on the layout's outline on beige linen at `hard`: 15-48 % of a slot's votes land, none of the deep
    samples. Without the body test (``SPIT_BODY`` 0) that trace was a spit."""
    assert _traced_piece(reader, share, None) == "W" * 12
    monkeypatch.setattr(sunda, "SPIT_BODY", 0.0)
    assert _traced_piece(reader, share, None) == "WWWLWWWWWWWW"


def test_a_spit_whose_land_runs_on_deeper_in_is_land(reader):
    assert _traced_piece(reader, 0.35, 5.0) == "WWWLWWWWWWWW"
