"""Indian rummy's deal form: the whole end of a deal on one screen.

The cut joker (the ruleset's round input), who showed (and, optionally, the show's 13
cards and finish card), each other player's 13 cards or count, and one tap per player
for a drop or a wrong show; players out of a pool who may come back have a box to
rejoin before the deal.  The form only reads what was typed and writes the engine's
round keys (MATCH_FORMAT.md: ``cut``, ``show``, ``groups``, ``finish``, ``hands``,
``drops``, ``wrong_shows``, ``rejoin``); the engine decides whether the deal holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectField
from wtforms.validators import DataRequired

from referee.rulesets.options import RoundInput
from referee.web.forms.base import Form
from referee.web.forms.fields import (
    CardField,
    CardsField,
    HandField,
    MeldsField,
    add_numbered,
    choices,
    hand_text,
    numbered,
)
from referee.web.forms.rounds import (
    add_round_inputs,
    fill_inputs,
    inputs_given,
    inputs_key,
    made_once,
    with_inputs,
)
from referee.web.store.writes import new_token

SHOWED, LAST_IN, VOID = "show", "last_in", "void"
IN_DEAL, WRONG = "", "wrong"
DROPS = ("first", "middle")


def deal_form_class(players: list[str], inputs: tuple[RoundInput, ...]) -> type[FlaskForm]:
    """The deal form for the players seated at this deal (``hand_i``, ``fate_i`` and
    ``rejoin_i`` for seat ``i``): made once for each seating and inputs."""
    key = ("indian deal", tuple(players), inputs_key(inputs))
    return made_once(key, lambda: _deal_form_class(list(players), inputs))


def _deal_form_class(players: list[str], inputs: tuple[RoundInput, ...]) -> type[FlaskForm]:
    people = choices([(name, name) for name in players])

    class IndianDealForm(Form):
        ending = RadioField(
            _l("How did the deal end?"),
            choices=choices(
                [
                    (SHOWED, _l("Someone showed")),
                    (LAST_IN, _l("One player was left (the others dropped or showed wrongly)")),
                    (VOID, _l("Void (dealt again)")),
                ]
            ),
            default=SHOWED,
        )
        # One tap on a name chip; none chosen for a deal nobody showed in.
        player = RadioField(_l("Who showed?"), choices=people, validate_choice=False)
        groups = MeldsField(
            _l("The show's 13 cards (optional)"),
            description=_l(
                "One group per line, or all on one line. When given, the referee checks the "
                "show before saving."
            ),
            render_kw={"rows": 4},
        )
        finish = CardField(_l("Finish card (optional)"))
        for_round = HiddenField()
        match_version = HiddenField()
        round_version = HiddenField()
        once = HiddenField(default=new_token)

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            ending = self.ending.data
            given = inputs_given(self, inputs, "void" if ending == VOID else None)
            if ending == SHOWED and not self.player.data:
                self.player.errors.append(_l("Who showed?"))
                return False
            return given and valid

    add_numbered(IndianDealForm, "hand", len(players), lambda i: HandField(_l("Hand")))
    add_numbered(
        IndianDealForm,
        "fate",
        len(players),
        lambda i: SelectField(
            _l("In the deal?"),
            choices=choices(
                [
                    (IN_DEAL, _l("Played to the end")),
                    ("first", _l("First drop")),
                    ("middle", _l("Middle drop")),
                    (WRONG, _l("Wrong show")),
                ]
            ),
            default=IN_DEAL,
        ),
    )
    add_numbered(IndianDealForm, "rejoin", len(players), lambda i: BooleanField(_l("Rejoins")))
    add_round_inputs(IndianDealForm, inputs)
    return IndianDealForm


def build_deal(form: Any, players: list[str], inputs: tuple[RoundInput, ...]) -> dict[str, Any]:
    """The round object a validated deal form describes."""
    entry: dict[str, Any] = {}
    rejoining = [
        name for name, box in zip(players, numbered(form, "rejoin"), strict=True) if box.data
    ]
    if rejoining:
        entry["rejoin"] = rejoining
    if form.ending.data == VOID:
        return with_inputs(entry | {"end": "void"}, form, inputs)
    shower = form.player.data if form.ending.data == SHOWED else None
    if shower:
        entry["show"] = shower
        if form.groups.melds:
            entry["groups"] = {shower: form.groups.melds}
        if form.finish.card:
            entry["finish"] = form.finish.card
    seats = list(zip(players, numbered(form, "hand"), numbered(form, "fate"), strict=True))
    hands = {name: hand.hand for name, hand, _fate in seats if (hand.data or "").strip()}
    drops = {name: fate.data for name, _hand, fate in seats if fate.data in DROPS}
    wrong = [name for name, _hand, fate in seats if fate.data == WRONG]
    if hands:
        entry["hands"] = hands
    if drops:
        entry["drops"] = drops
    if wrong:
        entry["wrong_shows"] = wrong
    return with_inputs(entry, form, inputs)


def fill_deal(
    form: Any, players: list[str], entry: Mapping[str, Any], inputs: tuple[RoundInput, ...]
) -> bool:
    """Fill the form from a stored deal; False for one it cannot show."""
    if "turns" in entry:
        return False
    fill_inputs(form, inputs, entry)
    rejoining = entry.get("rejoin") or []
    for name, box in zip(players, numbered(form, "rejoin"), strict=True):
        box.data = name in rejoining
    if entry.get("end") == "void":
        form.ending.data = VOID
        return True
    shower = entry.get("show")
    form.ending.data = SHOWED if shower else LAST_IN
    form.player.data = shower or ""
    form.groups.data = "\n".join(
        " ".join(group) for group in (entry.get("groups") or {}).get(shower, [])
    )
    form.finish.data = entry.get("finish") or ""
    hands = entry.get("hands") or {}
    drops = entry.get("drops") or {}
    wrong = entry.get("wrong_shows") or []
    for name, hand, fate in zip(
        players, numbered(form, "hand"), numbered(form, "fate"), strict=True
    ):
        hand.data = hand_text(hands.get(name))
        fate.data = drops.get(name) or (WRONG if name in wrong else IN_DEAL)
    return True


def as_wrong_show(form: Any, players: list[str]) -> str | None:
    """Turn the form's show into a wrong show by the same player: the show's cards are
    dropped, and when one player is then left in the deal, that player wins it.  Who showed,
    or None when nobody did."""
    shower = form.player.data
    if form.ending.data != SHOWED or not shower or shower not in players:
        return None
    for name, fate in zip(players, numbered(form, "fate"), strict=True):
        if name == shower:
            fate.data = WRONG
    form.groups.data = ""
    form.finish.data = ""
    form.player.data = ""
    return shower


def still_in(form: Any, players: list[str], dealt: list[str]) -> list[str]:
    """The players of the deal neither dropped nor showed wrongly (``dealt``: who was dealt
    in, before any rejoin on the form)."""
    rejoining = {n for n, box in zip(players, numbered(form, "rejoin"), strict=True) if box.data}
    return [
        name
        for name, fate in zip(players, numbered(form, "fate"), strict=True)
        if (name in dealt or name in rejoining) and fate.data == IN_DEAL
    ]


class CountForm(Form):
    """The count helper: a loser's 13 cards and the cut joker."""

    cards = CardsField(
        _l("The loser's 13 cards"),
        validators=[DataRequired(_l("Enter the 13 cards."))],
        render_kw={"placeholder": "5S 6S 7S 9H 10H JK 2D 2C KD QH 8C 4S AD"},
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
