"""Round entry forms: the final table of ``referee-match/1`` per ruleset, and live turns.

A form only reads what was typed (cards in the notation, one meld per line)
and builds the round object of the match format; whether the round is
possible is decided by the engine when the match is replayed with it.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectField

from referee.rulesets import RULESETS
from referee.scoring import Ending
from referee.web.forms.base import Form
from referee.web.forms.fields import (
    CardField,
    CardsField,
    HandField,
    LayoffsField,
    MeldsField,
    add_numbered,
    cards_by_player,
    choices,
    hand_text,
    hands_by_player,
    numbered,
)
from referee.web.writes import new_token

# The order the forms offer a ruleset's endings in.
ENDING_ORDER = (Ending.KNOCK, Ending.OUT, Ending.BLOCKED, Ending.STOCK, Ending.DRAW, Ending.VOID)


def quick_endings(rules_id: str) -> tuple[str, ...]:
    """The endings of a ruleset (the engine's ``Ruleset.endings``) as the quick form names them.

    A hand emptied is ``closed`` where the round is closed by a closing card (remi-indonesia).
    An unknown ruleset can only be voided.
    """
    rules = RULESETS.get(rules_id)
    if rules is None:
        return ("void",)
    return tuple(
        "closed" if ending is Ending.OUT and rules.closing_card else ending.value
        for ending in ENDING_ORDER
        if ending in rules.endings
    )


def live_endings(rules_id: str) -> tuple[str, ...]:
    """How a live round can end when no turn emptied a hand: the endings but going out."""
    return tuple(ending for ending in quick_endings(rules_id) if ending not in ("out", "closed"))


ENDING_LABELS = {
    "out": _l("Someone went out"),
    "knock": _l("Someone knocked"),
    "closed": _l("Someone closed (discarded the last card)"),
    "blocked": _l("Blocked (stock ran out twice, or 120 turns)"),
    "stock": _l("The stock ran out"),
    "draw": _l("Draw (2 cards left in the stock)"),
    "void": _l("Void (misdeal, a card seen, an argument)"),
}

WHO_LABELS = {
    "out": _l("Who went out?"),
    "knock": _l("Who knocked?"),
    "closed": _l("Who closed?"),
}


def quick_form_class(rules_id: str, players: list[str]) -> type[FlaskForm]:
    endings = quick_endings(rules_id)
    people = choices([("", "—")] + [(name, name) for name in players])

    class QuickRoundForm(Form):
        ending = RadioField(
            _l("How did the round end?"),
            choices=choices([(value, ENDING_LABELS[value]) for value in endings]),
            default=endings[0],
        )
        player = SelectField(_l("Who?"), choices=people, validate_choice=False)
        for_round = HiddenField()  # the round the form was opened for
        # What the form was made from (see referee.web.writes)
        match_version = HiddenField()
        round_version = HiddenField()
        once = HiddenField(default=new_token)

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            return _ending_complete(self, rules_id) and valid

    add_numbered(QuickRoundForm, "hand", len(players), lambda i: HandField(_l("Hand")))

    if rules_id in ("remi", "rummy"):
        QuickRoundForm.at_once = BooleanField(
            _l("All at once (nothing melded or laid off before): ×2")
        )
    if rules_id == "remi-indonesia":
        QuickRoundForm.closing_card = CardField(_l("Closing card"))
        add_numbered(QuickRoundForm, "melds", len(players), lambda i: MeldsField(_l("Melds laid")))
    if rules_id == "gin":
        QuickRoundForm.knocker_melds = MeldsField(
            _l("The knocker's melds as spread (optional)"),
            description=_l("Leave empty to let the referee find the best arrangement."),
        )
    return QuickRoundForm


def _ending_complete(form: Any, rules_id: str) -> bool:
    """Whether the form names who ended the round, and the closing card, where it must."""
    ending = form.ending.data
    if ending in WHO_LABELS and not form.player.data:
        form.player.errors.append(WHO_LABELS[ending])
        return False
    if rules_id == "remi-indonesia" and ending == "closed" and not form.closing_card.card:
        form.closing_card.errors.append(_l("Which card closed the round?"))
        return False
    return True


def build_round(form: Any, rules_id: str, players: list[str]) -> dict[str, Any]:
    """The round object (``referee-match/1``) a validated form describes."""
    ending = form.ending.data
    if ending == "void":
        return {"end": "void"}
    if ending in ("blocked", "draw"):
        return {"end": ending}
    hands = hands_by_player(form, "hand", players)
    who = form.player.data or None
    if ending == "stock":
        entry: dict[str, Any] = {"end": "stock", "hands": hands}
        if rules_id == "remi-indonesia":
            entry["melds"] = _melds(form, players)
        return entry
    if rules_id in ("remi", "rummy"):
        kept = {name: hand for name, hand in hands.items() if name != who or hand}
        return {"out": who, "at_once": bool(form.at_once.data), "hands": kept}
    if rules_id == "remi-indonesia":
        return {
            "melds": _melds(form, players),
            "closer": who,
            "closing_card": form.closing_card.card,
            "hands": hands,
        }
    if rules_id == "gin":
        entry = {"knock": who, "hands": hands}
        if form.knocker_melds.melds:
            entry["melds"] = {who: form.knocker_melds.melds}
        return entry
    return {ending: who, "hands": hands}  # manipulation: knock or out


def _melds(form: Any, players: list[str]) -> dict[str, list[list[str]]]:
    return {name: field.melds for name, field in zip(players, numbered(form, "melds"), strict=True)}


def fill_from_round(form: Any, rules_id: str, players: list[str], entry: dict[str, Any]) -> bool:
    """Fill the form from a stored final-table round; False if it is not one the form shows."""
    if "turns" in entry:
        return False
    end = entry.get("end")
    if end is not None:
        form.ending.data = end
    elif rules_id == "remi-indonesia":
        form.ending.data, form.player.data = "closed", entry.get("closer") or ""
        form.closing_card.data = entry.get("closing_card") or ""
    elif "knock" in entry:
        form.ending.data, form.player.data = "knock", entry.get("knock") or ""
    else:
        form.ending.data, form.player.data = "out", entry.get("out") or ""
    if form.ending.data not in quick_endings(rules_id):
        return False
    hands = entry.get("hands") or {}
    for name, field in zip(players, numbered(form, "hand"), strict=True):
        field.data = hand_text(hands.get(name))
    if hasattr(form, "at_once"):
        form.at_once.data = bool(entry.get("at_once"))
    melds = entry.get("melds") or {}
    if rules_id == "remi-indonesia":
        for name, field in zip(players, numbered(form, "melds"), strict=True):
            field.data = "\n".join(" ".join(meld) for meld in melds.get(name) or [])
    if rules_id == "gin" and form.player.data in melds:
        form.knocker_melds.data = "\n".join(" ".join(m) for m in melds[form.player.data])
    return True


def card_fields(form: Any) -> list[Any]:
    """Every field of a form that holds cards (to point at the ones an error names)."""
    return [field for field in form if isinstance(field, CardsField | MeldsField | LayoffsField)]


class TurnForm(Form):
    """One live turn of ``remi``, ``rummy`` or ``remi-indonesia``."""

    player = SelectField(_l("Player"))
    turns_before = HiddenField()  # how many turns the round had when the form was opened
    for_round = HiddenField()  # and which round it was
    match_version = HiddenField()  # the match as it was then (see referee.web.writes)
    once = HiddenField(default=new_token)
    melds = MeldsField(_l("New melds"), description=_l("One meld per line."))
    layoffs = LayoffsField(
        _l("Lay-offs"), description=_l("One per line: the cards, then > and the meld number.")
    )
    took_discard = CardsField(_l("Taken from the discard pile (optional)"))
    discard = CardField(_l("Discarded (optional)"))
    out = BooleanField(_l("This player's hand is now empty"))

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        played = (
            self.melds.melds,
            self.layoffs.layoffs,
            self.took_discard.cards,
            self.discard.card,
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


def end_form_class(rules_id: str, players: list[str], out: str | None) -> type[FlaskForm]:
    """Ending a live round: how it ended (unless a turn emptied a hand), then the hands."""
    people = choices([("", "—")] + [(name, name) for name in players])

    class EndRoundForm(Form):
        for_round = HiddenField()  # the round the form was opened for (Back, then Save)
        match_version = HiddenField()
        once = HiddenField(default=new_token)

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            if out is None and self.ending.data == "knock" and not self.player.data:
                self.player.errors.append(WHO_LABELS["knock"])
                return False
            return valid

    add_numbered(EndRoundForm, "hand", len(players), lambda i: CardsField(_l("Hand")))

    if out is None:
        endings = live_endings(rules_id)
        EndRoundForm.ending = RadioField(
            _l("How did the round end?"),
            choices=choices([(value, ENDING_LABELS[value]) for value in endings]),
            default=endings[0],
        )
        if "knock" in endings:
            EndRoundForm.player = SelectField(
                _l("Who knocked?"), choices=people, validate_choice=False
            )
    return EndRoundForm


def build_end(
    form: Any, players: list[str], out: str | None, turns: list[dict[str, Any]]
) -> dict[str, Any]:
    """The live round's round object: its turns and how it ended."""
    entry: dict[str, Any] = {"turns": turns}
    hands = {
        name: cards
        for name, cards in cards_by_player(form, "hand", players).items()
        if name != out or cards
    }
    if out is not None:
        return entry | {"hands": hands}
    ending = form.ending.data
    if ending in ("void", "blocked"):
        return {"end": ending} | entry
    if ending == "knock":
        return entry | {"knock": form.player.data, "hands": hands}
    return {"end": ending} | entry | {"hands": hands}
