"""The web UI: a Flask app over one :class:`~companion.session.LiveSession`.

``create_app(config)`` takes ``SESSION`` (the live session; a fresh one if absent), ``PIN``
(the operator PIN; a random one if absent), ``DATABASE`` and ``WRITER`` (the store, see
:mod:`webui.stored`) and any Flask setting. One blueprint per area.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from flask import Flask, current_app, g, render_template, request
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError
from webui import board, i18n, security

log = logging.getLogger(__name__)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; nothing is opened or started at import time."""
    from companion.session import LiveSession
    from webui import camera, corrections, games, history, live, operator, setup, tournaments

    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secrets.token_hex(32),
        PIN=security.new_pin(),
        SSE_HEARTBEAT_S=15.0,
        SSE_MAX_S=300.0,
        SSE_RETRY_MS=1000,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.config.update(config or {})
    app.config.setdefault("SESSION", LiveSession())
    app.extensions["pin_guard"] = {}  # address -> [wrong PINs in a row, when the last one came]
    app.extensions["fragments"] = {}  # (part, revision, language) -> rendered fragment

    for blueprint in (
        live.bp,
        camera.bp,
        setup.bp,
        corrections.bp,
        history.bp,
        games.bp,
        operator.bp,
        tournaments.bp,
    ):
        app.register_blueprint(blueprint)

    app.before_request(_choose_locale)
    app.before_request(security.check_csrf)
    app.after_request(_harden)
    app.register_error_handler(CompanionError, _companion_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    app.context_processor(_template_globals)
    return app


def _choose_locale() -> None:
    browser = request.accept_languages.best_match(i18n.LOCALES)
    g.locale = i18n.best_locale(request.args.get("lang") or request.cookies.get("lang"), browser)


def _harden(response: Any) -> Any:
    """Remember a language switch; keep pages out of frames and scripts to our own."""
    lang = request.args.get("lang")
    if lang in i18n.LOCALES:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="Lax")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault(
        "Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'"
    )
    return response


def _template_globals() -> dict[str, Any]:
    locale = getattr(g, "locale", i18n.LOCALES[0])
    deck = current_app.config["SESSION"].view().setup.deck
    return {
        "card_view": lambda card: board.card_view(card, i18n.card_language(locale, deck)),
        "t": i18n.MESSAGES[locale],
        "locale": locale,
        "locales": i18n.LOCALES,
        "csrf_token": security.csrf_token,
        "is_operator": security.is_operator(),
    }


def _error_page(status: int, message: str) -> tuple[str, int]:
    if not hasattr(g, "locale"):
        g.locale = i18n.LOCALES[0]
    return render_template("error.html", status=status, message=message), status


def _companion_error(error: CompanionError) -> tuple[str, int]:
    """Bad input or an illegal correction: a clear message, and nothing changed."""
    return _error_page(400, str(error))


def _http_error(error: HTTPException) -> Any:
    locale = getattr(g, "locale", i18n.LOCALES[0])
    if error.code == 403:
        words = i18n.MESSAGES[locale]
        message = "CSRF" if error.description == "csrf" else words["operator_only"]
        return _error_page(403, message)
    return _error_page(error.code or 500, f"{error.name}: {error.description}")


def _unexpected_error(error: Exception) -> tuple[str, int]:
    """Log the traceback for the operator's terminal; the browser only learns it failed."""
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _error_page(500, "Internal error")
