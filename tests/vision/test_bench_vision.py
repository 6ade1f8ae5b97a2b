"""``companion bench vision``: the six cards it times are found, and a detector can be chosen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.paths import models_dir
from companion.vision.detector import SHIPPED_MODEL

pytestmark = pytest.mark.skipif(
    not (models_dir() / SHIPPED_MODEL).is_file(), reason="no committed detector model"
)


def test_without_artwork_it_times_made_up_faces_the_detector_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv("COMPANION_SHARED", str(tmp_path / "no-shared"))
    assert main(["bench", "vision", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["frame"] == "1280x720" and figures["cards"] == 6 and figures["found"] == 6
    assert figures["detect_ms"] > 0 and figures["identify_ms"] > 0
    assert figures["fps"] == pytest.approx(1000 / (figures["detect_ms"] + figures["identify_ms"]), abs=0.1)


def test_another_detector_can_be_timed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("COMPANION_SHARED", str(tmp_path / "no-shared"))
    assert main(["bench", "vision", "--detector", str(models_dir() / "detector.onnx"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["found"] == 6


def test_a_missing_detector_is_a_clear_error(tmp_path: Path, capsys) -> None:
    assert main(["bench", "vision", "--detector", str(tmp_path / "none.onnx")]) != 0
    assert f"detector model not found: {tmp_path / 'none.onnx'}" in capsys.readouterr().err
