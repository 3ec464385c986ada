"""Finding the printed board by its art: registration error, a bumped board, no board."""
from __future__ import annotations

import numpy as np
import pytest

from vision import VisionError
from vision.boardreg import BoardReference, BoardRegistrar, BoardTracker
from vision.sim.boardtable import BoardPiece
from vision.sim.camera import NUISANCE


def enrol(table, level):
    """The empty board photographed by the same camera (its lens calibrated) on another evening."""
    photo, truth = table.shoot(table.scene(), camera=NUISANCE[level].other_session(), seed=5)
    lens = table.lens(truth)
    return BoardReference.from_photo(photo, table.size, 2.0, corners_px=table.corners(truth), lens=lens), lens


@pytest.fixture(scope="module")
def enrolled(table):
    return enrol(table, "default")


def ships(table):
    c = table.board.centres
    return [BoardPiece("ship", i, *c[s], 40.0 * i) for i, s in enumerate(table.board.skulls)]


@pytest.mark.parametrize("level", ["default", "hard"])
def test_registration_is_within_2_mm_across_the_board_with_pieces_on_it(table, level):
    ref, lens = enrol(table, level)
    frame, truth = table.shoot(table.scene(ships(table), origin=(46.0, 35.0), angle=1.5), level, seed=2)
    reg = BoardRegistrar(ref, lens).register(frame)
    assert reg is not None and reg.inliers >= 40
    g = table.grid()
    err = np.linalg.norm(reg.to_board(truth.board_to_image(g)) - g, axis=1)
    assert err.max() <= 2.0, err.max()


def test_a_bumped_board_is_noticed_and_re_registered(table, enrolled):
    ref, lens = enrolled
    tracker = BoardTracker(BoardRegistrar(ref, lens))
    arm = NUISANCE["default"].with_(tilt_azimuth_deg=30.0, pose_jitter_deg=0.0)  # the camera stays put
    first = tracker.update(table.shoot(table.scene(origin=(40.0, 40.0)), camera=arm, seed=3)[0])
    assert first.registration is not None and not first.bumped
    still = tracker.update(table.shoot(table.scene(origin=(40.0, 40.0)), camera=arm, seed=4)[0])
    assert not still.bumped and still.moved_mm < 1.5
    frame, truth = table.shoot(table.scene(origin=(52.0, 33.0), angle=2.0), camera=arm, seed=4)
    moved = tracker.update(frame)
    assert moved.bumped and moved.moved_mm > 10, moved
    g = table.grid()
    err = np.linalg.norm(moved.registration.to_board(truth.board_to_image(g)) - g, axis=1)
    assert err.max() <= 2.0


def test_a_frame_without_the_board_is_refused_not_guessed(table, enrolled):
    ref, lens = enrolled
    empty_table = table.scene(origin=(2000.0, 2000.0))  # the board lies off the table
    frame, _ = table.shoot(empty_table, seed=1)
    assert BoardRegistrar(ref, lens).register(frame) is None
    tracker = BoardTracker(BoardRegistrar(ref, lens))
    assert "not found" in tracker.update(frame).note


def test_a_plain_picture_cannot_be_enrolled():
    with pytest.raises(VisionError, match="features"):
        BoardReference.from_canvas(np.full((300, 400, 3), 128, np.uint8), 2.0)


def test_the_mats_markers_place_a_covered_board_and_tell_a_bumped_board_from_a_moved_camera(table, enrolled):
    from vision.boardreg import MatAnchor
    from vision.mat import Mat

    ref, lens = enrolled
    mat = Mat.around(table.size[0] + 20, table.size[1] + 20, marker_mm=40.0)
    tracker = BoardTracker(BoardRegistrar(ref, lens), anchor=MatAnchor(mat, lens))
    at = (mat.play_origin_mm[0] + 10, mat.play_origin_mm[1] + 10)

    def shoot(origin, pieces=(), seed=0, camera=None):
        scene = table.scene(pieces, origin=origin)
        scene.table_mm, scene.mat = (mat.width_mm, mat.height_mm), mat
        return table.shoot(scene, seed=seed, camera=camera)

    first = tracker.update(shoot(at, seed=1)[0])
    assert first.registration is not None and first.note == "" and tracker.board_from_mat is not None
    # the camera moved (another tilt), the board did not: not a bump
    again = tracker.update(shoot(at, seed=2, camera=NUISANCE["default"].with_(tilt_azimuth_deg=200.0))[0])
    assert not again.bumped and again.moved_mm < 1.5, again.moved_mm
    # a sheet over the whole board: its art is not matched, the markers place it (400 mm still matched)
    cx, cy = table.size[0] / 2, table.size[1] / 2
    frame, truth = shoot(at, [BoardPiece("sheet", 600, cx, cy)], seed=3)
    covered = tracker.update(frame)
    assert "markers" in covered.note
    g = table.grid()
    err = np.linalg.norm(covered.registration.to_board(truth.board_to_image(g)) - g, axis=1)
    assert err.max() <= 2.0, err.max()
    # the board pushed 8 mm along the mat
    bumped = tracker.update(shoot((at[0] + 8, at[1]), seed=4)[0])
    assert bumped.bumped and 6 < bumped.moved_mm < 10 and "on the mat" in bumped.note
