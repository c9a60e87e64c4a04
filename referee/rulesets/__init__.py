"""The rulesets, found by id.

Each ruleset is one module of this package holding its :class:`Ruleset`
value as ``RULESET`` (data plus its hooks: how a round is scored, who deals
next, when the match ends).  The package finds the modules by itself, so
adding a sixth ruleset touches one new file (and its tests).  The shared
machinery is in :mod:`referee.rulesets.base`; the shared ways of scoring a
round are in :mod:`referee.scoring`.

Options from the match file (``target``, ``hands``, ``ace``,
``must_discard``) give a new value through :meth:`Ruleset.with_options`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from referee.cards import Card, Rank
from referee.errors import RuleError
from referee.messages import define_message
from referee.rulesets.base import (
    FACE_VALUES,
    AceOrder,
    MatchEnd,
    MatchProgress,
    Ruleset,
    TurnStyle,
    card_values,
)

UNKNOWN_RULESET = define_message(
    "rules.unknown", '"{rules}" is not a ruleset; choose one of {known}'
)

_SHARED_MODULES = {"base"}


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


RULESETS: dict[str, Ruleset] = _discover()


def find_ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset with this id, with ``options`` applied.

    >>> find_ruleset('rummy', {'ace': 'high-low'}).value(Card.parse('AS'))
    15
    """
    rules = RULESETS.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if rules is None:
        raise RuleError(UNKNOWN_RULESET, rules=ruleset_id, known=", ".join(RULESETS))
    return rules.with_options(options)


__all__ = [
    "FACE_VALUES",
    "RULESETS",
    "AceOrder",
    "Card",
    "MatchEnd",
    "MatchProgress",
    "Rank",
    "Ruleset",
    "TurnStyle",
    "card_values",
    "find_ruleset",
]
