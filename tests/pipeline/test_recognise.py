"""The recogniser on scripted table-state sequences, with a real engine and session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.cards import Card, deck
from companion.engine import random_game, replay
from companion.pipeline.config import RecogniseConfig
from companion.pipeline.missed import taken_short
from companion.pipeline.recognise import at_trump_spot, choose, in_play
from companion.pipeline.runner import Pipeline
from companion.session import LiveSession, Setup
from companion.table.profile import profile_from_corners
from companion.vision.readings import Reach, Sight

FPS = 10
SIDE = 640.0
#: 2 players, table mm == image px: seat 0 at the bottom, the stock on the right.
TABLE = profile_from_corners([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]], (640, 640), 2, (SIDE, SIDE))
TRUMP_AT = (555.0, 320.0)
SPOT = {0: (320.0, 395.0), 1: (320.0, 245.0)}
MID_TRICK_SWAPS = {"preset": "brisca-2", "options": {"swap_mid_trick": True}}


class Frame(np.ndarray):
    """A blank camera frame that carries what vision sees in it."""

    sight: Sight

    @classmethod
    def of(cls, sight: Sight) -> Frame:
        frame = np.zeros((8, 8, 3), np.uint8).view(cls)
        frame.sight = sight
        return frame


#: 4 players, seat 0 at the bottom and the others counterclockwise; the stock towards seats 0 and 1.
TABLE4 = profile_from_corners([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]], (640, 640), 4, (SIDE, SIDE))
EDGES = {0: (320.0, SIDE), 1: (SIDE, 320.0), 2: (320.0, 0.0), 3: (0.0, 320.0)}


class Script:
    """Feeds scripted frames to a tracker and recogniser, collecting what they recognise."""

    def __init__(
        self,
        seen,
        rules: str | dict = "brisca-2",
        players: tuple[str, ...] = ("Ana", "Luis"),
        evidence_dir: Path | None = None,
    ) -> None:
        self.seen = seen
        self.session = LiveSession(Setup(rules=rules, players=players))
        table = TABLE if len(players) == 2 else TABLE4
        self.pipeline = Pipeline(lambda frame: frame.sight, table, self.session, evidence_dir=evidence_dir)
        self.lying: dict[str, object] = {}
        self.arms: tuple[Reach, ...] = ()
        self.cleared: tuple[tuple[float, float], ...] = ()
        self.t = 0.0
        self.events = []

    def put(self, name: str, at: tuple[float, float], card: str, p: float = 0.95, *others) -> Script:
        self.lying[name] = self.seen(*at, card, p, *others)
        return self

    def reach(self, seat: int | None, tip: tuple[float, float] = (320.0, 320.0)) -> Script:
        """An arm from ``seat``'s edge of the table reaches to ``tip`` (None: no arm)."""
        edges = {0: EDGES[0], 1: EDGES[2]} if len(self.state.players) == 2 else EDGES
        self.arms = () if seat is None else (Reach(edges[seat], tip),)
        return self

    def bare(self, *places: tuple[float, float]) -> Script:
        """Vision sees the table bare at ``places`` in the next frame held: cards were taken away."""
        self.cleared = places
        return self

    def take(self, *names: str) -> Script:
        for name in names:
            del self.lying[name]
        return self

    def hold(self, seconds: float, hidden: tuple[str, ...] = ()) -> Script:
        for _ in range(round(seconds * FPS)):
            readings = tuple(r for name, r in self.lying.items() if name not in hidden)
            self.events += self.pipeline.step(self.t, Frame.of(Sight(readings, self.arms, self.cleared)))
            self.cleared = ()
            self.t += 1 / FPS
        return self

    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]

    @property
    def state(self):
        return self.session.view().state


def test_a_trick_is_recognised_and_collected(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1)
    assert script.kinds() == ["trump", "play", "play", "trick"]
    (trick,) = script.state.tricks
    assert trick.plays == ((0, Card.parse("1C")), (1, Card.parse("5C")))
    assert trick.winner == 0 and trick.points == 11
    script.take("a", "b").hold(2)
    assert script.kinds()[-1] == "collected"
    assert script.state.to_play == 0
    record = script.session.view().record.to_dict()
    assert record["events"][1]["source"] == "camera" and record["events"][1]["confidence"] > 0.9


def test_a_hand_over_a_card_and_a_card_lifted_and_put_back_are_not_new_plays(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1).put("a", SPOT[0], "1C").hold(1)
    script.hold(0.7, hidden=("a",)).hold(0.5)  # a hand passes over it
    script.take("a").hold(2).put("a", SPOT[0], "1C").hold(1)  # lifted, looked at, put back
    assert script.kinds() == ["trump", "play"]
    script.put("b", SPOT[1], "12C").hold(1)
    assert script.kinds() == ["trump", "play", "play", "trick"]
    assert script.state.tricks[0].winner == 0


def test_a_swap_in_the_middle_of_a_trick_lets_the_old_trump_card_be_played(seen):
    script = Script(seen, rules=MID_TRICK_SWAPS).put("trump", TRUMP_AT, "12O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1)
    script.put("trump", TRUMP_AT, "7O").hold(1.5)  # seat 1, to play, takes the 12O for the 7O
    assert script.kinds() == ["trump", "play", "swap"]
    assert script.events[-1].seat == 1 and script.state.face_up == Card.parse("7O")
    script.put("b", SPOT[1], "12O", 0.7, ("12C", 0.25)).hold(1)
    assert script.kinds()[-2:] == ["play", "trick"]
    assert script.state.tricks[0].plays[1] == (1, Card.parse("12O"))
    assert script.state.tricks[0].winner == 1  # a trump takes the ace


def test_a_misread_is_corrected_by_the_rules(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1).take("a", "b").hold(2)
    # vision prefers the ace of cups again, but it has been played: the ace of swords is the reading
    script.put("c", SPOT[0], "1C", 0.6, ("1E", 0.35)).hold(1.5)
    assert script.events[-1].kind == "play"
    assert script.events[-1].card == Card.parse("1E") and script.events[-1].doubt is None
    assert script.session.view().flags == ()


def test_a_doubtful_reading_is_flagged_with_alternatives_and_the_game_goes_on(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "6B", 0.5, ("6E", 0.45)).hold(2)
    play = script.events[-1]
    assert play.kind == "play" and play.doubt is not None
    assert {card for card, _ in play.alternatives} == {Card.parse("6B"), Card.parse("6E")}
    (flag,) = script.session.view().flags
    assert {card for card, _ in flag.alternatives} == {Card.parse("6B"), Card.parse("6E")}
    script.put("b", SPOT[1], "2C").hold(1)
    assert script.kinds()[-2:] == ["play", "trick"]


def test_open_hands_the_camera_never_sees_flag_no_play_and_a_misread_is_still_corrected(seen):
    """Brisca descubierta: the hands are shown, but not to the camera. Every card would be refused
    alike for a hand never shown, so no play is flagged for it; the rules still correct a misread."""
    script = Script(seen, rules="brisca-descubierta").put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1).take("a", "b").hold(2)
    script.put("c", SPOT[0], "1C", 0.6, ("1E", 0.35)).hold(1.5)
    plays = [event for event in script.events if event.kind == "play"]
    assert [str(event.card) for event in plays] == ["1C", "5C", "1E"]
    assert all(event.doubt is None for event in plays)
    assert script.session.view().flags == ()
    assert {issue.code for issue in script.state.issues} == {"hand-unknown"}  # the record still says so


def test_a_card_seen_only_briefly_is_not_played(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("peek", SPOT[0], "1C").hold(0.2).take("peek").hold(2)
    assert script.kinds() == ["trump"]


def _one_trick_played(seen) -> Script:
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    return script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1).take("a", "b").hold(2)


def test_a_doubtful_card_seen_arriving_once_is_not_played(seen):
    """A hand resting on a pile a moment can be taken for a card arriving there, read as a card
    already played: not seen since, it is no play."""
    script = _one_trick_played(seen)
    script.lying["hand"] = replace(seen(*SPOT[1], "1C", 0.9, ("4E", 0.05)), arrived=True)
    script.hold(0.1).take("hand").hold(2)
    assert script.kinds() == ["trump", "play", "play", "trick", "collected"]


def test_a_card_read_unsurely_as_cards_already_played_is_flagged_though_the_rules_leave_one(seen):
    """The identifier reads a card half seen on a pile as two cards already played, and a third,
    allowed, card as less likely still; a third of its belief goes to cards it does not list. The
    allowed card is played, flagged: vision hardly believes it."""
    script = _one_trick_played(seen)
    script.put("c", SPOT[0], "1C", 0.33, ("4E", 0.19), ("5C", 0.14)).hold(2)
    assert script.kinds()[-1] == "play" and script.events[-1].card == Card.parse("4E")
    assert "1C" in script.events[-1].doubt


def _tossed_onto_each_other(seen, together: bool) -> Script:
    """After the first trick (seat 0 leads), a 4B brought from seat 1's side is seen arriving (placed
    at once) over a 7B that shows in the same frame (``together``) or half a second later; the 7B
    counts as placed once it has lain still a while."""
    script = _one_trick_played(seen)
    script.reach(1, (322.0, 318.0)).hold(0.3)
    script.lying["top"] = replace(seen(322.0, 318.0, "4B"), arrived=True)
    if together:
        script.put("under", (318.0, 324.0), "7B")
    script.hold(0.1).put("top", (322.0, 318.0), "4B").hold(0.0 if together else 0.5)
    return script.put("under", (318.0, 324.0), "7B").hold(0.2).reach(None).hold(1.5)


def test_a_card_found_under_the_next_card_it_came_to_rest_with_was_played_before_it(seen):
    """The 4B, brought from the side of seat 1, is played first by seat 0 (flagged); the 7B that came
    to rest with it shows once settled: seat 0 played the 7B, seat 1 the 4B, and the log keeps both."""
    script = _tossed_onto_each_other(seen, together=True)
    assert script.kinds()[-4:] == ["play", "amend", "play", "trick"]
    assert script.state.tricks[1].plays == ((0, Card.parse("7B")), (1, Card.parse("4B")))
    assert script.session.view().flags == ()
    events = script.session.view().record.to_dict()["events"]
    assert [e["type"] for e in events[-3:]] == ["play", "amend", "play"]
    assert (events[-3]["card"], events[-2]["card"], events[-2]["source"]) == ("4B", "7B", "camera")


def test_two_cards_found_together_after_one_arm_reached_near_both_go_by_where_they_lie(seen):
    """Ana's seven of batons, laid while the stream stalled, shows under the hands still moving
    about; then Luis's arm brings the four beside it, and both are found as the table lies still,
    the four listed first. One arm brings one card: the seven lay there before it, and goes by
    where it lies. Ana played the seven, Luis the four, nothing flagged."""
    seven, four = {"seven": ((318.0, 345.0), "7B")}, {"four": ((335.0, 300.0), "4B")}
    script = _one_trick_played(seen)
    for shift in (0.0, 9.0, 0.0, 9.0):  # seen, never lying still
        script.put("seven", (318.0 + shift, 345.0 - shift), "7B").hold(0.1)
    script.reach(1, (325.0, 320.0))
    for shift in (0.0, 9.0):
        script.put("four", (335.0 + shift, 300.0 - shift), "4B").hold(0.1)
    for name, (at, card) in (*four.items(), *seven.items()):  # the four listed first
        script.lying[name] = replace(seen(*at, card), arrived=True)
    script.hold(0.1).put("four", *four["four"]).put("seven", *seven["seven"])
    script.hold(0.2).reach(None).hold(1.5)
    assert script.state.tricks[1].plays == ((0, Card.parse("7B")), (1, Card.parse("4B")))
    assert script.session.view().flags == ()


@pytest.mark.parametrize("under", [True, False])
def test_a_card_found_with_the_card_tossed_onto_it_and_read_unsure_was_played_before_it(seen, under):
    """The seven of batons, laid while the stream stalled, shows only with the four tossed onto it
    from Luis's side, read unsure from what shows of it: it was Ana's card all the same, played
    before the four (flagged for its reading alone). Read unsure 40 mm from the four, not under it,
    it may be a misreading of anything: it is played after the four, both flagged."""
    script = _one_trick_played(seen)
    script.reach(1, (322.0, 318.0)).hold(0.3)
    script.lying["top"] = replace(seen(322.0, 318.0, "4B"), arrived=True)
    script.put("under", (318.0, 324.0) if under else (300.0, 285.0), "7B", 0.62, ("7C", 0.38))
    script.hold(0.1).put("top", (322.0, 318.0), "4B").hold(0.2).reach(None).hold(1.5)
    plays = (
        ((0, Card.parse("7B")), (1, Card.parse("4B")))
        if under
        else ((0, Card.parse("4B")), (1, Card.parse("7B")))
    )
    assert script.state.tricks[1].plays == plays
    flags = script.session.view().flags
    assert len(flags) == (1 if under else 2) and "unsure" in flags[-1].reason


def test_a_card_that_came_to_rest_after_the_last_card_is_played_after_it(seen):
    script = _tossed_onto_each_other(seen, together=False)
    assert "amend" not in script.kinds() and script.kinds()[-1] == "trick"
    assert script.state.tricks[1].plays == ((0, Card.parse("4B")), (1, Card.parse("7B")))
    assert len(script.session.view().flags) == 1  # the 4B brought from the side of seat 1


def test_cards_found_at_one_moment_are_not_reordered_by_the_side_they_came_from(seen):
    """Two cards tossed before the pile lay still, both found in one frame and both near the arm from
    seat 1's side: played in the order the tracker lists them (from underneath), no amendment."""
    script = _one_trick_played(seen)
    script.reach(1, (322.0, 318.0)).hold(0.3)
    script.lying["under"] = replace(seen(318.0, 324.0, "7B"), arrived=True)
    script.lying["top"] = replace(seen(322.0, 318.0, "4B"), arrived=True)
    script.hold(0.1).put("under", (318.0, 324.0), "7B").put("top", (322.0, 318.0), "4B")
    script.hold(0.2).reach(None).hold(1.5)
    assert "amend" not in script.kinds() and script.kinds()[-1] == "trick"
    assert script.state.tricks[1].plays == ((0, Card.parse("7B")), (1, Card.parse("4B")))


def test_a_doubtful_card_hidden_a_moment_is_played_once_it_shows_again(seen):
    script = _one_trick_played(seen)
    script.put("c", SPOT[0], "1C", 0.9, ("4E", 0.05)).hold(0.5).hold(0.8, hidden=("c",))
    assert script.kinds()[-1] == "collected"
    script.hold(0.3)
    assert script.kinds()[-1] == "play" and script.events[-1].doubt is not None
    assert script.events[-1].card == Card.parse("4E")


@pytest.mark.parametrize(
    ("identity", "allowed", "card", "doubtful"),
    [
        ((("1C", 0.9), ("1E", 0.05)), {"1C", "1E"}, "1C", False),
        ((("1C", 0.6), ("1E", 0.35)), {"1E"}, "1E", False),
        ((("1C", 0.95), ("1E", 0.01)), {"1E"}, "1E", True),
        ((("6B", 0.5), ("6E", 0.45)), {"6B", "6E"}, "6B", True),
        ((("6B", 0.9),), {"6E"}, None, True),
    ],
)
def test_choose_keeps_to_the_cards_the_rules_allow(identity, allowed, card, doubtful):
    parsed = tuple((Card.parse(c), p) for c, p in identity)
    choice = choose(parsed, {Card.parse(c) for c in allowed}, RecogniseConfig())
    assert (None if choice.card is None else str(choice.card)) == card
    assert (choice.doubt is not None) == doubtful


def test_the_first_card_played_tells_who_leads(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[1], "1C").hold(1).put("b", SPOT[0], "5C").hold(1)
    assert script.kinds() == ["trump", "play", "play", "trick"]
    assert [e.seat for e in script.events[1:3]] == [1, 0] and script.events[1].doubt is None
    view = script.session.view()
    assert view.record.first == 1 and view.state.tricks[0].winner == 1
    assert view.record.events[0].card == Card.parse("3O")


def test_a_swap_before_the_first_card_is_the_leaders_once_the_first_card_shows_who_leads(seen):
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1)
    script.put("trump", TRUMP_AT, "7O").hold(1.5)  # taken, before any card, as seat 0's (to play)
    assert script.kinds() == ["trump", "swap"] and script.events[-1].seat == 0
    script.put("a", SPOT[1], "12O").hold(1)  # seat 1 leads, with the card it swapped for
    assert script.kinds() == ["trump", "swap", "play"] and script.events[-1].doubt is None
    record = script.session.view().record
    assert record.first == 1 and [(e.type, e.seat) for e in record.events[1:]] == [("swap", 1), ("play", 1)]


def test_cards_tossed_into_the_middle_are_played_by_the_side_their_arm_came_from(seen):
    """Cards that lie in the middle, nearer the other seat's side, are each taken as played by the
    player whose arm brought them: the first card tells who leads, and nothing is flagged."""
    middle = {0: (320.0, 300.0), 1: (325.0, 340.0)}  # each a little towards the other seat
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.reach(1).hold(0.3).put("a", middle[1], "1C").hold(0.2).reach(None).hold(1)
    script.reach(0).hold(0.3).put("b", middle[0], "5C").hold(0.2).reach(None).hold(1)
    assert script.kinds() == ["trump", "play", "play", "trick"]
    assert [e.seat for e in script.events[1:3]] == [1, 0]
    assert all(e.doubt is None for e in script.events)
    assert script.session.view().record.first == 1


def test_a_card_brought_from_the_side_of_a_player_not_to_play_is_flagged(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.reach(0).hold(0.3).put("a", (320.0, 320.0), "1C").hold(0.2).reach(None).hold(1)
    script.reach(0, (330.0, 300.0)).hold(0.3).put("b", (330.0, 300.0), "5C").hold(0.2).reach(None).hold(1)
    assert [e.seat for e in script.events[1:3]] == [0, 1]
    assert script.events[2].doubt == "seat 1 is to play but the card was brought from the side of seat 0"


def test_cards_that_come_to_rest_together_are_played_in_the_order_of_the_seats_they_came_from(seen):
    """Two cards found at one moment (the second tossed before the table lay still for the first):
    the one before the seat to play was played first, whichever the camera listed first."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1.3).put("b", SPOT[1], "5C").hold(1.3).take("a", "b").hold(4)
    assert script.state.to_play == 0  # the ace won the first trick
    script.put("c", SPOT[1], "7B").put("d", SPOT[0], "4B").hold(1.3)
    plays = [e for e in script.events if e.kind == "play"][2:]
    assert [(e.seat, str(e.card), e.doubt) for e in plays] == [(0, "4B", None), (1, "7B", None)]


def test_without_an_arm_seen_a_card_is_played_by_the_seat_it_lies_before(seen):
    middle = {0: (320.0, 300.0), 1: (325.0, 340.0)}
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", middle[1], "1C").hold(1.3).put("b", middle[0], "5C").hold(1.3)
    assert [e.seat for e in script.events[1:3]] == [0, 1]  # the same cards as above, no arm seen
    assert script.session.view().record.first == 0


def test_a_swap_hidden_by_a_hand_is_inferred_when_the_old_trump_card_is_played(seen):
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1).take("a", "b").hold(2)
    script.put("c", SPOT[0], "12O").hold(1.5)  # seat 0 leads with the card still shown under the stock
    assert script.kinds()[-2:] == ["swap", "play"]
    assert (script.events[-2].seat, str(script.events[-2].card)) == (0, "7O")
    assert script.events[-1].card == Card.parse("12O") and script.events[-1].doubt is None
    assert script.state.face_up == Card.parse("7O") and script.session.view().flags == ()


def _stock_played_out(seen) -> tuple[Script, Iterator[str]]:
    """A brisca-2 game under a face-up 12O played until the stock has run out (17 tricks, each seat
    playing where it sits), and the cards left for it; no 7O or 2O is played."""
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1)
    cards = iter(str(card) for card in deck(40) if str(card) not in {"12O", "7O", "2O"})
    while script.state.stock:
        leader = script.state.to_play
        for seat in (leader, 1 - leader):
            script.put(f"s{seat}", SPOT[seat], next(cards)).hold(1)
        script.take("s0", "s1").hold(2)
    return script.take("trump"), cards  # the last drawer takes the face-up card


def test_a_swap_in_the_last_drawing_turn_is_inferred_when_the_face_up_card_is_played(seen):
    """The stock runs out; the face-up 12O goes to the last drawer, unless the other seat swapped it
    for the 7O in that moment, which the camera missed: that seat playing the 12O shows it did."""
    script, _ = _stock_played_out(seen)
    last_drawer = 1 - script.state.to_play  # the last trick's loser draws the face-up card
    script.put("c", SPOT[script.state.to_play], "12O").hold(1.5)
    swap, play = script.events[-2:]
    assert (swap.kind, swap.seat, str(swap.card)) == ("swap", 1 - last_drawer, "7O")
    assert (play.kind, str(play.card), play.doubt) == ("play", "12O", None)
    assert script.session.view().flags == () and script.state.valid


def test_a_swap_in_the_last_drawing_turn_is_inferred_though_the_card_put_face_up_was_played(seen):
    """The last drawer took the 7O that the other seat had put face up in that moment and plays it
    a trick before the other seat plays the 12O."""
    script, cards = _stock_played_out(seen)
    swapper = script.state.to_play  # the last trick's winner; the loser drew the face-up card
    hands = {1 - swapper: iter(["7O", next(cards)]), swapper: iter([next(cards), "12O"])}
    for _ in range(2):
        leader = script.state.to_play
        for seat in (leader, 1 - leader):
            script.put(f"s{seat}", SPOT[seat], next(hands[seat])).hold(1.5)
        script.take("s0", "s1").hold(2)
    swaps = [event for event in script.events if event.kind == "swap"]
    assert [(e.seat, str(e.card)) for e in swaps] == [(swapper, "7O")]
    assert script.session.view().flags == () and script.state.valid


def test_the_last_drawer_playing_the_face_up_card_it_drew_is_no_swap(seen):
    script, cards = _stock_played_out(seen)
    leader = script.state.to_play
    script.put("a", SPOT[leader], next(cards)).hold(1).put("b", SPOT[1 - leader], "12O").hold(1.5)
    assert script.kinds()[-3:] == ["play", "play", "trick"] and "swap" not in script.kinds()
    assert script.session.view().flags == ()


def test_a_trump_card_replaced_under_a_hand_and_read_unsurely_is_still_a_swap(seen):
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(3)
    script.hold(0.8, hidden=("trump",)).put("trump", TRUMP_AT, "7O", 0.6, ("12O", 0.3)).hold(5)
    assert script.kinds() == ["trump", "swap"]
    assert (script.events[-1].seat, str(script.events[-1].card)) == (0, "7O")
    assert script.state.face_up == Card.parse("7O")


def test_a_card_at_the_trump_spot_misread_under_the_swapping_hand_is_the_swap_once_it_shows(seen):
    """The hand that swaps the face-up card lies on the new one as it comes to rest: read as some
    other card at first, it is watched, and is the swap once it reads as the seven."""
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(3).hold(5, hidden=("trump",))
    script.put("trump", TRUMP_AT, "4B", 0.5, ("2C", 0.3)).hold(1).put("trump", TRUMP_AT, "7O").hold(4)
    assert script.kinds() == ["trump", "swap"]
    assert (script.events[-1].seat, str(script.events[-1].card)) == (0, "7O")
    assert script.state.face_up == Card.parse("7O")


def test_a_swap_is_amended_when_another_seat_plays_the_card_it_took(seen):
    """Given to the seat to play (a guess), a swap seen at the trump spot was the other seat's: that
    seat plays the 12O, read surely; the swap is amended, the log keeps both, nothing is flagged."""
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1).take("a", "b").hold(2)
    script.put("trump", TRUMP_AT, "7O").hold(1.5)
    assert script.state.swaps[0].seat == 0
    script.put("c", SPOT[0], "4B").hold(1).put("d", SPOT[1], "12O").hold(1.5)
    assert script.kinds()[-3:] == ["amend", "play", "trick"]
    assert script.state.swaps[0].seat == 1
    assert script.state.tricks[1].plays == ((0, Card.parse("4B")), (1, Card.parse("12O")))
    assert script.session.view().flags == () and script.state.valid


def test_a_card_played_where_the_play_area_meets_the_trump_spot_is_a_play(seen):
    """The stock near the middle (many players): a card in the play area and in the trump spot's
    zone, away from the face-up trump card, was played."""
    between = (440.0, 330.0)
    assert at_trump_spot(TABLE, between, RecogniseConfig().trump_margin)
    assert in_play(TABLE, between, RecogniseConfig().play_margin)
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1).put("a", between, "1C").hold(1)
    assert script.kinds() == ["trump", "play"] and script.state.current == ((0, Card.parse("1C")),)


def test_a_card_the_engine_knows_in_another_hand_is_read_as_the_next_alternative_and_flagged(seen):
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1.5)
    script.put("trump", TRUMP_AT, "7O").hold(1.5)  # seat 0 swaps: the 12O is in its hand now
    script.put("a", SPOT[0], "1C").hold(1)
    script.put("b", SPOT[1], "12O", 0.55, ("12C", 0.4)).hold(2)  # unsure: no reason to amend the swap
    play = next(e for e in script.events if e.kind == "play" and e.seat == 1)
    assert play.card == Card.parse("12C") and "12O" in play.doubt
    assert len(script.session.view().flags) == 1 and script.kinds()[-1] == "trick"


def test_a_card_of_the_trick_seen_again_as_a_second_card_is_not_played_twice(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1).put("a", SPOT[0], "1C").hold(1)
    ghost = (SPOT[0][0] + 60.0, SPOT[0][1])  # the same card, proposed again beside itself
    script.put("ghost", ghost, "1C", 0.9).hold(1).take("ghost").hold(0.5)
    assert script.kinds() == ["trump", "play"]
    script.put("b", SPOT[1], "5C").hold(1)
    assert script.kinds() == ["trump", "play", "play", "trick"] and script.session.view().flags == ()


def test_something_at_the_trump_spot_that_is_no_card_there_is_ignored(seen):
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1.5).take("trump").hold(1.5)
    # the stock seen alone: its back read as a spread of unlikely cards, a little of it on the 7O
    script.put("stock", TRUMP_AT, "5C", 0.2, ("7O", 0.15), ("1B", 0.15), ("3E", 0.1)).hold(2)
    assert script.kinds() == ["trump"] and script.state.face_up == Card.parse("12O")


def test_a_card_beside_the_face_up_trump_card_is_no_swap_while_that_card_is_still_seen(seen):
    """Once the stock is drawn, the whole of the trump card shows beside the end seen so far, and
    may be misread as the 7; a swap takes the face-up card away: only then is the 7 there a swap."""
    script = Script(seen).put("trump", TRUMP_AT, "12O").hold(1)
    script.put("whole", (TRUMP_AT[0] - 50, TRUMP_AT[1]), "7O").hold(2)
    assert script.kinds() == ["trump"]
    script.take("trump").hold(1.5)
    assert script.kinds() == ["trump", "swap"] and script.state.face_up == Card.parse("7O")


def test_a_card_that_shows_while_the_last_trick_still_lies_there_is_not_a_lead(seen):
    """A trick is gathered before the next is led: a card that shows beside it (one of its cards
    nudged, seen anew as another card) is no play; once the trick is gathered, the lead is."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1)
    script.put("nudged", (SPOT[1][0] + 60, SPOT[1][1]), "10E").hold(2)
    assert script.kinds() == ["trump", "play", "play", "trick"]
    script.take("a", "b", "nudged").hold(2).put("c", SPOT[0], "2C").hold(1)
    assert script.kinds()[-2:] == ["collected", "play"] and script.events[-1].doubt is None


def test_a_lead_while_the_last_trick_lies_there_long_is_played_and_flagged(seen):
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "1C").hold(1).put("b", SPOT[1], "5C").hold(1)
    script.put("c", (SPOT[0][0] + 80, SPOT[0][1]), "2C").hold(RecogniseConfig().gather_wait_s + 1)
    assert script.kinds()[-1] == "play" and "still lay on the table" in script.events[-1].doubt


@pytest.mark.parametrize(("first", "amended"), [((0.5, 0.45), True), ((0.9, 0.08), False)])
def test_a_doubtful_play_is_amended_when_the_card_it_was_taken_for_is_played_surely_later(
    seen, first: tuple[float, float], amended: bool
):
    """A card read as the six of coins or, nearly as likely, the seven, is played as the six, flagged.
    Later the six is played, read surely: the first card was the seven. The play is amended, the log
    keeps both, and its flag is settled. A first card read surely is not amended: the later reading
    is the one in doubt."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "6O", first[0], ("7O", first[1])).hold(2).put("b", SPOT[1], "5C").hold(1)
    script.take("a", "b").hold(2).put("c", SPOT[0], "6O", 0.95, ("7O", 0.03)).hold(2)
    first_play, later = script.state.tricks[0].plays[0], script.state.current[0]
    if amended:
        assert script.kinds()[-2:] == ["amend", "play"]
        assert (first_play, later) == ((0, Card.parse("7O")), (0, Card.parse("6O")))
        assert script.session.view().flags == () and script.state.valid
        assert [e.type for e in script.session.view().record.events].count("amend") == 1
    else:
        assert "amend" not in script.kinds()
        assert (first_play, later) == ((0, Card.parse("6O")), (0, Card.parse("7O")))
        assert "6O" in script.events[-1].doubt


def test_a_doubtful_play_amended_to_its_other_reading_is_a_guess_once_that_card_is_played_too(seen):
    """The first card, read as the six of coins or the seven, became the seven when the six was
    played later, surely read. Then the seven is played too, surely read: the first card was
    neither, and becomes a flagged guess that still wins its trick; the seven is played."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "6O", 0.5, ("7O", 0.45)).hold(2).put("b", SPOT[1], "5C").hold(1)
    script.take("a", "b").hold(2).put("c", SPOT[0], "6O", 0.95, ("7O", 0.03)).hold(2)
    script.put("d", SPOT[1], "4B").hold(1).take("c", "d").hold(2)
    assert script.state.tricks[0].plays[0] == (0, Card.parse("7O"))
    script.put("e", SPOT[0], "7O").hold(2)
    state = script.state
    (seat, card), _ = state.tricks[0].plays
    assert seat == 0 and card not in {Card.parse("6O"), Card.parse("7O")} and state.tricks[0].winner == 0
    assert state.current == ((0, Card.parse("7O")),) and state.valid
    (flag,) = script.session.view().flags
    assert "not the 7O" in flag.reason


@pytest.mark.parametrize(
    "read_now, hidden, gap, misread",
    [
        (0.5, False, 150.0, True),
        (0.65, False, 150.0, False),
        (0.5, True, 150.0, True),
        (0.5, False, 55.0, True),
        (0.5, True, 55.0, False),
    ],
    ids=["unsure-now", "sure-still", "under-an-arm-far", "seen-near", "under-an-arm-near"],
)
def test_a_card_read_surely_as_a_card_lying_apart_read_unsure_as_it_shows_that_card_was_misread(
    seen, read_now, hidden, gap, misread
):
    """Ana's card, read as the six of coins (0.65) or the seven, was played as the six; later it
    reads ``read_now`` as the six. Luis's card lands ``gap`` mm from it, surely the six, while
    Ana's is seen or ``hidden`` under an arm. Two cards lying at once cannot both be the six: where
    Ana's reads unsure now, it was the seven (a flagged guess: it was read surely once), and Luis
    played the six. Where it still reads
    surely, or lies unseen within a card's short side (a card nudged may be found anew there),
    Luis's card is taken for that card seen anew."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    script.put("a", SPOT[0], "6O", 0.65, ("7O", 0.33)).hold(1.5)
    script.put("a", SPOT[0], "6O", read_now, ("7O", 0.95 - read_now)).hold(1.5)
    at = (SPOT[0][0], SPOT[0][1] - gap)
    script.put("b", at, "6O", 0.97, ("7O", 0.02)).hold(1, hidden=("a",) if hidden else ()).hold(1)
    state = script.state
    if misread:
        assert state.tricks[0].plays == ((0, Card.parse("7O")), (1, Card.parse("6O")))
        assert state.tricks[0].winner == 0 and state.valid
        flags = script.session.view().flags  # read surely at first: the seven is a guess
        assert any(flag.seq == 1 and "a guess" in flag.reason for flag in flags)
    else:
        assert not state.tricks and state.current == ((0, Card.parse("6O")),)


def _tricks_played(state) -> list[tuple[int, str]]:
    """Who played which card in the tricks done, in order."""
    return [(seat, str(card)) for trick in state.tricks for seat, card in trick.plays]


def _tossed(script: Script, seat: int, name: str, card: str, at: tuple[float, float], *reading) -> Script:
    """``seat``'s arm brings ``card`` to ``at`` (read with the probability and alternatives of
    ``reading``, when given) and leaves."""
    return script.reach(seat, at).hold(0.3).put(name, at, card, *reading).hold(0.2).reach(None).hold(1.5)


def _lead_unseen(seen, evidence_dir: Path | None = None) -> Script:
    """Ana leads the ace of cups; Luis's card lands unseen; Ana, who won, leads the five of batons
    and Luis answers with the seven: the cards come from the sides of the seats that played them.
    The ace still lies there (a trick taken away a card short tells of the missed card at once)."""
    script = Script(seen, evidence_dir=evidence_dir).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0)).hold(2)
    _tossed(script, 0, "b", "5B", (320.0, 340.0))
    return _tossed(script, 1, "c", "7B", (320.0, 300.0))


def test_a_card_the_camera_missed_is_guessed_once_two_cards_came_from_the_seats_after_it(seen):
    """The five came from Ana's side while Luis was to play: flagged, it went to Luis. The seven
    from Luis's side tells that Luis's card was missed: the five is Ana's lead, Luis's missed
    card a guess of no points that leaves the trick to Ana, flagged; the log keeps what was told."""
    script = _lead_unseen(seen)
    state = script.state
    assert _tricks_played(state) == [(0, "1C"), (1, "2B"), (0, "5B"), (1, "7B")]
    (flag,) = script.session.view().flags
    assert flag.seq == 2 and "Luis's card was not seen" in flag.reason  # on the play it amends
    record = script.session.view().record
    assert [(e.type, e.seat, str(e.card)) for e in record.events[2:4]] == [
        ("play", 1, "5B"),
        ("amend", None, "2B"),
    ]
    told = [(e.kind, e.seat, e.card and str(e.card)) for e in script.events[4:]]
    assert told == [
        ("play", 1, "2B"),  # the missed card guessed
        ("trick", 0, None),  # the first trick told again, with it
        ("play", 0, "5B"),
        ("play", 1, "7B"),
        ("trick", 1, None),
    ]


def test_a_trick_told_again_with_its_missed_card_keeps_the_snapshot_of_when_it_was_done(seen, tmp_path):
    script = _lead_unseen(seen, tmp_path)
    assert [e.trick for e in script.events if e.kind == "trick"] == [1, 1, 2]
    snapshot = json.loads((tmp_path / "game-1" / "trick-01.json").read_text())
    assert sorted(r["card"] for r in snapshot["readings"]) == ["1C", "3O", "5B"]  # not the seven, come since


def test_a_card_read_unsure_that_lost_its_trick_is_the_other_card_it_was_read_as_once_the_next_cards_tell(
    seen,
):
    """Luis's answer to Ana's ace of cups is read unsure, the four of cups (0.49) or the two of
    coins, a trump (0.47): taken for the four, it left the trick to Ana. Then the lead comes from
    Luis's side and the card after it from Ana's: Luis won that trick. His card becomes the two,
    flagged, and the lead his."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "4C", (320.0, 300.0), 0.49, ("2O", 0.47)).take("a", "b").hold(2)
    assert script.state.tricks[0].winner == 0
    _tossed(script, 1, "c", "5B", (320.0, 300.0))
    _tossed(script, 0, "d", "7B", (320.0, 340.0))
    state = script.state
    assert _tricks_played(state) == [(0, "1C"), (1, "2O"), (1, "5B"), (0, "7B")]
    assert state.valid and state.tricks[0].winner == 1
    (flag,) = script.session.view().flags
    assert "read as 4C or 2O" in flag.reason
    assert "missed" not in " ".join(e.text for e in script.events)


def test_a_card_flagged_for_the_side_it_came_from_that_lost_its_trick_is_another_card_it_was_read_as(seen):
    """Ana's second lead is read surely as the four of batons (0.90; the ace of batons 0.05), but
    brought from Luis's side: flagged, it lost the trick to Luis's five of batons. Then the lead
    comes from Ana's side and the card after it from Luis's: Ana won, and her card, whose arrival
    was not as told, was misread. It becomes the ace, flagged, and the lead hers; no card was
    missed."""
    script = _one_trick_played(seen)
    _tossed(script, 1, "c", "4B", (320.0, 330.0), 0.90, ("1B", 0.05))
    _tossed(script, 1, "d", "5B", (320.0, 300.0)).take("c", "d").hold(2)
    assert script.state.tricks[1].winner == 1
    _tossed(script, 0, "e", "2E", (320.0, 340.0))
    _tossed(script, 1, "f", "7E", (320.0, 300.0))
    state = script.state
    assert _tricks_played(state)[2:] == [(0, "1B"), (1, "5B"), (0, "2E"), (1, "7E")]
    assert state.valid and state.tricks[1].winner == 0
    (flag,) = script.session.view().flags
    assert "read as 4B or 1B" in flag.reason
    assert "missed" not in " ".join(e.text for e in script.events)


def test_one_card_from_the_side_of_a_seat_not_to_play_is_no_missed_card(seen):
    """The five came from Ana's side while Luis was to play, but the next card came from the side
    of the seat to play as told: nothing was missed, the five stays Luis's, flagged."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 0, "b", "5C", (330.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 0, "c", "4B", (320.0, 340.0))
    plays = [(s, str(c)) for t in script.state.tricks for s, c in t.plays] + [
        (s, str(c)) for s, c in script.state.current
    ]
    assert plays == [(0, "1C"), (1, "5C"), (0, "4B")]
    assert "amend" not in [e.type for e in script.session.view().record.events]
    (flag,) = script.session.view().flags
    assert "brought from the side of seat 0" in flag.reason


def test_a_guessed_card_played_later_surely_read_changes_the_guess(seen):
    """Luis leads the two of batons, the card guessed for his missed one: the guess becomes the
    next likeliest card that leaves the first trick to Ana, flagged again; the two is played."""
    script = _lead_unseen(seen).take("a", "b", "c").hold(2)
    _tossed(script, 1, "d", "2B", (320.0, 300.0))
    state = script.state
    assert state.tricks[0].plays == ((0, Card.parse("1C")), (1, Card.parse("2C")))
    assert state.current == ((1, Card.parse("2B")),) and state.valid
    (flag,) = script.session.view().flags
    assert "not the 2B" in flag.reason
    assert script.kinds()[-2:] == ["amend", "play"]


#: Four players' places near the middle of TABLE4.
NEAR = {0: (320.0, 380.0), 1: (380.0, 320.0), 2: (320.0, 260.0), 3: (260.0, 320.0)}


def _in_order(*cards: str) -> tuple[tuple[int, Card], ...]:
    """A trick's plays, seat 0 first."""
    return tuple((seat, Card.parse(card)) for seat, card in enumerate(cards))


def _four(seen) -> Script:
    """Ana, Luis, Eva and Pau at brisca-4, the three of coins turned up."""
    return Script(seen, "brisca-4", ("Ana", "Luis", "Eva", "Pau")).put("trump", (455.0, 455.0), "3O").hold(1)


def test_a_guess_that_left_a_trick_to_the_wrong_seat_changes_when_the_next_lead_comes_from_its_winner(seen):
    """Four players. Luis's card (a trump) was missed as Eva's came from her side: guessed, of no
    points, it left the first trick to Ana. Then the lead came from Luis's side and the card after
    it from Eva's: Luis won that trick. The guess becomes the lowest trump, the lead Luis's."""
    script = _four(seen)
    _tossed(script, 0, "a", "1C", NEAR[0])
    _tossed(script, 2, "b", "5C", NEAR[2])  # Luis's card before it went unseen
    _tossed(script, 3, "c", "6C", NEAR[3]).take("a", "b", "c").hold(2)
    assert script.state.tricks[0].winner == 0  # the guess left the trick to Ana
    _tossed(script, 1, "d", "7B", NEAR[1])
    _tossed(script, 2, "e", "10B", NEAR[2])
    state = script.state
    assert state.tricks[0].plays == _in_order("1C", "2O", "5C", "6C")
    assert state.tricks[0].winner == 1 and state.valid
    assert state.current == ((1, Card.parse("7B")), (2, Card.parse("10B")))
    (flag,) = script.session.view().flags
    assert "leaves the trick to the seat that led next" in flag.reason


def test_a_missed_last_card_that_won_its_trick_is_guessed_when_the_card_after_the_next_lead_comes(seen):
    """Four players. Pau's card, the trick's last (a trump), went unseen, and Pau led the seven of
    batons: taken for Pau's card in the first trick, it left that trick to Luis. Then Ana's card came
    from her side, the seat after Pau's: Pau's trick card is a guess that wins the trick, flagged,
    and the seven his lead."""
    script = _four(seen)
    _tossed(script, 0, "a", "4C", NEAR[0])
    _tossed(script, 1, "b", "1C", NEAR[1])
    _tossed(script, 2, "c", "6C", NEAR[2]).take("a", "b", "c").hold(2)  # Pau's trump, unseen, took it
    _tossed(script, 3, "d", "7B", NEAR[3])
    assert script.state.tricks[0].winner == 1  # the seven taken for Pau's card: Luis's ace won
    _tossed(script, 0, "e", "10B", NEAR[0])
    state = script.state
    assert state.tricks[0].plays == _in_order("4C", "1C", "6C", "2O")
    assert state.tricks[0].winner == 3 and state.valid
    assert state.current == ((3, Card.parse("7B")), (0, Card.parse("10B")))
    (flag,) = script.session.view().flags
    assert flag.seq == 4 and "Pau's card was not seen (it won the trick" in flag.reason


@pytest.mark.parametrize("at, hidden_next", [(NEAR[2], False), ((360.0, 285.0), True)], ids=["apart", "near"])
def test_a_card_read_as_the_seven_only_as_the_rules_left_it_is_a_guess_once_the_seven_lands(
    seen, at, hidden_next
):
    """Four players. Luis's card read as the four of cups (0.59, Ana's card) or the seven (0.38)
    was played as the seven: the rules left it no other card. Eva's card lands, surely the seven,
    while Luis's lies apart: Luis's was misread, and becomes a flagged guess of cups; Eva played
    the seven. Decided at once: landed 40 mm from Luis's, hidden a moment later, it would pass for
    Luis's card seen anew."""
    script = _four(seen)
    _tossed(script, 0, "a", "4C", NEAR[0])
    _tossed(script, 1, "b", "4C", NEAR[1], 0.59, ("7C", 0.38))
    assert script.state.current[1] == (1, Card.parse("7C")) and not script.session.view().flags
    script.reach(2, at).hold(0.3).put("c", at, "7C", 0.97, ("6C", 0.02)).hold(0.2).reach(None).hold(0.3)
    script.hold(1.5, hidden=("b",) if hidden_next else ())
    state = script.state
    assert state.current == _in_order("4C", "2C", "7C") and state.valid
    (flag,) = script.session.view().flags
    assert flag.seq == 2 and "a guess" in flag.reason


def test_a_trick_taken_away_a_card_short_after_a_card_from_another_side_missed_the_card_before_it(seen):
    """Four players. Eva's card went unseen and Pau's five, from his side, was given to her; the
    trick, one card short, was taken away, and Luis led from his side. The two cards out of turn
    tell more than the trick taken short: Eva's card is the guess, Pau's five closed the trick."""
    script = _four(seen)
    _tossed(script, 0, "a", "4C", NEAR[0])
    _tossed(script, 1, "b", "6C", NEAR[1])
    _tossed(script, 3, "d", "5C", NEAR[3]).take("a", "b", "d").hold(2)  # Eva's card, before it, unseen
    _tossed(script, 1, "e", "7B", NEAR[1])
    state = script.state
    assert state.tricks[0].plays == _in_order("4C", "6C", "2B", "5C")
    assert state.tricks[0].winner == 1 and state.current == ((1, Card.parse("7B")),) and state.valid
    (flag,) = script.session.view().flags
    assert "Eva's card was not seen (the next cards came from the seats after it)" in flag.reason


def test_a_lone_guess_is_the_card_nobody_else_played_once_the_game_is_over(seen):
    """In the last trick but one, the second card is missed; the leader, who won, leads the last
    trick, and the other answers. The guess ends as the one card left, and its flag is settled."""
    game = next(g for g in (random_game("brisca-2", seed) for seed in range(50)) if _leader_won(g, 18))
    first = [i for i, e in enumerate(game.events) if e.type == "play"][36]  # trick 19's lead
    (lead, missed), (again, answer) = (replay(game).tricks[n].plays for n in (18, 19))
    script = Script(seen)
    script.session.load(replace(game, events=game.events[:first]))
    _tossed(script, lead[0], "a", str(lead[1]), SPOT[lead[0]]).take("a").hold(2)
    _tossed(script, again[0], "b", str(again[1]), SPOT[again[0]])
    _tossed(script, answer[0], "c", str(answer[1]), SPOT[answer[0]])
    state = script.state
    assert state.complete and state.valid and state.tricks[18].plays == (lead, missed)
    assert script.session.view().flags == ()


@pytest.mark.parametrize("from_holder", [True, False], ids=["from-its-side", "from-the-seat-to-play"])
def test_a_card_known_in_a_hand_from_that_side_is_that_seats_play_and_the_seat_before_it_played_unseen(
    seen, from_holder
):
    """Four players, the stock played out: the last drawer holds the card that lay face up (or a
    seat the card it took in a swap), as everyone saw. The trick is led; the next seat's card goes
    unseen, and that known card comes from its holder's side, surely read: it is the holder's
    card, and the card before it a guess, flagged. From the side of the seat to play, it is that
    seat's card (a swap the camera missed), flagged."""
    found = (_known_card_third(random_game("brisca-4", seed)) for seed in range(200))
    game, first, plays = next(case for case in found if case is not None)
    (lead, missed, known) = plays[:3]
    script = Script(seen, "brisca-4", ("Ana", "Luis", "Eva", "Pau"))
    script.session.load(replace(game, events=game.events[: first + 1]))
    assert script.state.current == (lead,) and script.state.holder(known[1]) == known[0]
    side = known[0] if from_holder else missed[0]
    _tossed(script, side, "c", str(known[1]), NEAR[side])
    state = script.state
    (flag,) = script.session.view().flags
    if from_holder:
        assert state.current[::2] == (lead, known) and state.current[1][0] == missed[0] and state.valid
        assert "card was not seen (the" in flag.reason and "known to be" in flag.reason
        assert [e.kind for e in script.events] == ["play", "play"]
    else:
        assert state.current == (lead, (missed[0], known[1]))
        assert "known to be in the hand" in flag.reason


def _known_card_third(game):
    """The first trick whose third card the seat that played it was known to hold when the trick
    was led, with the log index of its lead and its plays; None when no trick has one."""
    indices = [i for i, e in enumerate(game.events) if e.type == "play"]
    for trick in replay(game).tricks:
        first = indices[4 * trick.n - 4]
        seat, card = trick.plays[2]
        if replay(replace(game, events=game.events[: first + 1])).holder(card) == seat:
            return game, first, trick.plays
    return None


def _leader_won(game, n: int) -> bool:
    trick = replay(game).tricks[n]
    return trick.winner == trick.leader


def test_the_last_trick_taken_away_a_card_short_had_the_one_card_left_played_unseen(seen):
    """The last card of the game went unseen: once the last trick is taken away, the one card
    left is played by the seat to play; while the trick lies there, nothing is."""
    game = random_game("brisca-2", 3)
    first = [i for i, e in enumerate(game.events) if e.type == "play"][38]  # the last trick's lead
    (lead, last) = replay(game).tricks[19].plays
    script = Script(seen)
    script.session.load(replace(game, events=game.events[:first]))
    _tossed(script, lead[0], "a", str(lead[1]), SPOT[lead[0]]).hold(2)
    assert not script.state.complete
    script.take("a").hold(2)
    state = script.state
    assert state.complete and state.valid and state.tricks[19].plays == (lead, last)
    assert script.kinds()[-4:] == ["play", "trick", "game-over", "collected"]
    assert "the one card left" in script.events[-4].text and script.events[-4].doubt is None


@pytest.mark.parametrize("seed, flagged", [(1, 2), (5, 0)], ids=["either-way", "one-known"])
def test_the_last_trick_taken_away_two_cards_short_had_the_cards_left_played_unseen_as_guesses(
    seen, seed, flagged
):
    """Four players: the last trick's first two cards are seen, the other two go unseen (a stream
    that stalled). Once the trick is seen taken away (gone, they may lie under an arm), the two
    cards left are played by the seats to play, guesses; the game ends. Both stay flagged where
    either seat may hold either card; where one of them is known in its seat's hand (the last
    drawer took the face-up card), they fit in one way only, and their flags are settled. The
    game-over tells the true result, and also the other where either order stays open."""
    game = random_game("brisca-4", seed)
    first = [i for i, e in enumerate(game.events) if e.type == "play"][36]  # the last trick's lead
    plays = replay(game).tricks[9].plays
    script = Script(seen, "brisca-4", ("Ana", "Luis", "Eva", "Pau"))
    script.session.load(replace(game, events=game.events[:first]))
    for name, (seat, card) in zip("ab", plays[:2], strict=True):
        _tossed(script, seat, name, str(card), NEAR[seat])
    assert not script.state.complete
    script.take("a", "b").hold(2)
    assert not script.state.complete  # gone, but maybe only under an arm
    script.bare(NEAR[plays[0][0]]).hold(1)
    state = script.state
    assert state.complete and state.valid and state.tricks[9].plays[:2] == plays[:2]
    assert [seat for seat, _ in state.tricks[9].plays[2:]] == [seat for seat, _ in plays[2:]]
    assert {card for _, card in state.tricks[9].plays[2:]} == {card for _, card in plays[2:]}
    if not flagged:
        assert state.tricks[9].plays == plays
    guessed = [event for event in script.events if event.doubt and "one of the cards left" in event.doubt]
    assert len(guessed) == 2 and len(script.session.view().flags) == flagged
    assert script.kinds()[-5:] == ["play", "play", "trick", "game-over", "collected"]
    over = script.events[-2].text  # either way, the two orders give the game to either team
    assert "-".join(map(str, replay(game).team_points)) in over
    assert ("the plays to confirm may also give" in over) == bool(flagged)


def _guessed_as_the_last_answer(game) -> bool:
    """Whether the guess for the missed answer of the last trick but one, taken away a card short,
    is the card that answers the last trick."""
    first = [i for i, e in enumerate(game.events) if e.type == "play"][36]
    (again, answer) = replay(game).tricks[19].plays
    guess = taken_short(replace(game, events=game.events[: first + 1]), again[0])
    return guess is not None and guess.card == answer[1]


def _answer_missed_before_the_last_trick(seen):
    """A two-player game up to its last trick but one, whose answer goes unseen and is guessed as
    the card that answers the last trick: the script, and the plays of those two tricks."""
    game = next(
        g for g in (random_game("brisca-2", seed) for seed in range(200)) if _guessed_as_the_last_answer(g)
    )
    first = [i for i, e in enumerate(game.events) if e.type == "play"][36]
    (lead, missed), (again, answer) = (replay(game).tricks[n].plays for n in (18, 19))
    script = Script(seen)
    script.session.load(replace(game, events=game.events[:first]))
    _tossed(script, lead[0], "a", str(lead[1]), SPOT[lead[0]]).take("a").hold(2)
    return script, (lead, missed), (again, answer)


def test_the_last_card_lying_in_play_while_the_lead_is_hidden_is_read_not_taken_as_the_card_left(seen):
    """The answer of the last trick but one was missed, guessed as the card that answers the last
    trick. The last lead is hidden by the arm that brings that card a little over it, and stays unseen:
    the card lying there is read and played (the guess becomes the one card left), not taken for a trick
    taken away short."""
    script, (lead, missed), (again, answer) = _answer_missed_before_the_last_trick(seen)
    _tossed(script, again[0], "b", str(again[1]), SPOT[again[0]])
    assert script.state.tricks[18].plays == (lead, (missed[0], answer[1]))  # the guess
    beside = (320.0, (SPOT[again[0]][1] + SPOT[answer[0]][1]) / 2)  # a little over the lead
    script.reach(answer[0], SPOT[again[0]]).hold(0.3, hidden=("b",))
    script.put("c", beside, str(answer[1])).hold(0.2, hidden=("b",)).reach(None)
    script.hold(2, hidden=("b",))
    state = script.state
    assert state.complete and state.valid
    assert state.tricks[18].plays == (lead, missed) and state.tricks[19].plays == (again, answer)
    assert "the one card left" not in " ".join(event.text for event in script.events)


def test_the_one_card_left_after_a_guess_is_a_guess_too(seen):
    """The answer of the last trick but one was missed, guessed as the card that answers the last
    trick; the last answer goes unseen too, and the last trick is taken away. The one card left is
    played, but it is only what the wrong guess left: it stays flagged, and so does the guess (the
    cards fit either way)."""
    script, (_, missed), (again, answer) = _answer_missed_before_the_last_trick(seen)
    _tossed(script, again[0], "b", str(again[1]), SPOT[again[0]]).take("b").hold(2)
    state = script.state
    assert state.complete and state.valid
    assert state.tricks[19].plays == (again, (answer[0], missed[1]))  # what the guess left
    (last,) = [event for event in script.events if event.kind == "play" and event.card == missed[1]]
    assert last.doubt is not None and "the guesses before leave" in last.doubt
    assert len(script.session.view().flags) == 2


def _unread_answer(seen) -> Script:
    """Ana won the first trick and leads the four of swords; Luis's answer, brought from his side,
    is read as the ace and the five of cups, both played in the first trick."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 0, "c", "4E", (320.0, 340.0))
    return _tossed(script, 1, "d", "1C", (320.0, 300.0), 0.9, ("5C", 0.05))


def test_a_card_brought_in_turn_but_read_as_no_card_allowed_is_played_as_a_guess(seen):
    """Luis played a card: the guess is the cup (the suit read) of the fewest points, flagged, and
    the trick it closes is told."""
    script = _unread_answer(seen)
    assert script.state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("2C")))
    assert script.kinds()[-2:] == ["play", "trick"] and script.state.to_play == 0
    (flag,) = script.session.view().flags
    assert "read as 1C" in flag.reason and "a guess" in flag.reason
    assert flag.alternatives == ()  # no card to pick that the rules refuse


def test_an_unread_guess_that_lost_its_trick_changes_when_the_next_lead_comes_from_its_winner(seen):
    """Luis's unread card won the trick: he leads the seven of batons from his side (given to Ana,
    flagged) and Ana answers from hers. The guess becomes a card that wins the trick for Luis, and
    the lead his."""
    script = _unread_answer(seen).take("c", "d").hold(2)
    _tossed(script, 1, "e", "7B", (320.0, 300.0))
    _tossed(script, 0, "f", "6B", (320.0, 340.0))
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("5E"))) and state.valid
    assert state.tricks[2].plays == ((1, Card.parse("7B")), (0, Card.parse("6B")))
    (flag,) = script.session.view().flags
    assert "leaves the trick to the seat that led next" in flag.reason


def test_a_card_no_arm_brought_read_as_no_card_allowed_is_no_play(seen):
    """A card of the first trick, nudged and seen anew where no arm reached, reads as a card
    already played: told as unreadable, it plays nothing."""
    script = _one_trick_played(seen)
    script.put("c", SPOT[0], "1C", 0.9, ("5C", 0.05)).hold(2)
    assert script.kinds()[-1] == "play" and script.events[-1].card is None
    assert script.state.current == () and script.session.view().flags == ()


def _lead_then_taken_away(seen, at: tuple[float, float], then: float = 2.0) -> Script:
    """Ana won the first trick and leads the four of swords at ``at``; Luis's answer never shows,
    and the four is taken away (``then`` seconds pass)."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    return _tossed(script, 0, "c", "4E", at).take("c").hold(then)


def test_a_trick_taken_away_a_card_short_and_led_from_the_side_not_to_play_had_its_last_card_unseen(seen):
    """Ana leads the seven of batons from her side, onto where the four lay, while Luis is to play:
    Luis's card went unseen and Ana won the trick; his card is guessed (flagged) as the likeliest
    that loses to the four."""
    script = _lead_then_taken_away(seen, (320.0, 340.0))
    _tossed(script, 0, "d", "7B", (320.0, 345.0))
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("2B"))) and state.valid
    assert state.current == ((0, Card.parse("7B")),)
    (flag,) = script.session.view().flags
    assert "taken away without it" in flag.reason
    assert script.kinds()[-4:] == ["play", "trick", "collected", "play"]


def _taken_by(script: Script, seat: int, *names: str, at: tuple[float, float] = (320.0, 320.0)) -> Script:
    """``seat``'s arm reaches to ``at`` and takes the cards ``names`` away with it: the table
    shows bare there."""
    return script.reach(seat, at).hold(0.3).take(*names).hold(0.5).reach(None).bare(at).hold(2)


@pytest.mark.parametrize("taker", [0, 1])
def test_a_trick_taken_away_a_card_short_by_a_players_hand_was_won_by_that_player(seen, taker):
    """Ana leads the four of swords, Luis's answer never shows, and a hand takes the trick away:
    the trick is told at once, Luis's card a flagged guess that leaves the trick to the player
    whose side the hand came from."""
    script = _lead_then_taken_away(seen, (320.0, 340.0), then=0)
    script.put("c", (320.0, 340.0), "4E").hold(1)
    _taken_by(script, taker, "c", at=(320.0, 340.0))
    (trick,) = script.state.tricks[1:]
    assert trick.plays[0] == (0, Card.parse("4E")) and trick.plays[1][0] == 1
    assert trick.winner == taker and script.state.valid
    assert script.kinds()[-3:] == ["play", "trick", "collected"]
    (flag,) = script.session.view().flags
    assert f"by the hand of {('Ana', 'Luis')[taker]}" in flag.reason


def test_a_card_read_unsure_keeps_its_flag_when_a_hand_taking_the_trick_shows_whose_it_was(seen):
    """Ana won the first trick; her lead never shows, and Luis's card, brought from his side and
    read as the five of batons (0.5) or the six, is given to Ana, flagged. Ana's hand takes the
    trick away: her lead was missed (a flagged guess that wins the trick), and the card is Luis's,
    its reading still flagged."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 1, "c", "5B", (320.0, 300.0), 0.5, ("6B", 0.45))
    _taken_by(script, 0, "c", at=(320.0, 300.0))
    state = script.state
    (trick,) = state.tricks[1:]
    assert trick.plays[0][0] == 0 and trick.plays[1] == (1, Card.parse("5B"))
    assert trick.winner == 0 and state.valid
    reasons = sorted(flag.reason for flag in script.session.view().flags)
    assert len(reasons) == 2 and "Ana's card was not seen" in reasons[0] and "unsure between 5B" in reasons[1]


@pytest.mark.parametrize("taker", [0, 3])
def test_a_trick_taken_away_two_cards_short_by_a_players_hand_was_won_by_that_player(seen, taker):
    """Four players: Ana leads the ace of swords and Luis answers; Eva's and Pau's cards never show
    (a stream that stalled), and a hand takes the trick away: the trick is told at once, their
    cards flagged guesses that leave it to the player whose side the hand came from."""
    script = _four(seen)
    _tossed(script, 0, "a", "1E", NEAR[0])
    _tossed(script, 1, "b", "5E", NEAR[1])
    _taken_by(script, taker, "a", "b", at=NEAR[0])
    (trick,) = script.state.tricks
    assert trick.plays[:2] == _in_order("1E", "5E") and [seat for seat, _ in trick.plays[2:]] == [2, 3]
    assert trick.winner == taker and script.state.valid
    assert script.kinds()[-4:] == ["play", "play", "trick", "collected"]
    flags = script.session.view().flags
    assert len(flags) == 2 and all(f"by the hand of {('Ana', 'Pau')[taker > 0]}" in f.reason for f in flags)


def test_a_hand_that_reaches_where_the_trick_lay_after_its_place_showed_bare_did_not_take_it(seen):
    """The trick goes while the stream stalls (no arm seen), its place shows bare, and then Luis's
    arm reaches there: it came too late to have taken the trick, which waits for the next card."""
    script = _lead_then_taken_away(seen, (320.0, 340.0), then=0)
    script.put("c", (320.0, 340.0), "4E").hold(1).take("c").bare((320.0, 340.0)).hold(0.2)
    script.reach(1, (320.0, 340.0)).hold(0.5).reach(None).hold(2)
    assert script.kinds()[-1] == "play" and script.state.current == ((0, Card.parse("4E")),)
    assert script.session.view().flags == ()


def test_a_card_given_to_the_leader_from_the_other_side_and_taken_away_by_that_side_followed_a_missed_lead(
    seen,
):
    """Ana is to lead; the first card seen comes from Luis's side (given to Ana, flagged), and a
    hand from Luis's side takes it away: Ana's lead went unseen (a flagged guess that loses to it),
    the card was Luis's, and he won."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 1, "c", "4E", (320.0, 300.0))
    _taken_by(script, 1, "c", at=(320.0, 300.0))
    (trick,) = script.state.tricks[1:]
    assert trick.plays[0][0] == 0 and trick.plays[1] == (1, Card.parse("4E"))
    assert trick.winner == 1 and script.state.valid and script.state.to_play == 1
    (flag,) = script.session.view().flags
    assert "Ana's card was not seen" in flag.reason


def test_a_card_hidden_by_the_hand_that_put_the_next_card_beside_it_is_no_trick_taken_away(seen):
    """Luis's hand reaches over Ana's lead, which stays hidden (its place never seen bare), and
    leaves his card beside it: his card answers the lead once the lead is gone from view; the hand
    took nothing."""
    script = _lead_then_taken_away(seen, (320.0, 320.0), then=0)
    script.put("c", (320.0, 320.0), "4E").hold(1).reach(1, (320.0, 320.0)).hold(0.3).take("c")
    script.put("d", (320.0, 255.0), "6E").hold(0.5).reach(None).hold(3)
    assert script.state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("6E")))
    assert script.session.view().flags == () and script.state.to_play == 1


def test_a_trick_taken_away_a_card_short_is_told_while_the_trump_spot_shows_a_card_read_otherwise(seen):
    """The same, but the card at the trump spot, seen anew after a hand lay over it a while, reads
    as a card the rules do not expect there: a card lies under the stock still, so the cards of the
    trick went with a hand, not with the light."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    script.take("trump").hold(6).put("trump", TRUMP_AT, "12E").hold(1)
    _tossed(script, 0, "c", "4E", (320.0, 340.0)).take("c").hold(2)
    _tossed(script, 0, "d", "7B", (320.0, 345.0))
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("2B"))) and state.valid
    assert state.current == ((0, Card.parse("7B")),)


def test_a_swap_after_a_trick_taken_away_a_card_short_closes_that_trick_first(seen):
    """The four is taken away with Luis's answer unseen, and the trump card is swapped next: no seat
    may swap while that trick lacks a card, so it was taken away short (Luis's card a flagged guess,
    the likeliest after which a seat may swap), and the swap is the move of the player who took it."""
    script = _lead_then_taken_away(seen, (320.0, 340.0))
    script.put("trump", TRUMP_AT, "7O").hold(1.5)
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("2B"))) and state.valid
    assert state.face_up == Card.parse("7O") and script.events[-1].seat == 0
    assert script.kinds()[-4:] == ["play", "trick", "collected", "swap"]
    (flag,) = script.session.view().flags
    assert "taken away without it" in flag.reason


def test_a_card_that_came_while_the_trick_was_unseen_waits_until_the_trick_is_gone(seen):
    """As a stalled stream shows it: the four vanished with Luis's card and the trick taken away
    unseen, and Ana's lead comes at once. The four still counts as on the table (it may be under a
    hand); the lead waits until it is gone, and leads the next trick."""
    script = _lead_then_taken_away(seen, SPOT[0], then=0.0)
    _tossed(script, 0, "d", "7B", (250.0, 370.0))
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("2B"))) and state.valid
    assert state.current == ((0, Card.parse("7B")),)


def test_a_trick_taken_away_a_card_short_and_led_clear_of_it_had_its_last_card_unseen(seen):
    """Luis, to play, leads the seven of batons at his place, clear of where Ana's four lay: the
    four was taken away, not covered. Luis won the trick with a card the camera missed, guessed as
    the lowest card that beats the four."""
    script = _lead_then_taken_away(seen, SPOT[0])
    _tossed(script, 1, "d", "7B", SPOT[1])
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("5E"))) and state.valid
    assert state.current == ((1, Card.parse("7B")),)
    assert "taken away without it" in script.session.view().flags[0].reason


def test_a_card_tossed_where_the_trick_card_lay_answers_it(seen):
    """Luis, to play, tosses his card where Ana's four lay, unseen since: the four may lie under it.
    The card answers the four."""
    script = _lead_then_taken_away(seen, (320.0, 340.0))
    _tossed(script, 1, "d", "7B", (325.0, 320.0))
    assert script.state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("7B")))
    assert script.session.view().flags == ()


def test_a_card_tossed_near_where_the_trick_card_lay_seen_bare_leads_the_next_trick(seen):
    """Luis, to play, tosses his card near where Ana's four lay, but the four's place was seen bare
    first: it was taken away, not covered. Luis won the trick with a card the camera missed."""
    script = _lead_then_taken_away(seen, (320.0, 340.0), then=0.5)
    script.bare((321.0, 338.0)).hold(0.5)
    _tossed(script, 1, "d", "7B", (325.0, 320.0))
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("5E"))) and state.valid
    assert state.current == ((1, Card.parse("7B")),)
    assert "taken away without it" in script.session.view().flags[0].reason


def test_a_card_tossed_beside_where_the_trick_card_lay_waits_for_its_place_to_be_seen_bare(seen):
    """Luis, to play, tosses his card beside where Ana's four lay, just after the four went unseen;
    the four's place is seen bare only once his card lies still. His card, clear of that place,
    waits for it: the four was taken away, and Luis won the trick with a card the camera missed."""
    script = _lead_then_taken_away(seen, (320.0, 340.0), then=0.0)
    script.reach(1, (325.0, 280.0)).hold(0.3).put("d", (325.0, 280.0), "7B").hold(0.2).reach(None).hold(0.4)
    assert len(script.state.tricks) == 1 and script.state.current == ((0, Card.parse("4E")),)
    script.bare((321.0, 338.0)).hold(1.5)
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("5E"))) and state.valid
    assert state.current == ((1, Card.parse("7B")),)
    assert "taken away without it" in script.session.view().flags[0].reason


def test_a_card_tossed_beside_where_the_trick_card_lay_answers_it_when_its_place_is_not_seen_bare(seen):
    """The same, but the four's place never shows bare (a hand lies over it): once the four is gone
    for the tracker, Luis's card answers it, as the rules expect."""
    script = _lead_then_taken_away(seen, (320.0, 340.0), then=0.2)
    _tossed(script, 1, "d", "7B", (325.0, 280.0))
    state = script.state
    assert state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("7B"))) and state.valid
    assert script.session.view().flags == ()


def test_a_trick_seen_taken_away_but_for_a_card_long_hidden_under_it_leads_from_its_winner(seen):
    """Four players. Luis's card lands on Ana's lead and hides it until the tracker forgets it; Eva's
    lies beside. Pau's card goes unseen and he takes the trick away: the places of Luis's and Eva's
    cards are seen bare, and Pau leads near where the trick lay. The trick was taken away with Ana's
    card under Luis's: Pau won it with a card the camera missed, and his card leads the next."""
    script = _four(seen)
    _tossed(script, 0, "a", "4E", (320.0, 330.0))
    script.reach(1, (322.0, 326.0)).hold(0.3).take("a").put("b", (322.0, 326.0), "6E").hold(0.2)
    script.reach(None).hold(1.5)
    _tossed(script, 2, "c", "5E", (320.0, 260.0)).hold(5.0)
    script.take("b", "c").hold(0.3).bare((322.0, 326.0), (320.0, 260.0)).hold(0.3)
    _tossed(script, 3, "d", "7B", (300.0, 300.0))
    state = script.state
    assert [seat for seat, _ in state.tricks[0].plays] == [0, 1, 2, 3] and state.tricks[0].winner == 3
    assert state.current == ((3, Card.parse("7B")),) and state.valid
    assert "taken away without it" in script.session.view().flags[0].reason


def test_a_swap_with_the_card_guessed_for_a_missed_play_changes_the_guess(seen):
    """Ana leads the six of coins (trumps) and Luis's card goes unseen: he leads next, so he won,
    and his card is guessed as the seven of coins. After the next trick the seven shows at the
    trump spot: Luis swapped it for the three, so his missed card was another trump."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 0, "c", "6O", (320.0, 340.0)).take("c").hold(2)
    _tossed(script, 1, "d", "4B", (320.0, 230.0))
    assert script.state.tricks[1].plays[1] == (1, Card.parse("7O"))
    _tossed(script, 0, "e", "2B", (320.0, 330.0)).take("d", "e").hold(2)
    script.put("trump", TRUMP_AT, "7O").hold(1.5)
    state = script.state
    assert state.tricks[1].plays[1][1] not in (Card.parse("7O"), Card.parse("3O"))
    assert state.tricks[1].winner == 1 and state.valid
    assert state.face_up == Card.parse("7O") and script.events[-1].kind == "swap"
    assert script.events[-1].seat == 1 and script.events[-2].kind == "amend"


def test_a_card_that_landed_before_the_trick_was_gone_answers_it(seen):
    """Luis's hand hovers over the four a second, hiding it, then drops his card at his place: the
    four is never seen again, but the card came to rest before the four counted as gone."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 0, "c", "4E", SPOT[0]).reach(1, SPOT[0]).take("c").hold(1.0)
    script.put("d", SPOT[1], "5E").hold(0.2).reach(None).hold(1.5)
    assert script.state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("5E")))
    assert script.session.view().flags == ()


def test_cards_gone_with_the_trump_card_under_the_stock_are_no_trick_taken_away(seen):
    """The four and the trump card go unseen at once (the light, not a hand): Luis's card, brought
    meanwhile, answers the four."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0)).take("a", "b").hold(2)
    _tossed(script, 0, "c", "4E", SPOT[0]).take("c", "trump").hold(1.5)
    _tossed(script, 1, "d", "7B", SPOT[1])
    assert script.state.tricks[1].plays == ((0, Card.parse("4E")), (1, Card.parse("7B")))


@pytest.mark.parametrize("taker", [0, 1])
def test_a_complete_trick_taken_away_by_the_hand_of_a_player_it_was_not_given_to_is_questioned(seen, taker):
    """Ana's ace of cups beats Luis's five of cups, read at 0.7 (or the three of coins, the trump
    card's suit, at 0.25). The winner takes the trick: Ana's hand, nothing to ask; Luis's hand, and
    one of its cards was likely misread, so Luis's, the less surely read, is flagged."""
    script = Script(seen).put("trump", TRUMP_AT, "3O").hold(1)
    _tossed(script, 0, "a", "1C", (320.0, 330.0))
    _tossed(script, 1, "b", "5C", (320.0, 300.0), 0.7, ("2O", 0.25))
    _taken_by(script, taker, "a", "b", at=(320.0, 315.0))
    assert script.state.tricks[0].winner == 0
    flags = script.session.view().flags
    if taker == 0:
        assert script.kinds()[-2:] == ["trick", "collected"] and not flags
        return
    assert script.kinds()[-3:] == ["trick", "check", "collected"]
    (flag,) = flags
    assert flag.seq == 2 and "taken away by the hand of Luis" in flag.reason
    assert "give it to Ana" in flag.reason
    assert flag.alternatives[0][0] == Card.parse("5C")


@pytest.mark.parametrize("taker", [2, 3])
def test_a_complete_trick_taken_away_by_the_winners_partner_is_not_questioned(seen, taker):
    """Four players: Ana's ace of cups wins; Eva, her partner, may take the trick for their side;
    Pau, an opponent, may not."""
    script = _four(seen)
    for seat, card in enumerate(("1C", "5C", "6C", "7C")):
        _tossed(script, seat, "abcd"[seat], card, NEAR[seat])
    script.reach(taker, (320.0, 320.0)).hold(0.3).take("a", "b", "c", "d").hold(0.5)
    script.reach(None).bare(*NEAR.values()).hold(2)
    assert script.state.tricks[0].winner == 0
    assert bool(script.session.view().flags) == (taker == 3)
    assert ("check" in script.kinds()) == (taker == 3)


def test_a_complete_trick_an_arm_from_its_winners_side_reached_over_too_is_not_questioned(seen):
    """An arm reaching in between two seats may be either's (six at a table sit close): Ana's arm
    reached over her ace while the trick went from view, then an arm from Pau's side over the other
    cards. Either may have taken it: nothing is asked."""
    script = _four(seen)
    for seat, card in enumerate(("1C", "5C", "6C", "7C")):
        _tossed(script, seat, "abcd"[seat], card, NEAR[seat])
    script.take("a", "b", "c", "d").reach(0, (320.0, 440.0)).hold(0.3)  # over the ace alone
    script.reach(3, (320.0, 270.0)).hold(0.3)  # over the other three alone
    script.reach(None).bare(*NEAR.values()).hold(2)
    assert script.state.tricks[0].winner == 0
    assert "collected" in script.kinds() and "check" not in script.kinds()
    assert not script.session.view().flags
