"""Quiet hours, on the same day and across midnight."""
from __future__ import annotations

import datetime

import pytest

from tablehub.config import ConfigError, parse_quiet
from tablehub.voice import in_quiet_hours

T = datetime.time


@pytest.mark.parametrize("quiet, now, expected", [
    ("22:00-08:00", T(22, 0), True),
    ("22:00-08:00", T(23, 59), True),
    ("22:00-08:00", T(0, 0), True),
    ("22:00-08:00", T(7, 59), True),
    ("22:00-08:00", T(8, 0), False),
    ("22:00-08:00", T(12, 0), False),
    ("22:00-08:00", T(21, 59), False),
    ("13:00-14:30", T(13, 0), True),
    ("13:00-14:30", T(14, 29), True),
    ("13:00-14:30", T(14, 30), False),
    ("13:00-14:30", T(3, 0), False),
    ("", T(3, 0), False),
    (" 9:05 - 9:10 ", T(9, 7), True),
])
def test_quiet_hours(quiet, now, expected):
    assert in_quiet_hours(quiet, now) is expected


@pytest.mark.parametrize("text, message", [
    ("22-08", r'expected quiet hours like "22:00-08:00"'),
    ("24:00-08:00", r"not a time of day range"),
    ("22:60-08:00", r"not a time of day range"),
    ("08:00-08:00", r"starts and ends at the same time"),
])
def test_bad_quiet_hours_are_one_line(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_quiet(text)
