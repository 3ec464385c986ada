"""The simulated table's tile art: Neues Land's printed tiles from ../shared's scans when they are there,
the catalog's drawn art otherwise (and for games without scans), and one-line errors when scans are asked
for and missing."""
from __future__ import annotations

import numpy as np
import pytest

from tablehub.tracking.simtable import SimTable, SimTableError, catalog_path, demo_record, missing_scans


@pytest.fixture(scope="module")
def record():
    return demo_record("neuesland", 2, 3)


def test_without_the_shared_folder_the_table_falls_back_to_drawn_art(record, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLEHUB_SHARED", str(tmp_path / "absent"))
    sim = SimTable(record, art="auto")
    assert (sim.art, sim.scans, sim.art_name) == ("drawn", None, "drawn art")
    with pytest.raises(SimTableError, match=r"no scans of neuesland's tiles \(.*absent.* is not there\)"):
        SimTable(record, art="scans")


def test_a_scan_folder_missing_tiles_is_not_used_and_named(record, tmp_path, monkeypatch):
    folder = tmp_path / "data" / "neues_land" / "scans"
    folder.mkdir(parents=True)
    (folder / "ds001.png").write_bytes(b"")  # only the start tile
    monkeypatch.setenv("TABLEHUB_SHARED", str(tmp_path))
    assert "ds002" in missing_scans("neuesland", catalog_path("neuesland"))
    assert SimTable(record, art="auto").art == "drawn"
    with pytest.raises(SimTableError, match=r"has no scan of \d+ tiles \(ds002, "):
        SimTable(record, art="scans")


def test_unknown_art_and_games_without_scans_are_one_line_errors(record, tmp_path, monkeypatch):
    with pytest.raises(SimTableError, match="art 'photos' is not one of drawn, scans, auto"):
        SimTable(record, art="photos")
    suedsee = demo_record("suedsee", 2, 3)
    assert SimTable(suedsee, art="auto").art == "drawn"
    with pytest.raises(SimTableError, match="no scans of suedsee's tiles$"):
        SimTable(suedsee, art="scans")


@pytest.mark.shared
def test_with_the_scans_the_table_is_drawn_from_them(record, neuesland_scans, monkeypatch):
    """The start frame on scans is another picture than on drawn art, and its start tile is the scan's."""
    sim_mod = pytest.importorskip("vision.sim")
    cv2 = pytest.importorskip("cv2")
    monkeypatch.setenv("TABLEHUB_SHARED", str(neuesland_scans.parents[2]))
    scans = SimTable(record, size=(640, 360), art="auto")
    assert scans.art == "scans" and scans.scans == neuesland_scans
    art, geometry = scans.tile_art()
    assert isinstance(art, sim_mod.ScanArt) and art.folder == neuesland_scans
    scan = cv2.resize(cv2.imread(str(neuesland_scans / "ds001.png"))[:, :, :3], (48, 48), interpolation=cv2.INTER_AREA)
    assert np.abs(art.image("ds001", 48).astype(int) - scan.astype(int)).mean() < 8
    drawn = SimTable(record, size=(640, 360), art="drawn")
    first = scans.shots()[0]
    a, b = scans.draw(first, 0), drawn.draw(drawn.shots()[0], 0)
    assert a.shape == b.shape == (360, 640, 3)
    assert np.abs(a.astype(int) - b.astype(int)).max() > 60, "the start tile looks the same on scans and drawn art"
