"""``companion deck teach NAME DIR`` and ``companion deck list``: the deck styles it recognises."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "deck",
        help="teach a new deck style from one image per card, or list the known decks",
        description="Deck styles the identifier knows: shipped with the product, or taught by you.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    teach = actions.add_parser(
        "teach",
        help="teach a deck from a folder with one image per card (1O.png .. 12B.png)",
        description="Scans or photos, one per card, named by the card (1O.png .. 12B.png, .jpg too). "
        "Takes about a minute on a laptop CPU; only derived references are stored, never the images.",
    )
    teach.add_argument("name", help="the deck's name, e.g. my-fournier")
    teach.add_argument("folder", type=Path, help="folder with the card images")
    teach.add_argument("--model", type=Path, help="identifier model (default: the shipped one)")
    teach.add_argument("--json", action="store_true", help="print the result as JSON")
    teach.set_defaults(run=run_teach)
    listing = actions.add_parser("list", help="list the decks the installation knows")
    listing.add_argument("--json", action="store_true", help="print the decks as JSON")
    listing.set_defaults(run=run_list)


def run_teach(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from companion.vision.decks import teach
    from companion.vision.identifier import Identifier

    identifier = Identifier.from_file(args.model, threads=2)
    references, seconds = teach(
        args.name,
        args.folder,
        identifier,
        progress=lambda cards: tqdm(cards, desc=f"teaching {args.name}", unit="card", disable=args.json),
    )
    result = {"deck": references.name, "cards": len(references.cards), "seconds": round(seconds, 1)}
    print(
        json.dumps(result)
        if args.json
        else f"taught {args.name}: {len(references.cards)} cards in {seconds:.1f} s"
    )
    return 0


def run_list(args: argparse.Namespace) -> int:
    from companion.vision.decks import read_decks

    readable, unreadable = read_decks()
    decks = [
        {"deck": d.name, "cards": len(d.cards), "origin": d.origin, "source": d.source} for d in readable
    ]
    decks += [{"deck": name, "unreadable": why} for name, why in sorted(unreadable.items())]
    if args.json:
        print(json.dumps(decks))
    else:
        for d in decks:
            if "unreadable" in d:
                print(f"{d['deck']:<20} cannot be used: {d['unreadable']}")
            else:
                print(f"{d['deck']:<20} {d['cards']:>3} cards  {d['origin']:<8} {d['source']}")
    return 0
