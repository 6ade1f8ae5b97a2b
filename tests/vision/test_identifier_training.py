"""A smoke run of the identifier's training on made-up cards: crops, features, head, ONNX export."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import torch
from identifier_cards import SMALL_DECK, card_image

from companion.training.identifier import (
    CARDS,
    Backbone,
    IdentifierNet,
    backbone_features,
    export_onnx,
    render_crops,
    train_head,
)
from companion.vision.identifier import Identifier

cv2.setNumThreads(1)
torch.set_num_threads(1)


def test_training_smoke_run_exports_a_working_model(tmp_path: Path) -> None:
    cards = SMALL_DECK[:4]
    crops = render_crops({"made-up": {c: card_image(c) for c in cards}}, per_card=3, seed=0)
    assert crops.images.shape == (12, 128, 80, 3)
    assert sorted(set(crops.labels)) == sorted(CARDS.index(c) for c in cards)
    backbone = Backbone.pretrained()
    features = backbone_features(backbone, crops.images)
    assert features.shape == (12, 112, 8, 5)
    head = train_head(features, crops.labels, epochs=2, seed=0, log=tmp_path / "log.txt")
    assert (tmp_path / "log.txt").read_text().count("epoch") == 2
    export_onnx(IdentifierNet(backbone, head), tmp_path / "identifier.onnx")
    embedding, logits = Identifier.from_file(tmp_path / "identifier.onnx").embed(crops.images)
    assert embedding.shape == (12, 128) and logits.shape == (12, 48)
    np.testing.assert_allclose(np.linalg.norm(embedding, axis=1), 1, atol=1e-4)
    with torch.no_grad():
        expected, _ = IdentifierNet(backbone, head)(
            torch.from_numpy(crops.images[..., ::-1].transpose(0, 3, 1, 2).copy()).float()
        )
    np.testing.assert_allclose(embedding, expected.numpy(), atol=1e-3)
