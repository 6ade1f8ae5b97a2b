"""Tournaments kept in the store: load and save, results from stored games, statistics, export and import."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.engine import GameRecord
from companion.errors import IllegalAction, MalformedInput
from companion.store import Store
from companion.tournament.games import (
    PlayerStats,
    Unsettled,
    match_result,
    player_stats,
    side_of_entrant,
    unsettled,
)
from companion.tournament.model import Entrant, Tournament
from companion.tournament.rounds import record_result
from companion.tournament.serial import from_dict, to_dict

EXPORT_FORMAT = "brisca-tournament/1"


def load(store: Store, name: str) -> Tournament:
    return from_dict(store.tournament(name))


def save(store: Store, tournament: Tournament) -> Tournament:
    store.save_tournament(to_dict(tournament))
    return tournament


def create(store: Store, tournament: Tournament) -> Tournament:
    """Save a new tournament; refuses a name already taken."""
    if tournament.name in store.tournament_names():
        raise IllegalAction(f"a tournament called {tournament.name!r} already exists")
    for entrant in tournament.entrants:
        register(store, entrant)
    return save(store, tournament)


def register(store: Store, entrant: Entrant) -> None:
    """Keep the entrant's players, and a pair as a team, in the store (once)."""
    for member in entrant.members:
        store.add_player(member)
    if len(entrant.members) > 1 and entrant.name not in {team["name"] for team in store.teams()}:
        store.add_team(entrant.name, entrant.members)


def result_from_games(
    store: Store, tournament: Tournament, round_number: int, table: int, game_ids: Sequence[int]
) -> Tournament:
    """Record a match's result from its games scored and stored by the companion."""
    pairing = tournament.pairing(round_number, table)
    if pairing.away is None:
        raise IllegalAction(f"round {round_number}, table {table} is a bye for {pairing.home!r}")
    if not game_ids:
        raise MalformedInput(f"no games given for round {round_number}, table {table}")
    games = [(game_id, GameRecord.from_dict(store.game_record(game_id))) for game_id in game_ids]
    waiting = [found for game_id, record in games if (found := unsettled_game(store, game_id, record))]
    if waiting:
        told = "; ".join(found.describe() for found in waiting)
        first = waiting[0].game_id
        raise IllegalAction(
            f"{told}: confirm them first (companion serve --game {first}, then its corrections page), "
            "or give the result by hand"
        )
    result = match_result(tournament.entrant(pairing.home), tournament.entrant(pairing.away), games)
    return record_result(tournament, round_number, table, result)


def scored_games(store: Store, tournament: Tournament, round_number: int, table: int) -> list[int]:
    """Complete stored games between the pairing's two entrants not yet counted in this tournament."""
    pairing = tournament.pairing(round_number, table)
    if pairing.away is None:
        return []
    home, away = tournament.entrant(pairing.home), tournament.entrant(pairing.away)
    used = {game_id for result in tournament.results.values() for game_id in result.games}
    found = []
    for game in store.games(status="complete"):
        if game.id in used or len(game.header["players"]) != len(home.members) + len(away.members):
            continue
        if set(game.header["players"]) != {*home.members, *away.members}:
            continue
        record = GameRecord.from_dict(store.game_record(game.id))
        try:
            sides = {side_of_entrant(record, home), side_of_entrant(record, away)}
        except MalformedInput:  # the pairs' members were mixed across the sides
            continue
        if len(sides) == 2:
            found.append(game.id)
    return found


def unsettled_game(store: Store, game_id: int, record: GameRecord | None = None) -> Unsettled | None:
    """Whether stored game ``game_id`` (its ``record``, if read already) has flags no operator
    settled that leave its result open."""
    flagged = [flag.seq for flag in store.open_flags(game_id)]
    if not flagged:
        return None
    return unsettled(game_id, record or GameRecord.from_dict(store.game_record(game_id)), flagged)


def game_records(store: Store, tournament: Tournament) -> dict[int, GameRecord]:
    """The stored games behind the tournament's played results, by store id."""
    ids = sorted({game_id for result in tournament.results.values() for game_id in result.games})
    return {game_id: GameRecord.from_dict(store.game_record(game_id)) for game_id in ids}


def tournament_stats(store: Store, tournament: Tournament) -> list[PlayerStats]:
    return player_stats(game_records(store, tournament).values())


def export_document(store: Store, tournament: Tournament) -> dict[str, Any]:
    """The tournament with every game record behind its results (``brisca-tournament/1``)."""
    records = game_records(store, tournament)
    return {
        "format": EXPORT_FORMAT,
        "tournament": to_dict(tournament),
        "games": {str(game_id): record.to_dict() for game_id, record in records.items()},
    }


def import_document(store: Store, document: Mapping[str, Any], *, name: str | None = None) -> Tournament:
    """Store an exported tournament and its games (under new ids), optionally renamed."""
    if document.get("format") != EXPORT_FORMAT:
        raise MalformedInput(
            f"not a tournament export: format {document.get('format')!r}, expected {EXPORT_FORMAT!r}"
        )
    tournament = from_dict(document["tournament"])
    if name:
        tournament = replace(tournament, name=name)
    games = document.get("games") or {}
    wanted = {game_id for result in tournament.results.values() for game_id in result.games}
    missing = sorted(wanted - {int(key) for key in games})
    if missing:
        raise MalformedInput(f"tournament export lacks the records of games {missing}")
    if tournament.name in store.tournament_names():
        raise IllegalAction(f"a tournament called {tournament.name!r} already exists")
    new_ids = {int(key): store.import_record(record) for key, record in games.items()}
    results = {
        key: replace(result, games=tuple(new_ids[game_id] for game_id in result.games))
        for key, result in tournament.results.items()
    }
    return create(store, replace(tournament, results=results))
