"""A round as entered (the stored round object), in the shape ``matches/_entry.html`` reads.

Jinja reads ``turn.discard`` on a dict by trying the attribute first, and pays for an
exception at every key: a long match played turn by turn reads thousands on its score sheet.
Here the keys of the round's objects become attributes once.  A key the round lacks is
``""``, which the template shows and tests as it does a missing key (nothing, false, no
items); a value that is not the object the template expects is kept as it is, for Jinja to
read as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

LACKING = ""  # a key the round does not give, as a template shows it

T = TypeVar("T")


def _is_object(value: Any) -> bool:
    """Whether a value is a JSON object, as Jinja's ``mapping`` test says (a dict first: the
    abstract class's check is slower)."""
    return isinstance(value, (dict, Mapping))


def _each(items: Any, make: Callable[[Mapping[str, Any]], T]) -> Any:
    """``make`` applied to every object of a list (anything else kept as it is)."""
    if not isinstance(items, list):
        return items
    return [make(item) if _is_object(item) else item for item in items]


def _object(value: Any, make: Callable[[Mapping[str, Any]], T]) -> Any:
    return make(value) if _is_object(value) else value


@dataclass(slots=True)
class Buy:
    player: Any
    card: Any

    @classmethod
    def of(cls, found: Mapping[str, Any]) -> Buy:
        return cls(found.get("player", LACKING), found.get("card", LACKING))


@dataclass(slots=True)
class Layoff:
    cards: Any
    onto: Any

    @classmethod
    def of(cls, found: Mapping[str, Any]) -> Layoff:
        return cls(found.get("cards", LACKING), found.get("onto", LACKING))


@dataclass(slots=True)
class Turn:
    player: Any
    buy: Any
    took_discard: Any
    melds: Any
    layoffs: Any
    played: Any
    table: Any
    discard: Any
    out: Any

    @classmethod
    def of(cls, found: Mapping[str, Any]) -> Turn:
        get = found.get
        return cls(
            player=get("player", LACKING),
            buy=_object(get("buy", LACKING), Buy.of),
            took_discard=get("took_discard", LACKING),
            melds=get("melds", LACKING),
            layoffs=_each(get("layoffs", LACKING), Layoff.of),
            played=get("played", LACKING),
            table=get("table", LACKING),
            discard=get("discard", LACKING),
            out=get("out", LACKING),
        )


@dataclass(slots=True)
class TableMeld:
    """A meld of a round entered by its final table: who put it down, its cards, and the
    cards each player laid off onto it (``{name: cards}``)."""

    by: Any
    cards: Any
    layoffs: Any

    @classmethod
    def of(cls, found: Mapping[str, Any]) -> TableMeld:
        return cls(
            found.get("by", LACKING), found.get("cards", LACKING), found.get("layoffs", LACKING)
        )


@dataclass(slots=True)
class Entered:
    turns: Any
    table: Any
    hands: Any
    melds: Any


def entered(entry: Any) -> Any:
    """A stored round object as an :class:`Entered` (anything else as it is)."""
    if not _is_object(entry):
        return entry
    return Entered(
        turns=_each(entry.get("turns", LACKING), Turn.of),
        table=_each(entry.get("table", LACKING), TableMeld.of),
        hands=entry.get("hands", LACKING),
        melds=entry.get("melds", LACKING),
    )
