"""``companion serve``: the web UI (scoreboard, camera, corrections, history) for this table."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands.run import add_store_arguments, add_web_arguments


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "serve",
        help="serve the live scoreboard and the operator's pages in the browser",
        description="Serve the web UI. Viewers are read-only; changing the game needs the operator PIN "
        "printed at start. Listens on 127.0.0.1 unless --host says otherwise.",
    )
    continued = parser.add_mutually_exclusive_group()
    continued.add_argument("--record", type=Path, help="continue from this game record (JSON)")
    continued.add_argument(
        "--game", type=int, metavar="ID",
        help="continue this stored game: its plays still to confirm, its tricks' evidence",
    )  # fmt: skip
    add_web_arguments(parser)
    parser.add_argument("--pin", help="operator PIN (default: a random six-digit one)")
    parser.add_argument("--viewers", type=int, default=100, help="most pages watching live at once")
    add_store_arguments(parser, without="in memory")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.engine import GameRecord, load_record
    from companion.errors import MalformedInput
    from companion.session import LiveSession
    from companion.store import Store
    from companion.store.writer import GameWriter, continue_game
    from webui import create_app, security
    from webui.server import lan_address, make_server

    if args.game is not None and args.no_db:
        raise MalformedInput("--game continues a stored game: it needs the database, not --no-db")
    store = None if args.no_db else Store.open(args.db)
    writer = None if store is None else GameWriter(store)
    if writer is None:
        session = LiveSession()
    else:
        session = LiveSession(sink=writer, evidence_sink=writer.keep, flag_sink=writer.flags)
    if args.record is not None:
        record = load_record(args.record)
        if not isinstance(record, GameRecord):
            raise MalformedInput(f"{args.record} is a match record: serve needs one game record")
        session.load(record)
    elif writer is not None and args.game is not None:
        continue_game(session, writer, args.game)
    pin = args.pin or security.new_pin()
    if not pin.strip():
        raise MalformedInput("--pin must not be empty")
    app = create_app({"SESSION": session, "PIN": pin, "DATABASE": args.db, "WRITER": writer})
    server = make_server(app, args.host, args.port, args.viewers)
    port = server.effective_port
    shown = lan_address() if args.host == "0.0.0.0" else args.host
    print(f"Scoreboard: http://{shown}:{port}/", flush=True)
    if args.host == "0.0.0.0":
        print("Open that address on a phone on the same network.", flush=True)
    print(f"Operator PIN: {pin}", flush=True)
    try:
        server.run()
    finally:
        server.close()
        if store is not None:
            store.close()
    return 0
