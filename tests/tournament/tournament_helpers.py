"""Generated tournaments: seeded random results until the end."""

from __future__ import annotations

import random

from companion.tournament import Entrant, Result, Tournament, finished, next_round, record_result, withdraw


def names(count: int) -> list[Entrant]:
    return [Entrant.of(f"P{i:02d}") for i in range(1, count + 1)]


def random_result(rng: random.Random, target: int, *, decisive: bool) -> Result:
    """A match result played to ``target`` won games (or a draw below it), 120 card points a game."""
    if not decisive and rng.random() < 0.25:
        home = away = rng.randrange(target)
    else:
        home, away = target, rng.randrange(target)
        if rng.random() < 0.5:
            home, away = away, home
    games = home + away
    home_points = sum(rng.randint(0, 120) for _ in range(games))
    return Result(home, away, home_points, 120 * games - home_points, "hand")


def play_out(tournament: Tournament, seed: int, withdraw_at: dict[int, str] | None = None) -> Tournament:
    """Pair and play every round with seeded random results; withdraw entrants before given rounds."""
    rng = random.Random(seed)
    while not finished(tournament):
        number = len(tournament.rounds) + 1
        if withdraw_at and number in withdraw_at and withdraw_at[number] in tournament.active():
            tournament = withdraw(tournament, withdraw_at[number])
        tournament = next_round(tournament)
        for pairing in tournament.pending():
            result = random_result(rng, tournament.target, decisive=tournament.format == "knockout")
            tournament = record_result(tournament, pairing.round, pairing.table, result)
    return tournament
