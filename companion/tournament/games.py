"""From scored game records to match results and per-player statistics (through the engine)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from companion.engine import GameRecord, GameState, replay
from companion.engine.doubt import OpenResult, open_results, plays_among
from companion.errors import MalformedInput
from companion.tournament.model import Entrant, Result


def seat_player(record: GameRecord, seat: int) -> str:
    """The person at ``seat`` (two players on a four-hand layout each hold a side's seats)."""
    rules = record.rules
    return record.players[seat if rules.players == rules.seats else rules.side_of(seat)]


def side_of_entrant(record: GameRecord, entrant: Entrant) -> int:
    """The side (index in ``rules.teams``) ``entrant`` played in ``record``."""
    for side, seats in enumerate(record.rules.teams):
        if {seat_player(record, seat) for seat in seats} <= set(entrant.members):
            return side
    raise MalformedInput(
        f"{entrant.name!r} ({', '.join(entrant.members)}) did not play {list(record.players)}"
    )


def match_result(home: Entrant, away: Entrant, games: Sequence[tuple[int, GameRecord]]) -> Result:
    """The result of a match from its scored games ``(store id, record)``: games and card points won."""
    won = [0, 0]
    points = [0, 0]
    for _, record in games:
        if len(record.rules.teams) != 2:
            raise MalformedInput(
                f"a match game needs two sides, {record.rules.name} has {len(record.rules.teams)}"
            )
        state = replay(record)
        if not state.complete:
            raise MalformedInput(
                f"game of {list(record.players)} is not finished: {len(state.tricks)} tricks played"
            )
        for index, entrant in enumerate((home, away)):
            side = side_of_entrant(record, entrant)
            seats = record.rules.teams[side]
            points[index] += sum(state.points[seat] for seat in seats)
            if state.winners and set(state.winners) == set(seats):
                won[index] += 1
    return Result(won[0], won[1], points[0], points[1], "played", tuple(game_id for game_id, _ in games))


@dataclass(frozen=True)
class Unsettled:
    """A scored game (``record``, stored as ``game_id``) whose events never confirmed leave its
    result open.

    ``results`` are the recorded result and then the others those events allow; ``()`` when what
    they change cannot be worked out (an event other than a play, or plays in too many orders).
    """

    game_id: int
    record: GameRecord
    flags: int
    results: tuple[OpenResult, ...]

    def others(self) -> list[tuple[str, str]]:
        """Each other result: its winners' names (``""``: a draw) and each side's points."""
        return [
            (" + ".join(dict.fromkeys(seat_player(self.record, seat) for seat in result.winners)),
             "-".join(map(str, result.points)))
            for result in self.results[1:]
        ]  # fmt: skip

    def describe(self) -> str:
        """One line for the organiser: which game, how many readings, and what else it may give."""
        told = f"game {self.game_id}: {self.flags} of the camera's readings were never confirmed"
        if not self.results:
            return f"{told}, and what they change cannot be worked out"
        others = " or ".join(f"{names or 'a draw'} {points}" for names, points in self.others())
        return f"{told}, and the result may also be {others}"


def unsettled(game_id: int, record: GameRecord, flagged: Collection[int]) -> Unsettled | None:
    """Whether the events of ``record`` never confirmed (``flagged``: log indices) leave its
    result open; ``None`` when there are none, or every order of their cards gives the same."""
    if not flagged:
        return None
    plays = plays_among(record, flagged)
    results = open_results(record, plays) if len(plays) == len(set(flagged)) else ()
    return None if len(results) == 1 else Unsettled(game_id, record, len(flagged), results)


@dataclass
class PlayerStats:
    """What a person did over a set of games."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    points: int = 0
    tricks: int = 0
    swaps: int = 0
    last_trick_ties: int = 0
    last_trick_ties_won: int = 0

    @property
    def average_points(self) -> float:
        """Card points won per game (by the person's own seats)."""
        return self.points / self.games if self.games else 0.0

    @property
    def points_per_trick(self) -> float:
        return self.points / self.tricks if self.tricks else 0.0


def player_stats(records: Iterable[GameRecord]) -> list[PlayerStats]:
    """Statistics per person over the finished games among ``records``, most wins first."""
    stats: dict[str, PlayerStats] = {}
    for record in records:
        state = replay(record)
        if not state.complete:
            continue
        tied = _decided_by_last_trick(record, state)
        for seat in range(record.rules.seats):
            line = stats.setdefault(seat_player(record, seat), PlayerStats(seat_player(record, seat)))
            line.points += state.points[seat]
            line.tricks += sum(1 for trick in state.tricks if trick.winner == seat)
            line.swaps += sum(1 for swap in state.swaps if swap.seat == seat)
        for person in dict.fromkeys(record.players):
            line = stats[person]
            line.games += 1
            won = any(seat_player(record, seat) == person for seat in state.winners)
            line.wins += won
            line.draws += not state.winners
            line.last_trick_ties += tied
            line.last_trick_ties_won += tied and won
    return sorted(stats.values(), key=lambda line: (-line.wins, -line.points, line.name))


def _decided_by_last_trick(record: GameRecord, state: GameState) -> bool:
    """The sides ended level on points and the last trick gave the game (the usual tie-break)."""
    rules = record.rules
    totals = [sum(state.points[seat] for seat in team) for team in rules.teams]
    level = totals.count(max(totals)) > 1
    return level and rules.tie_break == "last-trick" and bool(state.winners) and state.ended_by is None
