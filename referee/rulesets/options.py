"""House rules as data: the options a ruleset declares, its presets and its per-round inputs.

A ruleset lists its options in ``option_table`` (see :class:`Option`): name, type, range or
choices, default, translatable label, one-line explanation and summary, which other options
it needs (``requires``) or refuses (``excludes``), and how it changes the ruleset
(``apply``).  :class:`~referee.rulesets.base.Ruleset` validates a match's options against
that table (:meth:`~referee.rulesets.base.Ruleset.check_options`) and applies them
(:meth:`~referee.rulesets.base.Ruleset.with_options`); forms, API schemas, the match file
and the rules pages read the same table, so an option is declared once.

A :class:`RoundInput` is a question a round asks besides its ending and hands (gin's
Oklahoma ``upcard``): the match file reads and writes it by its ``name`` and ``type``.

``python -m referee.rulesets markdown`` prints the table of house rules in docs/house-rules.md,
generated from the declarations (:func:`markdown_table`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from referee.messages import define_text

if TYPE_CHECKING:
    from referee.rulesets.base import Ruleset

NOTHING: Mapping[str, Any] = MappingProxyType({})


class OptionType(enum.Enum):
    """What values an option takes."""

    NUMBER = "number"  # a whole number from ``minimum`` to ``maximum`` (never true/false)
    SWITCH = "switch"  # true or false
    CHOICE = "choice"  # one of ``choices`` (the default first)


OptionEffect = Callable[["Ruleset", Any], "Ruleset"]


def _unchanged(rules: Ruleset, value: Any) -> Ruleset:
    return rules


@dataclass(frozen=True)
class Option:
    """One house rule of a ruleset.

    ``label``, ``explanation`` and ``summary`` are English display texts registered with
    :func:`~referee.messages.define_text` (the web layer translates them); ``summary`` says
    the option's effect when it differs from the standard rules, with ``{value}`` for its
    value ("Gin pays {value}").  ``usual`` options are shown first in a match setup.

    ``requires``: the option applies only when the other options have these values
    (``spades_double`` requires ``{"oklahoma": True}``); ``excludes``: it is refused when
    they have these values (gin's ``knock_limit`` excludes ``{"oklahoma": True}``).
    ``default_when`` holds defaults that depend on other options, as (condition, default)
    pairs, the first whose condition holds winning (gin's target is 150 with Oklahoma).
    ``at_most`` names another number option this one may not exceed (Indian rummy's first
    drop is at most its middle drop); ``most_players`` gives, by value, the most players a
    match with that value is for (one deck of Indian rummy: 2).  Both are checked with the
    other rules of options (:meth:`~referee.rulesets.base.Ruleset.check_options`,
    :meth:`~referee.rulesets.base.Ruleset.verify_players`), never in ``apply``.
    ``apply`` gives the ruleset with the option's value in force; it only sets what it
    changes (never adds to it, never refuses), so that applying the options again gives the
    same ruleset.
    """

    name: str
    type: OptionType
    default: Any
    label: str
    explanation: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    usual: bool = False
    requires: Mapping[str, Any] = field(default_factory=lambda: NOTHING)
    excludes: Mapping[str, Any] = field(default_factory=lambda: NOTHING)
    summary: str = ""
    default_when: tuple[tuple[Mapping[str, Any], Any], ...] = ()
    text_key: str = ""  # the texts' keys start with it (see :func:`option`), if registered
    at_most: str = ""
    most_players: Mapping[Any, int] = field(default_factory=lambda: NOTHING)
    apply: OptionEffect = field(default=_unchanged, compare=False, repr=False)

    def default_for(self, options: Mapping[str, Any]) -> Any:
        """The default given the other options' values (those in force).

        >>> from referee.rulesets import find_ruleset
        >>> target = find_ruleset('gin').declared('target')
        >>> target.default_for({}), target.default_for({'oklahoma': True})
        (100, 150)
        """
        for condition, default in self.default_when:
            if holds(condition, options):
                return default
        return self.default

    def applies(self, options: Mapping[str, Any]) -> bool:
        """Whether the option applies with the other options in force (``requires`` met,
        ``excludes`` not)."""
        return holds(self.requires, options) and not (
            self.excludes and holds(self.excludes, options)
        )

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is of this option's type and within its range or choices."""
        if value is None:
            return self.default is None
        if self.type is OptionType.SWITCH:
            return isinstance(value, bool)
        if self.type is OptionType.NUMBER:
            return (
                is_whole_number(value)
                and (self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum)
            )
        return any(same_value(value, choice) for choice in self.choices)

    def accepts_as_played(self, value: Any) -> bool:
        """Whether a match stored before the option ranges existed may keep ``value`` (see
        :meth:`~referee.rulesets.base.Ruleset.check_options`): a number option out of its
        range, as the engine took it then, a whole number from 1 (from the least of the
        range when that is lower).  Nothing else is read more leniently.

        >>> from referee.rulesets import find_ruleset
        >>> target = find_ruleset('remi').declared('target')
        >>> target.accepts(20), target.accepts_as_played(20), target.accepts_as_played(0)
        (False, True, False)
        """
        if self.type is not OptionType.NUMBER or not is_whole_number(value):
            return False
        lowest = 1 if self.minimum is None else min(self.minimum, 1)
        return bool(value >= lowest)

    def describe(self, value: Any) -> str:
        """The option's effect at ``value`` in English (its summary with the value)."""
        return self.summary.format(value=show_value(value)) if self.summary else self.label


@dataclass(frozen=True)
class Preset:
    """A named set of house rules a match setup offers (``standard`` is ``{}``)."""

    key: str
    label: str
    options: Mapping[str, Any] = field(default_factory=lambda: NOTHING)


@dataclass(frozen=True)
class RoundInput:
    """A question a round asks besides its ending and hands, recorded in the round of the
    match file under ``name``.

    ``type`` says how it is written (``"card"``: one card, like ``"5S"``).  It is asked
    when the match's options have the ``required_when`` values, and then required in every
    round whose ending is not one of ``optional_for`` (the match file's ``"end"`` values).
    """

    name: str
    type: str
    label: str
    explanation: str
    required_when: Mapping[str, Any] = field(default_factory=lambda: NOTHING)
    optional_for: tuple[str, ...] = ("draw", "void")

    def asked(self, options: Mapping[str, Any]) -> bool:
        return holds(self.required_when, options)


def is_whole_number(value: Any) -> bool:
    """An ``int`` that is not a ``bool`` (``True`` is no number in a match file)."""
    return isinstance(value, int) and not isinstance(value, bool)


def same_value(value: Any, choice: Any) -> bool:
    """Equal and of the same kind: ``True`` is not the choice ``1``."""
    return type(value) is type(choice) and value == choice


@dataclass(frozen=True)
class OneOf:
    """A condition's value met by any of ``values`` (``rejoin`` applies in either pool)."""

    values: tuple[Any, ...]

    def __str__(self) -> str:
        return " or ".join(show_value(value) for value in self.values)


def one_of(*values: Any) -> OneOf:
    return OneOf(values)


def meets(value: Any, wanted: Any) -> bool:
    """Whether an option's ``value`` is the ``wanted`` one of a condition (or one of them)."""
    if isinstance(wanted, OneOf):
        return any(same_value(value, choice) for choice in wanted.values)
    return same_value(value, wanted)


def holds(condition: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
    """Whether every option named in ``condition`` has that value in ``options``."""
    return all(name in options and meets(options[name], value) for name, value in condition.items())


def show_value(value: Any) -> str:
    """A value as the match file writes it: ``true``, ``null``, ``5-10-15``, ``20``."""
    if value is None:
        return "null"
    if isinstance(value, OneOf):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option(
    rules_id: str,
    name: str,
    type: OptionType,
    default: Any,
    *,
    label: str,
    explanation: str,
    summary: str = "",
    **more: Any,
) -> Option:
    """An :class:`Option` whose texts are registered for translation under
    ``option.<rules_id>.<name>.*``."""
    key = f"option.{rules_id}.{name}"
    return Option(
        name,
        type,
        default,
        define_text(f"{key}.label", label),
        define_text(f"{key}.explanation", explanation),
        summary=define_text(f"{key}.summary", summary) if summary else "",
        text_key=key,
        **more,
    )


def preset(rules_id: str, key: str, label: str, options: Mapping[str, Any]) -> Preset:
    """A :class:`Preset` whose label is registered for translation."""
    return Preset(
        key, define_text(f"preset.{rules_id}.{key}", label), MappingProxyType(dict(options))
    )


STANDARD = Preset("standard", define_text("preset.standard", "Standard rules"))


def bonus_option(
    rules_id: str, name: str, bonus: str, default: int, maximum: int, **more: Any
) -> Option:
    """A number from 0 that sets one of the ruleset's :class:`Bonuses` (``bonus``)."""
    from dataclasses import replace

    return option(
        rules_id,
        name,
        OptionType.NUMBER,
        default,
        minimum=0,
        maximum=maximum,
        apply=lambda rules, value: replace(rules, bonuses=replace(rules.bonuses, **{bonus: value})),
        **more,
    )


def target_option(rules_id: str, default: int, minimum: int, maximum: int, **more: Any) -> Option:
    """The match's target, as every ruleset that plays to one declares it."""
    from dataclasses import replace

    return option(
        rules_id,
        "target",
        OptionType.NUMBER,
        default,
        label=define_text("option.target.label", "Target"),
        explanation=define_text(
            "option.target.explanation", "The first to reach this total ends the match."
        ),
        summary=define_text("option.target.summary", "The match is played to {value}"),
        minimum=minimum,
        maximum=maximum,
        usual=True,
        apply=lambda rules, value: replace(rules, target=value),
        **more,
    )


# -- the table of docs/house-rules.md --------------------------------------------------------


def _values_column(declared: Option) -> str:
    conditional = "".join(
        f" ({show_value(default)} with {_condition(condition)})"
        for condition, default in declared.default_when
    )
    default = f"{_code(declared.default)}{conditional}"
    if declared.type is OptionType.CHOICE:
        others = [_code(choice) for choice in declared.choices if choice != declared.default]
        return ", ".join([default, *others])
    if declared.type is OptionType.SWITCH:
        return f"{default}, {_code(not declared.default)}"
    return f"{default}; {declared.minimum}-{declared.maximum}"


def _code(value: Any) -> str:
    return f"`{show_value(value)}`"


def _condition(condition: Mapping[str, Any]) -> str:
    return " and ".join(f"`{name}` {show_value(value)}" for name, value in condition.items())


def _limits(declared: Option) -> list[str]:
    limits = [f"at most `{declared.at_most}`"] if declared.at_most else []
    limits += [
        f"{_code(value)} for at most {most} players"
        for value, most in declared.most_players.items()
    ]
    return limits


def _applies_column(declared: Option) -> str:
    parts = []
    if declared.requires:
        parts.append(f"only with {_condition(declared.requires)}")
    if declared.excludes:
        parts.append(f"refused with {_condition(declared.excludes)}")
    return "; ".join(parts + _limits(declared))


def markdown_table(rulesets: Sequence[Ruleset]) -> str:
    """The house rules of ``rulesets`` as a Markdown table (docs/house-rules.md), from the data."""
    lines = [
        "| ruleset | option | values (default first) | what it changes | applies |",
        "|---|---|---|---|---|",
    ]
    for rules in rulesets:
        for declared in rules.option_table:
            lines.append(
                f"| `{rules.id}` | `{declared.name}` | {_values_column(declared)} "
                f"| {declared.explanation} | {_applies_column(declared)} |"
            )
    return "\n".join(lines) + "\n"
