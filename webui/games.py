"""Stored games: every game the store keeps, newest first, with its result and the readings still
to confirm; the operator continues one in the live session (its flags and evidence with it)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, flash, g, redirect, render_template, url_for
from werkzeug.wrappers import Response

from companion.engine import GameRecord, replay
from companion.engine.doubt import side_points
from companion.errors import IllegalAction
from companion.store import GameSummary, Store
from companion.store.writer import continue_game
from companion.tournament.games import seat_player, unsettled
from webui import i18n
from webui.live import live_session
from webui.security import operator_required
from webui.stored import store, writer_of_app

bp = Blueprint("games", __name__)

#: The most games the page lists.
SHOWN = 50


@dataclass(frozen=True)
class GameRow:
    """One stored game as the page lists it; ``open`` is whether its readings to confirm may
    change the result, ``None`` where that cannot be worked out."""

    id: int
    started: str
    players: tuple[str, ...]
    rules: str
    status: str
    points: str
    winners: tuple[str, ...]
    complete: bool
    flags: int
    open: bool | None


def game_row(opened: Store, summary: GameSummary) -> GameRow:
    record = GameRecord.from_dict(opened.game_record(summary.id))
    state = replay(record)
    flagged = [flag.seq for flag in opened.open_flags(summary.id)]
    found = unsettled(summary.id, record, flagged)
    return GameRow(
        summary.id,
        summary.created_at.strftime("%Y-%m-%d %H:%M"),
        record.players,
        record.rules.name,
        summary.status,
        "-".join(map(str, side_points(state))),
        tuple(dict.fromkeys(seat_player(record, seat) for seat in state.winners)),
        state.complete,
        len(flagged),
        None if found is not None and not found.results else found is not None,
    )


@bp.get("/games")
def page() -> str:
    opened = store()
    newest = opened.games()[::-1][:SHOWN]
    writer = writer_of_app()
    return render_template(
        "games.html",
        rows=[game_row(opened, summary) for summary in newest],
        can_continue=writer is not None,
        on_screen=writer.game_id if writer is not None else None,
    )


@bp.post("/games/<int:game_id>/continue")
@operator_required
def continue_stored(game_id: int) -> Response:
    """Load stored game ``game_id`` into the live session; its corrections page next, if it has
    readings to confirm."""
    writer = writer_of_app()
    if writer is None:
        raise IllegalAction(i18n.MESSAGES[g.locale]["continue_needs_serve"].format(game=game_id))
    continue_game(live_session(), writer, game_id)
    flash(i18n.MESSAGES[g.locale]["done"], "ok")
    target = "corrections.page" if live_session().view().flags else "live.scoreboard"
    return redirect(url_for(target), 303)  # type: ignore[return-value]
