"""The examples in the game log's docstrings run."""
from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["tablehub.store", "tablehub.session", "tablehub.recovery"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
