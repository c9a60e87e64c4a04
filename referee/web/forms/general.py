"""The app's general forms: language, tables and players, match setup, tools, import.

Every form is a Flask-WTF form, so every POST carries a CSRF token.  Round
entry forms are in :mod:`referee.web.forms.rounds`.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    DataRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from referee.rulesets import RULESETS, Ruleset
from referee.web.forms.base import Form, OneTimeForm
from referee.web.forms.fields import (
    CardField,
    CardsField,
    MeldsField,
    NumberField,
    add_numbered,
    choices,
)
from referee.web.play.limits import (
    NAME_MAX,
    NAMES_TEXT_MAX,
    OPTION_LIMITS,
    OPTION_MESSAGES,
    TABLE_NAME_MAX,
)
from referee.web.play.names import clean_name, name_key
from referee.web.show.i18n import clip

# The values of the ``ace`` option (see Ruleset.with_options), as the forms offer them.
ACE_CHOICES = [("low", _l("low only (A-2-3)")), ("high-low", _l("low or high (Q-K-A)"))]

# Most cards a hand may have for the "what can I play" hint (the search grows with the hand).
HINT_MAX_CARDS = 30


def ruleset_choices() -> list[Any]:
    """The rulesets registered now (read when a form is made: one may be added later)."""
    return choices([(rules.id, _l(rules.name)) for rules in RULESETS.values()])


def goal_range(rules: Ruleset, name: str) -> tuple[int, int]:
    """The range the ruleset declares for a match goal (``target``, ``hands``), or the app's."""
    low, high = OPTION_LIMITS[name]
    if name in rules.options:
        option = rules.declared(name)
        low = option.minimum if option.minimum is not None else low
        high = option.maximum if option.maximum is not None else high
    return low, high


def rulesets_with_option(option: str) -> list[Ruleset]:
    return [rules for rules in RULESETS.values() if option in rules.options]


class ActionForm(Form):
    """A button that changes something: only the CSRF token."""


class LanguageForm(Form):
    lang = HiddenField()
    next = HiddenField()


class TableForm(OneTimeForm):
    name = StringField(
        _l("Name of the table"),
        filters=[clean_name],
        validators=[
            DataRequired(_l("Give the table a name.")),
            Length(max=TABLE_NAME_MAX, message=_l("At most %(max)d letters, please.")),
        ],
        render_kw={"placeholder": _l("Friday night at Budi's")},
    )


def split_names(text: str) -> list[str]:
    """The names written in the new-players box, each cleaned (see :mod:`referee.web.play.names`)."""
    return [name for name in map(clean_name, re.split(r"[\n,;]+", text or "")) if name]


class PlayersForm(OneTimeForm):
    names = TextAreaField(
        _l("New players"),
        validators=[
            DataRequired(_l("Write at least one name.")),
            Length(max=NAMES_TEXT_MAX, message=_l("At most %(max)d letters, please.")),
        ],
        render_kw={"rows": 2, "placeholder": _l("Budi, Siti, Andi")},
        description=_l("One name per line, or separated by commas."),
    )

    def validate_names(self, field: TextAreaField) -> None:
        names = split_names(field.data)
        if not names:
            raise ValidationError(_l("Write at least one name."))
        for name in names:
            if len(name) > NAME_MAX:
                raise ValidationError(
                    _l(
                        "%(name)s is too long: at most %(max)s letters.",
                        name=clip(name, 24),
                        max=NAME_MAX,
                    )
                )
        seen: set[str] = set()
        for name in names:
            if name_key(name) in seen:
                raise ValidationError(_l("%(name)s is written twice.", name=name))
            seen.add(name_key(name))


def refuse_names(names: list[str], existing: list[str]) -> str | None:
    """Why player names written elsewhere (an imported match file) cannot join a table, or None.

    A match file names each player the same way in every round, so a name is
    not cleaned on the way in: one that needs cleaning is refused, with the
    spelling to use instead.
    """
    seen: dict[str, str] = {}
    for name in names:
        clean = clean_name(name)
        if not clean or len(clean) > NAME_MAX:
            return gettext("Player names must be 1 to %(max)s letters long.", max=NAME_MAX)
        if clean != name:
            return gettext(
                "The name %(name)s has invisible or unusual characters: write it %(clean)s.",
                name=repr(name)[1:-1],
                clean=clean,
            )
        if name_key(name) in seen:
            return gettext("%(name)s is written twice.", name=name)
        seen[name_key(name)] = name
    spelled = {name_key(name): name for name in existing}
    for name in names:
        other = spelled.get(name_key(name))
        if other is not None and other != name:
            return gettext(
                "%(name)s is at this table already, written %(other)s: use the same spelling.",
                name=name,
                other=other,
            )
    return None


def _add_team_names(form_class: Any, rules: Ruleset) -> None:
    """A name for each team of a game played in teams, by the seats the engine gives it."""
    assert rules.sides is not None
    for index, team in enumerate(rules.sides.team_seats()):
        seats = ", ".join(str(seat + 1) for seat in team)
        name = StringField(
            _l("Team of seats %(seats)s", seats=seats),
            default=_l("Team %(number)s", number=index + 1),
            filters=[lambda value: value.strip() if isinstance(value, str) else value],
            render_kw={"maxlength": 40, "autocomplete": "off"},
        )
        setattr(form_class, f"team_{index}", name)


def setup_form_class(rules: Ruleset, players: list[str]) -> type[FlaskForm]:
    """The match setup form for one ruleset: seats, first dealer, target and options."""
    blank = [("", "—")]
    presets = rules.target_choices

    class SetupForm(OneTimeForm):
        known = set(players)
        # A ruleset with no target (indian: pools, deals, points) asks none.
        asks_target = "target" in rules.options
        match_version = HiddenField()  # a match being set up again: as it was then

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            return _match_goal_given(self) and valid

        first_dealer = SelectField(
            _l("First dealer"),
            choices=choices(
                [("random", _l("Draw at random"))] + [(name, name) for name in players]
            ),
            default="random",
        )

    add_numbered(
        SetupForm,
        "seat",
        rules.max_players,
        lambda i: SelectField(
            _l("Seat"),
            choices=choices(blank + [(name, name) for name in players]),
            validate_choice=False,
        ),
    )
    if rules.sides is not None:
        _add_team_names(SetupForm, rules)
    if "target" in rules.options:
        SetupForm.target = RadioField(
            _l("Target"),
            choices=choices(
                # a ruleset whose target is optional (Rummikub) may be played without one
                ([] if rules.target else [("", _l("None"))])
                + [(str(value), str(value)) for value in presets]
                + [("custom", _l("Other"))]
            ),
            default=str(rules.target) if rules.target else "",
        )
        SetupForm.custom_target = NumberField(
            _l("Other target"),
            validators=[
                Optional(),
                NumberRange(*goal_range(rules, "target"), OPTION_MESSAGES["target"]),
            ],
            render_kw={"inputmode": "numeric", "min": goal_range(rules, "target")[0]},
        )
    if "hands" in rules.options:
        SetupForm.end = RadioField(
            _l("The match ends"),
            choices=choices(
                [("target", _l("at the target")), ("hands", _l("after a number of rounds"))]
            ),
            default="target",
        )
        SetupForm.hands = NumberField(
            _l("Number of rounds"),
            validators=[
                Optional(),
                NumberRange(*goal_range(rules, "hands"), OPTION_MESSAGES["hands"]),
            ],
            render_kw={"inputmode": "numeric", "min": 1},
        )
    from referee.web.forms.options import add_option_fields

    add_option_fields(SetupForm, rules)
    return SetupForm


def _match_goal_given(form: Any) -> bool:
    """Whether the number of rounds, or the target typed, is there when the form asks for it."""
    if getattr(form, "end", None) is not None and form.end.data == "hands":
        if not form.hands.data and not form.hands.errors:
            form.hands.errors.append(_l("How many rounds?"))
        return bool(form.hands.data)
    if getattr(form, "target", None) is None:
        return True  # a fixed number of deals (contract)
    if form.custom_target.data or form.target.data == "custom":
        form.target.data = "custom"  # a typed target wins over the preset left selected
        if not form.custom_target.data and not form.custom_target.errors:
            form.custom_target.errors.append(_l("Enter the target score."))
        return bool(form.custom_target.data)
    return True


def setup_options(form: Any, rules: Ruleset) -> dict[str, Any]:
    """The match options a validated setup form asks for (the engine checks them)."""
    options: dict[str, Any] = {}
    if getattr(form, "end", None) is not None and form.end.data == "hands":
        options["hands"] = form.hands.data
    elif getattr(form, "target", None) is None:
        pass
    elif form.target.data == "custom":
        options["target"] = form.custom_target.data
    elif form.target.data:
        options["target"] = int(form.target.data)
    from referee.web.forms.options import chosen_options

    options.update(chosen_options(form, rules))
    return options


class CheckerForm(Form):
    rules = SelectField(_l("Ruleset"), default="remi")
    # A match's house rules (its options as JSON, and the ruleset they belong to), when the
    # checker was opened from the match.
    options = HiddenField()
    options_for = HiddenField()
    ace = SelectField(_l("Aces"), choices=choices(ACE_CHOICES), default="low")
    cards = CardsField(
        _l("Cards"),
        validators=[DataRequired(_l("Enter the cards to check."))],
        render_kw={"placeholder": "7S 8S 9S"},
    )
    meld = CardsField(
        _l("Meld on the table (to check a lay-off)"),
        render_kw={"placeholder": "4H 4D 4C"},
        description=_l("Leave empty to check the cards as a new meld."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The rulesets as registered now, not when this module was imported.
        self.rules.choices = ruleset_choices()
        self.ace.description = _l(
            "For %(rulesets)s only (a match option there); the other games ignore it.",
            rulesets=", ".join(gettext(rules.name) for rules in rulesets_with_option("ace")),
        )


class GinHandForm(Form):
    cards = CardsField(
        _l("Hand (10 or 11 cards)"),
        validators=[DataRequired(_l("Enter the hand."))],
        render_kw={"placeholder": "7S 8S 9S 7H 7D 2C 3C 4C KD QH"},
    )
    options = HiddenField()  # a match's house rules (JSON), when opened from the match


class IndianShowForm(Form):
    """Indian rummy: 13 cards (one group per line, or all on one line) and the cut joker."""

    groups = MeldsField(
        _l("Your 13 cards: one group per line, or all on one line"),
        validators=[DataRequired(_l("Enter the 13 cards."))],
        render_kw={"placeholder": "5S 6S 7C 8S\n9H 10H JH\n2D 2C 2H\nKD QD JD", "rows": 4},
    )
    cut = CardField(
        _l("Cut joker"),
        description=_l(
            "JK if a printed joker was cut (the aces are wild); empty: printed jokers only."
        ),
    )
    decks = SelectField(
        _l("Decks"),
        choices=choices([("2", _l("Two decks (3-6 players)")), ("1", _l("One deck (2 players)"))]),
        default="2",
    )


class PlayHintForm(Form):
    """manipulation: a player's hand, to see which of its cards can go on the table now."""

    hand = CardsField(
        _l("Your hand"),
        validators=[DataRequired(_l("Enter the cards in your hand."))],
        render_kw={"placeholder": "10S QD 6S JK"},
        max_cards=HINT_MAX_CARDS,  # counted before the cards are read
        too_many=_l("A hand of at most %(count)s cards, please.", count=HINT_MAX_CARDS),
    )


class ImportForm(OneTimeForm):
    file = FileField(_l("Match file (.json)"))
    document = TextAreaField(_l("…or paste the document"), render_kw={"rows": 6})
    copy = BooleanField(_l("Import it again as a copy"))
    printed = ""  # the fingerprint of the document read


class RoundJsonForm(Form):
    round_version = HiddenField()
    entry = TextAreaField(
        _l("The round as entered (JSON)"),
        validators=[DataRequired(_l("The round cannot be empty."))],
        render_kw={"rows": 14, "spellcheck": "false", "class": "mono"},
    )


__all__ = [
    "ACE_CHOICES",
    "ActionForm",
    "CheckerForm",
    "GinHandForm",
    "ImportForm",
    "LanguageForm",
    "NAME_MAX",
    "OPTION_LIMITS",
    "OPTION_MESSAGES",
    "PlayHintForm",
    "PlayersForm",
    "RoundJsonForm",
    "TableForm",
    "rulesets_with_option",
    "refuse_names",
    "setup_form_class",
    "setup_options",
    "split_names",
]


class RenameTableForm(Form):
    """A table's new name; ``was`` is the name the page showed (a rename meanwhile is a conflict)."""

    was = HiddenField()
    name = StringField(
        _l("New name of the table"),
        filters=[clean_name],
        validators=[
            DataRequired(_l("Give the table a name.")),
            Length(max=TABLE_NAME_MAX, message=_l("At most %(max)d letters, please.")),
        ],
    )


class RenamePlayerForm(Form):
    """A player's new name, everywhere (history included); ``was`` as for a table."""

    was = HiddenField()
    name = StringField(
        _l("New name"),
        filters=[clean_name],
        validators=[
            DataRequired(_l("Write the new name.")),
            Length(max=NAME_MAX, message=_l("At most %(max)d letters, please.")),
        ],
    )


class ReplaceLinkForm(OneTimeForm):
    """Replace one of the table's links: the one-time token sends a double tap to the new
    link (the old one answers nothing any more)."""


class ForgetTableForm(Form):
    """Remove a table from this browser's list (the table itself stays)."""

    key = HiddenField()
