"""Tournament pages: new tournament, entrants, next round, results, standings, bracket (printable).

The tournaments live in the app's store (:mod:`webui.stored`). Viewers read; the operator changes.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, redirect, render_template, request, url_for

from companion.errors import MalformedInput
from companion.tournament import (
    FORMATS,
    Entrant,
    Result,
    add_entrant,
    champion,
    finished,
    new_tournament,
    next_round,
    record_result,
    standings,
    total_rounds,
    withdraw,
)
from companion.tournament.bracket import bracket
from companion.tournament.serial import standings_csv
from companion.tournament.stored import (
    create,
    export_document,
    load,
    register,
    result_from_games,
    save,
    scored_games,
    tournament_stats,
    unsettled_game,
)
from webui.security import operator_required
from webui.stored import store, writer_of_app
from webui.tournaments.words import round_title, words

bp = Blueprint(
    "tournaments", __name__, url_prefix="/tournaments", template_folder="templates",
    static_folder="static", static_url_path="/static",
)  # fmt: skip


@bp.context_processor
def _vocabulary() -> dict[str, Any]:
    return {"w": words(g.locale)}


def _number(field: str, default: int | None = None) -> int:
    text = request.form.get(field, "").strip()
    if not text and default is not None:
        return default
    try:
        return int(text)
    except ValueError:
        raise MalformedInput(f"{field} must be a whole number, got {text!r}") from None


def _back(name: str) -> Response:
    return redirect(url_for("tournaments.show", name=name), 303)  # type: ignore[return-value]


@bp.get("/")
def index() -> str:
    return render_template("tournaments/index.html", names=store().tournament_names(), formats=FORMATS)


@bp.post("/")
@operator_required
def new() -> Response:
    form = request.form
    entrants = [Entrant.parse(line) for line in form.get("entrants", "").splitlines() if line.strip()]
    rounds = form.get("rounds", "").strip()
    tournament = new_tournament(
        form.get("name", ""), form.get("format", ""), entrants, double=form.get("double") == "on",
        swiss_rounds=_number("rounds") if rounds else None, rules=form.get("rules") or "brisca-2",
        target=_number("target", 1),
    )  # fmt: skip
    if not tournament.name:
        raise MalformedInput("a tournament needs a name")
    create(store(), tournament)
    return _back(tournament.name)


@bp.get("/<name>/")
def show(name: str) -> str:
    return _render("tournaments/show.html", name, with_scored_games=True)


@bp.get("/<name>/standings")
def standings_page(name: str) -> str:
    return _render("tournaments/standings.html", name)


@bp.get("/<name>/bracket")
def bracket_page(name: str) -> str:
    return _render("tournaments/bracket.html", name)


def _render(template: str, name: str, *, with_scored_games: bool = False) -> str:
    tournament = load(store(), name)
    rounds = bracket(tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "rounds": rounds,
        "round_title": lambda n: round_title(
            words(g.locale), n, len(rounds), tournament.format == "knockout"
        ),
        "table": standings(tournament),
        "stats": tournament_stats(store(), tournament),
        "finished": finished(tournament),
        "champion": champion(tournament),
        "total_rounds": total_rounds(tournament),
        "pending": {pairing.key for pairing in tournament.pending()},
    }
    if with_scored_games:
        scored = {p.key: scored_games(store(), tournament, *p.key) for p in tournament.pending()}
        waiting = {
            key: [found for game_id in ids if (found := unsettled_game(store(), game_id))]
            for key, ids in scored.items()
        }
        context["unsettled"] = waiting
        context["can_continue"] = writer_of_app() is not None
        context["scored"] = {
            key: [game_id for game_id in ids if game_id not in {found.game_id for found in waiting[key]}]
            for key, ids in scored.items()
        }
    return render_template(template, **context)


@bp.get("/<name>/standings.csv")
def standings_download(name: str) -> Response:
    body = standings_csv(standings(load(store(), name)))
    return Response(
        body, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}.csv"'}
    )


@bp.get("/<name>/export.json")
def export(name: str) -> Response:
    document = export_document(store(), load(store(), name))
    response = current_app.json.response(document)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@bp.post("/<name>/entrants")
@operator_required
def add(name: str) -> Response:
    tournament = add_entrant(load(store(), name), Entrant.parse(request.form.get("entrant", "")))
    register(store(), tournament.entrants[-1])
    save(store(), tournament)
    return _back(name)


@bp.post("/<name>/withdraw")
@operator_required
def withdraw_entrant(name: str) -> Response:
    save(store(), withdraw(load(store(), name), request.form.get("entrant", "")))
    return _back(name)


@bp.post("/<name>/next-round")
@operator_required
def pair_next(name: str) -> Response:
    save(store(), next_round(load(store(), name)))
    return _back(name)


@bp.post("/<name>/result")
@operator_required
def result(name: str) -> Response:
    tournament = load(store(), name)
    number, table = _number("round"), _number("table")
    games = request.form.get("games", "").strip()
    if games:
        ids = [int(part) for part in games.replace(",", " ").split() if part.isdigit()]
        tournament = result_from_games(store(), tournament, number, table, ids)
    else:
        scored = Result(
            _number("home_games"), _number("away_games"), _number("home_points", 0), _number("away_points", 0)
        )
        tournament = record_result(tournament, number, table, scored)
    save(store(), tournament)
    return _back(name)
