"""One short rendered game watched end to end: video -> markers -> vision -> events -> record."""

from __future__ import annotations

import pytest

from companion.datasets.decks import decks_root
from companion.engine import random_game, replay
from companion.errors import MissingResource
from companion.pipeline.evaluate import all_right, compare
from companion.pipeline.live import WatchOptions, watch

ARTWORK = decks_root() / "fournier-1878" / "deck.json"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not ARTWORK.is_file(), reason=f"needs {ARTWORK}")]


@pytest.mark.parametrize(
    ("seed", "film"),
    [
        (21, {"placement": "apart"}),
        (36, {"placement": "loose"}),
        (50, {"placement": "loose", "tilt": 35.0, "things": True, "table_mm": (900.0, 900.0)}),
    ],
    ids=["cards-apart", "cards-tossed-into-the-middle", "a-phone-at-an-angle-over-a-large-cluttered-table"],
)
def test_a_short_rendered_game_is_recognised_card_for_card(tmp_path, seed, film):
    """Cards laid apart; cards tossed into the middle where the first lies nearer the player who did
    not play it (who played each card comes from the side its arm reached in from); and a phone
    propped 35 degrees off vertical over a 90 cm table where a phone and a score pad are set down."""
    import json

    from companion.datasets.game_video import VideoSpec, first_tricks, write_game_video
    from companion.vision.decks import load_deck
    from companion.vision.identifier import Identifier

    try:
        load_deck("fournier-1878")
        Identifier.from_file()
    except (MissingResource, LookupError) as missing:
        pytest.skip(f"identifier not shipped yet: {missing}")
    truth = first_tricks(random_game("brisca-2", seed=seed), 3)
    summary = write_game_video(truth, "fournier-1878", seed, tmp_path / "film", VideoSpec(**film))
    options = WatchOptions(
        source=tmp_path / "film" / "game.mp4",
        rules="brisca-2",
        players=truth.players,
        table_mm=tuple(summary["table_mm"]),
        record=tmp_path / "seen.json",
        mode="fast",
    )
    outcome = watch(options, lambda events: None)
    rests = [e["t"] for e in summary["events"] if e["kind"] == "play"]
    figures = compare(truth, outcome.records[0], outcome.stats.events, rests)
    assert all_right(figures), figures
    assert figures["flagged"] == 0
    assert figures["median_delay_s"] <= 1.0
    written = json.loads((tmp_path / "seen.json").read_text())
    assert [e["card"] for e in written["events"]] == [str(e.card) for e in truth.events]
    assert len(list((tmp_path / "seen-evidence" / "game-1").glob("trick-*.jpg"))) == len(replay(truth).tricks)
