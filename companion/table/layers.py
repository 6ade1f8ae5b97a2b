"""Cards tossed onto other cards, found from what changed between two moments the table lay still.

When a card lands over cards already there, the change from the empty table is one blob of
overlapping cards that no card outline fits. Between the table lying still before the card came
and lying still after it, though, only that card changed: the difference has one card's outline
(less the white where it lies on another card's white: its pieces are joined, and their convex
hull fills the card again; when two cards came before the table lay still again, the blob is
searched card by card; a thin tail that no card explains, such as the edge of a shadow that moved
over a checked cloth beside the card, is opened away). Cards are fitted only where the table also
differs from the empty table: a trick taken away while the next card was led, before the table lay
still again (a phone's stream stalled over both), left bare cloth where it lay, and the card led is
fitted alone. Where a court card lands on other cards' white, only its figure changed: a card
found there by other means (a detector) that takes in the figure gives its outline (seen in any
frame while the table lay still: a detector may lose a white card on white a frame later). Each
card so found is kept as a layer of the pile and proposed while the table still shows a card there
and it looks as it did at the last still moment; a layer whose place changed at a later still
moment (the card taken away), or a third of which the cards found after it cover, is no longer
proposed.

The table lies still, for its piles, when nothing moves where piles lie (the play area and a
margin around it; each frame smoothed first, so a camera's grain is no motion) and no arm reaches
there: a player drawing from the stock, which takes a while after each trick, does not hold the
piles back, nor is the stock taken for one; nor does a score pad or a phone set down at the
table's edge and reaching there, once it has lain still a while (it came in over the edge as an arm
does). Nor does a jolt of the camera (someone bumps the
table): where the whole picture moved together by a few pixels, and nothing else did, nothing
moved; what changed since the last still moment is then measured against that moment's picture
moved likewise, where that explains more. Pictures of different moments are compared in the same
light (:func:`companion.table.light.in_one_light`): a lamp switched on, or the camera's exposure
following it, moves no card. Nor does a card's fine print seen a pixel off (the camera's grain, its
video compression): what a shift of a pixel explains is no change between two still moments
(:func:`companion.table.proposer.steady_distance`), or the figure of a card under the one tossed
would be joined to it.

Every card found lying when the table lay still (a layer, or a card seen whole where piles lie)
is remembered until its place changes or nothing lies there: a card pieced together from a blob
near one is that card, already known (seen again when the cards over it are moved or it shows
partly), not a new one; nor is a card found at a still moment over much of where a card was known,
where that card's picture is found nearby: that card, nudged or straightened by a player, lying
where its picture is (what the nudge changed takes in where it lay too). A card seen whole and
still where piles lie lies there even while an arm still moves elsewhere (the next player reaching
in): it is remembered, and its place taken into the last still moment, so that a card tossed onto
it before the table lies still is told from it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from companion.table.light import in_light_of, in_one_light
from companion.vision.readings import polygon_iou

#: Frames in a row the table must lie still (no arm, next to nothing moving) to count as settled.
SETTLE_FRAMES = 3
#: Moving pixels, as a share of a card's area, below which a frame lies still.
STILL_SHARE = 0.05
#: Frames in a row a pixel must lie under what comes in over the table's edge to be part of a thing
#: set down there, a score pad or a phone, and of no arm: a hand hovers over the piles far shorter.
THING_FRAMES = 30
#: The box (px) each frame is smoothed over before it is compared with the last for motion.
SMOOTH = (5, 5)
#: A layer is dropped when this share of it changed between two still moments.
GONE_SHARE = 0.25
#: A layer is no longer proposed when the cards found after it cover this share of it: its crop
#: would show their pips where its own were (a six of coins a third covered read as the seven).
HIDDEN_SHARE = 0.3
#: A layer is proposed only while this share of it differs from the empty table (a card lies there;
#: on a checked cloth a white card's white over white squares does not differ, about half of it does).
PRESENT_SHARE = 0.4
#: Where a card lands on another card's white, only its pips and the figures it covers differ: the
#: pieces of what changed closer than this share of a card's short side are one card's.
JOIN_GAP = 0.5
#: A blob of what changed between two still moments that no card fits may be a card with a thin
#: tail of something else beside it (the edge of a shadow that moved, on a dark square of a checked
#: cloth): opened with a disc of this share of a card's short side, the tail is gone.
TAIL_WIDTH = 0.3
#: A card seen whole whose centre lies within this share of a card's short side of a card known
#: to lie there is that card.
SAME_CARD = 0.25
#: A card seen whole whose centre moved less than this share of a card's short side since the last
#: frame has not moved.
STILL_CARD = 0.1
#: The smallest and largest shift of the whole picture (px of the rectified table) taken for the
#: camera jolted; phase correlation's estimate of a smaller one is mostly its own error.
MIN_JOLT, MAX_JOLT = 0.25, 6
#: Laid back by the jolt, what still differs beyond the piles is less than this share of what
#: differed there before (a tilted camera's far side moved more than the piles), or else the rest of
#: the table did not move with the piles: a card slid.
JOLT_LEFT = 0.5
#: A card found between two still moments that overlaps a card known to lie there by this much
#: (intersection over union) ...
NUDGED = 0.75
#: ... and looks like it (:func:`alike`, at least this) is that card, nudged (a player straightening
#: it), not a card arriving: in the tests, a court card tossed right over a low card scores 0.3, a
#: court card straightened 7 mm and 4 degrees 0.95.
ALIKE = 0.8
#: Pixels inside a card's outline its picture is taken from, to be looked for in another card's
#: picture taken this many pixels wider all round (a card fitted to what changed may be a little off).
LOOK_INSET, LOOK_PAD = 6, 4
#: A card found between two still moments that overlaps a card known to lie there by this much
#: (intersection over union), where that card is found by its picture, is that card, nudged ...
NUDGE_OVERLAP = 0.4
#: ... when it is found within this share of a card's short side of where it lay, turned by one of
#: these angles (degrees), looking as it did (:data:`ALIKE`) and this much more alike than where it
#: lay (normalised correlation). It lies there: a card fitted to what the nudge changed may take in
#: where it lay too, and its crop cut off one end of the card (a seven of cups so cut was read as
#: the nine at 0.98).
NUDGE_REACH, NUDGE_TURNS, NUDGE_GAIN = 0.3, (-6.0, -3.0, 0.0, 3.0, 6.0), 0.05
#: A card known to lie there, no longer there at a still moment, was seen taken away (its place
#: seen bare) where at least this share of it lies clear of the cards lying then ...
CLEAR_SHARE = 0.3
#: ... and less than this share of that part differs from the empty table: bare cloth. A card there
#: differs over :data:`PRESENT_SHARE` of it or more, a white card on white checks too.
BARE_SHARE = 0.1
#: Pixels around a card lying still taken in with it (its shadow and edge).
CARD_MARGIN = 3
#: What changed between two still moments and no card found there explains, in a piece (where no
#: card was found, its parts closer than ``JOIN_GAP`` joined: the print of a white card landing on
#: white) at least this share of a card's area, is a card that landed over another card's white as
#: the one before it landed, or half over it (two cards came while the table moved: a card's
#: rectangle fitted to what both changed leaves a fifth of a card or more of the other); a card
#: found there by other means (a detector's box) that takes in ...
LEFT_SHARE = 0.2
#: ... this share of the piece ...
LEFT_COVER = 0.6
#: ... and lies this much on what changed (its pieces joined: a white card landing 16 mm off
#: another white card on a finely checked cloth changes its print and the dark squares it covers
#: beside the card under it, about half of it; an eight of swords landing wholly on white changes
#: only its blades, under two fifths of it), is that card.
LEFT_ON = 0.35
#: A card seen by other means that takes in this share of what changed where a new card was fitted,
#: while overlapping that card's rectangle by less than ...
TAKEN_IN = 0.9
#: ... this (intersection over union), and centred within this share of a card's short side of it,
#: is that card: where a card lands on other cards' white, what changed may be only its picture,
#: whose hull no card's outline fits well (a box centred farther off is another card, under it).
SAME_OUTLINE, NEAR_OUTLINE = 0.7, 0.3
#: ... provided each of its sides is within this share of a card's: a loose box, too wide for its
#: length, takes in a card and part of the card under it, and outlines neither.
CARD_SHAPED = 0.15
#: Where two cards found together overlap, the outline of one is looked at from this many pixels
#: inside the other's edge (that edge itself shows whichever card lies on top).
EDGE_INSET = 3
#: A card's margin is looked at this many pixels inside its outline: where two cards found together
#: overlap, the margin of the card on top runs on inside the other, alike, and that of the card under
#: it shows the other's print; ...
MARGIN_INSET = 2
#: ... its median colour there and elsewhere differing by this much more (largest channel) tells
#: the card under it, before the edges do (the print of the card on top, crossed by the outline of
#: the card under it, shows edges too).
MARGIN_UNLIKE = 15


@dataclass(frozen=True)
class Layer:
    """A card found by what changed between two still moments: its rectangle on the rectified table."""

    center: tuple[float, float]
    size: tuple[float, float]
    angle: float

    def corners(self) -> np.ndarray:
        return cv2.boxPoints((self.center, self.size, self.angle))

    def inset(self, px: float) -> Layer:
        """The rectangle ``px`` inside this one's outline."""
        width, height = self.size
        return Layer(self.center, (width - 2 * px, height - 2 * px), self.angle)


def share_inside(mask: np.ndarray, corners: np.ndarray) -> float:
    """The share of the quad ``corners`` (mask px) that ``mask`` (0/255) covers."""
    region = filled(mask.shape, [corners])
    area = np.count_nonzero(region)
    return float(np.count_nonzero(mask & region)) / area if area else 0.0


class PileLayers:
    """Remembers the cards found between still moments of the table (rectified table px).

    ``card`` is a card's size (px); ``area`` the mask (0/255) of where piles lie; ``changes(a, b,
    steady)`` the proposer's mask (0/255) of what differs between two rectified frames (``steady``:
    less what a shift of a pixel explains, for the cards that came between two still moments);
    ``cards_of(contour)`` the card rectangles that fit a blob (one card, or the cards of a blob of
    several, when two came before the table lay still again).
    """

    def __init__(
        self,
        settled: np.ndarray,
        card: tuple[float, float],
        area: np.ndarray,
        changes: Callable[[np.ndarray, np.ndarray, bool], np.ndarray],
        cards_of: Callable[[np.ndarray], list[Layer]],
    ) -> None:
        self._settled = settled
        self._previous = cv2.blur(settled, SMOOTH)
        self._still_frames = SETTLE_FRAMES  # the empty table is the first still moment
        self._card_area = card[0] * card[1]
        self._short, self._long = sorted(card)
        self._same = SAME_CARD * self._short  # cards seen closer than this are one
        self._area = area
        self._beyond = np.zeros_like(area)  # the table beyond the piles, less the band a jolt shifts in
        self._beyond[MAX_JOLT:-MAX_JOLT, MAX_JOLT:-MAX_JOLT] = 255
        self._beyond &= ~area
        self._changes, self._cards_of = changes, cards_of
        self.layers: list[Layer] = []
        self.lying: list[Layer] = []  # every card found lying at the last still moment
        self.arrived: list[Layer] = []  # the layers found in this frame, the table having just settled
        self.cleared: list[Layer] = []  # the cards seen taken away in this frame, their place bare
        self._whole_for: list[tuple[Layer, int]] = []  # cards seen whole now, and for how many frames
        self._recent: deque[np.ndarray] = deque(maxlen=SETTLE_FRAMES)  # the last frames, latest last
        self._seen_still: deque[Sequence[Layer]] = deque(maxlen=SETTLE_FRAMES)  # by other means, while still
        self._under_arms = np.zeros(area.shape, np.uint8)  # per pixel, frames in a row under an arm
        self._in_area = area > 0

    def update(
        self,
        table: np.ndarray,
        changed: np.ndarray,
        arms: Sequence[np.ndarray] = (),
        whole: Sequence[Layer] = (),
        seen: Sequence[Layer] = (),
    ) -> None:
        """Watch one rectified frame, ``changed`` its difference from the empty table; ``arms`` the
        contours of the arms reaching in, ``whole`` the cards whose outline it shows whole, ``seen``
        the cards found in it by other means (a detector), to explain what the change alone does not
        (with those of the frames before it while the table lay still: a detector may lose one)."""
        smooth = cv2.blur(table, SMOOTH)  # a noisy picture's grain is no motion
        armed = self._armed(arms)
        still = not armed and self._lies_still(self._previous, smooth)
        self._previous = smooth
        self._still_frames = self._still_frames + 1 if still else 0
        if still:
            self._seen_still.append(seen)
        else:
            self._seen_still.clear()
        self.arrived, self.cleared = [], []
        if self._still_frames == SETTLE_FRAMES:
            self._settle(table, changed, whole, self._seen_lately())
        self._watch_whole(table, changed, whole)

    def _seen_lately(self) -> list[Layer]:
        """The cards seen by other means in the frames the table has lain still, the latest first: a
        detector may lose a card it saw a frame before (a white card on white), and nothing has moved
        since. A card seen near one seen later is that card."""
        cards: list[Layer] = []
        for seen in reversed(self._seen_still):
            new = far_from([card.center for card in seen], [card.center for card in cards], self._same)
            cards += [seen[i] for i in new]
        return cards

    def _armed(self, arms: Sequence[np.ndarray]) -> bool:
        """Whether an arm reaches where piles lie: something that came in over the table's edge covers
        :data:`STILL_SHARE` of a card there, less the pixels it has covered :data:`THING_FRAMES`
        frames in a row (a score pad set down at the edge and reaching the piles would hold them
        back for good, and the cards of a trick taken away would be remembered)."""
        if not arms:
            self._under_arms.fill(0)
            return False
        under = filled(self._area.shape, [], arms) > 0
        self._under_arms = np.where(under, np.minimum(self._under_arms, THING_FRAMES - 1) + 1, 0).astype(
            np.uint8
        )
        arm = under & (self._under_arms < THING_FRAMES) & self._in_area
        return np.count_nonzero(arm) >= STILL_SHARE * self._card_area  # not the thing's edge flickering

    def things(self) -> np.ndarray:
        """The mask (0/255) of what came in over the table's edge and has lain there
        :data:`THING_FRAMES` frames in a row, up to the last frame watched: a score pad, a phone."""
        return cv2.compare(self._under_arms, THING_FRAMES, cv2.CMP_GE)

    def _lies_still(self, before: np.ndarray, now: np.ndarray) -> bool:
        """Whether next to nothing moved where piles lie between two smoothed frames, or nothing at
        all but the whole picture, shifted a few pixels (the camera jolted: someone bumped the table;
        a card sliding on a plain cloth is no jolt, the rest of the table did not move with it). The
        picture laid back by one shift is off by up to a pixel across a tilted camera's view (its
        far side moved more millimetres), and what that explains is no motion
        (:func:`~companion.table.proposer.steady_distance`); a steep camera's far side is further
        off, and there the shift need only explain most of what moved (:data:`JOLT_LEFT`)."""
        limit = STILL_SHARE * self._card_area
        before, now = in_one_light(before, now)
        moving = self._changes(before, now, False)
        if np.count_nonzero(moving & self._area) < limit:
            return True
        moved = aligned(before, now)
        if moved is before:
            return False
        left = self._changes(moved, now, True)
        if np.count_nonzero(left & self._area) >= limit:
            return False
        beyond = np.count_nonzero(left & self._beyond)
        return beyond < limit or beyond < JOLT_LEFT * np.count_nonzero(moving & self._beyond)

    def _since_settled(self, table: np.ndarray) -> np.ndarray:
        """What changed where piles lie since the table last lay still: against the picture then, or,
        where that explains more, against it moved by a jolt of the camera since."""
        settled, table = in_one_light(self._settled, table)
        plain = self._changes(settled, table, True) & self._area
        shifted = aligned(settled, table)
        if shifted is settled:  # no jolt since
            return plain
        moved = self._changes(shifted, table, True) & self._area
        return moved if np.count_nonzero(moved) < np.count_nonzero(plain) else plain

    def forget_near(self, centres: Sequence[tuple[float, float]], distance: float) -> None:
        """Stop proposing the layers within ``distance`` of a card seen whole now: that card is what
        lies there."""
        self.layers = [
            self.layers[i] for i in far_from([layer.center for layer in self.layers], centres, distance)
        ]

    def present(self, table: np.ndarray, changed: np.ndarray) -> list[Layer]:
        """The layers where ``changed`` (the rectified ``table``'s difference from the empty table)
        still shows a card, and that look as they did when the table last lay still: an arm or a
        card passing over a pile would be read as its cards."""
        if not self.layers:
            return []
        since = self._changes(*in_one_light(self._settled, table), False)
        return [
            layer
            for layer in self.layers
            if share_inside(changed, layer.corners()) >= PRESENT_SHARE
            and share_inside(since, layer.corners()) < GONE_SHARE
        ]

    def _settle(
        self, table: np.ndarray, changed: np.ndarray, whole: Sequence[Layer], seen: Sequence[Layer]
    ) -> None:
        """The table lies still again: the cards that came since it last did (and lie there now)
        become layers, with the cards ``seen`` by other means that explain what they leave changed
        (:meth:`_left_explained`); the cards whose place changed otherwise, or where nothing lies,
        are forgotten, and the layers they mostly cover no longer proposed; the cards seen ``whole``
        are remembered. New cards are kept from the one underneath to the one on top; one lying where
        a card was known and looking like it (:data:`NUDGED`) is that card, moved, and has not arrived.
        A card known to lie there whose place, clear of the cards lying now (the new ones, and those
        seen whole while an arm still moved), is bare cloth was taken away (:func:`_bare`)."""
        difference = self._since_settled(table)
        before, self._settled = self._settled, table

        def lies(layer: Layer) -> bool:  # a card lies there: enough of it differs from the empty table
            return share_inside(changed, layer.corners()) >= PRESENT_SHARE

        came = difference & changed  # what changed and differs from the empty table: no card taken away
        joined = self._joined(came)
        fitted = self._cards_in(came, joined)
        unknown = self._unknown(seen, difference & ~filled(difference.shape, [c.corners() for c in fitted]))
        new = [self._outlined(layer, difference, unknown) for layer in fitted]
        new = [layer for layer in new if lies(layer)]
        new += [layer for layer in self._left_explained(difference, joined, new, unknown) if lies(layer)]
        new = bottom_first(table, new)
        nudges = self._nudges(before, table, new)
        new = [nudges.get(layer, (layer, layer))[1] for layer in new]
        straightened = [now for _, now in nudges.values()]
        replaced = [old for old, _ in nudges.values()]
        under_new = filled(
            difference.shape, [layer.corners() for layer in new]
        )  # a new card over an old one does not move it
        stayed = [
            layer
            for layer in self.lying
            if layer not in replaced
            and share_inside(difference & ~under_new, layer.corners()) < GONE_SHARE
            and share_inside(changed, layer.corners()) >= PRESENT_SHARE
        ]
        self.layers = [
            layer
            for layer in self.layers
            if layer in stayed and share_inside(under_new, layer.corners()) < HIDDEN_SHARE
        ] + new
        known = [layer.center for layer in stayed + new]
        inside = self._inside([card.center for card in whole])
        piled = [card for card, piles in zip(whole, inside, strict=True) if piles]
        apart = [piled[i] for i in far_from([card.center for card in piled], known, self._same)]
        lying = stayed + new + apart
        covered = filled(difference.shape, [layer.corners() for layer in lying])
        self.cleared = [
            layer
            for layer in self.lying
            if layer not in stayed and layer not in replaced and _bare(changed, covered, layer)
        ]
        self.lying = lying
        self.arrived = [layer for layer in new if layer not in straightened]

    def _nudges(
        self, before: np.ndarray, table: np.ndarray, new: Sequence[Layer]
    ) -> dict[Layer, tuple[Layer, Layer]]:
        """The cards of ``new`` (found in ``table``) that are a card known to lie there in ``before``,
        nudged: each with that card and where it lies now. Such a card overlaps it
        (:data:`NUDGE_OVERLAP`) where its picture is found near where it lay (:meth:`_found_near`),
        and lies there (what the nudge changed, a card fitted to it, may take in where it lay too);
        or overlaps it more (:data:`NUDGED`) and looks like it (:func:`alike`)."""
        nudges = {}
        found_at: dict[Layer, Layer | None] = {}  # each card known to lie there, looked for once
        for layer in new:
            for old in self.lying:
                overlap = polygon_iou(layer.corners(), old.corners())
                if overlap < NUDGE_OVERLAP:
                    continue
                if old not in found_at:
                    found_at[old] = self._found_near(before, old, table)
                found = found_at[old]
                if found is not None and polygon_iou(found.corners(), layer.corners()) >= NUDGE_OVERLAP:
                    nudges[layer] = (old, found)
                elif overlap >= NUDGED and alike(before, old, table, layer) >= ALIKE:
                    nudges[layer] = (old, layer)
        return nudges

    def _found_near(self, before: np.ndarray, card: Layer, table: np.ndarray) -> Layer | None:
        """Where the picture of ``card``, lying in ``before``, lies in ``table`` near where it lay,
        turned or not (:data:`NUDGE_REACH`, :data:`NUDGE_TURNS`), when it lies there looking as it
        did (:data:`ALIKE`) and clearly more alike than where it lay (:data:`NUDGE_GAIN`); else
        None."""
        inner = _upright(before, card, -LOOK_INSET)
        if float(inner.std()) < 2:  # nothing on it to look for
            return None
        reach = round(NUDGE_REACH * self._short)
        unmoved = reach + LOOK_INSET  # where the picture lies in the one looked at, if it lay still
        turns = [Layer(card.center, card.size, card.angle + turn) for turn in NUDGE_TURNS]
        scores = [
            cv2.matchTemplate(_upright(table, turned, reach), inner, cv2.TM_CCOEFF_NORMED) for turned in turns
        ]
        best = max(ALIKE, float(scores[NUDGE_TURNS.index(0.0)][unmoved, unmoved]) + NUDGE_GAIN)
        found = None
        for turned, alike_at in zip(turns, scores, strict=True):
            _, score, _, (x, y) = cv2.minMaxLoc(alike_at)
            if score < best:
                continue
            rotation = _upright_placement(turned, reach)[:, :2]
            center = np.asarray(card.center) + np.linalg.solve(rotation, np.subtract((x, y), unmoved))
            best, found = score, Layer((float(center[0]), float(center[1])), card.size, turned.angle)
        return found

    def _unknown(self, seen: Sequence[Layer], moved: np.ndarray) -> list[Layer]:
        """The cards of ``seen`` that are no card known to lie on the piles, where ``moved`` (what
        changed less the cards fitted to it) left it lying (a card tossed right over a card lying
        there, as another card tossed over its end, is seen where the card under it was known)."""
        known = [layer.center for layer in self.lying if share_inside(moved, layer.corners()) < GONE_SHARE]
        return [seen[i] for i in far_from([card.center for card in seen], known, self._same)]

    def _outlined(self, layer: Layer, difference: np.ndarray, seen: Sequence[Layer]) -> Layer:
        """``layer``, or the only card of ``seen`` centred near it (:data:`NEAR_OUTLINE`) that takes
        in what changed there (:data:`TAKEN_IN`) while its outline differs (:data:`SAME_OUTLINE`)
        and has a card's shape (:data:`CARD_SHAPED`)."""
        piece = difference & filled(difference.shape, [layer.corners()])
        gaps = nearest_gaps([card.center for card in seen], [layer.center])
        near = [card for card, gap in zip(seen, gaps, strict=True) if gap <= NEAR_OUTLINE * self._short]
        takers = [card for card in near if _share_of(piece, card) >= TAKEN_IN and self._card_shaped(card)]
        if len(takers) == 1 and polygon_iou(takers[0].corners(), layer.corners()) < SAME_OUTLINE:
            return takers[0]
        return layer

    def _card_shaped(self, card: Layer) -> bool:
        short, long_ = sorted(card.size)
        return abs(short / self._short - 1) <= CARD_SHAPED and abs(long_ / self._long - 1) <= CARD_SHAPED

    def _left_explained(
        self, difference: np.ndarray, joined: np.ndarray, new: list[Layer], seen: Sequence[Layer]
    ) -> list[Layer]:
        """The cards of ``seen`` that explain a piece of what changed (``difference``; ``joined``,
        its pieces closer than :data:`JOIN_GAP` joined) that the ``new`` cards found there leave:
        a piece of at least :data:`LEFT_SHARE` of a card (where no card was found, its parts
        joined: a white card landing on white changes only its print; beside a card fitted a
        little off, such parts are that card's own edges), of which a card of ``seen`` takes in
        :data:`LEFT_COVER` while lying :data:`LEFT_ON` on ``joined`` (a loose box across the cards
        before does not), and the only one that does (two that do lie over each other, and which
        of them came first is not known). ``seen`` holds no card known to lie there (a card nudged
        leaves such a piece too)."""
        left = difference & ~filled(difference.shape, [layer.corners() for layer in new])
        left = cv2.morphologyEx(left, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        on_change = [card for card in seen if share_inside(joined, card.corners()) >= LEFT_ON]
        found: list[Layer] = []
        whole = left if new else self._joined(left)  # beside a card fitted a little off, its own edges
        for piece in cv2.findContours(whole, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            if cv2.contourArea(piece) < LEFT_SHARE * self._card_area:
                continue
            mask = filled(left.shape, [], [piece])
            takers = [card for card in on_change if _share_of(mask, card) >= LEFT_COVER]
            if len(takers) == 1 and takers[0] not in found:
                found.append(takers[0])
        return found

    def _watch_whole(self, table: np.ndarray, changed: np.ndarray, whole: Sequence[Layer]) -> None:
        """A card seen whole at one place, where piles lie, for ``SETTLE_FRAMES`` frames lies there,
        though the table around it still moves (the next player reaching in already): it is
        remembered as lying, seen arriving, and taken into the last still moment, so that a card
        tossed onto it before the table lies still is told from it. A card known to lie under it
        (its outline shows whole, so nothing lies under it) was that card: it was moved, and has
        not arrived; or, where its place clear of the card seen whole is bare cloth (``changed``, the
        frame's difference from the empty table, :func:`_bare`), it was taken away."""
        before = self._whole_for
        self._recent.append(table)
        piled = [
            card for card, piles in zip(whole, self._inside([c.center for c in whole]), strict=True) if piles
        ]
        self._whole_for = []
        for card in piled:
            same = [n for old, n in before if _distance(old, card) <= STILL_CARD * self._short]
            frames = same[0] + 1 if same else 1
            self._whole_for.append((card, frames))
            if frames != SETTLE_FRAMES:
                continue
            if not far_from([card.center], [layer.center for layer in self.lying], self._same):
                continue  # already known to lie there
            outline_mask = np.zeros(table.shape[:2], np.uint8)
            cv2.fillConvexPoly(outline_mask, np.round(card.corners()).astype(np.int32), 255)
            region = cv2.dilate(outline_mask, np.ones((2 * CARD_MARGIN + 1,) * 2, np.uint8)) > 0
            seen = np.mean(np.stack(self._recent), axis=0).round().astype(table.dtype)  # grain averaged
            seen = in_light_of(seen, self._settled)
            self._settled = self._settled.copy()
            self._settled[region] = seen[region]
            outline = card.corners().astype(np.float32)
            moved = [old for old in self.lying if cv2.pointPolygonTest(outline, old.center, False) >= 0]
            self.cleared += [old for old in moved if _bare(changed, outline_mask, old)]
            self.lying = [layer for layer in self.lying if layer not in moved] + [card]
            if not moved:  # a card known to lie under a card seen whole was that card, moved
                self.arrived.append(card)

    def _inside(self, points: np.ndarray | Sequence[tuple[float, float]]) -> np.ndarray:
        """Which of ``points`` (n x 2, px) lie where piles lie."""
        x, y = np.round(np.asarray(points, np.float64).reshape(-1, 2)).astype(int).T
        height, width = self._area.shape
        on_table = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        inside = np.zeros(len(x), bool)
        inside[on_table] = self._in_area[y[on_table], x[on_table]]
        return inside

    def _cards_in(self, difference: np.ndarray, joined: np.ndarray) -> list[Layer]:
        """The card rectangles that fit the blobs of ``difference`` lying inside the table, its
        pieces less than ``JOIN_GAP`` apart joined first (``joined``); in a blob no card fits, the
        cards of its pieces, else of what is left of it less its thin tails (:data:`TAIL_WIDTH`)."""
        found = []
        for blob in self._blobs(joined):
            cards = self._cards_of(blob)
            if not cards:  # joined to a speck of the cloth beside it: the card is one of its pieces
                inside = [piece for piece in self._blobs(difference) if _within(piece, blob)]
                cards = [card for piece in inside for card in self._cards_of(piece)]
            if not cards:
                cards = [card for part in self._untailed(joined, blob) for card in self._cards_of(part)]
            found.extend(cards)
        return found

    def _untailed(self, mask: np.ndarray, blob: np.ndarray) -> list[np.ndarray]:
        """The parts of ``blob`` (a contour of ``mask``) left once opened by a disc of
        :data:`TAIL_WIDTH` of a card's short side."""
        alone = filled(mask.shape, [], [blob]) & mask
        width = round(TAIL_WIDTH * self._short) | 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
        return self._blobs(cv2.morphologyEx(alone, cv2.MORPH_OPEN, disc))

    def _joined(self, difference: np.ndarray) -> np.ndarray:
        """``difference`` with its pieces less than ``JOIN_GAP`` apart joined (a card's pips on the
        white of the card under it)."""
        gap = round(JOIN_GAP * self._short)
        return cv2.morphologyEx(
            difference, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (gap, gap))
        )

    def _blobs(self, mask: np.ndarray) -> list[np.ndarray]:
        """The contours of ``mask`` at least half a card large that lie inside the table."""
        height, width = mask.shape
        blobs = []
        for contour in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            x, y, w, h = cv2.boundingRect(contour)
            inside = x > 1 and y > 1 and x + w < width - 1 and y + h < height - 1
            if inside and cv2.contourArea(contour) >= 0.5 * self._card_area:
                blobs.append(contour)
        return blobs


def alike(first_picture: np.ndarray, first: Layer, second_picture: np.ndarray, second: Layer) -> float:
    """How alike the card ``first`` in ``first_picture`` looks to ``second`` in ``second_picture``:
    the best normalised correlation of the first's picture inside its margin (:data:`LOOK_INSET`)
    with the second's, laid upright and taken in a little wide (:data:`LOOK_PAD`), either way up
    (-1..1; a picture with nothing on it is like none). The two cards are of about one size (they
    overlap by :data:`NUDGED`): the first's inset picture must fit in the second's widened one."""
    inner = _upright(first_picture, first, -LOOK_INSET)
    around = _upright(second_picture, second, LOOK_PAD)
    if float(inner.std()) < 2:  # nothing on it: normalised, noise
        return -1.0
    turned = inner[::-1, ::-1]
    return max(float(cv2.matchTemplate(around, look, cv2.TM_CCOEFF_NORMED).max()) for look in (inner, turned))


def _bare(changed: np.ndarray, covered: np.ndarray, card: Layer) -> bool:
    """Whether the place of ``card`` shows bare cloth: :data:`CLEAR_SHARE` of it lies clear of
    ``covered`` (the cards lying there now), and less than :data:`BARE_SHARE` of that part differs
    from the empty table (``changed``)."""
    clear = 1.0 - share_inside(covered, card.corners())
    return clear >= CLEAR_SHARE and share_inside(changed & ~covered, card.corners()) < BARE_SHARE * clear


def _upright(picture: np.ndarray, card: Layer, grow: float) -> np.ndarray:
    """``card``'s picture, grey, laid upright (its long side down the picture), ``grow`` px wider all
    round."""
    short, long_ = (side + 2 * grow for side in sorted(card.size))
    place = _upright_placement(card, grow)
    return cv2.cvtColor(cv2.warpAffine(picture, place, (round(short), round(long_))), cv2.COLOR_BGR2GRAY)


def _upright_placement(card: Layer, grow: float) -> np.ndarray:
    """The affine map (2 x 3) from the table to ``card``'s upright picture, ``grow`` px wider all
    round (:func:`_upright`)."""
    width, height = card.size
    turn = card.angle + (90 if width > height else 0)
    short, long_ = (side + 2 * grow for side in sorted(card.size))
    place = cv2.getRotationMatrix2D(card.center, turn, 1.0)
    place[:, 2] += (short / 2 - card.center[0], long_ / 2 - card.center[1])
    return place


def aligned(image: np.ndarray, to: np.ndarray) -> np.ndarray:
    """``image`` moved by the small shift of the whole picture (a camera jolted) that lays it over
    ``to``; unmoved when the shift is no jolt (:data:`MIN_JOLT`, :data:`MAX_JOLT`)."""
    grey = [cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float32) for x in (image, to)]
    shift, _ = cv2.phaseCorrelate(grey[0], grey[1])
    if not MIN_JOLT <= float(np.hypot(*shift)) <= MAX_JOLT:
        return image
    move = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    return cv2.warpAffine(image, move, image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


def bottom_first(table: np.ndarray, cards: list[Layer]) -> list[Layer]:
    """``cards``, found on ``table`` together, from the one underneath to the one on top: where two
    overlap, the margin of the card on top runs on inside the other card (:func:`_margin_unlike`),
    else its edge shows there and that of the card under it does not (ties keep their order)."""
    if len(cards) < 2:
        return cards
    grey = cv2.cvtColor(table, cv2.COLOR_BGR2GRAY).astype(np.float32)
    edges = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    over = [0] * len(cards)
    for i, j in combinations(range(len(cards)), 2):
        top = _one_on_top(table, edges, cards[i], cards[j])
        if top is not None:
            over[(i, j)[top]] += 1
    return [cards[k] for k in sorted(range(len(cards)), key=lambda k: over[k])]


def _one_on_top(table: np.ndarray, edges: np.ndarray, first: Layer, second: Layer) -> int | None:
    """Which of two cards lies on top (0 or 1; None where they do not overlap, or nothing tells):
    the one whose margin is less unlike itself inside the other (:data:`MARGIN_UNLIKE`), else the
    one whose edge shows more strongly inside the other."""
    a, b = _margin_unlike(table, first, second), _margin_unlike(table, second, first)
    if a is not None and b is not None and abs(a - b) >= MARGIN_UNLIKE:
        return int(b < a)
    a, b = _edge_inside(edges, first, second), _edge_inside(edges, second, first)
    return None if a is None or b is None or a == b else int(b > a)


def _margin_unlike(table: np.ndarray, card: Layer, other: Layer) -> float | None:
    """How much ``card``'s margin (:data:`MARGIN_INSET` inside its outline) differs where it runs
    inside ``other`` from where it does not: the largest channel's difference of their median
    colours (None where either holds too few points)."""
    x, y = _along(card.inset(MARGIN_INSET).corners(), 32, table.shape)
    hidden = filled(table.shape, [other.corners()])[y, x] > 0
    if np.count_nonzero(hidden) < 8 or np.count_nonzero(~hidden) < 8:
        return None
    colours = table[y, x].astype(np.float32)
    return float(np.abs(np.median(colours[hidden], axis=0) - np.median(colours[~hidden], axis=0)).max())


def _edge_inside(edges: np.ndarray, card: Layer, other: Layer) -> float | None:
    """The mean edge strength along ``card``'s outline where it runs inside ``other`` (None where it
    does not: the cards do not overlap)."""
    x, y = _along(card.corners(), 24, edges.shape)
    hidden = filled(edges.shape, [other.inset(EDGE_INSET).corners()])[y, x] > 0
    return float(edges[y[hidden], x[hidden]].mean()) if np.count_nonzero(hidden) >= 8 else None


def _along(corners: np.ndarray, per_side: int, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The points (x, y, whole px) ``per_side`` to each side of the quad ``corners`` that lie in a
    picture of ``shape``."""
    ends = zip(corners, np.roll(corners, -1, axis=0), strict=True)
    points = np.concatenate([np.linspace(start, end, per_side, endpoint=False) for start, end in ends])
    x, y = np.round(points).astype(int).T
    on = (x >= 0) & (x < shape[1]) & (y >= 0) & (y < shape[0])
    return x[on], y[on]


def filled(
    shape: tuple[int, ...], quads: Sequence[np.ndarray], contours: Sequence[np.ndarray] = ()
) -> np.ndarray:
    """A mask (0/255) of ``shape`` with the convex ``quads`` (corners) and ``contours`` filled in."""
    mask = np.zeros(shape[:2], np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    if contours:
        cv2.drawContours(mask, list(contours), -1, 255, -1)
    return mask


def _share_of(piece: np.ndarray, card: Layer) -> float:
    """The share of the mask ``piece`` (0/255) that ``card`` takes in."""
    inside = np.count_nonzero(piece & filled(piece.shape, [card.corners()]))
    return inside / max(np.count_nonzero(piece), 1)


def _within(piece: np.ndarray, blob: np.ndarray) -> bool:
    """Whether the contour ``piece`` lies inside the contour ``blob`` (its first point does)."""
    x, y = piece.reshape(-1, 2)[0]
    return cv2.pointPolygonTest(blob, (float(x), float(y)), False) >= 0


def _distance(a: Layer, b: Layer) -> float:
    return float(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]))


def far_from(
    points: Sequence[tuple[float, float]], centres: Sequence[tuple[float, float]], distance: float
) -> list[int]:
    """Indices of the ``points`` farther than ``distance`` from every one of ``centres``."""
    return [i for i, gap in enumerate(nearest_gaps(points, centres)) if gap > distance]


def nearest_gaps(points: Sequence[tuple[float, float]], centres: Sequence[tuple[float, float]]) -> np.ndarray:
    """For each of ``points``, its distance to the nearest of ``centres`` (infinite when none)."""
    if not centres or not points:
        return np.full(len(points), np.inf)
    gaps = np.asarray(points, np.float64)[:, None, :] - np.asarray(centres, np.float64)[None, :, :]
    return np.asarray(np.linalg.norm(gaps, axis=2).min(axis=1))
