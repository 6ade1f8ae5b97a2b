"""Operator sign-in with the PIN printed by ``companion serve``."""

from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from webui import i18n, security

bp = Blueprint("operator", __name__)


@bp.get("/operator")
def page() -> str:
    return render_template("operator.html")


@bp.post("/operator")
def sign_in() -> Response | tuple[str, int]:
    words = i18n.MESSAGES[g.locale]
    if not security.sign_in(request.form.get("pin", "")):
        flash(words["wrong_pin"], "error")
        return render_template("operator.html"), 403
    flash(words["signed_in"], "ok")
    return redirect(url_for("corrections.page"), 303)


@bp.post("/operator/leave")
def sign_out() -> Response:
    session.pop("operator", None)
    return redirect(url_for("live.scoreboard"), 303)
