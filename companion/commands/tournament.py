"""``companion tournament ...``: run a home tournament (league, knockout, Swiss) from the command line."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.commands.run import add_db_argument


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="home tournaments: leagues, knockouts, Swiss rounds; pairings, results, standings",
        description="Tournaments are kept in the database (--db), like the games they are scored from.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    common = argparse.ArgumentParser(add_help=False)
    add_db_argument(common, "where the tournaments and their games are kept")
    common.add_argument("--json", action="store_true", help="print JSON for machines")

    def action(name: str, help: str) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, parents=[common], help=help, description=help)
        if name not in ("import", "list"):
            sub.add_argument("name", help="the tournament's name")
        sub.set_defaults(run=run)
        return sub

    new = action("new", "create a tournament")
    new.add_argument("--format", required=True, choices=["league", "knockout", "swiss"])
    new.add_argument("--double", action="store_true", help="league: home and away (two legs)")
    new.add_argument("--rounds", type=int, help="Swiss: number of rounds (default: log2 of the entrants)")
    new.add_argument("--rules", default="brisca-2", help="rules preset of its games (default brisca-2)")
    new.add_argument("--target", type=int, default=1, help="games won that decide a match (default 1)")
    new.add_argument("--player", action="append", default=[], help="an entrant, in seeding order (repeat)")
    new.add_argument("--pair", action="append", default=[], help='a pair entrant: "NAME=Ana,Luis" (repeat)')
    add = action("add-player", "enter a player or pair (before round 1)")
    add.add_argument("entrant", help='a name, or "NAME=Ana,Luis" for a pair')
    action("withdraw", "withdraw an entrant: its pending matches become walkovers").add_argument("entrant")
    action("next-round", "pair the next round")
    action("pairings", "show the pairings").add_argument("--round", type=int, help="only this round")
    result = action("result", "record a match result, from stored games or by hand")
    result.add_argument("round", type=int)
    result.add_argument("table", type=int)
    how = result.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--games",
        help='ids of its stored games, comma separated, or "auto": the complete games '
        "between the two entrants not yet counted",
    )
    how.add_argument(
        "--record", type=Path, action="append", help="a game record file (repeat): stored, then counted"
    )
    how.add_argument("--score", help='games won, home-away, e.g. "2-1" (entered by hand)')
    result.add_argument("--points", help='card points, home-away, e.g. "190-170" (with --score)')
    standings = action("standings", "the table with tie-breakers")
    standings.add_argument("--csv", type=Path, help="also write the standings as CSV to this file")
    action("bracket", "the rounds, and a knockout's rounds to come")
    action("stats", "per-player statistics over the tournament's scored games")
    action("export", "write the tournament and its game records as JSON").add_argument("out", type=Path)
    imported = action("import", "read a tournament written by export")
    imported.add_argument("file", type=Path)
    imported.add_argument("--name", help="store it under another name")
    action("list", "list the tournaments")


def run(args: argparse.Namespace) -> int:
    from companion.store import Store

    with Store.open(args.db) as store:
        out = _ACTIONS[args.action](store, args)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    elif out.get("text"):
        print(out["text"])
    return 0


def _pair_of_numbers(text: str, what: str) -> tuple[int, int]:
    from companion.errors import MalformedInput

    try:
        home, away = (int(part) for part in text.split("-"))
    except ValueError:
        raise MalformedInput(f"{what} must look like 2-1, got {text!r}") from None
    return home, away


def _new(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.tournament import Entrant, new_tournament
    from companion.tournament.stored import create

    entrants = [Entrant.parse(text) for text in [*args.player, *args.pair]]
    tournament = new_tournament(
        args.name, args.format, entrants, double=args.double, swiss_rounds=args.rounds,
        rules=args.rules, target=args.target,
    )  # fmt: skip
    create(store, tournament)
    return {"name": tournament.name, "entrants": len(entrants), "text": f"created {tournament.name!r}"}


def _updated(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.errors import MalformedInput
    from companion.tournament import Entrant, add_entrant, next_round, record_result, withdraw
    from companion.tournament.model import Result
    from companion.tournament.stored import load, register, result_from_games, save, scored_games

    tournament = load(store, args.name)
    if args.action == "add-player":
        tournament = add_entrant(tournament, Entrant.parse(args.entrant))
        register(store, tournament.entrants[-1])
    elif args.action == "withdraw":
        tournament = withdraw(tournament, args.entrant)
    elif args.action == "next-round":
        tournament = next_round(tournament)
        save(store, tournament)
        return _pairings(store, args, only=len(tournament.rounds))
    elif args.games == "auto":
        ids = scored_games(store, tournament, args.round, args.table)
        if not ids:
            raise MalformedInput(f"no complete stored game for round {args.round}, table {args.table} yet")
        tournament = result_from_games(store, tournament, args.round, args.table, ids)
    elif args.games or args.record:
        ids = (
            [_game_id(part) for part in args.games.split(",")] if args.games else _stored(store, args.record)
        )
        tournament = result_from_games(store, tournament, args.round, args.table, ids)
    else:
        games = _pair_of_numbers(args.score, "--score")
        points = _pair_of_numbers(args.points, "--points") if args.points else (0, 0)
        tournament = record_result(tournament, args.round, args.table, Result(*games, *points, how="hand"))
    save(store, tournament)
    return {"name": tournament.name, "text": f"{tournament.name}: {args.action} done"}


def _stored(store: Any, paths: list[Path]) -> list[int]:
    """Store each game record file (checked by the engine); their new ids."""
    from companion.engine import GameRecord, load_record
    from companion.errors import MalformedInput

    records = [load_record(path) for path in paths]
    for path, record in zip(paths, records, strict=True):
        if not isinstance(record, GameRecord):
            raise MalformedInput(f"{path} is a match record: give the files of its games")
    return [store.import_record(record.to_dict()) for record in records]


def _game_id(text: str) -> int:
    from companion.errors import MalformedInput

    try:
        return int(text)
    except ValueError:
        raise MalformedInput(f'--games takes game ids like 12,13 or "auto", got {text!r}') from None


def _pairings(store: Any, args: argparse.Namespace, only: int | None = None) -> dict[str, Any]:
    from companion.tournament.bracket import bracket
    from companion.tournament.stored import load

    wanted = only or getattr(args, "round", None)
    rounds = [r for r in bracket(load(store, args.name)) if r and r[0].home is not None]
    rounds = [r for r in rounds if wanted is None or r[0].round == wanted]
    slots = [asdict(slot) for r in rounds for slot in r]
    return {"pairings": slots, "text": "\n".join(_slot_line(slot) for slot in slots)}


def _slot_line(slot: dict[str, Any]) -> str:
    if slot["home"] is None:
        return f"round {slot['round']} table {slot['table']}: to be decided"
    if slot["away"] is None:
        return f"round {slot['round']} table {slot['table']}: {slot['home']} has a bye"
    score = (
        f" {slot['score']} " if slot["score"] else (" (walkover) " if slot["how"] == "walkover" else " v ")
    )
    won = f"  -> {slot['winner']}" if slot["winner"] else ""
    return f"round {slot['round']} table {slot['table']}: {slot['home']}{score}{slot['away']}{won}"


def _standings(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.tournament import standings
    from companion.tournament.serial import standings_csv
    from companion.tournament.stored import load

    table = standings(load(store, args.name))
    text = standings_csv(table)
    if args.csv:
        args.csv.write_text(text, encoding="utf-8")
    rows = [
        {**asdict(line), "match_wins": line.match_wins, "point_difference": line.point_difference}
        for line in table
    ]
    for row in rows:
        del row["head_to_head"]
    lines = [f"{'#':>3} {'entrant':<20} {'P':>3} {'W':>3} {'D':>3} {'L':>3} {'GW':>4} {'+/-':>5}"]
    lines += [
        f"{line.rank:>3} {line.name + (' (withdrawn)' if line.withdrawn else ''):<20} {line.played:>3} "
        f"{line.won:>3} {line.drawn:>3} {line.lost:>3} {line.games_won:>4} {line.point_difference:>+5}"
        for line in table
    ]
    return {"standings": rows, "text": "\n".join(lines)}


def _bracket(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.tournament.bracket import bracket, round_name
    from companion.tournament.stored import load

    tournament = load(store, args.name)
    rounds = bracket(tournament)
    lines: list[str] = []
    for number, slots in enumerate(rounds, start=1):
        title = round_name(number, len(rounds)) if tournament.format == "knockout" else f"Round {number}"
        lines += [title, *("  " + _slot_line(asdict(slot)) for slot in slots)]
    return {"rounds": [[asdict(slot) for slot in slots] for slots in rounds], "text": "\n".join(lines)}


def _stats(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.tournament.stored import load, tournament_stats

    stats = tournament_stats(store, load(store, args.name))
    rows = [
        {**asdict(s), "average_points": s.average_points, "points_per_trick": s.points_per_trick}
        for s in stats
    ]
    header = f"{'player':<16} {'games':>5} {'wins':>4} {'avg pts':>7} {'pts/trick':>9} {'swaps':>5}"
    lines = [f"{header} {'last-trick ties won/all':>15}"]
    lines += [
        f"{s.name:<16} {s.games:>5} {s.wins:>4} {s.average_points:>7.1f} {s.points_per_trick:>9.2f} "
        f"{s.swaps:>5} {s.last_trick_ties_won:>7}/{s.last_trick_ties:<7}"
        for s in stats
    ]
    return {"stats": rows, "text": "\n".join(lines)}


def _export(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.tournament.stored import export_document, load

    document = export_document(store, load(store, args.name))
    args.out.write_text(json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8")
    return {"path": str(args.out), "games": len(document["games"]), "text": f"wrote {args.out}"}


def _import(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    from companion.errors import MalformedInput
    from companion.tournament.stored import import_document

    try:
        document = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise MalformedInput(f"cannot read tournament file {args.file}: {error}") from None
    tournament = import_document(store, document, name=args.name)
    return {"name": tournament.name, "text": f"imported {tournament.name!r}"}


def _list(store: Any, args: argparse.Namespace) -> dict[str, Any]:
    names = store.tournament_names()
    return {"tournaments": names, "text": "\n".join(names)}


_ACTIONS = {
    "new": _new, "add-player": _updated, "withdraw": _updated, "next-round": _updated, "result": _updated,
    "pairings": _pairings, "standings": _standings, "bracket": _bracket, "stats": _stats,
    "export": _export, "import": _import, "list": _list,
}  # fmt: skip
