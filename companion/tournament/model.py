"""Tournament values: entrants, pairings, results and the tournament itself (frozen, JSON-ready)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.errors import MalformedInput, UnknownName

Format = Literal["league", "knockout", "swiss"]
FORMATS: tuple[Format, ...] = ("league", "knockout", "swiss")


@dataclass(frozen=True)
class Entrant:
    """A player, or a pair playing as a team (four-player games); ``name`` is unique in a tournament."""

    name: str
    members: tuple[str, ...]

    @classmethod
    def of(cls, name: str, members: tuple[str, ...] | list[str] = ()) -> Entrant:
        name = name.strip()
        if not name:
            raise MalformedInput("an entrant needs a name, got an empty one")
        return cls(name, tuple(members) or (name,))

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """``"Ana"`` (a player) or ``"Primos=Ana,Luis"`` (a pair and its members)."""
        name, _, members = text.partition("=")
        return cls.of(name, [member.strip() for member in members.split(",") if member.strip()])


@dataclass(frozen=True)
class Pairing:
    """Who meets whom in a round; ``away`` None is a bye for ``home``."""

    round: int
    table: int
    home: str
    away: str | None

    @property
    def key(self) -> tuple[int, int]:
        return (self.round, self.table)

    @property
    def sides(self) -> tuple[str, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)


@dataclass(frozen=True)
class Result:
    """A finished match: games and card points won by each side, and how it was settled.

    ``how`` is ``"played"`` (from scored games, ``games`` holds their store ids), ``"hand"``
    (entered by hand), ``"walkover"`` (an entrant withdrew) or ``"bye"``; the last two name
    the entrant ``awarded`` the match without playing (None when both sides withdrew).
    """

    home_games: int
    away_games: int
    home_points: int = 0
    away_points: int = 0
    how: str = "hand"
    games: tuple[int, ...] = ()
    awarded: str | None = None

    @property
    def unplayed(self) -> bool:
        return self.how in ("walkover", "bye")

    def winner(self, pairing: Pairing) -> str | None:
        """The side that won the match, or None for a draw."""
        if self.unplayed:
            return self.awarded
        if self.home_games == self.away_games:
            return None
        return pairing.home if self.home_games > self.away_games else pairing.away


@dataclass(frozen=True)
class Tournament:
    """A tournament: its entrants (in seeding order), the rounds paired so far and their results."""

    name: str
    format: Format
    entrants: tuple[Entrant, ...]
    double: bool = False
    swiss_rounds: int | None = None
    rules: Any = "brisca-2"
    target: int = 1
    rounds: tuple[tuple[Pairing, ...], ...] = ()
    results: Mapping[tuple[int, int], Result] = field(default_factory=dict)
    withdrawn: Mapping[str, int] = field(default_factory=dict)

    def entrant(self, name: str) -> Entrant:
        for entrant in self.entrants:
            if entrant.name == name:
                return entrant
        raise UnknownName(f"no entrant {name!r} in tournament {self.name!r}")

    def pairing(self, round_number: int, table: int) -> Pairing:
        if 1 <= round_number <= len(self.rounds):
            for pairing in self.rounds[round_number - 1]:
                if pairing.table == table:
                    return pairing
        raise UnknownName(f"no pairing at round {round_number}, table {table} in {self.name!r}")

    def pairings(self) -> list[Pairing]:
        return [pairing for round_ in self.rounds for pairing in round_]

    def pending(self) -> list[Pairing]:
        """Pairings of the rounds so far that still wait for a result."""
        return [pairing for pairing in self.pairings() if pairing.key not in self.results]

    def active(self) -> list[str]:
        """Entrants still playing (not withdrawn), in seeding order."""
        return [entrant.name for entrant in self.entrants if entrant.name not in self.withdrawn]
