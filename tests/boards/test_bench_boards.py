"""`tablehub bench boards` runs and prints its figures (tiny run; the figures are in docs/benchmarks.md)."""
from __future__ import annotations

import re

import pytest

from tablehub.cli import main


def test_bench_boards_prints_a_row_per_level(capsys):
    assert main(["bench", "boards", "--frames", "1", "--levels", "default", "--size", "960x540"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("default "))
    pct = float(re.search(r"([\d.]+)%", row).group(1))
    assert 0 <= pct <= 100 and "reg mm" in out


def test_bench_boards_refuses_an_unknown_level(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "boards", "--levels", "foggy"])
    assert "unknown level 'foggy'" in capsys.readouterr().err


def test_bench_boards_reads_the_chests_of_the_incremental_frame_where_they_changed_only(capsys):
    """Karibik at 1080p: the chests' line of the full read and of the incremental frame, whose unchanged chests
    and holds keep their readings (a count that is 0 when every window is read again)."""
    assert main(["bench", "boards", "--games", "karibik", "--frames", "1", "--levels", "clean"]) == 0
    out = capsys.readouterr().out
    full = re.search(r"chests right \(place/ship, face, value\) ([\d.]+)% of (\d+)", out)
    incr = re.search(r"chests incremental: ([\d.]+) ms CPU .*windows read (\d+), kept (\d+); a full frame with its "
                     r"chests (\d+) ms", out)
    assert full and incr, out
    assert int(full.group(2)) >= 6  # six holds at least
    assert int(incr.group(3)) >= 4, incr.group(0)  # one piece moved: most windows kept
