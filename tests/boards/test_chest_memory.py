"""The bench's two frames of one table, the second's holds against the first's (benchmarks.boards.hold_memory): a
hold read unsure now that the frame before read right is what a memory adds; two sure values are a contradiction."""
from __future__ import annotations

from types import SimpleNamespace

from benchmarks.boards import hold_memory


def test_the_frame_before_counts_the_unsure_holds_it_read_right_and_the_contradictions():
    truth = [("ship", "Arriba", 7000, 0.6, True), ("ship", "Bravo", 5000, 0.0, True), ("ship", "Caribic", 0, 0, True),
             ("ship", "Diabolo", 4000, 0.8, True), ("ship", "Evita", 8000, 0.2, True), ("space", 12, "up", 6000)]
    first = SimpleNamespace(aboard={"Arriba": 7000, "Bravo": None, "Caribic": 0, "Diabolo": 6000, "Evita": 8000})
    second = SimpleNamespace(aboard={"Arriba": None, "Bravo": None, "Caribic": None, "Diabolo": 4000, "Evita": 8000},
                             maybe=set())
    kept = {"unsure": 0, "before": 0, "against": 0}
    hold_memory(truth, first, second, kept)
    # Arriba: unsure now, right before; Bravo unsure in both; Caribic carries nothing (not counted);
    # Diabolo read sure 6,000 then 4,000: a contradiction; Evita read right in both
    assert kept == {"unsure": 2, "before": 1, "against": 1}
    second.maybe = {"Evita"}  # not even sure it is laden: unsure, and the frame before read it right
    kept = dict.fromkeys(kept, 0)
    hold_memory(truth, first, second, kept)
    assert kept == {"unsure": 3, "before": 2, "against": 1}
