"""Fixtures for the recognition tests: sets enrolled from the simulated camera, seeded boards.

Enrolment happens once per session and game (two renders: the laid-out set, the figures),
with other light and camera pose than the boards, as in ``tablehub bench vision``.
"""
from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
NEUESLAND = ROOT / "tablehub" / "games" / "neuesland" / "tiles.json"
SUEDSEE = ROOT / "tablehub" / "games" / "suedsee" / "tiles.json"


def _bench():
    spec = importlib.util.spec_from_file_location("tablehub_bench_vision_for_tests", ROOT / "benchmarks" / "vision.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


@dataclass
class Enrolled:
    """A game enrolled from the simulated camera, with helpers to render and read boards."""

    setup: Any          # benchmarks.vision.GameSetup
    refs: Any
    colours: Any
    lens: Any
    level: str

    bench = BENCH
    """``benchmarks/vision.py``, for its scenes (first frame, lattice, hand placement)."""

    def recognizer(self, **kw: Any):
        from vision.mat import Mat
        from vision.recognize import Recognizer
        from vision.rectify import Rectifier

        mat = Mat.default()
        return Recognizer(self.setup.catalog, self.refs, mat, geometry=self.setup.geometry, colours=self.colours,
                          rectifier=Rectifier(mat, lens=self.lens), **kw)

    def board(self, seed: int, tiles: int, figures: int, sloppiness: float = 1.5):
        """A bench board; its figures stand at their region's deepest point in the art (scans: the true shape)."""
        rng = np.random.default_rng(seed)
        return BENCH.random_board(self.setup.catalog, self.setup.geometry, rng, tiles, figures, sloppiness)

    def grow(self, scene, seed: int, colour: str = "red"):
        """The same table plus one tile next to it and one figure on that tile."""
        return BENCH.grow(scene, self.setup.catalog, self.setup.geometry, np.random.default_rng(seed), 1.5, colour)

    def render(self, scene, seed: int, camera: Any = None, true_shapes: bool = True):
        """The scene photographed; figures on a region stand at the deepest point of its true shape in the art
        (``true_shapes=False``: at the slot model's anchor, where the scenes of tests older than issue 14 put
        them)."""
        from vision.sim import render

        frame, truth = render(scene, self.setup.art, camera or self.level, np.random.default_rng(seed),
                              BENCH.SIZE, geometry=self.setup.geometry,
                              shapes=self.setup.true_regions if true_shapes else None)
        return frame, truth

    def score(self, rec, obs, truth):
        tally = BENCH.Tally()
        BENCH.score_board(rec, obs, truth, tally, "board")
        return tally


def _enrol(game: str, scans: Path | None, level: str = "default") -> Enrolled:
    from vision.enroll import enrol_simulated

    setup = BENCH.game_setup(game, scans)
    refs, colours, lens = enrol_simulated(setup.catalog_path, setup.art, BENCH.enrolment_camera(level),
                                          np.random.default_rng(4242), size=BENCH.SIZE, geometry=setup.geometry)
    return Enrolled(setup, refs, colours, lens, level)


@pytest.fixture(scope="session")
def neuesland(neuesland_scans) -> Enrolled:
    """Neues Land with the real scans as tile art."""
    return _enrol("neuesland", neuesland_scans)


@pytest.fixture(scope="session")
def suedsee() -> Enrolled:
    if not SUEDSEE.is_file():
        pytest.skip(f"{SUEDSEE} is absent (no Südsee catalog yet)")
    return _enrol("suedsee", None)


@pytest.fixture()
def sunda_reader():
    """A Sunda to Sahul reader with plain land, water and cloth colours and one red pawn paint, its window the
    whole play area (for tests of the reader's steps on drawn label maps)."""
    from vision.mat import Mat
    from vision.sunda import SundaColours, SundaReader

    f = np.float32
    colours = SundaColours(np.array([60, -30, 40], f), np.array([60, -20, -20], f), np.array([70, 70, 70], f),
                           {"red": np.array([45, 60, 35], f)})
    r = SundaReader(Mat.default(), colours)
    r._win = r._play
    return r
