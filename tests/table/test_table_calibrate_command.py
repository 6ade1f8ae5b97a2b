"""``companion calibrate`` on generated images: markers, clicked corners, the printable sheet."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import SIZE_MM, render

from companion.cli import main
from companion.table.markers import find_markers
from companion.table.profile import load_profile

cv2.setNumThreads(1)


@pytest.fixture(scope="module")
def scene_image(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    scene = render(21, cards=3, noise=3.0)
    path = tmp_path_factory.mktemp("table") / "table.png"
    cv2.imwrite(str(path), scene.frame)
    return path, scene.corners_px


def test_profile_from_markers_with_its_check_image(
    scene_image: tuple[Path, np.ndarray], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, corners = scene_image
    out = tmp_path / "calibration" / "table.json"
    assert main(["calibrate", "--image", str(image), "--players", "4", "--out", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["source"] == "markers" and printed["players"] == 4
    profile = load_profile(out)
    assert np.abs(profile.table_corners_px() - corners).max() < 3.0
    check = cv2.imread(printed["check"])
    assert check.shape == (720, 1280, 3)
    assert np.count_nonzero(np.any(check != cv2.imread(str(image)), axis=2)) > 5000  # the drawing is there


def test_given_corners_when_the_markers_are_hidden(
    scene_image: tuple[Path, np.ndarray], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, corners = scene_image
    frame = cv2.imread(str(image))
    for x, y in corners.astype(int):
        cv2.circle(frame, (x, y), 100, (70, 75, 80), -1)  # something lies on every marker
    hidden = tmp_path / "hidden.png"
    cv2.imwrite(str(hidden), frame)
    out = tmp_path / "table.json"
    assert main(["calibrate", "--image", str(hidden), "--out", str(out)]) == 2
    assert "markers not found" in capsys.readouterr().err
    given = ",".join(f"{v:.1f}" for v in corners.ravel())
    size = f"{SIZE_MM[0]:g}x{SIZE_MM[1]:g}"
    assert (
        main(["calibrate", "--image", str(hidden), "--corners", given, "--size", size, "--out", str(out)])
        == 0
    )
    assert "from corners" in capsys.readouterr().out
    assert np.abs(load_profile(out).table_corners_px() - corners).max() < 0.1


def test_profile_from_an_image_folder_source(scene_image: tuple[Path, np.ndarray], tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    assert (
        main(
            [
                "calibrate",
                "--source",
                str(scene_image[0].parent),
                "--players",
                "6",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert load_profile(out).players == 6


def test_marker_sheet_png_holds_the_four_markers_at_true_size(tmp_path: Path) -> None:
    sheet = tmp_path / "markers.png"
    assert main(["calibrate", "--markers", str(sheet)]) == 0
    page = cv2.imread(str(sheet))
    assert page.shape[:2] == (3508, 2480)  # A4 at 300 dpi
    found = find_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    side_px = np.linalg.norm(found[0][1] - found[0][0])
    assert side_px / (300 / 25.4) == pytest.approx(50.0, abs=0.5)  # mm


def test_marker_sheet_pdf_is_one_a4_page(tmp_path: Path) -> None:
    sheet = tmp_path / "markers.pdf"
    assert main(["calibrate", "--markers", str(sheet)]) == 0
    content = sheet.read_bytes()
    assert content.startswith(b"%PDF")
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", content)
    assert box is not None
    assert (float(box[1]), float(box[2])) == pytest.approx((595.3, 841.9), abs=1.0)  # A4 in points


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--markers", "sheet.svg"], "sheet.svg"),
        (["--image", "no-such.png", "--out", "t.json"], "no-such.png"),
        (["--image", "x.png", "--size", "90cm", "--out", "t.json"], "90cm"),
    ],
)
def test_bad_arguments_exit_2_naming_the_value(
    argv: list[str],
    named: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.png").write_bytes(b"")
    assert main(["calibrate", *argv]) == 2
    assert named in capsys.readouterr().err
