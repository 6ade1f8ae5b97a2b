"""Matches (partidas): games in order until a side reaches the target, or four games of rotating trumps."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from companion.cards import Suit
from companion.engine.outcome import side_totals
from companion.engine.record import GameRecord, MatchRecord, MatchRules
from companion.engine.replay import replay
from companion.engine.rules import Rules
from companion.engine.state import GameState, Issue

#: Trump suit of each game when trumps rotate instead of being turned up.
ROTATION: Final = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)


@dataclass(frozen=True)
class MatchState:
    """The standings of a match; match-level issues name the game index in ``event``."""

    rules: Rules
    match: MatchRules
    players: tuple[str, ...]
    games: tuple[GameState, ...]
    games_won: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    complete: bool
    issues: tuple[Issue, ...]

    @property
    def valid(self) -> bool:
        return not self.issues and all(game.valid for game in self.games)


def game_rules(record: MatchRecord, index: int) -> Rules:
    """The rules of game ``index``: the match's, with the rotating trump suit when asked for."""
    return (
        replace(record.rules, trump_suit=ROTATION[index % 4]) if record.match.rotate_trump else record.rules
    )


def _game_totals(rules: Rules, state: GameState) -> list[int]:
    """What a game adds to each side's points: card points, or a bidding family's contract scores."""
    if state.contract is not None:
        return list(state.contract.scores) or [0] * len(rules.teams)
    return side_totals(rules, state.points)


def replay_match(record: MatchRecord) -> MatchState:
    """Replay every game of a match and add up the standings."""
    rules, match = record.rules, record.match
    sides = len(rules.teams)
    won, points = [0] * sides, [0] * sides
    issues: list[Issue] = []
    states: list[GameState] = []
    decided = False
    for index, game in enumerate(record.games):
        if decided:
            issues.append(
                Issue(index, "after-match", f"game {index + 1} was played after the match was decided")
            )
        if game.rules.to_spec() != rules.to_spec() or game.players != record.players:
            issues.append(
                Issue(index, "game-differs", f"game {index + 1} has other rules or players than its match")
            )
        rotated = (record.first + index) % rules.seats
        if game.first != rotated:
            issues.append(
                Issue(index, "deal-rotation", f"game {index + 1} led by seat {game.first}, not {rotated}")
            )
        state = replay(GameRecord(game_rules(record, index), record.players, game.first, game.events))
        states.append(state)
        totals = _game_totals(rules, state)
        points = [a + b for a, b in zip(points, totals, strict=True)]
        for side in sorted({rules.side_of(seat) for seat in state.winners} if state.complete else ()):
            won[side] += 2 if match.double_over_100 and totals[side] > 100 else 1
        decided = len(states) >= 4 if match.rotate_trump else max(won) >= match.target
    ranking = points if match.rotate_trump and match.decide_by == "points" else won
    leaders = [side for side in range(sides) if ranking[side] == max(ranking)]
    winners = rules.teams[leaders[0]] if decided and len(leaders) == 1 else ()
    return MatchState(
        rules,
        match,
        record.players,
        tuple(states),
        tuple(won),
        tuple(points),
        winners,
        decided,
        tuple(issues),
    )
