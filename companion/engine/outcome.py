"""Who won: the goal of the variant, then the tie-break."""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.rules import Rules


def side_totals(rules: Rules, per_seat: Sequence[int]) -> list[int]:
    """Sum a per-seat count over each side."""
    return [sum(per_seat[seat] for seat in team) for team in rules.teams]


def winners(
    rules: Rules,
    points: Sequence[int],
    cards_won: Sequence[int],
    last_winner: int | None,
    decided: int | None = None,
    loser: int | None = None,
) -> tuple[int, ...]:
    """The winning seats of a finished game; ``()`` for a draw.

    ``decided`` is a side that won outright (mano negra, cazar el tres),
    ``loser`` a side that lost outright (went over 11 points in the low-points goal).
    """
    teams = rules.teams
    if decided is not None:
        return teams[decided]
    if loser is not None:
        return tuple(seat for side, team in enumerate(teams) if side != loser for seat in team)
    sign = -1 if rules.goal in ("fewest", "under-12") else 1
    totals = [sign * total for total in side_totals(rules, points)]
    tied = [side for side, total in enumerate(totals) if total == max(totals)]
    if len(tied) > 1:
        tied = _tie_break(rules, tied, cards_won, last_winner, sign)
    return teams[tied[0]] if len(tied) == 1 else ()


def _tie_break(
    rules: Rules, tied: list[int], cards_won: Sequence[int], last_winner: int | None, sign: int
) -> list[int]:
    if rules.tie_break == "last-trick" and last_winner is not None:
        side = rules.side_of(last_winner)
        return [side] if side in tied else tied
    if rules.tie_break == "more-cards":
        cards = side_totals(rules, cards_won)
        best = max(sign * cards[side] for side in tied)
        return [side for side in tied if sign * cards[side] == best]
    return tied
