"""Durable records: players, teams, matches, games, their append-only event logs, evidence, flags."""

from companion.store.store import Evidence, GameSummary, Store, StoredFlag, canonical_json

__all__ = ["Evidence", "GameSummary", "Store", "StoredFlag", "canonical_json"]
