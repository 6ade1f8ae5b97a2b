"""New game: players, seats, rules preset and options, deck, table calibration, start."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.engine import PRESETS, rules_for
from companion.errors import MalformedInput
from companion.session import Setup
from webui import i18n
from webui.live import live_session
from webui.security import operator_required

bp = Blueprint("setup", __name__)

MAX_PLAYERS = 6
MAX_NAME = 40


@bp.get("/new")
def page() -> str:
    view = live_session().view()
    return render_template(
        "setup.html",
        view=view,
        presets=list(PRESETS),
        decks=deck_names(view.setup.deck),
        options=rules_options(),
        corners=request.args.get("corners", _corners_text(view.setup.corners)),
    )


@bp.post("/new")
@operator_required
def start() -> Response:
    form = request.form
    players = parse_players(form.get("players", ""))
    rules = parse_rules(form.get("rules", ""), form.get("options", ""))
    first = _int(form.get("first", "0"), "first seat")
    deck = form.get("deck", "").strip()
    if deck not in deck_names(live_session().view().setup.deck):
        raise MalformedInput(f"unknown deck {deck!r}")
    corners = parse_corners(form.get("corners", ""))
    live_session().new_game(Setup(rules=rules, players=players, first=first, deck=deck, corners=corners))
    flash(i18n.MESSAGES[g.locale]["done"], "ok")
    return redirect(url_for("live.scoreboard"), 303)


@bp.post("/new/markers")
@operator_required
def detect_markers() -> Response:
    """Find the four corner markers on the newest camera frame and offer their corners."""
    import cv2
    import numpy as np

    from companion.table.profile import profile_from_markers

    latest = live_session().next_frame(0, 0.0)
    if latest is None:
        raise MalformedInput("no camera frame yet: connect the camera first")
    image = cv2.imdecode(np.frombuffer(latest[1], np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise MalformedInput(f"the camera frame is not a readable JPEG ({len(latest[1])} bytes)")
    corners = profile_from_markers(image).table_corners_px()
    return redirect(url_for("setup.page", corners=_corners_text(tuple(map(tuple, corners)))), 303)


def rules_options() -> dict[str, str]:
    """Every rules option a game may set, with the values it takes (for the form's help)."""
    from companion.engine.rules import CHOICES, OPTIONS

    special = {"deck": "48 | 40 | 36 | 32", "trump_suit": "O | C | E | B | null"}
    return {
        name: special.get(name) or " | ".join(CHOICES.get(name, ("true", "false")))
        for name in sorted(OPTIONS)
    }


def deck_names(current: str) -> list[str]:
    """Decks the identifier knows (shipped and taught), else the current one alone."""
    try:
        from companion.vision.decks import list_decks

        names = [deck.name for deck in list_decks()]
    except (ImportError, OSError, ValueError):
        names = []
    return names or [current]


def parse_players(text: str) -> tuple[str, ...]:
    """One name a line, 2..6 of them, each short and distinct."""
    names = tuple(line.strip() for line in text.splitlines() if line.strip())
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise MalformedInput(f"a game needs 2 to {MAX_PLAYERS} players, got {len(names)}: {list(names)}")
    if len(set(names)) != len(names) or any(len(name) > MAX_NAME for name in names):
        raise MalformedInput(
            f"player names must be distinct and at most {MAX_NAME} characters: {list(names)}"
        )
    return names


def parse_rules(preset: str, options_text: str) -> str | dict[str, Any]:
    """A preset name plus optional JSON options, checked by the engine."""
    options: Any = {}
    if options_text.strip():
        try:
            options = json.loads(options_text)
        except json.JSONDecodeError as error:
            raise MalformedInput(f"rules options are not JSON: {error}") from None
        if not isinstance(options, dict):
            raise MalformedInput(f"rules options must be a JSON object, not {options_text!r}")
    spec: str | dict[str, Any] = {"preset": preset, "options": options} if options else preset
    rules_for(spec)
    return spec


def parse_corners(text: str) -> tuple[tuple[float, float], ...] | None:
    """``"x,y x,y x,y x,y"`` (top-left, top-right, bottom-right, bottom-left) or nothing."""
    if not text.strip():
        return None
    try:
        points = tuple(tuple(float(v) for v in pair.split(",")) for pair in text.split())
    except ValueError:
        raise MalformedInput(f"table corners must be 'x,y' pairs, not {text!r}") from None
    if len(points) != 4 or any(len(p) != 2 or min(p) < 0 for p in points):
        raise MalformedInput(f"need four table corners as 'x,y' pairs, got {text!r}")
    return tuple((p[0], p[1]) for p in points)


def _corners_text(corners: tuple[tuple[float, float], ...] | None) -> str:
    return " ".join(f"{x:.0f},{y:.0f}" for x, y in corners or ())


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise MalformedInput(f"{what} must be a whole number, not {text!r}") from None
