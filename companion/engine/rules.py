"""The rules of a game: flat presets plus named options, found by name.

A :class:`Rules` is a frozen bag of flags; the replay and the simulator read the
flags, nothing subclasses it. ``rules_for("brisca-2")`` returns a preset,
``rules_for({"preset": "brisca-2", "options": {"follow_suit": True}})`` a
preset with options changed:

>>> rules_for("brisca-4").teams
((0, 2), (1, 3))
>>> rules_for({"preset": "brisca-2", "options": {"tie_break": "draw"}}).tie_break
'draw'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from companion.cards import DECK_RANKS, Suit
from companion.errors import MalformedInput, UnknownName

#: Allowed values of each option that is not a plain flag.
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "tie_break": ("last-trick", "more-cards", "draw"),
    "swap_until": ("drawn", "last-draw", "last-turn"),
    "goal": ("most", "fewest", "under-12"),
    "mano_negra": ("off", "first-trick", "any"),
    "auction": ("none", "chiamata", "remate"),
}


@dataclass(frozen=True)
class Rules:
    """Everything that decides how a game is played and scored.

    ``seats`` counts the hands at the table (playing order 0..seats-1);
    ``players`` counts the people: two players on a four-hand layout hold
    seats {0, 2} and {1, 3}. ``auction`` names a bidding family
    (:mod:`companion.engine.families`); ``talon`` counts the cards it deals face down.
    """

    name: str
    seats: int
    players: int
    deck: int
    hand_size: int = 3
    tie_break: str = "last-trick"
    swap_seven: bool = True
    swap_two: bool = True
    swap_until: str = "drawn"
    swap_needs_trick: bool = False
    swap_mid_trick: bool = False
    follow_suit: bool = False
    arrastre: bool = False
    claims: bool = False
    goal: str = "most"
    open_hands: bool = False
    mano_negra: str = "off"
    cazar_tres: bool = False
    virar: bool = False
    trump_suit: Suit | None = None
    must_beat: bool = False
    auction: str = "none"
    talon: int = 0
    buia: bool = False
    a_punti: bool = False

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides: partners opposite with 4 or 6 seats, else every seat alone."""
        if self.seats in (4, 6):
            return (tuple(range(0, self.seats, 2)), tuple(range(1, self.seats, 2)))
        return tuple((seat,) for seat in range(self.seats))

    @property
    def tricks(self) -> int:
        """Tricks in a full game."""
        return (self.deck - self.talon) // self.seats

    @property
    def draw_rounds(self) -> int:
        """Tricks after which every seat draws; the face-up card goes in the last."""
        return (self.deck - self.talon - self.seats * self.hand_size) // self.seats

    def side_of(self, seat: int) -> int:
        """Index in :attr:`teams` of the side ``seat`` plays for."""
        return seat % len(self.teams)

    def options(self) -> dict[str, Any]:
        """The options that differ from this preset's definition, JSON-ready."""
        base = PRESETS[self.name]
        return {
            f.name: _option_to_json(getattr(self, f.name))
            for f in fields(self)
            if f.name in OPTIONS and getattr(self, f.name) != getattr(base, f.name)
        }

    def to_spec(self) -> str | dict[str, Any]:
        """The ``rules`` value of a record: the preset name, or preset and options."""
        options = self.options()
        return {"preset": self.name, "options": options} if options else self.name


def _option_to_json(value: object) -> object:
    return str(value) if isinstance(value, Suit) else value


_BASE: Final = Rules(name="brisca-2", seats=2, players=2, deck=40)
#: The bidding families deal every card: no face-up trump card to swap.
_NO_SWAPS: Final = replace(_BASE, swap_seven=False, swap_two=False)

#: The registry of named presets.
PRESETS: Final[dict[str, Rules]] = {
    rules.name: rules
    for rules in (
        _BASE,
        replace(_BASE, name="brisca-3", seats=3, players=3, deck=36),
        replace(_BASE, name="brisca-4", seats=4, players=4),
        replace(_BASE, name="brisca-6", seats=6, players=6, deck=48),
        replace(_BASE, name="brisca-2x2", seats=4, players=2),
        replace(_BASE, name="brisca-al-reves", goal="fewest"),
        replace(_BASE, name="brisca-a-ciegas"),
        replace(_BASE, name="brisca-descubierta", open_hands=True),
        replace(_NO_SWAPS, name="chiamata-5", seats=5, players=5, hand_size=8, auction="chiamata"),
        replace(_BASE, name="chile-4", seats=4, players=4, hand_size=5, follow_suit=True, must_beat=True),
        replace(
            _NO_SWAPS,
            name="chile-remate-3",
            seats=3,
            players=3,
            deck=32,
            hand_size=10,
            talon=2,
            auction="remate",
        ),
    )
}

#: Options a record may set on top of a preset.
OPTIONS: Final[frozenset[str]] = frozenset(
    f.name
    for f in fields(Rules)
    if f.name not in ("name", "seats", "players", "hand_size", "auction", "talon")
)


def _parse_option(name: str, value: object) -> Any:
    if name not in OPTIONS:
        raise UnknownName(f"unknown rules option {name!r}: options are {', '.join(sorted(OPTIONS))}")
    if name == "deck":
        if value not in DECK_RANKS or isinstance(value, bool):
            raise MalformedInput(f"rules option deck={value!r}: sizes are 48, 40, 36 and 32")
        return value
    if name == "trump_suit":
        return None if value is None else Suit.parse(str(value))
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise MalformedInput(f"rules option {name}={value!r}: expected one of {', '.join(CHOICES[name])}")
        return value
    if not isinstance(value, bool):
        raise MalformedInput(f"rules option {name}={value!r}: expected true or false")
    return value


def rules_for(spec: str | Mapping[str, Any] | Rules) -> Rules:
    """The rules named by a record's ``rules`` value (a preset name, or preset and options)."""
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str):
        name, options = spec, {}
    elif isinstance(spec, Mapping) and isinstance(spec.get("preset"), str):
        name, options = spec["preset"], dict(spec.get("options") or {})
    else:
        raise MalformedInput(
            f"rules must be a preset name or {{'preset': ..., 'options': ...}}, not {spec!r}"
        )
    if name not in PRESETS:
        raise UnknownName(f"unknown rules preset {name!r}: presets are {', '.join(PRESETS)}")
    rules = replace(PRESETS[name], **{key: _parse_option(key, value) for key, value in options.items()})
    if (rules.deck - rules.talon - rules.seats * rules.hand_size) % rules.seats:
        raise MalformedInput(f"a {rules.deck}-card deck cannot be dealt evenly to {rules.seats} seats")
    if (rules.buia or rules.a_punti) and rules.auction != "chiamata":
        raise MalformedInput(f"buia and a_punti are options of chiamata-5, not of {rules.name}")
    if rules.auction != "none" and rules.trump_suit is not None:
        raise MalformedInput(f"in {rules.name} the trump suit is called: no trump_suit option")
    if rules.buia and rules.a_punti:
        raise MalformedInput("chiamata buia and chiamata a punti cannot be combined")
    return rules
