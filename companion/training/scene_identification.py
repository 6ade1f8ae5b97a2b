"""Identification measured on whole rendered scenes rather than on the identifier's own crops.

Scenes of one deck come from the detector's scene renderer (:mod:`companion.datasets.scene`):
cloths, tilted cameras, tricks, the trump card under the stock, hands, light and sensor
effects. Every labelled face-up card is cut out at its labelled physical corners, as the
detector would give them, and read with the deck's references. Cards wholly in view and cards
partly hidden (under other cards, the stock, a hand, or past the frame's edge) are counted
apart, by how much of them is in view: a card a quarter in view may show nothing that tells
it apart.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from companion.cards import Card
from companion.datasets.decks import DeckImages
from companion.datasets.palette import Split
from companion.datasets.scene import in_view, render_scene
from companion.errors import MalformedInput
from companion.vision.decks import DeckReferences
from companion.vision.identifier import Identifier, cuts, warp

GROUPS = ("all", "whole", "mostly", "hidden", "trump", "hand")
"""How the figures are split: every card; by how much of it is in view
(:func:`~companion.datasets.scene.in_view`); the trump card under the stock, cards under a hand."""


@dataclass(frozen=True)
class SceneCard:
    """One face-up card of a rendered scene: its crops (one, or two ways for a card that looks
    nearly square: :func:`~companion.vision.identifier.cuts`), true identity and how much of it
    shows."""

    crops: np.ndarray
    card: Card
    visible: float
    tags: tuple[str, ...]
    scene: int

    def groups(self) -> tuple[str, ...]:
        """The groups of :data:`GROUPS` this card is counted in."""
        return ("all", in_view(self.visible), *(tag for tag in ("trump", "hand") if tag in self.tags))


def scene_cards(
    deck: DeckImages, seed: int, split: Split = "val", jitter: float = 0.0, as_labelled: bool = False
) -> Iterator[SceneCard]:
    """The face-up cards of rendered scenes of ``deck`` (scene i from seed ``[seed, i]``), scene
    after scene without end.

    Each card is cut out at its labelled corners as a detector's corners would be cut (which
    edges are the short ones is judged from the image), or ``as_labelled``: upright, short edge
    first, as the label knows it. ``split`` chooses the renderer's cloths, lights and hands
    (validation ones by default); ``jitter`` moves each corner by that fraction of the card's
    width (standard deviation), as a detector's corners would lie.
    """
    for index in itertools.count():
        rng = np.random.default_rng([seed, index])
        scene = render_scene(rng, [deck], split=split)
        for label in scene.labels:
            if label.cls == 0:
                width = np.linalg.norm(label.corners[1] - label.corners[0])
                corners = (label.corners + rng.normal(0, jitter * width, (4, 2))).astype(np.float32)
                crops = warp(scene.image, corners)[None] if as_labelled else cuts(scene.image, corners)
                yield SceneCard(crops, Card.parse(label.card), label.visible, label.tags, index)


def measure(identifier: Identifier, references: DeckReferences, cards: list[SceneCard]) -> dict[str, object]:
    """Top-1 over ``cards`` per group, with the confusions (``"true->read": count``, most first)."""
    missing = sorted({str(c.card) for c in cards} - {str(c) for c in references.cards})
    if missing:
        raise MalformedInput(f"deck {references.name!r} has no references for cards {', '.join(missing)}")
    read = [ranked[0][0] for ranked in identifier.rank_cuts([c.crops for c in cards], references)]
    report: dict[str, object] = {}
    for group in GROUPS:
        pairs = [(c.card, r) for c, r in zip(cards, read, strict=True) if group in c.groups()]
        wrong = Counter(f"{t}->{r}" for t, r in pairs if t != r)
        report[group] = {
            "cards": len(pairs),
            "top1": round(1 - sum(wrong.values()) / len(pairs), 4) if pairs else None,
            "confusions": dict(wrong.most_common()),
        }
    return report
