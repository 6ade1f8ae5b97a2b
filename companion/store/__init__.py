"""Durable records: players, teams, matches, games and their append-only event logs, evidence, tournaments."""

from companion.store.store import Evidence, GameSummary, Store, canonical_json

__all__ = ["Evidence", "GameSummary", "Store", "canonical_json"]
