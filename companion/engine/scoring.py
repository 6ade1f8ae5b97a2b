"""What ``companion score`` prints: a record's result as JSON, or as text for a person."""

from __future__ import annotations

from typing import Any

from companion.engine.match import MatchState, replay_match
from companion.engine.record import GAME_FORMAT, MATCH_FORMAT, GameRecord, MatchRecord
from companion.engine.replay import replay
from companion.engine.state import GameState, Issue


def _issues(issues: tuple[Issue, ...]) -> list[dict[str, Any]]:
    return [{"event": issue.event, "code": issue.code, "message": issue.message} for issue in issues]


def game_result(state: GameState) -> dict[str, Any]:
    """The JSON result of one replayed game."""
    return {
        "format": GAME_FORMAT,
        "rules": state.rules.to_spec(),
        "players": list(state.players),
        "teams": [list(team) for team in state.teams],
        "trump": str(state.trump_card or state.trump_suit or "") or None,
        "tricks": [
            {
                "n": trick.n,
                "leader": trick.leader,
                "plays": [[seat, str(card)] for seat, card in trick.plays],
                "winner": trick.winner,
                "points": trick.points,
                "reason": trick.reason,
            }
            for trick in state.tricks
        ],
        "swaps": [
            {"event": swap.event, "seat": swap.seat, "put": str(swap.put), "took": str(swap.took)}
            for swap in state.swaps
        ],
        "points": list(state.points),
        "team_points": list(state.team_points) if state.team_points is not None else None,
        "winners": list(state.winners),
        "complete": state.complete,
        "ended_by": state.ended_by,
        "valid": state.valid,
        "issues": _issues(state.issues),
        **({"contract": state.contract.to_dict()} if state.contract is not None else {}),
    }


def match_result(state: MatchState) -> dict[str, Any]:
    """The JSON result of a replayed match: every game, then the standings."""
    return {
        "format": MATCH_FORMAT,
        "rules": state.rules.to_spec(),
        "match": state.match.to_dict(),
        "players": list(state.players),
        "teams": [list(team) for team in state.rules.teams],
        "games": [game_result(game) for game in state.games],
        "standings": {"games_won": list(state.games_won), "points": list(state.points)},
        "winners": list(state.winners),
        "complete": state.complete,
        "valid": state.valid,
        "issues": _issues(state.issues),
    }


def score(record: GameRecord | MatchRecord) -> dict[str, Any]:
    """Replay a game or match record and return its result as JSON-ready data."""
    if isinstance(record, MatchRecord):
        return match_result(replay_match(record))
    return game_result(replay(record))


def _seat_name(result: dict[str, Any], seat: int) -> str:
    players = result["players"]
    return f"{players[seat % len(players)]} (seat {seat})"


def _side_name(result: dict[str, Any], side: int) -> str:
    players = result["players"]
    return " & ".join(dict.fromkeys(players[seat % len(players)] for seat in result["teams"][side]))


def game_text(result: dict[str, Any]) -> str:
    """A game result, trick by trick, for a person."""
    lines = [f"Rules {result['rules']}; trump {result['trump'] or 'not turned up'}"]
    for trick in result["tricks"]:
        plays = ", ".join(f"{seat}:{card}" for seat, card in trick["plays"])
        lines.append(
            f"Trick {trick['n']:>2}: {plays:<40} -> {_seat_name(result, trick['winner'])} "
            f"+{trick['points']} ({trick['reason']})"
        )
    lines.append(
        "Points: " + ", ".join(f"{_seat_name(result, s)} {p}" for s, p in enumerate(result["points"]))
    )
    if result["team_points"] is not None:
        lines.append(
            "Sides: " + ", ".join(f"{_side_name(result, k)} {p}" for k, p in enumerate(result["team_points"]))
        )
    if "contract" in result:
        lines.extend(contract_lines(result))
    if not result["complete"]:
        lines.append("Game not finished.")
    elif result["winners"]:
        ended = f" ({result['ended_by']})" if result["ended_by"] else ""
        lines.append("Winner: " + " and ".join(_seat_name(result, s) for s in result["winners"]) + ended)
    else:
        lines.append("Draw.")
    return "\n".join(lines + _issue_lines(result))


def contract_lines(result: dict[str, Any]) -> list[str]:
    """What the bidding settled, for a person."""
    contract = result["contract"]
    declarer = contract["declarer"]
    if declarer is None:
        return ["Contract: everybody passed."]
    what = "solo" if contract["solo"] else contract["bid"] or "no bid"
    lines = [f"Contract: {_seat_name(result, declarer)}, {what}, target {contract['target']}"]
    if contract["multiplier"] > 1:
        lines[0] += f" (stakes x{contract['multiplier']})"
    if contract["called"]:
        partner = contract["partner"]
        holder = "not shown yet" if partner is None else _seat_name(result, partner)
        lines.append(f"Called {contract['called']}: partner {holder}")
    if contract["talon"]:
        lines.append(
            f"Talon {' '.join(contract['talon'])}; discarded {' '.join(contract['discards']) or '-'}"
        )
    if contract["declared"] is not None:
        lines.append(f"The 40 declared by {_seat_name(result, contract['declared'])}")
    if contract["made"] is not None:
        verdict = "made" if contract["made"] else "lost"
        scores = ", ".join(f"{_seat_name(result, s)} {p:+d}" for s, p in enumerate(contract["scores"]))
        lines.append(f"Contract {verdict} with {contract['side_points']} points. Scores: {scores}")
    return lines


def _issue_lines(result: dict[str, Any]) -> list[str]:
    if result["valid"]:
        return ["Valid: yes."]
    where = "game" if result["format"] == MATCH_FORMAT else "event"
    return ["Valid: no."] + [f"  {where} {i['event']}: {i['code']}: {i['message']}" for i in result["issues"]]


def score_text(result: dict[str, Any]) -> str:
    """A game or match result for a person."""
    if result["format"] == GAME_FORMAT:
        return game_text(result)
    parts = [f"Game {k + 1}\n{game_text(game)}" for k, game in enumerate(result["games"])]
    standings = result["standings"]
    sides = ", ".join(
        f"{_side_name(result, side)} {won} games won, {points} points"
        for side, (won, points) in enumerate(zip(standings["games_won"], standings["points"], strict=True))
    )
    winner = " & ".join(
        dict.fromkeys(result["players"][s % len(result["players"])] for s in result["winners"])
    )
    winner = winner or ("draw" if result["complete"] else "not decided yet")
    parts.append(f"Match: {sides}. Winner: {winner}")
    parts.append("\n".join(_issue_lines(result)))
    return "\n\n".join(parts)
