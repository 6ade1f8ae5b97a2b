"""The Brisca rules engine: pure and event-sourced; a game is a function of (rules, event log).

Standard library only (plus :mod:`companion.cards` and :mod:`companion.errors`);
``jsonschema`` is loaded only to validate input records.
"""

from companion.engine.doubt import OpenResult, open_results, winner_open
from companion.engine.events import Event, event_from_dict
from companion.engine.game import Game
from companion.engine.match import MatchState, replay_match
from companion.engine.record import GameRecord, MatchRecord, MatchRules, load_record, record_from_dict
from companion.engine.replay import replay
from companion.engine.rules import PRESETS, Rules, rules_for
from companion.engine.scoring import score, score_text
from companion.engine.simulate import random_game, random_match
from companion.engine.state import GameState, Issue, Swap, Trick

__all__ = [
    "PRESETS",
    "Event",
    "Game",
    "GameRecord",
    "GameState",
    "Issue",
    "MatchRecord",
    "MatchRules",
    "MatchState",
    "OpenResult",
    "Rules",
    "Swap",
    "Trick",
    "event_from_dict",
    "load_record",
    "open_results",
    "random_game",
    "random_match",
    "record_from_dict",
    "replay",
    "replay_match",
    "rules_for",
    "score",
    "score_text",
    "winner_open",
]
