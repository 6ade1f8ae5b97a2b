"""Where the product finds its shipped models and keeps the user's data."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def models_dir() -> Path:
    """Shipped weights and deck references (``models/``); ``COMPANION_MODELS`` overrides."""
    return Path(os.environ.get("COMPANION_MODELS", PROJECT_ROOT / "models"))


def data_dir() -> Path:
    """The user's data folder: database, taught decks, evidence; ``COMPANION_DATA`` overrides."""
    default = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "brisca-companion"
    return Path(os.environ.get("COMPANION_DATA", default))


def shared_dir() -> Path:
    """Training and evaluation material beside the project (``../shared``); absent on users' machines."""
    return Path(os.environ.get("COMPANION_SHARED", PROJECT_ROOT.parent / "shared"))
