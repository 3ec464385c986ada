"""ChArUco lens calibration recovers the rendered camera's lens."""
from __future__ import annotations

import numpy as np
import pytest

from vision.calibrate import CalibrationError, CharucoSpec, LensCalibration, calibrate_charuco
from vision.sim import NUISANCE, render_sheet

SIZE = (1280, 720)


@pytest.fixture(scope="module")
def board_views():
    spec = CharucoSpec()
    sheet = spec.image(ppm=4.0, margin_mm=0.0)
    lens_cam = NUISANCE["hard"].with_(fill=0.8, noise_sigma=1.5, shot_noise=0.0, jpeg_quality=92, blur_sigma=0.6,
                                      light_gradient=0.1, vignette=0.1, colour_cast=(1.0, 1.0, 1.0), exposure=1.0)
    rng = np.random.default_rng(0)
    views, pose = [], None
    for k in range(14):
        # the board shown tilted in every part of the image, corners included
        corner = [(-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)][k % 9]
        cam = lens_cam.with_(tilt_deg=float(rng.uniform(10, 30)), tilt_azimuth_deg=40.0 * k,
                             roll_deg=float(rng.uniform(-15, 15)),
                             shift_mm=(corner[0] * 120.0 + float(rng.normal(0, 10)),
                                       corner[1] * 60.0 + float(rng.normal(0, 10))))
        image, pose = render_sheet(sheet, 4.0, cam, np.random.default_rng(k), SIZE)
        views.append(image)
    return spec, views, pose


def test_charuco_calibration_recovers_the_lens(board_views):
    spec, views, true_pose = board_views
    lens = calibrate_charuco(views, spec)
    assert lens.rms_px < 0.5
    truth = LensCalibration(true_pose.K, true_pose.dist, SIZE)
    assert lens.camera_matrix[0, 0] == pytest.approx(truth.camera_matrix[0, 0], rel=0.03)
    # what matters: undistorting with the estimate lands where the true lens says, across the image
    grid = np.array([[x, y] for x in np.linspace(60, SIZE[0] - 60, 7) for y in np.linspace(60, SIZE[1] - 60, 5)])
    est = lens.undistort_points(grid)
    ref = truth.undistort_points(grid)
    # compare up to the small difference of camera matrices: map both to normalised coordinates
    norm_est = (est - lens.camera_matrix[:2, 2]) / np.diag(lens.camera_matrix)[:2]
    norm_ref = (ref - truth.camera_matrix[:2, 2]) / np.diag(truth.camera_matrix)[:2]
    assert np.abs(norm_est - norm_ref).max() * truth.camera_matrix[0, 0] < 2.0


def test_distort_undoes_undistort():
    lens = LensCalibration(np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]]),
                           np.array([-0.12, 0.05, 0.001, -0.002, 0.0]), SIZE)
    pts = np.array([[5.0, 5.0], [640, 360], [1270, 700], [100, 650]])
    assert np.abs(lens.distort_points(lens.undistort_points(pts)) - pts).max() < 1e-3


def test_lens_file_round_trip_and_errors(tmp_path):
    lens = LensCalibration(np.eye(3) * 2, np.zeros(5), (640, 480), 0.3)
    back = LensCalibration.load(lens.save(tmp_path / "lens.json"))
    assert np.allclose(back.camera_matrix, lens.camera_matrix) and back.image_size == (640, 480)
    (tmp_path / "bad.json").write_text('{"format": "tablehub-lens/1", "camera_matrix": [[1]]}')
    with pytest.raises(CalibrationError, match="bad.json: dist_coeffs: missing"):
        LensCalibration.load(tmp_path / "bad.json")
    with pytest.raises(CalibrationError, match="other aspect ratio"):
        lens.for_size((1920, 1080))


def test_too_few_board_views_give_advice():
    blank = [np.full((360, 640, 3), 200, np.uint8)] * 3
    with pytest.raises(CalibrationError, match="found in 0 frame"):
        calibrate_charuco(blank)
