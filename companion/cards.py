"""Spanish cards, decks, trick order and points.

A card is written rank then suit, ``1O`` .. ``12B``, in Spanish numbering
(10 sota, 11 caballo, 12 rey). Parsing is case-insensitive; ``str`` is canonical:

>>> Card.parse("12b")
Card(rank=<Rank.REY: 12>, suit=<Suit.BASTOS: 'B'>)
>>> str(Card.parse("1o"))
'1O'
>>> str(Card.parse("9c", italian=True))  # cavallo in Italian numbering
'11C'
>>> sum(card.points for card in deck(40))
120
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final

from companion.errors import MalformedInput


class Suit(Enum):
    """The four Spanish (and Italian) suits, by their letter."""

    OROS = "O"
    COPAS = "C"
    ESPADAS = "E"
    BASTOS = "B"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        """``"o"`` or ``"O"`` -> ``Suit.OROS``."""
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise MalformedInput(f"unknown suit {text!r}: expected one of O, C, E, B") from None


class Rank(IntEnum):
    """Ranks in Spanish numbering; 8 and 9 exist only in 48-card decks."""

    AS = 1
    DOS = 2
    TRES = 3
    CUATRO = 4
    CINCO = 5
    SEIS = 6
    SIETE = 7
    OCHO = 8
    NUEVE = 9
    SOTA = 10
    CABALLO = 11
    REY = 12


#: Strength in a trick, weakest first: 2 < 4 < ... < Sota < Caballo < Rey < 3 < As.
TRICK_ORDER: Final[tuple[Rank, ...]] = (
    Rank.DOS,
    Rank.CUATRO,
    Rank.CINCO,
    Rank.SEIS,
    Rank.SIETE,
    Rank.OCHO,
    Rank.NUEVE,
    Rank.SOTA,
    Rank.CABALLO,
    Rank.REY,
    Rank.TRES,
    Rank.AS,
)
_STRENGTH: Final[dict[Rank, int]] = {rank: i for i, rank in enumerate(TRICK_ORDER)}

#: Card points; every rank not listed is worth nothing.
POINTS: Final[dict[Rank, int]] = {
    Rank.AS: 11,
    Rank.TRES: 10,
    Rank.REY: 4,
    Rank.CABALLO: 3,
    Rank.SOTA: 2,
}

#: Italian numbering of the court cards (fante 8, cavallo 9, re 10) -> Spanish.
ITALIAN_RANKS: Final[dict[int, Rank]] = {8: Rank.SOTA, 9: Rank.CABALLO, 10: Rank.REY}

_CARD_RE: Final = re.compile(r"^\s*(1[0-2]|[1-9])\s*([OCEB])\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Card:
    """An immutable card; ``Card.parse(str(c)) == c`` for every card."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str, *, italian: bool = False) -> Card:
        """Parse ``"7O"``; with ``italian`` the courts are read as 8, 9, 10."""
        match = _CARD_RE.match(text) if isinstance(text, str) else None
        if match is None:
            raise MalformedInput(f"not a card: {text!r} (expected rank 1-12 and suit O/C/E/B, e.g. '7O')")
        number = int(match.group(1))
        if italian:
            if number in (11, 12):
                raise MalformedInput(f"not a card in Italian numbering: {text!r} (ranks 1-10)")
            rank = ITALIAN_RANKS.get(number, Rank(number))
        else:
            rank = Rank(number)
        return cls(rank, Suit.parse(match.group(2)))

    @property
    def points(self) -> int:
        return POINTS.get(self.rank, 0)

    @property
    def strength(self) -> int:
        """Position in :data:`TRICK_ORDER`; higher beats lower within a suit."""
        return _STRENGTH[self.rank]

    def __str__(self) -> str:
        return f"{int(self.rank)}{self.suit.value}"


@dataclass(frozen=True)
class UnknownCard:
    """A face-down or unread card: it stands in a place, its identity is not known."""

    def __str__(self) -> str:
        return "??"


UNKNOWN: Final = UnknownCard()

#: Ranks in each deck size. 36 drops the 2s (three players), 32 the 2s and 4s.
DECK_RANKS: Final[dict[int, tuple[Rank, ...]]] = {
    48: tuple(Rank),
    40: tuple(r for r in Rank if r not in (Rank.OCHO, Rank.NUEVE)),
    36: tuple(r for r in Rank if r not in (Rank.OCHO, Rank.NUEVE, Rank.DOS)),
    32: tuple(r for r in Rank if r not in (Rank.OCHO, Rank.NUEVE, Rank.DOS, Rank.CUATRO)),
}


def deck(size: int = 40) -> tuple[Card, ...]:
    """The cards of a deck of ``size`` (40, 36, 32 or 48), suit by suit, rank by rank."""
    try:
        ranks = DECK_RANKS[size]
    except KeyError:
        raise MalformedInput(f"no deck of {size} cards: sizes are 48, 40, 36 and 32") from None
    return tuple(Card(rank, suit) for suit in Suit for rank in ranks)


def beats(challenger: Card, holder: Card, trump: Suit | None) -> bool:
    """Whether ``challenger``, played after ``holder`` in a trick, takes it from ``holder``.

    A trump beats any non-trump; within a suit the stronger card wins; a card of
    another suit that is not trump never wins.
    """
    if challenger.suit == holder.suit:
        return challenger.strength > holder.strength
    return trump is not None and challenger.suit == trump


def trick_winner(cards: list[Card] | tuple[Card, ...], trump: Suit | None) -> int:
    """Index of the card that wins a trick whose first card was led."""
    if not cards:
        raise MalformedInput("an empty trick has no winner")
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best
