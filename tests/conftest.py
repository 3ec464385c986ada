"""Shared fixtures. Tests that need ../shared (rule books, scans) skip cleanly when it is absent."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TABLEHUB_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (the shared rule books and scans)")
    return SHARED


@pytest.fixture(scope="session")
def neuesland_scans(shared_dir: Path) -> Path:
    scans = shared_dir / "data" / "neues_land" / "scans"
    if not (scans / "ds001.png").is_file():
        pytest.skip(f"{scans} holds no scans")
    return scans


@pytest.fixture()
def store(tmp_path):
    from tablehub.store import Store

    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()
