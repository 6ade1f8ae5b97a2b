"""`companion eval video` on a folder of rendered games."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


def test_a_game_without_its_true_record_is_named_before_any_game_is_watched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.mp4").write_bytes(b"not watched")
    (tmp_path / "a" / "record.json").write_text("{}")
    assert main(["eval", "video", str(tmp_path)]) != 0
    error = capsys.readouterr().err
    assert "no true record for 1 game(s)" in error and str(tmp_path / "b" / "record.json") in error
