"""The family object of each kind of auction, found by the rules' ``auction`` flag."""

from __future__ import annotations

from typing import Final

from companion.engine.families.chiamata import Chiamata
from companion.engine.families.family import BiddingFamily
from companion.engine.families.remate import Remate
from companion.engine.rules import Rules

FAMILIES: Final[dict[str, type[BiddingFamily]]] = {"chiamata": Chiamata, "remate": Remate}


def family_for(rules: Rules, first: int) -> BiddingFamily | None:
    """The family object for a deal under ``rules``; None for the games without bidding."""
    kind = FAMILIES.get(rules.auction)
    return kind(rules, first) if kind is not None else None
