"""Canasta's hand form: a hand's final table, side by side, on one screen.

How the hand ended (who went out, and whether concealed; the stock run out; void), then for
each side its melds, as cards (one meld per line) or counted the way clubs count them (its
natural and mixed canastas, and its melded cards per value: jokers, aces and 2s, 8s to
kings, 4s to 7s), and its red 3s; then the cards left in every hand, or what they count.
The form only reads what was typed and writes the engine's round keys (MATCH_FORMAT.md,
``canasta``: ``out``, ``concealed``, ``end``, ``melds``, ``red_threes``, ``hands``); the
value of counted cards is the engine's (:class:`referee.canasta.TierCounts`), and the
engine decides whether the hand holds and says what it could not check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField
from wtforms.validators import NumberRange, Optional

from referee.canasta import TierCounts
from referee.rulesets import Ruleset
from referee.web.forms.base import Form
from referee.web.forms.fields import (
    HandField,
    MeldsField,
    NumberField,
    add_numbered,
    choices,
    hand_text,
    numbered,
)
from referee.web.forms.rounds import made_once
from referee.web.store.writes import new_token

OUT, STOCK, VOID = "out", "stock", "void"
# The counts of a side's melded cards, by value, as TierCounts names them.
TIERS = ("jokers", "aces_and_twos", "eights_to_kings", "fours_to_sevens")
POINTS = "points"  # a side's melded value given as points (a counted hand opened again)
COUNTS = ("natural", "mixed", POINTS, *TIERS)
MOST = 108  # no count exceeds the cards of the two decks
MOST_POINTS = 5400  # 108 cards at 50 each: no melded value is above it


Sides = tuple[tuple[str, tuple[str, ...]], ...]


def sides_of(players: list[str], teams: Mapping[str, Any] | None = None) -> Sides:
    """Each side's name and players: the match's teams, or each player alone."""
    if teams:
        return tuple((name, tuple(members)) for name, members in teams.items())
    return tuple((name, (name,)) for name in players)


def hand_form_class(
    rules: Ruleset, players: list[str], teams: Mapping[str, Any] | None = None
) -> type[FlaskForm]:
    """The hand form for the players seated and their sides (``melds_i``, ``red_i`` and the
    counts ``natural_i`` ... for side ``i``; ``hand_i`` for seat ``i``): its class keeps the
    sides (``sides``)."""
    sides = sides_of(players, teams)
    key = ("canasta hand", rules.id, tuple(players), sides)
    return made_once(key, lambda: _hand_form_class(rules, list(players), sides))


def _count_field(label: Any, most: int = MOST) -> NumberField:
    return NumberField(
        label,
        validators=[
            Optional(),
            NumberRange(0, most, _l("Enter a number from %(min)s to %(max)s.")),
        ],
    )


COUNT_LABELS = {
    "natural": _l("Natural canastas"),
    "mixed": _l("Mixed canastas"),
    POINTS: _l("Melded cards already counted (points)"),
    "jokers": _l("Jokers melded (50 each)"),
    "aces_and_twos": _l("Aces and 2s melded (20 each)"),
    "eights_to_kings": _l("8s to kings melded (10 each)"),
    "fours_to_sevens": _l("4s to 7s and black 3s melded (5 each)"),
}


def _hand_form_class(rules: Ruleset, players: list[str], sides: Sides) -> type[FlaskForm]:
    people = choices([(name, name) for name in players])

    class CanastaHandForm(Form):
        ending = RadioField(
            _l("How did the hand end?"),
            choices=choices(
                [
                    (OUT, _l("Someone went out")),
                    (STOCK, _l("The stock ran out")),
                    (VOID, _l("Void (misdeal, a card seen, an argument)")),
                ]
            ),
            default=OUT,
        )
        # One tap on a name chip; none chosen for a hand no one ended.
        player = RadioField(_l("Who went out?"), choices=people, validate_choice=False)
        concealed = BooleanField(_l("Went out concealed (nothing melded before in the hand)"))
        for_round = HiddenField()
        match_version = HiddenField()
        round_version = HiddenField()
        once = HiddenField(default=new_token)
        sides_seated = sides

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            if self.ending.data == OUT and not self.player.data:
                self.player.errors.append(_l("Who went out?"))
                return False
            return valid

    count = len(sides)
    add_numbered(CanastaHandForm, "melds", count, lambda i: MeldsField(_l("Melds")))
    add_numbered(CanastaHandForm, "red", count, lambda i: _count_field(_l("Red 3s")))
    for name in COUNTS:
        most = MOST_POINTS if name == POINTS else MOST
        add_numbered(
            CanastaHandForm,
            name,
            count,
            lambda i, name=name, most=most: _count_field(COUNT_LABELS[name], most),
        )
    add_numbered(CanastaHandForm, "hand", len(players), lambda i: HandField(_l("Hand")))
    return CanastaHandForm


def _number(field: Any) -> int:
    return int(field.data or 0)


def side_melds(form: Any, i: int) -> list[list[str]] | dict[str, int]:
    """Side ``i``'s melds as typed: its cards, else its counts (the value of its melded
    cards: the points given plus the cards counted by value, worked out by the engine),
    else none."""
    melds = numbered(form, "melds")[i]
    if melds.melds:
        return melds.melds
    counts = {name: _number(numbered(form, name)[i]) for name in COUNTS}
    if not any(counts.values()):
        return []
    tiers = TierCounts(**{name: counts[name] for name in TIERS})
    points = counts[POINTS] + tiers.points
    return {"natural": counts["natural"], "mixed": counts["mixed"], "points": points}


def build_hand(form: Any, rules: Ruleset, players: list[str]) -> dict[str, Any]:
    """The round object a validated hand form describes."""
    if form.ending.data == VOID:
        return {"end": "void"}
    entry: dict[str, Any] = {}
    out = form.player.data if form.ending.data == OUT else None
    if out:
        entry["out"] = out
        entry["concealed"] = bool(form.concealed.data)
    else:
        entry["end"] = "stock"
    names = [name for name, _members in form.sides_seated]
    entry["melds"] = {name: side_melds(form, i) for i, name in enumerate(names)}
    reds = {
        name: _number(field)
        for name, field in zip(names, numbered(form, "red"), strict=True)
        if _number(field)
    }
    if reds:
        entry["red_threes"] = reds
    hands = {
        name: hand.hand
        for name, hand in zip(players, numbered(form, "hand"), strict=True)
        if (hand.data or "").strip() and name != out
    }
    entry["hands"] = hands
    return entry


def fill_hand(form: Any, rules: Ruleset, players: list[str], entry: Mapping[str, Any]) -> bool:
    """Fill the form from a stored hand; False for one it cannot show."""
    if "turns" in entry:
        return False
    if entry.get("end") == "void":
        form.ending.data = VOID
        return True
    out = entry.get("out")
    form.ending.data = OUT if out else STOCK
    form.player.data = out or ""
    form.concealed.data = bool(entry.get("concealed"))
    melds = entry.get("melds") or {}
    reds = entry.get("red_threes") or {}
    hands = entry.get("hands") or {}
    for i, (name, _members) in enumerate(form.sides_seated):
        side = melds.get(name)
        if isinstance(side, Mapping):
            numbered(form, "natural")[i].data = side.get("natural") or None
            numbered(form, "mixed")[i].data = side.get("mixed") or None
            # the file keeps only the value: shown as points, corrected without changing it
            points = side.get(POINTS)
            numbered(form, POINTS)[i].data = points if isinstance(points, int) and points else None
        elif isinstance(side, list):
            numbered(form, "melds")[i].data = "\n".join(
                " ".join(str(card) for card in meld) for meld in side if isinstance(meld, list)
            )
        numbered(form, "red")[i].data = reds.get(name) or None
    for name, hand in zip(players, numbered(form, "hand"), strict=True):
        hand.data = hand_text(hands.get(name))
    return True
