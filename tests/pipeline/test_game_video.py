"""The game-video renderer: a short film of a real engine game, with markers that calibrate it."""

from __future__ import annotations

import json
from itertools import islice

import cv2
import numpy as np
import pytest

from companion.datasets.decks import decks_root
from companion.engine import random_game, replay
from companion.table.profile import profile_from_markers

pytestmark = pytest.mark.skipif(
    not (decks_root() / "fournier-1878" / "deck.json").is_file(), reason="needs ../shared/decks/fournier-1878"
)


@pytest.fixture(scope="module")
def film(tmp_path_factory):
    from companion.datasets.game_video import VideoSpec, first_tricks, write_game_video

    out = tmp_path_factory.mktemp("film")
    record = first_tricks(random_game("brisca-2", seed=11), 2)
    summary = write_game_video(record, "fournier-1878", 11, out, VideoSpec(size=(960, 540)))
    return out, record, summary


def test_first_tricks_cuts_a_record_after_whole_tricks():
    from companion.datasets.game_video import first_tricks

    record = random_game("brisca-4", seed=3)
    cut = replay(first_tricks(record, 2))
    assert len(cut.tricks) == 2 and cut.current == ()
    assert cut.tricks == replay(record).tricks[:2]


def test_the_film_shows_every_play_and_its_timeline_says_when(film):
    out, record, summary = film
    video = cv2.VideoCapture(str(out / "game.mp4"))
    frames = int(video.get(cv2.CAP_PROP_FRAME_COUNT))
    assert abs(frames - summary["frames"]) <= 1
    timeline = json.loads((out / "timeline.json").read_text())["events"]
    plays = [(e["seat"], e["card"]) for e in timeline if e["kind"] == "play"]
    truth = [(seat, str(card)) for trick in replay(record).tricks for seat, card in trick.plays]
    assert plays == truth
    times = [e["t"] for e in timeline]
    assert times == sorted(times) and times[-1] < summary["seconds"]
    assert json.loads((out / "record.json").read_text()) == record.to_dict()


def test_the_corner_markers_calibrate_the_film(film):
    from companion.datasets.game_video import GameFilm, VideoSpec

    out, record, summary = film
    ok, first = cv2.VideoCapture(str(out / "game.mp4")).read()
    assert ok
    found = profile_from_markers(first, 2, tuple(summary["table_mm"]))
    truth = GameFilm(record, "fournier-1878", 11, VideoSpec(size=(960, 540))).profile
    error = np.abs(found.table_corners_px() - truth.table_corners_px()).max()
    assert error < 3.0


def _trick_spreads(placement: str) -> list[float]:
    """Centre-to-centre distances (mm) between the two cards of each trick of a short film."""
    from companion.datasets.game_video import GameFilm, VideoSpec, first_tricks

    film = GameFilm(
        first_tricks(random_game("brisca-2", seed=5), 4), "fournier-1878", 5, VideoSpec(placement=placement)
    )
    for _ in film.frames():
        pass
    at = [np.array(e["at"]) for e in film.timeline if e["kind"] == "play"]
    return [float(np.linalg.norm(a - b)) for a, b in zip(at[::2], at[1::2], strict=True)]


def test_loose_cards_land_on_each_other_and_apart_cards_do_not():
    from companion.table.profile import CARD_MM

    assert all(d > CARD_MM[1] for d in _trick_spreads("apart"))
    assert all(d < CARD_MM[1] for d in _trick_spreads("loose"))


def test_an_unknown_placement_is_a_clear_error():
    from companion.datasets.game_video import GameFilm, VideoSpec
    from companion.errors import MalformedInput

    with pytest.raises(MalformedInput, match="unknown placement 'stacked': one of apart, loose"):
        GameFilm(random_game("brisca-2", seed=5), "fournier-1878", 5, VideoSpec(placement="stacked"))


def test_a_deck_without_the_cards_the_rules_play_with_is_a_clear_error():
    from companion.datasets.game_video import GameFilm
    from companion.errors import MalformedInput

    with pytest.raises(MalformedInput, match=r"has 40 cards, without 8O, 9O.*play with 48 cards"):
        GameFilm(random_game("brisca-6", seed=5), "napoletane", 5)


def test_an_unknown_light_is_a_clear_error():
    from companion.datasets.game_video import GameFilm, VideoSpec
    from companion.errors import MalformedInput

    with pytest.raises(MalformedInput, match="unknown light 'disco': one of drift, switched"):
        GameFilm(random_game("brisca-2", seed=5), "fournier-1878", 5, VideoSpec(light="disco"))


def test_a_switched_light_changes_the_picture_at_once_and_the_exposure_follows():
    from companion.datasets.game_video import SWITCH_EVERY_S, GameFilm, VideoSpec, first_tricks
    from companion.table.light import light_gain

    record = first_tricks(random_game("brisca-2", seed=7), 4)
    times = {"before": SWITCH_EVERY_S - 0.2, "after": SWITCH_EVERY_S + 0.1, "later": SWITCH_EVERY_S + 4}
    wanted = {round(t * 15): name for name, t in times.items()}
    frames: dict[str, dict[str, np.ndarray]] = {}
    for light in ("drift", "switched"):
        film = GameFilm(record, "fournier-1878", 7, VideoSpec(size=(640, 360), light=light))
        upto = islice(film.frames(), max(wanted) + 1)  # the film after the last wanted frame is not drawn
        frames[light] = {wanted[i]: frame for i, frame in enumerate(upto) if i in wanted}
    assert len(frames["switched"]) == 3
    gain = {name: light_gain(frames["switched"][name], frames["drift"][name]) for name in times}
    assert np.allclose(gain["before"], 1.0, atol=0.01)  # the same film until the switch
    jump = gain["after"].mean() - 1.0
    assert abs(jump) >= 0.13  # a lamp 15-35% brighter or dimmer
    assert abs(gain["later"].mean() - 1.0) <= abs(jump) + 0.01  # the exposure takes some of it back
    assert np.sign(gain["later"].mean() - 1.0) in (0.0, np.sign(jump))


def test_a_swap_in_the_last_drawing_turn_is_filmed_before_the_face_up_card_is_taken():
    """By the default rules a seat may swap the face-up card while the last drawer has yet to take
    it (brisca-4 seed 318 does, after trick 7); the film keeps the card until the next trick begins."""
    from companion.datasets.game_video import GameFilm, VideoSpec, first_tricks

    record = first_tricks(random_game("brisca-4", seed=318), 8)
    state = replay(record)
    assert [swap.seat for swap in state.swaps] == [0] and not state.issues
    film = GameFilm(record, "fournier-1878", 318, VideoSpec(size=(320, 180)))
    frames = sum(1 for _ in film.frames())
    (swap,) = [event for event in film.timeline if event["kind"] == "swap"]
    plays = [event["t"] for event in film.timeline if event["kind"] == "play"]
    assert frames > 0 and plays[27] < swap["t"] < plays[28]  # after trick 7, before trick 8


def test_a_film_that_fails_leaves_no_video_behind(tmp_path):
    from companion.cards import Card
    from companion.datasets.game_video import VideoSpec, write_game_video
    from companion.engine import Event, GameRecord
    from companion.errors import MalformedInput

    record = random_game("brisca-2", seed=5)
    broken = GameRecord(
        record.rules, record.players, record.first, (Event("swap", seat=0, card=Card.parse("7O")),)
    )
    with pytest.raises(MalformedInput, match="before any trump card"):
        write_game_video(broken, "fournier-1878", 5, tmp_path, VideoSpec(size=(320, 180)))
    assert list(tmp_path.iterdir()) == []


def test_with_shadows_someone_leans_over_the_table_and_the_film_is_otherwise_the_same():
    """brisca-2 seed 8: the player at seat 1 leans in from 2.4 s to 7.3 s."""
    from companion.datasets.game_video import LEAN_IN_S, GameFilm, VideoSpec, first_tricks

    record = first_tricks(random_game("brisca-2", seed=8), 2)
    films = {
        shadows: GameFilm(record, "fournier-1878", 8, VideoSpec(size=(640, 360), shadows=shadows))
        for shadows in (False, True)
    }
    leaning = round((2.4 + LEAN_IN_S + 1.0) * 15)
    frames = {shadows: list(islice(film.frames(), leaning + 1)) for shadows, film in films.items()}
    assert np.array_equal(frames[True][0], frames[False][0])  # the same film, but for the shadows
    (lean,) = [event for event in films[True].timeline if event["kind"] == "lean"]
    assert lean["seat"] == 1 and not any(event["kind"] == "lean" for event in films[False].timeline)

    shadowed, plain = frames[True][leaning], frames[False][leaning]
    ratio = (shadowed.astype(np.float32) + 1).sum(axis=2) / (plain.astype(np.float32) + 1).sum(axis=2)
    dark = ratio < 0.9
    assert dark.mean() > 0.03  # a head and shoulders' shadow, not a hand's
    assert 0.5 < ratio[dark].mean() < 0.85
    channels = (shadowed[dark].astype(np.float32) + 1) / (plain[dark].astype(np.float32) + 1)
    assert np.median(np.ptp(channels, axis=1)) < 0.15  # darker alike in every colour channel
    profile = films[True].profile
    seats = profile.to_image(profile.layout.seats)
    centre = np.argwhere(dark).mean(axis=0)[::-1]
    assert np.argmin(np.linalg.norm(seats - centre, axis=1)) == lean["seat"]  # on the leaning seat's side


@pytest.mark.parametrize("size", [(960, 540), (640, 480), (540, 960)])
def test_a_tilted_camera_sees_the_far_edge_smaller_and_its_markers_calibrate_it(size):
    from companion.datasets.game_video import GameFilm, VideoSpec, first_tricks

    record = first_tricks(random_game("brisca-2", seed=12), 1)
    film = GameFilm(record, "fournier-1878", 12, VideoSpec(size=size, tilt=35))
    corners = film.profile.table_corners_px()
    far, near = corners[1, 0] - corners[0, 0], corners[2, 0] - corners[3, 0]
    assert 1.3 < near / far < 1.6  # a camera 1.5 table widths from the middle, 35 degrees off vertical
    assert (corners >= 0).all() and (corners < size).all()
    found = profile_from_markers(next(film.frames()), 2, film.spec.table_mm)
    assert np.abs(found.table_corners_px() - corners).max() < 3.0


def test_a_tilt_changes_the_view_and_an_impossible_one_is_a_clear_error():
    from companion.datasets.game_video import GameFilm, VideoSpec
    from companion.errors import MalformedInput

    record = random_game("brisca-2", seed=5)
    overhead, tilted = (
        GameFilm(record, "fournier-1878", 5, VideoSpec(size=(640, 360), tilt=tilt)).profile.table_corners_px()
        for tilt in (0, 20)
    )
    assert np.allclose(overhead[:2], tilted[:2], atol=3)  # the far edge stays where it was
    assert (tilted[2, 0] - tilted[3, 0]) - (overhead[2, 0] - overhead[3, 0]) > 40  # the near edge widens
    with pytest.raises(MalformedInput, match="camera tilt 60 degrees: 0 \\(overhead\\) to 45"):
        GameFilm(record, "fournier-1878", 5, VideoSpec(tilt=60))


def test_things_are_set_down_beside_the_players_clear_of_the_cards_and_taken_back():
    """brisca-2 seed 962: in the first five tricks coins and a glass are set down, the coins taken
    back, coins set down again and the glass taken back; until the first, the film is the same as
    without things."""
    from companion.datasets.game_video import GameFilm, VideoSpec, first_tricks
    from companion.table.profile import CARD_MM

    record = first_tricks(random_game("brisca-2", seed=962), 5)
    films = {
        things: GameFilm(record, "bergamasche", 962, VideoSpec(size=(640, 360), things=things))
        for things in (False, True)
    }
    frames = {things: list(film.frames()) for things, film in films.items()}
    timeline = films[True].timeline
    set_down = [event for event in timeline if event["kind"] == "thing"]
    taken = [event for event in timeline if event["kind"] == "thing-taken"]
    assert len(set_down) >= 2 and len(taken) >= 1
    assert not any(event["kind"].startswith("thing") for event in films[False].timeline)
    layout = films[True].profile.layout
    for event in set_down:
        at = np.array(event["at"])
        assert np.linalg.norm(at - layout.play_center) > layout.play_radius + 60
        assert np.linalg.norm(at - layout.stock) > CARD_MM[1]
    first = round(set_down[0]["t"] * 15) - 12  # the hand bringing it in takes 0.6 s
    assert all(np.array_equal(a, b) for a, b in zip(frames[False][:first], frames[True][:first], strict=True))
    assert not np.array_equal(frames[False][first + 15], frames[True][first + 15])
    plays = [(e["seat"], e["card"]) for e in timeline if e["kind"] == "play"]
    assert plays == [(e["seat"], e["card"]) for e in films[False].timeline if e["kind"] == "play"]


@pytest.mark.parametrize("table_mm", [(900.0, 900.0), (1000.0, 700.0)])
def test_a_larger_table_shows_smaller_cards_and_its_markers_calibrate_it(table_mm):
    from companion.datasets.game_video import GameFilm, VideoSpec

    record = random_game("brisca-4", seed=5)
    small, large = (
        GameFilm(record, "fournier-1878", 5, VideoSpec(size=(960, 540), table_mm=mm))
        for mm in ((640.0, 640.0), table_mm)
    )
    card = np.array([[0.0, 0.0], [61.5, 0.0]])
    middle = [np.asarray(film.spec.table_mm) / 2 + card for film in (small, large)]
    widths = [
        np.linalg.norm(np.diff(film.profile.to_image(at), axis=0))
        for film, at in zip((small, large), middle, strict=True)
    ]
    assert widths[1] / widths[0] == pytest.approx(640 / table_mm[1], rel=0.08)
    found = profile_from_markers(next(large.frames()), 4, table_mm)
    assert np.abs(found.table_corners_px() - large.profile.table_corners_px()).max() < 3.0


def test_sensor_noise_grains_each_frame_anew_and_leaves_the_film_otherwise_the_same():
    from companion.datasets.game_video import GameFilm, VideoSpec
    from companion.errors import MalformedInput

    record = random_game("brisca-2", seed=5)
    clean, noisy = (
        list(
            islice(GameFilm(record, "fournier-1878", 5, VideoSpec(size=(640, 360), noise=noise)).frames(), 2)
        )
        for noise in (0.0, 6.0)
    )
    grains = [noisy[i].astype(np.float32) - clean[i] for i in range(2)]
    assert all(5.0 < grain.std() < 6.5 and abs(grain.mean()) < 1.0 for grain in grains)
    assert np.corrcoef(grains[0].ravel(), grains[1].ravel())[0, 1] < 0.05  # new grain in every frame
    with pytest.raises(MalformedInput, match=r"sensor noise -1\.0"):
        GameFilm(record, "fournier-1878", 5, VideoSpec(noise=-1.0))


def test_of_two_things_lying_the_later_can_be_taken_back_first():
    """brisca-2 seed 966: two phones lie beside the same player from 88.8 s, and the second set down is
    taken back first."""
    from companion.datasets.game_video import GameFilm, VideoSpec

    film = GameFilm(
        random_game("brisca-2", seed=966), "bergamasche", 966, VideoSpec(size=(320, 180), things=True)
    )
    for _ in film.frames():
        pass
    moves = [
        (event["kind"], tuple(event["at"])) for event in film.timeline if event["kind"].startswith("thing")
    ]
    lying: list[tuple[float, float]] = []
    out_of_order = False
    for kind, at in moves:
        if kind == "thing":
            lying.append(at)
        else:
            out_of_order |= lying.index(at) > 0
            lying.remove(at)
    assert out_of_order and lying == []


def test_a_stalled_stream_repeats_the_frame_before_over_each_stalled_play_and_nothing_else_changes():
    from companion.datasets.game_video import GameFilm, VideoSpec, first_tricks
    from companion.errors import MalformedInput

    record = first_tricks(random_game("brisca-2", seed=8), 4)
    films = {n: GameFilm(record, "fournier-1878", 8, VideoSpec(size=(320, 180), stalls=n)) for n in (0, 2)}
    frames = {n: list(film.frames()) for n, film in films.items()}
    assert len(frames[0]) == len(frames[2])
    stalls = [e for e in films[2].timeline if e["kind"] == "stall"]
    plays = [e for e in films[2].timeline if e["kind"] == "play"]
    assert len(stalls) == 2 and [e for e in films[0].timeline if e["kind"] == "play"] == plays
    frozen = set()
    for stall in stalls:
        first, last = round(stall["t"] * 15), round((stall["t"] + stall["seconds"]) * 15)
        frozen |= set(range(first, last))
        assert all(np.array_equal(frames[2][i], frames[2][first - 1]) for i in range(first, last))
        assert sum(stall["t"] < play["t"] < stall["t"] + stall["seconds"] for play in plays) == 1
        assert plays[0]["t"] < stall["t"]  # never the game's first play
    moving = [i for i in range(1, len(frames[0])) if i not in frozen]
    assert all(np.array_equal(frames[0][i], frames[2][i]) for i in moving)
    with pytest.raises(MalformedInput, match="a game of 8 plays has room for 3"):
        GameFilm(record, "fournier-1878", 8, VideoSpec(stalls=4))


def test_a_suite_renders_each_game_it_lists_into_its_own_folder_once(tmp_path, capsys):
    from companion.cli import main
    from companion.engine import load_record

    suite = tmp_path / "suite.txt"
    suite.write_text(
        "# two short games\n"
        "7 --size 640x480 --tricks 1\n"
        "\n"
        "8 --rules brisca-4 --deck napoletane --placement loose --size 640x480 --tricks 1  # loose\n"
    )
    out = tmp_path / "games"
    assert main(["dataset", "game-suite", str(suite), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["7", "8"]
    for seed, rules, placement in ((7, "brisca-2", "apart"), (8, "brisca-4", "loose")):
        timeline = json.loads((out / str(seed) / "timeline.json").read_text())
        assert (timeline["seed"], timeline["size"], timeline["placement"]) == (seed, [640, 480], placement)
        record = load_record(out / str(seed) / "record.json")
        assert record.rules.name == rules and len(replay(record).tricks) == 1
    assert "rendered 2 games, 0 were there already" in capsys.readouterr().out
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert main(["dataset", "game-suite", str(suite), "--out", str(out)]) == 0
    assert "rendered 0 games, 2 were there already" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == stamps


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("x --rules brisca-2", "line 2: a line starts with the game's seed, not 'x'"),
        ("9 --stalls many", "line 2: argument --stalls: invalid int value: 'many'"),
        ("9 --rulez brisca-2", "line 2: unrecognized arguments: --rulez brisca-2"),
        ("9 --rules brisca-6 --deck napoletane", "line 2: deck 'napoletane' has 40 cards"),
        ("9 --tilt 80", "line 2: camera tilt 80.0 degrees"),
        ("7 --placement loose", "a seed is listed twice"),
    ],
)
def test_a_bad_line_in_a_suite_is_named_before_any_game_is_rendered(tmp_path, capsys, line, says):
    from companion.cli import main

    suite = tmp_path / "suite.txt"
    suite.write_text(f"7 --tricks 1\n{line}\n")
    assert main(["dataset", "game-suite", str(suite), "--out", str(tmp_path / "games")]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "games").exists()
