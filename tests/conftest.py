"""Shared fixtures. Tests that need ../shared (rule books, scans) skip cleanly when it is absent."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TABLEHUB_SHARED", ROOT.parent / "shared"))

# The command line speaks the shell's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG: tablehub.i18n.environment_language).
# The tests read its English whatever the machine running them is set to; a test of another language sets its own.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


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


@pytest.fixture()
def hub(request, tmp_path):
    """The phone page's hub on a fresh SQLite game database, no game on the table; its PIN is the
    test module's ``PIN`` (4821 where it names none, as tests/web/conftest.py)."""
    from tablehub.store import Store
    from web import Hub

    s = Store(tmp_path / "games.sqlite")
    h = Hub(s, pin=getattr(request.module, "PIN", "4821"))
    yield h
    h.shutdown()
    s.close()


def _shell_script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


@pytest.fixture()
def shell_script():
    """``shell_script(path, body)``: write an executable /bin/sh script (a real stand-in command); its path."""
    return _shell_script


@pytest.fixture()
def recorder(tmp_path, monkeypatch):
    """An ``espeak-ng`` first on PATH that appends each sentence (its last argument) to a file: what was said."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    said = tmp_path / "said.txt"
    _shell_script(bin_dir / "espeak-ng", f'for last; do :; done\nprintf "%s\\n" "$last" >> "{said}"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ.get('PATH', '')}")

    def lines() -> list[str]:
        return said.read_text().splitlines() if said.exists() else []

    return lines
