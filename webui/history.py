"""History and disputes: every trick with its evidence and the rule that decided it;
the record as JSON and CSV, and importing either back."""

from __future__ import annotations

import json

from flask import Blueprint, Response, flash, g, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as Redirect

from companion.engine import GameRecord
from companion.errors import MalformedInput
from webui import board, i18n
from webui.live import live_session
from webui.record_csv import record_from_csv, record_to_csv
from webui.security import operator_required

bp = Blueprint("history", __name__)


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
    return _download(record_to_csv(view.record), "text/csv", f"brisca-game-{view.game_id}.csv")


@bp.post("/history/import")
@operator_required
def import_record() -> Redirect:
    """Continue from an uploaded record, JSON or CSV (as downloaded); a bad file changes nothing."""
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        raise MalformedInput("choose a record file (JSON or CSV) to import")
    live_session().load(_read_record(upload.read(), upload.filename))
    flash(i18n.MESSAGES[g.locale]["done"], "ok")
    return redirect(url_for("live.scoreboard"), 303)


def _read_record(body: bytes, filename: str) -> GameRecord:
    """A record file: CSV when its name ends in ``.csv``, JSON otherwise."""
    as_csv = filename.lower().endswith(".csv")
    try:
        text = body.decode("utf-8-sig")
        return record_from_csv(text) if as_csv else GameRecord.from_dict(json.loads(text))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MalformedInput(f"{filename!r} is not a {'CSV' if as_csv else 'JSON'} record: {error}") from None


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )
