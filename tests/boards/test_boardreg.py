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
