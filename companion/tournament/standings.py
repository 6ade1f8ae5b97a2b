"""Standings: match wins, then games won, then point difference, then head to head."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from companion.tournament.model import Tournament


@dataclass
class Standing:
    """One entrant's line in the table; ``rank`` is shared by entrants tied on every tie-breaker."""

    name: str
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    withdrawn: bool = False
    head_to_head: float = field(default=0.0, repr=False)

    @property
    def match_wins(self) -> float:
        """Won matches, a draw counting half."""
        return self.won + self.drawn / 2

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    def key(self) -> tuple[float, int, int]:
        return (self.match_wins, self.games_won, self.point_difference)


def standings(tournament: Tournament) -> list[Standing]:
    """The table, best first; a Swiss bye counts as a won match, a league bye as a rest."""
    lines = {e.name: Standing(e.name, withdrawn=e.name in tournament.withdrawn) for e in tournament.entrants}
    for pairing in tournament.pairings():
        result = tournament.results.get(pairing.key)
        if result is None:
            continue
        if pairing.away is None:  # a bye (none for an entrant that had withdrawn)
            if result.how == "bye":
                lines[pairing.home].byes += 1
                lines[pairing.home].won += tournament.format == "swiss"
            continue
        home, away = lines[pairing.home], lines[pairing.away]
        winner = result.winner(pairing)
        if result.how == "walkover" and winner is None:
            continue
        for line, games_for, games_against, points_for, points_against in (
            (home, result.home_games, result.away_games, result.home_points, result.away_points),
            (away, result.away_games, result.home_games, result.away_points, result.home_points),
        ):
            line.played += 1
            line.games_won += games_for
            line.games_lost += games_against
            line.points_for += points_for
            line.points_against += points_against
            if winner is None:
                line.drawn += 1
            elif winner == line.name:
                line.won += 1
            else:
                line.lost += 1
    seeding = {entrant.name: i for i, entrant in enumerate(tournament.entrants)}
    groups: dict[tuple[float, int, int], list[Standing]] = defaultdict(list)
    for line in lines.values():
        groups[line.key()].append(line)
    table: list[Standing] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        _score_head_to_head(tournament, group)
        group.sort(key=lambda line: (-line.head_to_head, seeding[line.name]))
        for line in group:
            shared = table and table[-1].key() == line.key() and table[-1].head_to_head == line.head_to_head
            line.rank = table[-1].rank if shared else len(table) + 1
            table.append(line)
    return table


def _score_head_to_head(tournament: Tournament, group: list[Standing]) -> None:
    """Match wins (draws half) in the matches among the members of a tied group."""
    names = {line.name for line in group}
    scores: dict[str, float] = dict.fromkeys(names, 0.0)
    if len(group) > 1:
        for pairing in tournament.pairings():
            result = tournament.results.get(pairing.key)
            if result is None or pairing.home not in names or pairing.away not in names:
                continue
            winner = result.winner(pairing)
            if winner is not None:
                scores[winner] += 1
            elif not result.unplayed:
                scores[pairing.home] += 0.5
                scores[pairing.away] += 0.5
    for line in group:
        line.head_to_head = scores[line.name]
