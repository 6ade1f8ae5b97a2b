"""Tracking: per-frame readings -> a stable table state.

A card counts as placed once it has been seen lying still for ``settle_s``, in ``min_sightings``
frames (seen at one spot twice, a second apart, is not enough: cards carried across the table pass
the same spots, so a card not yet placed that went unseen longer than ``settle_s`` is watched anew);
a hand passing over it (a few frames without it) does not remove it; a card lifted and put back
where it was keeps its identity number, and so does one seen again with another card over or under
it, read as another card but still given some weight; its identity fuses the identifier's
probabilities over the frames it was seen in (a mean at first, then a running mean that slowly
forgets, so a card replaced under a hand shows through). A new card remembers where the arm that
brought it crossed the table's edge (the arm seen lately whose tip came nearest it): the side of the
player who put it there, wherever on the table it lies. A card seen arriving on a pile (found when
the table lay still again) is a new card, placed at once (the pile lay still for it to be found; the
next player's card may cover it a moment later), and replaces the unplaced card seen moving near it,
unless that card was read surely as another (laid while a stream stalled, and not yet placed);
but a card placed while the piles still moved, never seen arriving, that is found arriving within
``jump_radius`` and read as itself is that card, nudged before the piles lay still again; and so
is one found arriving within ``jump_radius`` of a card placed a moment before (``reach_s``), brought
by the arm that brought that card, whatever it reads as: an arm brings one card, and the hand still
on it nudges it.
A card lying still does not jump: a reading over ``jump_radius`` from a placed card and surely
another card is a card brought there while that one went unseen, and starts a track of its own.
A card read surely as another ``switch_sightings`` frames in a row was replaced where it lies (a
card tossed right over it hides it whole), unless another face-up card is read over or under it
in those frames: it is only partly covered then, read from what shows of it, and still lies there;
or unless its readings gave that other card ``misread_share`` before: it was misread, and is read
better now.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from companion.cards import Card
from companion.pipeline.config import TrackConfig
from companion.vision.readings import Face, Reach, Reading, polygon_iou

#: Probability given to a card absent from a reading's alternatives.
FLOOR = 1e-3

#: A lost card read as another while another card lies over or under it is that card, put back
#: or uncovered, if the reading still gives it this much.
SHOWS_THROUGH = 0.05

#: The key under which a track fuses the probability its readings leave to cards they do not list.
UNLISTED = None


@dataclass(frozen=True)
class TableCard:
    """One card on the table as the tracker knows it at one moment."""

    id: int
    position: tuple[float, float]
    face: Face
    placed: bool
    still_since: float
    last_seen: float
    first_seen: float  # when it was first seen, while it still moved
    identity: tuple[tuple[Card, float], ...] = ()  # fused probabilities, most likely first; what they
    # leave short of 1 belongs to cards the identifier did not list
    brought_from: tuple[float, float] | None = None  # where the arm that brought it crossed the edge
    reached_over: tuple[float, tuple[float, float]] | None = None  # (when, where it crossed the edge):
    # the last arm whose tip came near it while it went unseen, since it was last seen

    @property
    def card(self) -> Card | None:
        return self.identity[0][0] if self.identity else None

    @property
    def confidence(self) -> float:
        return self.identity[0][1] if self.identity else 0.0

    def probability(self, card: Card) -> float:
        return next((p for c, p in self.identity if c == card), 0.0)


@dataclass(frozen=True)
class TableState:
    """What lies on the table at time ``t``."""

    t: float
    cards: tuple[TableCard, ...] = ()
    cleared: frozenset[int] = frozenset()  # the cards seen taken away now: their place seen bare

    def placed(self) -> tuple[TableCard, ...]:
        return tuple(card for card in self.cards if card.placed)


@dataclass
class _Track:
    id: int
    anchor: np.ndarray
    position: np.ndarray
    face: Face
    first_seen: float
    still_since: float
    last_seen: float
    placed: bool = False
    still_sightings: int = 0  # sightings since it came to rest at ``anchor``
    named: int = 0  # sightings that carried an identity
    scores: dict[Card | None, float] = field(default_factory=dict)  # running mean of log-probabilities
    switch_run: int = 0
    brought_from: tuple[float, float] | None = None
    arrived: bool = False  # seen arriving on a pile: the piles know it lies there
    reached_over: tuple[float, tuple[float, float]] | None = None

    def identity(self) -> tuple[tuple[Card, float], ...]:
        """The running geometric mean of the per-frame probabilities, normalised together with that
        of the cards the readings did not list (left out, so the listed ones may sum to less than 1)."""
        if not self.named:
            return ()
        top = max(self.scores.values())
        weights = {card: math.exp(score - top) for card, score in self.scores.items()}
        norm = sum(weights.values())
        ranked = sorted(weights.items(), key=lambda item: -item[1])
        return tuple((card, w / norm) for card, w in ranked if card is not UNLISTED)

    def rest_from(self, center: np.ndarray, t: float) -> None:
        """Start watching the card lie still at ``center`` from ``t``."""
        self.anchor, self.still_since, self.still_sightings = center, t, 0

    def absorb(self, reading: Reading, t: float, config: TrackConfig, named: bool = True) -> None:
        """Take in ``reading`` of this card at ``t``: where it lies and, ``named``, what it reads as (a
        card read from what shows of it beside another says only where it lies)."""
        center = np.asarray(reading.center, dtype=np.float64)
        moved = np.linalg.norm(center - self.anchor) > config.still_radius
        unseen = not self.placed and t - self.last_seen > config.settle_s  # seen again, watched anew
        if moved or unseen:
            self.rest_from(center, t)
        self.position, self.face, self.last_seen = center, reading.face, t
        self.reached_over = None
        self.still_sightings += 1
        if named and reading.alternatives:
            self.named += 1
            weight = max(1 / self.named, 1 / config.fusion_frames)  # a plain mean, then forgetting
            seen: dict[Card | None, float] = {c: math.log(max(p, FLOOR)) for c, p in reading.alternatives}
            seen[UNLISTED] = math.log(max(1.0 - sum(p for _, p in reading.alternatives), FLOOR))
            floor = math.log(FLOOR)
            # in the order first read: a set's differs from run to run, and of cards read as likely as
            # each other, the first listed ranks first (and may be the best the rules allow)
            for card in [*self.scores, *(card for card in seen if card not in self.scores)]:
                before = self.scores.get(card, floor)
                self.scores[card] = before + weight * (seen.get(card, floor) - before)
        settled = t - self.still_since >= config.settle_s
        if not self.placed and settled and self.still_sightings >= config.min_sightings:
            self.placed = True

    def contradicted_by(self, reading: Reading, config: TrackConfig) -> bool:
        """Whether ``reading`` is surely another card than the one this track surely is, and one its
        readings gave little (else it was misread before, not replaced now)."""
        identity = self.identity()
        if not identity or reading.card is None:
            return False
        (mine, p_mine), theirs = identity[0], reading.card
        return (
            p_mine >= config.switch_confidence
            and reading.confidence >= config.switch_confidence
            and (mine != theirs)
            and dict(identity).get(theirs, 0.0) < config.misread_share
        )

    def left_for(self, reading: Reading, config: TrackConfig) -> bool:
        """Whether ``reading``, over half a card's width from where this placed card lay and surely
        another card, is a card brought there while this one went unseen (a card lying still does not
        jump so far; a jolt of the camera moves it, but it is read as itself)."""
        if not self.placed or reading.card is None or reading.confidence < config.switch_confidence:
            return False
        if np.linalg.norm(np.asarray(reading.center) - self.position) <= config.jump_radius:
            return False
        identity = self.identity()  # ranked over every card seen: only for the rare sure jump
        return not identity or reading.card != identity[0][0]

    def found_again(
        self, reading: Reading, config: TrackConfig, covered: bool = False, held: bool = False
    ) -> bool:
        """Whether ``reading``, of a card seen arriving on a pile within ``jump_radius`` of this card and
        read as it, is this card: placed while the piles still moved, so never seen arriving, and
        nudged before they lay still again. (A card the piles know does not arrive again where it
        lies; one tossed over it may be read as it, from the part of it the crop takes in.) A
        reading ``covered`` by another card seen arriving with it is read from what shows of it:
        it is this card whatever it reads as; so is one ``held``: brought by the arm that brought
        this card (an arm brings one card: the hand still on it, nudging it)."""
        if self.placed and held:
            return True
        if not self.placed or self.arrived or (reading.card is None and not covered):
            return False
        if np.linalg.norm(np.asarray(reading.center) - self.position) > config.jump_radius:
            return False
        if covered:
            return True
        identity = self.identity()
        return bool(identity) and identity[0][0] == reading.card

    def snapshot(self) -> TableCard:
        return TableCard(
            id=self.id,
            position=(float(self.position[0]), float(self.position[1])),
            face=self.face,
            placed=self.placed,
            still_since=self.still_since,
            last_seen=self.last_seen,
            first_seen=self.first_seen,
            identity=self.identity(),
            brought_from=self.brought_from,
            reached_over=self.reached_over,
        )


def _overlapped(reading: Reading, readings: Sequence[Reading]) -> bool:
    """Whether another face-up card read in the same frame lies over or under ``reading``."""
    return any(
        other is not reading and other.face is Face.UP and polygon_iou(reading.corners, other.corners) > 0
        for other in readings
    )


def _under_arrived(reading: Reading, later: Sequence[Reading]) -> bool:
    """Whether a card seen arriving in the same frame and listed after ``reading`` (``later``: the
    cards found together come from the one underneath) lies over it."""
    return any(other.arrived and polygon_iou(reading.corners, other.corners) > 0 for other in later)


class Tracker:
    """Stateful stage: ``update(readings, t, reaches, cleared) -> TableState``; readings, the arms
    reaching in and the places seen bare, in table coordinates."""

    def __init__(self, config: TrackConfig | None = None) -> None:
        self.config = config or TrackConfig()
        self._tracks: list[_Track] = []
        self._lost: list[_Track] = []
        self._reaches: list[tuple[float, Reach]] = []
        self._next_id = 1

    def update(
        self,
        readings: Sequence[Reading],
        t: float,
        reaches: Sequence[Reach] = (),
        cleared: Sequence[tuple[float, float]] = (),
    ) -> TableState:
        config = self.config
        recent = [(seen, reach) for seen, reach in self._reaches if t - seen <= config.reach_s]
        self._reaches = recent + [(t, reach) for reach in reaches]
        moving = {i: self._supersede(reading) for i, reading in enumerate(readings) if reading.arrived}
        for i in self._match(readings, t):
            reading = readings[i]
            revived = None if reading.arrived else self._revive(reading, t, readings)
            self._tracks.append(revived or self._start(reading, t, moving.get(i)))
        for track in [tr for tr in self._tracks if t - tr.last_seen > config.absent_s]:
            self._tracks.remove(track)
            self._lost.append(track)
        self._lost = [tr for tr in self._lost if t - tr.last_seen <= config.revive_s]
        self._reached_over(reaches, t)
        taken = self._taken_from(cleared, t)
        return TableState(t=t, cards=tuple(track.snapshot() for track in self._tracks), cleared=taken)

    def _reached_over(self, reaches: Sequence[Reach], t: float) -> None:
        """Mark the placed cards unseen at ``t`` that an arm of this frame reaches over (its tip
        within ``reach_radius``) with the side it came from: the arm that takes a trick away."""
        if not reaches:
            return  # every frame: the cheap test first
        for track in self._tracks + self._lost:
            if not track.placed or track.last_seen >= t:
                continue
            near = [(float(np.linalg.norm(np.asarray(r.tip) - track.position)), r.edge) for r in reaches]
            distance, edge = min(near)
            if distance <= self.config.reach_radius:
                track.reached_over = (t, edge)

    def _taken_from(self, places: Sequence[tuple[float, float]], t: float) -> frozenset[int]:
        """The placed cards, not seen now, that lay nearest each of ``places`` (seen bare), within
        ``clear_radius``: taken away."""
        if not places:
            return frozenset()  # every frame: the cheap test first
        unseen = [track for track in self._tracks + self._lost if track.placed and track.last_seen < t]
        taken = set()
        for place in places:
            near = [(float(np.linalg.norm(track.position - place)), track.id) for track in unseen]
            distance, card = min(near, default=(math.inf, 0))
            if distance <= self.config.clear_radius:
                taken.add(card)
        return frozenset(taken)

    def forget(self, ids: Collection[int]) -> None:
        """Cards taken away for good (a collected trick): a card put there later is a new card."""
        self._tracks = [track for track in self._tracks if track.id not in ids]
        self._lost = [track for track in self._lost if track.id not in ids]

    def _supersede(self, arrived: Reading) -> float | None:
        """Drop the cards not yet placed near a card seen arriving: the same card, seen while it still
        moved (kept, such a track would take in the next reading near it, a card it lands over), unless
        surely another card (laid there while the stream stalled, and not yet seen lying long enough).
        Return when the nearest of them was first seen."""
        center = np.asarray(arrived.center)
        config = self.config
        same = [
            tr
            for tr in self._tracks
            if not tr.placed
            and np.linalg.norm(tr.position - center) <= config.match_radius
            and not tr.contradicted_by(arrived, config)
        ]
        dropped = {tr.id for tr in same}
        self._tracks = [tr for tr in self._tracks if tr.id not in dropped]
        nearest = min(same, key=lambda tr: float(np.linalg.norm(tr.position - center)), default=None)
        return None if nearest is None else nearest.first_seen

    def _match(self, readings: Sequence[Reading], t: float) -> list[int]:
        """Give each track its nearest reading (closest pairs first); return the indices of the rest."""
        config = self.config
        pairs = sorted(
            (float(np.linalg.norm(np.asarray(reading.center) - track.position)), i, j)
            for i, reading in enumerate(readings)
            for j, track in enumerate(self._tracks)
        )
        used_readings: set[int] = set()
        used_tracks: set[int] = set()
        for distance, i, j in pairs:
            if distance > config.match_radius:
                break
            track, reading = self._tracks[j], readings[i]
            if i in used_readings or j in used_tracks or track.left_for(reading, config):
                continue
            if reading.arrived:
                covered = _under_arrived(reading, readings[i + 1 :])
                if not track.found_again(reading, config, covered, self._held(track, reading, t)):
                    continue
            used_readings.add(i)
            used_tracks.add(j)
            if track.contradicted_by(reading, config):
                if _overlapped(reading, readings):
                    track.switch_run = 0  # read from what shows of it: not another card, lying there
                    track.absorb(reading, t, config, named=False)
                    continue
                track.switch_run += 1
                if track.switch_run >= config.switch_sightings:
                    self._tracks[j] = self._start(reading, t)  # the card was replaced in place
                continue
            track.switch_run = 0
            track.absorb(reading, t, config)
            track.arrived = track.arrived or reading.arrived
        return [i for i in range(len(readings)) if i not in used_readings]

    def _start(self, reading: Reading, t: float, seen_moving: float | None = None) -> _Track:
        """A new track for ``reading``; ``seen_moving``: when it was first seen while it moved."""
        center = np.asarray(reading.center, dtype=np.float64)
        track = _Track(
            id=self._next_id,
            anchor=center,
            position=center,
            face=reading.face,
            first_seen=t if seen_moving is None else seen_moving,
            still_since=t,
            last_seen=t,
            brought_from=self._brought_from(center),
            arrived=reading.arrived,
        )
        self._next_id += 1
        track.absorb(reading, t, self.config)
        track.placed = track.placed or reading.arrived  # the pile lay still for it to be found
        return track

    def _held(self, track: _Track, reading: Reading, t: float) -> bool:
        """Whether ``reading``, seen arriving within ``jump_radius`` of ``track``, first seen at most
        ``reach_s`` before, was brought by the arm that brought that card (crossing the table's edge
        within ``still_radius`` of where it did): the same card, the hand still on it. (Later, the
        same player's arm brings the next card it plays.)"""
        center = np.asarray(reading.center, dtype=np.float64)
        if track.brought_from is None or t - track.first_seen > self.config.reach_s:
            return False
        if np.linalg.norm(center - track.position) > self.config.jump_radius:
            return False
        arm = self._brought_from(center)
        return arm is not None and math.dist(arm, track.brought_from) <= self.config.still_radius

    def _brought_from(self, center: np.ndarray) -> tuple[float, float] | None:
        """Where the arm that brought a card to ``center`` crossed the table's edge, if one was seen."""
        near = [(float(np.linalg.norm(np.asarray(r.tip) - center)), r.edge) for _, r in self._reaches]
        distance, edge = min(near, default=(math.inf, None))
        return edge if distance <= self.config.reach_radius else None

    def _revive(self, reading: Reading, t: float, readings: Sequence[Reading]) -> _Track | None:
        """The recently lost card put back near where it was, if ``reading`` can be it: not surely
        another card, or, overlapped by another face-up card of the frame's ``readings``, read from
        what shows of it and still giving it :data:`SHOWS_THROUGH` (the card it is then read as says
        only where it lies)."""
        center = np.asarray(reading.center, dtype=np.float64)
        config = self.config
        candidates = []
        for track in self._lost:
            if np.linalg.norm(center - track.position) > config.match_radius or track.face != reading.face:
                continue
            if not track.contradicted_by(reading, config):
                candidates.append((track, True))
            elif (
                dict(reading.alternatives).get(track.identity()[0][0], 0.0) >= SHOWS_THROUGH
                and _overlapped(reading, readings)  # the costlier test last: rarely reached
            ):
                candidates.append((track, False))
        if not candidates:
            return None
        track, named = min(candidates, key=lambda pair: float(np.linalg.norm(center - pair[0].position)))
        self._lost.remove(track)
        track.placed = False
        track.rest_from(center, t)
        track.absorb(reading, t, config, named)
        return track
