"""Propose card quads from what changed on the table: a cheap signal a fixed overhead camera gives.

The frame is rectified onto the table plane at a coarse scale and compared with a background model
of the empty table (a reference frame, slowly refreshed where nothing changed, and seen in the
frame's light, :mod:`companion.table.light`, so neither light drifting through the evening nor a
lamp switched on matters; laid over the frame when the camera was jolted over a finely patterned
cloth, where a shift of a pixel changes every square's edge). Changed regions are cleaned with
morphology; each contour's minimum-area rectangle is kept when its sides match the known card
size, split when it holds a row of cards; a blob of cards that touch or overlap at other angles is
searched card by card (:mod:`companion.table.peel`), and small fragments that together make one
card are merged (one ragged fragment too: a white card on a checked cloth's white squares). A white
card on a white cloth differs plainly only at its outline and its ink: it is found in what differs
faintly, less the cards found otherwise, and kept out of the background, which would learn it.
A card tossed onto other cards is found from what changed between two moments the play area
lay still (:mod:`companion.table.layers`). A blob that touches the table's edge is an arm reaching
in and is not a card, but it says from which side of the table someone reaches in: it comes back
as a :class:`~companion.vision.readings.Reach`; a card in it, once the things set down at the
edge (a score pad, a phone) are cut away, is a card laid against one of them. The shadow of
someone leaning over the table comes over its edge too: it is no change
(:func:`companion.table.light.in_shade`), neither against the background nor between two still
moments of the piles. Proposals come back as :class:`~companion.vision.readings.Reading` in image
pixels, with no identity; the face is only a hint from colour (a mostly white card is face up),
unreliable on decks printed on cream paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import cv2
import numpy as np

from companion.table.layers import (
    SAME_CARD,
    Layer,
    PileLayers,
    aligned,
    far_from,
    filled,
    nearest_gaps,
    share_inside,
)
from companion.table.light import CLIPPED, channel_scalar, in_shade, light_gain
from companion.table.peel import STRIP_PX, Peeler
from companion.table.profile import TableProfile
from companion.vision.readings import Face, Reach, Reading, Sight


@dataclass(frozen=True)
class ProposerConfig:
    """Thresholds of the change-based proposer."""

    px_per_mm: float = 0.5  # scale of the rectified table it works on
    threshold: float = 20.0  # colour distance (0..255, largest channel, 5x5 median) that is a change
    faint_threshold: float = 10.0  # the same for a card that differs faintly (white on a white cloth)
    size_tolerance: float = 0.22  # allowed relative error of each card side
    min_fill: float = 0.85  # contour area / rectangle area below which a blob is not a card (a hand)
    min_fill_piled: float = 0.7  # the same for the hull of a card tossed onto a pile, less its border
    background_rate: float = 0.03  # how fast unchanged pixels refresh the background
    white_fraction_up: float = 0.3  # share of bright unsaturated pixels that says "face up"
    pile_margin_mm: float = 40.0  # piles lie in the play area or this close to it (a card tossed far)


#: When this share of the table differs from the background, the camera may have been jolted
#: (someone bumped the table) over a finely patterned cloth, where a shift of a pixel changes
#: every square's edge: the background is laid over the frame first.
JOLTED_SHARE = 0.2
#: Pixels (rectified table) around what differs also looked at for a shadow.
SHADE_MARGIN = 16
#: Pixels around a thing set down at the table's edge cut away with it (what joined a card to it).
THING_GAP = 5
#: Blobs of up to this many cards' area are searched for touching or overlapping cards.
MAX_PEEL_CARDS = 4
#: In what changed on a pile since it last lay still, a card after the first may show only this
#: share of itself beside the cards found before (the five of coins tossed and, before the table lay
#: still, half covered by the four tossed over it); against the empty table a trick's cards show half.
PILED_NEW = 0.35
#: A blob of what differs faintly from the empty table (:attr:`ProposerConfig.faint_threshold`),
#: less the cards found otherwise, is looked at for cards from this share of a card's area.
FAINT_AREA = 0.6
#: Fragments (parts of a card smaller than a card) tried for merging, largest first.
MAX_FRAGMENTS = 12
#: How well (0..1, :meth:`ChangeProposer._side_fit`) a row of three or more cards side by side must
#: fit: cards laid in such a row with care fit it closely, while a phone, three cards' short sides
#: long and a fifth shorter than a card, fits one loosely (0.06 to 0.39 in a rendered game) and was
#: read as a card.
LONG_ROW_FIT = 0.5


@dataclass(frozen=True)
class _Box:
    """A card-sized rectangle on the rectified table: centre (px), sides (px), angle (deg), fit in 0..1."""

    center: tuple[float, float]
    size: tuple[float, float]
    angle: float
    fit: float
    arrived: bool = False  # a pile's card, found as the table settled in this frame

    def rectangle(self) -> Layer:
        return Layer(self.center, self.size, self.angle)


class ChangeProposer:
    """Oriented card proposals from the difference with the empty table.

    ``empty_table`` is a frame of the table with no cards on it; without one, the
    first frame given to :meth:`propose` is taken as the empty table.
    """

    def __init__(
        self,
        profile: TableProfile,
        empty_table: np.ndarray | None = None,
        config: ProposerConfig | None = None,
    ) -> None:
        self.profile = profile
        self.config = config or ProposerConfig()
        self._to_rectified = profile.rectify_matrix(self.config.px_per_mm)
        self._size = tuple(round(side * self.config.px_per_mm) for side in profile.size_mm)
        card = np.asarray(sorted(profile.card_mm)) * self.config.px_per_mm
        self._card = (float(card[0]), float(card[1]))
        self._card_area = self._card[0] * self._card[1]  # no shadow is smaller
        self._peel = Peeler(self._card, MAX_PEEL_CARDS)
        self._peel_piled = Peeler(self._card, MAX_PEEL_CARDS, PILED_NEW)
        self._background: np.ndarray | None = None
        self._pile: PileLayers | None = None
        self._pile_mask = self._pile_area()  # where piles lie (0/255)
        # what differed from the empty table in the frame looked at last
        self._changed: np.ndarray | None = None
        self._faint: np.ndarray | None = None  # what differed faintly from the empty table, cleaned
        self._faint_cards = np.zeros(self._size[::-1], np.uint8)  # the faint cards found last (0/255)
        if empty_table is not None:
            self._start(self._rectify(empty_table))

    def _start(self, empty: np.ndarray) -> None:
        """Take the rectified ``empty`` as the empty table: the first background, and the first
        moment the table lay still."""
        self._background = empty.astype(np.float32)
        self._pile = PileLayers(empty, self._card, self._pile_mask, self._difference, self._layers)

    def _pile_area(self) -> np.ndarray:
        """The mask (0/255) of where piles lie: the play area and the margin around it."""
        layout, px = self.profile.layout, self.config.px_per_mm
        area = np.zeros(self._size[::-1], np.uint8)
        centre = tuple(int(v) for v in np.round(layout.play_center * px))
        cv2.circle(area, centre, round((layout.play_radius + self.config.pile_margin_mm) * px), 255, -1)
        return area

    def _on_table(self, corners: np.ndarray) -> Layer:
        """The rectangle on the rectified table of a card's corners in the image."""
        points = self.profile.to_table(np.asarray(corners, np.float64)) * self.config.px_per_mm
        (cx, cy), size, angle = cv2.minAreaRect(points.astype(np.float32))
        return Layer((cx, cy), size, angle)

    def _rectify(self, frame: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(frame, self._to_rectified, self._size, flags=cv2.INTER_AREA)

    def changed(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rectified frame and its mask of changed pixels (0/255), a shadow fallen on the table
        left out; refreshes the background where nothing changed, the shadows included, so that the
        background never learns one, nor from a pixel clipped at the camera's brightest level (a
        white square under a warm lamp, darkened back to the room's light, would be too dark)."""
        table = self._rectify(frame)
        if self._background is None:
            self._start(table)
        assert self._background is not None
        gain = light_gain(table, self._background)
        expected = cv2.multiply(self._background, channel_scalar(gain), dtype=cv2.CV_8U)
        distance = self._distance(table, expected)
        different = _above(distance, self.config.threshold)
        jolted = self._jolted(table, expected, different)
        if jolted is not None:
            expected, different = jolted
        cleaned = _cleaned(different)
        self._faint = None if jolted is not None else _cleaned(_above(distance, self.config.faint_threshold))
        if jolted is None:  # a jolted frame would teach the background its squares a pixel off
            # a pixel beside a clipped one too: the camera's grain leaves clipped pixels a little darker
            brightest = cv2.dilate(_brightest_channel(table), np.ones((3, 3), np.uint8))
            unclipped = brightest < CLIPPED  # how bright it is in the room's light is not known
            kept = cv2.dilate(cleaned | self._faint_cards, np.ones((7, 7), np.uint8))  # a faint card's too
            still = ((kept == 0) & unclipped).astype(np.uint8)
            unlit = cv2.multiply(table, channel_scalar(1.0 / gain))
            cv2.accumulateWeighted(unlit, self._background, self.config.background_rate, still)
        over_edge = _over_edge(cleaned)  # a shadow comes over the table's edge, as an arm does
        unshaded = _unshaded(different, table, expected, over_edge, False, self._card_area)
        return table, cleaned if unshaded is different else _cleaned(unshaded)

    def _jolted(
        self, table: np.ndarray, expected: np.ndarray, different: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """The background (``expected``) laid over the rectified frame and what differs from it, when
        much of the table differs (:data:`JOLTED_SHARE`) and a jolt of the camera explains most of
        it; else None."""
        if np.count_nonzero(different) < JOLTED_SHARE * different.size:
            return None
        moved = aligned(expected, table)
        if moved is expected:
            return None
        again = self._different(table, moved)
        return (moved, again) if np.count_nonzero(again) < np.count_nonzero(different) / 2 else None

    def _difference(self, first: np.ndarray, second: np.ndarray, steady: bool) -> np.ndarray:
        """The mask (0/255) of pixels that differ between two rectified frames, cleaned; a shadow
        in one and not the other is no difference (someone leaning over the table is no arm
        reaching in, nor a card moved); ``steady``, neither is what a shift of a pixel explains
        (:func:`steady_distance`)."""
        different = self._different(first, second, steady)
        return _cleaned(_unshaded(different, first, second, self._pile_mask, True, self._card_area))

    def _different(self, first: np.ndarray, second: np.ndarray, steady: bool = False) -> np.ndarray:
        """The mask (0/255) of pixels whose colour differs between two rectified frames (``steady``:
        by more than a shift of a pixel explains, :func:`steady_distance`)."""
        return _above(self._distance(first, second, steady), self.config.threshold)

    @staticmethod
    def _distance(first: np.ndarray, second: np.ndarray, steady: bool = False) -> np.ndarray:
        """Per pixel, how much two rectified frames differ (:func:`colour_distance`, or with
        ``steady`` :func:`steady_distance`), its noise quieted."""
        distance = (steady_distance if steady else colour_distance)(first, second)
        return cv2.medianBlur(distance, 5)  # quiets noise, keeps edges

    def propose(self, frame: np.ndarray) -> list[Reading]:
        """Card proposals in ``frame`` (BGR), in image pixels, without identity."""
        return list(self.look(frame).readings)

    def look(self, frame: np.ndarray, seen: Sequence[np.ndarray] = ()) -> Sight:
        """Card proposals and the arms reaching in, in ``frame`` (BGR), in image pixels; ``seen`` the
        corners (image px) of the cards found in it by other means (a detector), which explain the
        changes on a pile that no card outline found there does (two cards came at once, one over
        another card's white)."""
        table, mask = self.changed(frame)
        self._changed = mask
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        whole: list[_Box] = []  # cards whose outline the change shows whole
        rows: list[_Box] = []  # cards of a blob cut into a row of whole cards
        pieced: list[_Box] = []  # cards pieced together from blobs of several cards or from fragments
        fragments: list[np.ndarray] = []
        reaches: list[Reach] = []
        arms: list[np.ndarray] = []
        min_area = 0.15 * self._card_area
        for contour in contours:
            if cv2.contourArea(contour) < min_area:
                continue
            if self._enters_from_outside(contour):
                reaches.append(self._reach(contour))
                arms.append(contour)
                continue
            found = self._card_boxes(contour)
            trump = None if found else self._trump_under_stock(contour)
            if len(found) > 1:
                rows.extend(found)
            elif found or trump:
                whole.extend(found or [trump])
            elif cv2.contourArea(contour) < self._card_area:
                fragments.append(contour)
            elif cv2.contourArea(contour) < MAX_PEEL_CARDS * self._card_area:
                pieced.extend(self._peeled(contour, self._peel))
        pieced.extend(self._merged(fragments))
        whole.extend(self._beside_things(arms, mask))
        boxes = self._with_layers(table, mask, whole, rows, pieced, arms, [self._on_table(c) for c in seen])
        boxes += self._faint_found(boxes, arms)
        hsv = cv2.cvtColor(table, cv2.COLOR_BGR2HSV) if boxes else table
        assert self._pile is not None  # started by changed()
        cleared = self._to_image(np.array([layer.center for layer in self._pile.cleared], np.float64))
        readings = tuple(self._reading(box, hsv) for box in boxes)
        return Sight(readings, tuple(reaches), tuple((float(x), float(y)) for x, y in cleared))

    def differs(self, corners: np.ndarray) -> float:
        """The share of a card's quad (``corners``, image px) that differed from the empty table in
        the frame looked at last (0 before any)."""
        if self._changed is None:
            return 0.0
        return share_inside(self._changed, self._on_table(corners).corners())

    def lying(self) -> np.ndarray:
        """The corners (image px, N x 4 x 2) of the cards known to lie on the piles: each found at a
        still moment (a layer, or a card seen whole) and not moved away since."""
        if self._pile is None or not self._pile.lying:
            return np.empty((0, 4, 2), np.float64)
        corners = np.array([layer.corners() for layer in self._pile.lying], np.float64)
        return self._to_image(corners.reshape(-1, 2)).reshape(-1, 4, 2)

    def _to_image(self, points: np.ndarray) -> np.ndarray:
        """Rectified table px (N x 2) -> image px (N x 2)."""
        if not len(points):
            return np.empty((0, 2), np.float64)
        return np.asarray(self.profile.to_image(points / self.config.px_per_mm))

    def _with_layers(
        self,
        table: np.ndarray,
        mask: np.ndarray,
        whole: list[_Box],
        rows: list[_Box],
        pieced: list[_Box],
        arms: list[np.ndarray],
        seen: list[Layer],
    ) -> list[_Box]:
        """The cards found on piles (:mod:`companion.table.layers`) joined to the boxes found in this
        frame: a card whose outline shows whole wins over a layer near it (and carries its arrival,
        when the layer was found in this frame); a layer wins over a card of a ``row`` cut near it
        (two cards lying over each other side to side look like a row of two), and a row's card cut
        across a card known to lie there is left out (:meth:`_off_known`); a card pieced
        together near a card known to lie there (a layer, or a card seen whole at a still moment)
        is that card, partly covered, and is left out. The cards ``seen`` by other means explain
        what changed on a pile where no card outline does (:meth:`PileLayers.update`)."""
        assert self._pile is not None  # started by changed()
        self._pile.update(table, mask, arms, [box.rectangle() for box in whole], seen)
        near = 0.5 * self._card[0]
        new = [layer.center for layer in self._pile.arrived]  # a card seen whole there is that card
        elsewhere = far_from([box.center for box in whole], new, near)
        whole = [box if i in elsewhere else replace(box, arrived=True) for i, box in enumerate(whole)]
        self._pile.forget_near([box.center for box in whole], near)
        piles = [layer.center for layer in self._pile.lying]
        kept = [pieced[i] for i in far_from([box.center for box in pieced], piles, near)]
        arrived = self._pile.arrived
        present = self._pile.present(table, mask)
        piled = [_Box(layer.center, layer.size, layer.angle, 1.0, layer in arrived) for layer in present]
        layers = [box.center for box in piled]
        apart = [rows[i] for i in far_from([box.center for box in rows], layers, near)]
        known = [layer.center for layer in self._pile.lying if layer not in present]
        return whole + self._off_known(apart, known, near, bool(arms)) + kept + piled

    def _off_known(
        self, rows: list[_Box], known: list[tuple[float, float]], near: float, reaching: bool
    ) -> list[_Box]:
        """The cards of ``rows`` less those cut across a card known to lie on a pile (``known``, its
        centre): within ``near`` of it but not on it; and, while an arm is ``reaching`` in, those on
        it too. A card tossed half over one lying there fills a rectangle cut as a row of two, each
        half of one card and half of the other; a row card on a known card (two cards side by side)
        is that card, but read while a hand or the card it brings half covers it, it may be read as
        another."""
        gaps = nearest_gaps([box.center for box in rows], known)
        on = SAME_CARD * min(self._card)
        return [
            box for box, gap in zip(rows, gaps, strict=True) if gap > near or (gap <= on and not reaching)
        ]

    def _layers(self, contour: np.ndarray) -> list[Layer]:
        """The cards of a blob of what changed while the table moved: one card, whose convex hull
        fills most of the white it may share with a card under it, or the cards of a blob of several
        (sought in its hull when the blob is too ragged: white cards on a checked cloth's white)."""
        hull = cv2.convexHull(contour)
        found = self._card_boxes(hull, self.config.min_fill_piled)
        if len(found) != 1 and cv2.contourArea(contour) < MAX_PEEL_CARDS * self._card_area:
            found = self._peeled(contour, self._peel_piled) or self._peeled(hull, self._peel_piled)
        return [box.rectangle() for box in found]

    def _beside_things(self, arms: list[np.ndarray], mask: np.ndarray) -> list[_Box]:
        """The cards whose outline shows whole in the blobs that touch the table's edge (``arms``)
        once the things set down there are cut away (:meth:`PileLayers.things`, and a few pixels
        around them): a card laid beside a score pad, joined to it, is no arm."""
        assert self._pile is not None  # started by changed()
        if not arms:
            return []
        things = self._pile.things()
        if not things.any():
            return []
        blobs = np.zeros_like(mask)
        cv2.drawContours(blobs, arms, -1, 255, -1)
        rest = blobs & mask & ~cv2.dilate(things, np.ones((THING_GAP, THING_GAP), np.uint8))
        pieces, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = [self._card_boxes(piece) for piece in pieces if not self._enters_from_outside(piece)]
        return [cards[0] for cards in found if len(cards) == 1]

    def _faint_found(self, found: Sequence[_Box], arms: Sequence[np.ndarray]) -> list[_Box]:
        """The cards of which what differs plainly from the empty table is no card: a white card on
        a white cloth, whose outline, white and margin differ only faintly. They are sought, alone
        or with others (:meth:`_peeled`), in what differs faintly less the cards ``found``
        otherwise, those known to lie on the piles (left out while an arm moves over them) and the
        ``arms``, and kept out of the background, which would learn them."""
        assert self._pile is not None  # started by changed()
        if self._faint is None:
            self._faint_cards[:] = 0
            return []
        known = [card.corners() for card in [box.rectangle() for box in found] + self._pile.lying]
        taken = filled(self._faint.shape, known, arms)
        rest = self._faint & ~cv2.dilate(taken, np.ones((5, 5), np.uint8))
        rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        near = 0.5 * self._card[0]
        boxes: list[_Box] = []
        for contour in cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            area = cv2.contourArea(contour)
            if (
                self._enters_from_outside(contour)
                or not FAINT_AREA <= area / self._card_area <= MAX_PEEL_CARDS
            ):
                continue
            cards = self._card_boxes(cv2.convexHull(contour))
            if len(cards) != 1 or area > self._card_area / FAINT_AREA:
                cards = self._peeled(contour, self._peel)
            boxes += [
                cards[i]
                for i in far_from([card.center for card in cards], [box.center for box in found], near)
            ]
        self._faint_cards = filled(self._faint.shape, [box.rectangle().corners() for box in boxes])
        return boxes

    def _enters_from_outside(self, contour: np.ndarray) -> bool:
        """Whether a blob touches the table's edge: an arm reaching in, not a card lying on the table."""
        return bool(_touches_edge(cv2.boundingRect(contour), self._size))

    def _reach(self, contour: np.ndarray) -> Reach:
        """An arm's blob: the middle of where it crosses the table's edge, and its farthest point."""
        points = contour.reshape(-1, 2).astype(np.float64)
        width, height = self._size
        x, y = points[:, 0], points[:, 1]
        on_edge = (np.minimum(x, y) <= 1) | (x >= width - 2) | (y >= height - 2)
        edge = points[on_edge].mean(axis=0)
        tip = points[np.argmax(np.linalg.norm(points - edge, axis=1))]
        edge_px, tip_px = self.profile.to_image(np.array([edge, tip]) / self.config.px_per_mm)
        return Reach((float(edge_px[0]), float(edge_px[1])), (float(tip_px[0]), float(tip_px[1])))

    def _trump_under_stock(self, contour: np.ndarray) -> _Box | None:
        """The whole trump card when only its end shows from under the stock: a card's width,
        a part of its length, whose hidden part runs on under the stock, in the stock zone."""
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        short, long_ = self._card
        u = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        for across, shown, axis in ((h, w, u), (w, h, np.array([-u[1], u[0]]))):
            fit = self._side_fit(across, short)
            if fit <= 0 or not 0.25 * long_ <= shown <= 0.9 * long_:
                continue
            px_per_mm = self.config.px_per_mm
            stock = self.profile.layout.stock * px_per_mm
            towards = axis if np.dot(stock - [cx, cy], axis) > 0 else -axis
            centre = np.array([cx, cy]) + towards * (long_ - shown) / 2
            if not self.profile.in_stock(centre / px_per_mm):
                return None
            size = (long_, across) if axis is u else (across, long_)
            return _Box((float(centre[0]), float(centre[1])), size, angle, fit * shown / long_)
        return None

    def _side_fit(self, measured: float, expected: float) -> float:
        """How well a measured side matches an expected one: 1 exact, 0 at the tolerance or worse."""
        return max(0.0, 1.0 - abs(measured - expected) / (expected * self.config.size_tolerance))

    def _card_boxes(self, contour: np.ndarray, min_fill: float | None = None) -> list[_Box]:
        """One box if the contour is a card, several if it is a row of cards side by side, else none;
        the contour must fill ``min_fill`` of its rectangle (default: the config's ``min_fill``)."""
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        min_fill = self.config.min_fill if min_fill is None else min_fill
        if w * h <= 0 or cv2.contourArea(contour) / (w * h) < min_fill:
            return []
        u = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        v = np.array([-u[1], u[0]])
        best = (0.0, 1, w, h, u, True)
        for along, across, axis, row_is_w in ((w, h, u, True), (h, w, v, False)):
            for card_across, card_along in (self._card, self._card[::-1]):
                count = max(1, round(along / card_along))
                fit = min(self._side_fit(across, card_across), self._side_fit(along / count, card_along))
                if fit > best[0]:
                    best = (fit, count, along, across, axis, row_is_w)
        fit, count, along, across, axis, row_is_w = best
        if fit <= 0 or (count >= 3 and fit < LONG_ROW_FIT):
            return []
        step = along / count
        boxes = []
        for i in range(count):
            offset = (i - (count - 1) / 2) * step
            size = (step, across) if row_is_w else (across, step)
            boxes.append(_Box((cx + axis[0] * offset, cy + axis[1] * offset), size, angle, fit))
        return boxes

    def _peeled(self, contour: np.ndarray, peel: Peeler) -> list[_Box]:
        """The cards that ``peel`` finds in a blob of touching or overlapping cards (see
        :mod:`companion.table.peel`), and the trump card if its end is what is left beside the
        stock."""
        pad = round(self._card[1]) + 2 * STRIP_PX
        x, y, w, h = cv2.boundingRect(contour)
        blob = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        cv2.drawContours(blob, [contour], -1, 255, -1, offset=(pad - x, pad - y))
        offset = np.array([x - pad, y - pad], np.float64)
        boxes = []
        for corners, cover in peel(blob):
            (cx, cy), size, angle = cv2.minAreaRect((corners + offset).astype(np.float32))
            boxes.append(_Box((cx, cy), size, angle, cover))
            cv2.fillConvexPoly(blob, np.round(corners).astype(np.int32), 0)
        rest = cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        for part in cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            trump = self._trump_under_stock(part + offset.astype(np.int32))  # what shows beside the stock
            if trump is not None:
                boxes.append(trump)
        return boxes

    def _merged(self, fragments: list[np.ndarray]) -> list[_Box]:
        """Boxes made of one to three fragments, near each other, whose convex hull has a card's size:
        a card cut by a band of the cloth's colour, or a white card on a checked cloth, which differs
        from it only over the dark squares (one ragged piece)."""
        fragments = sorted(fragments, key=cv2.contourArea, reverse=True)[:MAX_FRAGMENTS]
        centres = [fragment.reshape(-1, 2).mean(axis=0) for fragment in fragments]
        reach = float(np.hypot(*self._card))
        boxes: list[_Box] = []
        used: set[int] = set()
        for count in (1, 2, 3):
            for group in combinations(range(len(fragments)), count):
                if used.intersection(group) or any(
                    np.linalg.norm(centres[a] - centres[b]) > reach for a, b in combinations(group, 2)
                ):
                    continue
                union = np.vstack([fragments[i] for i in group])
                hull = cv2.convexHull(union)
                found = self._card_boxes(hull)
                if len(found) == 1:
                    boxes.extend(found)
                    used.update(group)
        return boxes

    def _reading(self, box: _Box, hsv: np.ndarray) -> Reading:
        corners = cv2.boxPoints((box.center, box.size, box.angle))
        if np.linalg.norm(corners[1] - corners[0]) > np.linalg.norm(corners[2] - corners[1]):
            corners = np.roll(corners, -1, axis=0)  # start at a corner of a short edge
        corners_mm = corners / self.config.px_per_mm
        return Reading(
            corners=self.profile.to_image(corners_mm),
            face=self._face(hsv, corners),
            detection_confidence=round(box.fit, 4),
            arrived=box.arrived,
        )

    def _face(self, hsv: np.ndarray, corners: np.ndarray) -> Face:
        """Face up when enough of the card is bright and unsaturated (the white of a face)."""
        x, y, w, h = cv2.boundingRect(np.round(corners).astype(np.int32))
        x, y = max(x, 0), max(y, 0)
        hsv = hsv[y : y + h, x : x + w]
        mask = np.zeros(hsv.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners - [x, y]).astype(np.int32), 255)
        pixels = hsv[cv2.erode(mask, np.ones((3, 3), np.uint8)) > 0]
        if len(pixels) == 0:
            return Face.DOWN
        white = np.mean((pixels[:, 1] < 60) & (pixels[:, 2] > 150))
        return Face.UP if white >= self.config.white_fraction_up else Face.DOWN


def colour_distance(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Per pixel, the largest difference of any colour channel between two BGR pictures (0..255)."""
    return _brightest_channel(cv2.absdiff(first, second))


def _brightest_channel(picture: np.ndarray) -> np.ndarray:
    """Each pixel's brightest colour channel (OpenCV: ten times faster than numpy's max over channels)."""
    blue, green, red = cv2.split(picture)
    return cv2.max(cv2.max(blue, green), red)


#: The shifts (rows, columns, from -1 to 1 each, as offsets into a picture padded by one pixel).
_SHIFTS = [(dy, dx) for dy in range(3) for dx in range(3)]


def steady_distance(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Per pixel, the colour distance of two BGR pictures less what a shift of a pixel explains:
    the smallest distance from each picture's pixel to the other's pixels around it, the larger of
    the two ways. A card's fine print seen a fraction of a pixel off (the camera's grain, its
    video compression) is no change; a card tossed onto it is."""
    height, width = first.shape[:2]
    padded = [cv2.copyMakeBorder(x, 1, 1, 1, 1, cv2.BORDER_REPLICATE) for x in (first, second)]
    ways = [
        np.min(
            [colour_distance(picture, other[dy : dy + height, dx : dx + width]) for dy, dx in _SHIFTS], axis=0
        )
        for picture, other in ((second, padded[0]), (first, padded[1]))
    ]
    return cv2.max(*ways)


def _unshaded(
    mask: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    where: np.ndarray,
    either_way: bool,
    smallest: float,
) -> np.ndarray:
    """``mask`` (0/255, of pixels where two pictures differ) less the pixels of ``where`` (0/255)
    where ``first`` lies in a shadow of at least ``smallest`` px that ``second`` does not (or,
    ``either_way``, the other way round); shadows are looked for only around what differs there
    (``mask`` itself when nothing differs there)."""
    points = cv2.findNonZero(cv2.bitwise_and(mask, where))
    if points is None:
        return mask
    x, y, w, h = cv2.boundingRect(points)
    x, y = max(0, x - SHADE_MARGIN), max(0, y - SHADE_MARGIN)
    around = np.s_[y : y + h + 2 * SHADE_MARGIN, x : x + w + 2 * SHADE_MARGIN]
    shade = in_shade(first[around], second[around], either_way, smallest) & (where[around] > 0)
    out = mask.copy()
    out[around][shade] = 0
    return out


def _over_edge(mask: np.ndarray) -> np.ndarray:
    """The blobs of ``mask`` (0/255) that touch the picture's edge (0/255)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    touching = _touches_edge(stats[:, :4].T, mask.shape[::-1])
    touching[0] = False  # the background
    return np.where(touching[labels], 255, 0).astype(np.uint8)


def _touches_edge(box: Any, size: Sequence[int]) -> Any:
    """Whether a box (x, y, w, h: numbers, or arrays of them) touches the edge of a picture of
    ``size`` (width, height)."""
    x, y, w, h = box
    width, height = size
    return (x <= 1) | (y <= 1) | (x + w >= width - 1) | (y + h >= height - 1)


def _above(distance: np.ndarray, threshold: float) -> np.ndarray:
    """The mask (0/255) of the pixels of ``distance`` above ``threshold``."""
    return cv2.threshold(distance, threshold, 255, cv2.THRESH_BINARY)[1]


def _cleaned(mask: np.ndarray) -> np.ndarray:
    """``mask`` (0/255) without specks, its small holes filled."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
