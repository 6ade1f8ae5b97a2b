"""Running a tournament: entrants, withdrawals, results and the next round of each format.

Every function takes a :class:`Tournament` and returns a new one; nothing is changed in place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from companion.errors import IllegalAction, MalformedInput
from companion.tournament import knockout, league, swiss
from companion.tournament.model import FORMATS, Entrant, Format, Pairing, Result, Tournament
from companion.tournament.standings import standings


def new_tournament(
    name: str,
    format: str,
    entrants: Sequence[Entrant] = (),
    *,
    double: bool = False,
    swiss_rounds: int | None = None,
    rules: object = "brisca-2",
    target: int = 1,
) -> Tournament:
    """A tournament with no rounds yet; ``entrants`` in seeding order (best first)."""
    if format not in FORMATS:
        raise MalformedInput(f"unknown tournament format {format!r}: expected one of {', '.join(FORMATS)}")
    if target < 1:
        raise MalformedInput(f"a match needs a target of at least 1 game, got {target}")
    if swiss_rounds is not None and swiss_rounds < 1:
        raise MalformedInput(f"a Swiss tournament needs at least 1 round, got {swiss_rounds}")
    fmt: Format = format
    tournament = Tournament(name.strip(), fmt, (), double, swiss_rounds, rules, target)
    for entrant in entrants:
        tournament = add_entrant(tournament, entrant)
    return tournament


def add_entrant(tournament: Tournament, entrant: Entrant) -> Tournament:
    """Enter ``entrant`` (last seed); only before the first round is paired."""
    if tournament.rounds:
        raise IllegalAction(f"cannot add {entrant.name!r}: {tournament.name!r} has already started")
    if any(other.name == entrant.name for other in tournament.entrants):
        raise IllegalAction(f"{entrant.name!r} is already in {tournament.name!r}")
    return replace(tournament, entrants=(*tournament.entrants, entrant))


def withdraw(tournament: Tournament, name: str) -> Tournament:
    """Withdraw ``name``: its pending matches become walkovers and it is paired no more."""
    tournament.entrant(name)
    if name in tournament.withdrawn:
        raise IllegalAction(f"{name!r} has already withdrawn from {tournament.name!r}")
    withdrawn = {**tournament.withdrawn, name: len(tournament.rounds)}
    return _settle_walkovers(replace(tournament, withdrawn=withdrawn))


def record_result(tournament: Tournament, round_number: int, table: int, result: Result) -> Tournament:
    """Record (or correct) the result of a played match; it must fit the tournament's target."""
    pairing = tournament.pairing(round_number, table)
    if pairing.away is None:
        raise IllegalAction(
            f"round {round_number}, table {table} is a bye for {pairing.home!r}: nothing to play"
        )
    if min(result.home_games, result.away_games, result.home_points, result.away_points) < 0:
        raise MalformedInput(f"a result cannot be negative: {result}")
    score = f"{result.home_games}-{result.away_games}"
    if tournament.format == "knockout" and result.winner(pairing) is None:
        raise IllegalAction(f"a knockout match needs a winner: {pairing.home} {score} {pairing.away}")
    if not fits_target(result, tournament.target):
        games = f"{tournament.target} game{'s' * (tournament.target != 1)}"
        raise MalformedInput(
            f"round {round_number}, table {table}: {pairing.home} {score} {pairing.away} does not fit "
            f"a match played to {games}: the winner needs exactly {tournament.target} "
            f"and the other fewer, or a draw level below {tournament.target}"
        )
    later = [p for p in tournament.pairings() if p.round > round_number]
    if tournament.format != "league" and later:
        raise IllegalAction(f"round {round_number} is closed: round {round_number + 1} is already paired")
    return replace(tournament, results={**tournament.results, pairing.key: result})


def fits_target(result: Result, target: int) -> bool:
    """Whether the games won fit a match played to ``target`` won games (drawn games count for none).

    The winner stopped at exactly ``target``; a draw (league or Swiss) is level below it.
    """
    if result.home_games == result.away_games:
        return result.home_games < target
    return max(result.home_games, result.away_games) == target


def total_rounds(tournament: Tournament) -> int:
    """How many rounds the tournament will have (known from the start for every format)."""
    count = len([e for e in tournament.entrants if e.name not in _withdrawn_before_start(tournament)])
    if tournament.format == "league":
        rounds = count - 1 if count % 2 == 0 else count
        return rounds * (2 if tournament.double else 1)
    if tournament.format == "knockout":
        return knockout.rounds_needed(count)
    return tournament.swiss_rounds or max(1, math.ceil(math.log2(max(count, 2))))


def finished(tournament: Tournament) -> bool:
    return len(tournament.rounds) == total_rounds(tournament) and not tournament.pending()


def next_round(tournament: Tournament) -> Tournament:
    """Pair the next round; byes and walkovers are settled at once."""
    if len(tournament.active()) < 2 and not tournament.rounds:
        raise IllegalAction(f"{tournament.name!r} needs at least 2 entrants, has {len(tournament.active())}")
    if tournament.pending():
        waiting = ", ".join(f"round {p.round} table {p.table}" for p in tournament.pending())
        raise IllegalAction(f"results still missing in {tournament.name!r}: {waiting}")
    if len(tournament.rounds) >= total_rounds(tournament):
        raise IllegalAction(f"{tournament.name!r} is over: all {total_rounds(tournament)} rounds are paired")
    number = len(tournament.rounds) + 1
    pairs = _pairs(tournament, number)
    pairings = tuple(Pairing(number, table, home, away) for table, (home, away) in pairs if home is not None)
    return _settle_walkovers(replace(tournament, rounds=(*tournament.rounds, pairings)))


def champion(tournament: Tournament) -> str | None:
    """The winner once the tournament is over (a knockout's final, or the top of the table)."""
    if not finished(tournament):
        return None
    if tournament.format == "knockout":
        if not tournament.rounds[-1]:  # both finalists withdrew
            return None
        final = tournament.rounds[-1][0]
        return tournament.results[final.key].winner(final)
    return standings(tournament)[0].name


def _withdrawn_before_start(tournament: Tournament) -> set[str]:
    return {name for name, at in tournament.withdrawn.items() if at == 0}


def _pairs(tournament: Tournament, number: int) -> list[tuple[int, tuple[str | None, str | None]]]:
    starters = [e.name for e in tournament.entrants if e.name not in _withdrawn_before_start(tournament)]
    if tournament.format == "league":
        schedule = league.round_robin(starters, double=tournament.double)
        return list(enumerate(schedule[number - 1], start=1))
    if tournament.format == "knockout":
        if number == 1:
            return list(enumerate(knockout.first_round(starters), start=1))
        previous = {p.table: p for p in tournament.rounds[-1]}
        tables = knockout.bracket_size(len(starters)) >> number
        return [(table, _slot_pair(tournament, previous, table)) for table in range(1, tables + 1)]
    table = standings(tournament)
    ranked = [line.name for line in table if not line.withdrawn]
    score = {line.name: line.match_wins for line in table}
    met = {frozenset(p.sides) for p in tournament.pairings() if p.away is not None}
    had_bye = {p.home for p in tournament.pairings() if p.away is None}
    pairs = swiss.pair_round(
        ranked, score.__getitem__, lambda a, b: frozenset((a, b)) in met, had_bye.__contains__
    )
    return list(enumerate(pairs, start=1))


def _slot_pair(
    tournament: Tournament, previous: dict[int, Pairing], table: int
) -> tuple[str | None, str | None]:
    """The winners of the two previous-round tables feeding ``table``, present one first."""
    winners: list[str | None] = []
    for feeder in (2 * table - 1, 2 * table):
        pairing = previous.get(feeder)
        winners.append(None if pairing is None else tournament.results[pairing.key].winner(pairing))
    present = [w for w in winners if w is not None]
    return (present[0] if present else None, present[1] if len(present) > 1 else None)


def _settle_walkovers(tournament: Tournament) -> Tournament:
    """Give byes, and matches against withdrawn entrants, to the side that is still playing."""
    results = dict(tournament.results)
    for pairing in tournament.pending():
        out = [side for side in pairing.sides if side in tournament.withdrawn]
        if pairing.away is None:
            results[pairing.key] = Result(
                0, 0, how="walkover" if out else "bye", awarded=None if out else pairing.home
            )
        elif out:
            staying = [side for side in pairing.sides if side not in out]
            results[pairing.key] = Result(0, 0, how="walkover", awarded=staying[0] if staying else None)
    return replace(tournament, results=results)
