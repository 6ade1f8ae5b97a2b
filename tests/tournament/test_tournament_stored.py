"""Tournaments kept in the store: the scored games that settle a pairing are found by who played."""

import pytest

from companion.engine import random_game
from companion.errors import IllegalAction, MalformedInput
from companion.store import Store
from companion.tournament import Entrant, new_tournament, next_round
from companion.tournament.stored import (
    create,
    export_document,
    import_document,
    result_from_games,
    scored_games,
)

PRIMOS, VECINAS = Entrant.of("Primos", ["Ana", "Luis"]), Entrant.of("Vecinas", ["Eva", "Rosa"])


@pytest.fixture
def store(tmp_path):
    with Store.open(f"sqlite:///{tmp_path / 'club.db'}", evidence_dir=tmp_path) as opened:
        yield opened


def test_only_complete_games_of_the_two_pairs_as_partners_count(store):
    tournament = create(
        store, next_round(new_tournament("Parejas", "league", [PRIMOS, VECINAS], rules="brisca-4"))
    )
    (pairing,) = tournament.rounds[0]
    partners = store.import_record(random_game("brisca-4", 1, ["Ana", "Eva", "Luis", "Rosa"]).to_dict())
    store.import_record(random_game("brisca-4", 2, ["Ana", "Luis", "Eva", "Rosa"]).to_dict())  # pairs mixed
    store.import_record(random_game("brisca-4", 3, ["Ana", "Eva", "Luis", "Pepe"]).to_dict())  # someone else
    live = store.create_game("brisca-4", ["Ana", "Eva", "Luis", "Rosa"])
    assert scored_games(store, tournament, 1, pairing.table) == [partners]
    tournament = result_from_games(store, tournament, 1, pairing.table, [partners])
    assert scored_games(store, tournament, 1, pairing.table) == []  # counted once
    assert live not in tournament.results[pairing.key].games


def test_export_and_import_carry_the_games_under_new_ids(store, tmp_path):
    tournament = create(
        store, next_round(new_tournament("Liga", "league", [Entrant.of("Ana"), Entrant.of("Luis")]))
    )
    game = store.import_record(random_game("brisca-2", 4, ["Luis", "Ana"]).to_dict())
    tournament = result_from_games(store, tournament, 1, 1, [game])
    document = export_document(store, tournament)
    with pytest.raises(IllegalAction, match="Liga"):
        import_document(store, document)
    copy = import_document(store, document, name="Liga (copia)")
    (new_id,) = copy.results[(1, 1)].games
    assert new_id != game and store.game_record(new_id) == store.game_record(game)
    assert copy.results[(1, 1)].home_points == tournament.results[(1, 1)].home_points
    with pytest.raises(MalformedInput, match="lacks the records"):
        import_document(store, {**document, "games": {}}, name="Otra")
