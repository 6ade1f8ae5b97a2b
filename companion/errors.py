"""Typed errors: each says what was wrong, with which value.

Every error the product raises on purpose derives from :class:`CompanionError`,
so the command line can turn it into a one-line message, and from the built-in
that matches its kind, so callers can catch it the usual way.
"""


class CompanionError(Exception):
    """Base of every error the product raises on purpose."""


class MalformedInput(CompanionError, ValueError):
    """Input that cannot be understood at all: bad JSON, unknown card, bad schema."""


class UnknownName(CompanionError, LookupError):
    """A name that is not registered: a rules preset, a deck, a tournament."""

    def __str__(self) -> str:  # LookupError would quote the message like a key
        return str(self.args[0]) if self.args else ""


class IllegalAction(CompanionError, ValueError):
    """An action the rules forbid in the current state."""


class AmbiguousReading(CompanionError):
    """Vision could not decide between readings; a person must confirm."""


class RecognitionFailure(CompanionError, RuntimeError):
    """A vision stage failed on its input (unreadable image, broken model)."""


class MissingResource(CompanionError, FileNotFoundError):
    """A file the product needs is absent: a model, a deck, a calibration."""


class Unavailable(CompanionError, OSError):
    """Something the product needs is taken or unreachable: a network port, a camera."""
