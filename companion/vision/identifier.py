"""Name face-up cards: rectified card crop -> probabilities over the cards of the active deck.

The network (``models/identifier-int8.onnx``, run by ONNX Runtime) maps a crop to an
embedding, trained so that the 48 card identities shared by every Spanish-suited deck
fall apart whatever the artwork. A deck's references (:mod:`companion.vision.decks`)
hold the mean view of each of its cards in both orientations, in an embedding space
whitened by how that deck's views spread, so an upside-down card matches the same card;
a crop, and the crop turned 180 degrees, are read as the card of the nearest mean view.
(The network's identity logits are exported too, but the references alone measured
better on every deck: see ``models/MODEL_CARD.md``.)"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.cards import Card, deck
from companion.paths import models_dir
from companion.vision.readings import Face, Reading
from companion.vision.runtime import load_session

if TYPE_CHECKING:
    from companion.vision.decks import DeckReferences

CROP_WIDTH, CROP_HEIGHT = 80, 128
"""Size of the rectified crop the network sees (portrait, like a card)."""

IDENTITIES: tuple[Card, ...] = deck(48)
"""Every card identity, in the order of the network's logits and of a deck's cards."""

REFERENCE_SCALE = 0.03
"""Logits per unit of squared whitened distance to a card's nearer mean view (chosen on
validation crops so that the probabilities are about right)."""

TOP_ALTERNATIVES = 3

SQUARE_LOOKING = 1.25
"""A card whose long edges look less than this many times as long as its short ones (a card
seen from low, at the edge of a wide-angle view) may lie either way: it is cut out both ways
and the way nearer to a card of the deck is kept. Lying flat, a card is about 1.55 times as
long as it is wide."""

BATCH = 64
"""Crops per network run: larger batches gain nothing on a CPU and need gigabytes."""


SHIPPED_MODEL = "identifier-int8.onnx"
"""The identifier run by default, in ``models/``: the int8 version of ``identifier.onnx`` (the
trained float model, which taught the shipped decks' references): identification 1.5 to 2 times
faster on a 2-core CPU, its top-1 within about one crop in a thousand of the float model's on
every deck (models/MODEL_CARD.md)."""


def default_model_path() -> Path:
    return models_dir() / SHIPPED_MODEL


def card_quad(corners: np.ndarray) -> np.ndarray:
    """The four corners reordered clockwise (in image coordinates) starting at a short edge."""
    quad = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    x, y = quad[:, 0], quad[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) < 0:  # counter-clockwise
        quad = quad[::-1]
    edges = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    if edges[0] + edges[2] > edges[1] + edges[3]:  # first edge is a long one
        quad = np.roll(quad, -1, axis=0)
    return quad


def warp(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card under ``quad`` (clockwise from a short edge) warped upright to ``CROP_HEIGHT`` x
    ``CROP_WIDTH`` (BGR)."""
    target = np.float32([[0, 0], [CROP_WIDTH, 0], [CROP_WIDTH, CROP_HEIGHT], [0, CROP_HEIGHT]])
    homography = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), target)
    return cv2.warpPerspective(
        frame, homography, (CROP_WIDTH, CROP_HEIGHT), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def rectify(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card under ``corners`` warped upright, its longer-looking edges upright.

    Which short edge ends up on top is arbitrary: the identifier reads both ways.
    """
    return warp(frame, card_quad(corners))


def cuts(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card under ``corners`` cut out as :func:`rectify` does (1, H, W, 3); a card that looks
    nearly square (:data:`SQUARE_LOOKING`) also a quarter turn the other way (2, H, W, 3)."""
    quad = card_quad(corners)
    edges = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    ways = [quad]
    if edges[1] + edges[3] < SQUARE_LOOKING * (edges[0] + edges[2]):
        ways.append(np.roll(quad, -1, axis=0))
    return np.stack([warp(frame, way) for way in ways])


def to_blob(crops: np.ndarray) -> np.ndarray:
    """BGR uint8 crops (N, H, W, 3) -> RGB float32 (N, 3, H, W) in 0..255, as the network takes them."""
    return np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


class Identifier:
    """The identification network; one instance per process, reused for every frame."""

    def __init__(self, session: Any) -> None:
        self.session = session

    @classmethod
    def from_file(cls, path: Path | None = None, threads: int = 1) -> Identifier:
        """Load the ONNX model (default the shipped :data:`SHIPPED_MODEL`)."""
        path = Path(path) if path is not None else default_model_path()
        session = load_session(path, "identifier", threads)
        return cls(session)

    def embed(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings (N, D), L2-normalised, and identity logits (N, 48) of BGR crops."""
        if len(crops) == 0:
            return np.zeros((0, 0), np.float32), np.zeros((0, len(IDENTITIES)), np.float32)
        crops = np.asarray(crops)
        parts = [
            self.session.run(None, {"image": to_blob(crops[start : start + BATCH])})
            for start in range(0, len(crops), BATCH)
        ]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def logits(self, crops: np.ndarray, references: DeckReferences) -> np.ndarray:
        """(N, len(references.cards)) logits over the cards of the deck, from each crop and the
        crop turned 180 degrees."""
        crops = np.asarray(crops)
        logits = reference_logits(self.embed(np.concatenate([crops, crops[:, ::-1, ::-1]]))[0], references)
        return (logits[: len(crops)] + logits[len(crops) :]) / 2

    def rank(self, crops: np.ndarray, references: DeckReferences) -> list[list[tuple[Card, float]]]:
        """For each crop, already cut one way, the deck's most likely cards, best first, with
        their probabilities."""
        return self.rank_cuts([crop[None] for crop in np.asarray(crops)], references)

    def rank_cuts(
        self, cut: Sequence[np.ndarray], references: DeckReferences
    ) -> list[list[tuple[Card, float]]]:
        """For each card, cut out one or two ways (:func:`cuts`), the deck's most likely cards:
        of two ways, the one nearer to a card of the deck counts."""
        return [alternatives for alternatives, _ in self.read_cuts(cut, references)]

    def read_cuts(
        self, cut: Sequence[np.ndarray], references: DeckReferences
    ) -> list[tuple[list[tuple[Card, float]], float]]:
        """For each card, cut out one or two ways, the deck's most likely cards (as
        :meth:`rank_cuts`) and how unlike any card of the deck it looks (its strangeness: the
        squared whitened distance to the nearest mean view of a card)."""
        if not cut:
            return []
        logits = self.logits(np.concatenate(cut), references)
        ends = np.cumsum([len(ways) for ways in cut])
        read = []
        for ways in np.split(logits, ends[:-1]):
            nearer = ways[ways.max(axis=1).argmax()]
            read.append((_best(softmax(nearer), references), -float(nearer.max()) / REFERENCE_SCALE))
        return read

    def identify(
        self, frame: np.ndarray, readings: Sequence[Reading], references: DeckReferences
    ) -> list[Reading]:
        """``readings`` with every face-up card named; backs are returned unchanged."""
        up = [i for i, r in enumerate(readings) if r.face is Face.UP]
        named = list(readings)
        read = self.read_cuts([cuts(frame, readings[i].corners) for i in up], references)
        for i, (alternatives, strangeness) in zip(up, read, strict=True):
            named[i] = readings[i].named(alternatives, strangeness)
        return named


def _best(probabilities: np.ndarray, references: DeckReferences) -> list[tuple[Card, float]]:
    """The :data:`TOP_ALTERNATIVES` most likely cards of the deck, best first."""
    best = np.argsort(-probabilities)[:TOP_ALTERNATIVES]
    return [(references.cards[i], float(probabilities[i])) for i in best]


def reference_logits(embedding: np.ndarray, references: DeckReferences) -> np.ndarray:
    """Per crop and deck card: the squared whitened distance to the card's nearer mean view,
    scaled to (negative) logits."""
    whitened = embedding @ references.whitening
    means = references.embeddings
    distance = (whitened**2).sum(1)[:, None] - 2 * whitened @ means.T + (means**2).sum(1)[None]
    nearest = np.full((len(embedding), len(references.cards)), np.inf, np.float32)
    np.minimum.at(nearest.T, references.owners, distance.T)
    return -REFERENCE_SCALE * nearest
