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
