"""``tablehub markers``: printable pages at true size and the mat file."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tablehub.cli import main
from vision.markers import detect_markers, png_dpi
from vision.mat import Mat


def _found_on_pages(folder, mat, dpi):
    sides = {}
    for page in sorted(folder.glob("page-*.png")):
        assert png_dpi(page) == pytest.approx(dpi, abs=0.05)  # PNG stores whole pixels per metre
        image = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        for mid, corners in detect_markers(small, mat).corners.items():
            sides[mid] = float(np.linalg.norm(corners[1] - corners[0])) * 2
    return sides


def test_the_full_mat_is_tiled_over_a4_pages_at_true_size(tmp_path, capsys):
    assert main(["markers", "--out", str(tmp_path), "--dpi", "150"]) == 0
    mat = Mat.load(tmp_path / "mat.json")
    assert mat == Mat.default()
    assert len(list(tmp_path.glob("page-*.png"))) == 12
    sides = _found_on_pages(tmp_path, mat, 150)
    assert sorted(sides) == [0, 1, 2, 3]
    px_per_mm = 150 / 25.4
    for mid, side in sides.items():
        assert side == pytest.approx(mat.marker_mm * px_per_mm, rel=0.02), f"marker {mid} printed at the wrong size"
    assert "13 x 13 cells of 45 mm" in capsys.readouterr().out


def test_corner_cards_fit_on_one_page(tmp_path):
    assert main(["markers", "--out", str(tmp_path), "--layout", "corners", "--play", "500x400",
                 "--dpi", "200"]) == 0
    mat = Mat.load(tmp_path / "mat.json")
    assert (mat.play_width_mm, mat.play_height_mm) == (500, 400)
    assert [p.name for p in sorted(tmp_path.glob("page-*.png"))] == ["page-01.png"]
    assert sorted(_found_on_pages(tmp_path, mat, 200)) == [0, 1, 2, 3]


def test_a_bad_mat_file_is_one_line_and_status_2(tmp_path, capsys):
    (tmp_path / "mat.json").write_text('{"format": "tablehub-mat/1"}')
    assert main(["markers", "--mat", str(tmp_path / "mat.json"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "play_area" in err
