"""Round entry forms: the final table of ``referee-match/1`` per ruleset, and live turns.

A form only reads what was typed (cards in the notation, one meld per line)
and builds the round object of the match format; whether the round is
possible is decided by the engine when the match is replayed with it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectField

from referee.rulesets import Ruleset
from referee.rulesets.base import AT_ONCE_ASKED, EndingChoice, FinalTable, RoundForm
from referee.rulesets.options import RoundInput
from referee.scoring import Ending
from referee.web.forms.base import Form
from referee.web.forms.fields import (
    CardField,
    CardsField,
    HandField,
    LayoffsField,
    LiveHandField,
    MeldsField,
    add_numbered,
    cards_by_player,
    choices,
    hand_text,
    hands_by_player,
    numbered,
)
from referee.web.forms.finaltable import (
    TableRows,
    add_table_fields,
    fill_table,
    table_complete,
    table_entry,
)
from referee.web.store.writes import new_token


def _ending_choices(endings: tuple[EndingChoice, ...]) -> list[Any]:
    return choices([(choice.key, _l(choice.label)) for choice in endings])


def round_inputs(rules: Ruleset, options: Mapping[str, Any] | None) -> tuple[RoundInput, ...]:
    """The questions a round of a match with ``options`` asks besides its ending and hands
    (gin's Oklahoma upcard): declared by the ruleset, asked by every round form."""
    return rules.round_inputs_for(options or {}, as_played=True)  # a stored match, as played


def _input_field(asked: RoundInput) -> Any:
    """The field of one round input (``type`` "card": one card)."""
    description = _l(asked.explanation) if asked.explanation else ""
    return CardField(_l(asked.label), description=description)


def add_round_inputs(form_class: Any, inputs: tuple[RoundInput, ...]) -> None:
    for asked in inputs:
        setattr(form_class, asked.name, _input_field(asked))


def input_fields(form: Any, inputs: tuple[RoundInput, ...]) -> list[Any]:
    return [getattr(form, asked.name) for asked in inputs]


def inputs_given(form: Any, inputs: tuple[RoundInput, ...], ending: str | None) -> bool:
    """Whether every round input the round needs was given (the ending ``ending``, as the
    match file writes it, may make one optional: a draw needs no upcard)."""
    complete = True
    for asked in inputs:
        field = getattr(form, asked.name)
        if not field.card and ending not in asked.optional_for and not field.errors:
            field.errors.append(_l("%(question)s: this round needs it.", question=_l(asked.label)))
            complete = False
    return complete


def with_inputs(entry: dict[str, Any], form: Any, inputs: tuple[RoundInput, ...]) -> dict[str, Any]:
    """The round object with the round inputs given on the form, under their names."""
    for asked in inputs:
        card = getattr(form, asked.name).card
        if card:
            entry[asked.name] = card
    return entry


def fill_inputs(form: Any, inputs: tuple[RoundInput, ...], entry: Mapping[str, Any]) -> None:
    for asked in inputs:
        value = entry.get(asked.name)
        getattr(form, asked.name).data = value if isinstance(value, str) else ""


def quick_form_class(
    rules: Ruleset,
    players: list[str],
    inputs: tuple[RoundInput, ...] = (),
    table_rows: TableRows | None = None,
) -> type[FlaskForm]:
    """The form of a round entered as its final table: what the ruleset's round form asks,
    and the round inputs of the match's options (``table_rows``: how many meld and lay-off
    rows a final table shows).

    Made once for each shape (a form class costs as much to make as the form does to fill
    and check); its instances share nothing but it."""
    shape = rules.round_form
    rows = (table_rows or TableRows.default(rules, len(players))) if shape.table else None
    asked = rules.at_once.asked if rules.at_once is not None else AT_ONCE_ASKED
    at_once = (rules.at_once_factor, asked) if shape.at_once else None
    key = (shape, at_once, tuple(players), inputs_key(inputs), rows)
    return made_once(key, lambda: _quick_form_class(shape, at_once, list(players), inputs, rows))


FORM_CLASSES_KEPT = 512
_form_classes: dict[Hashable, type[FlaskForm]] = {}


def made_once(key: Hashable, make: Callable[[], type[FlaskForm]]) -> type[FlaskForm]:
    """The form class of ``key``, made by ``make`` the first time (a few hundred are kept:
    a table's seatings and rulesets; a class is immutable once made, shared by threads)."""
    found = _form_classes.get(key)
    if found is None:
        if len(_form_classes) >= FORM_CLASSES_KEPT:
            _form_classes.clear()
        found = _form_classes[key] = make()
    return found


def inputs_key(inputs: tuple[RoundInput, ...]) -> tuple[int, ...]:
    """Round inputs in a key: by identity (they are the ruleset's own declarations, and a
    class made with them keeps them alive, so no other takes their identity)."""
    return tuple(id(asked) for asked in inputs)


def _quick_form_class(
    shape: RoundForm,
    at_once: tuple[Any, str] | None,
    players: list[str],
    inputs: tuple[RoundInput, ...],
    table_rows: TableRows | None,
) -> type[FlaskForm]:
    people = choices([(name, name) for name in players])

    class QuickRoundForm(Form):
        ending = RadioField(
            _l("How did the round end?"),
            choices=_ending_choices(shape.endings),
            default=shape.endings[0].key,
        )
        # One tap on a name chip; none chosen for an ending that names nobody.
        player = RadioField(_l("Who?"), choices=people, validate_choice=False)
        for_round = HiddenField()  # the round the form was opened for
        # What the form was made from (see referee.web.store.writes)
        match_version = HiddenField()
        round_version = HiddenField()
        once = HiddenField(default=new_token)

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            chosen = ending_chosen(self, shape)
            ending = chosen.ending.value if chosen is not None else None
            given = inputs_given(self, inputs, ending)
            table = table_complete(self) if shape.table else True
            return _ending_complete(self, shape) and given and table and valid

    add_numbered(QuickRoundForm, "hand", len(players), lambda i: HandField(_l("Hand")))
    add_round_inputs(QuickRoundForm, inputs)

    if at_once is not None:
        factor, asked = at_once
        QuickRoundForm.at_once = BooleanField(_l(asked, factor=factor))
    if shape.closing_card:
        QuickRoundForm.closing_card = CardField(_l("Closing card"))
    if shape.player_melds:
        add_numbered(QuickRoundForm, "melds", len(players), lambda i: MeldsField(_l("Melds laid")))
    if table_rows is not None:
        add_table_fields(QuickRoundForm, players, table_rows)
    if shape.knocker_melds:
        QuickRoundForm.knocker_melds = MeldsField(
            _l("The knocker's melds as spread (optional)"),
            description=_l("Leave empty to let the referee find the best arrangement."),
        )
    return QuickRoundForm


def ending_chosen(form: Any, shape: RoundForm) -> EndingChoice | None:
    """The ending the form's answer names (None for an answer the form does not offer)."""
    try:
        return shape.choice(form.ending.data or "")
    except KeyError:
        return None


def _ending_complete(form: Any, shape: RoundForm) -> bool:
    """Whether the form names who ended the round, and the closing card, where it must."""
    choice = ending_chosen(form, shape)
    if choice is None:  # the ending field says what is wrong
        return True
    if choice.names is not None and choice.who and not form.player.data:
        form.player.errors.append(_l(choice.who))
        return False
    if shape.closing_card and choice.ending is Ending.OUT and not form.closing_card.card:
        form.closing_card.errors.append(_l("Which card closed the round?"))
        return False
    return True


def build_round(
    form: Any, rules: Ruleset, players: list[str], inputs: tuple[RoundInput, ...] = ()
) -> dict[str, Any]:
    """The round object (``referee-match/1``) a validated form describes, as the ruleset's
    round form writes it."""
    shape = rules.round_form
    answers = FinalTable(
        form.ending.data,
        form.player.data or None,
        hands_by_player(form, "hand", players),
        bool(form.at_once.data) if shape.at_once else False,
        form.closing_card.card if shape.closing_card else None,
        _melds(form, players) if shape.player_melds else {},
        form.knocker_melds.melds if shape.knocker_melds else (),
        table=table_entry(form) if shape.table else (),
    )
    return with_inputs(shape.entry(answers), form, inputs)


def _melds(form: Any, players: list[str]) -> dict[str, list[list[str]]]:
    return {name: field.melds for name, field in zip(players, numbered(form, "melds"), strict=True)}


def fill_from_round(
    form: Any,
    rules: Ruleset,
    players: list[str],
    entry: dict[str, Any],
    inputs: tuple[RoundInput, ...] = (),
) -> bool:
    """Fill the form from a stored final-table round; False if it is not one the form shows."""
    shape = rules.round_form
    answers = shape.answers(entry)
    if answers is None:
        return False
    fill_inputs(form, inputs, entry)
    form.ending.data, form.player.data = answers.ending, answers.player or ""
    for name, field in zip(players, numbered(form, "hand"), strict=True):
        field.data = hand_text(answers.hands.get(name))
    if shape.at_once:
        form.at_once.data = answers.at_once
    if shape.closing_card:
        form.closing_card.data = answers.closing_card or ""
    if shape.player_melds:
        for name, field in zip(players, numbered(form, "melds"), strict=True):
            field.data = _lines(answers.melds.get(name) or [])
    if shape.knocker_melds:
        form.knocker_melds.data = _lines(answers.knocker_melds)
    if shape.table:
        fill_table(form, answers.table)
    return True


def _lines(melds: Any) -> str:
    return "\n".join(" ".join(meld) for meld in melds)


def card_fields(form: Any) -> list[Any]:
    """Every field of a form that holds cards (to point at the ones an error names)."""
    return [field for field in form if isinstance(field, CardsField | MeldsField | LayoffsField)]


class TurnForm(Form):
    """One live turn of ``remi``, ``rummy`` or ``remi-indonesia``."""

    player = SelectField(_l("Player"))
    turns_before = HiddenField()  # how many turns the round had when the form was opened
    for_round = HiddenField()  # and which round it was
    match_version = HiddenField()  # the match as it was then (see referee.web.store.writes)
    once = HiddenField(default=new_token)
    melds = MeldsField(_l("New melds"), description=_l("One meld per line."))
    layoffs = LayoffsField(
        _l("Lay-offs"), description=_l("One per line: the cards, then > and the meld number.")
    )
    took_discard = CardsField(_l("Taken from the discard pile (optional)"))
    # rummy500: a card of the spread pile, taken with every card above it (its depth, 1 = top)
    take_from = RadioField(_l("Take from the discard pile"), validate_choice=False)
    discard = CardField(_l("Discarded (optional)"))
    # contract: who bought the discard this player refused, and that card
    buyer = RadioField(_l("Bought the discard"), validate_choice=False)
    bought = CardField(_l("The card bought"))
    out = BooleanField(_l("This player's hand is now empty"))

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        if self.buyer.data and not self.bought.card:
            self.bought.errors.append(_l("Which card was bought?"))
            return False
        played = (
            self.melds.melds,
            self.layoffs.layoffs,
            self.took_discard.cards,
            self.take_from.data,
            self.discard.card,
            self.buyer.data,
        )
        if any(played) or self.out.data:
            return True
        self.form_errors.append(_l("Nothing to record: add a meld or a lay-off."))
        return False


class ManipulationTurnForm(Form):
    """One live turn of ``manipulation``: the cards played and the whole table after it."""

    player = SelectField(_l("Player"))
    turns_before = HiddenField()
    for_round = HiddenField()
    match_version = HiddenField()
    once = HiddenField(default=new_token)
    played = CardsField(_l("Cards played from hand"))
    table = MeldsField(
        _l("The table after the turn"),
        description=_l("Every meld on the table, one per line; a joker as JK=7H."),
        render_kw={"rows": 6},
    )
    out = BooleanField(_l("This player's hand is now empty"))


def end_form_class(
    rules: Ruleset, players: list[str], out: str | None, inputs: tuple[RoundInput, ...] = ()
) -> type[FlaskForm]:
    """Ending a live round: how it ended (unless a turn emptied a hand), then the hands and
    the round inputs of the match's options."""
    people = choices([("", "—")] + [(name, name) for name in players])
    endings = rules.round_form.live_endings

    class EndRoundForm(Form):
        for_round = HiddenField()  # the round the form was opened for (Back, then Save)
        match_version = HiddenField()
        once = HiddenField(default=new_token)

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            choice = None if out is not None else live_ending_chosen(self, rules)
            if choice is not None and choice.names is not None and not self.player.data:
                self.player.errors.append(_l(choice.who or "Who?"))
                return False
            ending = "out" if out is not None else choice.ending.value if choice else None
            return inputs_given(self, inputs, ending) and valid

    add_numbered(EndRoundForm, "hand", len(players), lambda i: LiveHandField(_l("Hand")))
    add_round_inputs(EndRoundForm, inputs)

    if out is None:
        EndRoundForm.ending = RadioField(
            _l("How did the round end?"),
            choices=_ending_choices(endings),
            default=endings[0].key,
        )
        named = [choice for choice in endings if choice.names is not None]
        if named:
            EndRoundForm.player = SelectField(
                _l(named[0].who or "Who?"), choices=people, validate_choice=False
            )
    return EndRoundForm


def live_ending_chosen(form: Any, rules: Ruleset) -> EndingChoice | None:
    return next((c for c in rules.round_form.live_endings if c.key == form.ending.data), None)


def build_end(
    form: Any,
    rules: Ruleset,
    players: list[str],
    out: str | None,
    turns: list[dict[str, Any]],
    inputs: tuple[RoundInput, ...] = (),
) -> dict[str, Any]:
    """The live round's round object: its turns, how it ended, and its round inputs."""
    return with_inputs(_live_entry(form, rules, players, out, turns), form, inputs)


def _live_entry(
    form: Any, rules: Ruleset, players: list[str], out: str | None, turns: list[dict[str, Any]]
) -> dict[str, Any]:
    entry: dict[str, Any] = {"turns": turns}
    hands = {
        name: cards
        for name, cards in cards_by_player(form, "hand", players).items()
        if name != out or cards
    }
    if out is not None:
        return entry | {"hands": hands}
    choice = live_ending_chosen(form, rules)
    assert choice is not None  # the form was validated
    if choice.names is not None:
        return entry | {choice.names: form.player.data, "hands": hands}
    if not choice.hands:
        return {"end": choice.ending.value} | entry
    return {"end": choice.ending.value} | entry | {"hands": hands}
