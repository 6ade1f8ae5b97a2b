"""What ``run`` and ``demo`` print, and how they start the web UI: the shell around :func:`watch`."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from pathlib import Path

from companion.errors import MalformedInput
from companion.pipeline.live import Outcome, WatchOptions, watch
from companion.pipeline.recognise import Recognised, seat_name
from companion.session import LiveSession

#: The deck recognised when none is named (and the video says nothing).
DEFAULT_DECK = "fournier-1878"
#: Player names when none are given.
DEFAULT_NAMES = ("A", "B", "C", "D", "E", "F")


def options_from_args(args: argparse.Namespace, source: str | Path) -> WatchOptions:
    """Watch options from ``run``'s (or ``demo``'s) arguments; the video's ``timeline.json`` fills gaps."""
    from companion.engine import rules_for
    from companion.table.profile import DEFAULT_TABLE_MM, parse_table_mm

    rules = rules_for(args.rules)
    names = DEFAULT_NAMES[: rules.players]
    if args.players:
        names = tuple(name.strip() for name in args.players.split(","))
    if len(names) != rules.players:
        raise MalformedInput(f"{args.rules} needs {rules.players} players: got {len(names)} names {names}")
    film = rendered_with(source)
    table_mm = (
        parse_table_mm(args.table_mm) if args.table_mm else tuple(film.get("table_mm", DEFAULT_TABLE_MM))
    )
    live = str(source).isdigit() or "://" in str(source)
    mode = args.mode or ("latest" if live else "realtime")
    return WatchOptions(
        source=int(source) if str(source).isdigit() else source,
        rules=args.rules,
        players=names,
        deck=args.deck or film.get("deck", DEFAULT_DECK),
        calibration=args.calibration,
        table_mm=table_mm,
        record=getattr(args, "record", None),
        evidence=getattr(args, "evidence", None),
        mode=mode,
        vision=args.vision,
    )


def rendered_with(source: str | Path) -> dict[str, object]:
    """How a rendered game video was made (deck, table size), from the ``timeline.json`` beside it."""
    timeline = Path(str(source)).with_name("timeline.json")
    return json.loads(timeline.read_text()) if timeline.is_file() else {}


def printer(as_json: bool):  # type: ignore[no-untyped-def]
    """Prints recognised events as they come: one line each, or JSON lines."""

    def show(events: list[Recognised]) -> None:
        for event in events:
            if as_json:
                print(json.dumps(event_json(event)), flush=True)
            else:
                minutes, seconds = divmod(event.t, 60)
                print(f"[{int(minutes):02d}:{seconds:04.1f}] {event.text}", flush=True)

    return show


def event_json(event: Recognised) -> dict[str, object]:
    return {
        "kind": event.kind,
        "t": round(event.t, 3),
        "game": event.game,
        "text": event.text,
        "seat": event.seat,
        "card": None if event.card is None else str(event.card),
        "rest_t": None if event.rest_t is None else round(event.rest_t, 3),
        "doubt": event.doubt,
        "alternatives": [[str(c), round(p, 3)] for c, p in event.alternatives],
    }


def web_starter(host: str, port: int, database: str | None = None):  # type: ignore[no-untyped-def]
    """Starts the web UI on a thread for the session, printing its address; returns (start, stop).
    Its stored games and tournaments pages read ``database`` (None: the data folder's)."""
    running = []

    def start(session: LiveSession) -> None:
        from webui import create_app, security
        from webui.server import Background, make_server

        pin = security.new_pin()
        server = make_server(
            create_app({"SESSION": session, "PIN": pin, "DATABASE": database}), host, port, 20
        )
        running.append(Background(server))
        print(f"Scoreboard: http://{host}:{server.effective_port}/  (operator PIN {pin})", flush=True)

    def stop() -> None:
        for background in running:
            background.stop()

    return start, stop


def result_lines(outcome: Outcome) -> list[str]:
    """The final result of every game watched, one line each."""
    from companion.engine import replay

    lines = []
    for n, record in enumerate(outcome.records, 1):
        state = replay(record)
        if not record.events:
            continue
        points = state.team_points if state.team_points is not None else state.points
        winners = ", ".join(seat_name(state, s) for s in state.winners) or "nobody yet"
        status = "complete" if state.complete else f"unfinished after {len(state.tricks)} tricks"
        lines.append(f"game {n}: points {'-'.join(map(str, points))}; winner {winners} ({status})")
    return lines


def play_outcome(options: WatchOptions, args: argparse.Namespace, store_url: str | None = None) -> Outcome:
    """Watch, print as it goes, and print the final result (and the loop's figures).

    With ``store_url`` every event is also kept in that database ("" for the data folder's).
    """
    start, stop = (
        (None, lambda: None) if args.headless else web_starter(args.host, args.port, store_url or None)
    )
    with ExitStack() as closing:
        closing.callback(stop)
        writer = None
        if store_url is not None:
            from companion.store import Store
            from companion.store.writer import GameWriter

            writer = GameWriter(closing.enter_context(Store.open(store_url or None)))
        outcome = watch(options, printer(args.json), serve=start, store=writer)
    if args.json:
        result = {"games": [r.to_dict() for r in outcome.records], "stats": outcome.figures()}
        print(json.dumps(result))
    else:
        for line in result_lines(outcome):
            print(line)
        stats = outcome.stats.to_dict()
        looked = (
            "" if outcome.detector_frames is None else f", the detector on {outcome.detector_frames} of them"
        )
        print(
            f"{stats['frames_processed']} of {stats['frames_offered']} frames processed, "
            f"{stats['ms_per_frame']} ms each; {stats['speed']}x real time; vision: {outcome.vision}{looked}",
            file=sys.stderr,
        )
    return outcome
