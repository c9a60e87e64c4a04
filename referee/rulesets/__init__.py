"""The rulesets, found by id.

Each ruleset is one module of this package holding its :class:`Ruleset`
value as ``RULESET`` (data plus its hooks: how a round is scored, who deals
next, when the match ends).  The package finds the modules by itself, so
adding a sixth ruleset touches one new file (and its tests).  It finds them the
first time the registry is asked (``RULESETS``, :func:`find_ruleset`), never on
import: the shared types (:mod:`referee.rulesets.base`) sit below the solvers
that the rulesets' hooks call, and importing them loads no ruleset.  The shared
machinery is in :mod:`referee.rulesets.base`; the shared ways of scoring a
round are in :mod:`referee.scoring`.

:func:`register_ruleset` adds a ruleset defined elsewhere (a test's toy game)
until :func:`unregister_ruleset`; :func:`registered_ruleset` does both around a
``with`` block.

Options from the match file (``target``, ``hands``, ``ace``,
``must_discard``) give a new value through :meth:`Ruleset.with_options`.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from referee.cards import Card, Rank
from referee.errors import RuleError
from referee.messages import define_message
from referee.rulesets.base import (
    BLOCKED,
    CLOSED,
    DRAW,
    FACE_VALUES,
    KNOCK,
    OUT,
    OUTCOME_LABELS,
    STOCK,
    VOID,
    AceOrder,
    AtOnce,
    Bonuses,
    Buying,
    Closing,
    Contract,
    Deadwood,
    DiscardPile,
    EndingChoice,
    FinalTable,
    FixedJokers,
    HandSize,
    Knock,
    MatchEnd,
    MatchProgress,
    Melding,
    Pool,
    Ranking,
    RoundForm,
    Ruleset,
    Runs,
    Sides,
    Stopping,
    TurnStyle,
    card_values,
)

UNKNOWN_RULESET = define_message(
    "rules.unknown", '"{rules}" is not a ruleset; choose one of {known}'
)

_SHARED_MODULES = {"base", "options"}


def _discover() -> dict[str, Ruleset]:
    found: list[Ruleset] = []
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name in _SHARED_MODULES or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        rules = getattr(module, "RULESET", None)
        if isinstance(rules, Ruleset):
            found.append(rules)
    found.sort(key=lambda rules: (rules.menu_order, rules.id))
    return {rules.id: rules for rules in found}


_REGISTRY: dict[str, Ruleset] = {}
_DISCOVERED = threading.Event()
_DISCOVERY_LOCK = threading.RLock()


def _registry() -> dict[str, Ruleset]:
    """Every ruleset by id, the package's own found the first time it is asked."""
    if not _DISCOVERED.is_set():
        with _DISCOVERY_LOCK:
            if not _DISCOVERED.is_set():
                _REGISTRY.update({**_discover(), **_REGISTRY})
                _sort_registry()
                _DISCOVERED.set()
    return _REGISTRY


def __getattr__(name: str) -> dict[str, Ruleset]:
    if name == "RULESETS":
        return _registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _sort_registry() -> None:
    ordered = sorted(_REGISTRY.values(), key=lambda rules: (rules.menu_order, rules.id))
    _REGISTRY.clear()
    _REGISTRY.update((rules.id, rules) for rules in ordered)


def register_ruleset(rules: Ruleset) -> Ruleset:
    """Add a ruleset defined outside this package (``ValueError`` if its id is taken)."""
    registry = _registry()
    if rules.id in registry:
        raise ValueError(f"a ruleset {rules.id!r} is already registered")
    registry[rules.id] = rules
    _sort_registry()
    return rules


def unregister_ruleset(ruleset_id: str) -> None:
    """Remove a ruleset added with :func:`register_ruleset`."""
    _registry().pop(ruleset_id, None)


@contextmanager
def registered_ruleset(rules: Ruleset) -> Iterator[Ruleset]:
    """The ruleset registered for the ``with`` block, and removed after it."""
    register_ruleset(rules)
    try:
        yield rules
    finally:
        unregister_ruleset(rules.id)


def find_ruleset(
    ruleset_id: str, options: Mapping[str, Any] | None = None, *, as_played: bool = False
) -> Ruleset:
    """The ruleset with this id, with ``options`` applied (``as_played``: those of a stored
    match, see :meth:`Ruleset.check_options`).

    >>> find_ruleset('rummy', {'ace': 'high-low'}).value(Card.parse('AS'))
    15
    """
    registry = _registry()
    rules = registry.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if rules is None:
        raise RuleError(UNKNOWN_RULESET, rules=ruleset_id, known=", ".join(registry))
    try:
        chosen = json.dumps(options, sort_keys=True) if options else ""
    except (TypeError, ValueError):  # not options a match file could hold: not worth keeping
        return rules.with_options(options, as_played=as_played)
    key = (ruleset_id, chosen, as_played)
    with _MADE_LOCK:
        made = _MADE.get(key)
    if made is not None and made[0] is rules:
        return made[1]
    applied = rules.with_options(options, as_played=as_played)
    with _MADE_LOCK:
        if len(_MADE) >= _MADE_AT_MOST:
            _MADE.clear()
        _MADE[key] = (rules, applied)
    return applied


# Rulesets with options applied, made once: a ruleset is a frozen value, and a save asks
# for the same one several times (checked against the registered one, which tests swap).
_MADE: dict[tuple[str, str, bool], tuple[Ruleset, Ruleset]] = {}
_MADE_AT_MOST = 512
_MADE_LOCK = threading.Lock()


__all__ = [
    "BLOCKED",
    "CLOSED",
    "DRAW",
    "FACE_VALUES",
    "KNOCK",
    "OUT",
    "OUTCOME_LABELS",
    "STOCK",
    "VOID",
    "AceOrder",
    "AtOnce",
    "Bonuses",
    "Buying",
    "Card",
    "Closing",
    "Contract",
    "Deadwood",
    "DiscardPile",
    "EndingChoice",
    "FinalTable",
    "FixedJokers",
    "HandSize",
    "Knock",
    "MatchEnd",
    "MatchProgress",
    "Melding",
    "Pool",
    "Ranking",
    "Sides",
    "Stopping",
    "Rank",
    "RoundForm",
    "Ruleset",
    "Runs",
    "TurnStyle",
    "card_values",
    "find_ruleset",
    "register_ruleset",
    "registered_ruleset",
    "unregister_ruleset",
]
