"""Words for what the engine reports: round outcomes and ruleset descriptions, translated."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee.match import RoundResult
from referee.rulesets import RULESETS, Ruleset
from referee.scoring import Outcome
from referee.web.i18n import reason_text

# Every Outcome of the replay (and "at_once", an "out" that counts double), in words.
OUTCOMES = {
    "out": _l("went out"),
    "closed": _l("closed"),
    "at_once": _l("went out at once ×2"),
    "knock": _l("knock"),
    "gin": _l("gin"),
    "undercut": _l("undercut"),
    "blocked": _l("blocked"),
    "stock": _l("stock ran out"),
    "draw": _l("draw"),
    "void": _l("void"),
}

# The rulesets' one-line descriptions, listed here only so that pybabel extracts them: the
# page shows the engine's own text, translated (see description()).
DESCRIPTIONS = {
    "remi": _l(
        "Indonesian house Remi: lay off onto anyone's melds, the winner takes the "
        "losers' hands, x2 for going out all at once"
    ),
    "rummy": _l("Basic Rummy for 2-6 players, with the ace-high and must-discard variants"),
    "remi-indonesia": _l(
        "Everyone scores their own melds minus their hand; closing-card bonus x10"
    ),
    "manipulation": _l("Carousel: jokers, the whole table may be rearranged, knock at 5 or less"),
    "gin": _l("Two players, knock at 10 or less, gin and undercut bonus 25"),
}


# The rulesets' names (the engine's ``Ruleset.name``), listed for pybabel like DESCRIPTIONS.
NAMES = {
    "remi": _l("Remi"),
    "rummy": _l("Rummy"),
    "remi-indonesia": _l("Remi Indonesia"),
    "manipulation": _l("Manipulation Rummy"),
    "gin": _l("Gin Rummy"),
}


def ruleset_name(rules_id: str) -> str:
    """A ruleset's name (the engine's), translated; the id itself for an unknown ruleset."""
    rules = RULESETS.get(rules_id)
    return gettext(rules.name) if rules is not None else rules_id


def outcome_key(result: RoundResult) -> str:
    """The outcome's name in the replay output (``out``, ``knock`` ...), ``at_once`` for x2."""
    if result.outcome is Outcome.OUT and result.at_once:
        return "at_once"
    return result.outcome.value


def outcome_label(result: RoundResult, rules: Ruleset | str | None = None) -> str:
    """The outcome in words; in a game closed by a closing card (remi-indonesia) "closed"."""
    key = outcome_key(result)
    ruleset = RULESETS.get(rules) if isinstance(rules, str) else rules
    if key == "out" and ruleset is not None and ruleset.closing_card:
        key = "closed"
    return str(OUTCOMES.get(key, key))


def description(rules: Ruleset) -> str:
    return gettext(rules.description)


GIN_OUTCOMES = {"knock": _l("Knock"), "gin": _l("Gin"), "undercut": _l("Undercut")}


def gin_outcome(outcome: str) -> str:
    return str(GIN_OUTCOMES.get(outcome, outcome))


def gin_verdict(outcome: str, why: Any) -> tuple[str, str]:
    """A gin verdict as (label, explanation): the engine's reason without its leading outcome
    word when it repeats the label ("Knock — knock: ..." reads "Knock: ...")."""
    label = gin_outcome(outcome)
    text = reason_text(why)
    head, sep, rest = text.partition(": ")
    if sep and head.casefold() == label.casefold():
        return label, rest
    return label, text
