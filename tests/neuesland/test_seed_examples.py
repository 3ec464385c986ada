"""Every worked example of seed 001, replayed on real tiles (boards found by make_scenarios.py)."""
from pathlib import Path

import pytest

from tablehub.scenario import load_scenario, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_there_is_a_scenario_for_every_worked_example():
    names = {p.stem for p in SCENARIOS}
    for example in ("plain_incomplete_4", "plain_complete_5", "plain_complete_2",
                    "mountain_incomplete_4_towns", "mountain_complete_4_towns", "mountain_complete_2_tiles",
                    "sea_incomplete_2_towns", "sea_complete_4_tiles_3_towns", "sea_complete_2_tiles",
                    "two_sailors_share_a_sea", "occupied_mountain_leaves_the_sea", "final_scoring",
                    "freed_area_can_be_taken_again"):
        assert example in names, f"no scenario for the seed example {example}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    run_scenario(load_scenario(path), str(path))
