"""The tournament commands end to end, with results taken from games scored into the store."""

import csv
import json

import pytest

from companion.cli import main
from companion.engine import random_game, replay
from companion.store import Store


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'club.db'}"


def companion(capsys, *args: str):
    assert main(list(args)) == 0
    out = capsys.readouterr().out
    return json.loads(out) if "--json" in args else out


def test_a_knockout_from_scored_games_to_champion_stats_and_export(db, tmp_path, capsys):
    players = ["Ana", "Luis", "Eva"]
    companion(
        capsys,
        "tournament",
        "new",
        "Copa",
        "--format",
        "knockout",
        "--db",
        db,
        *[f"--player={p}" for p in players],
    )
    first = companion(capsys, "tournament", "next-round", "Copa", "--db", db, "--json")["pairings"]
    assert [(p["home"], p["away"]) for p in first] == [("Ana", None), ("Luis", "Eva")]  # seed 1 has the bye

    seed = 0
    for number in (1, 2):
        pairings = companion(
            capsys, "tournament", "pairings", "Copa", "--round", str(number), "--db", db, "--json"
        )
        for pairing in pairings["pairings"]:
            if pairing["away"] is None:
                continue
            with Store.open(db) as store:
                while True:  # a decisive game (a draw would need another one)
                    seed += 1
                    record = random_game("brisca-2", seed, [pairing["home"], pairing["away"]])
                    if replay(record).winners:
                        break
                game_id = store.import_record(record.to_dict())
            games = str(game_id) if number == 1 else "auto"  # the final: found among the stored games
            companion(
                capsys,
                "tournament",
                "result",
                "Copa",
                str(number),
                str(pairing["table"]),
                "--games",
                games,
                "--db",
                db,
            )
        if number == 1:
            companion(capsys, "tournament", "next-round", "Copa", "--db", db)

    bracket = companion(capsys, "tournament", "bracket", "Copa", "--db", db, "--json")["rounds"]
    final = bracket[-1][0]
    assert final["winner"] in (final["home"], final["away"]) and final["score"] in ("1-0", "0-1")
    text = companion(capsys, "tournament", "bracket", "Copa", "--db", db)
    assert "Final" in text and "Semi-final" in text

    stats = {
        row["name"]: row
        for row in companion(capsys, "tournament", "stats", "Copa", "--db", db, "--json")["stats"]
    }
    assert sum(row["games"] for row in stats.values()) == 4  # two games, two players each
    assert sum(row["points"] for row in stats.values()) == 240  # 120 card points a game
    assert stats[final["winner"]]["wins"] >= 1

    companion(capsys, "tournament", "standings", "Copa", "--db", db, "--csv", str(tmp_path / "copa.csv"))
    rows = list(csv.DictReader((tmp_path / "copa.csv").read_text().splitlines()))
    assert {row["name"] for row in rows} == set(players)

    companion(capsys, "tournament", "export", "Copa", str(tmp_path / "copa.json"), "--db", db)
    other = f"sqlite:///{tmp_path / 'other.db'}"
    companion(capsys, "tournament", "import", str(tmp_path / "copa.json"), "--db", other)
    again = companion(capsys, "tournament", "stats", "Copa", "--db", other, "--json")["stats"]
    assert {row["name"]: row for row in again} == stats


def test_hand_results_record_files_withdrawals_and_errors(db, tmp_path, capsys):
    liga = ["tournament", "result", "Liga"]
    companion(
        capsys, "tournament", "new", "Liga", "--format", "league", "--pair", "Primos=Ana,Luis", "--db", db
    )
    companion(capsys, "tournament", "add-player", "Liga", "Vecinas=Eva,Rosa", "--db", db)
    companion(capsys, "tournament", "add-player", "Liga", "Solo", "--db", db)
    first = companion(capsys, "tournament", "next-round", "Liga", "--db", db, "--json")["pairings"][0]
    opening = ["1", str(first["table"])]
    assert main([*liga, *opening, "--score", "2-1", "--db", db]) == 2  # a match is played to 1 game here
    refused = capsys.readouterr().err
    assert f"{first['home']} 2-1 {first['away']} does not fit a match played to 1 game" in refused
    companion(capsys, *liga, *opening, "--score", "1-0", "--points", "70-50", "--db", db)
    table = companion(capsys, "tournament", "standings", "Liga", "--db", db, "--json")["standings"]
    assert (table[0]["name"], table[0]["games_won"], table[0]["point_difference"]) == (first["home"], 1, 20)

    companion(capsys, "tournament", "withdraw", "Liga", "Solo", "--db", db)
    meeting = None
    while meeting is None:  # the round where the two pairs meet
        paired = companion(capsys, "tournament", "next-round", "Liga", "--db", db, "--json")["pairings"]
        meeting = next((p for p in paired if {p["home"], p["away"]} == {"Primos", "Vecinas"}), None)
    members = {"Primos": ["Ana", "Luis"], "Vecinas": ["Eva", "Rosa"]}
    home, away = members[meeting["home"]], members[meeting["away"]]
    game = random_game("brisca-4", 9, [home[0], away[0], home[1], away[1]])
    (tmp_path / "game.json").write_text(json.dumps(game.to_dict()))
    where = [str(meeting["round"]), str(meeting["table"])]
    companion(capsys, *liga, *where, "--record", str(tmp_path / "game.json"), "--db", db)

    table = companion(capsys, "tournament", "standings", "Liga", "--db", db, "--json")["standings"]
    assert next(row for row in table if row["name"] == "Solo")["withdrawn"]
    with Store.open(db) as store:
        (stored,) = store.games()
        assert store.game_record(stored.id) == game.to_dict()
        assert {team["name"]: team["members"] for team in store.teams()} == members
    played = [row for row in table if row["name"] in members]
    by_hand = 70 * (first["home"] in members) + 50 * (first["away"] in members)
    assert sum(row["points_for"] for row in played) == 120 + by_hand  # the stored game's 120 card points
    assert companion(capsys, "tournament", "list", "--db", db, "--json")["tournaments"] == ["Liga"]
    assert main([*liga, "1", "1", "--score", "two-one", "--db", db]) == 2
    assert "two-one" in capsys.readouterr().err
    assert main(["tournament", "new", "Liga", "--format", "swiss", "--db", db]) == 2
    assert "already exists" in capsys.readouterr().err
