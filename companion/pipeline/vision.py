"""The pipeline's eyes: which cards a frame shows, from the learned detector, the table's
change-based proposer, or both, named by the identifier over the active deck (a card that lies
as it lay when it was read keeps its name: :mod:`companion.pipeline.naming`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final, NamedTuple

import cv2
import numpy as np

from companion.cards import Card
from companion.errors import MalformedInput, MissingResource
from companion.pipeline.config import RecogniseConfig
from companion.pipeline.lazy_detector import LazyDetector
from companion.pipeline.recognise import at_trump_spot, in_play
from companion.pipeline.runner import See
from companion.table.layers import far_from, nearest_gaps
from companion.table.profile import TableProfile
from companion.vision.readings import Face, Reading, Sight, polygon_iou

#: Where card proposals come from; ``auto`` is ``both`` when the detector is shipped, else ``changes``.
SOURCES: Final = ("auto", "detector", "changes", "both")


#: A detector box takes the place of an unsure proposal for the same card when the identifier is
#: this much surer of the box: the change proposer's quad, pieced from what changed on a pile, can
#: take in part of the card under it, while the detector boxes the card on top whole.
SURER_BY: Final = 0.2

#: How near, as a share of the matching distance, two centres must lie to be one card's.
ON_A_CARD: Final = 0.1

#: A detector box centred within this share of the matching distance of a card remembered on a
#: pile, and read at least ...
ON_TOP_DISTANCE: Final = 0.5
#: ... this sure as another card, and surer than the remembered outline, is a card tossed right
#: over it: the remembered outline, a few mm off the card on top, is read as the card under it (a
#: five of swords 6 mm off a seven of swords: the outline read as the seven at 0.98, the box as
#: the five at 1.00).
ON_TOP_SURE: Final = 0.95

#: A detector box is a card only where at least this share of it differs from the empty table:
#: now and then the detector boxes a motif of a patterned cloth (a cluster of printed flowers, read
#: as the seven of coins), where nothing came, and a hand bringing a card over it carries it into
#: the play area; a white card on a checked cloth's white differs over the dark squares, about half.
ON_CHANGE: Final = 0.2

#: A face-up card read farther than this from every card of the deck (:attr:`Reading.strangeness`)
#: is no card where it lies alone, away from the trump spot: a score pad set down by the play area,
#: which the change proposer cuts as a row of two cards and the identifier names surely, reads 650
#: to 920; a face-up card seen whole 50 to 150, but the trump card under the stock 300 to 1000, and
#: cards lying over each other, or under a hand, 550 to 950.
STRANGE: Final = 500.0

#: A reading that a face-up detector box overlaps by this much (IoU) is a card the detector found.
#: Real cards of an Italian deck no shipped deck draws, read with the nearest shipped deck, lying
#: whole on a real table, read up to 512 (``../shared/real/table-frames``); the detector boxes a
#: score pad as a card back, if at all.
FOUND_BY_DETECTOR: Final = 0.5


def joined(
    proposed: Sequence[Reading],
    detected: Sequence[Reading],
    min_distance: float,
    sure: float,
    lying: np.ndarray | None = None,
    piled: Sequence[bool] = (),
) -> list[Reading]:
    """Named proposals and detector boxes, one reading per card: a box centred within
    ``min_distance`` of a proposal is that card. It takes the proposal's place only when both are
    face up, and the proposal is read less than ``sure`` and the box :data:`SURER_BY` surer, or the
    box looks like a card of the deck and the proposal like none (:func:`_read_better`), or,
    where the proposal is a card remembered on a pile (``piled``, one flag per proposal), the box
    is a card tossed right over it (:func:`_on_top`); the proposal's word on whether the card
    just arrived is kept. Where the box is read surer as another card but not by that much, the
    proposal keeps its place and carries both readings (:func:`with_both_readings`). A box
    centred nearer a card known to lie on a pile (``lying``, its corners, image px) than any
    proposal is that card, the one under a new card, not the new card
    (:func:`other_known_cards`). The other boxes are added."""
    out = list(proposed)
    replaced: set[int] = set()
    centres = np.array([r.center for r in proposed], np.float64).reshape(-1, 2)
    margin = ON_A_CARD * min_distance
    others = other_known_cards(proposed, lying, margin)
    for box in detected:
        distances = np.linalg.norm(centres - np.asarray(box.center), axis=1)
        i = int(np.argmin(distances)) if len(distances) else -1
        if (
            i < 0
            or distances[i] > min_distance
            or nearest_gaps([box.center], others)[0] < distances[i] - margin
        ):
            out.append(box)
        elif i not in replaced and (
            _read_better(box, proposed[i], sure)
            or (i < len(piled) and piled[i] and _on_top(box, proposed[i], distances[i] / min_distance))
        ):
            out[i] = replace(box, arrived=proposed[i].arrived)
            replaced.add(i)
        elif i not in replaced and _read_otherwise(box, proposed[i]):
            out[i] = with_both_readings(proposed[i], box)
            replaced.add(i)
    return out


def other_known_cards(
    proposed: Sequence[Reading], lying: np.ndarray | None, apart: float
) -> list[tuple[float, float]]:
    """The centres of the cards known to lie on a pile (``lying``, their corners) farther than
    ``apart`` from every proposal's centre: a card found at this still moment lies on the pile
    already, where its proposal is."""
    quads = np.asarray(lying if lying is not None else np.empty((0, 4, 2)), np.float64).reshape(-1, 4, 2)
    known = [(float(x), float(y)) for x, y in quads.mean(axis=1)]
    return [known[i] for i in far_from(known, [r.center for r in proposed], apart)]


def with_both_readings(proposal: Reading, box: Reading) -> Reading:
    """``proposal`` named by the mean of its own and ``box``'s probabilities: two looks at one card
    that disagree (the proposer's quad, pieced from what changed on a pile, can take in part of
    the card under it), so the rules choose between them (a card already played is excluded)."""
    mixed: dict[Card, float] = {}
    for card, p in (*proposal.alternatives, *box.alternatives):
        mixed[card] = mixed.get(card, 0.0) + p / 2
    return proposal.named(sorted(mixed.items(), key=lambda item: -item[1]))


def _read_better(box: Reading, proposal: Reading, sure: float) -> bool:
    """Whether ``box`` reads much surer than an unsure ``proposal``, or looks like a card of the
    deck where the proposal looks like none (:data:`STRANGE`: the proposer's quad a little off the
    card, taking in the cloth beside it)."""
    surer = proposal.confidence < sure and box.confidence >= proposal.confidence + SURER_BY
    likelier = box.strangeness <= STRANGE < proposal.strangeness
    return _both_up(box, proposal) and (surer or likelier)


def _on_top(box: Reading, proposal: Reading, distance: float) -> bool:
    """Whether ``box``, centred ``distance`` (a share of the matching distance) from a card
    remembered there (not arriving now), reads surely another card, and surer than the remembered
    outline is read: a card tossed right over it, which the remembered outline, a few mm off, is
    read as the card under it (a box read less surely than the card it lies on, a two of coins
    boxed a little off and read as the three, is no card on top)."""
    surer = box.confidence >= ON_TOP_SURE and box.confidence > proposal.confidence
    near = distance <= ON_TOP_DISTANCE and not proposal.arrived
    return _both_up(box, proposal) and near and box.card != proposal.card and surer


def _read_otherwise(box: Reading, proposal: Reading) -> bool:
    surer = box.card != proposal.card and box.confidence > proposal.confidence
    return _both_up(box, proposal) and surer


def _both_up(box: Reading, proposal: Reading) -> bool:
    return box.face is Face.UP and proposal.face is Face.UP


def off_piles(readings: Sequence[Reading], lying: np.ndarray) -> list[Reading]:
    """``readings`` without those whose centre lies on a card known to lie on a pile (``lying``,
    its corners, image px): such a box is that card, partly covered by the cards over it (the
    detector may box a half-covered card twice, each box off its centre), or a pile of them; the
    change proposer finds a card arriving there from what changed."""
    quads = [np.asarray(quad, np.float32).reshape(-1, 1, 2) for quad in lying]
    return [r for r in readings if not any(_inside(quad, r.center) for quad in quads)]


def _inside(quad: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(quad, (float(point[0]), float(point[1])), False) >= 0


def on_change(
    readings: Sequence[Reading],
    differs: Callable[[np.ndarray], float],
    profile: TableProfile,
    config: RecogniseConfig,
) -> list[Reading]:
    """``readings`` less those of which less than :data:`ON_CHANGE` ``differs`` from the empty
    table, but at the trump spot, where the stock and the trump card may lie from the first frame."""
    return [
        reading
        for reading in readings
        if differs(reading.corners) >= ON_CHANGE
        or at_trump_spot(profile, profile.to_table(reading.center)[0], config.trump_margin)
    ]


def like_cards(
    readings: Sequence[Reading], found: Sequence[Reading], profile: TableProfile, config: RecogniseConfig
) -> list[Reading]:
    """``readings`` less the face-up ones that look like no card of the deck (:data:`STRANGE`) and
    lie alone: those another face-up reading overlaps (cards lying over each other), those at the
    trump spot (the trump card under the stock) and those the detector found face up among
    ``found`` (:data:`FOUND_BY_DETECTOR`: it finds cards whatever their artwork, and a real deck
    of an artwork unlike the active deck's reads strange too) stay."""
    up = [r for r in readings if r.face is Face.UP]
    boxes = [box for box in found if box.face is Face.UP]
    return [
        reading
        for reading in readings
        if reading.face is not Face.UP
        or reading.strangeness <= STRANGE
        or any(other is not reading and polygon_iou(reading.corners, other.corners) > 0 for other in up)
        or any(polygon_iou(reading.corners, box.corners) >= FOUND_BY_DETECTOR for box in boxes)
        or at_trump_spot(profile, profile.to_table(reading.center)[0], config.trump_margin)
    ]


def by_zone(readings: Sequence[Reading], profile: TableProfile, config: RecogniseConfig) -> list[Reading]:
    """Change proposals made sense of by where they lie: in the play area cards lie face up (paper
    colour alone, cream or aged, is a poor hint), and so does the trump card partly under the
    stock, its quad completed under the stock, so the identifier sees the whole card; a card that
    shows whole at the trump spot, the stock itself, keeps the face its colour tells (taken for a
    face-up card over the trump card, it would keep a card replaced there from being seen)."""
    out = []
    for reading in readings:
        centre = profile.to_table(reading.center)[0]
        played = in_play(profile, centre, config.play_margin)
        trump = at_trump_spot(profile, centre, config.trump_margin)
        if trump and (not played or _across_stock(reading, profile)):
            completed = completed_under_stock(reading, profile)
            out.append(reading if completed is reading else replace(completed, face=Face.UP))
        elif played:
            out.append(replace(reading, face=Face.UP))
        else:
            out.append(reading)
    return out


def on_piles(reading: Reading, profile: TableProfile, config: RecogniseConfig) -> bool:
    """Whether a card lies where cards are played (the play area and its margin), not at the trump
    spot: only there may a card be tossed over it (the trump card under the stock, read from the
    end that shows, may be read as another card)."""
    centre = profile.to_table(reading.center)[0]
    return in_play(profile, centre, config.play_margin) and not at_trump_spot(
        profile, centre, config.trump_margin
    )


def _across_stock(reading: Reading, profile: TableProfile) -> bool:
    """Whether the stock lies across the card, as across the trump card: its centre within the
    strip the card's width sweeps along its length. Where the play area's margin reaches the trump
    spot, a card played there rarely points its length at the stock."""
    centre, axis, _ = _long_axis(profile.to_table(reading.corners))
    off = profile.layout.stock - centre
    return abs(float(axis[0] * off[1] - axis[1] * off[0])) <= min(profile.card_mm) / 2


def _long_axis(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """A card quad's centre, the unit vector along its longer sides and their mean length (mm)."""
    edges = np.roll(quad, -1, axis=0) - quad
    lengths = np.linalg.norm(edges, axis=1)
    along = int(np.argmax(lengths[:2]))
    return quad.mean(axis=0), edges[along] / lengths[along], float(lengths[along] + lengths[along + 2]) / 2


def completed_under_stock(reading: Reading, profile: TableProfile) -> Reading:
    """A card seen shorter than a card (the trump, partly under the stock) lengthened towards the stock."""
    quad = profile.to_table(reading.corners)
    centre, axis, long_side = _long_axis(quad)
    missing = max(profile.card_mm) - long_side
    if missing <= 0:
        return reading
    towards = axis if float(np.dot(profile.layout.stock - centre, axis)) > 0 else -axis
    near = (quad - centre) @ towards > 0
    quad[near] += towards * missing
    return replace(reading, corners=profile.to_image(quad))


def where_cards_count(profile: TableProfile, zones: RecogniseConfig) -> tuple[int, int, int, int]:
    """The part of the profile's frames (x0, y0, x1, y1, image px) that holds every card whose
    centre lies where a card counts: in the play area or at the trump spot, with their margins."""
    reach = max(profile.card_mm) / 2  # a card whose centre lies on a zone's edge sticks out by this
    turn = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    radius = profile.layout.play_radius + zones.play_margin + reach
    play = profile.layout.play_center + radius * np.stack([np.cos(turn), np.sin(turn)], 1)
    half = profile.stock_half_mm + zones.trump_margin + reach
    stock = profile.layout.stock + half * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    corners = profile.to_image(np.concatenate([play, stock]))
    (x0, y0), (x1, y1) = np.floor(corners.min(axis=0)), np.ceil(corners.max(axis=0))
    width, height = profile.image_size
    return max(0, int(x0)), max(0, int(y0)), min(width, int(x1) + 1), min(height, int(y1) + 1)


class Vision(NamedTuple):
    """The pipeline's eyes: ``see(frame)``, the source of card proposals used, and the detector
    (None when the proposer runs alone), which counts the frames it looked at."""

    see: See
    source: str
    detector: LazyDetector | None


def make_see(
    source: str,
    deck: str,
    profile: TableProfile,
    empty_table: np.ndarray | None = None,
    zones: RecogniseConfig | None = None,
) -> Vision:
    """Vision for the pipeline: frame -> what it shows (named readings and, where the change-based
    proposer runs, the arms reaching in; image px), the source used and the detector.

    ``detector`` uses the learned detector; ``changes`` the difference with the empty
    table (``empty_table``, or the first frame seen); ``both`` joins them (:func:`joined`: where
    both found a card, the proposer's quad, unless it is read unsure and the detector's box much
    surer; named by both where the box is read surer as another card), the other detector boxes
    on cards known to lie on a pile left out (:func:`off_piles`), and those where next to nothing
    differs from the empty table (:func:`on_change`); the detector's face-up boxes
    also tell the proposer which cards explain what changed on a pile (a card tossed over another
    card's white). The detector looks only where a card counts (:func:`where_cards_count`), given
    the size of a card at the table's middle (a camera that sees the table large costs no more),
    and looks again only when that part of the frame changed (:class:`LazyDetector`).
    """
    if source not in SOURCES:
        raise MalformedInput(f"unknown vision source {source!r}: expected one of {', '.join(SOURCES)}")
    from companion.pipeline.naming import StillCardNamer
    from companion.table.proposer import ChangeProposer, ProposerConfig
    from companion.vision.decks import load_deck
    from companion.vision.identifier import Identifier
    from companion.vision.reader import CardDetector, load_detector

    zones = zones or RecogniseConfig()
    namer = StillCardNamer(Identifier.from_file(), load_deck(deck))
    detector: CardDetector | None = None
    if source != "changes":
        try:
            detector = load_detector()
        except MissingResource:
            if source != "auto":
                raise
    if source == "auto":
        source = "both" if detector is not None else "changes"
    piles = ProposerConfig(pile_margin_mm=zones.play_margin)  # piles lie where cards count as played
    proposer = ChangeProposer(profile, empty_table, piles) if source != "detector" else None
    middle = np.asarray(profile.size_mm) / 2
    ends = profile.to_image(np.array([middle, middle + np.array([min(profile.card_mm), 0.0])]))
    card_px = float(np.linalg.norm(ends[1] - ends[0]))

    lazy = (
        LazyDetector(detector, where_cards_count(profile, zones), card_px) if detector is not None else None
    )

    def see(frame: np.ndarray) -> Sight:
        found = lazy.detect(frame) if lazy is not None else []
        if proposer is None:
            return Sight(tuple(namer.name(frame, found)), ())
        changes = proposer.look(frame, [box.corners for box in found if box.face is Face.UP])
        proposed = by_zone(changes.readings, profile, zones)
        named = namer.name(frame, [*proposed, *found])
        lying = proposer.lying()
        piled = [on_piles(reading, profile, zones) for reading in proposed] if found else []
        both = joined(named[: len(proposed)], named[len(proposed) :], 0.5 * card_px, zones.sure, lying, piled)
        boxes = on_change(off_piles(both[len(proposed) :], lying), proposer.differs, profile, zones)
        cards = like_cards([*both[: len(proposed)], *boxes], found, profile, zones)
        return Sight(tuple(cards), changes.reaches, changes.cleared)

    return Vision(see, source, lazy)
