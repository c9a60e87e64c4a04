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
from dataclasses import dataclass, fields
from typing import Any, TypeVar

LACKING = ""  # a key the round does not give, as a template shows it

T = TypeVar("T")


def _is_object(value: Any) -> bool:
    """Whether a value is a JSON object, as Jinja's ``mapping`` test says (a dict first: the
    abstract class's check is slower)."""
    return isinstance(value, (dict, Mapping))


def _reader(kind: type[T], **inner: Callable[[Any], Any]) -> Callable[[Mapping[str, Any]], T]:
    """How a stored object becomes a ``kind``: each field from the key of its name
    (:data:`LACKING` when missing), read again by ``inner[name]`` where one is given."""
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    again = [(at, inner[name]) for at, name in enumerate(names) if name in inner]

    def read(found: Mapping[str, Any]) -> T:
        get = found.get
        values = [get(name, LACKING) for name in names]
        for at, read_again in again:
            values[at] = read_again(values[at])
        return kind(*values)

    return read


def _each(read: Callable[[Mapping[str, Any]], Any]) -> Callable[[Any], Any]:
    """``read`` applied to every object of a list (anything else kept as it is)."""
    return lambda items: (
        [read(item) if _is_object(item) else item for item in items]
        if isinstance(items, list)
        else items
    )


def _one(read: Callable[[Mapping[str, Any]], Any]) -> Callable[[Any], Any]:
    """``read`` applied to an object (anything else kept as it is)."""
    return lambda value: read(value) if _is_object(value) else value


@dataclass(slots=True)
class Buy:
    player: Any
    card: Any


@dataclass(slots=True)
class Layoff:
    cards: Any
    onto: Any


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


@dataclass(slots=True)
class TableMeld:
    """A meld of a round entered by its final table: who put it down, its cards, and the
    cards each player laid off onto it (``{name: cards}``)."""

    by: Any
    cards: Any
    layoffs: Any


@dataclass(slots=True)
class Entered:
    turns: Any
    table: Any
    hands: Any
    melds: Any


_read_turn = _reader(Turn, buy=_one(_reader(Buy)), layoffs=_each(_reader(Layoff)))
_read_entered = _reader(Entered, turns=_each(_read_turn), table=_each(_reader(TableMeld)))


def entered(entry: Any) -> Any:
    """A stored round object as an :class:`Entered` (anything else as it is)."""
    return _one(_read_entered)(entry)
