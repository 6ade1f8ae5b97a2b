"""Home tournaments: leagues, knockouts and Swiss rounds for players or pairs; pure logic, no I/O."""

from companion.tournament.model import FORMATS, Entrant, Pairing, Result, Tournament
from companion.tournament.rounds import (
    add_entrant,
    champion,
    finished,
    new_tournament,
    next_round,
    record_result,
    total_rounds,
    withdraw,
)
from companion.tournament.standings import Standing, standings

__all__ = [
    "FORMATS",
    "Entrant",
    "Pairing",
    "Result",
    "Standing",
    "Tournament",
    "add_entrant",
    "champion",
    "finished",
    "new_tournament",
    "next_round",
    "record_result",
    "standings",
    "total_rounds",
    "withdraw",
]
