"""Whole games rendered as videos, with their true record: test material for the live pipeline.

A game simulated by the engine (``random_game``) is acted out on a rendered table seen
from above: the stock with the trump card under it, hands that bring each card in and
take tricks away, trump swaps, people peeking at a card, a card nudged or lifted and put
back, light that drifts (or a lamp switched on and off), people's shadows (when asked for: a
hand's, and someone's leaning over the table), a camera that shakes a little and (when asked for)
a stream that stalls over a play, as a phone's over Wi-Fi does. Four ArUco
markers at the table corners let the pipeline calibrate itself. The truth is written beside the
video: the game record and a timeline saying when and where (table mm) each card came to rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.cards import Card, deck
from companion.datasets.compose import CARD_ASPECT, card_corners, drop_shadow, place_card, procedural_back
from companion.datasets.decks import load_deck_images
from companion.datasets.hands import draw_hand
from companion.datasets.shadows import cast_aside, ellipse_points, shade_silhouette
from companion.datasets.surfaces import render_table
from companion.datasets.things import KINDS, draw_thing
from companion.engine import GameRecord, GameState, replay
from companion.errors import MalformedInput
from companion.table.markers import draw_markers
from companion.table.profile import CARD_MM, TableProfile, profile_from_corners

#: The table shown: a small square card table, so cards are big enough in a 720p frame.
TABLE_MM: tuple[float, float] = (640.0, 640.0)
#: Card artwork is shrunk once to this width (px) before it is warped into frames.
ART_WIDTH = 120
#: The table is bumped (the camera shakes for a second) this often.
SHAKE_EVERY_S = 17.0
#: How far the trump card's centre lies from the stock's, in card lengths: some 85% of it shows.
TRUMP_OUT = 0.68
#: With ``switched`` light, the light changes at once this often (s).
SWITCH_EVERY_S = 13.0
#: How fast the camera's automatic exposure answers a change of light (time constant, s).
EXPOSURE_S = 0.8
#: With shadows, the chance that someone starts leaning over the table as a card is played.
LEAN_CHANCE = 0.2
#: How long (s) a head's shadow takes to come over the table, or to leave it.
LEAN_IN_S = 0.8
#: x264 constant-quality setting of the written videos (higher: smaller, blurrier).
CRF = 28
#: With things, the chance that a player sets one down beside them before playing a card; at most
#: :data:`MOST_THINGS` lie on the table at once, and each is taken back after a few plays.
THING_CHANCE = 0.15
MOST_THINGS = 2
#: The table fills this share of the frame's shorter side.
TABLE_SHARE = 0.9
#: The steepest camera tilt filmed (degrees off vertical), as a phone propped at the table's edge.
MAX_TILT = 45.0


@dataclass(frozen=True)
class VideoSpec:
    """How a game video is filmed."""

    size: tuple[int, int] = (1280, 720)
    fps: int = 15
    table_mm: tuple[float, float] = TABLE_MM
    split: str = "val"  # colours and cloths never used to train the detector
    placement: str = "apart"  # how cards are laid in a trick: one of PLACEMENTS
    light: str = "drift"  # how the light changes: one of LIGHTS
    shadows: bool = False  # people cast shadows: each hand its own; now and then someone leans in
    tilt: float = 0.0  # degrees off vertical, the camera standing on seat 0's side: up to MAX_TILT
    things: bool = False  # now and then a player sets a phone, a glass, coins or a pad down beside them
    noise: float = 0.0  # the sensor's noise (grey levels, standard deviation), as a webcam's in a dim room
    stalls: int = 0  # how many plays the stream stalls over, the camera seeing none of them


#: How players lay their cards in a trick: ``apart``, each in front of its seat and clear of the
#: others; ``loose``, tossed near the middle, touching and overlapping the cards played before.
PLACEMENTS = ("apart", "loose")
#: How the light changes: ``drift``, slowly, as daylight does; ``switched``, also at once now and
#: then (a lamp switched on and off, warmer or dimmer than the room), the camera's exposure then
#: taking up to 80% of the change of brightness back within a second or two (none, if it is fixed).
LIGHTS = ("drift", "switched")


def _lamp(rng: np.random.Generator) -> np.ndarray:
    """A lamp's light against the room's (BGR gains): 15-35% brighter or dimmer, often warmer."""
    brightness = 1.0 + rng.choice([-1.0, 1.0]) * rng.uniform(0.15, 0.35)
    warmth = rng.uniform(-0.03, 0.12)
    return brightness * np.array([1.0 - warmth, 1.0, 1.0 + warmth])


@dataclass
class _Sprite:
    image: np.ndarray
    centre: np.ndarray  # table mm
    angle: float
    width: float = CARD_MM[0]  # mm
    aspect: float = CARD_ASPECT
    card_edges: bool = True  # drawn as a card is, with a rectangle's drop shadow and cardboard edge


@dataclass(eq=False)  # one thing is not another of the same looks
class _Thing:
    """A thing set down by ``seat``, taken back once ``plays_left`` more cards are played."""

    kind: str
    sprite: _Sprite
    seat: int
    plays_left: int


@dataclass(frozen=True)
class _Lean:
    """Someone at ``seat`` leaning over the table from ``start`` to ``end`` (s), their head's shadow
    ``reach`` mm over the table's edge at most."""

    seat: int
    start: float
    end: float
    reach: float
    darkness: np.ndarray  # per channel, BGR
    softness: float  # mm
    phase: float


@dataclass
class _Hand:
    seed: int
    wrist: np.ndarray  # table mm
    direction: float


@dataclass
class _Table:
    """What lies on the table now: resting cards by name, the stock count and the trump card."""

    resting: dict[str, _Sprite] = field(default_factory=dict)
    stock: int = 0
    trump: _Sprite | None = None


class GameFilm:
    """Acts out a game record frame by frame; ``frames()`` yields BGR images."""

    def __init__(self, record: GameRecord, deck_style: str, seed: int, spec: VideoSpec | None = None) -> None:
        self.spec = spec or VideoSpec()
        if self.spec.placement not in PLACEMENTS:
            raise MalformedInput(f"unknown placement {self.spec.placement!r}: one of {', '.join(PLACEMENTS)}")
        if self.spec.light not in LIGHTS:
            raise MalformedInput(f"unknown light {self.spec.light!r}: one of {', '.join(LIGHTS)}")
        if self.spec.noise < 0:
            raise MalformedInput(f"sensor noise {self.spec.noise}: a standard deviation, 0 or more")
        if self.spec.stalls < 0:
            raise MalformedInput(f"{self.spec.stalls} stalls: a count, 0 or more")
        if not 0 <= self.spec.tilt <= MAX_TILT:
            raise MalformedInput(f"camera tilt {self.spec.tilt} degrees: 0 (overhead) to {MAX_TILT:g}")
        self.record = record
        self.state = replay(record)
        self.rng = np.random.default_rng(seed)
        self.t = 0.0
        self.timeline: list[dict[str, object]] = []
        w, h = self.spec.size
        self.profile = self._camera(self.rng, w, h, self.state.rules.seats)
        art = load_deck_images(deck_style)
        missing = [str(card) for card in deck(self.state.rules.deck) if str(card) not in art.faces]
        if missing:
            raise MalformedInput(
                f"deck {deck_style!r} has {len(art.faces)} cards, without {', '.join(missing[:4])}"
                f"{'...' if len(missing) > 4 else ''}: these rules play with {self.state.rules.deck} cards"
            )
        self.faces = {name: _shrink(image) for name, image in art.faces.items()}
        back = art.back if art.back is not None else procedural_back(self.rng, "val")
        self.back = _shrink(back)
        px_per_mm = self._px_per_mm
        background = render_table(self.rng, (w, h), split="val", unit=CARD_MM[0] * px_per_mm)  # type: ignore[arg-type]
        self.background = draw_markers(background, self.profile.table_corners_px(), self.spec.table_mm)
        self.table = _Table()
        self._static: np.ndarray | None = None
        self._phase = self.rng.uniform(0, 2 * np.pi, 4)
        lamp_rng = np.random.default_rng([seed, 1])  # its own draws: the films in other light stay the same
        self._lamp, self._exposure_share = _lamp(lamp_rng), lamp_rng.uniform(0.0, 0.8)
        self._shadow_rng = np.random.default_rng([seed, 2])  # the same: films without shadows stay the same
        self._things_rng = np.random.default_rng([seed, 3])  # and films without things
        self._things: list[_Thing] = []
        self._noise_rng = np.random.default_rng([seed, 4])
        self._hand_shadow = (  # a hand's shadow: where (mm, the lamp stands aside), how soft (mm), how dark
            self._shadow_rng.uniform(15, 40) * _unit(self._shadow_rng.uniform(0, 2 * np.pi)),
            self._shadow_rng.uniform(4, 9),
            self._shadow_rng.uniform(0.2, 0.4),
        )
        self._leans: list[_Lean] = []
        self._stalled_plays = _stalled_plays(self.state, self.spec.stalls, np.random.default_rng([seed, 5]))
        self._stalling = False

    @property
    def _px_per_mm(self) -> float:
        """About how many frame pixels a mm of the table spans."""
        return _table_depth_px(self.spec) / TABLE_SHARE / self.spec.table_mm[1]

    def _camera(self, rng: np.random.Generator, w: int, h: int, players: int) -> TableProfile:
        """A slightly tilted overhead view, or one ``spec.tilt`` degrees off vertical: the table
        fills most of the frame's shorter side (a phone may film upright)."""
        aspect = self.spec.table_mm[0] / self.spec.table_mm[1]
        side = _table_depth_px(self.spec)
        top = side * aspect * rng.uniform(0.9, 0.97)
        bottom = side * aspect
        cx, y0 = w / 2 + rng.uniform(-30, 30), (h - side) / 2
        corners = np.array(
            [
                [cx - top / 2, y0],
                [cx + top / 2, y0],
                [cx + bottom / 2, y0 + side],
                [cx - bottom / 2, y0 + side],
            ]
        )
        if self.spec.tilt:
            corners = _seen_tilted(np.radians(self.spec.tilt), aspect, (w * 0.85, side), (cx, y0))
        corners += rng.uniform(-8, 8, (4, 2))
        return profile_from_corners(corners, (w, h), players, self.spec.table_mm)

    # --- drawing -----------------------------------------------------------------------------

    def _corners_px(self, sprite: _Sprite) -> np.ndarray:
        corners_mm = card_corners(tuple(sprite.centre), sprite.width, sprite.angle, sprite.aspect)
        return self.profile.to_image(corners_mm).astype(np.float32)

    def _draw_card(self, canvas: np.ndarray, sprite: _Sprite) -> None:
        corners = self._corners_px(sprite)
        if sprite.card_edges:
            drop_shadow(canvas, corners, (2.0, 3.0), 2.5, 0.3)
        place_card(canvas, sprite.image, corners, (0.6, 1.2) if sprite.card_edges else (0.0, 0.0))

    def _static_layer(self) -> np.ndarray:
        if self._static is None:
            canvas = self.background.copy()
            stock_at = self.profile.layout.stock
            if self.table.trump is not None:
                self._draw_card(canvas, self.table.trump)
            for i in range(min(self.table.stock, 3)):  # from above a pile looks the same, however high
                jitter = np.array([0.6 * i, -0.8 * i])
                self._draw_card(canvas, _Sprite(self.back, stock_at + jitter, 0.05 * np.sin(i)))
            for sprite in self.table.resting.values():
                self._draw_card(canvas, sprite)
            for thing in self._things:
                self._draw_card(canvas, thing.sprite)
            self._static = canvas
        return self._static

    def _frame(self, moving: list[_Sprite], hands: list[_Hand]) -> np.ndarray:
        canvas = self._static_layer().copy()
        for sprite in moving:
            self._draw_card(canvas, sprite)
        px_per_mm = self._px_per_mm
        for lean in self._leans:
            if lean.start <= self.t <= lean.end:
                self._draw_lean(canvas, lean, px_per_mm)
        for hand in hands:
            wrist = self.profile.to_image(hand.wrist)[0]
            rng = np.random.default_rng(hand.seed)
            if not self.spec.shadows:
                draw_hand(canvas, rng, tuple(wrist), hand.direction, 130 * px_per_mm, "val")
                continue
            drawn = canvas.copy()
            mask = draw_hand(drawn, rng, tuple(wrist), hand.direction, 130 * px_per_mm, "val")
            offset, softness, darkness = self._hand_shadow
            cast_aside(canvas, mask, offset * px_per_mm, softness * px_per_mm, darkness)
            canvas[mask] = drawn[mask]
        return self._camera_effects(canvas)

    def _draw_lean(self, canvas: np.ndarray, lean: _Lean, px_per_mm: float) -> None:
        """The shadow of the head and shoulders of someone at ``lean.seat`` leaning over the table:
        it comes in over the table's edge, sways a little, and goes back."""
        centre = self.profile.layout.play_center
        inward = _unit(float(np.arctan2(*(centre - self.profile.layout.seats[lean.seat])[::-1])))
        edge = centre - inward * self._to_edge(centre, -inward)
        come = min(self.t - lean.start, lean.end - self.t, LEAN_IN_S) / LEAN_IN_S
        come = come * come * (3 - 2 * come)
        sway = np.sin(self.t * 1.7 + lean.phase) * np.array([12.0, 8.0])  # mm, in and across
        across = np.array([-inward[1], inward[0]])
        head = edge + inward * (-160 + (lean.reach + 60) * come + sway[0]) + across * sway[1]
        shoulders = head - inward * 170
        outlines = [
            self.profile.to_image(ellipse_points(head, (100, 80), inward)),
            self.profile.to_image(ellipse_points(shoulders, (110, 240), inward)),
        ]
        shade_silhouette(canvas, outlines, lean.softness * px_per_mm, lean.darkness)

    def _to_edge(self, point: np.ndarray, towards: np.ndarray) -> float:
        """How far (mm) the table's edge lies from ``point`` (on the table) going ``towards``."""
        size = np.asarray(self.spec.table_mm)
        with np.errstate(divide="ignore"):
            gaps = np.where(
                towards > 0, (size - point) / towards, np.where(towards < 0, -point / towards, np.inf)
            )
        return float(gaps.min())

    def _camera_effects(self, canvas: np.ndarray) -> np.ndarray:
        """Slowly drifting light, and now and then a slight shake (someone bumps the table)."""
        a, b, c, d = self._phase
        gain = 1.0 + 0.08 * np.sin(self.t / 15.0 + a) + 0.02 * np.sin(self.t / 4.0 + b)
        bump = (self.t - SHAKE_EVERY_S / 2) % SHAKE_EVERY_S
        if bump < 1.0:
            shake = 2.5 * (1.0 - bump) * np.array([np.sin(self.t * 31 + c), np.sin(self.t * 23 + d)])
            matrix = np.array([[1, 0, shake[0]], [0, 1, shake[1]]], np.float32)
            canvas = cv2.warpAffine(canvas, matrix, self.spec.size, borderMode=cv2.BORDER_REFLECT)
        if self.spec.light == "drift":
            canvas = cv2.convertScaleAbs(canvas, alpha=float(gain))
        else:
            canvas = cv2.multiply(canvas, (*(gain * self._switched_gain()).tolist(), 0.0))
        if self.spec.noise:
            grain = self._noise_rng.standard_normal(canvas.shape, np.float32) * self.spec.noise
            canvas = np.clip(canvas + grain, 0, 255).astype(np.uint8)
        return canvas

    def _switched_gain(self) -> np.ndarray:
        """The gain of each colour channel (BGR) under ``switched`` light: the lamp is on every
        other :data:`SWITCH_EVERY_S`, and the camera's exposure follows each switch."""
        switches, since = divmod(self.t, SWITCH_EVERY_S)
        light = self._lamp if switches % 2 else np.ones(3)
        before = np.ones(3) if switches % 2 else self._lamp
        exposure_now, exposure_before = (np.mean(each) ** -self._exposure_share for each in (light, before))
        settled = 1.0 - np.exp(-since / EXPOSURE_S) if switches else 1.0
        return light * exposure_before ** (1.0 - settled) * exposure_now**settled

    def _hold(self, seconds: float, moving: list[_Sprite] | None = None, hands: list[_Hand] | None = None):
        for _ in range(max(1, round(seconds * self.spec.fps))):
            yield self._frame(moving or [], hands or [])
            self.t += 1 / self.spec.fps

    def _changed(self) -> None:
        self._static = None

    # --- acting ------------------------------------------------------------------------------

    def _seat_edge(self, seat: int) -> np.ndarray:
        seat_at = self.profile.layout.seats[seat]
        centre = self.profile.layout.play_center
        return seat_at + (seat_at - centre) * 0.25

    def _spot(self, seat: int) -> tuple[np.ndarray, float]:
        """Where ``seat`` puts its card in the trick, and how it lies."""
        centre = self.profile.layout.play_center
        towards = self.profile.layout.seats[seat] - centre
        towards /= np.linalg.norm(towards)
        if self.spec.placement == "loose":
            (near, far), spread, turn = (0.05, 0.35), 10.0, 0.5
        else:
            (near, far), spread, turn = (0.7, 0.85) if self.state.rules.seats == 2 else (0.9, 1.0), 6.0, 0.15
        distance = self.profile.layout.play_radius * self.rng.uniform(near, far)
        jitter = self.rng.normal(0, spread, 2)
        angle = float(np.arctan2(towards[1], towards[0]) - np.pi / 2 + self.rng.normal(0, turn))
        return centre + towards * distance + jitter, angle

    def _gesture(
        self,
        start: np.ndarray,
        end: np.ndarray,
        seconds: float,
        sprites: list[_Sprite],
        seat: int,
        rng: np.random.Generator | None = None,
    ):
        """A hand from ``seat``'s side moving from ``start`` to ``end`` carrying ``sprites`` (the hand
        drawn from ``rng``, by default the film's)."""
        seed = int((rng or self.rng).integers(2**31))
        offsets = [s.centre - start for s in sprites]
        steps = max(1, round(seconds * self.spec.fps))
        towards_seat = self.profile.layout.seats[seat] - self.profile.layout.play_center
        direction = float(np.arctan2(-towards_seat[1], -towards_seat[0]))
        back = -np.array([np.cos(direction), np.sin(direction)]) * 60.0
        for i in range(steps):
            k = (i + 1) / steps
            k = k * k * (3 - 2 * k)
            at = start + (end - start) * k
            for sprite, offset in zip(sprites, offsets, strict=True):
                sprite.centre = at + offset
            yield from self._hold(1 / self.spec.fps, sprites, [_Hand(seed, at + back, direction)])

    def _mark(self, kind: str, **fields: object) -> None:
        self.timeline.append({"kind": kind, "t": round(self.t, 3), **fields})

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame of the film, in order, as the camera sends them: while the stream stalls, the
        last frame sent before; ``timeline`` fills as they are produced."""
        sent = None
        for frame in self._acted():
            if not self._stalling or sent is None:
                sent = frame
            yield sent

    def _acted(self) -> Iterator[np.ndarray]:
        """Every frame of the game acted out, as the table looks."""
        seats = self.state.rules.seats
        rules = self.state.rules
        self.table.stock = rules.deck - rules.hand_size * seats - 1
        yield from self._hold(1.0)
        plays_in_trick: list[tuple[int, Card]] = []
        tricks = iter(self.state.tricks)
        plays = 0
        for event in self.record.events:
            if event.type == "trump":
                yield from self._deal(event.card)
            elif event.type == "swap":
                yield from self._swap(event.seat, event.card)
            elif event.type == "play":
                self._stall(plays in self._stalled_plays)
                yield from self._play(event.seat, event.card)
                plays_in_trick.append((event.seat, event.card))
                plays += 1
                if len(plays_in_trick) == seats:
                    yield from self._collect(next(tricks).winner, [c for _, c in plays_in_trick])
                    plays_in_trick = []
                self._stall(False)
        yield from self._hold(1.5)

    def _stall(self, stalling: bool) -> None:
        """Start or end a stall of the stream (the timeline says when it began and how long it was)."""
        if stalling and not self._stalling:
            self._mark("stall", seconds=0.0)
        elif self._stalling and not stalling:
            began = next(event for event in reversed(self.timeline) if event["kind"] == "stall")
            began["seconds"] = round(self.t - float(began["t"]), 3)  # type: ignore[arg-type]
        self._stalling = stalling

    def _deal(self, card: Card) -> Iterator[np.ndarray]:
        stock = self.profile.layout.stock
        along = (
            np.array([1.0, 0.0])
            if abs(stock[0] - self.profile.layout.play_center[0]) > 1
            else np.array([0.0, 1.0])
        )
        self.table.trump = _Sprite(self.faces[str(card)], stock + along * CARD_MM[1] * TRUMP_OUT, np.pi / 2)
        self._changed()
        self._mark("trump", card=str(card))
        yield from self._hold(1.2)

    def _play(self, seat: int, card: Card) -> Iterator[np.ndarray]:
        if self.table.stock == 0 and self.table.trump is not None:
            self.table.trump = None  # the last drawer took it as this trick began (a swap could come before)
            self._changed()
        if self.rng.random() < 0.08:
            yield from self._peek(seat, card)
        if self.spec.shadows:
            self._maybe_lean()
        if self.spec.things:
            yield from self._things_moved(seat)
        target, angle = self._spot(seat)
        sprite = _Sprite(self.faces[str(card)], self._seat_edge(seat).copy(), angle)
        yield from self._gesture(sprite.centre.copy(), target, 0.6, [sprite], seat)
        self.table.resting[str(card)] = sprite
        self._changed()
        self._mark("play", seat=seat, card=str(card), at=[round(float(v), 1) for v in target])
        edge = self._seat_edge(seat)
        yield from self._gesture(target, edge, 0.35, [], seat)
        if self.rng.random() < 0.06:
            yield from self._nudge(seat, sprite)
        yield from self._hold(0.4)

    def _things_moved(self, seat: int) -> Iterator[np.ndarray]:
        """Before ``seat`` plays, a thing whose time is up is taken back, and now and then the player
        sets one down beside them, clear of the play area and the stock."""
        rng = self._things_rng
        for thing in self._things:
            thing.plays_left -= 1
        for thing in [thing for thing in self._things if thing.plays_left < 0]:
            self._things.remove(thing)
            self._changed()
            at = [round(float(v), 1) for v in thing.sprite.centre]
            edge = self._seat_edge(thing.seat)
            yield from self._gesture(thing.sprite.centre.copy(), edge, 0.6, [thing.sprite], thing.seat, rng)
            self._mark("thing-taken", seat=thing.seat, thing=thing.kind, at=at)
        if len(self._things) >= MOST_THINGS or rng.random() >= THING_CHANCE:
            return
        kind = KINDS[int(rng.integers(len(KINDS)))]
        image, width = draw_thing(rng, kind)
        target = self._beside(seat, rng)
        if target is None:
            return
        sprite = _Sprite(
            image,
            self._seat_edge(seat).copy(),
            rng.uniform(0, 2 * np.pi),
            width,
            image.shape[0] / image.shape[1],
            card_edges=kind in ("phone", "pad"),
        )
        yield from self._gesture(sprite.centre.copy(), target, 0.6, [sprite], seat, rng)
        self._things.append(_Thing(kind, sprite, seat, int(rng.integers(2, 12))))
        self._changed()
        self._mark("thing", seat=seat, thing=kind, at=[round(float(v), 1) for v in target])
        yield from self._gesture(target, self._seat_edge(seat), 0.35, [], seat, rng)

    def _beside(self, seat: int, rng: np.random.Generator) -> np.ndarray | None:
        """A spot on the table at ``seat``'s side, clear of the play area, the stock and other things
        (None if none was found)."""
        layout, size = self.profile.layout, np.asarray(self.spec.table_mm)
        outward = layout.seats[seat] - layout.play_center
        outward /= np.linalg.norm(outward)
        across = np.array([-outward[1], outward[0]])
        for _ in range(50):
            spot = (
                layout.play_center
                + outward * rng.uniform(layout.play_radius + 70, np.linalg.norm(size) / 2)
                + across * rng.uniform(-0.35, 0.35) * size.min()
            )
            if (
                (spot > 60).all()
                and (spot < size - 60).all()
                and np.linalg.norm(spot - layout.stock) > CARD_MM[1] * 1.6
                and all(np.linalg.norm(spot - thing.sprite.centre) > 110 for thing in self._things)
            ):
                return spot
        return None

    def _maybe_lean(self) -> None:
        """Now and then someone, not leaning already, leans over the table for a few seconds."""
        rng = self._shadow_rng
        if rng.random() >= LEAN_CHANCE or any(lean.end > self.t for lean in self._leans):
            return
        seat = int(rng.integers(self.state.rules.seats))
        darkness = rng.uniform(0.2, 0.45) * (1 + np.array([-0.06, 0.0, 0.04]) * rng.uniform(-1, 2))
        seconds = rng.uniform(2.5, 9.0)
        lean = _Lean(
            seat=seat,
            start=self.t,
            end=self.t + seconds,
            reach=rng.uniform(60, 260),
            darkness=darkness,
            softness=rng.uniform(12, 30),
            phase=rng.uniform(0, 6),
        )
        self._leans.append(lean)
        self._mark("lean", seat=seat, until=round(lean.end, 3))

    def _peek(self, seat: int, card: Card) -> Iterator[np.ndarray]:
        """A player glances at a card of their hand, lifted face up at their edge of the table."""
        sprite = _Sprite(self.faces[str(card)], self.profile.layout.seats[seat].copy(), 0.3)
        yield from self._hold(0.2, [sprite], [])
        self._mark("peek", seat=seat, card=str(card))

    def _nudge(self, seat: int, sprite: _Sprite) -> Iterator[np.ndarray]:
        """A hand brushes a resting card and shifts it a little."""
        del self.table.resting[next(k for k, v in self.table.resting.items() if v is sprite)]
        self._changed()
        shift = self.rng.normal(0, 8, 2)
        yield from self._gesture(sprite.centre.copy(), sprite.centre + shift, 0.3, [sprite], seat)
        name = next(k for k, v in self.faces.items() if v is sprite.image)
        self.table.resting[name] = sprite
        self._changed()
        self._mark("nudge", seat=seat, card=name)

    def _swap(self, seat: int, card: Card) -> Iterator[np.ndarray]:
        trump = self.table.trump
        if trump is None:
            raise MalformedInput(f"swap of {card} before any trump card was turned up")
        seed = int(self.rng.integers(2**31))
        hand = _Hand(seed, trump.centre + np.array([0.0, 70.0]), -np.pi / 2)
        yield from self._hold(0.5, [], [hand])
        trump.image = self.faces[str(card)]
        self._changed()
        yield from self._hold(0.4, [], [hand])
        self._mark("swap", seat=seat, card=str(card))
        yield from self._hold(0.5)

    def _collect(self, winner: int, cards: list[Card]) -> Iterator[np.ndarray]:
        yield from self._hold(0.9)
        sprites = [self.table.resting.pop(str(card)) for card in cards]
        self._changed()
        centre = np.mean([s.centre for s in sprites], axis=0)
        yield from self._gesture(centre, self._seat_edge(winner) * 1.3 - centre * 0.3, 0.7, sprites, winner)
        self._mark("collected", seat=winner)
        if self.table.stock > 0:
            seats = self.state.rules.seats
            self.table.stock = max(0, self.table.stock - seats)
            self._changed()
            yield from self._hold(0.4)


def _stalled_plays(state: GameState, stalls: int, rng: np.random.Generator) -> frozenset[int]:
    """Which plays (counted from 0) the stream stalls over: ``stalls`` of them, never the game's
    first nor two in a row, so the cards seen tell of each missed one."""
    plays = sum(len(trick.plays) for trick in state.tricks) + len(state.current)
    room = max(0, (plays - 1) // 2)
    if stalls > room:
        raise MalformedInput(f"{stalls} stalls: a game of {plays} plays has room for {room}")
    spread = sorted(rng.choice(np.arange(1, plays - stalls + 1), size=stalls, replace=False).tolist())
    return frozenset(play + i for i, play in enumerate(spread))  # each one further: a gap between any two


def _table_depth_px(spec: VideoSpec) -> float:
    """How high the table stands in the frame (px): :data:`TABLE_SHARE` of the frame's shorter side,
    unless a wide table would then overflow the frame's width."""
    w, h = spec.size
    return min(min(w, h), w * spec.table_mm[1] / spec.table_mm[0]) * TABLE_SHARE


def _seen_tilted(
    tilt: float, aspect: float, size: tuple[float, float], top_middle: tuple[float, float]
) -> np.ndarray:
    """The image corners (0 top-left .. 3 bottom-left) of a table ``aspect`` times as wide as deep,
    seen by a camera ``tilt`` radians off vertical from the bottom edge's side, as large as fits
    ``size`` (w, h px), its top edge's middle at ``top_middle``."""
    table = np.array([[-aspect, -1.0], [aspect, -1.0], [aspect, 1.0], [-aspect, 1.0]])
    # the camera 3 half-depths from the table's centre, turned to face it: depth grows towards the top
    depth = 3.0 - table[:, 1] * np.sin(tilt)
    seen = np.column_stack([table[:, 0], table[:, 1] * np.cos(tilt)]) / depth[:, None]
    seen *= min(size[0] / (seen[2, 0] - seen[3, 0]), size[1] / (seen[2, 1] - seen[0, 1]))
    return seen - seen[0:2].mean(axis=0) + np.asarray(top_middle)


def _unit(angle: float) -> np.ndarray:
    return np.array([np.cos(angle), np.sin(angle)])


def first_tricks(record: GameRecord, tricks: int) -> GameRecord:
    """``record`` cut after its first ``tricks`` tricks: a short film for tests."""
    plays, events = 0, []
    for event in record.events:
        if plays == tricks * record.rules.seats:
            break
        events.append(event)
        plays += event.type == "play"
    return GameRecord(record.rules, record.players, record.first, tuple(events))


def _shrink(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (ART_WIDTH, round(h * ART_WIDTH / w)), interpolation=cv2.INTER_AREA)


def encode(
    frames: Iterable[np.ndarray],
    path: Path,
    fps: int,
    crf: int = CRF,
    progress: Callable[[int], object] | None = None,
) -> int:
    """Write BGR ``frames`` as an H.264 mp4 (compact, readable by OpenCV); returns how many."""
    import av

    count = 0
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": str(crf), "preset": "veryfast"}
        stream.thread_count = 1
        for frame in frames:
            if count == 0:
                stream.height, stream.width = frame.shape[:2]
            container.mux(stream.encode(av.VideoFrame.from_ndarray(frame, format="bgr24")))
            count += 1
            if progress is not None:
                progress(1)
        container.mux(stream.encode())
    return count


def write_game_video(
    record: GameRecord,
    deck_style: str,
    seed: int,
    out: Path,
    spec: VideoSpec | None = None,
    crf: int = CRF,
    progress: Callable[[int], object] | None = None,
) -> dict[str, object]:
    """Render ``record`` into ``out/game.mp4`` beside ``record.json`` and ``timeline.json``."""
    film = GameFilm(record, deck_style, seed, spec)
    out.mkdir(parents=True, exist_ok=True)
    video = out / "game.mp4"
    partial = out / "game.part.mp4"
    try:
        frames = encode(film.frames(), partial, film.spec.fps, crf, progress)
    except BaseException:
        partial.unlink(missing_ok=True)  # no half film left behind
        raise
    partial.replace(video)
    (out / "record.json").write_text(json.dumps(record.to_dict(), indent=1) + "\n")
    summary = {
        "video": video.name,
        "deck": deck_style,
        "seed": seed,
        "fps": film.spec.fps,
        "size": list(film.spec.size),
        "table_mm": list(film.spec.table_mm),
        "placement": film.spec.placement,
        "light": film.spec.light,
        "shadows": film.spec.shadows,
        "tilt": film.spec.tilt,
        "things": film.spec.things,
        "noise": film.spec.noise,
        "stalls": film.spec.stalls,
        "frames": frames,
        "seconds": round(frames / film.spec.fps, 2),
        "events": film.timeline,
    }
    (out / "timeline.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary
