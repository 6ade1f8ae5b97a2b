"""Keep a live game in the store as it is played: the :class:`companion.session.StoreSink` of a
:class:`companion.session.LiveSession`, for its events, its tricks' evidence and its open flags;
and continue a stored game in a session with all three."""

from __future__ import annotations

from companion.cards import Card
from companion.engine import Event, GameRecord, replay
from companion.errors import IllegalAction
from companion.session import Evidence, Flag, LiveSession
from companion.store.store import Store


class GameWriter:
    """Called with ``(record, None)`` when a game starts and ``(record, event)`` after each event.

    Every event of the record not yet stored is appended at its own position, so a failed
    write is retried with the next event and a retry never stores an event twice; a game is
    stored from its first event and marked complete when its last trick is in. Give
    ``game_id`` (or :meth:`follow` it) to continue a stored game, then load the session with its
    record.
    :meth:`keep` stores a trick's evidence with the game being written, :meth:`flags` its open
    flags.
    """

    def __init__(self, store: Store, game_id: int | None = None) -> None:
        self.store = store
        self.game_id: int | None = None
        self.written = 0
        self._continuing = self._finished = False
        if game_id is not None:
            self.follow(game_id)

    def follow(self, game_id: int) -> None:
        """Go on writing stored game ``game_id`` from its last stored event (the session loads its
        record next: :func:`continue_game`); the game written before stays as it is."""
        game = self.store.game(game_id)
        self.game_id, self.written = game_id, game.events
        self._continuing, self._finished = True, game.status != "live"

    def __call__(self, record: GameRecord, event: Event | None) -> None:
        if not record.events:  # a new game (or the session's empty one before the load)
            if not self._continuing:
                self._start_over()
            return
        if event is None and not self._continuing:  # a game loaded with events: a new stored game
            self._start_over()
        self._continuing = False
        if self.game_id is None:
            self.game_id = self.store.create_game(record.rules.to_spec(), record.players, record.first)
        for seq in range(self.written, len(record.events)):
            self.store.append_event(self.game_id, record.events[seq].to_dict(), seq)
            self.written = seq + 1
        if not self._finished and replay(record).complete:
            self.store.finish_game(self.game_id)
            self._finished = True

    def keep(self, evidence: Evidence) -> None:
        """Store the snapshot of ``evidence`` (its bytes, with their sha256) for the game being
        written, its readings in the note; the same snapshot twice is kept once."""
        if self.game_id is None:
            raise IllegalAction(f"no stored game for the evidence of trick {evidence.trick}")
        self.store.add_evidence(
            self.game_id,
            evidence.snapshot.read_bytes(),
            trick=evidence.trick,
            suffix=evidence.snapshot.suffix,
            note={"readings": list(evidence.readings)},
        )

    def flags(self, flags: tuple[Flag, ...]) -> None:
        """Keep ``flags`` as the open flags of the game being written (the others are settled)."""
        if self.game_id is None:
            raise IllegalAction("no stored game for the flags")
        kept = [
            {
                "seq": flag.seq,
                "reason": flag.reason,
                "alternatives": [(str(card), p) for card, p in flag.alternatives],
            }
            for flag in flags
        ]
        self.store.keep_flags(self.game_id, kept)

    def _start_over(self) -> None:
        """The next event starts a new stored game; an unfinished one before it (a game restarted
        with its leader corrected, or left for a new deal) is kept, marked abandoned."""
        if self.game_id is not None and not self._finished:
            self.store.finish_game(self.game_id, "abandoned")
        self.game_id, self.written, self._finished = None, 0, False


def continue_game(session: LiveSession, writer: GameWriter, game_id: int) -> None:
    """Load stored game ``game_id`` into ``session`` (whose sinks ``writer`` is), with its open
    flags and its tricks' evidence (those whose files are still there); ``writer`` goes on
    storing it."""
    store = writer.store
    flags = tuple(
        (flag.seq, flag.reason, tuple((Card.parse(card), p) for card, p in flag.alternatives))
        for flag in store.open_flags(game_id)
    )
    evidence = tuple(
        Evidence(item.trick, item.path, tuple(item.note.get("readings", ())))
        for item in store.evidence(game_id)
        if item.trick is not None and item.path.is_file()
    )
    record = GameRecord.from_dict(store.game_record(game_id))
    writer.follow(game_id)
    session.load(record, flags=flags, evidence=evidence)
