"""The engine's error types.

Every error the engine raises is a :class:`RefereeError` (a ``ValueError``).
Its message is built from a message key and parameters (see
:mod:`referee.messages`) so that the web layer can translate it; ``round`` and
``turn`` say where in a match it happened (1-based, ``None`` when unknown).
"""

from __future__ import annotations

from typing import Any

from referee.messages import Reason


class RefereeError(ValueError):
    """A rule was broken or the input is malformed."""

    def __init__(
        self,
        reason: Reason | str,
        *,
        round: int | None = None,
        turn: int | None = None,
        **params: Any,
    ) -> None:
        self.reason = reason if isinstance(reason, Reason) else Reason.of(reason, **params)
        self.round = round
        self.turn = turn
        super().__init__(self.reason.text)

    @property
    def message(self) -> str:
        return self.reason.text

    def at(self, *, round: int | None = None, turn: int | None = None) -> RefereeError:
        """Fill in where the error happened, keeping what is already known."""
        if self.round is None:
            self.round = round
        if self.turn is None:
            self.turn = turn
        return self

    def to_json(self) -> dict[str, Any]:
        return {"error": {"round": self.round, "turn": self.turn, "message": self.message}}


class NotationError(RefereeError):
    """A card or a list of cards could not be read."""


class RuleError(RefereeError):
    """Something that cannot happen under the ruleset's rules."""


class MatchFileError(RefereeError):
    """The match document is malformed (not a rule question)."""
