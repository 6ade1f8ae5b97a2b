"""Swiss pairing: score groups, no rematches, the bye to the lowest-ranked entrant without one."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def pair_round(
    ranked: Sequence[str],
    score: Callable[[str], float],
    met: Callable[[str, str], bool],
    had_bye: Callable[[str], bool],
) -> list[tuple[str, str | None]]:
    """Pair ``ranked`` (best first) for one round; an odd count gives one bye (away None).

    Within a score group the top half meets the bottom half; an entrant floats down to the
    next group only when no opponent of its own group is left that it has not met. When every
    pairing would repeat a match (few entrants left after withdrawals), rematches are allowed.
    """
    players = list(ranked)
    for allowed in (met, _never):
        if len(players) % 2 == 0:
            paired = _pair(players, score, allowed)
            if paired is not None:
                return paired
            continue
        candidates = [name for name in reversed(players) if not had_bye(name)] or list(reversed(players))
        for bye in candidates:
            paired = _pair([name for name in players if name != bye], score, allowed)
            if paired is not None:
                return [*paired, (bye, None)]
    raise AssertionError("pairing without a history always succeeds")


def _never(_a: str, _b: str) -> bool:
    return False


def _pair(
    players: list[str], score: Callable[[str], float], met: Callable[[str, str], bool]
) -> list[tuple[str, str | None]] | None:
    """Backtracking over partners for the best-ranked unpaired entrant, preferred partners first."""
    if not players:
        return []
    top, rest = players[0], players[1:]
    for partner in _preferred_partners(top, rest, score):
        if met(top, partner):
            continue
        tail = _pair([name for name in rest if name != partner], score, met)
        if tail is not None:
            return [(top, partner), *tail]
    return None


def _preferred_partners(top: str, rest: list[str], score: Callable[[str], float]) -> list[str]:
    group = [name for name in rest if score(name) == score(top)]
    half = (len(group) + 1) // 2
    same_group = group[half - 1 :] + group[: half - 1] if group else []
    lower = [name for name in rest if name not in group]
    return same_group + lower
