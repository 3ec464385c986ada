"""Sunda to Sahul scored from one photo: the photo bench's own table (``tablehub bench photoscore --games sunda``,
docs/sunda.md "Scoring from a photo") that session 25 found silently wrong, scored right now and shown wrong again
without its fix:

- hard table 1 at seed 36: by the corner where an island meets the cloth, the JPEG's chroma rang past the edge: a
  disc of the land pushed further from the cloth's chroma (11 greener than the land) but 1.7 lighter where the green
  paint is 9.4 darker (-0.18 of the paint's lightness difference, inside the disc pass's noise allowance
  ``DISC_LIGHTNESS``). It was read as the green marker where none lies, P2 scored 19 where the game gives 11, nothing
  unsure. A disc on the other side of the land's lightness (``DISC_LIGHTNESS_SURE``) is now listed, not read.

The table is rendered as the bench renders it (a whole seeded game, its colours enrolled on another evening)."""
from __future__ import annotations

import pytest

from vision import sundamarkers

from tests.photo.test_sunda_photo_hard import offers_the_truth, scored
from tests.photo.test_sunda_photo_seen import table  # noqa: F401 (a fixture)


@pytest.mark.parametrize("table", [("hard", 36, 1)], indirect=True)
def test_a_chroma_ring_lighter_than_the_land_is_listed_not_read(table, monkeypatch):
    t, folder = table
    assert "green" not in {m["marker"] for m in t["truth"].markers}
    got, want, result = scored(t, folder)
    assert got == want
    assert "green" not in {m["marker"] for m in result.position["position"].get("markers", [])}
    # listed: a disc by that tribe whose colour is unclear, the green marker among what it may be
    assert any(u.matters and any("green" in str(p.label) for p in u.possibilities) for u in result.unsure)
    monkeypatch.setattr(sundamarkers, "DISC_LIGHTNESS_SURE", sundamarkers.DISC_LIGHTNESS)    # as before
    got, want, result = scored(t, folder)
    assert got != want and not offers_the_truth(result, want)      # silently wrong
