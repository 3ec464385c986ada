"""Fixtures for the voice tests: the real espeak-ng (skip without it) and real stand-in commands."""
from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def espeak_ng() -> str:
    path = shutil.which("espeak-ng")
    if path is None:
        pytest.skip("espeak-ng is not installed (scripts/test installs it as root with apt-get)")
    return path


def script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


@pytest.fixture()
def recorder(tmp_path, monkeypatch):
    """An ``espeak-ng`` first on PATH that appends each sentence (its last argument) to a file: what was said."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    said = tmp_path / "said.txt"
    script(bin_dir / "espeak-ng", f'for last; do :; done\nprintf "%s\\n" "$last" >> "{said}"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:{shutil.os.environ.get('PATH', '')}")

    def lines() -> list[str]:
        return said.read_text().splitlines() if said.exists() else []

    return lines


@pytest.fixture()
def no_new_missing():
    """Fails the test if a sentence was spoken in English for want of a translation (tablehub.i18n.missing)."""
    from tablehub import i18n

    before = i18n.missing()
    yield
    assert not i18n.missing() - before, f"not translated: {sorted(i18n.missing() - before, key=str)}"
