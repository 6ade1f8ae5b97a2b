"""The light on the table: how much brighter one picture of it is than another, and a picture
shown in another's light.

Rooms change their light (a lamp switched on, daylight fading) and cameras their exposure with
it; pictures of the table compared across such a change would show every card as changed. Two
pictures are compared in the brighter one's light (:func:`in_one_light`): what was white under
the lamp clipped at the camera's brightest level, and darkened to the dimmer light it would be
one flat grey where the dimmer picture shows the cloth's weave and the cards' shading. A camera's
levels are not quite proportional to the light (its black level, the glare in its lens, its
compression), so the dimmer picture is brought to the brighter one's levels along a line fitted
to the two pictures' own levels (:func:`light_line`), not by a gain alone. People
cast shadows too (someone leaning over the table): a shadow darkens what lies under it by the same
share in every channel, a share that changes smoothly, where a card or an arm brings colours and
edges of its own (:func:`in_shade`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

#: A change of light of at most this share in every channel is left alone: it moves no pixel
#: near the proposer's threshold of a change.
SAME_LIGHT = 0.03
#: The levels of one picture taken to another's light (:func:`light_line`) lie within this share
#: of the other's level, plus this many levels, of the line fitted so far (a card come or gone
#: leaves its levels far off it) ...
LINE_SHARE, LINE_SLACK = 0.3, 8.0
#: ... and the levels of a cloth of one tone, close together, say little of the line's slope: it
#: leans towards the gain's as if that were seen across this many levels.
LINE_PRIOR = 10.0
#: Above this level a camera, and a video's encoding, squeeze the brightest tones together (the
#: shoulder of their tone curve: under a lamp a white that was 200-240 in the room's light comes
#: out at 245-250), so the line is fitted to the levels it is taken to below it.
SHOULDER = 240
#: The 256 levels of a colour channel of 8 bits.
LEVELS = np.arange(256, dtype=np.float64)
#: A channel this bright may have clipped at the camera's brightest level: how much brighter one
#: picture is than another says nothing of the light there ...
CLIPPED = 250
#: ... so such pixels are left out of the light's measure where at least this share of them is not.
UNCLIPPED_SHARE = 0.1
#: Shadows are soft: they are looked for at half the resolution of the pictures given, where
#: the sizes below (px) are measured.
#: The box both pictures are averaged over before their ratio is taken (a camera's grain).
SHADE_PATCH = 3
#: The darkest shadow: what lies in it keeps at least this share of its light.
DARKEST_SHADE = 0.4
#: Over this window, a shadow's depth (log of the ratio of the pictures) varies by less than
#: this (standard deviation); at a card's or an arm's edge it jumps.
SHADE_WINDOW, SHADE_SMOOTH = 5, 0.08
#: The channels' depths differ by at most this, plus this share of the depth (a shadow is lit by
#: the rest of the room, often a little bluer than the lamp).
SHADE_TINT, SHADE_BLUER = 0.1, 0.25
#: Around a surely shaded pixel, within this window, a pixel that lies in shade by the same tests
#: at full resolution, pixel by pixel and over this window, and whose depth lies this close to the
#: shadow's there, is in the same shadow (the box and window above blur a card's edge into the
#: shadow around it), and so is a pixel beside it that darkened alike.
SHADE_REACH, FINE_WINDOW, SHADE_LIKE = 9, 3, 0.15


def channel_scalar(per_channel: np.ndarray) -> Any:
    """OpenCV's per-channel scalar (a 4-tuple): multiplying by it is three times faster than numpy."""
    return (*per_channel.tolist(), 0.0)


def light_gain(table: np.ndarray, background: np.ndarray) -> np.ndarray:
    """How much brighter each colour channel of ``table`` is than of ``background``: the median of
    the pixels' ratios (every 49th pixel is plenty), so a cloth of two tones, where the median
    pixel jumps from one tone to the other, does not matter, nor do the few pixels cards cover;
    a pixel clipped in either picture (:data:`CLIPPED`) is left out where enough are not."""
    sample = (slice(None, None, 7), slice(None, None, 7))
    lit, unlit = (picture[sample].reshape(-1, 3).T for picture in (table, background))  # by channel
    ratios = lit / np.maximum(unlit, 1.0, dtype=np.float32)
    unclipped = np.maximum(lit, unlit) < CLIPPED
    enough = unclipped.sum(axis=1) >= UNCLIPPED_SHARE * ratios.shape[1]
    return np.array([np.median(r[u] if e else r) for r, u, e in zip(ratios, unclipped, enough, strict=True)])


def in_light_of(picture: np.ndarray, other: np.ndarray) -> np.ndarray:
    """``picture`` (BGR, 8 bits) as it would look in the light of ``other``, a picture of the same
    table: each channel's levels taken along the line to ``other``'s (:func:`light_line`);
    ``picture`` itself where the light is the same (:data:`SAME_LIGHT`)."""
    gain = light_gain(other, picture)
    if np.all(np.abs(gain - 1.0) <= SAME_LIGHT):
        return picture
    lines = [light_line(picture[..., c], other[..., c], g) for c, g in enumerate(gain)]
    return _levelled(picture, np.array([slope * LEVELS + offset for slope, offset in lines]))


def in_one_light(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two pictures (BGR, 8 bits) of the same table in one light, to be compared: in each colour
    channel, the darker one brought to the other's levels (:func:`light_line`), which clips it
    where the brighter one clipped; both as they are where the light is the same
    (:data:`SAME_LIGHT`)."""
    gain = light_gain(second, first)
    if np.all(np.abs(gain - 1.0) <= SAME_LIGHT):
        return first, second
    pictures = (first, second)
    curves = [np.tile(LEVELS, (3, 1)), np.tile(LEVELS, (3, 1))]  # each picture's, per channel
    for channel, brighter in enumerate(gain):
        dim, lit = (0, 1) if brighter >= 1.0 else (1, 0)
        slope, offset = light_line(
            pictures[dim][..., channel], pictures[lit][..., channel], max(brighter, 1.0 / brighter)
        )
        curves[dim][channel] = slope * LEVELS + offset
    return _levelled(first, curves[0]), _levelled(second, curves[1])


def light_line(source: np.ndarray, target: np.ndarray, gain: float) -> tuple[float, float]:
    """The line (slope, offset) that takes the levels of one colour channel of ``source`` to those
    of ``target``, a picture of the same table in a light ``gain`` times as bright: fitted to the
    median level of ``target`` at each level of ``source`` (every other pixel), each weighted by its
    pixels, where neither clipped and ``target`` lies below the shoulder of its tone curve
    (:data:`SHOULDER`); from the gain's line, each fit keeps the levels near the one before
    (:data:`LINE_SHARE`, :data:`LINE_SLACK`) and leans towards the gain's slope (:data:`LINE_PRIOR`)."""
    source, target = (np.ascontiguousarray(picture[::2, ::2], np.uint8) for picture in (source, target))
    pairs = cv2.calcHist([source, target], [0, 1], None, [256, 256], [0, 256, 0, 256])
    counts = pairs.sum(axis=1).astype(np.float64)
    medians = np.argmax(2 * pairs.cumsum(axis=1) >= counts[:, None] + 1, axis=1).astype(np.float64)
    usable = (counts > 0) & (LEVELS < CLIPPED) & (medians < SHOULDER)
    slope, offset = gain, 0.0
    for _ in range(3):
        fitted = slope * LEVELS + offset
        weights = counts * (usable & (np.abs(medians - fitted) <= LINE_SHARE * fitted + LINE_SLACK))
        total = weights.sum()
        if total == 0:
            break
        mean_level, mean_median = weights @ LEVELS / total, weights @ medians / total
        spread = weights @ (LEVELS - mean_level) ** 2
        together = weights @ ((LEVELS - mean_level) * (medians - mean_median))
        prior = total * LINE_PRIOR**2
        slope = (together + prior * gain) / (spread + prior)
        offset = mean_median - slope * mean_level
    return float(slope), float(offset)


def _levelled(picture: np.ndarray, curves: np.ndarray) -> np.ndarray:
    """``picture`` with each colour channel's levels taken along its curve (3 x 256), clipping;
    ``picture`` itself where the curves change no level."""
    table = np.clip(np.round(curves), 0, 255).astype(np.uint8)
    if np.array_equal(table, np.tile(LEVELS, (3, 1))):
        return picture
    return np.asarray(cv2.LUT(picture, np.ascontiguousarray(table.T[None])))


def in_shade(
    picture: np.ndarray, other: np.ndarray, either_way: bool = True, smallest: float = 0.0
) -> np.ndarray:
    """The pixels (bool) where ``picture`` (BGR, 8 bits) differs from ``other``, a picture of the
    same table, only by a shadow of at least ``smallest`` px: darker (or, ``either_way``, darker or
    lighter, a shadow gone) by about the same share in every channel, a share that varies smoothly
    (looked for at half the resolution: shadows are soft; a card's grey pip that became white is
    no shadow, too small); also the pixels close to such a shadow that pass the same tests at full
    resolution and darkened as much (a card's edge in the shadow stays sharp)."""
    alike, depth, spread = _shade(
        cv2.pyrDown(picture), cv2.pyrDown(other), either_way, SHADE_PATCH, SHADE_WINDOW
    )
    sure = _large(alike & (spread < SHADE_SMOOTH), smallest / 4)
    reach = (SHADE_REACH, SHADE_REACH)
    weight = cv2.blur(sure.astype(np.float32), reach)
    near = cv2.blur(np.where(sure, depth, 0).astype(np.float32), reach) / np.maximum(weight, 1e-6)
    size = picture.shape[1::-1]
    sure_here, weight_here, near_here = (
        np.asarray(cv2.resize(values, size, interpolation=cv2.INTER_NEAREST))
        for values in (sure.astype(np.uint8), weight, near)
    )
    alike, depth, spread = _shade(picture, other, either_way, 1, FINE_WINDOW)
    alike &= (weight_here > 0) & (np.abs(depth - near_here) <= SHADE_LIKE)
    fine = alike & (spread < SHADE_SMOOTH)
    rim = cv2.dilate(fine.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0  # the fine window's blind edge
    return np.asarray((sure_here > 0) | fine | (rim & alike))


def _large(mask: np.ndarray, smallest: float) -> np.ndarray:
    """The blobs of ``mask`` (bool) of at least ``smallest`` pixels."""
    if smallest <= 1:
        return mask
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    large = stats[:, cv2.CC_STAT_AREA] >= smallest
    large[0] = False  # what lies in no shade
    return np.asarray(large[labels])


def _shade(
    picture: np.ndarray, other: np.ndarray, either_way: bool, patch: int, window: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where ``picture`` is ``other`` in shade, pixel by pixel, over a ``patch`` box (darker, or
    either way, alike in every channel), its depth, and how much that varies over a ``window``."""
    if patch > 1:
        picture, other = cv2.blur(picture, (patch, patch)), cv2.blur(other, (patch, patch))
    depth, tint = _depths(picture, other)
    box = (window, window)
    spread = np.sqrt(np.maximum(cv2.blur(depth * depth, box) - cv2.blur(depth, box) ** 2, 0))
    deep = np.abs(depth) if either_way else -depth
    alike = (deep > SAME_LIGHT) & (deep <= -np.log(DARKEST_SHADE)) & _grey(tint, depth, SHADE_TINT)
    return alike, depth, spread


def _depths(picture: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much darker or lighter ``picture`` is than ``other`` (BGR, 8 bits): the mean over the
    channels of the log of their ratio, and the spread of those logs (OpenCV's per-channel
    arithmetic is many times faster here than numpy's reductions over the channel axis)."""
    logs = cv2.log(cv2.divide(_plus4(picture), _plus4(other)))
    blue, green, red = (cv2.extractChannel(logs, i) for i in range(3))
    spread = cv2.subtract(cv2.max(cv2.max(blue, green), red), cv2.min(cv2.min(blue, green), red))
    return cv2.transform(logs, np.full((1, 3), 1 / 3, np.float32)), spread


def _plus4(picture: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.add(picture, (4.0, 4.0, 4.0, 0.0), dtype=cv2.CV_32F))


def _grey(tint: np.ndarray, depth: np.ndarray, slack: float) -> np.ndarray:
    """Where the channels darkened alike, as under a shadow: ``tint`` (their depths' spread) at most
    ``slack`` plus :data:`SHADE_BLUER` of the ``depth``."""
    return np.asarray(tint <= slack + SHADE_BLUER * np.abs(depth))
