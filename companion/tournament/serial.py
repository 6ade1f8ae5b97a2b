"""Tournaments as JSON documents (stored, exported, imported) and standings as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from companion.errors import MalformedInput
from companion.tournament.model import Entrant, Pairing, Result, Tournament
from companion.tournament.rounds import new_tournament
from companion.tournament.standings import Standing

FORMAT_VERSION = 1
CSV_COLUMNS = (
    "rank", "name", "played", "won", "drawn", "lost", "byes", "match_wins",
    "games_won", "games_lost", "points_for", "points_against", "point_difference", "withdrawn",
)  # fmt: skip


def to_dict(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a JSON-ready dict; :func:`from_dict` reads it back."""
    return {
        "version": FORMAT_VERSION,
        "name": tournament.name,
        "format": tournament.format,
        "double": tournament.double,
        "swiss_rounds": tournament.swiss_rounds,
        "rules": tournament.rules,
        "target": tournament.target,
        "entrants": [{"name": e.name, "members": list(e.members)} for e in tournament.entrants],
        "rounds": [[[p.table, p.home, p.away] for p in round_] for round_ in tournament.rounds],
        "results": [
            {"round": r, "table": t, **asdict(result), "games": list(result.games)}
            for (r, t), result in sorted(tournament.results.items())
        ],
        "withdrawn": dict(tournament.withdrawn),
    }


def from_dict(document: Mapping[str, Any]) -> Tournament:
    """Read a tournament written by :func:`to_dict`; raises :class:`MalformedInput` on a bad document."""
    if document.get("version") != FORMAT_VERSION:
        raise MalformedInput(f"unsupported tournament document version {document.get('version')!r}")
    try:
        tournament = new_tournament(
            document["name"],
            document["format"],
            [Entrant.of(e["name"], e["members"]) for e in document["entrants"]],
            double=bool(document["double"]),
            swiss_rounds=document["swiss_rounds"],
            rules=document["rules"],
            target=int(document["target"]),
        )
        rounds = tuple(
            tuple(Pairing(number, int(table), home, away) for table, home, away in round_)
            for number, round_ in enumerate(document["rounds"], start=1)
        )
        results = {
            (int(r["round"]), int(r["table"])): Result(
                int(r["home_games"]), int(r["away_games"]), int(r["home_points"]), int(r["away_points"]),
                r["how"], tuple(int(g) for g in r["games"]), r["awarded"],
            )
            for r in document["results"]
        }  # fmt: skip
        withdrawn = {str(name): int(at) for name, at in document["withdrawn"].items()}
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedInput(f"bad tournament document {document.get('name')!r}: {error!r}") from None
    return replace(tournament, rounds=rounds, results=results, withdrawn=withdrawn)


def standings_csv(table: list[Standing]) -> str:
    """The standings as CSV text with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in table:
        writer.writerow([getattr(line, column) for column in CSV_COLUMNS])
    return out.getvalue()
