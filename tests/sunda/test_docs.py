"""docs/sunda.md shows real output: the score example, the refusal it quotes, its JSON examples."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tablehub.cli import main
from tablehub.games.base import Setup
from tablehub.games.sunda.engine import Sunda
from tablehub.games.sunda.pieces import build_piece_set

from tablehub.games.sunda.drawing import expand

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "sunda.md").read_text(encoding="utf-8")


def test_the_score_examples_are_real_output(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```\n\$ tablehub score (\S+)\n(.*?)\n```", DOC, re.S)
    assert len(blocks) == 2, "sunda.md lost a score example"
    for path, shown in blocks:
        assert main(["score", path]) == 0
        assert capsys.readouterr().out.strip() == shown.strip()
    position = json.loads(re.findall(r"```json\n(.*?)```", DOC, re.S)[2])
    assert position == json.loads((ROOT / "docs/examples/sunda-position.json").read_text())


def test_the_quoted_refusal_is_the_engines():
    data = expand(json.loads((ROOT / "tests/sunda/scenarios/base-closed-island.json").read_text()))
    game = Sunda(Setup("sunda", ("Ana", "Ben"), options=data["options"]))
    game.apply(game.parse_action({"type": "place_piece", "piece": "c0_0", "q": 0, "r": 0}))
    why = game.validate(game.parse_action({"type": "place_piece", "piece": "c2_2", "q": 1, "r": 0}))
    quoted = re.search(r'base-closed-island.json`\): "(.*?)"', DOC, re.S).group(1)
    assert " ".join(quoted.split()) == why


def test_the_json_examples_read():
    blocks = re.findall(r"```json\n(.*?)```", DOC, re.S)
    pieces = json.loads(blocks[0])
    assert len(build_piece_set(pieces, "docs").pieces) == 3
    game = Sunda(Setup("sunda", ("Ana", "Ben"), options={t: True for t in
                                                        ("water_rights", "tribes", "cooperation", "challenges",
                                                         "resources")}))
    for line in blocks[1].strip().splitlines():
        action = game.parse_action(json.loads(line))
        assert game.describe(action.to_dict()), action


def test_every_rule_key_the_docs_list_is_one_the_engine_uses():
    source = (ROOT / "tablehub/games/sunda/engine.py").read_text() + (ROOT / "tablehub/games/sunda/board.py").read_text()
    listed = re.findall(r"`([a-z_]+)`", DOC[DOC.index("others are"):DOC.index("## Challenges")])
    assert len(listed) > 20
    for key in listed:
        assert f'rule="{key}"' in source, key
    raised = set(re.findall(r'rule="([a-z_]+)"', source))
    assert raised <= set(listed) | {"edge_mismatch"}, raised - set(listed)
