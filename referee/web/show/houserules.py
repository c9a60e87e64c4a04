"""House rules in words: what a match's options change, and the numbers of the rules pages.

Everything comes from the ruleset's declaration (``referee.rulesets.options``): the
options that differ from the standard rules (``Ruleset.house_rules``) are said with
their summaries ("Gin pays 20"), translated through the catalogue; the rules pages take
their numbers from ``Ruleset.options_in_force``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee.errors import RefereeError
from referee.rulesets import RULESETS, Ruleset
from referee.rulesets.options import Option, OptionType, show_value
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match

# Words for the choices the rulesets declare (any other choice is shown as it is written).
CHOICE_WORDS = {
    "low": _l("low only (A-2-3)"),
    "high-low": _l("low or high (Q-K-A)"),
    "anyone": _l("onto anyone's melds"),
    "none": _l("none"),
    "standard": _l("standard"),
    "pool101": _l("pool 101"),
    "pool201": _l("pool 201"),
    "deals": _l("a set number of deals"),
    "points": _l("deals until the players stop"),
}


def value_words(value: Any) -> str:
    """An option's value in the page's language."""
    if value is None:
        return gettext("as the rules say")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, str) and value in CHOICE_WORDS:
        return str(CHOICE_WORDS[value])
    return show_value(value)


def option_words(option: Option, value: Any) -> str:
    """One house rule in words: its summary with the value ("Gin pays 20"), translated."""
    if option.summary:
        return gettext(option.summary).replace("{value}", value_words(value))
    if option.type is OptionType.SWITCH:
        return gettext(option.label) if value else f"{gettext(option.label)}: {value_words(value)}"
    return f"{gettext(option.label)}: {value_words(value)}"


def house_rules(rules_id: str, options: Mapping[str, Any] | None) -> list[str]:
    """Every option of a match that differs from the standard rules, in words (none for
    standard rules, an unknown ruleset or options the engine refuses)."""
    rules = RULESETS.get(rules_id)
    if rules is None:
        return []
    try:
        found = rules.house_rules(dict(options or {}))
    except RefereeError:
        return []
    return [option_words(option, value) for option, value in found]


def variant_key(rules: Ruleset, options: Mapping[str, Any] | None) -> str:
    """The house rules of a match as one text ("" for the standard rules): two matches
    played by the same rules have the same key, whatever options were written out."""
    try:
        found = rules.house_rules(dict(options or {}))
    except RefereeError:
        return ""
    if not found:
        return ""
    return json.dumps({option.name: value for option, value in found}, sort_keys=True)


def numbers(rules: Ruleset, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options in force, by name, for the rules pages (``{{ o.knock_limit }}``):
    the standard rules without ``options``."""
    try:
        return rules.options_in_force(dict(options or {}))
    except RefereeError:
        return rules.options_in_force({})


# -- history: which matches were played by which house rules ------------------------------

STANDARD = "standard"  # the statistics' filter value for matches played by the standard rules


@lru_cache(maxsize=1024)
def _variant_of(rules_id: str, _registered: int, options_json: str) -> str:
    return variant_key(RULESETS[rules_id], json.loads(options_json))


def variant_of(rules_id: str, options: Mapping[str, Any] | None) -> str | None:
    """A stored match's house rules as one text ("": standard; None: unknown ruleset).

    Many matches share their options: each set is worked out once per ruleset registered."""
    rules = RULESETS.get(rules_id)
    if rules is None:
        return None
    return _variant_of(rules_id, id(rules), json.dumps(dict(options or {}), sort_keys=True))


def matches_played_by(table: CardTable, choice: str | None) -> frozenset[int] | None:
    """The table's matches played by the standard rules (``choice`` "standard") or by one of
    its saved sets (its id): the same ruleset and the same house rules, whatever options
    were written out.  None: no such choice, every match."""
    if not choice:
        return None
    if choice == STANDARD:
        wanted: tuple[str | None, str | None] = (None, "")
    else:
        saved = next((s for s in table.house_rules if str(s.id) == choice), None)
        if saved is None:
            return None
        wanted = (saved.rules, variant_of(saved.rules, saved.options))
    rows = db.session.execute(
        sa.select(Match.id, Match.rules, Match.options).where(
            Match.table_id == table.id, Match.deleted_at.is_(None)
        )
    )
    return frozenset(
        row.id
        for row in rows
        if (wanted[0] is None or row.rules == wanted[0])
        and variant_of(row.rules, row.options) == wanted[1]
    )


def with_house_rules(match_ids: Iterable[int]) -> frozenset[int]:
    """Which of these matches were played with house rules (the match list's badge)."""
    ids = list(match_ids)
    if not ids:
        return frozenset()
    rows = db.session.execute(
        sa.select(Match.id, Match.rules, Match.options).where(Match.id.in_(ids))
    )
    return frozenset(row.id for row in rows if variant_of(row.rules, row.options))
