"""A side hidden by a pawn's or a marker's paint is not read from it (vision/sunda.py ``HIDDEN_SLOTS``,
``_hide_markers``; docs/history/sunda-measured.md, "Session 15: a side under a token"): a pawn colour blurred into the
print takes another class (yellow
into the water reads as the land's green), and a resource marker's disc takes the class of its colour (a blue marker
on land reads as water). The slot's samples there do not vote; the slot is read from the rest of its samples, the piece
across the side or the owner's set."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_joint import LAT  # noqa: E402
from tests.vision.test_sunda_spits import _disc, _ring, _slot_spot, _water_label  # noqa: E402


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _rimmed_water(reader, slot: int) -> np.ndarray:
    """An all-water piece at 0,0 turn 0 with a pawn (a red disc 8 mm across) on the cloth 4.5 mm outside slot
    ``slot``'s point, its paint blurred into the water about it as a ring 2 mm wide of the land's class (yellow into
    blue is green) reaching 1.5 mm inside the side, over the slot's nearest samples."""
    label = _water_label(reader)
    spot, mid = _slot_spot(slot, 0.0)
    centre = spot - (mid - spot) / np.linalg.norm(mid - spot) * 4.5
    _disc(reader, label, centre, 6.0, 1, label == 2)
    _disc(reader, label, centre, 4.0, 3)
    return label


@pytest.mark.parametrize("slot", [1, 4, 7])
def test_a_pawns_rim_over_a_slot_does_not_vote(reader, monkeypatch, slot):
    label = _rimmed_water(reader, slot)
    rim = reader._paint_rim(label)
    assert _ring(reader, label, rim) == "W" * 12
    monkeypatch.setattr(sunda, "HIDDEN_SLOTS", False)
    assert _ring(reader, label, rim)[slot] == "L"


@dataclass
class _Marker:
    mat_mm: tuple[float, float]


def _land_with_marker(reader, slot: int) -> tuple[np.ndarray, _Marker]:
    """An all-land piece at 0,0 turn 0 with a blue resource marker (a disc 6 mm across of the water's class) 3 mm
    inside slot ``slot``'s point."""
    label = _water_label(reader)
    label[label == 2] = 1
    spot, _ = _slot_spot(slot, 3.0)
    _disc(reader, label, spot, 3.0, 2)
    return label, _Marker((float(spot[0]), float(spot[1])))


def _ring_with_markers(reader, label, markers) -> str:
    pieces = [{"q": 0, "r": 0, "turn": 0}]
    rim = reader._paint_rim(label)
    reader._read_sides(pieces, LAT, label, rim)
    reader._hide_markers(pieces, LAT, label, markers)
    reader._fill_hidden(pieces, set(), LAT, [])
    return "".join(pieces[0]["ring"])


@pytest.mark.parametrize("slot", [1, 4, 10])
def test_a_marker_over_a_slot_does_not_vote(reader, monkeypatch, slot):
    label, marker = _land_with_marker(reader, slot)
    assert _ring_with_markers(reader, label, [marker]) == "L" * 12
    assert _ring_with_markers(reader, label, [])[slot] == "W"          # the marker's disc read as the print
    monkeypatch.setattr(sunda, "MARKER_HIDES_MM", 0.0)
    assert _ring_with_markers(reader, label, [marker])[slot] == "W"


def test_a_marker_far_off_changes_nothing(reader):
    """A marker on another piece leaves this one's sides as read (only the pieces it lies over are read again)."""
    label = _water_label(reader)
    far = _Marker((float(LAT.to_mm(np.array([[5.0, 5.0]]))[0, 0]), float(LAT.to_mm(np.array([[5.0, 5.0]]))[0, 1])))
    pieces = [{"q": 0, "r": 0, "turn": 0}]
    reader._read_sides(pieces, LAT, label, reader._paint_rim(label))
    before = pieces[0]["votes"].copy()
    reader._hide_markers(pieces, LAT, label, [far])
    assert np.array_equal(pieces[0]["votes"], before)


def test_a_slot_mostly_under_a_pawns_rim_is_read_on_all_its_samples(reader, monkeypatch):
    """Where the paint and its rim leave only a far sample or two of a slot clear (weighing under ``SEEN_LEAST``),
    those are no reading of it (the next slot's terrain, a coast beyond): the slot is read on all its samples."""
    label = _water_label(reader)
    label[label == 2] = 1                                           # an all-land piece
    spot, mid = _slot_spot(9, 0.0)
    inward = (mid - spot) / np.linalg.norm(mid - spot)
    along = np.array([-inward[1], inward[0]])
    far = spot + inward * 2.6 + along * 1.9                         # one deep sample's place, off the slot's point
    _disc(reader, label, far, 0.8, 2)                               # water there (a coast beyond the slot)
    rim = np.zeros(label.shape, np.uint8)
    _disc(reader, rim, spot, 5.0, 1)
    _disc(reader, rim, far, 0.8, 0)                                 # the rim leaves that sample clear
    assert _ring(reader, label, rim) == "L" * 12
    monkeypatch.setattr(sunda, "SEEN_LEAST", 0.0)
    assert _ring(reader, label, rim)[9] == "W"
