"""Words for what the engine reports: round outcomes and ruleset descriptions, translated."""

from __future__ import annotations

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee.match import RoundResult
from referee.rulesets import Ruleset
from referee.scoring import Outcome

# Every Outcome of the replay (and "at_once", an "out" that counts double), in words.
OUTCOMES = {
    "out": _l("went out"),
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


def outcome_key(result: RoundResult) -> str:
    """The outcome's name in the replay output (``out``, ``knock`` ...), ``at_once`` for x2."""
    if result.outcome is Outcome.OUT and result.at_once:
        return "at_once"
    return result.outcome.value


def outcome_label(result: RoundResult) -> str:
    key = outcome_key(result)
    return str(OUTCOMES.get(key, key))


def description(rules: Ruleset) -> str:
    return gettext(rules.description)


GIN_OUTCOMES = {"knock": _l("Knock"), "gin": _l("Gin"), "undercut": _l("Undercut")}


def gin_outcome(outcome: str) -> str:
    return str(GIN_OUTCOMES.get(outcome, outcome))
