from __future__ import annotations

import numpy as np

from companion.table.light import in_light_of, light_gain


def _cloth() -> np.ndarray:
    rng = np.random.default_rng(5)
    cloth = np.full((120, 160, 3), (60, 110, 140), np.uint8)
    return np.clip(cloth + rng.normal(0, 6, cloth.shape), 0, 255).astype(np.uint8)


def test_the_light_gain_is_measured_per_colour_channel() -> None:
    cloth = _cloth()
    warm = np.clip(cloth * np.float32((0.9, 1.1, 1.3)), 0, 255).astype(np.uint8)
    assert np.allclose(light_gain(warm, cloth), (0.9, 1.1, 1.3), atol=0.02)


def test_a_picture_in_another_light_looks_as_that_one_does() -> None:
    cloth = _cloth()
    warm = np.clip(cloth * np.float32((0.9, 1.1, 1.3)), 0, 255).astype(np.uint8)
    relit = in_light_of(cloth, warm)
    assert np.abs(relit.astype(int) - warm).mean() < 1.5
    assert np.abs(cloth.astype(int) - warm).mean() > 15


def test_a_picture_in_the_same_light_is_left_as_it_is() -> None:
    cloth = _cloth()
    brighter = np.clip(cloth * np.float32(1.02), 0, 255).astype(np.uint8)
    assert in_light_of(cloth, brighter) is cloth
