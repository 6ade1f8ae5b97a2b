"""Knockout brackets: standard seeding (1 meets the lowest seed), byes to the top seeds."""

from __future__ import annotations

from collections.abc import Sequence


def bracket_size(count: int) -> int:
    """The smallest power of two holding ``count`` entrants (at least 2)."""
    size = 2
    while size < count:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) by bracket position: 1 and 2 can only meet in the final.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, span - top)]
    return order


def first_round(names: Sequence[str]) -> list[tuple[str | None, str | None]]:
    """The first-round slots for ``names`` in seeding order; a missing seed (None) is a bye."""
    order = seed_order(bracket_size(len(names)))
    seats = [names[seed - 1] if seed <= len(names) else None for seed in order]
    return [(seats[i], seats[i + 1]) for i in range(0, len(seats), 2)]


def rounds_needed(count: int) -> int:
    """How many rounds a knockout of ``count`` entrants takes."""
    return bracket_size(count).bit_length() - 1
