"""``tablehub lens board`` and ``tablehub lens calibrate`` end to end, on photos of a board with a known lens.

The photos are rendered by :func:`vision.sim.render_sheet` through a wide lens (about a
Camera Module 3 Wide: 100 degrees across, strong barrel distortion) with the board in
every part of the picture, tilted, as a person would hold it.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tablehub.cli import main
from vision.calibrate import CharucoSpec, LensCalibration, detect_charuco
from vision.markers import png_dpi
from vision.sim import CameraModel, render_sheet

SIZE = (1280, 720)
WIDE = CameraModel(hfov_deg=100.0, fill=0.75, distortion=(-0.14, 0.04, 0.0005, -0.0005, 0.0), noise_sigma=1.5,
                   blur_sigma=0.6, jpeg_quality=92, light_angle_deg=30.0, light_gradient=0.1)
PLACES = [(-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (0, 0)]


def board_photos(n: int, camera: CameraModel = WIDE, seed: int = 3) -> tuple[list[np.ndarray], LensCalibration]:
    """``n`` photos of the default board (as printed, with its white margin) and the true lens."""
    spec, ppm = CharucoSpec(), 4.0
    sheet = spec.image(ppm, margin_mm=10.0)
    rng = np.random.default_rng(seed)
    photos, pose = [], None
    for k in range(n):
        px, py = PLACES[k % len(PLACES)]
        cam = camera.with_(tilt_deg=float(rng.uniform(10, 30)), tilt_azimuth_deg=37.0 * k,
                           roll_deg=float(rng.uniform(-20, 20)), shift_mm=(px * 170.0, py * 95.0))
        image, pose = render_sheet(sheet, ppm, cam, np.random.default_rng(k), SIZE)
        photos.append(image)
    assert pose is not None
    return photos, LensCalibration(pose.K, pose.dist, SIZE)


def write_photos(folder: Path, photos: list[np.ndarray], prefix: str = "board") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for k, image in enumerate(photos):
        cv2.imwrite(str(folder / f"{prefix}-{k:02d}.png"), image)
    return folder


@pytest.fixture(scope="module")
def wide_photos() -> tuple[list[np.ndarray], LensCalibration]:
    return board_photos(16)


@pytest.fixture
def hub_settings(tmp_path, monkeypatch) -> Path:
    """A hub whose camera is a Pi camera and whose data folder is empty; returns the data folder."""
    empty = tmp_path / "tablehub.toml"
    empty.write_text("")
    data = tmp_path / "data"
    monkeypatch.setenv("TABLEHUB_CONFIG", str(empty))
    monkeypatch.setenv("TABLEHUB_DATA", str(data))
    monkeypatch.setenv("TABLEHUB_CAMERA", "picamera2")
    monkeypatch.delenv("TABLEHUB_CAMERA_PATH", raising=False)
    return data


def mat_error_mm(lens: LensCalibration | None, frames: int = 2) -> np.ndarray:
    """How far play-area points land from the truth after the rectifier, on the bare mat seen through the
    same wide lens (hung over the table like the hub's camera: slightly tilted), in mm."""
    from vision.mat import Mat
    from vision.rectify import Rectifier
    from vision.sim import Scene, render

    mat = Mat.default()
    x, y, w, h = mat.play_rect_mm
    rng = np.random.default_rng(5)
    pts = np.column_stack([rng.uniform(x, x + w, 400), rng.uniform(y, y + h, 400)])
    camera = WIDE.with_(fill=0.92, tilt_deg=6.0, tilt_azimuth_deg=None, roll_deg=1.5, shift_mm=(8.0, -5.0))
    errors = []
    for seed in range(frames):
        image, truth = render(Scene(mat=mat), None, camera, np.random.default_rng(seed), SIZE)
        rect = Rectifier(mat, lens=lens)
        errors.append(np.linalg.norm(rect.image_to_mat(truth.mat_to_image(pts), rect.locate(image)) - pts, axis=1))
    return np.concatenate(errors)


def undistortion_error_px(est: LensCalibration, truth: LensCalibration) -> tuple[float, float]:
    """Worst disagreement over the whole frame: (as ray directions scaled by the true focal length, up to a
    homography: what is left after the mat's homography, which absorbs a different camera matrix)."""
    w, h = truth.image_size
    grid = np.array([[x, y] for x in np.linspace(0, w - 1, 17) for y in np.linspace(0, h - 1, 11)])
    e, r = est.undistort_points(grid), truth.undistort_points(grid)
    rays_e = (e - est.camera_matrix[:2, 2]) / np.diag(est.camera_matrix)[:2]
    rays_r = (r - truth.camera_matrix[:2, 2]) / np.diag(truth.camera_matrix)[:2]
    rays = float(np.abs(rays_e - rays_r).max() * truth.camera_matrix[0, 0])
    H, _ = cv2.findHomography(e, r, 0)
    mapped = cv2.perspectiveTransform(e.reshape(-1, 1, 2), H).reshape(-1, 2)
    return rays, float(np.linalg.norm(mapped - r, axis=1).max())


# --------------------------------------------------------------------------- lens calibrate --photos


def test_photos_of_the_board_recover_the_wide_lens(tmp_path, hub_settings, wide_photos, capsys):
    photos, truth = wide_photos
    folder = write_photos(tmp_path / "photos", photos)
    assert main(["lens", "calibrate", "--photos", str(folder)]) == 0
    out = capsys.readouterr().out
    lens_file = hub_settings / "lens-picamera2.json"
    assert f"wrote {lens_file}" in out, "the lens goes where the hub reads it"
    lens = LensCalibration.load(lens_file)
    assert lens.image_size == SIZE and lens.views == 16
    assert f"lens from 16 views (1280x720): RMS reprojection error {lens.rms_px:.2f} px" in out
    assert lens.rms_px < 0.5
    assert "board-00.png: " in out and " corners" in out, "one progress line per photo"
    assert lens.camera_matrix[0, 0] == pytest.approx(truth.camera_matrix[0, 0], rel=0.01)
    assert np.abs(lens.camera_matrix[:2, 2] - truth.camera_matrix[:2, 2]).max() < 0.01 * SIZE[0]
    # The camera matrix comes out within a pixel or two (the centre moves every point alike: over 12 seeds
    # of photos 0.5-2.2 px as rays); what the mat sees, after its homography, within a pixel (0.1-0.5 px).
    rays, planar = undistortion_error_px(lens, truth)
    assert rays < 3.0, f"undistorted points {rays:.2f} px off the true lens's"
    assert planar < 1.0, f"{planar:.2f} px left after the mat's homography"
    without = LensCalibration(truth.camera_matrix, np.zeros(5), SIZE)
    assert undistortion_error_px(without, truth)[1] > 20, "the lens is wide enough that calibrating matters"


def test_the_calibrated_lens_puts_the_mat_where_it_is(tmp_path, hub_settings, wide_photos):
    assert main(["lens", "calibrate", "--photos", str(write_photos(tmp_path / "photos", wide_photos[0]))]) == 0
    lens = LensCalibration.load(hub_settings / "lens-picamera2.json")
    assert mat_error_mm(lens).max() < 0.5
    assert mat_error_mm(None).max() > 5.0, "without the lens the wide camera misplaces the mat's edges"


def test_too_few_views_is_one_line_and_status_2(tmp_path, hub_settings, wide_photos, capsys):
    folder = write_photos(tmp_path / "photos", wide_photos[0][:3])
    assert main(["lens", "calibrate", "--photos", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "found in 3 of 3 photos" in err and "need at least 5" in err
    assert "tilted" in err, "says what to do"
    assert not (hub_settings / "lens-picamera2.json").exists()


def test_a_folder_without_photos_or_with_blank_ones_is_one_line(tmp_path, hub_settings, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("no photos here")
    assert main(["lens", "calibrate", "--photos", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no photos there" in err
    blank = write_photos(tmp_path / "blank", [np.full((SIZE[1], SIZE[0], 3), 128, np.uint8)] * 4)
    assert main(["lens", "calibrate", "--photos", str(blank)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "found in 0 of 4 photos" in captured.err
    assert captured.out.count("skipped, 0 of 40 corners seen") == 4


def test_an_implausible_reprojection_error_is_refused_naming_the_worst_views(tmp_path, hub_settings,
                                                                             wide_photos, capsys):
    folder = write_photos(tmp_path / "photos", wide_photos[0][:8])
    out = tmp_path / "lens.json"
    assert main(["lens", "calibrate", "--photos", str(folder), "--max-rms", "0.01", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "reprojection error" in err and "worst views: board-" in err
    assert "drop blurred" in err and not out.exists()


def test_photos_of_two_resolutions_are_refused(tmp_path, hub_settings, wide_photos, capsys):
    folder = write_photos(tmp_path / "photos", wide_photos[0][:5])
    cv2.imwrite(str(folder / "board-99.png"), cv2.resize(wide_photos[0][5], (640, 360)))
    assert main(["lens", "calibrate", "--photos", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board-99.png: 640x360 differs" in err


# --------------------------------------------------------------------------- lens calibrate --camera


def test_the_camera_takes_shots_skipping_frames_without_the_board_and_repeats(tmp_path, hub_settings,
                                                                               wide_photos, capsys):
    photos, truth = wide_photos
    blank = np.full((SIZE[1], SIZE[0], 3), 90, np.uint8)
    # what a camera sees: nothing yet, the board, the board held still, then moved each time
    frames = [blank, blank, photos[0], photos[0]] + photos[1:10]
    recorded = write_photos(tmp_path / "recorded", frames, prefix="frame")
    saved = tmp_path / "shots"
    assert main(["lens", "calibrate", "--camera", "replay", "--camera-path", str(recorded), "--pause", "0",
                 "--shots", "8", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "move it" in lines[0] and "Ctrl-C" in lines[0], "tells the person what to do first"
    assert sum("skipped, 0 of 40 corners seen" in line for line in lines) == 1, "one line per reason, not per frame"
    assert any("has not moved since the last shot" in line for line in lines)
    assert [line.split(":")[0] for line in lines if line.startswith("shot ")] == [f"shot {k}/8" for k in range(1, 9)]
    lens_file = hub_settings / "lens-replay.json"
    lens = LensCalibration.load(lens_file)
    assert lens.views == 8 and f"wrote {lens_file}" in out
    assert undistortion_error_px(lens, truth)[1] < 1.0
    assert sorted(p.name for p in saved.iterdir()) == [f"shot-{k:02d}.png" for k in range(1, 9)]


def test_a_camera_that_ends_before_enough_shots_is_one_line(tmp_path, hub_settings, wide_photos, capsys):
    recorded = write_photos(tmp_path / "recorded", wide_photos[0][:2], prefix="frame")
    assert main(["lens", "calibrate", "--camera", "replay", "--camera-path", str(recorded), "--pause", "0"]) == 2
    captured = capsys.readouterr()
    assert "the camera has no more frames" in captured.out
    assert captured.err.count("\n") == 1 and "found in 2 of 2 frames" in captured.err


def test_no_camera_on_a_laptop_says_what_to_give_instead(tmp_path, hub_settings, monkeypatch, capsys):
    monkeypatch.setenv("TABLEHUB_CAMERA", "sim")
    assert main(["lens", "calibrate", "--camera"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--photos DIR" in err
    assert main(["lens", "calibrate", "--photos", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "say which camera took the photos" in err and "--out FILE" in err


# --------------------------------------------------------------------------- lens board


def test_the_board_page_prints_at_true_size_with_its_description(tmp_path, capsys):
    png = tmp_path / "print" / "board.png"
    assert main(["lens", "board", "--out", str(png), "--dpi", "150", "--squares", "7x5", "--square-mm", "35",
                 "--marker-mm", "26"]) == 0
    assert png_dpi(png) == pytest.approx(150, abs=0.05)
    spec = CharucoSpec.load(png.with_suffix(".json"))
    assert spec == CharucoSpec(7, 5, 35.0, 26.0)
    page = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert sorted(page.shape) == sorted(round(v / 25.4 * 150) for v in (210, 297)), "an A4 page"
    obj, img = detect_charuco(page, spec)
    assert len(img) == spec.corners
    similarity, _ = cv2.estimateAffinePartial2D(np.ascontiguousarray(obj[:, :2]), img)
    px_per_mm = float(np.hypot(similarity[0, 0], similarity[1, 0]))
    assert px_per_mm == pytest.approx(150 / 25.4, rel=0.005), "squares of 35 mm at 150 dpi"
    out = capsys.readouterr().out
    assert "print at 100 %" in out and f"--board {png.with_suffix('.json')}" in out


def test_a_board_too_big_for_the_paper_is_one_line(tmp_path, capsys):
    assert main(["lens", "board", "--out", str(tmp_path / "b.png"), "--square-mm", "60"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not fit" in err and "larger paper" in err
    assert not (tmp_path / "b.png").exists()


def test_calibrate_reads_a_board_description(tmp_path, hub_settings, capsys):
    board = tmp_path / "board.json"
    board.write_text('{"format": "tablehub-charuco/1", "squares_x": 7, "squares_y": 5, "square_mm": 20, '
                     '"marker_mm": 25}')
    assert main(["lens", "calibrate", "--photos", str(tmp_path), "--board", str(board)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(board) in err and "smaller than square_mm" in err


if __name__ == "__main__":  # the figures in docs/vision-setup.md: python tests/vision/test_lens_command.py [DIR]
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp) / "photos"  # DIR keeps the photos
        photos, truth = board_photos(16)
        lens_file = Path(tmp) / "lens.json"
        main(["lens", "calibrate", "--photos", str(write_photos(folder, photos)), "--out", str(lens_file)])
        lens = LensCalibration.load(lens_file)
        rays, planar = undistortion_error_px(lens, truth)
        print(f"undistorted points vs the true lens: {rays:.2f} px as rays, {planar:.2f} px after a homography")
        for name, used in (("no lens", None), ("lens calibrate", lens), ("true lens", truth)):
            e = mat_error_mm(used, frames=4)
            print(f"mat error, {name}: mean {e.mean():.2f} max {e.max():.2f} mm")
