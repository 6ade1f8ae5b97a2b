"""Finished games whose plays in doubt leave their result open, for the tests of every folder."""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import GameRecord, OpenResult, open_results, random_game


def doubtful_game(wanted: Callable[[tuple[OpenResult, ...]], bool]) -> tuple[GameRecord, list[int]]:
    """The first seeded brisca-2 game of Ana and Luis whose six plays of the tricks before the last
    three leave open results that ``wanted`` accepts, and those plays' log indices."""
    for seed in range(300):
        record = random_game("brisca-2", seed=seed, players=["Ana", "Luis"])
        refs = [i for i, event in enumerate(record.events) if event.type == "play"][-12:-6]
        if wanted(open_results(record, frozenset(refs))):
            return record, refs
    raise AssertionError("no such game in 300")
