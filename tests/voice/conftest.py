"""Fixtures for the voice tests: the real espeak-ng (skip without it). The stand-in espeak-ng that records what
was said (``recorder``) and ``shell_script`` are in tests/conftest.py: the reliability tests use them too."""
from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def espeak_ng() -> str:
    path = shutil.which("espeak-ng")
    if path is None:
        pytest.skip("espeak-ng is not installed (scripts/test installs it as root with apt-get)")
    return path


@pytest.fixture()
def no_new_missing():
    """Fails the test if a sentence was spoken in English for want of a translation (tablehub.i18n.missing)."""
    from tablehub import i18n

    before = i18n.missing()
    yield
    assert not i18n.missing() - before, f"not translated: {sorted(i18n.missing() - before, key=str)}"
