"""Phase 10's hand form: the whole final table of a hand on one screen.

Who went out (or a void hand), and for each player the phase they laid down in the hand
(or none), optionally its melds as laid, and the cards left in hand (or their penalty
points).  The form only reads what was typed and writes the engine's round keys
(MATCH_FORMAT.md ``phase10``: ``out``, ``made``, ``phases``, ``hands``); the engine checks
each phase against the player's own, with its reasons.  Phase 10's cards are not playing
cards (``R7``, ``W``, ``SK``), so they are read here only as words between spaces: the
engine reads them with the match's deck.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectField, StringField, TextAreaField

from referee.errors import RefereeError
from referee.match import MatchState
from referee.phase10 import PHASES
from referee.web.forms.base import Form
from referee.web.forms.fields import add_numbered, choices, hand_text, numbered
from referee.web.forms.rounds import made_once
from referee.web.play import pools
from referee.web.store.models import Match
from referee.web.store.writes import new_token

OUT, VOID = "out", "void"
NOT_MADE = ""
_POINTS = re.compile(r"^\d{1,6}$")


@dataclass(frozen=True)
class PhaseStanding:
    """Before a hand: each player's phase to make (``next``: the phases they may make),
    the phases completed, and who made which in the last hand counted."""

    number: int
    next: dict[str, list[int]]
    done: dict[str, list[int]]
    made_last: dict[str, int]
    replay: list[str]


def phases_before(match: Match, number: int) -> PhaseStanding | None:
    """Where each player stands before hand ``number``, from the engine's tracker."""
    state = pools.state_before(match, number)
    return tracker_of(state, number) if state is not None else None


def tracker_of(state: MatchState, number: int) -> PhaseStanding | None:
    tracker = state.rules.tracker
    if tracker is None or state.finished:
        return None
    try:
        facts = tracker.facts(state.carried)
    except RefereeError:
        return None
    return PhaseStanding(
        number,
        dict(facts.get("next_phases", {})),
        dict(facts.get("phases_done", {})),
        dict(facts.get("made_last", {})),
        list(facts.get("replay", [])),
    )


def hand_form_class(players: list[str]) -> type[FlaskForm]:
    """The hand form for the players seated at this hand (``made_i``, ``phase_i`` and
    ``hand_i`` for seat ``i``): made once for each seating."""
    key = ("phase10 hand", tuple(players))
    return made_once(key, lambda: _hand_form_class(list(players)))


def _hand_form_class(players: list[str]) -> type[FlaskForm]:
    people = choices([(name, name) for name in players])
    phases = choices(
        [(NOT_MADE, _l("Did not make a phase"))]
        + [(str(phase), _l("Made phase %(number)s", number=phase)) for phase in PHASES]
    )

    class Phase10HandForm(Form):
        ending = RadioField(
            _l("How did the hand end?"),
            choices=choices([(OUT, _l("Someone went out")), (VOID, _l("Void (dealt again)"))]),
            default=OUT,
        )
        # One tap on a name chip; none chosen for a hand no one ended.
        player = RadioField(_l("Who went out?"), choices=people, validate_choice=False)
        for_round = HiddenField()
        match_version = HiddenField()
        round_version = HiddenField()
        once = HiddenField(default=new_token)

        def validate(self, extra_validators: Any = None) -> bool:
            valid: bool = super().validate(extra_validators)
            if self.ending.data == OUT and not self.player.data:
                self.player.errors.append(_l("Who went out?"))
                return False
            return valid

    add_numbered(
        Phase10HandForm,
        "made",
        len(players),
        lambda i: SelectField(
            _l("Phase laid down"), choices=phases, default=NOT_MADE, validate_choice=False
        ),
    )
    add_numbered(
        Phase10HandForm,
        "phase",
        len(players),
        lambda i: TextAreaField(
            _l("The phase as laid (optional)"),
            description=_l("One meld per line, before any hit: R7 B7 W, a Wild in a run W=5."),
            render_kw={"rows": 2, "autocapitalize": "characters", "spellcheck": "false"},
        ),
    )
    add_numbered(
        Phase10HandForm,
        "hand",
        len(players),
        lambda i: StringField(
            _l("Cards left"),
            description=_l("R7 G12 W SK, or the penalty points as a number."),
            render_kw={"autocapitalize": "characters", "spellcheck": "false"},
        ),
    )
    return Phase10HandForm


def _words(text: str | None) -> list[str]:
    return [word for word in re.split(r"[\s,;]+", (text or "").strip()) if word]


def build_hand(form: Any, players: list[str]) -> dict[str, Any]:
    """The round object a validated hand form describes."""
    if form.ending.data == VOID:
        return {"end": "void"}
    entry: dict[str, Any] = {"out": form.player.data}
    seats = zip(
        players,
        numbered(form, "made"),
        numbered(form, "phase"),
        numbered(form, "hand"),
        strict=True,
    )
    made: dict[str, int] = {}
    laid: dict[str, list[list[str]]] = {}
    hands: dict[str, list[str] | int] = {}
    for name, made_field, phase_field, hand_field in seats:
        if (made_field.data or NOT_MADE).isdigit():
            made[name] = int(made_field.data)
        melds = [_words(line) for line in (phase_field.data or "").splitlines() if _words(line)]
        if melds:
            laid[name] = melds
        typed = (hand_field.data or "").strip()
        if _POINTS.match(typed):
            hands[name] = int(typed)
        elif typed:
            hands[name] = _words(typed)
    entry["made"] = made
    if laid:
        entry["phases"] = laid
    if hands:
        entry["hands"] = hands
    return entry


def fill_hand(form: Any, players: list[str], entry: Mapping[str, Any]) -> bool:
    """Fill the form from a stored hand; False for one it cannot show (a hand entered turn
    by turn)."""
    if "turns" in entry:
        return False
    if entry.get("end") == "void":
        form.ending.data = VOID
        return True
    form.ending.data = OUT
    form.player.data = entry.get("out") or ""
    made = entry.get("made") or {}
    laid = entry.get("phases") or {}
    hands = entry.get("hands") or {}
    seats = zip(
        players,
        numbered(form, "made"),
        numbered(form, "phase"),
        numbered(form, "hand"),
        strict=True,
    )
    for name, made_field, phase_field, hand_field in seats:
        made_field.data = str(made[name]) if name in made else NOT_MADE
        phase_field.data = "\n".join(" ".join(meld) for meld in laid.get(name, []))
        hand_field.data = hand_text(hands.get(name))
    return True
