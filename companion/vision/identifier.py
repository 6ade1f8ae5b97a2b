"""Name face-up cards: rectified card crop -> probabilities over the cards of the active deck.

The network (``models/identifier.onnx``, run by ONNX Runtime) maps a crop to an
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
from companion.errors import MissingResource, RecognitionFailure
from companion.paths import models_dir
from companion.vision.readings import Face, Reading
from companion.vision.runtime import session_options

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

BATCH = 64
"""Crops per network run: larger batches gain nothing on a CPU and need gigabytes."""


def default_model_path() -> Path:
    return models_dir() / "identifier.onnx"


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


def rectify(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card under ``corners`` warped upright to ``CROP_HEIGHT`` x ``CROP_WIDTH`` (BGR).

    Which short edge ends up on top is arbitrary: the identifier reads both ways.
    """
    target = np.float32([[0, 0], [CROP_WIDTH, 0], [CROP_WIDTH, CROP_HEIGHT], [0, CROP_HEIGHT]])
    homography = cv2.getPerspectiveTransform(card_quad(corners), target)
    return cv2.warpPerspective(
        frame, homography, (CROP_WIDTH, CROP_HEIGHT), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


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
        """Load the ONNX model (default ``models/identifier.onnx``)."""
        import onnxruntime as ort

        path = Path(path) if path is not None else default_model_path()
        if not path.is_file():
            raise MissingResource(f"identifier model not found: {path}")
        options = session_options(threads)
        try:
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise RecognitionFailure(f"cannot load identifier model {path}: {error}") from None
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

    def probabilities(self, crops: np.ndarray, references: DeckReferences) -> np.ndarray:
        """(N, len(references.cards)) probabilities over the cards of the deck, from each crop
        and the crop turned 180 degrees."""
        if len(crops) == 0:
            return np.zeros((0, len(references.cards)), np.float32)
        crops = np.asarray(crops)
        logits = reference_logits(self.embed(np.concatenate([crops, crops[:, ::-1, ::-1]]))[0], references)
        return softmax((logits[: len(crops)] + logits[len(crops) :]) / 2)

    def rank(self, crops: np.ndarray, references: DeckReferences) -> list[list[tuple[Card, float]]]:
        """For each crop the deck's most likely cards, best first, with their probabilities."""
        ranked = []
        for p in self.probabilities(crops, references):
            best = np.argsort(-p)[:TOP_ALTERNATIVES]
            ranked.append([(references.cards[i], float(p[i])) for i in best])
        return ranked

    def identify(
        self, frame: np.ndarray, readings: Sequence[Reading], references: DeckReferences
    ) -> list[Reading]:
        """``readings`` with every face-up card named; backs are returned unchanged."""
        up = [i for i, r in enumerate(readings) if r.face is Face.UP]
        crops = np.stack([rectify(frame, readings[i].corners) for i in up]) if up else np.zeros((0,))
        named = list(readings)
        for i, alternatives in zip(up, self.rank(crops, references), strict=True):
            named[i] = readings[i].named(alternatives)
        return named


def reference_logits(embedding: np.ndarray, references: DeckReferences) -> np.ndarray:
    """Per crop and deck card: the squared whitened distance to the card's nearer mean view,
    scaled to (negative) logits."""
    whitened = embedding @ references.whitening
    means = references.embeddings
    distance = (whitened**2).sum(1)[:, None] - 2 * whitened @ means.T + (means**2).sum(1)[None]
    nearest = np.full((len(embedding), len(references.cards)), np.inf, np.float32)
    np.minimum.at(nearest.T, references.owners, distance.T)
    return -REFERENCE_SCALE * nearest
