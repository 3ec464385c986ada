"""``tablehub enroll`` and ``tablehub recognize`` from the command line."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tablehub.cli import main

pytestmark = pytest.mark.shared


def test_enroll_from_scans_writes_an_index_and_the_images(tmp_path, neuesland_scans, capsys):
    out = tmp_path / "refs"
    assert main(["enroll", "--game", "neuesland", "--scans", str(neuesland_scans), "--out", str(out)]) == 0
    index = json.loads((out / "index.json").read_text())
    assert index["format"] == "tablehub-vision-refs/1" and len(index["tiles"]) == 84
    assert (out / "refs.npz").is_file()
    assert "enrolled 84 tile types" in capsys.readouterr().out


def test_a_mat_given_with_scans_is_not_copied_into_the_references(tmp_path, neuesland_scans):
    """Issue 14: `enroll --scans ... --mat X` copied X into the references, and `recognize` without --mat then
    used it silently. Scans depend on no mat: nothing is copied."""
    from vision.mat import Mat

    mat = Mat.around(500, 500)
    mat.save(tmp_path / "kitchen.json")
    out = tmp_path / "refs"
    assert main(["enroll", "--game", "neuesland", "--scans", str(neuesland_scans), "--mat",
                 str(tmp_path / "kitchen.json"), "--out", str(out)]) == 0
    assert not (out / "mat.json").exists()


def test_enroll_layout_says_where_each_tile_goes(capsys):
    assert main(["enroll", "--game", "neuesland", "--out", "unused", "--layout"]) == 0
    text = capsys.readouterr().out
    assert "ds001 ds002" in text and "north up" in text


def test_recognize_prints_the_table_as_json(tmp_path, neuesland, capsys):
    refs = tmp_path / "refs"
    neuesland.refs.save(refs)
    neuesland.colours.save(refs / "colours.json")
    lens = neuesland.lens
    from vision.calibrate import LensCalibration

    LensCalibration(lens.camera_matrix, lens.dist_coeffs, lens.image_size).save(refs / "lens.json")
    scene = neuesland.board(seed=81, tiles=20, figures=3)
    frame, truth = neuesland.render(scene, seed=82)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), frame)
    assert main(["recognize", str(image), "--game", "neuesland", "--refs", str(refs)]) == 0
    out = json.loads(capsys.readouterr().out)
    seen = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in out["tiles"]}
    want = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in truth.tiles}
    assert seen == want
    assert out["tiles"][0].keys() >= {"x", "y", "tile", "rotation", "confidence", "runners_up"}
    assert {(f["x"], f["y"], f["colour"], f["region"]) for f in out["figures"]} == \
        {(f["x"], f["y"], f["color"], f["region"]) for f in truth.figures}


@pytest.mark.parametrize("content, message", [
    ("blank", "blank image"),
    ("noise", "markers"),
    ("text", "not a readable image"),
])
def test_recognize_answers_bad_photos_with_one_line(tmp_path, neuesland, capsys, content, message):
    refs = tmp_path / "refs"
    neuesland.refs.save(refs)
    image = tmp_path / "photo.png"
    if content == "blank":
        cv2.imwrite(str(image), np.full((720, 1280, 3), 30, np.uint8))
    elif content == "noise":
        cv2.imwrite(str(image), np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8))
    else:
        image.write_text("not an image")
    assert main(["recognize", str(image), "--game", "neuesland", "--refs", str(refs)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_recognize_without_references_says_how_to_make_them(tmp_path, capsys):
    image = tmp_path / "photo.png"
    cv2.imwrite(str(image), np.zeros((10, 10, 3), np.uint8))
    assert main(["recognize", str(image), "--game", "neuesland", "--refs", str(tmp_path / "none")]) == 2
    assert "tablehub enroll" in capsys.readouterr().err
