"""Synthetic decks for renderer tests, so no artwork from ../shared is needed."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from render_helpers import BACK, FACE, flat_card

from companion.datasets.decks import DeckImages

cv2.setNumThreads(1)


@pytest.fixture
def flat_deck() -> DeckImages:
    return DeckImages("flat", {"1O": flat_card(FACE), "2O": flat_card(FACE)}, flat_card(BACK))


@pytest.fixture
def decks_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``shared`` folder holding one small deck style, set as ``COMPANION_SHARED``."""
    folder = tmp_path / "shared" / "decks" / "flat"
    folder.mkdir(parents=True)
    (folder / "deck.json").write_text(json.dumps({"name": "flat", "license": "test"}))
    for name in ("1O", "2C", "3E"):
        cv2.imwrite(str(folder / f"{name}.png"), np.full((156, 100, 3), FACE, np.uint8))
    cv2.imwrite(str(folder / "back.png"), np.full((156, 100, 3), BACK, np.uint8))
    monkeypatch.setenv("COMPANION_SHARED", str(tmp_path / "shared"))
    return folder
