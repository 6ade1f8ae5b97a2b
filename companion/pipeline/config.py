"""Thresholds and timings of the live pipeline, one section per stage.

Each stage receives only its own section; distances are in table millimetres
(image pixels when no calibration is known), times in seconds of frame time.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TrackConfig:
    """How readings become stable cards on the table."""

    match_radius: float = 45.0  # a reading this close to a card is that card
    fusion_frames: int = 10  # identity: a mean over the first frames, then a running mean this long
    still_radius: float = 8.0  # movement below this counts as lying still
    jump_radius: float = 30.0  # a reading this far from a placed card, surely another, is a new card
    settle_s: float = 0.35  # a card lying still this long counts as placed
    min_sightings: int = 3  # and must have been seen lying still in at least this many frames
    absent_s: float = 1.2  # unseen this long (a hand over it is shorter): removed
    revive_s: float = 4.0  # a card put back within this time, near where it was, is the same card
    switch_confidence: float = 0.7  # a reading this sure of another card ...
    switch_sightings: int = 4  # ... this many times in a row means the card was replaced
    misread_share: float = 0.1  # ... unless the card's readings gave the other card this much: misread
    reach_s: float = 1.0  # a new card was brought by an arm seen this recently ...
    reach_radius: float = 100.0  # ... whose tip came this close to it
    clear_radius: float = 20.0  # a place seen bare this close to an unseen card: it was taken away


@dataclass(frozen=True)
class RecogniseConfig:
    """How table changes and the rules become game events."""

    trump_margin: float = 30.0  # the trump card sticks out from the stock zone by up to this much
    trump_reach: float = 50.0  # where the play area meets the trump spot: this near the trump card is at it
    play_margin: float = 40.0  # a card this far outside the play area still counts as played
    sure: float = 0.6  # a consistent reading at least this probable is taken at once
    margin: float = 0.25  # ... if it leads the next consistent card by this much
    min_mass: float = 0.2  # below this, vision is sure of a card the rules exclude: doubtful
    spot_mass: float = 0.5  # at the trump spot, a reading must give the trump card or its swaps this much
    doubt_wait_s: float = 0.6  # a doubtful card is watched this much longer before it is flagged
    gather_wait_s: float = 3.0  # a lead is held back this long while the last trick still lies there


@dataclass(frozen=True)
class RunConfig:
    """What the loop keeps of each trick."""

    evidence_quality: int = 80  # JPEG quality of the evidence snapshots


@dataclass(frozen=True)
class PipelineConfig:
    track: TrackConfig = field(default_factory=TrackConfig)
    recognise: RecogniseConfig = field(default_factory=RecogniseConfig)
    run: RunConfig = field(default_factory=RunConfig)
