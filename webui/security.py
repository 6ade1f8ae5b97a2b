"""Who may change the game, and protection of forms against cross-site requests.

Viewers are read-only. The operator signs in with the PIN printed by ``companion serve``;
the signed session cookie then carries ``operator``. Every POST must carry the session's
CSRF token (form field ``csrf`` or header ``X-CSRF-Token``). This is a few lines of our
own rather than Flask-WTF: we need only the token check, not form classes.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from flask import abort, current_app, request, session

P = ParamSpec("P")
R = TypeVar("R")

#: After this many wrong PINs in a row, an address may not sign in for LOCKOUT_S seconds.
MAX_FAILURES = 5
LOCKOUT_S = 30.0


def new_pin() -> str:
    """A fresh six-digit operator PIN."""
    return f"{secrets.randbelow(10**6):06d}"


def csrf_token() -> str:
    """The session's CSRF token, made on first use (templates call it for hidden fields)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    """``before_request``: refuse a POST whose token does not match the session's (403)."""
    if request.method != "POST":
        return
    sent = request.form.get("csrf") or request.headers.get("X-CSRF-Token") or ""
    expected = session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(403, description="csrf")


def is_operator() -> bool:
    return session.get("operator") is True


def sign_in(pin: str) -> bool:
    """Check the PIN (constant time; an address that guessed wrong MAX_FAILURES times in a row
    waits LOCKOUT_S seconds); True on success."""
    guards: dict[str, list[float]] = current_app.extensions["pin_guard"]
    guard = guards.setdefault(request.remote_addr or "", [0, 0.0])
    now = time.monotonic()
    if guard[0] >= MAX_FAILURES and now - guard[1] < LOCKOUT_S:
        return False
    if hmac.compare_digest(pin.strip().encode(), current_app.config["PIN"].encode()):
        guard[0] = 0
        session["operator"] = True
        return True
    guard[0] += 1
    guard[1] = now
    return False


def operator_required(view: Callable[P, R]) -> Callable[P, R]:
    """Refuse (403) a view to anyone who has not signed in with the PIN."""

    @functools.wraps(view)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        if not is_operator():
            abort(403, description="operator")
        return view(*args, **kwargs)

    return guarded
