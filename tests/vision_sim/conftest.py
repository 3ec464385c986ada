"""Fixtures for the vision tests: catalogs, geometry, a seeded renderer helper."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
NEUESLAND = ROOT / "tablehub" / "games" / "neuesland" / "tiles.json"
SUEDSEE = ROOT / "tablehub" / "games" / "suedsee" / "tiles.json"


@pytest.fixture(scope="session")
def nl_geometry():
    from vision.geometry import TileGeometry

    return TileGeometry(NEUESLAND)


@pytest.fixture(scope="session")
def drawn_art(nl_geometry):
    from vision.sim import DrawnArt

    return DrawnArt(nl_geometry)


@pytest.fixture(scope="session")
def mat():
    from vision.mat import Mat

    return Mat.default()


def play_points(mat, n: int = 200, seed: int = 5) -> np.ndarray:
    """Random points of the play area (mm)."""
    rng = np.random.default_rng(seed)
    x, y, w, h = mat.play_rect_mm
    return np.column_stack([rng.uniform(x, x + w, n), rng.uniform(y, y + h, n)])


@pytest.fixture(scope="session")
def bench():
    """``benchmarks/vision.py`` as a module (it is a script, not a package)."""
    import importlib.util
    import sys

    name = "tablehub_bench_vision_for_sim_tests"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "vision.py")
        module = importlib.util.module_from_spec(spec)
        assert spec.loader is not None
        sys.modules[name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules[name]
