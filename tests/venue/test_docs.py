"""docs/venue.md stays true: its example payloads match the schema, its options exist."""
from __future__ import annotations

import doctest
import importlib
import json
import re
from pathlib import Path

import jsonschema
import pytest

from tablehub.cli import build_parser
from tablehub.venue import payloads

DOC = Path(__file__).resolve().parents[2] / "docs" / "venue.md"


def test_the_example_payloads_match_the_schema():
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    for block in blocks:
        jsonschema.validate(json.loads(block), payloads.schema())


def test_the_options_in_the_board_table_exist():
    text = DOC.read_text(encoding="utf-8")
    venue = next(a for a in build_parser()._subparsers._group_actions[0].choices.items() if a[0] == "venue")[1]
    known = {opt for action in venue._actions for opt in action.option_strings}
    documented = set(re.findall(r"^\| `(--[a-z-]+)", text, re.M))
    assert documented and documented <= known, documented - known


@pytest.mark.parametrize("module", ["tablehub.venue.payloads", "tablehub.venue.board", "tablehub.venue.publisher",
                                    "web.venue"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
