"""The change-based proposer on generated frames with cards at known poses."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np
import pytest
from measure_proposer import iou, measure
from table_scenes import SIZE_MM, card_corners_mm, render

from companion.table.layers import THING_FRAMES, aligned
from companion.table.markers import find_markers
from companion.table.profile import CARD_MM, TableProfile, profile_from_corners, profile_from_markers
from companion.table.proposer import ChangeProposer, ProposerConfig, colour_distance, steady_distance
from companion.vision.readings import Face, Reading

cv2.setNumThreads(1)


@pytest.mark.parametrize(
    ("options", "min_recall"),
    [
        ({}, 0.95),
        ({"noise": 4.0, "light": 0.8}, 0.95),
        ({"noise": 4.0, "hand": True}, 0.95),
        ({"noise": 4.0, "overlap": True}, 0.85),
    ],
    ids=["clean", "dim", "hand", "overlapping"],
)
def test_recall_and_precision_on_generated_frames(
    options: dict[str, float | bool], min_recall: float
) -> None:
    result = measure(scenes=6, cards=6, **options)
    assert result["recall"] >= min_recall
    assert result["precision"] >= 0.95
    assert result["face_accuracy"] >= 0.9
    assert result["corner_error_mm"] < 3.0


def test_proposals_are_card_quads_in_image_pixels_starting_at_a_short_edge() -> None:
    scene = render(11, cards=5, noise=3.0)
    profile = profile_from_markers(scene.empty, size_mm=SIZE_MM)
    readings = ChangeProposer(profile, scene.empty).propose(scene.frame)
    assert len(readings) == 5
    for reading in readings:
        best = max(scene.cards_px, key=lambda card: iou(reading.corners, card))
        assert iou(reading.corners, best) > 0.85
        sides_mm = np.linalg.norm(np.diff(profile.to_table(reading.corners), axis=0, append=0)[:2], axis=1)
        assert sides_mm == pytest.approx(sorted(CARD_MM), rel=0.1)
        assert 0 < reading.detection_confidence <= 1 and reading.card is None


def test_cards_side_by_side_are_split_by_the_known_card_size() -> None:
    short = CARD_MM[0]
    row = [card_corners_mm(np.array([400 + i * short, 450.0]), 0.0) for i in range(3)]
    scene = render(12, cards=row)
    profile = profile_from_markers(scene.empty, size_mm=SIZE_MM)
    readings = ChangeProposer(profile, scene.empty).propose(scene.frame)
    assert len(readings) == 3
    for card in scene.cards_px:
        assert max(iou(r.corners, card) for r in readings) > 0.75


@pytest.mark.parametrize(("width", "length"), [(77, 160), (78, 162)])
def test_a_phone_three_cards_long_is_no_row_of_three_cards(width: int, length: int) -> None:
    """The largest phones set down beside the play area (77-78 by 160-162 mm) are as long as three
    cards side by side and a fifth shorter than a card: they fit a row of three only loosely, and are
    not cut into one (the third card of such a row, half phone and half cloth, was read as a card and
    played)."""
    profile, empty = _square_table()
    frame = empty.copy()
    frame[300 : 300 + width, 200 : 200 + length] = (28, 26, 25)  # the phone, lying across
    frame[600:696, 419:481] = 240  # and one card on the table
    readings = ChangeProposer(profile, empty).propose(frame)
    centres = [tuple(reading.corners.mean(axis=0)) for reading in readings]
    on_phone = [(x, y) for x, y in centres if 200 <= x <= 200 + length and 300 <= y <= 300 + width]
    assert len(on_phone) < 3
    assert [c for c in centres if c not in on_phone] == [pytest.approx((450, 648), abs=2)]


def test_a_card_cut_in_two_by_a_cloth_coloured_band_is_merged_back() -> None:
    profile, empty = _square_table()
    frame = empty.copy()
    frame[402:498, 419:481] = 240  # a card of 62 x 96 mm at the middle of the table...
    frame[443:457] = empty[443:457]  # ...whose middle band looks exactly like the cloth
    readings = ChangeProposer(profile, empty).propose(frame)
    assert len(readings) == 1
    truth = np.array([[419, 402], [481, 402], [481, 498], [419, 498]], np.float32)
    assert iou(readings[0].corners, truth) > 0.85


def test_an_arm_reaching_in_from_the_edge_is_no_row_of_cards() -> None:
    profile, empty = _square_table()
    frame = empty.copy()
    frame[615:900, 420:482] = (90, 120, 200)  # a sleeve exactly as wide as a card, three cards long
    frame[300:396, 200:262] = 240  # and one card on the table
    readings = ChangeProposer(profile, empty).propose(frame)
    assert len(readings) == 1
    assert (
        iou(readings[0].corners, np.array([[200, 300], [262, 300], [262, 396], [200, 396]], np.float32))
        > 0.85
    )


def test_an_arm_reaching_in_says_where_it_crosses_the_edge_and_how_far_it_reaches() -> None:
    profile, empty = _square_table()
    frame = empty.copy()
    frame[500:900, 420:482] = (90, 120, 200)  # a sleeve from the bottom edge...
    frame[430:500, 400:500] = (150, 170, 230)  # ...and its hand
    frame[300:396, 200:262] = 240  # a card on the table, no arm
    sight = ChangeProposer(profile, empty).look(frame)
    assert len(sight.readings) == 1
    (reach,) = sight.reaches
    assert reach.edge == pytest.approx((451, 899), abs=4)
    assert 425 <= reach.tip[1] <= 440 and 395 <= reach.tip[0] <= 505


@pytest.mark.parametrize("stock_shows", [False, True])
def test_the_trump_card_is_proposed_whole_when_only_its_end_shows_from_under_the_stock(
    stock_shows: bool,
) -> None:
    profile = profile_from_corners([[0, 0], [900, 0], [900, 900], [0, 900]], (900, 900))  # 1 px per mm
    sx, sy = profile.layout.stock.astype(int)  # (720, 450) with two players
    cloth = (60, 110, 40)
    empty = np.full((900, 900, 3), cloth, np.uint8)
    frame = empty.copy()
    frame[sy - 31 : sy + 31, sx - 20 : sx + 75] = 240  # the trump, crossed under the stock...
    frame[sy - 48 : sy + 48, sx - 31 : sx + 31] = (40, 40, 150) if stock_shows else cloth  # ...and the stock
    readings = ChangeProposer(profile, empty).propose(frame)
    trump = np.array(
        [[sx - 20, sy - 31], [sx + 75, sy - 31], [sx + 75, sy + 31], [sx - 20, sy + 31]], np.float32
    )
    assert max(iou(r.corners, trump) for r in readings) > 0.85


def test_without_a_reference_the_first_frame_is_the_empty_table() -> None:
    scene = render(13, cards=3)
    proposer = ChangeProposer(profile_from_markers(scene.empty, size_mm=SIZE_MM))
    assert proposer.propose(scene.empty) == []
    assert len(proposer.propose(scene.frame)) == 3
    assert proposer.propose(scene.empty) == []  # cards taken away: nothing is left behind


def test_background_follows_slow_light_but_keeps_the_cards() -> None:
    scene = render(14, cards=4)
    proposer = ChangeProposer(profile_from_markers(scene.empty, size_mm=SIZE_MM), scene.empty)
    for step in range(30):  # the evening darkens by a third, slowly
        light = 1.0 - step / 90
        frame = np.clip(scene.frame.astype(np.float32) * light, 0, 255).astype(np.uint8)
        readings = proposer.propose(frame)
    assert len(readings) == 4
    assert sum(r.face is Face.UP for r in readings) == sum(scene.faces_up)


def test_markers_are_not_proposed_as_cards() -> None:
    scene = render(15, cards=0)
    proposer = ChangeProposer(profile_from_markers(scene.empty, size_mm=SIZE_MM), np.zeros_like(scene.empty))
    readings = proposer.propose(scene.frame)  # everything changed against a black reference
    assert len(find_markers(scene.frame)) == 4
    assert readings == []


def _square_table() -> tuple[TableProfile, np.ndarray]:
    """A 900 mm square table seen from straight above at 1 px per mm, and its empty green cloth."""
    profile = profile_from_corners([[0, 0], [900, 0], [900, 900], [0, 900]], (900, 900))
    return profile, np.full((900, 900, 3), (60, 110, 40), np.uint8)


def _last_proposals(proposer: ChangeProposer, frames: list[np.ndarray]) -> list[Reading]:
    """Show ``frames`` to ``proposer`` in order; what it proposes in the last one."""
    readings: list[Reading] = []
    for frame in frames:
        readings = proposer.propose(frame)
    return readings


def _card(
    frame: np.ndarray, centre: tuple[float, float], angle: float, artwork: tuple[int, int, int]
) -> np.ndarray:
    """Draw a white card (1 px per mm) with a coloured picture inside its border; its corners."""
    quad = cv2.boxPoints((centre, sorted(CARD_MM), angle))
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (235, 235, 235))
    picture = cv2.boxPoints((centre, (CARD_MM[0] - 16, CARD_MM[1] - 16), angle))
    cv2.fillConvexPoly(frame, np.round(picture).astype(np.int32), artwork)
    return quad


class _Pile(NamedTuple):
    """A square table (1 px per mm) empty, with one card, and with a second card tossed over a
    third of the first; both cards' corners."""

    profile: TableProfile
    empty: np.ndarray
    first: np.ndarray
    pile: np.ndarray
    under: np.ndarray
    over: np.ndarray


def _pile_of_two() -> _Pile:
    profile, empty = _square_table()
    first = empty.copy()
    under = _card(first, (430, 450), 10, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (462, 440), 55, (170, 60, 30))
    return _Pile(profile, empty, first, pile, under, over)


def test_a_card_tossed_onto_another_is_found_from_what_changed_while_the_table_lay_still() -> None:
    profile, empty, first, pile, under, over = _pile_of_two()
    alone = ChangeProposer(profile, empty).propose(pile)
    assert max((iou(r.corners, over) for r in alone), default=0.0) < 0.85  # one frame does not show it

    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 3)  # each, then still
    assert max((iou(r.corners, over) for r in readings), default=0.0) < 0.85  # not yet settled
    readings = proposer.propose(pile)
    (arrived,) = [r for r in readings if r.arrived]  # the table has lain still for 3 frames
    assert iou(arrived.corners, over) > 0.85
    # the card under it, known since it lay there alone, is not pieced together again from the pile:
    # its crop would show the card over it, read as another card
    assert all(r is arrived or iou(r.corners, under) < 0.3 for r in readings)
    readings = proposer.propose(pile)
    assert max(iou(r.corners, over) for r in readings) > 0.85 and not any(r.arrived for r in readings)
    assert _last_proposals(proposer, [empty] * 4) == []  # the trick taken away


def test_a_score_pad_set_down_at_the_tables_edge_does_not_hold_the_piles_back() -> None:
    """A pad lying from the table's edge into the margin of the play area comes in over the edge as
    an arm does; once it has lain there a while it is a thing set down, and the piles lie still
    beside it: a card tossed onto another is found."""
    profile, empty, first, pile, _, over = _pile_of_two()

    def with_pad(frame: np.ndarray) -> np.ndarray:
        padded = frame.copy()
        cv2.rectangle(padded, (560, 0), (660, 300), (225, 230, 230), -1)
        return padded

    proposer = ChangeProposer(profile, empty)
    frames = (
        [empty] * 4 + [with_pad(empty)] * (THING_FRAMES + 2) + [with_pad(first)] * 4 + [with_pad(pile)] * 4
    )
    arrived = [r for frame in frames for r in proposer.propose(frame) if r.arrived]
    assert any(iou(r.corners, over) > 0.85 for r in arrived)


def test_a_card_laid_touching_a_score_pad_at_the_tables_edge_is_proposed_at_once() -> None:
    """A card laid against a pad lying at the table's edge is one blob with it, and that blob
    touches the edge as an arm does; cut away from the pad, it is a card lying there."""
    profile, empty = _square_table()
    pad = empty.copy()
    cv2.rectangle(pad, (760, 300), (900, 460), (225, 230, 230), -1)
    laid = pad.copy()
    card = _card(laid, (728, 380), 0, (30, 160, 160))  # its right edge against the pad's
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [pad] * (THING_FRAMES + 2))
    readings = _last_proposals(proposer, [laid] * 2)
    assert any(iou(r.corners, card) > 0.85 for r in readings)


def test_an_arm_reaching_in_over_a_score_pad_is_still_no_card() -> None:
    """Cut away from the pad it lies on, an arm's forearm is no card's outline."""
    profile, empty = _square_table()
    pad = empty.copy()
    cv2.rectangle(pad, (760, 300), (900, 460), (225, 230, 230), -1)
    reaching = pad.copy()
    cv2.rectangle(reaching, (520, 350), (900, 420), (90, 120, 170), -1)  # over the pad and beyond
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [pad] * (THING_FRAMES + 2))
    assert _last_proposals(proposer, [reaching] * 2) == []


def _pips(frame: np.ndarray, centre: tuple[float, float], columns: tuple[float, ...], ink) -> np.ndarray:
    """Draw a white card upright (1 px per mm) with small pips down ``columns`` (mm off its middle),
    like a low card; its corners."""
    x, y = centre
    quad = cv2.boxPoints((centre, sorted(CARD_MM), 0))
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (235, 235, 235))
    for dx in columns:
        for dy in (-32, -12, 8, 28):
            cv2.rectangle(
                frame, (round(x + dx - 5), round(y + dy - 5)), (round(x + dx + 5), round(y + dy + 5)), ink, -1
            )
    return quad


def test_a_card_tossed_onto_the_white_of_another_is_joined_from_the_pieces_that_changed() -> None:
    """Where a card lands on another card's white, only its pips and those it covers differ: what
    changed is a strip where it lies on the cloth and a few pieces, joined into one card."""
    profile, empty = _square_table()
    first = empty.copy()
    _pips(first, (430, 450), (-22,), (40, 40, 200))
    pile = first.copy()
    over = _pips(pile, (430, 470), (-14, 14), (200, 60, 30))  # 75 of its 95 mm on the first card
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, over) > 0.8


def test_a_tossed_card_is_no_longer_proposed_once_a_later_card_covers_a_third_of_it() -> None:
    """Its crop would show the later card's pips where its own were (a six read as a seven)."""
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    second = first.copy()
    tossed = _card(second, (462, 440), 55, (170, 60, 30))
    third = second.copy()
    along = np.array([-np.sin(np.radians(55)), np.cos(np.radians(55))])  # the tossed card's long side
    _card(third, tuple(np.array([462.0, 440.0]) + 0.6 * max(CARD_MM) * along), 55, (30, 160, 160))
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [second] * 4)
    assert max(iou(r.corners, tossed) for r in readings) > 0.85
    readings = _last_proposals(proposer, [third] * 4)
    assert len(readings) >= 1 and max(iou(r.corners, tossed) for r in readings) < 0.5


def test_a_card_tossed_onto_another_side_to_side_is_not_cut_as_a_row_of_two() -> None:
    """Two cards lying over each other side to side fill a rectangle that looks like a row of two
    narrow cards; the card seen arriving wins over the row's card near it."""
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 0, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (470, 450), 0, (170, 60, 30))  # two thirds over the first card
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, over) > 0.85
    assert all(r is arrived or iou(r.corners, over) < 0.3 for r in readings)


def test_no_card_is_proposed_cut_across_a_card_lying_there_and_one_tossed_half_over_it() -> None:
    """Both cards fill a rectangle that is cut as a row of two, each half of one card and half of
    the other: such a half is no card (a two of swords was read across an ace of swords and the
    five of clubs tossed half over it)."""
    profile, empty = _square_table()
    first = empty.copy()
    under = _card(first, (430, 450), 0, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (470, 470), 0, (170, 60, 30))
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, over) > 0.85
    assert all(max(iou(r.corners, under), iou(r.corners, over)) > 0.7 for r in readings)


def test_a_card_laid_touching_one_lying_there_leaves_both_proposed() -> None:
    """Two cards side by side are cut as a row, each card of it on a card known to lie there."""
    profile, empty = _square_table()
    first = empty.copy()
    left = _card(first, (430, 450), 0, (40, 40, 180))
    both = first.copy()
    right = _card(both, (430 + min(CARD_MM), 450), 0, (170, 60, 30))
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [both] * 5)
    assert len(readings) == 2
    for card in (left, right):
        assert max(iou(r.corners, card) for r in readings) > 0.85


def test_a_card_known_to_lie_there_is_not_read_again_from_a_row_while_an_arm_reaches_in() -> None:
    """Two cards side by side are cut as a row; while a hand reaches in (it may cover the card, or
    bring the next one over it) the row's card on the one known to lie there is not proposed, so it
    is not read again half covered; once the hand is gone it is."""
    profile, empty = _square_table()
    first = empty.copy()
    left = _card(first, (430, 450), 0, (40, 40, 180))
    both = first.copy()
    _card(both, (430 + min(CARD_MM), 450), 0, (170, 60, 30))
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4 + [both] * 5)
    reaching = [proposer.propose(_reaching(both, i)) for i in range(3)]
    assert all(max((iou(r.corners, left) for r in readings), default=0.0) < 0.5 for readings in reaching)
    after = _last_proposals(proposer, [both] * 2)
    assert max(iou(r.corners, left) for r in after) > 0.85


def test_two_cards_tossed_onto_a_card_before_the_table_lies_still_are_both_found() -> None:
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    pile = first.copy()
    tossed = [_card(pile, (470, 430), 60, (170, 60, 30)), _card(pile, (400, 500), 100, (30, 160, 160))]
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    arrived = [r for r in readings if r.arrived]  # the frame the table has lain still in for 3 frames
    assert len(arrived) == 2
    for card in tossed:
        assert max(iou(r.corners, card) for r in arrived) > 0.8


@pytest.mark.parametrize("shift, turn", [(28, 5), (30, -8)])
def test_a_card_half_covered_by_the_next_before_the_table_lies_still_is_found_with_it(
    shift: int, turn: float
) -> None:
    """A card tossed over the lead and, before the table lies still, covered over half its width by
    the next card: what changed on the pile shows only 0.4-0.5 of whichever is found second. Both
    are found, the one underneath first."""
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 0, (40, 40, 180))
    pile = first.copy()
    under = _card(pile, (470, 420), 90, (170, 60, 30))
    over = _card(pile, (475, 420 + shift), 90 + turn, (30, 160, 160))
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    arrived = [r for r in readings if r.arrived]
    assert [max(range(2), key=lambda k: iou(r.corners, (under, over)[k])) for r in arrived] == [0, 1]
    assert all(max(iou(r.corners, under), iou(r.corners, over)) > 0.9 for r in arrived)


def test_a_card_tossed_onto_a_pile_is_found_while_a_hand_draws_from_the_stock() -> None:
    """The table is not still while a player draws from the stock, but the piles, in the play
    area, are: the card tossed onto one is found all the same."""
    profile = profile_from_corners([[0, 0], [900, 0], [900, 900], [0, 900]], (900, 900))  # 1 px per mm
    assert profile.layout.stock[0] > 700  # the stock lies to the right, beyond the play area
    empty = np.full((900, 900, 3), (60, 110, 40), np.uint8)
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (462, 440), 55, (170, 60, 30))

    def drawing(frame: np.ndarray, i: int) -> np.ndarray:
        """An arm from the right edge to the stock, moving in every frame."""
        out = frame.copy()
        cv2.rectangle(out, (690, 420 + 15 * (i % 3)), (899, 470 + 15 * (i % 3)), (150, 170, 210), -1)
        return out

    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    arrived = [r for i in range(6) for r in proposer.propose(drawing(pile, i)) if r.arrived]
    assert len(arrived) == 1 and iou(arrived[0].corners, over) > 0.85


def test_light_on_a_cloth_of_two_tones_changes_nothing_but_the_cards() -> None:
    """A gingham cloth, a little more white than green: cards over white squares make the median
    pixel of the frame green where that of the empty table was white, but the light is measured
    pixel by pixel."""
    profile = profile_from_corners([[0, 0], [900, 0], [900, 900], [0, 900]], (900, 900))  # 1 px per mm
    white = (np.indices((900, 900)) // 20).sum(axis=0) % 2 == 0
    white[:, :20] = True  # 51% white
    empty = np.where(white[..., None], np.uint8(200), np.array([60, 140, 50], np.uint8)).astype(np.uint8)
    frame = (empty * 0.85).astype(np.uint8)  # dimmer light...
    frame[300:500, 300:450] = (90, 30, 30)  # ...and a stack of dark backs, 4% of the table
    _, mask = ChangeProposer(profile, empty).changed(frame)
    assert np.count_nonzero(mask) < 0.06 * mask.size


def test_a_tossed_card_is_found_though_a_speck_beside_it_changed_too() -> None:
    """Joining the pieces of what changed also joins a speck of the cloth beside the card (a crumb,
    a checked cloth's square lit anew); the two fit no card, and where the card lies on the white of
    the card under it its outline is not whole enough to be peeled: the card is its own piece."""
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 0, (235, 235, 235))  # all white, like a card's border
    pile = first.copy()
    over = _card(pile, (450, 480), 0, (170, 60, 30))
    cv2.circle(pile, (450, 550), 8, (120, 30, 120), -1)  # 14 mm below its lower edge
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, over) > 0.85


def test_a_card_laid_alone_is_seen_arriving_once_it_lies_still() -> None:
    """Its outline shows whole at one place for three frames: it is seen arriving then, once, so the
    tracker places it though the next card covers it at once."""
    profile, empty = _square_table()
    laid = empty.copy()
    card = _card(laid, (440, 450), 30, (40, 40, 180))
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [laid] * 2)
    assert [r.arrived for r in readings] == [False]
    (seen,) = proposer.propose(laid)
    assert seen.arrived and iou(seen.corners, card) > 0.85
    for _ in range(3):  # the table then lies still: the card is known, not seen arriving again
        assert [r.arrived for r in proposer.propose(laid)] == [False]


def _reaching(frame: np.ndarray, i: int) -> np.ndarray:
    """``frame`` with an arm from the bottom edge into the play area, moved on in every frame ``i``."""
    out = frame.copy()
    cv2.rectangle(out, (300 + 12 * (i % 3), 620), (350 + 12 * (i % 3), 899), (150, 170, 210), -1)
    return out


def test_a_card_nudged_while_an_arm_moves_is_known_at_its_new_place_and_not_seen_arriving_again() -> None:
    """Seen whole again nearby, over where it lay, it is the same card moved: it lies there now, and
    only there (so a card pieced together near its old place is not taken for it)."""
    profile, empty = _square_table()
    laid = empty.copy()
    _card(laid, (440, 430), 0, (40, 40, 180))
    nudged = empty.copy()
    card = _card(nudged, (455, 440), 8, (40, 40, 180))  # 18 mm away, over most of where it lay

    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4)
    arrived = [r for i in range(5) for r in proposer.propose(_reaching(laid, i)) if r.arrived]
    arrived += [r for i in range(5) for r in proposer.propose(_reaching(nudged, i)) if r.arrived]
    assert len(arrived) == 1
    (corners,) = proposer.lying()
    assert iou(corners, card) > 0.9


def _cleared_over(proposer: ChangeProposer, frames: list[np.ndarray]) -> list[tuple[float, float]]:
    """Show ``frames`` to ``proposer`` in order; the places it saw bare in any of them."""
    return [place for frame in frames for place in proposer.look(frame).cleared]


def test_a_card_taken_away_is_told_where_its_place_was_seen_bare() -> None:
    """Taken away, the cards' places show the cloth once the table lies still: each told once, where
    it lay (image px). A card lying still, or half covered by the next card, is not."""
    profile, empty = _square_table()
    laid = empty.copy()
    _card(laid, (440, 450), 30, (40, 40, 180))
    covered = laid.copy()
    _card(covered, (440, 400), 0, (170, 60, 30))  # half over it: the rest of it shows
    proposer = ChangeProposer(profile, empty)
    assert _cleared_over(proposer, [empty] * 4 + [laid] * 5 + [covered] * 5) == []
    places = sorted(_cleared_over(proposer, [empty] * 6), key=lambda place: place[1])
    assert np.allclose(places, [(440, 400), (440, 450)], atol=3)


def test_a_card_taken_away_while_the_next_is_laid_over_half_its_place_is_told_taken_away() -> None:
    """The trick taken away and the next card laid half over where it lay, an arm still moving: the
    new card seen whole there is no card moved, for the rest of the old card's place is bare."""
    profile, empty = _square_table()
    laid = empty.copy()
    _card(laid, (440, 450), 0, (40, 40, 180))
    led = empty.copy()
    _card(led, (440, 405), 0, (170, 60, 30))
    proposer = ChangeProposer(profile, empty)
    assert _cleared_over(proposer, [empty] * 4 + [laid] * 5) == []
    (place,) = _cleared_over(proposer, [_reaching(led, i) for i in range(5)])
    assert np.hypot(place[0] - 440, place[1] - 450) < 3


def test_a_card_taken_away_beside_where_the_next_was_seen_lying_is_told_taken_away_once_still() -> None:
    """The trick taken away and the next card laid over a quarter of where it lay, seen whole while
    an arm still moved: once the table lies still, the rest of the old card's place, clear of the
    card lying now, is bare, so the old card was taken away (not hidden by the new one)."""
    profile, empty = _square_table()
    laid = empty.copy()
    _card(laid, (440, 450), 0, (40, 40, 180))
    led = empty.copy()
    _card(led, (470, 400), 0, (170, 60, 30))  # its outline stops short of the old card's centre
    proposer = ChangeProposer(profile, empty)
    assert _cleared_over(proposer, [empty] * 4 + [laid] * 5) == []
    assert _cleared_over(proposer, [_reaching(led, i) for i in range(5)]) == []  # not yet still
    (place,) = _cleared_over(proposer, [led] * 5)
    assert np.hypot(place[0] - 440, place[1] - 450) < 3


def _figure_card(frame: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    """Draw a card (1 px per mm) at ``angle`` whose picture is 8 mm blocks of random colour, like a
    court card's figure; its corners."""
    width, height = (round(side) for side in sorted(CARD_MM))
    face = np.full((height, width, 3), 235, np.uint8)
    blocks = np.random.default_rng(5).integers(0, 255, (height // 8, width // 8, 3), dtype=np.uint8)
    figure = cv2.resize(blocks, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    face[8 : height - 8, 8 : width - 8] = figure[: height - 16, : width - 16]
    place = cv2.getRotationMatrix2D((width / 2, height / 2), -angle, 1.0)
    place[:, 2] += np.asarray(centre) - (width / 2, height / 2)
    size = frame.shape[1::-1]
    inside = cv2.warpAffine(np.full((height, width), 255, np.uint8), place, size) > 128
    frame[inside] = cv2.warpAffine(face, place, size)[inside]
    return cv2.boxPoints((centre, (width, height), angle))


def test_a_card_on_a_pile_straightened_by_a_hand_is_known_at_its_new_place_and_not_seen_arriving() -> None:
    """A player straightens the court card on top of a pile, 7 mm and 4 degrees: what changed, its
    figure seen off, fits a card over most of where it lay. It is that card, moved: no card arrived,
    and the piles know it at its new place, once."""
    profile, empty = _square_table()
    first = empty.copy()
    under = _card(first, (430, 450), 10, (40, 40, 180))
    pile, straightened = first.copy(), first.copy()
    _figure_card(pile, (462, 440), 55)
    moved = _figure_card(straightened, (468, 444), 59)
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    frames = [_reaching(straightened, i) for i in range(4)] + [straightened] * 4
    assert [r for frame in frames for r in proposer.propose(frame) if r.arrived] == []
    lying = proposer.lying()
    assert len(lying) == 2
    assert max(iou(corners, moved) for corners in lying) > 0.8
    assert max(iou(corners, under) for corners in lying) > 0.85


@pytest.mark.parametrize(("shift", "turn"), [((12, 9), 0), ((8, 6), 4)], ids=["15mm", "10mm-4deg"])
def test_a_card_nudged_on_a_pile_is_proposed_where_its_picture_lies_now(
    shift: tuple[int, int], turn: float
) -> None:
    """A hand nudges the court card on top of a pile: the card fitted to what changed takes in where
    it lay too, so the card is looked for by its picture near where it lay, turned or not, and
    proposed where it lies, whole (a crop of the card fitted would cut off one end of it)."""
    profile, empty = _square_table()
    first = empty.copy()
    under = _card(first, (430, 450), 10, (40, 40, 180))
    pile, nudged = first.copy(), first.copy()
    _figure_card(pile, (462, 440), 55)
    moved = _figure_card(nudged, (462 + shift[0], 440 + shift[1]), 55 + turn)
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    frames = [_reaching(nudged, i) for i in range(4)] + [nudged] * 4
    assert [r for frame in frames for r in proposer.propose(frame) if r.arrived] == []
    assert max(iou(r.corners, moved) for r in proposer.propose(nudged)) > 0.95
    assert min(max(iou(corners, card) for corners in proposer.lying()) for card in (under, moved)) > 0.95


def test_a_card_tossed_onto_one_that_lay_still_while_an_arm_moved_is_told_from_it() -> None:
    """The next player reaches in before the table lies still, and tosses a card over most of the
    last one: the last card, seen lying still and whole, is known, so the tossed card is found at its
    own place, not pieced together from both."""
    profile, empty = _square_table()
    first = empty.copy()
    under = _card(first, (440, 430), 0, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (436, 458), 10, (170, 60, 30))  # 28 mm down, over two thirds of the first

    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4)
    arrived = [r for i in range(6) for r in proposer.propose(_reaching(first, i)) if r.arrived]
    assert len(arrived) == 1 and iou(arrived[0].corners, under) > 0.85
    readings = _last_proposals(proposer, [_reaching(pile, i) for i in range(4)] + [pile] * 2)
    assert not any(r.arrived for r in readings)
    (tossed,) = [r for r in proposer.propose(pile) if r.arrived]
    assert iou(tossed.corners, over) > 0.85


def test_the_cards_known_to_lie_on_the_piles_are_told_in_image_pixels() -> None:
    """Once the table lies still, a card laid there is known to lie there, its corners in the image,
    until it is taken away."""
    profile, empty = _square_table()
    laid = empty.copy()
    card = _card(laid, (440, 450), 30, (40, 40, 180))
    proposer = ChangeProposer(profile, empty)
    assert proposer.lying().shape == (0, 4, 2)
    _last_proposals(proposer, [empty] * 4 + [laid] * 5)
    (corners,) = proposer.lying()
    assert iou(corners, card) > 0.9
    _last_proposals(proposer, [empty] * 6)
    assert proposer.lying().shape == (0, 4, 2)


def test_a_card_laid_in_a_grainy_picture_is_seen_arriving() -> None:
    """A camera's grain (blotchy, after its compression) differs from frame to frame all over the
    table; it is no motion, and the table lies still for the piles all the same."""
    profile, empty = _square_table()
    laid = empty.copy()
    card = _card(laid, (430, 450), 10, (40, 40, 180))
    rng = np.random.default_rng(7)

    def grainy(frame: np.ndarray) -> np.ndarray:
        grain = cv2.GaussianBlur(rng.normal(0, 60, frame.shape), (0, 0), 1.5)
        return np.clip(frame + grain, 0, 255).astype(np.uint8)

    proposer = ChangeProposer(profile, empty)
    arrived = [r for frame in [empty] * 4 + [laid] * 5 for r in proposer.propose(grainy(frame)) if r.arrived]
    assert len(arrived) == 1 and iou(arrived[0].corners, card) > 0.75  # the grain frays its outline


def _checked_table() -> tuple[TableProfile, np.ndarray]:
    """The square table of :func:`_square_table` under a cloth of green and white 25 mm squares."""
    profile, empty = _square_table()
    for x in range(0, 900, 25):
        for y in range(0, 900, 25):
            if (x // 25 + y // 25) % 2:
                cv2.rectangle(empty, (x, y), (x + 24, y + 24), (235, 235, 235), -1)
    return profile, empty


def test_a_white_card_tossed_onto_a_checked_cloth_is_found() -> None:
    """Where its white lies on white squares nothing differs from the empty table: about half of
    it shows as changed, and still a card lies there (where one was taken away, none of it does)."""
    profile, empty = _checked_table()
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (470, 440), 65, (235, 235, 235))  # all white, like an ace's face
    cv2.circle(pile, (470, 440), 12, (30, 120, 200), -1)  # its one pip
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    assert [iou(r.corners, over) > 0.8 for r in readings if r.arrived] == [True]


def _white_table() -> tuple[TableProfile, np.ndarray]:
    """The square table of :func:`_square_table` under a near-white cloth, a little blue: a card's
    white differs from it by 15, less than a change of colour (:class:`ProposerConfig`'s threshold)."""
    profile, empty = _square_table()
    return profile, np.full_like(empty, (250, 250, 232))


def _white_card(frame: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    """Draw an ace of swords (1 px per mm): a white card with a thin blade across it; its corners."""
    quad = _card(frame, centre, angle, (235, 235, 235))
    blade = cv2.boxPoints((centre, (4, 60), angle + 10))  # within its border
    cv2.fillConvexPoly(frame, np.round(blade).astype(np.int32), (160, 90, 60))
    return quad


def test_a_white_card_on_a_white_cloth_is_found_and_kept_out_of_the_background() -> None:
    """Only its blade differs plainly from the cloth; its white differs faintly, all over a card,
    and still does three seconds later: the background, refreshed where nothing changed, would
    have learnt it."""
    profile, empty = _white_table()
    laid = empty.copy()
    card = _white_card(laid, (440, 450), 25)
    proposer = ChangeProposer(profile, empty)
    for frame in [empty] * 4 + [laid] * 45:
        readings = proposer.propose(frame)
        assert [iou(r.corners, card) > 0.85 for r in readings] == ([True] if frame is laid else [])


def test_a_white_card_on_a_white_cloth_laid_touching_another_card_is_found_beside_it() -> None:
    """What differs faintly joins both cards; less the card found plainly, the white card is left."""
    profile, empty = _white_table()
    laid = empty.copy()
    plain = _card(laid, (420, 450), 0, (40, 40, 180))
    white = _white_card(laid, (482, 440), 35)
    readings = _last_proposals(ChangeProposer(profile, empty), [empty] * 4 + [laid] * 6)
    assert len(readings) == 2
    assert all(max(iou(r.corners, card) for r in readings) > 0.8 for card in (plain, white))


def test_a_sheet_of_paper_on_a_white_cloth_is_no_card() -> None:
    """A white sheet differs as faintly as a white card, but has no card's size."""
    profile, empty = _white_table()
    laid = empty.copy()
    cv2.rectangle(laid, (380, 350), (528, 560), (235, 235, 235), -1)  # A5, 148 x 210 mm
    assert _last_proposals(ChangeProposer(profile, empty), [empty] * 4 + [laid] * 6) == []


@pytest.mark.parametrize(("shift", "turn"), [((-12, -14), 5), ((-20, 10), -10), ((8, 8), 0)])
def test_a_white_card_laid_where_a_card_was_taken_away_while_the_table_moved_is_found(
    shift: tuple[int, int], turn: float
) -> None:
    """A trick is taken away and the next card is led where it lay before the table lies still
    again (a phone's stream stalled over both): what changed since the table last lay still is both
    cards, but the card taken away left the empty cloth, and only the card laid is fitted."""
    profile, empty = _checked_table()
    first = empty.copy()
    _card(first, (440, 430), 10, (40, 40, 180))
    led = empty.copy()
    centre = (440 + shift[0], 430 + shift[1])
    lead = _card(led, centre, 10 + turn, (235, 235, 235))  # all white, like an ace's face
    cv2.circle(led, centre, 12, (30, 120, 200), -1)  # its one pip
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    frames = [_reaching(led, i) for i in range(4)] + [led] * 4
    arrived = [r for frame in frames for r in proposer.propose(frame) if r.arrived]
    assert [iou(r.corners, lead) > 0.9 for r in arrived] == [True]


def _figure(frame: np.ndarray, centre: tuple[float, float], angle: float, off: int = 0) -> None:
    """Draw a court card (1 px per mm) whose figure is finely shaded in two colours, the figure
    seen ``off`` px down and right of where it is (a picture's grain and compression differ from
    frame to frame; the card itself does not move)."""
    cv2.fillConvexPoly(
        frame, np.round(cv2.boxPoints((centre, sorted(CARD_MM), angle))).astype(np.int32), (235,) * 3
    )
    inside = np.zeros(frame.shape[:2], np.uint8)
    picture = cv2.boxPoints((centre, (CARD_MM[0] - 12, CARD_MM[1] - 12), angle))
    cv2.fillConvexPoly(inside, np.round(picture).astype(np.int32), 255)
    shade = cv2.GaussianBlur(np.random.default_rng(1).normal(0, 1, frame.shape[:2]), (0, 0), 1.5)
    shade = np.clip(np.roll(shade, (off, off), axis=(0, 1)) / shade.std() / 2 + 0.5, 0, 1)[..., None]
    ink = shade * np.float32((40, 40, 190)) + (1 - shade) * np.float32((190, 200, 60))
    frame[inside > 0] = ink.astype(np.uint8)[inside > 0]


@pytest.mark.parametrize("off", [1, 2])
@pytest.mark.parametrize(("centre", "angle"), [((470, 440), 65), ((480, 455), 80), ((460, 430), 20)])
def test_a_white_card_tossed_onto_a_figure_seen_a_pixel_off_on_a_checked_cloth_is_found(
    centre: tuple[int, int], angle: float, off: int
) -> None:
    """Where its white lies on white squares nothing differs; where the figure under it shows, a
    picture a pixel off differs all over the fine shading. Joined, the two fit no card, or one
    pulled over the figure; what a shift of a pixel explains is no change, and the card is found."""
    profile, empty = _checked_table()
    first, pile = empty.copy(), empty.copy()
    _figure(first, (430, 450), 10)
    _figure(pile, (430, 450), 10, off)
    over = _card(pile, centre, angle, (235, 235, 235))  # all white, like an ace's face
    cv2.circle(pile, centre, 12, (30, 120, 200), -1)  # its one pip
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    assert [iou(r.corners, over) > 0.85 for r in readings if r.arrived] == [True]


def test_a_picture_a_pixel_off_is_steady_and_a_card_tossed_onto_it_is_not() -> None:
    """The steady distance leaves out what a shift of a pixel explains, and nothing else."""
    picture = np.zeros((120, 120, 3), np.uint8)
    _figure(picture, (60, 60), 0)
    moved = np.roll(picture, (1, -1), axis=(0, 1))
    inner = np.s_[10:-10, 10:-10]
    assert colour_distance(picture, moved)[inner].max() > 60  # the shading differs all over
    assert steady_distance(picture, moved)[inner].max() == 0
    tossed = moved.copy()
    cv2.rectangle(tossed, (40, 40), (80, 80), (235, 235, 235), -1)
    changed = steady_distance(picture, tossed) > ProposerConfig.threshold
    assert changed[42:79, 42:79].mean() > 0.95 and not changed[inner][:25].any()


@pytest.mark.parametrize(("centre", "angle"), [((450, 450), 45), ((462, 450), 60)])
def test_a_white_card_lying_alone_on_a_checked_cloth_is_found_from_its_ragged_change(
    centre: tuple[int, int], angle: float
) -> None:
    """Where its white lies on white squares nothing differs from the empty table: what changed is
    one ragged piece, smaller than a card, whose convex hull has the card's outline."""
    profile, empty = _checked_table()
    frame = empty.copy()
    card = _card(frame, centre, angle, (235, 235, 235))  # all white, like an ace's face
    cv2.circle(frame, centre, 12, (30, 120, 200), -1)  # its one pip
    readings = ChangeProposer(profile, empty).propose(frame)
    assert [iou(r.corners, card) > 0.8 for r in readings] == [True]


def test_a_white_card_laid_on_a_checked_cloth_beside_a_thin_edge_of_shadow_that_moved_is_found() -> None:
    """As the card comes, the edge of someone's shadow moves over the squares below it: a thin tail
    of what changed, joined to the ragged change the card makes, and no card fits the two."""
    profile, empty = _checked_table()
    laid = empty.copy()
    card = _card(laid, (450, 480), 30, (235, 235, 235))  # all white, like an ace's face
    cv2.circle(laid, (450, 480), 12, (30, 120, 200), -1)  # its one pip
    corner = card[np.argmax(card[:, 1])]  # its lowest corner
    tail = np.zeros(laid.shape[:2], np.uint8)
    cv2.line(
        tail,
        (round(corner[0]), round(corner[1]) - 3),
        (round(corner[0]) + 30, round(corner[1]) + 55),
        255,
        12,
    )
    laid[tail > 0] = (laid[tail > 0] * 0.6).astype(np.uint8)
    proposer = ChangeProposer(profile, empty)
    readings = _last_proposals(proposer, [empty] * 4 + [laid] * 4)
    assert [iou(r.corners, card) > 0.7 for r in readings if r.arrived] == [True]


def test_two_white_cards_tossed_on_a_checked_cloth_before_it_lies_still_are_sought_in_their_hull() -> None:
    """Where their white lies on white squares, what changed is ragged: searched card by card it
    held no card; its convex hull, filled where the white squares hid them, shows the cards."""
    profile, empty = _checked_table()
    pile = empty.copy()
    cards = []
    for centre, angle, pip in (((430, 450), 10, (30, 120, 200)), ((460, 470), 80, (200, 60, 30))):
        cards.append(_card(pile, centre, angle, (235, 235, 235)))  # all white, like an ace's face
        cv2.circle(pile, centre, 12, pip, -1)
    proposer = ChangeProposer(profile, empty)
    arrived = [r for r in _last_proposals(proposer, [empty] * 4 + [pile] * 4) if r.arrived]
    assert arrived and all(max(iou(r.corners, card) for card in cards) > 0.85 for r in arrived)


def _low_card(frame: np.ndarray, centre: tuple[float, float], angle: float, ink) -> np.ndarray:
    """Draw a white card (1 px per mm) at ``angle`` with four small pips, like a low card; its corners."""
    quad = cv2.boxPoints((centre, sorted(CARD_MM), angle))
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (235, 235, 235))
    turn = cv2.getRotationMatrix2D((0, 0), -angle, 1.0)[:, :2]
    for offset in ((-14, -32), (14, -32), (-14, 28), (14, 28)):
        pip = np.asarray(centre) + turn @ np.asarray(offset, np.float64)
        cv2.fillConvexPoly(frame, np.round(cv2.boxPoints((pip, (10, 10), angle))).astype(np.int32), ink)
    return quad


def _two_tossed_over_a_white_card() -> tuple[TableProfile, list[np.ndarray], np.ndarray, np.ndarray]:
    """A low card lying alone, then two cards tossed before the table lies still again: one over its
    end, the other mostly over its white, where only the pips changed. The frames, and both cards."""
    profile, empty = _square_table()
    first = empty.copy()
    _low_card(first, (430, 450), 0, (40, 40, 200))
    pile = first.copy()
    below = _card(pile, (440, 530), 20, (170, 60, 30))
    over = _low_card(pile, (465, 445), 50, (30, 120, 30))
    return profile, [empty] * 4 + [first] * 4 + [pile] * 4, below, over


def test_a_card_seen_by_other_means_explains_what_changed_on_a_pile_and_no_card_outline_fits() -> None:
    """The change alone shows the first of two cards tossed at once; the rest of it is the second,
    over the white of the card under it. A card found there by other means (a detector) that takes
    in that rest is the second card, seen arriving."""
    profile, frames, below, over = _two_tossed_over_a_white_card()
    for seen, found in (([], [below]), ([over], [below, over])):
        proposer = ChangeProposer(profile, frames[0])
        for frame in frames:
            readings = proposer.look(frame, seen).readings
        arrived = [r for r in readings if r.arrived]
        assert len(arrived) == len(found)
        assert all(max(iou(r.corners, card) for r in arrived) > 0.85 for card in found)


def test_a_card_landing_on_white_cards_where_only_its_figure_changed_takes_the_outline_seen() -> None:
    """A court card lands crosswise on white cards lying side by side, its white border wholly over
    their white: what changed is only its figure, which a card's outline fits smaller and off its
    place. A card found there by other means (a detector) that takes in the whole figure is that
    card, its outline whole."""
    profile, empty = _square_table()
    first = empty.copy()
    for x in (390, 450, 510):  # like aces' faces
        _card(first, (x, 450), 0, (235, 235, 235))
    pile = first.copy()
    over = _card(pile, (470, 450), 90, (235, 235, 235))
    cv2.ellipse(pile, (478, 450), (39, 25), 0, 0, 360, (40, 60, 170), -1)  # towards one end of the card
    for seen, right in (([], False), ([over], True)):
        proposer = ChangeProposer(profile, empty)
        _last_proposals(proposer, [empty] * 4 + [first] * 4)
        for _ in range(4):
            readings = proposer.look(pile, seen).readings  # the detector boxes it once it lands
        (arrived,) = [r for r in readings if r.arrived]
        assert (iou(arrived.corners, over) > 0.9) is right


def test_a_loose_box_over_a_card_landing_almost_on_another_is_no_outline_of_it() -> None:
    """A card lands over most of a white card: what changed fits it. A detector's loose box, a
    third too wide for its length, takes in that change and part of the card under it: no card's
    shape, it does not take the card's place."""
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (450, 470), 0, (235, 235, 235))  # like an ace's face
    pile = first.copy()
    over = _card(pile, (452, 447), 4, (170, 60, 30))
    short, long_ = sorted(CARD_MM)
    loose = cv2.boxPoints(((452, 453), (short * 1.35, long_ * 1.05), -4))
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    for _ in range(4):
        readings = proposer.look(pile, [loose]).readings
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, over) > 0.8 > iou(arrived.corners, loose)


@pytest.mark.parametrize("end_y", [440, 444])  # the end card over more of the figure: less is left of it
def test_a_court_card_tossed_right_over_a_card_lying_there_with_another_over_its_end_is_found(
    end_y: int,
) -> None:
    """A low card lies alone. Before the table lies still again, one card lands over its end and a
    court card right over it, white on white: what changed is the first card and the figure, joined,
    and the first card's outline fits it. The detector's box on the court card lies where the low
    card was known, but more of that card changed than the card fitted explains: it no longer lies
    there as it did, and the box explains the rest of the change. Both cards arrived."""
    profile, empty = _square_table()
    first = empty.copy()
    _low_card(first, (450, 482), 90, (40, 40, 200))
    pile = first.copy()
    end = _card(pile, (452, end_y), 88, (170, 60, 30))
    court = _card(pile, (449, 482), 91, (235, 235, 235))
    cv2.ellipse(pile, (449, 482), (38, 22), 0, 0, 360, (40, 60, 170), -1)
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    for _ in range(4):
        readings = proposer.look(pile, [end, court]).readings
    arrived = [r for r in readings if r.arrived]
    assert len(arrived) == 2
    assert all(max(iou(r.corners, card) for r in arrived) > 0.9 for card in (end, court))


def _swords(frame: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    """Draw a white card (1 px per mm) at ``angle`` with four long blue blades, like a six of swords;
    its corners."""
    quad = cv2.boxPoints((centre, sorted(CARD_MM), angle))
    cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), (235, 235, 235))
    turn = cv2.getRotationMatrix2D((0, 0), -angle, 1.0)[:, :2]
    for offset, size in (((-12, 0), (7, 70)), ((12, 0), (7, 70)), ((0, -22), (7, 30)), ((0, 22), (7, 30))):
        blade = np.asarray(centre) + turn @ np.asarray(offset, np.float64)
        outline = np.round(cv2.boxPoints((blade, size, angle))).astype(np.int32)
        cv2.fillConvexPoly(frame, outline, (200, 90, 40))
    return quad


@pytest.mark.parametrize("offset, angle", [((-15, -5), 20), ((-10, 12), -15)])
def test_a_white_card_tossed_over_a_white_card_on_a_finely_checked_cloth_is_found_where_seen(
    offset: tuple[int, int], angle: float
) -> None:
    """A white card lands 16 mm off a white card on a cloth of 8 mm checks: what changed is its blades
    and the dark squares it covers beside the card under it, a few pieces that fit no card and lie
    under half of it. The detector's box there, taking in all of them, is the card."""
    profile, empty = _square_table()
    for x in range(0, 900, 8):
        for y in range(0, 900, 8):
            if (x // 8 + y // 8) % 2:
                cv2.rectangle(empty, (x, y), (x + 7, y + 7), (235, 235, 235), -1)
    first = empty.copy()
    _low_card(first, (450, 470), 0, (40, 40, 200))
    pile = first.copy()
    over = _swords(pile, (450 + offset[0], 470 + offset[1]), angle)
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    arrived = [r for _ in range(4) for r in proposer.look(pile, [over]).readings if r.arrived]
    assert [iou(r.corners, over) > 0.9 for r in arrived] == [True]


@pytest.mark.parametrize("lost", [False, True])
def test_a_white_card_tossed_wholly_onto_white_cards_is_found_where_seen_while_the_table_lay_still(
    lost: bool,
) -> None:
    """A card of blades, like an eight of swords, lands wholly on the white of white cards lying side
    by side: what changed is only its blades, joined under two fifths of it. The detector's box
    there is the card, though the detector loses it in the frame the table has lain still long
    enough (a white card on white): the table has not moved since it was seen."""
    profile, empty = _square_table()
    first = empty.copy()
    for x in (420, 480):  # like aces' faces
        _card(first, (x, 460), 0, (235, 235, 235))
    pile = first.copy()
    over = _swords(pile, (452, 455), 8)
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    boxes = [[over]] * 3 + [[] if lost else [over]]  # moving, then still for three frames
    arrived = [r for seen in boxes for r in proposer.look(pile, seen).readings if r.arrived]
    assert [iou(r.corners, over) > 0.9 for r in arrived] == [True]


def test_a_card_seen_where_nothing_is_left_unexplained_is_no_card_arriving() -> None:
    """A detector's box on the card already lying there, or on the card the change shows whole, adds
    no card."""
    profile, frames, below, _ = _two_tossed_over_a_white_card()
    lying = cv2.boxPoints(((430, 450), sorted(CARD_MM), 0))
    proposer = ChangeProposer(profile, frames[0])
    for frame in frames:
        readings = proposer.look(frame, [lying, below]).readings
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, below) > 0.85


def test_two_cards_seen_over_each_other_where_the_change_fits_no_card_add_neither() -> None:
    """Two boxes that both explain what changed lie over each other: which came first is unknown,
    so neither is taken for the card that arrived."""
    profile, frames, below, over = _two_tossed_over_a_white_card()
    nearly = over + 6.0  # a second box 8 mm off the first
    proposer = ChangeProposer(profile, frames[0])
    for frame in frames:
        readings = proposer.look(frame, [over, nearly]).readings
    (arrived,) = [r for r in readings if r.arrived]
    assert iou(arrived.corners, below) > 0.85


@pytest.mark.parametrize("first", [0, 1])
def test_cards_found_together_on_a_pile_come_from_the_one_underneath(first: int) -> None:
    """Two cards tossed across each other before the table lies still are found at once; the one
    underneath, played first, comes first (its edge does not show inside the card on top)."""
    profile, empty = _square_table()
    before = empty.copy()
    _card(before, (300, 600), 0, (30, 160, 160))  # a card lying apart
    places = [((430, 450), 0, (40, 40, 180)), ((480, 450), 90, (170, 60, 30))]
    pile = before.copy()
    under = _card(pile, *places[first])
    top = _card(pile, *places[1 - first])
    proposer = ChangeProposer(profile, empty)
    arrived = [r for r in _last_proposals(proposer, [empty] * 4 + [before] * 4 + [pile] * 4) if r.arrived]
    assert [max(range(2), key=lambda k: iou(r.corners, (under, top)[k])) for r in arrived] == [0, 1]


def _striped_card(frame: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    """Draw a card (1 px per mm) whose picture is crossed by bold dark stripes, a busy print; its
    corners."""
    quad = _card(frame, centre, angle, (150, 200, 225))
    picture = np.zeros(frame.shape[:2], np.uint8)
    inner = cv2.boxPoints((centre, (CARD_MM[0] - 16, CARD_MM[1] - 16), angle))
    cv2.fillConvexPoly(picture, np.round(inner).astype(np.int32), 255)
    stripes = np.zeros_like(picture)
    x, y = round(centre[0]), round(centre[1])
    for k in range(-200, 200, 12):
        cv2.line(stripes, (x + k - 100, y - 100), (x + k + 100, y + 100), 255, 5)
    frame[(picture > 0) & (stripes > 0)] = (20, 20, 20)
    return quad


@pytest.mark.parametrize(
    "under_at, over_at",
    [
        (((470, 420), 90), ((475, 448), 95)),
        (((470, 430), 80), ((480, 460), 100)),
        (((460, 420), 95), ((470, 445), 70)),
    ],
)
def test_a_white_card_under_a_card_of_busy_print_found_together_comes_first(
    under_at: tuple[tuple[int, int], float], over_at: tuple[tuple[int, int], float]
) -> None:
    """The edge of the card on top hardly shows over the white card under it, while the outline of
    the white card runs across the stripes of the card on top; the margin of the card on top runs
    on, alike, over the white card, and the white card's margin is striped where it lies under."""
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 0, (30, 160, 160))
    pile = first.copy()
    under = _card(pile, *under_at, (228, 228, 228))
    over = _striped_card(pile, *over_at)
    proposer = ChangeProposer(profile, empty)
    arrived = [r for r in _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4) if r.arrived]
    assert [max(range(2), key=lambda k: iou(r.corners, (under, over)[k])) for r in arrived] == [0, 1]


def test_a_card_seen_by_other_means_where_too_little_differs_from_the_empty_table_is_not_kept() -> None:
    """A card the colour of the cloth, tossed over a white card, hides it (what changed) but does
    not differ from the empty table: a box on it explains nothing the table shows, and it is not
    known to lie there (the detector's boxes on cards known to lie on a pile are left out)."""
    profile, empty = _square_table()
    first = empty.copy()
    _low_card(first, (430, 450), 0, (40, 40, 200))
    pile = first.copy()
    over = cv2.boxPoints(((430, 472), sorted(CARD_MM), 5))
    cv2.fillConvexPoly(pile, np.round(over).astype(np.int32), (62, 112, 42))
    proposer = ChangeProposer(profile, empty)
    for frame in [empty] * 4 + [first] * 4 + [pile] * 4:
        proposer.look(frame, [over])
    assert all(np.linalg.norm(corners.mean(axis=0) - (430, 472)) > 10 for corners in proposer.lying())


def _jolted(frame: np.ndarray, shift: tuple[float, float]) -> np.ndarray:
    """``frame`` as a camera jolted by ``shift`` (px) sees it."""
    move = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    return cv2.warpAffine(frame, move, frame.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


def test_a_card_tossed_onto_another_is_found_while_the_camera_shakes() -> None:
    """Someone bumps the table as the card lands: the whole picture jumps a few pixels every
    frame, which is no card moving; the card is found once the cards lie still on the table."""
    profile, empty, first, pile, _, over = _pile_of_two()
    shaking = [_jolted(pile, shift) for shift in [(4, -3), (-3, 4), (3, 3), (-4, -2), (2, -4), (-2, 3)]]
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    arrived = [r for frame in shaking for r in proposer.propose(frame) if r.arrived]
    assert len(arrived) == 1
    assert iou(arrived[0].corners, over) > 0.8


def _woven_table() -> tuple[TableProfile, np.ndarray]:
    """The square table of :func:`_square_table` under a cloth of a fine two-colour weave."""
    profile, empty = _square_table()
    noise = cv2.GaussianBlur(np.random.default_rng(5).normal(0, 1, empty.shape[:2]), (0, 0), 1.0)
    weave = (noise > 0)[..., None]
    return profile, np.where(weave, np.uint8((200, 215, 210)), empty)


def test_a_card_tossed_onto_another_on_a_woven_cloth_is_found_while_a_tilted_camera_shakes() -> None:
    """A tilted camera's far side moves more than its near side when the table is bumped: laid back
    by one shift, the picture of a finely woven cloth is still up to a pixel off at its edges, which
    is no motion either."""
    profile, empty = _woven_table()
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (462, 440), 55, (170, 60, 30))
    centre = np.array(pile.shape[1::-1]) / 2

    def shaken(shift: tuple[float, float], zoom: float) -> np.ndarray:
        move = np.float32(
            [[1 + zoom, 0, shift[0] - zoom * centre[0]], [0, 1 + zoom, shift[1] - zoom * centre[1]]]
        )
        return cv2.warpAffine(pile, move, pile.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)

    shifts = [(4, -3), (-3, 4), (3, 3), (-4, -2), (2, -4), (-2, 3), (3, -1), (-1, -3)]
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    frames = [shaken(shift, 0.002 * (-1) ** k) for k, shift in enumerate(shifts)]
    arrived = [r for frame in frames for r in proposer.propose(frame) if r.arrived]
    assert [iou(r.corners, over) > 0.8 for r in arrived] == [True]


def test_a_card_tossed_onto_another_is_found_while_a_steeply_tilted_camera_shakes() -> None:
    """Seen 35 degrees off vertical, the far side of the table moves much more than the near side
    when it is bumped: laid back by the shift of the piles, the flowered cloth beyond them is still
    pixels off, but far less of it than before; the piles lie still."""
    profile, empty = _square_table()
    noise = cv2.GaussianBlur(np.random.default_rng(5).normal(0, 1, empty.shape[:2]), (0, 0), 4.0)
    empty[noise > 0.5 * noise.std()] = (170, 150, 200)  # a cloth printed with flowers
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    pile = first.copy()
    over = _card(pile, (462, 440), 55, (170, 60, 30))
    corners = np.float32([[0, 0], [900, 0], [900, 900], [0, 900]])
    far = 1.6 - 1.2 * corners[:, 1:] / 900  # how much of the piles' shift each corner moves

    def shaken(shift: tuple[float, float]) -> np.ndarray:
        move = cv2.getPerspectiveTransform(corners, corners + far * np.float32(shift))
        return cv2.warpPerspective(pile, move, pile.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)

    shifts = [(4, -3), (-3, 4), (3, 3), (-4, -2), (2, -4), (-2, 3), (3, -1), (-1, -3)]
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    arrived = [r for frame in map(shaken, shifts) for r in proposer.propose(frame) if r.arrived]
    assert [iou(r.corners, over) > 0.8 for r in arrived] == [True]


def test_a_jolt_of_the_camera_over_a_finely_woven_cloth_changes_nothing_but_the_cards() -> None:
    """A shift of a pixel or two moves every thread of a fine weave: against the empty table half of
    it would look changed (where cards were taken away during the jolt, cards would seem to lie);
    laid over the frame, a few threads' edges are left."""
    profile, empty = _woven_table()
    laid = empty.copy()
    card = _card(laid, (450, 450), 20, (40, 40, 180))
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [laid] * 4)
    for shift in [(4, -3), (3, -2), (-2, 3)]:
        _, mask = proposer.changed(_jolted(laid, shift))
        on_card = np.zeros_like(mask)
        cv2.fillConvexPoly(on_card, np.round(card / 2).astype(np.int32), 255)  # 0.5 px per mm
        assert np.count_nonzero(mask & ~on_card) < 0.1 * mask.size
        assert np.count_nonzero(mask & on_card) > 0.8 * np.count_nonzero(on_card)
    readings = _last_proposals(proposer, [_jolted(laid, (3, -2))] * 3 + [laid] * 3)
    assert [iou(r.corners, card) > 0.85 for r in readings] == [True]


def test_a_card_sliding_across_a_pile_is_no_jolt_of_the_camera() -> None:
    profile, empty = _square_table()
    first = empty.copy()
    _card(first, (430, 450), 10, (40, 40, 180))
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    for step in range(8):  # 6 mm a frame over the first card: never lying still
        frame = first.copy()
        _card(frame, (440 + 6 * step, 440), 55, (170, 60, 30))
        assert not any(r.arrived for r in proposer.propose(frame))


def test_a_jolted_picture_is_laid_back_over_the_one_before() -> None:
    rng = np.random.default_rng(3)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (200, 240, 3), dtype=np.uint8), (5, 5), 0)
    jolted = _jolted(picture, (3, -2))
    back = aligned(jolted, picture)
    inner = (slice(10, -10), slice(10, -10))
    before = np.abs(jolted.astype(int) - picture)[inner].mean()
    assert np.abs(back.astype(int) - picture)[inner].mean() < before / 5
    assert aligned(picture, picture) is picture  # nothing to move


def test_a_lone_card_sliding_on_a_plain_cloth_is_no_jolt_of_the_camera() -> None:
    """Laid over its own shift, the sliding card lies still, but the rest of the table moves."""
    profile, empty = _square_table()
    _card(empty, (150, 150), 0, (90, 40, 40))  # a card lying far from the piles: the stock, say
    proposer = ChangeProposer(profile, empty)
    for step in range(8):  # 10 mm a frame
        frame = empty.copy()
        _card(frame, (400 + 10 * step, 450), 30, (170, 60, 30))
        assert not any(r.arrived for r in proposer.propose(frame))


def _lit(frame: np.ndarray, gain: tuple[float, float, float]) -> np.ndarray:
    """``frame`` under another light: each colour channel (BGR) scaled by ``gain``."""
    return np.clip(frame * np.float32(gain), 0, 255).astype(np.uint8)


#: A warm lamp switched on, then the camera's exposure taking part of its brightness back.
LAMP_ON = [(1.3, 1.45, 1.6), (1.2, 1.33, 1.47), (1.14, 1.26, 1.4), (1.1, 1.22, 1.35)]
LAMP_ON += [(1.08, 1.2, 1.32)] * 4


def test_a_card_tossed_onto_another_is_found_as_a_lamp_is_switched_on() -> None:
    """The light changes as the card lands: the cards lying there look different from when the
    table last lay still, but only the new one came."""
    profile, empty, first, pile, under, over = _pile_of_two()
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    arrived = [r for gain in LAMP_ON for r in proposer.propose(_lit(pile, gain)) if r.arrived]
    assert len(arrived) == 1
    assert iou(arrived[0].corners, over) > 0.85
    readings = proposer.propose(_lit(pile, LAMP_ON[-1]))
    assert max(iou(r.corners, over) for r in readings) > 0.85
    assert all(iou(r.corners, over) > 0.85 or iou(r.corners, under) < 0.3 for r in readings)


def test_a_card_tossed_onto_another_is_found_as_a_lamp_is_switched_off() -> None:
    """Under the lamp the cards' white clipped at the camera's brightest level: darkened to the
    room's light it would be darker than the white the camera now shows, and the card under the
    new one would seem to have changed too."""
    profile, empty, first, pile, _, over = _pile_of_two()
    proposer = ChangeProposer(profile, empty)
    lamp = LAMP_ON[-1]
    _last_proposals(proposer, [_lit(empty, lamp)] * 4 + [_lit(first, lamp)] * 4)
    arrived = [r for _ in range(4) for r in proposer.propose(pile) if r.arrived]
    assert len(arrived) == 1
    assert iou(arrived[0].corners, over) > 0.85


def test_a_checked_cloth_whose_white_clipped_under_a_lamp_is_no_change_once_it_is_switched_off() -> None:
    """Under a warm lamp the white squares clip at the camera's brightest level: darkened back to
    the room's light they would teach the background a white darker than the cloth's, and once the
    lamp is off every white square would differ from it, for good (nothing there lies still
    enough to teach it again). The camera's grain leaves some of the clipped pixels a little
    darker than the brightest level."""
    profile, empty = _checked_table()
    grain = np.random.default_rng(8)

    def seen(frame: np.ndarray) -> np.ndarray:  # a camera's grain, after the light clipped
        return np.clip(frame + grain.normal(0, 8, frame.shape), 0, 255).astype(np.uint8)

    proposer = ChangeProposer(profile, seen(empty))
    for _ in range(120):  # a few seconds under the lamp
        proposer.changed(seen(_lit(empty, LAMP_ON[-1])))
    for _ in range(3):
        _, mask = proposer.changed(seen(empty))
    assert np.count_nonzero(mask) < 0.02 * mask.size


def test_a_lamp_switched_on_over_a_still_pile_brings_no_card_and_loses_none() -> None:
    profile, empty, first, pile, _, over = _pile_of_two()
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4 + [pile] * 4)
    for gain in LAMP_ON:
        readings = proposer.propose(_lit(pile, gain))
        assert not any(r.arrived for r in readings)
        assert max((iou(r.corners, over) for r in readings), default=0.0) > 0.85


#: Someone leaning in over the bottom edge of the table: how dark their shadow is and how far
#: (mm) it comes in, frame by frame.
LEANING = [(0.1, 200), (0.2, 350), (0.3, 470), (0.35, 520)]


def _in_shadow(frame: np.ndarray, darkness: float, depth: float) -> np.ndarray:
    """``frame`` with the soft shadow of someone's head and shoulders coming ``depth`` px in over
    its bottom edge, a little bluer than the lamp."""
    height, width = frame.shape[:2]
    shape = np.zeros((height, width), np.float32)
    cv2.ellipse(shape, (width // 2, height), (260, round(depth)), 0, 180, 360, 1.0, -1)
    soft = cv2.GaussianBlur(shape, (0, 0), 12)[..., None]
    return np.clip(frame * (1 - soft * darkness * np.float32((0.95, 1.0, 1.03))), 0, 255).astype(np.uint8)


def test_someone_leaning_over_the_table_is_no_arm_and_hides_no_card() -> None:
    """The shadow of someone leaning in comes over the table's edge as an arm does, but it only
    darkens the cloth and the card it falls on: no arm reaches in, and the card is still there."""
    profile, empty = _square_table()
    grain = np.random.default_rng(3).normal(0, 4, empty.shape)
    empty = np.clip(empty + grain, 0, 255).astype(np.uint8)
    laid = empty.copy()
    card = _card(laid, (430, 450), 20, (40, 40, 180))
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [laid] * 4)
    for darkness, depth in LEANING + LEANING[::-1]:
        sight = proposer.look(_in_shadow(laid, darkness, depth))
        assert sight.reaches == ()
        assert [iou(r.corners, card) > 0.85 for r in sight.readings] == [True]


def test_a_card_tossed_onto_a_pile_in_someones_shadow_is_found_and_nothing_arrives_as_it_leaves() -> None:
    profile, empty, first, pile, _, over = _pile_of_two()
    proposer = ChangeProposer(profile, empty)
    _last_proposals(proposer, [empty] * 4 + [first] * 4)
    leaning = [_in_shadow(first, *shadow) for shadow in LEANING] + [_in_shadow(pile, *LEANING[-1])] * 4
    arrived = [r for frame in leaning for r in proposer.propose(frame) if r.arrived]
    assert len(arrived) == 1 and iou(arrived[0].corners, over) > 0.85
    leaving = [_in_shadow(pile, *shadow) for shadow in LEANING[::-1]] + [pile] * 4
    assert not any(r.arrived for frame in leaving for r in proposer.propose(frame))
    readings = proposer.propose(pile)
    assert max(iou(r.corners, over) for r in readings) > 0.85
