"""The examples in the families' docstrings run."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["bidding", "contract", "tute"])
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(f"companion.engine.families.{module}"))
    assert result.attempted > 0 and result.failed == 0
