"""The browser tests leave README's screenshots alone unless asked to refresh them."""

from __future__ import annotations

from pathlib import Path

from webui_helpers import DOCS_SCREENSHOTS, REFRESH_SCREENSHOTS, screenshot_folder


def test_screenshots_go_to_the_scratch_folder_by_default(tmp_path: Path) -> None:
    assert screenshot_folder({}, tmp_path) == tmp_path
    assert screenshot_folder({REFRESH_SCREENSHOTS: "0"}, tmp_path) == tmp_path


def test_a_refresh_writes_readmes_screenshots(tmp_path: Path) -> None:
    assert screenshot_folder({REFRESH_SCREENSHOTS: "1"}, tmp_path) == DOCS_SCREENSHOTS
    assert all((DOCS_SCREENSHOTS / name).is_file() for name in ("scoreboard.png", "dispute.png"))
