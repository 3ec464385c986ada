"""Marker detection and rectification on rendered frames."""
from __future__ import annotations

import re

import numpy as np
import pytest

from vision.markers import detect_markers
from vision.rectify import BadFrame, MarkersNotFound, Rectifier
from vision.sim import NUISANCE, Scene, SceneHand, SceneTile, render

from .conftest import play_points

SIZE = (1920, 1080)


def _scene(mat, hands=()):
    tiles = [SceneTile(x, y, f"ds{1 + (x + 3) * 7 + (y + 2):03d}", 90 * ((x + y) % 4))
             for x in range(-3, 4) for y in range(-2, 3)]
    return Scene(mat=mat, tiles=tiles, hands=list(hands))


@pytest.fixture(scope="module")
def frames(mat, drawn_art):
    """One frame per nuisance preset (same table)."""
    return {p: render(_scene(mat), drawn_art, NUISANCE[p], np.random.default_rng(1), SIZE) for p in NUISANCE}


def _errors_mm(rect, loc, truth, pts):
    return np.linalg.norm(rect.image_to_mat(truth.mat_to_image(pts), loc) - pts, axis=1)


@pytest.mark.parametrize("preset", ["clean", "default", "hard"])
def test_play_area_points_land_within_1_mm_with_the_lens_known(frames, mat, preset):
    image, truth = frames[preset]
    rect = Rectifier(mat, lens=truth.lens() if preset != "clean" else None)
    loc = rect.locate(image)
    assert loc.seen == (0, 1, 2, 3) and loc.source == "markers"
    err = _errors_mm(rect, loc, truth, play_points(mat))
    assert err.max() < 1.0, f"{preset}: worst point off by {err.max():.2f} mm"


def test_a_pi_camera_needs_no_lens_calibration_for_1_mm(frames, mat):
    image, truth = frames["default"]
    rect = Rectifier(mat)
    err = _errors_mm(rect, rect.locate(image), truth, play_points(mat))
    assert err.max() < 1.0


def test_the_canvas_shows_the_mat_at_px_per_mm(frames, mat):
    for preset in ("clean", "default"):
        image, truth = frames[preset]
        rect = Rectifier(mat, px_per_mm=2.0, lens=truth.lens())
        canvas = rect.warp(image)
        assert canvas.shape[:2] == (1400, 1400)
        found = detect_markers(canvas, mat)
        assert found.missing == ()
        for mid, corners in found.corners.items():
            expected = np.array(mat.marker_corners_mm(mid)) * 2.0
            assert np.abs(corners - expected).max() < 1.5, f"{preset}: marker {mid} lands elsewhere on the canvas"


@pytest.fixture(scope="module")
def hand_on_marker_2(mat, drawn_art):
    x, y = mat.marker_centre(2)
    scene = _scene(mat, [SceneHand(x, y, "right")])
    return render(scene, drawn_art, NUISANCE["default"], np.random.default_rng(1), SIZE)


def test_a_hand_over_one_marker_leaves_three_that_still_place_the_frame(hand_on_marker_2, mat):
    image, truth = hand_on_marker_2
    assert truth.markers_hidden == [2]
    rect = Rectifier(mat, lens=truth.lens())
    loc = rect.locate(image)
    assert loc.seen == (0, 1, 3) and loc.missing == (2,) and loc.source == "partial"
    assert any("2 (bottom-right)" in w for w in loc.warnings)
    assert _errors_mm(rect, loc, truth, play_points(mat)).max() < 1.5


def test_with_a_hand_over_a_marker_the_last_good_homography_is_kept(frames, hand_on_marker_2, mat):
    clean_view, truth = frames["default"]
    rect = Rectifier(mat, lens=truth.lens())
    first = rect.locate(clean_view)
    loc = rect.locate(hand_on_marker_2[0])
    assert loc.source == "kept" and not loc.moved
    assert loc.homography is first.homography
    assert any("2 (bottom-right)" in w and "hidden" in w for w in loc.warnings)


def _cover_markers(image, truth, mat, ids):
    import cv2

    out = image.copy()
    for mid in ids:
        cx, cy = mat.marker_centre(mid)
        s = mat.marker_mm * 0.75
        quad = truth.mat_to_image(np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]]))
        cv2.fillConvexPoly(out, np.round(quad).astype(np.int32), (60, 80, 60))
    return out


def test_no_markers_gives_one_line_naming_every_missing_marker(frames, mat):
    image, truth = frames["clean"]
    covered = _cover_markers(image, truth, mat, mat.marker_ids)
    with pytest.raises(MarkersNotFound) as err:
        Rectifier(mat).locate(covered)
    message = str(err.value)
    assert "\n" not in message
    for label in ("0 (top-left)", "1 (top-right)", "2 (bottom-right)", "3 (bottom-left)"):
        assert label in message
    assert err.value.missing == (0, 1, 2, 3)


def test_two_markers_that_moved_are_not_trusted(frames, mat):
    image, truth = frames["clean"]
    rect = Rectifier(mat)
    rect.locate(image)
    shifted = np.roll(_cover_markers(image, truth, mat, (2, 3)), 40, axis=1)
    with pytest.raises(MarkersNotFound, match="moved"):
        rect.locate(shifted)


def test_blank_dark_and_overexposed_frames_say_what_is_wrong(frames, mat):
    image = frames["clean"][0]
    rect = Rectifier(mat)
    with pytest.raises(BadFrame, match="too dark .*lens cap"):
        rect.locate(np.zeros_like(image))
    with pytest.raises(BadFrame, match="too dark"):
        rect.locate((image * 0.08).astype(np.uint8))
    with pytest.raises(BadFrame, match="blank image"):
        rect.locate(np.full_like(image, 128))
    with pytest.raises(BadFrame, match="overexposed"):
        rect.locate(np.clip(image.astype(np.int32) * 5, 0, 255).astype(np.uint8))


def test_a_bumped_camera_is_reported_as_moved(mat, drawn_art):
    cam = NUISANCE["clean"]
    scene = _scene(mat)
    before, _ = render(scene, drawn_art, cam, np.random.default_rng(2), (1280, 720))
    after, _ = render(scene, drawn_art, cam.with_(shift_mm=(15.0, 0.0), roll_deg=1.0), np.random.default_rng(2),
                      (1280, 720))
    rect = Rectifier(mat, moved_mm=2.0)
    first = rect.locate(before)
    assert not first.moved
    bumped = rect.locate(after)
    assert bumped.moved and bumped.moved_mm > 5
    assert rect.locate(after).moved is False


def test_a_still_camera_keeps_the_same_homography_between_noisy_frames(mat, drawn_art):
    cam = NUISANCE["default"].with_(tilt_azimuth_deg=30.0, pose_jitter_deg=0.0)
    scene = _scene(mat)
    rect = Rectifier(mat)
    first = rect.locate(render(scene, drawn_art, cam, np.random.default_rng(3), (1280, 720))[0])
    second = rect.locate(render(scene, drawn_art, cam, np.random.default_rng(4), (1280, 720))[0])
    assert second.homography is first.homography and not second.moved


def test_a_marker_is_read_where_the_others_predict_it_but_never_when_covered(frames, mat):
    import cv2

    from vision.markers import verify_marker

    image, truth = frames["default"]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    true_quad = truth.mat_to_image(np.array(mat.marker_corners_mm(1)))
    predicted = true_quad + np.array([2.0, -1.5])  # a prediction a couple of pixels off
    found = verify_marker(grey, predicted, mat.dictionary, 1)
    assert found is not None and np.abs(found - true_quad).max() < 0.6
    assert verify_marker(grey, predicted, mat.dictionary, 2) is None, "marker 1 must not read as marker 2"
    covered = _cover_markers(image, truth, mat, [1])
    assert verify_marker(cv2.cvtColor(covered, cv2.COLOR_BGR2GRAY), predicted, mat.dictionary, 1) is None


def test_the_message_says_where_markers_were_found_and_where_the_missing_were_expected(frames, mat):
    """Issue 14: with markers in plain view but not found the message said only "uncover them, check the light";
    it now names the markers found with where they are in the frame, and where each missing one was expected."""
    image, truth = frames["default"]
    rect = Rectifier(mat, lens=truth.lens())
    rect.locate(image)
    loc = rect.locate(_cover_markers(image, truth, mat, [2]))
    text = " ".join(loc.warnings)
    expected = truth.mat_to_image(np.array([mat.marker_centre(2)]))[0]
    at = re.search(r"2 \(bottom-right\), expected at \((\d+), (\d+)\) px", text)
    assert at is not None and np.hypot(int(at[1]) - expected[0], int(at[2]) - expected[1]) < 5, text
    for mid in (0, 1, 3):
        assert f"{mid} at (" in text, text
