"""Every worked situation of seed 002 (Karibik) as a scenario whose expectations are sentences,
played on the packaged grid test board (option board "grid", docs/karibik.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tablehub.scenario import ScenarioFailure, load_scenario, run_scenario

HERE = Path(__file__).parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))


def play(path: Path):
    return run_scenario(load_scenario(path), str(path))


def test_there_is_a_scenario_for_every_worked_situation():
    names = {p.stem for p in SCENARIOS}
    for situation in ("best_bid_less_thieves", "occupied_spaces_are_sailed_around", "tie_broken_by_the_seventh_card",
                      "tie_nobody_reveals", "seventh_thief_beats_hidden", "all_thieves_no_move",
                      "steal_and_safeguard_in_own_hideout", "safeguard_passing_through_a_hideout",
                      "transfer_onto_a_ship_on_a_hideout", "swap_with_a_port_and_a_ship",
                      "neutral_hideout_pays_nobody", "round_end_turns_up_a_pile",
                      "goal_reached_game_ends_with_the_round"):
        assert situation in names, f"no scenario for {situation}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    play(path)


def test_a_false_sentence_fails_the_scenario():
    path = HERE / "scenarios" / "best_bid_less_thieves.json"
    data = load_scenario(path)
    data["expect"] = ["Arriba is on space 22", "Blue scored 2000 for Arriba raided Havana"]
    with pytest.raises(ScenarioFailure) as err:
        run_scenario(data, "changed")
    assert "Arriba is on space 12" in str(err.value)
    assert "Blue did not score 2000" in str(err.value)
