"""A faint green marker at `hard` whose disc the paint pass found with its paint's colour and shape but lighter than
the paint asks (``PAINT_LIGHTNESS``; as dark as the disc pass asks, ``DISC_LIGHTNESS``) was rejected, and the photo's
score was silently wrong (photo bench seed 11 `hard` table 9: P1 8 short). Such a disc is now listed as unsure
(``MarkerFinder.doubtful``; the photo scorer: "a disc by the tribe at Q,R ...: the green marker: P1 +8"), not read
(vision/sundamarkers.py ``PAINT_DIM_UNSURE``). The colour the JPEG smears round a red marker stays neither read nor
listed (tests/photo/test_sunda_marker_paint.py). Rendered as the bench renders it."""
from __future__ import annotations

import pytest

from vision import sundamarkers

from tests.photo.test_sunda_marker_paint import _doubtful
from tests.photo.test_sunda_photo_seen import _markers, table  # noqa: F401 (table: a fixture)


@pytest.mark.parametrize("table", [("hard", 11, 9)], indirect=True)
def test_a_faint_marker_lighter_than_its_paint_is_listed_not_read(table, monkeypatch):
    t, folder = table
    assert "green" in {m["marker"] for m in t["truth"].markers}
    assert "green" not in _markers(t, folder)
    assert "green" in _doubtful(t, folder)
    monkeypatch.setattr(sundamarkers, "PAINT_DIM_UNSURE", False)      # rejected, as before: silently wrong
    assert "green" not in _doubtful(t, folder)
