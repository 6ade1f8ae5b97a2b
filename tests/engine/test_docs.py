"""The published documentation matches the code: schema, issue codes, presets and options."""

import doctest
import json
import re

import pytest

import companion.engine as engine
from companion.engine import PRESETS
from companion.engine.record import SCHEMA_PATH
from companion.engine.rules import OPTIONS
from companion.paths import PROJECT_ROOT

DOC = (PROJECT_ROOT / "docs" / "record-format.md").read_text()
README = (PROJECT_ROOT / "README.md").read_text()
SOURCES = "".join(path.read_text() for path in (PROJECT_ROOT / "companion" / "engine").rglob("*.py"))


def test_the_schema_in_the_docs_is_the_one_the_code_validates_against():
    block = DOC.split("## JSON Schema", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    assert json.loads(block) == json.loads(SCHEMA_PATH.read_text())


def test_every_issue_code_is_documented():
    codes = set(re.findall(r'(?:issue|Issue)\(\s*[^,()]+,\s*"([a-z0-9-]+)"', SOURCES))
    assert len(codes) > 20
    table = DOC.split("## Issue codes", 1)[1].split("## JSON Schema", 1)[0]
    assert {code for code in codes if f"`{code}`" not in table} == set()


def test_every_preset_and_option_is_in_the_readme():
    section = README.split("## Rules and variants", 1)[1]
    assert [name for name in PRESETS if f"`{name}`" not in section] == []
    assert [name for name in sorted(OPTIONS) if f"`{name}`" not in section] == []


@pytest.mark.parametrize("module", ["events", "game", "rules", "simulate"])
def test_doctests(module):
    result = doctest.testmod(getattr(engine, module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
