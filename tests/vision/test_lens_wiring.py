"""The lens file reaches what reads frames: ``tablehub run``, ``recognize``, ``enroll``; ``doctor`` reports it."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tablehub.cli import main
from tablehub.commands.doctor import check_lens
from tablehub.setup_files import LensError, configured_lens, keep_lens, lens_for
from tablehub.commands._hub import table_recognizer
from tablehub.config import ConfigError, load_config
from tablehub.tracking.recognizer import RecognitionUnavailable
from vision.calibrate import CalibrationError, LensCalibration

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1920, 1080)


def a_lens(k1: float = -0.1, rms: float = 0.3, size: tuple[int, int] = SIZE) -> LensCalibration:
    w, h = size
    K = np.array([[0.8 * w, 0, w / 2], [0, 0.8 * w, h / 2], [0, 0, 1]])
    return LensCalibration(K, np.array([k1, 0.02, 0, 0, 0]), size, rms, 12)


def settings(tmp_path: Path, toml: str = "", source: str = "picamera2"):
    path = tmp_path / "tablehub.toml"
    path.write_text(toml)
    return load_config(path, environ={"TABLEHUB_DATA": str(tmp_path / "data"), "TABLEHUB_CAMERA": source})


@pytest.fixture
def hub_env(tmp_path, monkeypatch) -> Path:
    """The environment a command sees: a Pi camera, an empty settings file, data in tmp; returns the data folder."""
    empty = tmp_path / "tablehub.toml"
    empty.write_text("")
    monkeypatch.setenv("TABLEHUB_CONFIG", str(empty))
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("TABLEHUB_CAMERA", "picamera2")
    (tmp_path / "data").mkdir()
    return tmp_path / "data"


# --------------------------------------------------------------------------- where the lens file is


def test_the_lens_file_is_per_camera_in_the_data_folder_unless_the_settings_say(tmp_path):
    cfg = settings(tmp_path)
    assert configured_lens(cfg) is None, "calibration is optional"
    (tmp_path / "data").mkdir()
    a_lens(-0.12).save(tmp_path / "data" / "lens-picamera2.json")
    assert configured_lens(cfg).dist_coeffs[0] == pytest.approx(-0.12)
    assert configured_lens(settings(tmp_path, source="opencv")) is None, "another camera, another lens"
    elsewhere = a_lens(-0.2).save(tmp_path / "wide.json")
    cfg = settings(tmp_path, f'[camera]\nlens = "{elsewhere}"\n')
    assert configured_lens(cfg).dist_coeffs[0] == pytest.approx(-0.2)
    cfg = settings(tmp_path, f'[camera]\nlens = "{tmp_path / "gone.json"}"\n')
    with pytest.raises(LensError, match=r"gone.json: no lens file there \(\[camera\] lens in .*tablehub.toml\)"):
        configured_lens(cfg)


def test_a_command_line_lens_wins_and_none_turns_it_off(tmp_path):
    (tmp_path / "data").mkdir()
    a_lens(-0.12).save(tmp_path / "data" / "lens-picamera2.json")
    given = a_lens(-0.05).save(tmp_path / "given.json")
    cfg = settings(tmp_path)
    assert lens_for(cfg, str(given)).dist_coeffs[0] == pytest.approx(-0.05)
    assert lens_for(cfg, None).dist_coeffs[0] == pytest.approx(-0.12)
    assert lens_for(cfg, "none") is None


def test_the_settings_know_the_vision_section(tmp_path):
    cfg = settings(tmp_path, '[vision]\nrefs = "/srv/refs/{game}-pi"\n[camera]\nlens = "/srv/lens.json"\n')
    assert cfg.refs_path("suedsee") == Path("/srv/refs/suedsee-pi")
    assert cfg.lens_path("picamera2") == Path("/srv/lens.json")
    assert settings(tmp_path).refs_path("neuesland") == tmp_path / "data" / "refs" / "neuesland"
    with pytest.raises(ConfigError, match=r"\[vision\]: unknown key 'lens'"):
        settings(tmp_path, '[vision]\nlens = "x"\n')


# --------------------------------------------------------------------------- tablehub run


def fake_references(folder: Path, game: str = "neuesland") -> Path:
    """A reference folder with the set's tile ids and noise for pictures: enough to build a recognizer."""
    from vision.refs import ReferenceSet
    from vision.tiles import CatalogInfo

    ids = list(CatalogInfo.load(ROOT / "tablehub" / "games" / game / "tiles.json").tile_ids)
    images = np.random.default_rng(0).integers(0, 255, (len(ids), 48, 48, 3), dtype=np.uint8)
    return ReferenceSet(game, ids, images, camera="test").save(folder)


def test_run_reads_the_references_through_the_cameras_lens(tmp_path):
    cfg = settings(tmp_path)
    with pytest.raises(RecognitionUnavailable, match=r"no references in .*data/refs/neuesland; enrol the set"):
        table_recognizer(cfg, "neuesland")
    fake_references(cfg.refs_path("neuesland"))
    assert table_recognizer(cfg, "neuesland").recognizer.rectifier.lens is None
    a_lens(-0.12).save(cfg.lens_path("picamera2"))
    lens = table_recognizer(cfg, "neuesland").recognizer.rectifier.lens
    assert lens is not None and lens.dist_coeffs[0] == pytest.approx(-0.12)


def test_run_without_a_camera_lens_takes_the_one_enrolled_with_the_references(tmp_path):
    cfg = settings(tmp_path)
    refs = fake_references(cfg.refs_path("neuesland"))
    a_lens(-0.07).save(refs / "lens.json")
    assert table_recognizer(cfg, "neuesland").recognizer.rectifier.lens.dist_coeffs[0] == pytest.approx(-0.07)


def test_an_unreadable_lens_file_turns_recognition_off_naming_the_file(tmp_path):
    cfg = settings(tmp_path)
    fake_references(cfg.refs_path("neuesland"))
    cfg.lens_path("picamera2").write_text("{not json")
    with pytest.raises(RecognitionUnavailable) as err:
        table_recognizer(cfg, "neuesland")
    assert str(err.value).count(str(cfg.lens_path("picamera2"))) == 1 and "not valid JSON" in str(err.value)
    assert "\n" not in str(err.value)


# --------------------------------------------------------------------------- tablehub recognize and enroll


@pytest.mark.parametrize("command", [
    ["recognize", "table.png", "--game", "neuesland", "--refs", "nowhere"],
    ["enroll", "--game", "neuesland", "--out", "refs-out", "--colours", "figures.png"],
])
def test_recognize_and_enroll_refuse_an_unreadable_lens_file_in_one_line(hub_env, command, capsys):
    bad = hub_env / "lens-picamera2.json"
    bad.write_text('{"format": "tablehub-lens/1", "camera_matrix": [[1, 0], [0, 1]], "dist_coeffs": [0, 0, 0, 0],'
                   ' "image_size": [640, 480]}')
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "camera_matrix must be 3x3" in err


def test_recognize_names_a_missing_lens_given_on_the_command_line(hub_env, tmp_path, capsys):
    assert main(["recognize", "table.png", "--game", "neuesland", "--lens", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.json: cannot read the lens file" in err


def test_enrolled_references_keep_the_lens_they_were_taken_through(tmp_path, capsys):
    keep_lens(tmp_path, a_lens(-0.09))
    assert LensCalibration.load(tmp_path / "lens.json").dist_coeffs[0] == pytest.approx(-0.09)
    keep_lens(tmp_path, None)
    assert not (tmp_path / "lens.json").exists(), "a lens.json from an earlier enrolment would be wrong"
    assert "removed" in capsys.readouterr().out


# --------------------------------------------------------------------------- tablehub doctor


def test_doctor_reports_the_lens_file_and_its_rms(tmp_path):
    cfg = settings(tmp_path)
    (tmp_path / "data").mkdir()
    check = check_lens(cfg)
    assert check.status == "skip" and "lens-picamera2.json" in check.found
    a_lens(rms=0.31).save(cfg.lens_path("picamera2"))
    check = check_lens(cfg)
    assert check.status == "ok" and "RMS reprojection error 0.31 px" in check.found and "12 views" in check.found
    a_lens(rms=1.7).save(cfg.lens_path("picamera2"))
    assert check_lens(cfg).status == "warn"
    a_lens(size=(1280, 960)).save(cfg.lens_path("picamera2"))
    check = check_lens(cfg)
    assert check.status == "fail" and "other aspect ratio" in check.found and "lens calibrate" in check.fix
    cfg.lens_path("picamera2").write_text("[]")
    check = check_lens(cfg)
    assert check.status == "fail" and "lens-picamera2.json" in check.found


def test_doctor_prints_the_lens_line(hub_env, capsys):
    a_lens(rms=0.25).save(hub_env / "lens-picamera2.json")
    main(["doctor", "--no-camera"])
    out = capsys.readouterr().out
    assert "OK   lens: " in out and "RMS reprojection error 0.25 px" in out


def test_a_lens_for_other_frames_of_the_same_shape_is_scaled_and_other_shapes_refused():
    lens = a_lens()
    assert lens.for_size((1280, 720)).camera_matrix[0, 0] == pytest.approx(lens.camera_matrix[0, 0] * 2 / 3)
    with pytest.raises(CalibrationError, match="other aspect ratio"):
        lens.for_size((640, 480))


def test_run_refuses_a_lens_for_frames_of_another_shape_naming_the_file(tmp_path):
    cfg = settings(tmp_path, "[camera]\nwidth = 1920\nheight = 1080\n")
    fake_references(cfg.refs_path("neuesland"))
    a_lens(size=(1280, 960)).save(cfg.lens_path("picamera2"))
    with pytest.raises(RecognitionUnavailable) as err:
        table_recognizer(cfg, "neuesland")
    message = str(err.value)
    assert message.count(str(cfg.lens_path("picamera2"))) == 1 and "other aspect ratio" in message
    a_lens(size=(1280, 720)).save(cfg.lens_path("picamera2"))
    lens = table_recognizer(cfg, "neuesland").recognizer.rectifier.lens
    assert lens.image_size == (1920, 1080), "scaled to the camera's frames"


def test_the_service_watches_the_lens_file_of_the_camera_found(tmp_path):
    """With the default source "auto" the service watched lens-auto.json, a file nothing writes: a lens
    calibrated beside the running service never reloaded recognition."""
    from tablehub.setup_files import lens_path
    from tablehub.commands._hub import game_recognizers

    cfg = settings(tmp_path, source="auto")
    watched = game_recognizers(cfg, None)._files("neuesland")
    assert lens_path(cfg) in watched and lens_path(cfg).name != "lens-auto.json"
    assert not any(p.name == "lens-auto.json" for p in watched)


def test_lens_none_reads_a_photo_through_no_lens_even_where_the_references_keep_one(tmp_path):
    """``tablehub recognize --lens none`` (and ``score --photo``) once still read through refs/lens.json."""
    from tablehub.setup_files import reading_lens
    from vision.loader import load_recognizer

    cfg = settings(tmp_path)
    refs = fake_references(cfg.refs_path("neuesland"))
    a_lens(-0.07).save(refs / "lens.json")
    assert reading_lens(cfg, "none") is False and reading_lens(cfg, "None") is False
    assert reading_lens(cfg, None) is None, "no camera lens: the references' own is taken by the loader"
    assert load_recognizer("neuesland", refs, lens=False).rectifier.lens is None
    kept = load_recognizer("neuesland", refs, lens=reading_lens(cfg, None)).rectifier.lens
    assert kept is not None and kept.dist_coeffs[0] == pytest.approx(-0.07)
