"""Every command that opens the store words its ``--db`` option the same way."""

import argparse

import pytest

from companion.cli import build_parser
from companion.commands.run import DB_HELP


def db_help(parser: argparse.ArgumentParser) -> str:
    (option,) = [action for action in parser._actions if "--db" in action.option_strings]
    assert option.help is not None
    return option.help


@pytest.mark.parametrize(
    "path", [("run",), ("serve",), ("backup",), ("bench",), ("tournament", "new"), ("tournament", "result")]
)
def test_the_db_option_says_what_it_takes_in_one_wording(path):
    parser = build_parser()
    for name in path:
        (subparsers,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = subparsers.choices[name]
    assert DB_HELP in db_help(parser)
