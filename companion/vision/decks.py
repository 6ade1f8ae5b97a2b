"""Deck styles the identifier knows: their references, how to teach one, where they live.

Teaching a deck takes one image per card (``1O.png`` .. ``12B.png``, scans or photos),
renders augmented views of each as a camera would see them (perspective, light, blur,
noise, JPEG, occlusion at the edges, a misaligned crop), and keeps a whitening of the
embeddings (under which the views of one card spread alike in every direction) and the
mean whitened view of each card in both orientations. Only these are stored, never the images.
Shipped decks live in ``models/decks/``; taught ones in the user's data folder.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.cards import Card
from companion.errors import MalformedInput, MissingResource, UnknownName
from companion.paths import data_dir, models_dir
from companion.vision.identifier import CROP_HEIGHT, CROP_WIDTH, IDENTITIES, Identifier, rectify

TEACH_VIEWS = 48
"""Augmented views per card when teaching (each also read upside down)."""

DETECTOR_JITTER = 0.02
"""How far a detector's corners stray from a card's own, as a fraction of its width (standard
deviation): training and teaching crops are cut from corners jittered so."""

WHITENING_SHRINK = 0.1
"""How far the views' spread is shrunk towards a sphere before whitening (chosen on validation
crops with 24 views per card, which describe a 128-d spread only roughly)."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class DeckReferences:
    """What teaching derives from a deck: its cards' mean views, in both orientations, whitened.

    An embedding ``e`` is compared with the deck as ``e @ whitening``; ``embeddings[k]`` is the
    mean whitened view of card ``cards[owners[k]]`` in one orientation.
    """

    name: str
    cards: tuple[Card, ...]
    embeddings: np.ndarray
    owners: np.ndarray
    whitening: np.ndarray
    origin: str
    source: str

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {"name": self.name, "source": self.source}
        with path.open("wb") as file:
            np.savez_compressed(
                file,
                cards=np.array([str(c) for c in self.cards]),
                embeddings=self.embeddings.astype(np.float32),
                owners=self.owners.astype(np.int16),
                whitening=self.whitening.astype(np.float32),
                meta=np.array(json.dumps(meta)),
            )

    @classmethod
    def load(cls, path: Path, origin: str) -> DeckReferences:
        try:
            with np.load(path) as data:
                if "whitening" not in data:
                    raise MalformedInput(f"deck references {path} are from an older version: teach it again")
                meta = json.loads(str(data["meta"]))
                return cls(
                    name=meta["name"],
                    cards=tuple(Card.parse(c) for c in data["cards"]),
                    embeddings=data["embeddings"].astype(np.float32),
                    owners=data["owners"].astype(np.int64),
                    whitening=data["whitening"],
                    origin=origin,
                    source=meta["source"],
                )
        except (OSError, KeyError, ValueError) as error:
            raise MalformedInput(f"broken deck references {path}: {error}") from None


def shipped_dir() -> Path:
    return models_dir() / "decks"


def taught_dir() -> Path:
    return data_dir() / "decks"


def _deck_files() -> dict[str, tuple[Path, str]]:
    """Deck name -> (references file, origin); a taught deck never hides a shipped one."""
    found: dict[str, tuple[Path, str]] = {}
    for folder, origin in ((taught_dir(), "taught"), (shipped_dir(), "shipped")):
        if folder.is_dir():
            found.update({p.stem: (p, origin) for p in sorted(folder.glob("*.npz"))})
    return found


def read_decks() -> tuple[list[DeckReferences], dict[str, str]]:
    """Every deck the installation knows (shipped ones first, then by name), and why each deck
    whose references cannot be read (broken, or from an older version) was left out."""
    decks, unreadable = [], {}
    for name, (path, origin) in _deck_files().items():
        try:
            decks.append(DeckReferences.load(path, origin))
        except MalformedInput as error:
            unreadable[name] = str(error)
    return sorted(decks, key=lambda d: (d.origin != "shipped", d.name)), unreadable


def list_decks() -> list[DeckReferences]:
    """The decks that can be used now: :func:`read_decks` without the unreadable ones."""
    return read_decks()[0]


def load_deck(name: str) -> DeckReferences:
    """The references of deck ``name``; raises :class:`UnknownName` listing the known decks."""
    files = _deck_files()
    if name not in files:
        known = ", ".join(sorted(files)) or "none"
        raise UnknownName(
            f"unknown deck {name!r} (known decks: {known}; teach one with 'companion deck teach')"
        )
    return DeckReferences.load(*files[name])


def read_card_images(folder: Path) -> dict[Card, np.ndarray]:
    """One image per card from ``folder``, named by the card (``1O.png``, ``12b.jpg``...).

    Other files are ignored; images keep their alpha channel, if any.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise MissingResource(f"no such folder of card images: {folder}")
    images: dict[Card, np.ndarray] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            card = Card.parse(path.stem)
        except MalformedInput:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise MalformedInput(f"unreadable card image: {path}")
        if card in images:
            raise MalformedInput(f"two images for card {card} in {folder}")
        images[card] = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if not images:
        raise MalformedInput(f"no card images named like 1O.png .. 12B.png in {folder}")
    return images


@dataclass(frozen=True)
class ViewRange:
    """How far augmented views of a card range: its height on the cloth in pixels, before
    rectifying, and the strongest Gaussian blur (sigma, pixels)."""

    heights: tuple[float, float] = (80, 280)
    blur: float = 1.6


CROPS = ViewRange()
"""The identifier's training and evaluation crops."""

TEACHING = ViewRange(heights=(40, 280), blur=2.5)
"""Teaching views: also the tiny, soft cards of a camera high above a large table (chosen on
rendered validation scenes of a deck never trained on: 9 instead of 14 of 1,439 wholly
visible cards misread, with 48 views instead of 24)."""


def _noise(rng: np.random.Generator, shape: tuple[int, ...], sigma: float) -> np.ndarray:
    return rng.standard_normal(shape, dtype=np.float32) * np.float32(sigma)


def _background(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A plain, striped or checked cloth with noise, in a random colour."""
    colour = rng.integers(0, 256, 3).astype(np.float32)
    canvas = np.broadcast_to(colour, (height, width, 3)).copy()
    kind = rng.integers(0, 3)
    if kind:
        period = int(rng.integers(6, 40))
        xs = (np.arange(width) // period) % 2
        ys = (np.arange(height) // period) % 2 if kind == 2 else np.zeros(height, np.int64)
        stripes = ((xs[None, :] + ys[:, None]) % 2).astype(np.float32)
        shift = (rng.integers(0, 256, 3) - colour) * rng.uniform(0.3, 1.0)
        canvas += stripes[..., None] * shift.astype(np.float32)
    canvas += _noise(rng, (height, width, 1), rng.uniform(2, 12))
    return canvas


def _occlude(canvas: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """Cover part of the card from one of its edges: a finger, a hand, another card."""
    a, b = quad[rng.integers(0, 4)], quad[rng.integers(0, 4)]
    point = a + (b - a) * rng.uniform(0, 1)
    size = np.linalg.norm(quad[1] - quad[0]) * rng.uniform(0.1, 0.35)
    colour = rng.choice([(90, 120, 190), (60, 90, 150), (235, 235, 230), (40, 40, 40)]) + rng.normal(0, 15, 3)
    axes = (int(size), int(size * rng.uniform(0.4, 1.0)))
    cv2.ellipse(canvas, tuple(int(v) for v in point), axes, rng.uniform(0, 180), 0, 360, colour.tolist(), -1)


def _light(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour cast, exposure, a shading gradient and sometimes a glare spot."""
    h, w = canvas.shape[:2]
    gain = (rng.uniform(0.75, 1.25, 3) * rng.uniform(0.6, 1.3)).astype(np.float32)
    angle, strength = rng.uniform(0, 2 * np.pi), rng.uniform(-0.5, 0.5)
    xs = np.arange(w, dtype=np.float32) / w
    ys = np.arange(h, dtype=np.float32) / h
    shade = 1 + strength * (np.cos(angle) * xs[None, :] + np.sin(angle) * ys[:, None])
    canvas = canvas * gain * shade[..., None]
    if rng.random() < 0.25:
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.4) * w
        glare = np.exp(-((xs[None, :] * w - cx) ** 2 + (ys[:, None] * h - cy) ** 2) / (2 * r * r))
        canvas += (np.float32(rng.uniform(60, 200)) * glare)[..., None]
    return canvas


def _degrade(canvas: np.ndarray, rng: np.random.Generator, blur: float) -> np.ndarray:
    """Blur (Gaussian up to sigma ``blur``, or motion), sensor noise and JPEG compression."""
    if rng.random() < 0.6:
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, blur))
    if rng.random() < 0.15:
        k = int(rng.integers(3, 8))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        rotation = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        canvas = cv2.filter2D(canvas, -1, cv2.warpAffine(kernel, rotation, (k, k)))
    canvas = canvas + _noise(rng, canvas.shape, rng.uniform(0, 8))
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        quality = int(rng.integers(30, 95))
        image = cv2.imdecode(
            cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR
        )
    return image


def augment(image: np.ndarray, rng: np.random.Generator, views: ViewRange = CROPS) -> np.ndarray:
    """One camera-like view of a card image, rectified from slightly wrong corners, as a crop.

    The card is drawn small or large, tilted in perspective (up to about 35 degrees), turned,
    lit, partly covered at an edge, blurred, noised and JPEG-compressed on a cloth; its crop
    is then taken from jittered corners, like a detector's, upright.
    """
    ih, iw = image.shape[:2]
    height = rng.uniform(*views.heights)
    width = height * iw / ih
    rect = np.float32([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2
    theta = rng.uniform(0, 2 * np.pi)
    turn = np.float32([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    quad = rect @ turn.T + rng.normal(0, 0.05 * height, (4, 2)).astype(np.float32)
    quad -= quad.min(axis=0) - 0.1 * height
    cols, rows = (quad.max(axis=0) + 0.1 * height).astype(int)
    source = np.float32([[0, 0], [iw, 0], [iw, ih], [0, ih]])
    homography = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    bgr = cv2.warpPerspective(image[:, :, :3], homography, (int(cols), int(rows)), flags=cv2.INTER_AREA)
    alpha = image[:, :, 3] if image.shape[2] == 4 else np.full((ih, iw), 255, np.uint8)
    mask = cv2.warpPerspective(alpha, homography, (int(cols), int(rows)), flags=cv2.INTER_LINEAR)[
        ..., None
    ] / np.float32(255)
    canvas = _background(rng, int(rows), int(cols)) * (1 - mask) + bgr * mask
    if rng.random() < 0.35:
        _occlude(canvas, quad, rng)
    canvas = _degrade(_light(canvas, rng), rng, views.blur)
    corners = quad + rng.normal(0, DETECTOR_JITTER * width, (4, 2)).astype(np.float32)
    return rectify(canvas, corners)


def upright(image: np.ndarray) -> np.ndarray:
    """The card image itself, resized to a crop (no augmentation)."""
    return cv2.resize(image[:, :, :3], (CROP_WIDTH, CROP_HEIGHT), interpolation=cv2.INTER_AREA)


def augmented_views(
    image: np.ndarray, rng: np.random.Generator, count: int, views: ViewRange = TEACHING
) -> np.ndarray:
    """The clean card and ``count - 1`` augmented views of it, as (count, H, W, 3) crops."""
    return np.stack([upright(image)] + [augment(image, rng, views) for _ in range(count - 1)])


def whitening(views: np.ndarray, shrink: float = WHITENING_SHRINK) -> np.ndarray:
    """(D, D) map under which views spread about their card's mean alike in every direction.

    ``views`` (..., V, D): V embedded views of each card (and orientation); their spread is
    shrunk by ``shrink`` towards a sphere of the same size.
    """
    spread = (views - views.mean(axis=-2, keepdims=True)).reshape(-1, views.shape[-1])
    covariance = spread.T @ spread / len(spread)
    size = len(covariance)
    covariance = (1 - shrink) * covariance + shrink * np.trace(covariance) / size * np.eye(size)
    values, vectors = np.linalg.eigh(covariance)
    return (vectors / np.sqrt(values)).astype(np.float32)


def build_references(
    name: str,
    images: dict[Card, np.ndarray],
    identifier: Identifier,
    source: str,
    seed: int = 0,
    views: int = TEACH_VIEWS,
    progress: Callable[[Iterable[Card]], Iterable[Card]] = iter,
) -> DeckReferences:
    """Embed ``views`` views of each card, each both ways up; whiten them by their spread about
    their card's mean, and keep one mean whitened view per card and orientation."""
    rng = np.random.default_rng(seed)
    cards = tuple(sorted(images, key=IDENTITIES.index))
    embedded = []
    for card in progress(cards):
        crops = augmented_views(images[card], rng, views)
        embedded.append([identifier.embed(np.ascontiguousarray(t))[0] for t in (crops, crops[:, ::-1, ::-1])])
    seen = np.array(embedded)  # (cards, 2 orientations, views, D)
    white = whitening(seen)
    means = seen.mean(axis=2).reshape(-1, seen.shape[-1]) @ white
    owners = np.repeat(np.arange(len(cards)), 2)
    return DeckReferences(name, cards, means, owners, white, "", source)


def teach(
    name: str,
    folder: Path,
    identifier: Identifier,
    progress: Callable[[Iterable[Card]], Iterable[Card]] = iter,
    into: Path | None = None,
) -> tuple[DeckReferences, float]:
    """Teach deck ``name`` from ``folder`` and store it in ``into`` (default: the taught decks).

    Returns the references and the seconds it took. A shipped deck's name cannot be taught.
    """
    if not _NAME_RE.match(name):
        raise MalformedInput(f"bad deck name {name!r}: use lowercase letters, digits, '.', '_' or '-'")
    if (shipped_dir() / f"{name}.npz").is_file():
        raise MalformedInput(f"deck {name!r} is shipped with the product: teach it under another name")
    start = time.perf_counter()
    images = read_card_images(folder)
    references = build_references(
        name, images, identifier, source=str(Path(folder).resolve()), progress=progress
    )
    path = (into or taught_dir()) / f"{name}.npz"
    references.save(path)
    return DeckReferences.load(path, "taught"), time.perf_counter() - start
