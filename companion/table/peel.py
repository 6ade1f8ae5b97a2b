"""Find the cards inside a blob of touching or overlapping cards, one card at a time.

A trick whose cards overlap, or the trump card beside the stock, changes the table
in one blob that no single card fits. The blob's straight edges give the angles
the cards may lie at; at each angle, every position of a card-sized rectangle is
scored at once with integral images: how much of it the blob covers, and how many
of its four sides have empty table just outside (a real card in such a blob has
two neighbouring ones or three; a rectangle inside a palm has none, one across an
arm only two opposite ones). The best one is taken out of the blob and the search
goes on with what is left.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import cv2
import numpy as np

#: Share of a rectangle the blob must cover for it to be a card.
MIN_COVER = 0.9
#: A side is free when at most this share of the strip just outside it has changed.
MAX_SIDE_COVER = 0.4
#: ... and at least this share of the strip just inside it belongs to the blob (a straight edge).
MIN_EDGE_COVER = 0.85
#: A card found after the first shows at least this share of itself beyond the cards found before.
MIN_NEW = 0.5
#: Angles tried per card, from the longest straight edges.
MAX_ANGLES = 4
#: Width of those strips, in px of the rectified table.
STRIP_PX = 3
#: Blobs a :class:`Peeler` remembers.
REMEMBERED = 16


def _box_sums(integral: np.ndarray, height: int, width: int) -> np.ndarray:
    """Sums over every height x width window, indexed by the window's top-left pixel."""
    return (
        integral[height:, width:]
        - integral[:-height, width:]
        - integral[height:, :-width]
        + integral[:-height, :-width]
    )


def _edge_angles(mask: np.ndarray, min_length: float) -> list[float]:
    """Angles (degrees, modulo 90) of the blob's longest straight edges at least ``min_length`` long."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    longest: dict[int, tuple[float, float]] = {}  # angle bin -> (length, angle) of its longest edge
    for contour in contours:
        polygon = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
        for start, end in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
            dx, dy = end - start
            length = float(np.hypot(dx, dy))
            angle = float(np.degrees(np.arctan2(dy, dx))) % 90
            key = round(angle / 3) % 30  # angles within 3 degrees are one
            if length >= min_length and length > longest.get(key, (0.0, 0.0))[0]:
                longest[key] = (length, angle)
    return [angle for _, angle in sorted(longest.values(), reverse=True)[:MAX_ANGLES]]


def _best_at(
    blob: np.ndarray, remaining: np.ndarray, angle: float, card: tuple[int, int], least_new: float
) -> tuple[float, float, np.ndarray] | None:
    """The best new card rectangle at ``angle``: (score, cover, corners in mask px), or None.

    Cover and free sides are judged on the whole ``blob`` (a card may lie under one
    already found); at least ``least_new`` of the rectangle must still be ``remaining``.
    """
    height, width = blob.shape
    rotation = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)

    def upright_integral(mask: np.ndarray) -> np.ndarray:
        upright = cv2.warpAffine(mask, rotation, (width, height), flags=cv2.INTER_NEAREST)
        return cv2.integral((upright > 0).astype(np.uint8)).astype(np.float64)

    whole, left_over = upright_integral(blob), upright_integral(remaining)
    best: tuple[float, float, np.ndarray] | None = None
    t = STRIP_PX
    for w, h in (card, card[::-1]):
        if h + 2 * t >= height or w + 2 * t >= width:
            continue
        rows, cols = height - h - 2 * t + 1, width - w - 2 * t + 1  # windows' top-left from (t, t)
        inside = (slice(t, t + rows), slice(t, t + cols))
        cover = _box_sums(whole, h, w)[inside] / (w * h)
        new = _box_sums(left_over, h, w)[inside] / (w * h)
        across, along = _box_sums(whole, t, w) / (t * w), _box_sums(whole, h, t) / (t * h)
        # a free side is a clean straight edge: empty table just outside, blob just inside
        above = (across[0:rows, t : t + cols] <= MAX_SIDE_COVER) & (across[inside] >= MIN_EDGE_COVER)
        below = (across[t + h : t + h + rows, t : t + cols] <= MAX_SIDE_COVER) & (
            across[h : h + rows, t : t + cols] >= MIN_EDGE_COVER
        )
        left = (along[t : t + rows, 0:cols] <= MAX_SIDE_COVER) & (along[inside] >= MIN_EDGE_COVER)
        right = (along[t : t + rows, t + w : t + w + cols] <= MAX_SIDE_COVER) & (
            along[t : t + rows, w : w + cols] >= MIN_EDGE_COVER
        )
        free = above.astype(np.int32) + below + left + right
        only_opposite = (free == 2) & ((above & below) | (left & right))  # an arm, a palm: not a card
        card_like = (cover >= MIN_COVER) & (new >= least_new) & (free >= 2) & ~only_opposite
        score = np.where(card_like, free + cover, 0.0)
        y, x = np.unravel_index(int(np.argmax(score)), score.shape)
        if score[y, x] > 0 and (best is None or score[y, x] > best[0]):
            top, left_x = y + t, x + t
            corners = np.array(
                [[left_x, top], [left_x + w, top], [left_x + w, top + h], [left_x, top + h]], np.float64
            )
            back = cv2.invertAffineTransform(rotation)
            best = (float(score[y, x]), float(cover[y, x]), corners @ back[:, :2].T + back[:, 2])
    return best


def peel_cards(
    mask: np.ndarray, card: tuple[float, float], max_cards: int = 4, least_new: float = MIN_NEW
) -> list[tuple[np.ndarray, float]]:
    """The cards found in a blob ``mask`` (uint8, 0/255), best first: corners (4, 2) and the
    share of the card the blob covers.

    ``card`` is the card's short and long side in the mask's pixels. The mask needs
    a margin of empty pixels around the blob of at least a card's long side. Each card but the
    first shows at least ``least_new`` of itself beyond the cards found before it.
    """
    remaining = mask.copy()
    size = (round(card[0]), round(card[1]))
    found: list[tuple[np.ndarray, float]] = []
    while len(found) < max_cards and np.count_nonzero(remaining) >= least_new * card[0] * card[1]:
        angles = _edge_angles(remaining, 0.5 * card[0])
        candidates = [_best_at(mask, remaining, angle, size, least_new) for angle in angles]
        scored = [candidate for candidate in candidates if candidate is not None]
        if not scored:
            break
        _, cover, corners = max(scored, key=lambda candidate: candidate[0])
        found.append((corners, cover))
        cv2.fillConvexPoly(remaining, np.round(corners).astype(np.int32), 0)
        remaining = cv2.morphologyEx(remaining, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return found


class Peeler:
    """:func:`peel_cards` for cards of one size, remembering the cards of the last
    :data:`REMEMBERED` blobs: a pile lying still changes the table in the same blob frame after
    frame, and peeling took over a quarter of the change proposer's time on a loose game."""

    def __init__(self, card: tuple[float, float], max_cards: int = 4, least_new: float = MIN_NEW) -> None:
        self.card, self.max_cards, self.least_new = card, max_cards, least_new
        self._found: OrderedDict[tuple[tuple[int, ...], bytes], list[tuple[np.ndarray, float]]] = (
            OrderedDict()
        )

    def __call__(self, mask: np.ndarray) -> list[tuple[np.ndarray, float]]:
        key = (mask.shape, hashlib.blake2b(mask.tobytes(), digest_size=16).digest())
        if key in self._found:
            self._found.move_to_end(key)
        else:
            self._found[key] = peel_cards(mask, self.card, self.max_cards, self.least_new)
            if len(self._found) > REMEMBERED:
                self._found.popitem(last=False)
        return list(self._found[key])
