"""The bracket of a knockout (or the rounds of any format), with the rounds still to come."""

from __future__ import annotations

from dataclasses import dataclass

from companion.tournament import knockout
from companion.tournament.model import Tournament
from companion.tournament.rounds import total_rounds


@dataclass(frozen=True)
class Slot:
    """One match of a round as shown: entrants (None: still to be decided), score and winner."""

    round: int
    table: int
    home: str | None
    away: str | None
    score: str | None = None
    winner: str | None = None
    how: str | None = None


def round_name(number: int, total: int) -> str:
    """``Final``, ``Semi-final``, ``Quarter-final`` for the last knockout rounds, else ``Round N``."""
    names = {0: "Final", 1: "Semi-final", 2: "Quarter-final"}
    return names.get(total - number, f"Round {number}")


def bracket(tournament: Tournament) -> list[list[Slot]]:
    """Every round, the unpaired ones of a knockout as empty slots (the rest: rounds paired so far)."""
    rounds: list[list[Slot]] = []
    for round_ in tournament.rounds:
        slots = []
        for pairing in round_:
            result = tournament.results.get(pairing.key)
            score = None if result is None or result.unplayed else f"{result.home_games}-{result.away_games}"
            slots.append(
                Slot(pairing.round, pairing.table, pairing.home, pairing.away, score,
                     result.winner(pairing) if result else None, result.how if result else None)
            )  # fmt: skip
        rounds.append(slots)
    if tournament.format == "knockout" and tournament.entrants:
        starters = len(tournament.entrants) - sum(1 for at in tournament.withdrawn.values() if at == 0)
        size = knockout.bracket_size(starters)
        for number in range(len(tournament.rounds) + 1, total_rounds(tournament) + 1):
            rounds.append([Slot(number, table, None, None) for table in range(1, (size >> number) + 1)])
    return rounds
