"""A rendered Karibik board on the simulated table (small frames: the tests stay fast)."""
from __future__ import annotations

import numpy as np
import pytest

from tablehub.games.karibik.board import load_board
from vision.boards import render_board
from vision.calibrate import LensCalibration
from vision.sim.boardtable import BoardScene, render_board_scene
from vision.sim.camera import NUISANCE

FRAME = (1280, 720)


class Table:
    """The packaged provisional Karibik board printed at 3 px/mm, and how to photograph it."""

    def __init__(self) -> None:
        self.board = load_board("provisional")
        printed = self.board.printed()
        self.size = tuple(printed.pop("size_mm"))
        self.art = render_board(self.size, px_per_mm=3.0, **printed)

    def scene(self, pieces=(), origin=(40.0, 40.0), angle=0.0) -> BoardScene:
        return BoardScene(self.art, 3.0, list(pieces), origin_mm=origin, angle_deg=angle,
                          table_mm=(self.size[0] + 80, self.size[1] + 80))

    def shoot(self, scene: BoardScene, level: str = "default", seed: int = 0, camera=None):
        cam = camera or NUISANCE[level]
        return render_board_scene(scene, cam, np.random.default_rng(seed), size=FRAME)

    def lens(self, truth) -> LensCalibration:
        return LensCalibration(truth.pose.K, truth.pose.dist, FRAME)

    def corners(self, truth) -> np.ndarray:
        w, h = self.size
        return truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))

    def grid(self) -> np.ndarray:
        gx, gy = np.meshgrid(np.linspace(0, self.size[0], 13), np.linspace(0, self.size[1], 9))
        return np.column_stack([gx.ravel(), gy.ravel()])


@pytest.fixture(scope="session")
def table() -> Table:
    return Table()
