"""Sunda to Sahul scored from one photo: the photo bench's `hard` tables (``tablehub bench photoscore --games sunda``,
docs/sunda.md "Scoring from a photo") wrong on the merged main of session 17, each scored exactly right now and shown
wrong again without its fix:

- seed 6 table 6: a purple stack of 3 whose dark paint, blurred into the land in its own shadow, read as the black
  pawn's class right round it: its blob of pawn colours was 14.1 mm wide where its outline is 10.4, over the 14 mm a
  stack's blob may be, and the stack and the two markers by it were lost (19 points). The blob is now measured and
  kept where its outline is a stack's width (vision.sunda.RIM_MM);
- seed 5 table 4: a green marker read by the disc pass 13.6 mm from a red stack where none lies: a disc 6.7 *lighter*
  than the land and greener (the colour the JPEG smears round a red pawn), where the green paint is 9 darker. The disc
  pass now asks a core's lightness as the paint pass does (vision.sundamarkers.lightness_agrees).

The tables are rendered as the bench renders them (a whole seeded game, its colours enrolled on another evening)."""
from __future__ import annotations

import pytest

from vision import sunda, sundamarkers

from tests.photo.test_sunda_photo_hard import _scores
from tests.photo.test_sunda_photo_seen import _markers, table  # noqa: F401 (table: a fixture)


@pytest.mark.parametrize("table", [("hard", 6, 6)], indirect=True)
def test_a_dark_stack_wider_by_its_blurred_rim_is_found(table, monkeypatch):
    t, folder = table
    got, want = _scores(t, folder)
    assert got == want
    monkeypatch.setattr(sunda, "RIM_MM", 0.0)       # a blob over 1.4 pawns wide split, as before
    got, want = _scores(t, folder)
    assert got != want


@pytest.mark.parametrize("table", [("hard", 5, 4)], indirect=True)
def test_a_disc_lighter_than_the_land_is_no_green_marker(table, monkeypatch):
    t, folder = table
    assert "green" not in {m["marker"] for m in t["truth"].markers}
    assert "green" not in _markers(t, folder)
    got, want = _scores(t, folder)
    assert got == want
    monkeypatch.setattr(sundamarkers, "lightness_agrees", lambda *a: True)     # the lightness not asked
    assert "green" in _markers(t, folder)
