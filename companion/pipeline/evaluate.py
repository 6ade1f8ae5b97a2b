"""How well the pipeline saw a game: its record and events against the true record and timeline."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from statistics import median
from typing import Any

from companion.cards import Card
from companion.engine import GameRecord, GameState, open_results, replay, winner_open
from companion.engine.doubt import plays_among
from companion.engine.replay import effective_log
from companion.pipeline.recognise import Recognised

#: Events that go through the engine (and can be flagged or wrong).
ENGINE_KINDS = ("trump", "play", "swap")


def compare(
    truth: GameRecord,
    seen: GameRecord | None,
    events: Sequence[Recognised],
    rest_times: Sequence[float] = (),
    unsettled: Collection[int] = (),
) -> dict[str, Any]:
    """Per-game figures: plays, leaders, winners, trump card and final score right; events
    flagged, wrong (a play, the trump card or a swap unlike the truth) and missed; the wrong plays
    no flag still open when the game ended questions (``unsettled``: the log indices of those
    flags), which an operator would not be asked to check; whether those flags leave the winner
    open (the game could have gone to another side, :func:`companion.engine.winner_open`); the
    median delay from a card coming to rest (``rest_times``, one per true play, in order) to the
    first event that played that card (a phantom play before it shifts no other card's delay)."""
    expected = replay(truth)
    got = replay(seen) if seen is not None else None
    true_plays = [(seat, card) for trick in expected.tricks for seat, card in trick.plays]
    seen_plays = [(seat, card) for trick in got.tricks for seat, card in trick.plays] if got else []
    seen_plays += list(got.current) if got else []
    pairs = list(zip(true_plays, seen_plays, strict=False))
    tricks = list(zip(expected.tricks, got.tricks if got else (), strict=False))
    mine = [e for e in events if e.kind in ENGINE_KINDS and e.game == 1]
    played_at: dict[Card | None, float] = {}
    for event in mine:
        if event.kind == "play":
            played_at.setdefault(event.card, event.t)  # a card is played once: its first event
    rests = zip(true_plays, rest_times, strict=False)
    delays = [played_at[card] - rest for (_, card), rest in rests if card in played_at]
    true_swaps = Counter((s.seat, s.put) for s in expected.swaps)
    seen_swaps = Counter((s.seat, s.put) for s in got.swaps) if got else Counter()
    trump_wrong = got is not None and got.trump_card not in (None, expected.trump_card)
    wrong = sum(a != b for a, b in pairs) + trump_wrong + sum((seen_swaps - true_swaps).values())
    missed = max(0, len(true_plays) - len(seen_plays)) + sum((true_swaps - seen_swaps).values())
    missed += got is None or got.trump_card is None
    questioned = _questioned(seen, unsettled)
    told_open = seen is not None and winner_open(open_results(seen, plays_among(seen, unsettled)))
    return {
        "plays": len(true_plays),
        "plays_right": sum(a == b for a, b in pairs),
        "tricks": len(expected.tricks),
        "leaders_right": sum(a.leader == b.leader for a, b in tricks),
        "winners_right": sum(a.winner == b.winner for a, b in tricks),
        "trump_right": got is not None and got.trump_card == expected.trump_card,
        "points_right": got is not None and got.points == expected.points,
        "winner_right": got is not None and _outcome(got) == _outcome(expected),
        "winner_open": told_open,
        "events": len(mine),
        "flagged": sum(e.doubt is not None for e in mine),
        "wrong": wrong,
        "plays_wrong_unflagged": sum(a != b and b not in questioned for a, b in pairs),
        "missed": int(missed),
        "median_delay_s": round(median(delays), 3) if delays else None,
        "delays_s": [round(d, 3) for d in delays],
    }


def _questioned(seen: GameRecord | None, unsettled: Collection[int]) -> set[tuple[int | None, Card | None]]:
    """The plays (seat, card), as the log ends up with them, that the flags at ``unsettled`` question."""
    if seen is None:
        return set()
    log, _ = effective_log(seen.events)
    return {(event.seat, event.card) for i in plays_among(seen, unsettled) if (event := log[i]) is not None}


def _outcome(state: GameState) -> tuple[bool, tuple[int, ...]]:
    return state.complete, state.winners


def all_right(figures: dict[str, Any]) -> bool:
    """Every play, leader, winner, the trump card and the final score right, nothing wrong."""
    return (
        figures["plays_right"] == figures["plays"]
        and figures["leaders_right"] == figures["winners_right"] == figures["tricks"]
        and figures["trump_right"]
        and figures["points_right"]
        and figures["winner_right"]
        and figures["wrong"] == 0
    )


def summary(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Totals over several games."""
    delays = [d for g in games for d in g["delays_s"]]
    counted = [key for key in (games[0] if games else {}) if key not in ("median_delay_s", "delays_s")]
    total = {key: sum(int(g[key]) for g in games) for key in counted}
    return {
        "games": len(games),
        "games_all_right": sum(all_right(g) for g in games),
        **total,
        "median_delay_s": round(median(delays), 3) if delays else None,
    }
