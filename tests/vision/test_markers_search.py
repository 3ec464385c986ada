"""The marker search stays cheap on a busy table (a checked tablecloth around the mat).

Every check of a black-and-white cloth is a dark quad the ArUco detector has to decode; searched
for markers of any size, a 1920 x 1080 frame on such a cloth took seconds (~2800 rejected quads).
These tests count what the search looked at (quads decoded and rejected, pixels scanned, which
stage answered), never wall time.

Run as a script for the timings quoted in docs/vision.md ("Marker search")::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/vision/test_markers_search.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

if __name__ == "__main__":  # after PYTHONPATH, so an older vision/ can be timed the same way
    sys.path.append(str(Path(__file__).resolve().parents[2]))

from vision import markers as markers_module  # noqa: E402
from vision import rectify as rectify_module  # noqa: E402
from vision.markers import detect_markers  # noqa: E402
from vision.mat import Mat  # noqa: E402
from vision.rectify import Rectifier  # noqa: E402
from vision.sim import Scene, render  # noqa: E402

MAT = Mat.default()
SIZE = (1920, 1080)


def checked_cloth(frame: np.ndarray, truth, check_mm: float = 12.0) -> np.ndarray:
    """``frame`` with a black-and-white gingham cloth around the mat (checks of ``check_mm``, laid on
    the table plane, so they are foreshortened like the mat; thin stripes over the light checks)."""
    h, w = frame.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    mm = truth.image_to_mat(np.column_stack([xs.ravel(), ys.ravel()]).astype(np.float64)).reshape(h, w, 2)
    off_mat = (mm[..., 0] < 0) | (mm[..., 1] < 0) | (mm[..., 0] > MAT.width_mm) | (mm[..., 1] > MAT.height_mm)
    dark = (np.floor(mm[..., 0] / check_mm) + np.floor(mm[..., 1] / check_mm)).astype(np.int64) % 2 == 1
    stripe = ((mm[..., 0] % check_mm) < 2) | ((mm[..., 1] % check_mm) < 2)
    value = np.where(dark, 30.0, 225.0 - 60.0 * stripe)
    cloth = np.clip(value[..., None] * np.array([1.0, 0.9, 1.0]), 0, 255).astype(np.uint8)
    cloth = cv2.GaussianBlur(cloth, (0, 0), 0.8)
    return np.where(off_mat[..., None], cloth, frame)


def table(check_mm: float | None = 12.0, size=SIZE, seed: int = 3):
    """A bare mat, on a checked cloth (or on the renderer's wood when ``check_mm`` is None)."""
    frame, truth = render(Scene(mat=MAT, tiles=[]), None, "default", np.random.default_rng(seed), size)
    return (frame if check_mm is None else checked_cloth(frame, truth, check_mm)), truth


def corner_error_px(det, truth) -> float:
    return max(float(np.max(np.linalg.norm(c - truth.mat_to_image(np.array(MAT.marker_corners_mm(mid))), axis=1)))
               for mid, c in det.corners.items())


@pytest.fixture(scope="module")
def busy():
    return table(12.0)


@pytest.fixture
def searches(monkeypatch):
    """Every MarkerDetection the rectifier's marker search returns, in order."""
    seen = []

    def spy(*args, **kwargs):
        det = detect_markers(*args, **kwargs)
        seen.append(det)
        return det

    monkeypatch.setattr(rectify_module, "detect_markers", spy)
    return seen


def test_the_first_search_on_a_checked_cloth_decodes_only_marker_sized_quads(busy):
    frame, truth = busy
    det = detect_markers(frame, MAT)
    assert sorted(det.corners) == list(MAT.marker_ids)
    assert corner_error_px(det, truth) < 0.5
    assert det.search in ("half", "sized"), "a sized search found the markers: the any-size search is not needed"
    # the any-size search rejects ~2800 checks of this cloth; the sized one none or a handful
    assert len(det.rejected) < 30, f"{len(det.rejected)} quads decoded and rejected"


def test_the_half_size_search_finds_the_corners_the_full_size_search_finds(busy, monkeypatch):
    """The first search runs on the frame shrunk to half (a quarter of the pixels, issue 14), then reads each
    marker found at full size in a small window: its corners are where the full-size search puts them."""
    frame, truth = busy
    half = detect_markers(frame, MAT)
    assert half.search == "half"
    monkeypatch.setattr(markers_module, "_search_half", lambda *a: markers_module.MarkerDetection(search="half"))
    full = detect_markers(frame, MAT)
    assert full.search == "sized" and sorted(full.corners) == sorted(half.corners) == list(MAT.marker_ids)
    worst = max(float(np.abs(half.corners[m] - full.corners[m]).max()) for m in MAT.marker_ids)
    assert worst < 1e-3, f"corners {worst:.4f} px apart: the full-size detector's own corners are kept"
    assert corner_error_px(half, truth) < 0.5


def _as_the_whole_frame_searched(frame, det, monkeypatch) -> None:
    """``det`` (markers found from the half-size search's hints) found the markers that the full-size search of the
    whole frame finds, their corners where that search puts them."""
    monkeypatch.setattr(markers_module, "_search_half", lambda *a: markers_module.MarkerDetection(search="half"))
    full = detect_markers(frame, MAT)
    assert full.search == "sized" and sorted(full.corners) == sorted(det.corners)
    worst = max(float(np.abs(det.corners[m] - full.corners[m]).max()) for m in det.corners)
    assert worst < 1e-3, f"corners {worst:.4f} px apart"


def test_a_covered_marker_does_not_send_the_first_search_over_the_whole_frame(busy, monkeypatch):
    """Three markers found at half size (the fourth under a hand) are read again at full size in windows, and the
    fourth looked for where they put it, instead of the whole frame searched at full size (issue 14, CPU: 30 ms of
    a reading from scratch at ``hard``, where the renderer's hand or figure covers a marker): the same three
    markers, their corners where the full-size search puts them."""
    frame, truth = busy
    covered = frame.copy()
    quad = truth.mat_to_image(np.array(MAT.marker_corners_mm(MAT.marker_ids[1])))
    cv2.fillPoly(covered, [quad.round().astype(np.int32)], (90, 120, 170))
    det = detect_markers(covered, MAT)
    assert det.search == "half" and sorted(det.corners) == sorted(set(MAT.marker_ids) - {MAT.marker_ids[1]})
    assert det.searched_px < 0.5 * frame.shape[0] * frame.shape[1], "the full-size frame was searched"
    _as_the_whole_frame_searched(covered, det, monkeypatch)


def test_two_markers_found_at_half_size_say_where_to_look_for_the_others(busy, monkeypatch):
    """Two markers found at half size (the others missed there: the field camera's noise at ``hard``) are enough to
    say where the others lie: all four are read at full size in windows, not by a full-size search of the whole
    frame (issue 14, CPU: 35 ms of a Suedsee ``field/hard`` reading from scratch), their corners where that search
    puts them."""
    frame, truth = busy
    missed = set(MAT.marker_ids[1:3])
    real = markers_module._sized_for

    class HalfMisses:
        """The half-size detector, blind to two of the markers."""

        def __init__(self, detector):
            self.detector = detector

        def detectMarkers(self, image):
            corners, ids, rejected = self.detector.detectMarkers(image)
            keep = [i for i, m in enumerate(np.asarray(ids).ravel()) if int(m) not in missed]
            return [corners[i] for i in keep], np.asarray(ids)[keep], rejected

    def sized_for(mat, frame_size, *rest):
        detector = real(mat, frame_size, *rest)
        return HalfMisses(detector) if tuple(frame_size) == (SIZE[0] // 2, SIZE[1] // 2) else detector

    monkeypatch.setattr(markers_module, "_sized_for", sized_for)
    det = detect_markers(frame, MAT)
    assert det.half_found == 2
    assert det.search == "half" and sorted(det.corners) == list(MAT.marker_ids)
    assert det.searched_px < 0.5 * frame.shape[0] * frame.shape[1], "the full-size frame was searched"
    _as_the_whole_frame_searched(frame, det, monkeypatch)
    assert corner_error_px(det, truth) < 0.5


def test_a_marker_missed_at_half_size_is_looked_for_where_the_others_put_it(busy):
    """The window the missing marker is looked for in lies around its true place (within a few pixels)."""
    frame, truth = busy
    found = detect_markers(frame, MAT, refine=False).corners
    gone = MAT.marker_ids[2]
    predicted = markers_module._expected_missing({m: q for m, q in found.items() if m != gone}, MAT)
    assert list(predicted) == [gone]
    true_quad = truth.mat_to_image(np.array(MAT.marker_corners_mm(gone)))
    assert float(np.abs(predicted[gone] - true_quad).max()) < 3.0


def test_markers_too_small_for_the_half_size_search_are_found_at_full_size():
    frame, truth = table(None, size=(1024, 576))  # ~0.75 px/mm: markers of ~30 px, 15 at half size
    det = detect_markers(frame, MAT)
    assert det.search == "sized" and sorted(det.corners) == list(MAT.marker_ids)
    assert corner_error_px(det, truth) < 0.5


def test_tracking_looks_only_in_small_windows_around_the_markers(busy, searches):
    frame, truth = busy
    rect = Rectifier(MAT)
    first = rect.locate(frame)
    again = rect.locate(frame)
    assert searches[1].search == "windows"
    assert searches[1].searched_px < 0.15 * frame.shape[0] * frame.shape[1]
    assert again.source == "markers" and not again.moved
    assert np.allclose(again.homography, first.homography)
    assert corner_error_px(searches[1], truth) < 0.5


def test_a_bumped_camera_is_found_in_the_windows_and_reported_moved(busy, searches):
    frame, _ = busy
    rect = Rectifier(MAT)
    rect.locate(frame)
    bumped = cv2.warpAffine(frame, np.float32([[1, 0, 40], [0, 1, -30]]), SIZE, borderMode=cv2.BORDER_REPLICATE)
    loc = rect.locate(bumped)
    assert searches[1].search == "windows" and len(searches[1].corners) == 4
    assert loc.moved and 30 < loc.moved_mm < 45  # 50 px at ~1.4 px/mm


def test_a_camera_moved_far_is_found_by_the_whole_frame_search(busy, searches):
    frame, _ = busy
    rect = Rectifier(MAT)
    rect.locate(frame)
    moved = cv2.warpAffine(frame, np.float32([[1, 0, -250], [0, 1, 20]]), SIZE, borderMode=cv2.BORDER_REPLICATE)
    loc = rect.locate(moved)
    assert searches[1].search == "sized" and len(searches[1].corners) == 4
    assert loc.moved


def test_covered_markers_on_a_busy_cloth_do_not_start_the_any_size_search(busy, searches):
    frame, truth = busy
    rect = Rectifier(MAT)
    rect.locate(frame)
    covered = frame.copy()
    for mid in MAT.marker_ids[:2]:  # two hands on two markers: the last homography is kept
        quad = truth.mat_to_image(np.array(MAT.marker_corners_mm(mid)))
        cv2.fillPoly(covered, [quad.round().astype(np.int32)], (90, 120, 170))
    assert rect.locate(covered).source == "kept"
    det = searches[1]
    assert det.search != "wide" and len(det.corners) == 2
    assert det.searched_px < 1.2 * frame.shape[0] * frame.shape[1], "windows and one sized whole-frame search"


def test_markers_too_small_for_the_sized_search_are_found_by_the_any_size_search():
    frame, truth = table(None, size=(800, 450))  # ~0.6 px/mm: markers of ~23 px
    det = detect_markers(frame, MAT)
    assert det.search == "wide" and sorted(det.corners) == list(MAT.marker_ids)
    assert corner_error_px(det, truth) < 1.0


def test_the_size_range_follows_the_frame_and_the_mat():
    small, large = markers_module.marker_size_range_px(MAT, SIZE)
    expected = 0.92 * SIZE[1] / MAT.height_mm * MAT.marker_mm  # the default camera: the mat fills 92 %
    assert small < 0.5 * expected and large > 2 * expected
    assert markers_module.marker_size_range_px(MAT, (3840, 2160))[1] == pytest.approx(2 * large)


# --------------------------------------------------------------------------- timings (not a test)


def _best_ms(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * min(times)


def main() -> None:
    """Print detect_markers / first locate / tracking locate times on a plain and a checked table."""
    print(f"OpenCV {cv2.__version__}, vision from {Path(markers_module.__file__).parent}, {SIZE[0]}x{SIZE[1]}")
    for name, check in (("plain (wood)", None), ("checked cloth 12 mm", 12.0), ("checked cloth 20 mm", 20.0)):
        frame, _ = table(check)
        rect = Rectifier(MAT)

        def first():
            rect.reset()
            rect.locate(frame)

        detect = _best_ms(lambda: detect_markers(frame, MAT))
        located = _best_ms(first)
        tracking = _best_ms(lambda: rect.locate(frame), 5)
        print(f"{name:22s} detect_markers {detect:7.0f} ms | locate, first {located:7.0f} ms | "
              f"locate, tracking {tracking:7.0f} ms")


if __name__ == "__main__":
    main()
