"""Three-way merge of what two phones did to the same thing (a round's form, a setting).

``base`` is the form as this phone loaded it, ``mine`` as this phone typed it,
``theirs`` the thing as it is now, after the other phone's save.  A field only
this phone changed takes this phone's value; a field only the other phone
changed keeps theirs; a field both changed to the same value takes it; a field
both changed to different values is a :class:`Contest`, which a person settles
(never taken silently from either side).  Nothing this phone did not change can
revert the other phone's work.

Pure: values are compared as given, except that ``None`` and ``""`` (an empty box
and an absent one) are the same.  The names are whatever the caller uses as keys
(form field names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def same(one: Any, other: Any) -> bool:
    return _plain(one) == _plain(other)


def _plain(value: Any) -> Any:
    return "" if value is None else value


@dataclass(frozen=True)
class Contest:
    """A field both phones changed, differently: this phone's value and theirs."""

    name: str
    base: Any
    mine: Any
    theirs: Any


@dataclass(frozen=True)
class Merge:
    """The merged values (every field but the contested ones), and who changed what."""

    values: dict[str, Any]
    mine_changed: tuple[str, ...]
    theirs_changed: tuple[str, ...]
    contests: dict[str, Contest] = field(default_factory=dict)

    def settled(self, picks: Mapping[str, str]) -> dict[str, Any] | None:
        """The values with each contest settled by ``picks`` ("mine" or "theirs" by name);
        None while a contest is not settled."""
        values = dict(self.values)
        for name, contest in self.contests.items():
            pick = picks.get(name)
            if pick == "mine":
                values[name] = contest.mine
            elif pick == "theirs":
                values[name] = contest.theirs
            else:
                return None
        return values


def merge(
    base: Mapping[str, Any] | None, mine: Mapping[str, Any], theirs: Mapping[str, Any]
) -> Merge:
    """Apply this phone's changes (``base`` → ``mine``) onto ``theirs``.

    With no ``base`` (a form that does not say what it was loaded from), nothing is
    known about who changed what: every field where ``mine`` and ``theirs`` differ is
    a contest.
    """
    values: dict[str, Any] = {}
    mine_changed: list[str] = []
    theirs_changed: list[str] = []
    contests: dict[str, Contest] = {}
    for name in _names(base or {}, mine, theirs):
        my_value, their_value = mine.get(name), theirs.get(name)
        if base is None:
            mine_moved = their_moved = not same(my_value, their_value)
            was = None
        else:
            was = base.get(name)
            mine_moved, their_moved = not same(was, my_value), not same(was, their_value)
        if mine_moved:
            mine_changed.append(name)
        if their_moved:
            theirs_changed.append(name)
        if mine_moved and their_moved and not same(my_value, their_value):
            contests[name] = Contest(name, was, my_value, their_value)
        elif mine_moved:
            values[name] = my_value
        else:
            values[name] = their_value
    return Merge(values, tuple(mine_changed), tuple(theirs_changed), contests)


def _names(*mappings: Mapping[str, Any]) -> list[str]:
    """Every key of the mappings, once, in the order first seen."""
    return list(dict.fromkeys(name for mapping in mappings for name in mapping))
