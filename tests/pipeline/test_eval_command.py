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


def test_a_rendered_games_own_folder_is_that_one_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "game.mp4").write_bytes(b"not watched")
    assert main(["eval", "video", str(tmp_path)]) != 0
    error = capsys.readouterr().err
    assert "no true record for 1 game(s)" in error and str(tmp_path / "record.json") in error


def test_a_folder_without_games_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "video", str(tmp_path)]) != 0
    assert "no game.mp4 in" in capsys.readouterr().err
