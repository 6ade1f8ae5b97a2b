"""A scoring process for the durability test: plays a seeded game into the store, one durable event at a time.

``python durable_scorer.py URL SEED [GAME_ID]``: without GAME_ID it starts a new game and
prints ``game ID``; with it, it resumes that game from the store and first retries the
last stored event (as a process that lost the acknowledgement would). Every event goes
through the engine before it is stored; ``ack SEQ`` is printed once the store returned.
"""

import json
import sys
import time

from companion.engine import GameRecord, random_game, score
from companion.store import Store

PLAYERS = ["Ana", "Luis"]


def main(url: str, seed: int, game_id: int | None) -> None:
    script = random_game("brisca-2", seed, PLAYERS)
    with Store.open(url) as store:
        if game_id is None:
            game_id = store.create_game("brisca-2", PLAYERS, script.first)
            print(f"game {game_id}", flush=True)
        game = store.resume(game_id)
        done = len(game.record.events)
        if done:
            store.append_event(game_id, game.record.events[-1].to_dict(), done - 1)
        for event in script.events[done:]:
            seq = len(game.record.events)
            store.append_event(game_id, game.apply(event).to_dict(), seq)
            print(f"ack {seq}", flush=True)
            time.sleep(0.01)
        store.finish_game(game_id)
        print("done " + json.dumps(score(GameRecord.from_dict(store.game_record(game_id)))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None)
