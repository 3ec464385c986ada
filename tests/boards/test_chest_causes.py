"""`tablehub bench boards --show` names each chest not read right by its cause (h-chests6): the tally accounts for
every chest not right, and every reason the reader gave is named (none left as "no reason given")."""
from __future__ import annotations

import re

from benchmarks.boards import chest_cause
from tablehub.cli import main


def test_the_bench_tallies_every_chest_not_read_right_by_the_readers_own_reason(capsys):
    assert main(["bench", "boards", "--games", "karibik", "--frames", "2", "--levels", "default", "--show"]) == 0
    out = capsys.readouterr().out
    line = re.search(r"chests right .*unsure (\d+), wrong (\d+);", out)
    seeable = re.search(r"unseeable \(known from play\) (\d+)", out)
    causes = re.search(r"chests not read right, by cause: (.*)", out)
    assert line and seeable and causes, out
    tally = {k.strip(): int(n) for k, n in (re.fullmatch(r"(.*) (\d+)", c.strip()).groups()
                                            for c in causes.group(1).split(";"))}
    assert sum(tally.values()) == int(line.group(1)) + int(line.group(2)) + int(seeable.group(1)), (tally, line.group(0))
    shown = [m for m in re.finditer(r"frame \d+: chest \((.*?)\) read .* \[(\w+)\] \((.*)\)$", out, re.M)]
    assert shown, out
    for m in shown:  # each reason the reader gave is named by a cause
        assert not chest_cause(m.group(2), m.group(1).startswith("'ship'"), m.group(3)).endswith("no reason given"), m.group(0)
