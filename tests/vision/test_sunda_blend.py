"""A one-slot spit of land by an acute corner blended away (vision/sunda.py ``_blended_spit``, ``BLEND_DEEP``): the
provisional set's lone land slots are thin wedges (s030, s087: 5 mm at the side), and at `hard` the wedge blurred with
the water about it takes the cloth's class at the side and deeper in, where the cloth cannot show; its slot's own
samples keep a good share of water, so ``_blurred_spits`` does not take it (docs/history/sunda-measured.md, "Session
14: a pawn's paint is no gap")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_spits import _disc, _ring, _slot_spot, _water_label  # noqa: E402


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _blended(reader, slots=(0,), rim_at: int | None = None) -> str:
    """An all-water piece at 0,0 turn 0 with, at each of ``slots``, a wedge of the cloth's class (land blurred into
    water), 3 mm wide, from 2.5 to 9 mm in from the slot's point towards the piece's middle, its own samples at the side still
    water; with ``rim_at``, a pawn's blurred rim (``rim``, as ``_pieces`` passes it) over that slot's wedge. The ring."""
    label = _water_label(reader)
    for slot in slots:
        spot, mid = _slot_spot(slot, 0.0)
        inward = (mid - spot) / np.linalg.norm(mid - spot)
        for t in np.arange(2.5, 9.01, 0.5):
            _disc(reader, label, spot + inward * t, 1.6, 0)
    rim = None
    if rim_at is not None:
        rim = np.zeros(label.shape, np.uint8)
        spot, mid = _slot_spot(rim_at, 5.0)
        _disc(reader, rim, spot, 5.0, 255)
    return _ring(reader, label, rim)


@pytest.mark.parametrize("slot", [0, 5, 6, 11])
def test_a_spit_blended_away_by_an_acute_corner_is_land(reader, monkeypatch, slot):
    want = "".join("L" if k == slot else "W" for k in range(12))
    assert _blended(reader, (slot,)) == want
    monkeypatch.setattr(sunda, "BLEND_DEEP", 0.0)
    assert _blended(reader, (slot,)) == "W" * 12


def test_a_pawns_rim_deep_in_is_no_spit(reader):
    """A pawn's paint blurred into the water takes the cloth's class too (red into blue): under its rim the deep
    samples do not count."""
    assert _blended(reader, (0,), rim_at=0) == "W" * 12


def test_a_blend_along_three_slots_is_no_lone_spit(reader):
    """The blend deep in at a slot and both its neighbours is a coast along the side (or the piece's own shading),
    not a spit a slot wide."""
    assert _blended(reader, (0, 1, 11)) == "W" * 12


def test_the_blend_rule():
    blend = [0.0] * 12
    blend[3] = 0.7
    assert sunda.SundaReader._blended_spit(blend, 3)
    blend[4] = 0.4
    assert not sunda.SundaReader._blended_spit(blend, 3)
    blend[4], blend[3] = 0.0, 0.5
    assert not sunda.SundaReader._blended_spit(blend, 3)
