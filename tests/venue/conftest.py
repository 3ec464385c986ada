"""A real Mosquitto on loopback for the venue tests (skipped cleanly where it is not installed)."""
from __future__ import annotations

import time
from typing import Callable

import pytest

from tablehub.venue.broker import BrokerUnavailable, LocalBroker, mosquitto_path


@pytest.fixture()
def broker():
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (scripts/test installs Debian's mosquitto when run as root)")
    try:
        b = LocalBroker().start()
    except BrokerUnavailable as exc:
        pytest.skip(str(exc))
    yield b
    b.close()


def wait_for(condition: Callable[[], object], timeout: float = 10.0, what: str = "condition") -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
