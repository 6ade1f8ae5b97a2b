from __future__ import annotations

import cv2
import numpy as np

from companion.table.light import channel_scalar, in_light_of, in_one_light, in_shade, light_gain
from companion.table.proposer import ProposerConfig, colour_distance


def _cloth() -> np.ndarray:
    rng = np.random.default_rng(5)
    cloth = np.full((120, 160, 3), (60, 110, 140), np.uint8)
    return np.clip(cloth + rng.normal(0, 6, cloth.shape), 0, 255).astype(np.uint8)


def test_the_light_gain_is_measured_per_colour_channel() -> None:
    cloth = _cloth()
    warm = np.clip(cloth * np.float32((0.9, 1.1, 1.3)), 0, 255).astype(np.uint8)
    assert np.allclose(light_gain(warm, cloth), (0.9, 1.1, 1.3), atol=0.02)


def test_the_light_gain_is_measured_where_neither_picture_clipped() -> None:
    """Three quarters of this cloth are a white weave, clipped under the lamp: their ratio (255 to
    about 225) says nothing of how much brighter the lamp is; the dark stripes say it."""
    rng = np.random.default_rng(4)
    room = np.clip(rng.normal(225, 10, (120, 160, 3)), 0, 255)
    room[:, ::4] = (120, 130, 90)
    lamp = np.clip(room * 1.3, 0, 255).astype(np.uint8)
    assert np.count_nonzero(lamp == 255) > lamp.size * 0.7
    assert np.allclose(light_gain(lamp, room.astype(np.uint8)), 1.3, atol=0.02)


def _checked(tones: tuple[tuple[int, int, int], tuple[int, int, int]]) -> np.ndarray:
    """A cloth of 10 px checks of two ``tones`` (BGR)."""
    rows, cols = np.indices((120, 160)) // 10
    return np.where(((rows + cols) % 2 == 0)[..., None], np.uint8(tones[0]), np.uint8(tones[1]))


def test_a_trick_taken_off_a_bright_checked_cloth_changes_no_light() -> None:
    """The cloth's white squares lie near the brightest level; below it lie its dark squares and the
    cards of a trick, a third of the picture. Once the trick is taken away, the light is the same:
    the ratio of most pixels says so, where the tones left below the white would have changed."""
    rng = np.random.default_rng(6)
    cloth = _checked(((100, 120, 70), (247, 246, 238)))
    trick = cloth.copy()
    trick[20:100, 40:130] = (225, 228, 230)  # white cards with some print
    trick[40:80, 60:110] = (40, 60, 170)
    then, now = (np.clip(p + rng.normal(0, 2, p.shape), 0, 255).astype(np.uint8) for p in (trick, cloth))
    assert np.allclose(light_gain(now, then), 1.0, atol=0.02)


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


def _lamp_lit(light: float) -> np.ndarray:
    """A checked cloth, its white squares faintly woven, and a card's red pip on a white square,
    under a lamp of ``light`` times the room's, as a camera clips it."""
    rng = np.random.default_rng(9)
    rows, cols = np.indices((120, 160)) // 10
    white = ((rows + cols) % 2 == 0)[..., None]
    cloth = np.where(white, rng.normal(215, 12, (120, 160, 3)), np.float64((150, 140, 60)))
    cloth[52:60, 72:80] = (40, 40, 190)
    return np.clip(cloth * light, 0, 255).astype(np.uint8)


def test_a_lamp_switched_off_changes_no_pixel_compared_in_one_light() -> None:
    """Under the lamp the cloth's white clips at the camera's brightest level; darkened to the
    room's light it would be one flat grey where the room's picture shows the weave."""
    lamp, room = _lamp_lit(1.3), _lamp_lit(1.0)
    assert np.count_nonzero(lamp == 255) > lamp.size / 5
    darkened = colour_distance(in_light_of(lamp, room), room)
    assert np.count_nonzero(darkened > ProposerConfig.threshold) > 100
    assert colour_distance(*in_one_light(lamp, room)).max() <= ProposerConfig.threshold
    assert colour_distance(*in_one_light(room, lamp)).max() <= ProposerConfig.threshold


def test_a_card_come_under_a_lamp_still_differs_compared_in_one_light() -> None:
    lamp, room = _lamp_lit(1.3), _lamp_lit(1.0)
    lamp[20:60, 20:45] = (30, 90, 30)  # a green card back laid on the cloth under the lamp
    distance = colour_distance(*in_one_light(lamp, room))
    assert (distance[20:60, 20:45] > ProposerConfig.threshold).all()
    assert (distance[70:, 50:] <= ProposerConfig.threshold).all()


def _camera_lit(picture: np.ndarray, slope: tuple[float, float, float], offset: tuple[float, float, float]):
    """``picture`` (the room's light) under a lamp, as a camera whose levels are not proportional
    to the light shows it: each channel's levels along a line (``slope``, ``offset``) that does not
    pass through black (its black level, the glare in its lens, its compression)."""
    return np.clip(picture * np.float32(slope) + np.float32(offset), 0, 255).astype(np.uint8)


def test_a_lamp_switched_on_changes_no_pixel_where_the_camera_levels_are_not_proportional() -> None:
    """Under the lamp the dark squares of a checked cloth brighten by another share than the light
    squares do: no one gain takes the room's picture to the lamp's, the line through their levels
    does."""
    rng = np.random.default_rng(12)
    room = np.clip(_checked(((20, 8, 30), (150, 140, 165))) + rng.normal(0, 3, (120, 160, 3)), 0, 255)
    room = room.astype(np.uint8)
    lamp = _camera_lit(room, (1.38, 1.34, 1.32), (8.0, 0.0, -12.0))
    by_gain = colour_distance(cv2.multiply(room, channel_scalar(light_gain(lamp, room))), lamp)
    assert np.count_nonzero(by_gain > ProposerConfig.threshold) > by_gain.size / 3
    for first, second in [(room, lamp), (lamp, room)]:
        assert colour_distance(*in_one_light(first, second)).max() <= ProposerConfig.threshold


def test_a_lamp_s_white_squeezed_on_the_camera_s_shoulder_leaves_black_print_black() -> None:
    """Under the lamp the cloth's white squares, 190-240 in the room's light, come out squeezed
    together at 230-250 (the shoulder of the camera's tone curve): a line through them would lean
    flat and lift the black of a card's print by about 28 levels, the line through the levels below the
    shoulder does not."""
    rng = np.random.default_rng(13)
    rows, cols = np.indices((120, 160)) // 10
    white = ((rows + cols) % 2 == 0)[..., None]
    room = np.where(white, rng.uniform(190, 240, (120, 160, 1)), rng.normal((165, 160, 95), 3, (120, 160, 3)))
    room[50:62, 60:100] = 4  # a black print
    room = np.clip(room, 0, 255).astype(np.uint8)
    lit = room * np.float32(1.13)
    lamp = np.clip(np.where(lit > 215, 250 - 35 * np.exp(-(lit - 215) / 25), lit), 0, 255).astype(np.uint8)
    for first, second in [(room, lamp), (lamp, room)]:
        assert colour_distance(*in_one_light(first, second)).max() <= ProposerConfig.threshold


def test_a_cloth_of_one_even_tone_is_taken_to_the_lamp_s_light() -> None:
    """All its pixels have one level: the line's slope is the gain's, its offset what fits."""
    cloth = np.full((120, 160, 3), (60, 110, 140), np.uint8)
    lamp = _camera_lit(cloth, (1.3, 1.2, 1.1), (-5.0, 0.0, 5.0))
    for first, second in [(cloth, lamp), (lamp, cloth)]:
        assert colour_distance(*in_one_light(first, second)).max() <= 1


def test_a_card_alone_on_a_plain_cloth_as_the_lamp_goes_off_still_differs() -> None:
    """The card's white is the only white in the dim picture, and lies where the lit picture shows
    the cloth: its levels say nothing of the light, and are not taken to the cloth's."""
    cloth = _cloth()
    lamp = _camera_lit(cloth, (1.3, 1.3, 1.3), (-10.0, -10.0, -10.0))
    dim = cloth.copy()
    dim[30:90, 50:90] = (215, 220, 222)
    distance = colour_distance(*in_one_light(lamp, dim))
    assert (distance[30:90, 50:90] > ProposerConfig.threshold).all()
    assert (distance[:, 100:] <= ProposerConfig.threshold).all()


def test_pictures_in_the_same_light_are_compared_as_they_are() -> None:
    cloth = _cloth()
    brighter = np.clip(cloth * np.float32(1.02), 0, 255).astype(np.uint8)
    first, second = in_one_light(cloth, brighter)
    assert first is cloth and second is brighter


def _shadowed(picture: np.ndarray, darkness: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """``picture`` with a soft shadow over its left half (each channel, BGR, darkened by up to
    ``darkness``); the mask (bool) of where it lies darkened by at least a tenth of that."""
    soft = np.zeros(picture.shape[:2], np.float32)
    soft[:, :70] = 1.0
    soft = cv2.GaussianBlur(soft, (0, 0), 6)
    shaded = picture * (1 - soft[..., None] * np.float32(darkness))
    return np.clip(shaded, 0, 255).astype(np.uint8), soft > 0.1


def test_a_shadow_is_told_apart_from_a_card_lying_in_it() -> None:
    """A shadow, even one a little bluer than the lamp, darkens the cloth by the same share in
    every channel; a card laid in it does not look like the cloth in shade."""
    cloth = _cloth()
    card = cloth.copy()
    card[40:90, 20:55] = (230, 230, 225)
    for darkness in [(0.3, 0.3, 0.3), (0.4, 0.45, 0.5)]:
        shaded, under = _shadowed(cloth, darkness)
        assert in_shade(shaded, cloth)[under].mean() > 0.95
        assert not in_shade(cloth, shaded, either_way=False).any()  # lighter: a shadow gone, not one come
        assert in_shade(cloth, shaded)[under].mean() > 0.95
        with_card, _ = _shadowed(card, darkness)
        assert not in_shade(with_card, cloth)[40:90, 20:55].any()


def test_a_small_grey_change_is_no_shadow() -> None:
    """A card's pip, grey, where a white card lay before, darkened alike in every channel as a
    shadow does, but a shadow is larger than a card."""
    cloth = _cloth()
    pip = cloth.copy()
    pip[50:62, 70:82] = (cloth[50:62, 70:82] * 0.7).astype(np.uint8)
    assert in_shade(pip, cloth)[52:60, 72:80].mean() > 0.5  # any size
    assert not in_shade(pip, cloth, smallest=2000).any()
    shaded, under = _shadowed(cloth, (0.3, 0.3, 0.3))
    assert in_shade(shaded, cloth, smallest=2000)[under].mean() > 0.95
