"""Corrections: the operator confirms flagged readings, or fixes them with engine events
(``amend``, ``void``, a new play, undo); the score follows at once."""

from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from companion.cards import Card
from companion.engine import Event, Game
from companion.errors import MalformedInput, UnknownName
from companion.session import Action
from webui import board, i18n
from webui.live import live_session
from webui.security import operator_required

bp = Blueprint("corrections", __name__)

#: Events the operator may add by hand.
ADDABLE = ("play", "swap", "trump")


@bp.get("/corrections")
def page() -> str:
    view = live_session().view()
    return render_template("corrections.html", view=view, board=board.scoreboard(view, g.locale))


@bp.get("/corrections/flag/<int:flag_id>.jpg")
def flag_snapshot(flag_id: int) -> Response:
    try:
        snapshot = live_session().flag(flag_id).snapshot
    except UnknownName:
        snapshot = None
    if snapshot is None or not snapshot.is_file():
        raise NotFound(f"no snapshot for flag {flag_id}")
    return send_file(snapshot, mimetype="image/jpeg", max_age=0)


@bp.post("/corrections/flag/<int:flag_id>")
@operator_required
def resolve_flag(flag_id: int) -> Response:
    """``do`` = confirm | pick (``card``) | move (``seat``) | void."""
    session = live_session()
    ref = session.flag(flag_id).seq
    do = request.form.get("do", "")
    action: Action | None
    if do == "confirm":
        action = None
    elif do == "void":
        action = lambda game: game.void(ref)  # noqa: E731
    elif do == "pick":
        card = Card.parse(request.form.get("card", ""))
        action = lambda game: game.amend(ref, card=card)  # noqa: E731
    elif do == "move":
        seat = parse_seat(request.form.get("seat", ""), session.view().state.rules.seats)
        action = lambda game: game.amend(ref, seat=seat)  # noqa: E731
    else:
        raise MalformedInput(f"unknown correction {do!r}: confirm, pick, move or void")
    session.resolve(flag_id, action)
    return _done()


@bp.post("/corrections/event/<int:ref>")
@operator_required
def correct_event(ref: int) -> Response:
    """Amend (``card`` and/or ``seat``) or void (``do=void``) event ``ref`` of the log."""
    session = live_session()
    if request.form.get("do") == "void":
        session.apply(lambda game: game.void(ref))
        return _done()
    seats = session.view().state.rules.seats
    card_text, seat_text = request.form.get("card", "").strip(), request.form.get("seat", "").strip()
    card = Card.parse(card_text) if card_text else None
    seat = parse_seat(seat_text, seats) if seat_text else None
    if card is None and seat is None:
        raise MalformedInput(f"to correct event {ref}, give a card or a seat")
    fields = {key: value for key, value in (("card", card), ("seat", seat)) if value is not None}
    session.apply(lambda game: game.amend(ref, **fields))
    return _done()


@bp.post("/corrections/add")
@operator_required
def add_event() -> Response:
    """Add a play, swap or trump card the camera missed."""
    session = live_session()
    kind = request.form.get("kind", "")
    card = Card.parse(request.form.get("card", ""))
    if kind not in ADDABLE:
        raise MalformedInput(f"cannot add a {kind!r} event: {', '.join(ADDABLE)}")
    if kind == "trump":
        session.apply(lambda game: game.turn_trump(card))
        return _done()
    seat = parse_seat(request.form.get("seat", ""), session.view().state.rules.seats)
    session.apply(lambda game: _seat_action(game, kind, seat, card))
    return _done()


@bp.post("/corrections/undo")
@operator_required
def undo() -> Response:
    live_session().apply(lambda game: game.undo())
    return _done()


def parse_seat(text: str, seats: int) -> int:
    """A seat number of this game (0..seats-1)."""
    if not text.strip().isdigit() or not 0 <= int(text) < seats:
        raise MalformedInput(f"seat must be 0..{seats - 1}, not {text!r}")
    return int(text)


def _seat_action(game: Game, kind: str, seat: int, card: Card) -> Event:
    return game.play(seat, card) if kind == "play" else game.swap(seat, card)


def _done() -> Response:
    flash(i18n.MESSAGES[g.locale]["done"], "ok")
    return redirect(url_for("corrections.page"), 303)
