"""``companion score``: JSON or text out, exit 0 / 1 / 2."""

import json

import pytest

from companion.cli import main
from companion.engine import random_game
from companion.paths import PROJECT_ROOT

from .helpers import record_dict

SAMPLE = PROJECT_ROOT / "samples" / "brisca-2.json"


def test_the_bundled_sample_is_a_valid_complete_game(capsys):
    assert main(["score", str(SAMPLE)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["complete"] and result["valid"] and result["issues"] == []
    assert sum(result["points"]) == 120 and len(result["tricks"]) == 20
    assert set(result["tricks"][0]) == {"n", "leader", "plays", "winner", "points", "reason"}
    assert result["winners"] == [max((0, 1), key=lambda seat: result["points"][seat])]


def test_text_tells_the_game_trick_by_trick(capsys):
    assert main(["score", str(SAMPLE), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.count("Trick ") == 20 and "Winner:" in out and "Valid: yes." in out


def test_a_record_that_breaks_the_rules_exits_1_with_issues(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record_dict("brisca-2", "trump 3O; 0 5C; 1 5C")))
    assert main(["score", str(path)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["valid"] is False and result["complete"] is False
    assert result["issues"] == [{"event": 2, "code": "bad-card", "message": "5C was already played"}]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{oops", "not JSON"),
        ('{"format": "brisca-record/1", "rules": "brisca-2"}', "'players' is a required"),
    ],
)
def test_not_a_record_exits_2_with_one_line(tmp_path, capsys, text, words):
    path = tmp_path / "broken.json"
    path.write_text(text)
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion score: ") and words in err and err.count("\n") == 1


def test_unknown_rules_and_cards_exit_2(tmp_path, capsys):
    for change in ({"rules": "brisca-7"}, {"events": [{"type": "trump", "card": "13O"}]}):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**record_dict("brisca-2", ""), **change}))
        assert main(["score", str(path)]) == 2
    assert "brisca-7" in capsys.readouterr().err


def test_reads_stdin(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(random_game("brisca-3", 5).to_dict())))
    assert main(["score", "-"]) == 0
    assert sum(json.loads(capsys.readouterr().out)["points"]) == 120
