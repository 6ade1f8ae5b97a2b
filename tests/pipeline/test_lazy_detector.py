"""The detector looks again only when the part of the frame it looks at changed."""

from __future__ import annotations

import numpy as np
import pytest

from companion.pipeline.lazy_detector import LazyDetector
from companion.vision.readings import Face, Reading

WINDOW = (200, 40, 1080, 680)
CARD_PX = 60  # a card's short side, frame px
RNG = np.random.default_rng(7)


class CountingDetector:
    """Boxes one card wherever asked, and counts how often it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, frame, within=None, card_px=None):
        assert within == WINDOW and card_px == CARD_PX
        self.calls += 1
        return [Reading(np.array([[300.0, 300], [360, 300], [360, 393], [300, 393]]), Face.UP, 0.9)]


def checked_cloth() -> np.ndarray:
    """A 1280x720 table under a blue-and-white checked cloth (squares of 24 px)."""
    ys, xs = np.mgrid[0:720, 0:1280]
    white = ((xs // 24 + ys // 24) % 2 == 0)[..., None]
    return np.where(white, np.uint8([235, 235, 235]), np.uint8([150, 60, 20])).astype(np.uint8)


def filmed(table: np.ndarray, light: float = 1.0) -> np.ndarray:
    """``table`` as the camera gives it: in ``light`` times the brightness, with sensor noise."""
    noisy = table.astype(np.float64) * light + RNG.normal(0.0, 4.0, table.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def with_card(table: np.ndarray, x: int, y: int) -> np.ndarray:
    """``table`` with a face-up card (cream, a red figure) whose top left corner is at (x, y)."""
    out = table.copy()
    out[y : y + 93, x : x + CARD_PX] = (200, 225, 240)
    out[y + 20 : y + 73, x + 12 : x + 48] = (40, 40, 200)
    return out


@pytest.fixture
def detector() -> CountingDetector:
    return CountingDetector()


def test_a_still_table_is_looked_at_once_whatever_the_noise_and_light(detector):
    lazy = LazyDetector(detector, WINDOW, CARD_PX)
    table = with_card(checked_cloth(), 400, 300)
    found = [lazy.detect(filmed(table, light)) for light in (1.0, 1.0, 0.9, 0.85, 1.0, 1.1)]
    assert detector.calls == 1 and (lazy.looked, lazy.skipped) == (1, 5)
    assert all(boxes == found[0] for boxes in found)


def test_a_still_table_is_looked_at_once_as_a_lamp_that_clipped_its_white_goes_off(detector):
    """Under the lamp the cloth's white clipped at the camera's brightest level: it says nothing of
    how much brighter the lamp was, and darkened to the room's light it would differ from the
    white the camera now shows."""
    lazy = LazyDetector(detector, WINDOW, CARD_PX)
    table = with_card(checked_cloth(), 400, 300)
    for light in (1.25, 1.25, 0.9, 0.95, 1.25):
        lazy.detect(filmed(table, light))
    assert detector.calls == 1


def test_a_card_laid_in_the_window_is_looked_at_then_left_while_it_lies(detector):
    lazy = LazyDetector(detector, WINDOW, CARD_PX)
    cloth = checked_cloth()
    lazy.detect(filmed(cloth))
    for _ in range(3):
        lazy.detect(filmed(with_card(cloth, 600, 400)))
    assert detector.calls == 2


def test_a_card_nudged_a_few_pixels_at_a_time_is_looked_at_after_each_nudge(detector):
    lazy = LazyDetector(detector, WINDOW, CARD_PX)
    cloth = checked_cloth()
    for x in (500, 504, 508, 512):
        for _ in range(3):
            lazy.detect(filmed(with_card(cloth, x, 300)))
    assert detector.calls == 4


def test_a_card_laid_outside_the_window_is_not_looked_at(detector):
    lazy = LazyDetector(detector, WINDOW, CARD_PX)
    cloth = checked_cloth()
    lazy.detect(filmed(cloth))
    lazy.detect(filmed(with_card(cloth, 60, 300)))
    assert detector.calls == 1


def test_a_speck_smaller_than_a_twentieth_of_a_card_is_no_change(detector):
    lazy = LazyDetector(detector, WINDOW, CARD_PX)
    cloth = checked_cloth()
    lazy.detect(filmed(cloth))
    specked = cloth.copy()
    specked[500:512, 700:708] = 0  # crumbs
    lazy.detect(filmed(specked))
    assert detector.calls == 1
