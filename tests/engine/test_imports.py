"""The engine depends on the standard library and companion.cards/errors only."""

import ast
import subprocess
import sys
from pathlib import Path

import companion.engine

ENGINE = Path(companion.engine.__file__).parent
ALLOWED_OWN = ("companion.cards", "companion.errors", "companion.engine")
#: The one lazy third-party import: input records are checked against the published JSON Schema.
INPUT_VALIDATION = {("record.py", "jsonschema")}


def _imports(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_engine_sources_import_only_stdlib_and_cards_errors():
    for path in ENGINE.rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith(ALLOWED_OWN) or (path.name, top) in INPUT_VALIDATION:
                continue
            assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_replaying_and_simulating_load_no_third_party_module():
    code = (
        "import sys; before = set(sys.modules);"
        "from companion.engine import random_game, score; score(random_game('brisca-2', 1));"
        "new = {m.split('.')[0] for m in set(sys.modules) - before};"
        "print(sorted(new - set(sys.stdlib_module_names) - {'companion'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
