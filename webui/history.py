"""History and disputes: every trick with its evidence and the rule that decided it;
the record as JSON and CSV, and importing a record back."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, flash, g, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as Redirect

from companion.engine import GameRecord
from companion.errors import MalformedInput
from webui import board, i18n
from webui.live import live_session
from webui.security import operator_required

bp = Blueprint("history", __name__)

CSV_FIELDS = (
    "seq", "type", "seat", "player", "card", "cards", "ref", "rank", "points", "suit",
    "t", "source", "confidence",
)  # fmt: skip


@bp.get("/history")
def page() -> str:
    view = live_session().view()
    return render_template("history.html", view=view, board=board.scoreboard(view, g.locale))


@bp.get("/history/trick/<int:n>")
def trick(n: int) -> str:
    """The dispute view of trick ``n``: cards, winner, points, the rule, and the evidence."""
    view = live_session().view()
    scoreboard = board.scoreboard(view, g.locale)
    found = [t for t in scoreboard["tricks"] if t["n"] == n]
    if not found:
        raise NotFound(f"no trick {n} yet")
    return render_template(
        "trick.html", view=view, board=scoreboard, trick=found[0], evidence=view.evidence.get(n)
    )


@bp.get("/history/evidence/<int:n>.jpg")
def evidence_image(n: int) -> Response:
    """The snapshot kept for trick ``n``: only files the session registered are served."""
    evidence = live_session().view().evidence.get(n)
    if evidence is None or not evidence.snapshot.is_file():
        raise NotFound(f"no evidence image for trick {n}")
    return send_file(evidence.snapshot, mimetype="image/jpeg", max_age=0)


@bp.get("/record.json")
def record_json() -> Response:
    view = live_session().view()
    body = json.dumps(view.record.to_dict(), indent=1, ensure_ascii=False) + "\n"
    return _download(body, "application/json", f"brisca-game-{view.game_id}.json")


@bp.get("/record.csv")
def record_csv() -> Response:
    view = live_session().view()
    return _download(events_csv(view.record), "text/csv", f"brisca-game-{view.game_id}.csv")


@bp.post("/history/import")
@operator_required
def import_record() -> Redirect:
    """Continue from an uploaded record; a bad file changes nothing."""
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        raise MalformedInput("choose a record file (JSON) to import")
    try:
        data = json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MalformedInput(f"{upload.filename!r} is not a JSON record: {error}") from None
    live_session().load(GameRecord.from_dict(data))
    flash(i18n.MESSAGES[g.locale]["done"], "ok")
    return redirect(url_for("live.scoreboard"), 303)


def events_csv(record: GameRecord) -> str:
    """The record's events, one row each, with the player's name beside the seat."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    players = list(record.players)
    for seq, event in enumerate(record.events):
        row: dict[str, Any] = {"seq": seq, **event.to_dict()}
        if "cards" in row:
            row["cards"] = " ".join(row["cards"])
        if event.seat is not None:
            row["player"] = players[event.seat % len(players)]
        writer.writerow(row)
    return out.getvalue()


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )
