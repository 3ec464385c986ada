"""The examples in the web package's docstrings run."""
from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["web.events", "web.hub", "web.present", "web.board_svg", "web.board_hints",
                                    "web.server", "web.limits", "tablehub.access", "web.language"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
