"""The store: players, teams, matches, games, their append-only event logs, evidence, flags, tournaments.

One :class:`Store` per process; it is safe to share between threads. Every method
runs in its own transaction, committed before it returns, so whatever a method
acknowledged survives a crash of the process or the machine.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, CursorResult, Engine, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from companion.engine import Game, GameRecord, MatchRecord, event_from_dict
from companion.engine.record import MATCH_FORMAT
from companion.errors import IllegalAction, MalformedInput, UnknownName
from companion.paths import data_dir
from companion.store import schema
from companion.store.database import connect, upgrade

GAME_STATUSES = ("live", "complete", "abandoned")
_APPEND_ATTEMPTS = 20


def canonical_json(value: Any) -> str:
    """The one text form of a JSON value: sorted keys, no spaces (equal values, equal text)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite hands it back without its zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class GameSummary:
    """A stored game without its events: ``header`` is its record minus ``events``."""

    id: int
    match_id: int | None
    header: dict[str, Any]
    status: str
    events: int
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True)
class Evidence:
    """A snapshot file kept for a game (a trick's table image, its readings).

    ``path`` is where the file is now: the store keeps it relative to its evidence folder, so a
    data folder moved elsewhere still finds its files.
    """

    id: int
    game_id: int
    trick: int | None
    path: Path
    sha256: str
    size: int
    note: dict[str, Any]


@dataclass(frozen=True)
class StoredFlag:
    """An event of a stored game that the camera was unsure of, not yet settled by an operator.

    ``alternatives`` are the identifier's best guesses, ``(card, probability)``, most likely first.
    """

    game_id: int
    seq: int
    reason: str
    alternatives: tuple[tuple[str, float], ...]
    raised_at: datetime


class Store:
    """Durable records on SQLite (default) or PostgreSQL; see ``docs/architecture.md``."""

    def __init__(self, engine: Engine, evidence_dir: Path) -> None:
        self.engine = engine
        self.evidence_dir = evidence_dir

    @classmethod
    def open(cls, url: str | None = None, *, evidence_dir: Path | None = None) -> Store:
        """Connect to ``url`` (None: the SQLite file in the data folder) and migrate its schema."""
        engine = connect(url)
        upgrade(engine)
        return cls(engine, evidence_dir or data_dir() / "evidence")

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # players and teams

    def add_player(self, name: str) -> int:
        """The id of the player called ``name``, created if new."""
        with self.engine.begin() as connection:
            return _player_id(connection, name)

    def players(self) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(schema.players).order_by(schema.players.c.name))
            return [{"id": row.id, "name": row.name} for row in rows]

    def add_team(self, name: str, members: Sequence[str]) -> int:
        """Create the team ``name`` of the players ``members`` (created if new)."""
        if not members:
            raise MalformedInput(f"team {name!r} has no members")
        with self.engine.begin() as connection:
            if connection.scalar(select(schema.teams.c.id).where(schema.teams.c.name == name)):
                raise IllegalAction(f"team {name!r} already exists")
            team_id = _new_id(connection.execute(insert(schema.teams).values(name=name, created_at=_now())))
            connection.execute(
                insert(schema.team_members),
                [
                    {"team_id": team_id, "player_id": _player_id(connection, member), "position": i}
                    for i, member in enumerate(members)
                ],
            )
            return team_id

    def teams(self) -> list[dict[str, Any]]:
        query = (
            select(schema.teams.c.id, schema.teams.c.name, schema.players.c.name.label("member"))
            .join(schema.team_members, schema.team_members.c.team_id == schema.teams.c.id)
            .join(schema.players, schema.players.c.id == schema.team_members.c.player_id)
            .order_by(schema.teams.c.name, schema.team_members.c.position)
        )
        teams: dict[int, dict[str, Any]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                teams.setdefault(row.id, {"id": row.id, "name": row.name, "members": []})["members"].append(
                    row.member
                )
        return list(teams.values())

    # matches and games

    def create_match(
        self,
        rules: Any,
        players: Sequence[str],
        first: int = 0,
        *,
        target: int = 3,
        tournament_id: int | None = None,
    ) -> int:
        """A match (partida): games between ``players`` until a side reaches ``target`` (engine-checked)."""
        game = GameRecord.create(rules, players, first).to_dict()
        del game["events"]
        match = {**game, "format": MATCH_FORMAT, "match": {"target": target}, "games": []}
        header = MatchRecord.from_dict(match).to_dict()
        del header["games"]
        with self.engine.begin() as connection:
            result = connection.execute(
                insert(schema.matches).values(header=header, tournament_id=tournament_id, created_at=_now())
            )
            return _new_id(result)

    def match_record(self, match_id: int) -> dict[str, Any]:
        """The match as a ``brisca-match/1`` record with its stored games, in order."""
        with self.engine.connect() as connection:
            header = connection.scalar(select(schema.matches.c.header).where(schema.matches.c.id == match_id))
        if header is None:
            raise UnknownName(f"no match {match_id}")
        games = [self.game_record(game.id) for game in self.games(match_id=match_id)]
        return {**header, "games": games}

    def create_game(
        self, rules: Any, players: Sequence[str], first: int = 0, *, match_id: int | None = None
    ) -> int:
        """Start a live game (its rules, players and first leader are checked by the engine)."""
        header = GameRecord.create(rules, players, first).to_dict()
        del header["events"]
        with self.engine.begin() as connection:
            return _insert_game(connection, header, match_id, "live")

    def import_record(self, record: Mapping[str, Any], *, match_id: int | None = None) -> int:
        """Store a whole game record (``brisca-record/1``, validated) as a complete game."""
        header = GameRecord.from_dict(record).to_dict()
        events = header.pop("events")
        with self.engine.begin() as connection:
            game_id = _insert_game(connection, header, match_id, "complete")
            now = _now()
            if events:
                connection.execute(
                    insert(schema.events),
                    [
                        {"game_id": game_id, "seq": seq, "payload": canonical_json(event), "stored_at": now}
                        for seq, event in enumerate(events)
                    ],
                )
            return game_id

    def append_event(self, game_id: int, event: Mapping[str, Any], seq: int | None = None) -> int:
        """Append ``event`` (checked by the engine) to the log; returns its position (0 for the first).

        Durable on return. With ``seq`` the append is idempotent: storing the same event at
        the same ``seq`` again (a retry after a crash or a lost reply) changes nothing, while a
        different event there raises :class:`IllegalAction`; a ``seq`` past the end raises
        :class:`MalformedInput`. Without ``seq`` the event goes at the end.
        """
        payload = canonical_json(event_from_dict(event).to_dict())
        for _ in range(_APPEND_ATTEMPTS):
            at = self._next_seq(game_id) if seq is None else seq
            try:
                with self.engine.begin() as connection:
                    _insert_event(connection, game_id, at, payload)
                return at
            except IntegrityError:
                stored = self._stored_payload(game_id, at)
                if stored is None:
                    raise UnknownName(f"no game {game_id}") from None
                if seq is not None:
                    if stored == payload:
                        return seq
                    raise IllegalAction(
                        f"game {game_id} already has a different event at seq {seq}: {stored}"
                    ) from None
        raise IllegalAction(f"could not append to game {game_id}: {_APPEND_ATTEMPTS} concurrent conflicts")

    def events(self, game_id: int, after: int = -1) -> list[dict[str, Any]]:
        """The game's events with ``seq > after``, in order (after=-1: all of them)."""
        self.game(game_id)
        query = (
            select(schema.events.c.payload)
            .where(schema.events.c.game_id == game_id, schema.events.c.seq > after)
            .order_by(schema.events.c.seq)
        )
        with self.engine.connect() as connection:
            return [json.loads(payload) for payload in connection.scalars(query)]

    def game_record(self, game_id: int) -> dict[str, Any]:
        """The game as a record dict (``GameRecord.from_dict`` reads it); replaying it resumes the game."""
        return {**self.game(game_id).header, "events": self.events(game_id)}

    def resume(self, game_id: int) -> Game:
        """The live engine game rebuilt from the stored log, ready for the next event."""
        return Game.from_record(GameRecord.from_dict(self.game_record(game_id)))

    def game(self, game_id: int) -> GameSummary:
        """The stored game ``game_id``; raises :class:`UnknownName` when there is none."""
        summaries = self._summaries(schema.games.c.id == game_id)
        if not summaries:
            raise UnknownName(f"no game {game_id}")
        return summaries[0]

    def games(self, *, status: str | None = None, match_id: int | None = None) -> list[GameSummary]:
        """Stored games, oldest first, optionally only those with ``status`` or of one match."""
        conditions = []
        if status is not None:
            conditions.append(schema.games.c.status == _checked_status(status))
        if match_id is not None:
            conditions.append(schema.games.c.match_id == match_id)
        return self._summaries(*conditions)

    def finish_game(self, game_id: int, status: str = "complete") -> None:
        """Mark the game complete (or abandoned); its log stays open for corrections."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(schema.games)
                .where(schema.games.c.id == game_id)
                .values(status=_checked_status(status), finished_at=_now())
            )
            if done.rowcount == 0:
                raise UnknownName(f"no game {game_id}")

    # evidence

    def add_evidence(
        self,
        game_id: int,
        content: bytes,
        *,
        trick: int | None = None,
        suffix: str = ".jpg",
        note: Mapping[str, Any] | None = None,
    ) -> Evidence:
        """Keep ``content`` (an image, readings) as evidence: written, synced, recorded with its sha256."""
        self.game(game_id)
        digest = hashlib.sha256(content).hexdigest()
        name = f"{game_id}/{digest}{suffix}"
        path = self.evidence_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            partial = path.with_suffix(path.suffix + ".partial")
            with partial.open("wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            partial.replace(path)
        values = {
            "game_id": game_id,
            "trick": trick,
            "path": name,
            "sha256": digest,
            "size": len(content),
            "note": dict(note or {}),
            "stored_at": _now(),
        }
        try:
            with self.engine.begin() as connection:
                values["id"] = _new_id(connection.execute(insert(schema.evidence).values(values)))
        except IntegrityError:  # the same snapshot again
            with self.engine.connect() as connection:
                values["id"] = connection.scalar(
                    select(schema.evidence.c.id).where(
                        schema.evidence.c.game_id == game_id, schema.evidence.c.sha256 == digest
                    )
                )
        return self._evidence(values)

    def evidence(self, game_id: int) -> list[Evidence]:
        query = (
            select(schema.evidence).where(schema.evidence.c.game_id == game_id).order_by(schema.evidence.c.id)
        )
        with self.engine.connect() as connection:
            return [self._evidence(row._asdict()) for row in connection.execute(query)]

    def _evidence(self, values: Mapping[str, Any]) -> Evidence:
        """A row as :class:`Evidence`; a path stored absolute (before migration 0003) is kept as is."""
        return Evidence(
            int(values["id"]),
            int(values["game_id"]),
            values["trick"],
            self.evidence_dir / values["path"],  # an absolute stored path replaces the folder
            values["sha256"],
            int(values["size"]),
            dict(values["note"]),
        )

    def tampered_evidence(self, game_id: int) -> list[Evidence]:
        """The game's evidence whose file is missing or no longer matches its recorded sha256."""
        return [
            item
            for item in self.evidence(game_id)
            if not item.path.is_file() or hashlib.sha256(item.path.read_bytes()).hexdigest() != item.sha256
        ]

    # flags

    def keep_flags(self, game_id: int, flags: Sequence[Mapping[str, Any]]) -> None:
        """Make ``flags`` the game's open ones: each a ``seq``, a ``reason`` and its
        ``alternatives`` (``[card, probability]`` pairs). A flag not open yet is raised (again,
        if it was settled before); an open one not among ``flags`` is settled now."""
        self.game(game_id)
        table, now = schema.flags, _now()
        wanted = {int(flag["seq"]): flag for flag in flags}
        with self.engine.begin() as connection:
            stored = {
                row.seq: row.settled_at is None
                for row in connection.execute(select(table).where(table.c.game_id == game_id))
            }
            mine = (table.c.game_id == game_id) & (table.c.settled_at.is_(None))
            gone = [seq for seq, is_open in stored.items() if is_open and seq not in wanted]
            if gone:
                connection.execute(update(table).where(mine, table.c.seq.in_(gone)).values(settled_at=now))
            for seq, flag in wanted.items():
                values = {
                    "reason": str(flag["reason"]),
                    "alternatives": [[str(card), float(p)] for card, p in flag.get("alternatives", ())],
                    "raised_at": now,
                    "settled_at": None,
                }
                if seq not in stored:
                    connection.execute(insert(table).values(game_id=game_id, seq=seq, **values))
                elif not stored[seq]:
                    connection.execute(
                        update(table).where(table.c.game_id == game_id, table.c.seq == seq).values(values)
                    )

    def open_flags(self, game_id: int) -> list[StoredFlag]:
        """The game's flags no operator has settled, in log order."""
        table = schema.flags
        query = (
            select(table)
            .where(table.c.game_id == game_id, table.c.settled_at.is_(None))
            .order_by(table.c.seq)
        )
        with self.engine.connect() as connection:
            return [
                StoredFlag(
                    row.game_id,
                    row.seq,
                    row.reason,
                    tuple((str(card), float(p)) for card, p in row.alternatives),
                    _utc(row.raised_at),
                )
                for row in connection.execute(query)
            ]

    # tournaments

    def save_tournament(self, document: Mapping[str, Any]) -> int:
        """Create or replace the tournament named ``document["name"]``; returns its id."""
        name, kind = document.get("name"), document.get("format")
        if not isinstance(name, str) or not isinstance(kind, str):
            raise MalformedInput(f"a tournament needs a name and a format, got {name!r}, {kind!r}")
        table = schema.tournaments
        with self.engine.begin() as connection:
            existing = connection.scalar(select(table.c.id).where(table.c.name == name))
            if existing is None:
                result = connection.execute(
                    insert(table).values(
                        name=name, format=kind, document=dict(document), created_at=_now(), updated_at=_now()
                    )
                )
                return _new_id(result)
            connection.execute(
                update(table)
                .where(table.c.id == existing)
                .values(format=kind, document=dict(document), updated_at=_now())
            )
            return int(existing)

    def tournament(self, name: str) -> dict[str, Any]:
        table = schema.tournaments
        with self.engine.connect() as connection:
            document = connection.scalar(select(table.c.document).where(table.c.name == name))
        if document is None:
            raise UnknownName(f"no tournament {name!r}")
        return dict(document)

    def tournament_names(self) -> list[str]:
        table = schema.tournaments
        with self.engine.connect() as connection:
            return list(connection.scalars(select(table.c.name).order_by(table.c.created_at, table.c.id)))

    # helpers

    def _next_seq(self, game_id: int) -> int:
        with self.engine.connect() as connection:
            last = connection.scalar(
                select(func.max(schema.events.c.seq)).where(schema.events.c.game_id == game_id)
            )
        return 0 if last is None else int(last) + 1

    def _stored_payload(self, game_id: int, seq: int) -> str | None:
        with self.engine.connect() as connection:
            if connection.scalar(select(schema.games.c.id).where(schema.games.c.id == game_id)) is None:
                return None
            return connection.scalar(
                select(schema.events.c.payload).where(
                    schema.events.c.game_id == game_id, schema.events.c.seq == seq
                )
            )

    def _summaries(self, *conditions: Any) -> list[GameSummary]:
        counts = (
            select(schema.events.c.game_id, func.count().label("n"))
            .group_by(schema.events.c.game_id)
            .subquery()
        )
        query = (
            select(schema.games, func.coalesce(counts.c.n, 0).label("n"))
            .outerjoin(counts, counts.c.game_id == schema.games.c.id)
            .where(*conditions)
            .order_by(schema.games.c.id)
        )
        with self.engine.connect() as connection:
            return [
                GameSummary(
                    row.id,
                    row.match_id,
                    dict(row.header),
                    row.status,
                    int(row.n),
                    _utc(row.created_at),
                    _utc(row.finished_at) if row.finished_at else None,
                )
                for row in connection.execute(query)
            ]


def _new_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an insert just made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _checked_status(status: str) -> str:
    if status not in GAME_STATUSES:
        raise MalformedInput(f"unknown game status {status!r}: expected one of {', '.join(GAME_STATUSES)}")
    return status


def _player_id(connection: Connection, name: str) -> int:
    """The id of player ``name``, created if new (safe when two writers add the same name at once)."""
    name = name.strip()
    if not name:
        raise MalformedInput("a player needs a name, got an empty one")
    query = select(schema.players.c.id).where(schema.players.c.name == name)
    found = connection.scalar(query)
    if found is None:
        upsert = postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert
        connection.execute(
            upsert(schema.players)
            .values(name=name, created_at=_now())
            .on_conflict_do_nothing(index_elements=["name"])
        )
        found = connection.scalar(query)
    assert found is not None
    return int(found)


def _insert_game(connection: Connection, header: dict[str, Any], match_id: int | None, status: str) -> int:
    players = header.get("players")
    if not isinstance(players, list) or not players:
        raise MalformedInput(f"a game needs a list of players, got {players!r}")
    result = connection.execute(
        insert(schema.games).values(match_id=match_id, header=header, status=status, created_at=_now())
    )
    game_id = _new_id(result)
    seats = [
        {"game_id": game_id, "seat": seat, "player_id": _player_id(connection, name)}
        for seat, name in enumerate(players)
        if isinstance(name, str)
    ]
    if seats:
        connection.execute(insert(schema.game_seats), seats)
    return game_id


def _insert_event(connection: Connection, game_id: int, seq: int, payload: str) -> None:
    """Insert first (taking the write lock), then check that ``seq`` leaves no gap."""
    if seq < 0:
        raise MalformedInput(f"event seq must be 0 or more, got {seq}")
    connection.execute(
        insert(schema.events).values(game_id=game_id, seq=seq, payload=payload, stored_at=_now())
    )
    before = connection.scalar(
        select(func.count()).where(schema.events.c.game_id == game_id, schema.events.c.seq < seq)
    )
    if before != seq:
        raise MalformedInput(
            f"event seq {seq} of game {game_id} leaves a gap: the log has {before} events before it"
        )
