"""A ruleset's options as form fields, made from its declaration (``Ruleset.option_table``).

Each declared option becomes one field: a number with its range, a switch, or a
choice, labelled and explained with the engine's texts (translated through the
catalogue).  The form only reads what was chosen; whether the options go together
is the engine's to say (``Ruleset.check_options``).  The match goal (``target``,
``hands``) keeps the setup's own fieldset, so it is left out here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from markupsafe import escape
from wtforms import BooleanField, HiddenField, SelectField
from wtforms.validators import NumberRange, Optional

from referee.rulesets import Ruleset
from referee.rulesets.options import Option, OptionType, holds
from referee.web.forms.fields import NumberField, choices
from referee.web.show.houserules import value_words

# The options the setup's "target score" fieldset asks for.
GOAL_OPTIONS = ("target", "hands")
NUMBER_MESSAGE = _l("Enter a number from %(min)s to %(max)s.")


def declared_options(rules: Ruleset) -> list[Option]:
    """The ruleset's options in the order it declares them."""
    table = rules.option_table
    return list(table.values() if isinstance(table, Mapping) else table)


def asked_options(rules: Ruleset, goal: bool = False) -> list[Option]:
    """The options a form asks for: besides the match goal (a match setup asks it in its
    own fieldset), or every one (``goal``: a saved set of house rules)."""
    return [option for option in declared_options(rules) if goal or option.name not in GOAL_OPTIONS]


def choice_value(value: Any) -> str:
    """A choice as a form sends it ("" for "none": a ruleset's default by the players)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_field(option: Option) -> Any:
    """The field that asks one option (shown only while the options it needs are chosen:
    ``data-requires``; showing the default those chosen give it: ``data-default-when``,
    app.js)."""
    label = _l(option.label)
    explanation = _l(option.explanation) if option.explanation else ""
    shown_when: dict[str, str] = (
        {"data-requires": json.dumps({k: choice_value(v) for k, v in option.requires.items()})}
        if option.requires
        else {}
    )
    if _follows_a_condition(option):
        shown_when["data-default"] = choice_value(option.default)
        shown_when["data-default-when"] = json.dumps(
            [
                [{k: choice_value(v) for k, v in condition.items()}, choice_value(default)]
                for condition, default in option.default_when
            ]
        )
    if option.type is OptionType.NUMBER:
        low, high = option.minimum, option.maximum
        return NumberField(
            label,
            validators=[Optional(), NumberRange(low, high, NUMBER_MESSAGE)],
            default=option.default,
            description=explanation,
            render_kw={"inputmode": "numeric", "min": low, "max": high, **shown_when},
        )
    if option.type is OptionType.SWITCH:
        return BooleanField(
            label, default=bool(option.default), description=explanation, render_kw=shown_when
        )
    return SelectField(
        label,
        choices=choices(
            [(choice_value(value), _ChoiceLabel(value)) for value in option.choices or ()]
        ),
        default=choice_value(option.default),
        description=explanation,
        render_kw=shown_when,
    )


class _ChoiceLabel:
    """A choice's words, translated when the page is rendered (the field is made once)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return value_words(self.value)

    def __html__(self) -> str:
        return str(escape(str(self)))


def add_option_fields(form_class: Any, rules: Ruleset, goal: bool = False) -> None:
    for option in asked_options(rules, goal):
        setattr(form_class, option.name, option_field(option))
    following = [option for option in asked_options(rules, goal) if _follows_a_condition(option)]
    if following:
        form_class.defaults_shown = HiddenField(default=_shown(following, {}))


def _follows_a_condition(option: Option) -> bool:
    """Whether the form shows the option's default as the other options make it (the match
    goal is asked in a fieldset of its own and keeps what it says)."""
    return bool(option.default_when) and option.name not in GOAL_OPTIONS


def _shown(following: Iterable[Option], options: Mapping[str, Any]) -> str:
    """The defaults a form shows, by option, given ``options`` (posted back with the form:
    ``defaults_shown``, which app.js keeps up to date as it changes them)."""
    return json.dumps(
        {option.name: choice_value(option.default_for(options)) for option in following}
    )


def _defaults_shown(form: Any) -> dict[str, str]:
    """The defaults the posted form showed, by option (none readable: none)."""
    field = getattr(form, "defaults_shown", None)
    try:
        shown = json.loads(field.data) if field is not None and field.data else {}
    except ValueError:
        return {}
    if not isinstance(shown, dict):
        return {}
    return {str(name): str(value) for name, value in shown.items()}


def option_fields(form: Any, rules: Ruleset, goal: bool = False) -> tuple[list[Any], list[Any]]:
    """The form's option fields: the usual ones, then the rest ("More house rules")."""
    usual: list[Any] = []
    more: list[Any] = []
    for option in asked_options(rules, goal):
        field = getattr(form, option.name, None)
        if field is not None:
            (usual if option.usual else more).append(field)
    return usual, more


def field_value(option: Option, field: Any) -> Any:
    """What the field says of its option (None: left empty)."""
    if option.type is OptionType.NUMBER:
        return field.data
    if option.type is OptionType.SWITCH:
        return bool(field.data)
    for value in option.choices or ():
        if choice_value(value) == field.data:
            return value
    return field.data  # not one of the choices: the field's own check refuses it


def chosen_options(form: Any, rules: Ruleset, goal: bool = False) -> dict[str, Any]:
    """The options chosen on the form that differ from what the rules say without them.

    A field left at its default says nothing: with the Oklahoma switch on, a knock limit
    left at the standard 10 is not a knock limit asked for (which Oklahoma would refuse);
    one changed is, and the engine's refusal is shown next to it.
    """
    every = {
        option.name: field_value(option, getattr(form, option.name))
        for option in asked_options(rules, goal)
        if getattr(form, option.name, None) is not None
    }
    every = {name: value for name, value in every.items() if value is not None}
    shown = _defaults_shown(form)
    # A field of an option that needs another one off (Oklahoma's spades rule without
    # Oklahoma) says nothing: an unticked box is all a form can send for it.
    return {
        name: value
        for name, value in every.items()
        if value != rules.declared(name).default_for(every)
        and holds(rules.declared(name).requires, every)
        and not _left_as_shown(rules.declared(name), value, shown)
    }


def _left_as_shown(option: Option, value: Any, shown: Mapping[str, str]) -> bool:
    """A field still at the default the form showed, of an option whose default another
    option changes, says nothing: chosen after the form was shown (gin's Hollywood scoring
    on a page without JavaScript), the other option's default applies.  A value changed
    from the one shown is a choice, kept even where it is the plain default."""
    if not _follows_a_condition(option):
        return False
    return choice_value(value) == shown.get(option.name, choice_value(option.default))


def fill_options(form: Any, rules: Ruleset, options: Mapping[str, Any], goal: bool = False) -> None:
    """Show ``options`` on the form (a preset, a saved set, a match set up again), each
    default as the other options make it."""
    following = [option for option in asked_options(rules, goal) if _follows_a_condition(option)]
    if following:
        form.defaults_shown.data = _shown(following, options)
    for option in asked_options(rules, goal):
        field = getattr(form, option.name, None)
        if field is None:
            continue
        value = options.get(option.name, option.default_for(options))
        field.raw_data = None  # what was posted would be shown instead of the value
        if option.type is OptionType.CHOICE:
            field.data = choice_value(value)
        elif option.type is OptionType.SWITCH:
            field.data = bool(value)
        else:
            field.data = value


def refused_option(
    form: Any, rules: Ruleset, names: Iterable[str], message: str, goal: bool = False
) -> bool:
    """Put an option's refusal next to its field when the message names one of the form's
    options; False if it names none."""
    asked = {option.name for option in asked_options(rules, goal)}
    for name in names:
        field = getattr(form, name, None) if name in asked else None
        if field is not None:
            field.errors = [*field.errors, message]
            return True
    return False


def house_rules_form_class(rules: Ruleset) -> type[Any]:
    """A table's named set of house rules for one ruleset: its name and every option."""
    from wtforms import HiddenField, StringField
    from wtforms.validators import DataRequired, Length

    from referee.web.forms.base import OneTimeForm
    from referee.web.play.limits import NAME_MAX
    from referee.web.play.names import clean_name

    class HouseRulesForm(OneTimeForm):
        version = HiddenField()  # the set as it was when the form was opened
        name = StringField(
            _l("Name of these house rules"),
            filters=[clean_name],
            validators=[
                DataRequired(_l("Give these house rules a name.")),
                Length(max=NAME_MAX, message=_l("At most %(max)d letters, please.")),
            ],
            render_kw={"placeholder": _l("Grandma's rules")},
        )

    add_option_fields(HouseRulesForm, rules, goal=True)
    return HouseRulesForm
