"""Sunda to Sahul scored from one photo: the photo bench's one silent table of session 24 (``tablehub bench photoscore
--games sunda --seed 29 --levels hard``, table 2): a red stack of 5 beside a yellow stack of 5, a red marker 17 mm
from its node lying in the band across the red top. The band's profile began in the marker's paint, no edge was found
there, the outline was not measured and the blob (14.2 mm wide, over a stack's 14 mm) was dropped: the stack lost with
its two markers, P1 scored 8 where the game gives 63, nothing unsure. Now:

- vision.sundastacks ``PAST_OTHER``: a run of paint at a profile's end apart from the stack by the ground is skipped,
  the stack's own edge measured past it (the stack measured, its height asked: 5 or 4);
- vision.sunda ``UNPLACED_ASK``: a top's worth of paint on a node that no outline places is a tribe the phone asks,
  never lost (the net under the first: without it, the table is listed and read right too)."""
from __future__ import annotations

import numpy as np
import pytest

from benchmarks import photoscore_positions as P
from tests.photo.test_sunda_photo_hard import scored
from vision import sunda, sundastacks

HARD = 7 * P.NUISANCE_LEVELS.index("hard")      # the bench's seed for `hard` at --seed S: S * 1000 + HARD


def test_an_edge_is_found_past_another_things_paint(monkeypatch):
    """A marker's paint at the band's start, the ground, then the stack: the stack's rise is the edge. A run that
    reaches past the middle is the stack itself running off the band: no edge, as before."""
    prof = np.array([0.7, 0.6, 0.3, 0.2, 0.2, 0.2, 0.4, 0.6, 0.9, 0.95, 0.95, 0.95, 0.9, 0.9, 0.6, 0.3, 0.2, 0.2])
    assert sundastacks._crossing(prof, True) == pytest.approx(6.5)
    assert sundastacks._crossing(prof, False) == pytest.approx(14 + 0.1 / 0.3)
    assert sundastacks._crossing(prof[::-1], False) == pytest.approx(len(prof) - 1 - 6.5)
    off_band = np.array([0.8, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.4, 0.2])
    assert sundastacks._crossing(off_band, True) is None
    monkeypatch.setattr(sundastacks, "PAST_OTHER", False)
    assert sundastacks._crossing(prof, True) is None         # as before: no edge, the stack not measured


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hard29_2")
    return P.sunda_table("hard", 29 * 1000 + HARD, 2, folder), folder


def _silent(result) -> bool:
    return not any(u.matters for u in result.unsure)


def test_a_tall_stack_beside_a_marker_of_its_paint_is_measured(table, monkeypatch):
    monkeypatch.setattr(sunda, "UNPLACED_ASK", False)
    got, want, _ = scored(*table)
    assert got == want
    monkeypatch.setattr(sundastacks, "PAST_OTHER", False)     # as before: the stack lost, silent
    got, want, result = scored(*table)
    assert got != want and _silent(result)


def test_a_tops_paint_on_a_node_never_measured_is_asked(table, monkeypatch):
    monkeypatch.setattr(sundastacks, "PAST_OTHER", False)     # the outline not measured
    got, want, _ = scored(*table)
    assert got == want                                        # the tribe asked: the phone gives its owners
    monkeypatch.setattr(sunda, "UNPLACED_ASK", False)
    got, want, result = scored(*table)
    assert got != want and _silent(result)
