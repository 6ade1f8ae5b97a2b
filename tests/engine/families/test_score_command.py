"""``companion score`` on records of the bidding families: the contract in JSON and in text."""

import json

import pytest

from companion.cli import main
from companion.engine import GameRecord, random_game, replay
from companion.paths import PROJECT_ROOT


@pytest.mark.parametrize("rules", ["chiamata-5", "chile-remate-3"])
def test_score_prints_the_contract(rules, tmp_path, capsys):
    game = random_game(rules, 7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_dict()))
    assert main(["score", str(path)]) == 0
    contract = json.loads(capsys.readouterr().out)["contract"]
    expected = replay(game).contract
    assert contract["declarer"] == expected.declarer and contract["scores"] == list(expected.scores)
    assert [speech["action"] for speech in contract["bidding"]] == [s.action for s in expected.speeches]
    assert main(["score", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    assert "Contract: " in text and ("made with" in text or "lost with" in text)


def test_a_broken_bidding_record_exits_1_with_its_issues(tmp_path, capsys):
    record = random_game("chiamata-5", 3).to_dict()
    record["events"].insert(1, {"type": "bid", "seat": 4, "rank": 12})  # out of turn
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["score", str(path)]) == 1
    assert "bid-out-of-turn" in {issue["code"] for issue in json.loads(capsys.readouterr().out)["issues"]}


def test_a_bid_without_rank_or_points_is_not_a_record(tmp_path, capsys):
    record = random_game("chiamata-5", 3).to_dict()
    record["events"][0] = {"type": "bid", "seat": 0}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["score", str(path)]) == 2


def test_the_remate_example_of_the_record_format_is_valid():
    doc = (PROJECT_ROOT / "docs" / "record-format.md").read_text()
    section = doc.split("### Bidding events", 1)[1]
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    state = replay(GameRecord.from_dict(example))
    assert state.valid and state.contract.declarer == 1 and state.contract.declared == 2
