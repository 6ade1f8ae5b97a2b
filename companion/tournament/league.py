"""League schedules by the circle method: everyone meets everyone once (or twice, home and away)."""

from __future__ import annotations

from collections.abc import Sequence

Round = list[tuple[str, str | None]]


def round_robin(names: Sequence[str], *, double: bool = False) -> list[Round]:
    """The rounds of a league among ``names``; with an odd count each round gives one bye (away None).

    The first entrant stays put while the others rotate; home and away alternate so nobody
    hosts much more than anybody else. ``double`` adds the return legs with sides swapped.
    """
    circle: list[str | None] = [*names, None] if len(names) % 2 else list(names)
    n = len(circle)
    rounds: list[Round] = []
    for r in range(n - 1):
        pairs: Round = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if (i == 0 and r % 2) or (i > 0 and i % 2):
                a, b = b, a
            if a is None or b is None:
                pairs.append((a or b or "", None))
            else:
                pairs.append((a, b))
        rounds.append(sorted(pairs, key=lambda pair: pair[1] is None))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    if double:
        rounds += [[(b, a) if b is not None else (a, None) for a, b in round_] for round_ in rounds]
    return rounds
