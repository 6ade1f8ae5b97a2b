"""What the scoreboard shows, computed from a session view: plain data for templates and JSON."""

from __future__ import annotations

from typing import Any

from companion.cards import Card, UnknownCard, deck
from companion.engine import Event, GameState, Trick, open_results, winner_open
from companion.engine.replay import effective_log
from companion.session import View
from webui import i18n

#: Points in every Brisca deck (the 2s, 4s, 8s and 9s are worth nothing).
TOTAL_POINTS = 120
CHART_W, CHART_H, CHART_PAD = 320, 150, 18
SIDE_COLOURS = ("#d1495b", "#2e86ab", "#edae49", "#66a182", "#8e6c8a", "#5d576b")


def card_view(card: Card | UnknownCard | None, language: str) -> dict[str, Any] | None:
    """A card as the templates draw it: code, printed number, suit letter, full name."""
    if card is None:
        return None
    if isinstance(card, UnknownCard):
        return {"code": "??", "label": "?", "suit": "", "name": "?", "points": 0}
    return {
        "code": str(card),
        "label": i18n.rank_label(card, language),
        "suit": card.suit.value,
        "name": i18n.card_name(card, language),
        "points": card.points,
    }


def scoreboard(view: View, locale: str, *, for_json: bool = False) -> dict[str, Any]:
    """Players or teams, points, tricks, trump, the trick on the table, the last trick,
    unseen cards and the points-by-trick chart, in ``locale``'s words."""
    state = view.state
    names = seat_names(view)
    language = i18n.card_language(locale, view.setup.deck)
    tricks = [trick_view(trick, names, language, locale) for trick in state.tricks]
    taken = [sum(1 for t in state.tricks if t.winner == seat) for seat in range(len(names))]
    sides = _sides(view, names, taken)
    board: dict[str, Any] = {
        "revision": view.revision,
        "seat_names": names,
        "players": [
            {
                "seat": seat,
                "name": name,
                "points": state.points[seat],
                "tricks": taken[seat],
                "to_play": state.to_play == seat,
            }
            for seat, name in enumerate(names)
        ],
        "sides": sides,
        "trump": card_view(state.trump_card, language),
        "current": {
            "plays": [_play(seat, card, names, language) for seat, card in state.current],
            "to_play": None if state.to_play is None else names[state.to_play],
            "to_play_seat": state.to_play,
        },
        "tricks": tricks,
        "last": tricks[-1] if tricks else None,
        "unseen": [card_view(card, language) for card in deck(state.rules.deck) if card in state.unseen],
        "complete": state.complete,
        "winners": list(dict.fromkeys(names[seat] for seat in state.winners)),
        "tie_break": _tie_break(state, sides),
        "issues": [issue.message for issue in state.issues],
        "flags": len(view.flags),
        **_open_results(view, names, language),
        "camera": view.camera.value,
        "camera_detail": view.camera_detail,
    }
    if not for_json:
        board["chart"] = chart(sides, state.tricks, state.rules.tricks)
        board["flagged"] = flagged_events(view)
    return board


def _open_results(view: View, names: list[str], language: str) -> dict[str, Any]:
    """The results a finished game's flagged plays leave open: the recorded one and the others
    (each side's points, the winners, and the card each flagged play holds in it, by log index),
    and whether any other has another winner; none when nothing is open."""
    refs = sorted(view.flagged_plays()) if view.state.complete else []
    results = open_results(view.record, frozenset(refs)) if refs else ()
    if len(results) < 2:
        return {"recorded_result": None, "open_results": [], "winner_open": False}
    events = flagged_events(view)
    players = [names[seat] if (seat := events[ref].seat) is not None else "" for ref in refs]
    shown = [
        {
            "points": "-".join(map(str, r.points)),
            "winners": list(dict.fromkeys(names[s] for s in r.winners)),
            "cards": [
                {"seq": ref, "name": name, "card": card_view(card, language)}
                for ref, name, card in zip(refs, players, r.cards, strict=True)
            ],
        }
        for r in results
    ]
    return {"recorded_result": shown[0], "open_results": shown[1:], "winner_open": winner_open(results)}


def flagged_events(view: View) -> dict[int, Event]:
    """Each flagged event as the log's corrections leave it: a missed card's guess, amended since
    it was flagged, shows the card guessed now."""
    log, _ = effective_log(view.record.events)
    return {flag.seq: log[flag.seq] or view.record.events[flag.seq] for flag in view.flags}


def seat_names(view: View) -> list[str]:
    """The player at each seat: with fewer players than seats, each holds every other seat."""
    players = view.record.players
    return [players[seat % len(players)] for seat in range(view.state.rules.seats)]


def trick_view(trick: Trick, names: list[str], language: str, locale: str) -> dict[str, Any]:
    return {
        "n": trick.n,
        "leader": names[trick.leader],
        "plays": [_play(seat, card, names, language) for seat, card in trick.plays],
        "winner": names[trick.winner],
        "winner_seat": trick.winner,
        "points": trick.points,
        "reason": i18n.reason(trick.reason, locale, language),
    }


def chart(sides: list[dict[str, Any]], tricks: tuple[Trick, ...], total: int) -> dict[str, Any]:
    """Running points of each side after each trick, as SVG polyline coordinates: x runs
    over the ``total`` tricks of a full game, y over the 120 points of the deck."""
    count = max(total, len(tricks), 1)
    x_step = (CHART_W - 2 * CHART_PAD) / count
    y_scale = (CHART_H - 2 * CHART_PAD) / TOTAL_POINTS
    series = []
    for i, side in enumerate(sides):
        running = 0
        coords: list[tuple[float, float]] = [(CHART_PAD, CHART_H - CHART_PAD)]
        for n, trick in enumerate(tricks, start=1):
            if trick.winner in side["seats"]:
                running += trick.points
            coords.append((CHART_PAD + n * x_step, CHART_H - CHART_PAD - running * y_scale))
        series.append(
            {
                "label": side["name"],
                "colour": SIDE_COLOURS[i % len(SIDE_COLOURS)],
                "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
                "legend_y": CHART_PAD + 12 * (i + 1),
                "total": running,
            }
        )
    half = CHART_H - CHART_PAD - (TOTAL_POINTS / 2) * y_scale
    return {"width": CHART_W, "height": CHART_H, "pad": CHART_PAD, "half": half, "series": series}


def _tie_break(state: GameState, sides: list[dict[str, Any]]) -> str | None:
    """The tie-break rule, when a finished game's top sides have equal points and one still won."""
    totals = sorted((side["points"] for side in sides), reverse=True)
    tied = state.complete and state.ended_by is None and len(totals) > 1 and totals[0] == totals[1]
    return state.rules.tie_break if tied and state.winners else None


def _sides(view: View, names: list[str], taken: list[int]) -> list[dict[str, Any]]:
    """Teams when the rules have them, else one side per player."""
    state = view.state
    if state.team_points is not None:
        return [
            {
                "name": " + ".join(dict.fromkeys(names[s] for s in seats)),
                "seats": tuple(seats),
                "points": state.team_points[i],
                "tricks": sum(taken[s] for s in seats),
            }
            for i, seats in enumerate(state.teams)
        ]
    return [
        {"name": name, "seats": (seat,), "points": state.points[seat], "tricks": taken[seat]}
        for seat, name in enumerate(names)
    ]


def _play(seat: int, card: Card | UnknownCard, names: list[str], language: str) -> dict[str, Any]:
    return {"seat": seat, "name": names[seat], "card": card_view(card, language)}
