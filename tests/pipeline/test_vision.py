"""Making sense of change proposals by where they lie on the table."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.cards import Card, deck
from companion.pipeline.config import RecogniseConfig
from companion.pipeline.recognise import at_trump_spot, choose, in_play
from companion.pipeline.vision import (
    STRANGE,
    by_zone,
    completed_under_stock,
    joined,
    like_cards,
    off_piles,
    on_change,
    on_piles,
    where_cards_count,
)
from companion.table.profile import profile_from_corners
from companion.table.proposer import ChangeProposer
from companion.vision.readings import Face, Reading

SIDE = 640.0
TABLE = profile_from_corners([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]], (640, 640), 2, (SIDE, SIDE))


def box(x0: float, y0: float, x1: float, y1: float, face: Face = Face.DOWN) -> Reading:
    return Reading(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), face, 0.8)


def test_a_trump_card_half_under_the_stock_is_completed_towards_the_stock():
    stock_x, stock_y = TABLE.layout.stock
    seen = box(stock_x + 31, stock_y - 31, stock_x + 110, stock_y + 31)  # 79 of its 95 mm show
    whole = completed_under_stock(seen, TABLE)
    xs, ys = whole.corners[:, 0], whole.corners[:, 1]
    assert np.isclose(xs.max() - xs.min(), max(TABLE.card_mm), atol=0.5)
    assert np.isclose(xs.max(), stock_x + 110) and np.isclose(ys.max() - ys.min(), 62)
    assert completed_under_stock(whole, TABLE).corners.tolist() == whole.corners.tolist()


def test_cards_in_the_play_area_and_at_the_trump_spot_are_face_up_elsewhere_as_proposed():
    stock_x, stock_y = TABLE.layout.stock
    trick = box(290, 250, 351, 345)
    trump = box(stock_x + 31, stock_y - 31, stock_x + 110, stock_y + 31)
    pile = box(40, 560, 101, 630)  # a won pile by a seat
    out = by_zone([trick, trump, pile], TABLE, RecogniseConfig())
    assert [r.face for r in out] == [Face.UP, Face.UP, Face.DOWN]


def test_the_stock_whole_at_the_trump_spot_keeps_the_face_its_colour_tells():
    """Only the trump card, partly under the stock, is face up there whatever its paper's colour; the
    stock shows whole, its back's colour says face down, and no card read over the trump card it
    is (a trump card replaced under it would never be taken as replaced)."""
    stock_x, stock_y = TABLE.layout.stock
    stock = box(stock_x - 31, stock_y - 47.5, stock_x + 31, stock_y + 47.5)
    trump = box(stock_x + 31, stock_y - 31, stock_x + 110, stock_y + 31)  # cream paper: hinted down
    out = by_zone([stock, trump], TABLE, RecogniseConfig())
    assert [r.face for r in out] == [Face.DOWN, Face.UP]
    assert by_zone([replace(stock, face=Face.UP)], TABLE, RecogniseConfig())[0].face is Face.UP


def test_where_the_play_area_reaches_the_trump_spot_only_a_card_the_stock_lies_across_is_completed():
    stock_x, stock_y = TABLE.layout.stock
    played = box(409.5, 215, 470.5, 285)  # tossed far, its lower part under another card
    trump = box(stock_x - 119.5, stock_y - 31, stock_x - 41, stock_y + 31)  # sticking out towards play
    zones = RecogniseConfig()
    for reading in (played, trump):
        centre = TABLE.to_table(reading.center)[0]
        assert in_play(TABLE, centre, zones.play_margin) and at_trump_spot(TABLE, centre, zones.trump_margin)
    kept, completed = by_zone([played, trump], TABLE, zones)
    assert kept.face is completed.face is Face.UP
    assert kept.corners.tolist() == played.corners.tolist()
    assert np.isclose(np.ptp(completed.corners[:, 0]), max(TABLE.card_mm), atol=0.5)


def test_joined_keeps_one_reading_per_card_the_proposal_unless_unsure_and_the_box_read_surer():
    a, b = box(100, 100, 161, 195, Face.UP), box(300, 100, 361, 195)
    again = box(103, 98, 163, 196)
    assert joined([a], [again, b], 30.0, 0.6) == [a, b]
    proposal = replace(box(100, 100, 161, 195, Face.UP), confidence=0.55, arrived=True)
    whole = replace(box(104, 96, 166, 192, Face.UP), confidence=0.99)
    assert joined([proposal], [whole], 30.0, 0.6) == [replace(whole, arrived=True)]
    assert joined([proposal], [replace(whole, confidence=0.7)], 30.0, 0.6) == [proposal]
    assert joined([proposal], [replace(whole, face=Face.DOWN)], 30.0, 0.6) == [proposal]
    sure = replace(proposal, confidence=0.7)  # a sure proposal stays, though the box is surer still
    assert joined([sure], [whole], 30.0, 0.6) == [sure]


def test_a_box_that_looks_like_a_card_takes_the_place_of_a_proposal_that_looks_like_none():
    """The proposer's quad 10 mm off a two of swords took in the cloth beside it: read surely, but
    like no card of the deck (559), it would be left out; the detector's box on the card reads it
    as surely, and like the card (87)."""
    proposal = replace(read(box(100, 100, 161, 195, Face.UP), ("2E", 0.99)), strangeness=559.0, arrived=True)
    whole = replace(read(box(95, 98, 156, 193, Face.UP), ("2E", 1.0)), strangeness=87.0)
    assert joined([proposal], [whole], 30.0, 0.6) == [replace(whole, arrived=True)]
    assert joined([replace(proposal, strangeness=300.0)], [whole], 30.0, 0.6) == [
        replace(proposal, strangeness=300.0)
    ]
    strange = replace(whole, strangeness=600.0)
    assert joined([proposal], [strange], 30.0, 0.6) == [proposal]


def read(reading: Reading, *alternatives: tuple[str, float]) -> Reading:
    return reading.named([(Card.parse(card), p) for card, p in alternatives])


def test_a_proposal_read_as_another_card_than_a_surer_box_carries_both_readings_for_the_rules():
    """The proposer's quad of a three tossed onto a pile took in part of the card under it and reads
    the two (already played); the detector's box on the whole card reads the three surer, but not
    by 0.2: the proposal keeps its place and its word on arriving, named by both readings, and the
    rules choose the three."""
    proposal = read(replace(box(100, 90, 161, 185, Face.UP), arrived=True), ("2C", 0.79), ("1C", 0.2))
    whole = read(box(104, 100, 166, 196, Face.UP), ("3C", 0.987), ("2C", 0.013))
    (both,) = joined([proposal], [whole], 30.0, 0.6)
    assert both.corners.tolist() == proposal.corners.tolist() and both.arrived
    mean = [("3C", 0.4935), ("2C", 0.4015), ("1C", 0.1)]
    assert [(str(c), round(p, 4)) for c, p in both.alternatives] == mean
    allowed = set(deck()) - {Card.parse("2C"), Card.parse("1C")}  # played, and the trump card
    assert choose(proposal.alternatives, allowed, RecogniseConfig()).card is None
    chosen = choose(both.alternatives, allowed, RecogniseConfig())
    assert str(chosen.card) == "3C" and chosen.doubt is None
    agreeing = read(box(104, 100, 166, 196, Face.UP), ("2C", 0.95))  # the same card: the proposal stays
    assert joined([proposal], [agreeing], 30.0, 0.6) == [proposal]
    unsure = read(box(104, 100, 166, 196, Face.UP), ("3C", 0.6))  # another card, less sure: it stays
    assert joined([proposal], [unsure], 30.0, 0.6) == [proposal]


def test_a_box_of_the_card_under_a_new_card_does_not_take_the_new_cards_place():
    """A four tossed onto a pile is found at the still moment, read unsure; the detector boxes the
    knight it lies over (its centre where the knight's is remembered), read surer, as well as the
    four: the knight's box is the knight, not the new card, whichever box comes first; the four's
    own box, or one a little off, still takes the place of the unsure proposal."""
    knight = box(300, 260, 361, 355)
    four = replace(read(box(320, 280, 381, 375, Face.UP), ("4O", 0.58)), arrived=True)
    lying = np.stack([knight.corners, four.corners]).astype(np.float64)  # the four lies there too now
    knights_box = read(box(301, 259, 362, 354, Face.UP), ("11B", 0.83))
    fours_box = read(box(321, 280, 382, 375, Face.UP), ("4O", 0.99))
    off = read(box(312, 272, 373, 367, Face.UP), ("4O", 0.99))  # 11 px off the four, 17 off the knight

    def seen(*detected: Reading, known: np.ndarray | None = lying) -> list[tuple[str, float, bool]]:
        out = joined([four], list(detected), 40.0, 0.6, known)
        return [(str(r.card), r.confidence, r.arrived) for r in out]

    assert seen(knights_box, known=None) == [("11B", 0.83, True)]  # unknown, it took the new card's place
    assert seen(knights_box) == [("4O", 0.58, True), ("11B", 0.83, False)]
    assert seen(knights_box, fours_box) == [("4O", 0.99, True), ("11B", 0.83, False)]
    assert seen(off, knights_box) == [("4O", 0.99, True), ("11B", 0.83, False)]


def test_a_box_read_surely_as_another_card_where_a_card_is_remembered_is_the_card_on_top() -> None:
    """A five of swords lands 6 mm off a seven lying on the pile: the seven's remembered outline is
    read as the seven, the detector's box as the five. The box is the card now on top; farther off,
    read less surely than 0.95 or than the outline, or off the piles (the trump card under the
    stock, boxed where it shows), it is not."""
    remembered = read(box(100, 100, 161, 195, Face.UP), ("7E", 0.98), ("5E", 0.01))
    lying = remembered.corners[None].astype(np.float64)
    on_top = read(box(103, 104, 164, 199, Face.UP), ("5E", 1.0))

    def takes_its_place(proposal: Reading, detected: Reading, piled: bool = True) -> bool:
        out = joined([proposal], [detected], 34.0, 0.6, lying, [piled])[0]
        return out.corners.tolist() == detected.corners.tolist()

    assert takes_its_place(remembered, on_top)
    assert not takes_its_place(replace(remembered, arrived=True), on_top)  # found arriving there
    assert not takes_its_place(remembered, read(on_top, ("5E", 0.9), ("7E", 0.1)))
    assert not takes_its_place(remembered, read(box(100, 125, 161, 220, Face.UP), ("5E", 1.0)))  # 25 px off
    assert not takes_its_place(remembered, on_top, piled=False)
    assert not takes_its_place(read(remembered, ("7E", 1.0)), read(on_top, ("5E", 0.98)))


def test_cards_lie_on_the_piles_in_the_play_area_but_not_at_the_trump_spot():
    stock_x, stock_y = TABLE.layout.stock
    trick = box(290, 250, 351, 345)
    trump = box(stock_x + 31, stock_y - 31, stock_x + 110, stock_y + 31)
    pile = box(40, 560, 101, 630)  # a won pile by a seat
    assert [on_piles(r, TABLE, RecogniseConfig()) for r in (trick, trump, pile)] == [True, False, False]


def test_a_box_on_a_card_known_to_lie_on_a_pile_is_left_out():
    """A detector box centred on a card the proposer knows lies on a pile is that card, partly
    covered, or the pile: left out, also when it boxes only the card's uncovered corner, far off
    its centre; a card tossed over its corner, or a box beside it, is kept."""
    lying = box(300, 260, 360, 350).corners[None].astype(np.float64)  # a card, its centre (330, 305)
    near = box(305, 270, 365, 360, Face.UP)  # 11 px off its centre
    corner = box(300, 260, 326, 286, Face.UP)  # its uncovered corner: 36 px off, over half a card
    tossed = box(335, 325, 395, 415, Face.UP)  # centred beyond its corner
    beside = box(365, 260, 425, 350, Face.UP)
    readings = [near, corner, tossed, beside]
    assert off_piles(readings, lying) == [tossed, beside]
    assert off_piles(readings, np.empty((0, 4, 2))) == readings


def test_a_face_up_reading_like_no_card_is_left_out_where_it_lies_alone_away_from_the_trump_spot():
    """A score pad cut as a card looks like no card of the deck; cards lying over each other, and
    the trump card under the stock, may look as strange, and stay."""
    stock_x, stock_y = TABLE.layout.stock
    pad = replace(box(100, 100, 161, 195, Face.UP), strangeness=900.0)
    card = replace(box(300, 100, 361, 195, Face.UP), strangeness=90.0)
    under = replace(box(340, 150, 401, 245, Face.UP), strangeness=900.0)
    trump = replace(box(stock_x + 31, stock_y - 31, stock_x + 110, stock_y + 31, Face.UP), strangeness=900.0)
    back = box(100, 400, 161, 495)
    zones = RecogniseConfig()
    assert like_cards([pad, card, under, trump, back], [], TABLE, zones) == [card, under, trump, back]
    both = [replace(card, strangeness=600.0), under]
    assert like_cards([pad, *both], [], TABLE, zones) == both
    near_enough = replace(pad, strangeness=STRANGE)
    assert like_cards([near_enough], [], TABLE, zones) == [near_enough]


def test_a_face_up_reading_like_no_card_that_the_detector_found_face_up_stays():
    """A real card of an artwork unlike the active deck's reads strange too (a Trentine fante read
    with the napoletane deck: 512), but the detector finds cards whatever their artwork; it boxes a
    score pad as a back, if at all."""
    strange = replace(box(100, 100, 161, 195, Face.UP), strangeness=700.0)
    zones = RecogniseConfig()
    found_up = box(103, 98, 163, 193, Face.UP)
    assert like_cards([strange], [found_up], TABLE, zones) == [strange]
    assert like_cards([strange], [box(103, 98, 163, 193)], TABLE, zones) == []  # a back
    assert like_cards([strange], [box(140, 150, 201, 245, Face.UP)], TABLE, zones) == []  # beside it


def test_a_box_where_nothing_differs_from_the_empty_table_is_left_out_but_at_the_trump_spot():
    """A motif of the cloth boxed by the detector lies where nothing came; the stock and the trump
    card may lie at the trump spot from the first frame, part of the empty table."""
    stock_x, stock_y = TABLE.layout.stock
    played = box(290, 250, 351, 345, Face.UP)
    motif = box(40, 560, 101, 630, Face.UP)  # printed flowers before a seat
    trump = box(stock_x + 31, stock_y - 31, stock_x + 110, stock_y + 31, Face.UP)
    differing = {290: 0.8, 40: 0.1, round(stock_x) + 31: 0.0}  # by a box's left edge

    def differs(corners: np.ndarray) -> float:
        return differing[round(float(corners[:, 0].min()))]

    kept = on_change([played, motif, trump], differs, TABLE, RecogniseConfig())
    assert kept == [played, trump]


def test_the_proposer_tells_how_much_of_a_box_differs_from_the_empty_table():
    empty = np.full((640, 640, 3), (60, 110, 40), np.uint8)
    laid = empty.copy()
    laid[250:345, 290:351] = (235, 235, 235)  # a card, its short side 61 mm
    proposer = ChangeProposer(TABLE, empty)
    card, half_on, cloth = box(290, 250, 351, 345), box(320, 250, 381, 345), box(40, 560, 101, 630)
    assert proposer.differs(card.corners) == 0.0  # nothing looked at yet
    proposer.look(laid)
    assert proposer.differs(card.corners) > 0.9
    assert 0.4 < proposer.differs(half_on.corners) < 0.6
    assert proposer.differs(cloth.corners) == 0.0


def test_the_detector_looks_where_a_card_counts_and_little_else():
    """Every point in view of a card whose centre lies in the play area or at the trump spot, with
    their margins, lies within the region; the seats do not."""
    zones = RecogniseConfig()
    x0, y0, x1, y1 = where_cards_count(TABLE, zones)
    reach = max(TABLE.card_mm) / 2
    play = TABLE.layout.play_center + (TABLE.layout.play_radius + zones.play_margin + reach) * np.array(
        [[1, 0], [-1, 0], [0, 1], [0, -1]]
    )
    stock = TABLE.layout.stock + (TABLE.stock_half_mm + zones.trump_margin + reach) * np.array([1, 1])
    for x, y in np.clip(TABLE.to_image(np.vstack([play, stock])), 0, SIDE):  # the frame's part of them
        assert x0 <= x <= x1 and y0 <= y <= y1
    seats = TABLE.to_image(TABLE.layout.seats)
    assert not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in seats)
    assert (x1 - x0) * (y1 - y0) < 0.6 * SIDE * SIDE


def test_the_region_is_cut_to_the_frame():
    tilted = profile_from_corners([[-200, -100], [840, -100], [840, 700], [-200, 700]], (640, 600), 4)
    x0, y0, x1, y1 = where_cards_count(tilted, RecogniseConfig())
    assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 600
