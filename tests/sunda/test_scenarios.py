"""Every worked rule of seed 003 as a scenario whose expectations are sentences (tests/sunda/scenarios)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablehub.scenario import run_scenario

from tablehub.games.sunda.drawing import expand

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.get("about"), "a scenario says which rule it shows"
    run_scenario(expand(data), str(path))


def test_there_is_a_scenario_for_every_level():
    text = " ".join(p.read_text(encoding="utf-8") for p in FILES)
    for level in ("water_rights", "tribes", "cooperation", "challenges", "resources"):
        assert f'"{level}": true' in text, level
