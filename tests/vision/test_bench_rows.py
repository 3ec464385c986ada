"""The vision bench's rows are seeded by the row itself, so a row run alone reads the boards of the same row in a
full run (``benchmarks/vision.py``'s ``row_seed``)."""
from __future__ import annotations

from tests.vision.conftest import BENCH


def test_a_field_row_run_alone_reads_the_boards_of_the_full_runs_field_row():
    alone = BENCH.row_seed(2, "suedsee", "hard", "field", ["hard"])
    full = BENCH.row_seed(2, "suedsee", "hard", "field", ["clean", "default", "hard"])
    assert alone == full


def test_the_two_cameras_and_the_three_levels_read_different_boards():
    seeds = {BENCH.row_seed(1, "neuesland", level, family, list(BENCH.LEVELS))
             for family in BENCH.CAMERAS for level in BENCH.LEVELS}
    assert len(seeds) == len(BENCH.CAMERAS) * len(BENCH.LEVELS)


def test_the_sim_rows_keep_the_seeds_their_documented_figures_were_measured_with():
    assert BENCH.row_seed(1, "neuesland", "default", "sim", ["default"]) == 1000 + 17 + len("neuesland")
