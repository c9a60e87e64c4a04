"""Words for what the engine reports: round outcomes, ruleset names and descriptions, translated.

The English texts are the engine's (``Ruleset.name``, ``OUTCOME_LABELS``: ``define_text``);
the catalogue extracts them from there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee.match import RoundResult
from referee.messages import Reason
from referee.rulesets import RULESETS, Ruleset
from referee.rulesets.base import OUTCOME_LABELS
from referee.scoring import Outcome
from referee.web.show.i18n import reason_text


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
    """The outcome in words, as the ruleset names it (``closed`` where a closing card closes)."""
    ruleset = RULESETS.get(rules) if isinstance(rules, str) else rules
    key = (
        outcome_key(result)
        if ruleset is None
        else ruleset.outcome_key(result.outcome, result.at_once)
    )
    label = OUTCOME_LABELS.get(key)
    if label is None:
        return key
    factor = ruleset.at_once_factor if ruleset is not None else 2
    return gettext(label, factor=factor)


def outcome_labels(rules: Ruleset | str | None = None) -> Callable[[RoundResult], str]:
    """:func:`outcome_label` for the rounds of one match: each outcome translated once."""
    known: dict[tuple[Outcome, bool], str] = {}

    def label(result: RoundResult) -> str:
        key = (result.outcome, result.at_once)
        if key not in known:
            known[key] = outcome_label(result, rules)
        return known[key]

    return label


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


def contract_label(rules: Ruleset | None) -> str:
    """The contract of a round's deal in words ("Deal 5: two sets and a run"), translated;
    "" for a ruleset without contracts."""
    if rules is None or rules.contract is None:
        return ""
    return gettext(rules.contract.label)


def contract_words(rules: Ruleset | None) -> str:
    """The contract of a round's deal in a few words ("two sets and a run"), translated."""
    if rules is None or rules.contract is None:
        return ""
    return reason_text(Reason.of(rules.contract.words))


def signed(number: int) -> str:
    """A score with its sign: +54, −12 (a true minus sign), 0."""
    if number > 0:
        return f"+{number}"
    return f"\u2212{-number}" if number < 0 else "0"


def deal_contracts(rules: Ruleset) -> list[tuple[str, int]]:
    """Every deal's contract in words and the cards dealt to each player in it, in order
    (empty for a ruleset without contracts)."""
    if not rules.changes_by_deal or rules.hands is None:
        return []
    deals = [rules.for_deal(number) for number in range(1, rules.hands + 1)]
    return [(contract_label(deal), max(deal.deal_sizes.values())) for deal in deals]


def player_ranges(by_players: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """A number that depends on the players (decks, cards dealt) as ranges of players with the
    same number: ``{2: 1, 3: 1, 4: 1, 5: 2}`` is ``[(2, 4, 1), (5, 5, 2)]``."""
    ranges: list[tuple[int, int, int]] = []
    for players in sorted(by_players):
        value = by_players[players]
        if ranges and ranges[-1][2] == value and ranges[-1][1] == players - 1:
            ranges[-1] = (ranges[-1][0], players, value)
        else:
            ranges.append((players, players, value))
    return ranges
