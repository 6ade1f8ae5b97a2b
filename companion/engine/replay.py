"""Replay a record: corrections first, then every event through the table, in order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.engine.events import CORRECTIONS, Event
from companion.engine.record import GameRecord
from companion.engine.state import GameState, Issue
from companion.engine.table import Table


def effective_log(events: Sequence[Event]) -> tuple[list[Event | None], list[Issue]]:
    """The log as if every correction had been an edit.

    A ``void`` removes the event it names (voiding an ``amend`` undoes that
    amendment); an ``amend`` replaces the named event's fields. Corrections
    themselves leave ``None`` in their place, so indices never move.
    """
    issues: list[Issue] = []

    def bad_ref(index: int, event: Event, allowed: frozenset[str]) -> bool:
        ref = event.ref
        if ref is None or ref >= index or events[ref].type not in allowed:
            issues.append(
                Issue(index, "bad-ref", f"{event.type} refers to event {ref}, which it cannot correct")
            )
            return True
        return False

    voidable = frozenset({*(e.type for e in events), "amend"}) - {"void"}
    voided = {e.ref for i, e in enumerate(events) if e.type == "void" and not bad_ref(i, e, voidable)}
    log: list[Event | None] = [
        None if i in voided or event.type in CORRECTIONS else event for i, event in enumerate(events)
    ]
    amendable = frozenset(e.type for e in events) - CORRECTIONS
    for i, event in enumerate(events):
        if event.type != "amend" or i in voided or bad_ref(i, event, amendable):
            continue
        assert event.ref is not None
        target = log[event.ref]
        if target is not None:
            log[event.ref] = _amended(target, event)
    return log, issues


def _amended(target: Event, amend: Event) -> Event:
    changes = {
        key: getattr(amend, key)
        for key in ("seat", "card", "cards", "t", "source", "confidence", "rank", "points", "suit")
        if getattr(amend, key) is not None
    }
    return replace(target, **changes)


def replay(record: GameRecord) -> GameState:
    """The state of the game after its whole (corrected) log."""
    log, issues = effective_log(record.events)
    table = Table(record.rules, record.players, record.first)
    table.issues.extend(issues)
    for index, event in enumerate(log):
        if event is not None:
            table.apply(index, event)
    return table.freeze()
