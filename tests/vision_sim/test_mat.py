"""The mat file: round trip and one-line validation errors."""
from __future__ import annotations

import json

import pytest

from vision import VisionError
from vision.mat import Mat, MatError


def test_default_mat_holds_13_by_13_cells_of_45_mm():
    mat = Mat.default()
    assert mat.cells == (13, 13)
    assert mat.width_mm == 700 and mat.marker_mm == 40
    assert mat.problems() == []


def test_mat_file_round_trip(tmp_path):
    mat = Mat.around(800, 500, marker_mm=50, tile_mm=44, name="kitchen")
    path = mat.save(tmp_path / "mat.json")
    assert Mat.load(path) == mat
    assert json.loads(path.read_text())["format"] == "tablehub-mat/1"


def test_mat_error_is_a_vision_error():
    assert issubclass(MatError, VisionError)


def _write(tmp_path, data) -> str:
    path = tmp_path / "mat.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("markers"), "markers"),
    (lambda d: d["markers"][1].update(x_mm="far"), "markers[1].x_mm"),
    (lambda d: d["markers"][2].update(id=1), "markers: marker ids must be distinct"),
    (lambda d: d.update(dictionary="DICT_9X9_1"), "dictionary"),
    (lambda d: d["markers"][0].update(id=60), "markers[0] (id 60): id must be in 0..49"),
    (lambda d: d["markers"][3].update(x_mm=300, y_mm=300), "overlaps the play area"),
    (lambda d: d.update(width_mm=-5), "width_mm"),
    (lambda d: d["play_area"].update(width_mm=900), "play_area"),
    (lambda d: d.update(format="other/1"), "format"),
])
def test_bad_mat_files_fail_with_one_line_naming_file_and_field(tmp_path, change, field):
    data = Mat.default().to_dict()
    change(data)
    path = _write(tmp_path, data)
    with pytest.raises(MatError) as err:
        Mat.load(path)
    message = str(err.value)
    assert message.startswith(path + ": ")
    assert field in message
    assert "\n" not in message


def test_unreadable_mat_files_say_so(tmp_path):
    with pytest.raises(MatError, match="cannot read"):
        Mat.load(tmp_path / "absent.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(MatError, match="not valid JSON"):
        Mat.load(bad)


def test_marker_labels_name_the_corners():
    mat = Mat.default()
    assert [mat.marker_label(i) for i in mat.marker_ids] == ["top-left", "top-right", "bottom-right", "bottom-left"]
