"""One entry form per kind of round, chosen once from what the engine names.

A ruleset's round form says which kind of round it is (``RoundForm.kind``): a final table
(the ending, the hands left, the table's melds: every rummy but Indian) or the end of a
deal (who showed, the counts, drops and wrong shows: Indian rummy).  Each kind has one
:class:`EntryForm` here: how its form class is made, filled from a stored round, turned
into the round of the match file, which template shows it, and what a refusal points at.
The views ask :func:`entry_form` once and never which game they are showing; a new kind
of round adds one value here and one template.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from flask_wtf import FlaskForm

from referee.errors import RefereeError
from referee.messages import Reason
from referee.rulesets import Ruleset
from referee.rulesets import indian as indian_rules
from referee.rulesets.base import DEAL_END, FINAL_TABLE, PHASE10_HAND, SIDE_TABLE
from referee.rulesets.options import RoundInput
from referee.rulesets.rummikub import RACKS
from referee.scoring import Ending
from referee.web.forms import canasta as canasta_forms
from referee.web.forms import phase10 as phase10_forms
from referee.web.forms.fields import numbered
from referee.web.forms.finaltable import TableRows, fill_table, has_gaps
from referee.web.forms.indian import (
    LAST_IN,
    as_wrong_show,
    build_deal,
    deal_form_class,
    fill_deal,
    still_in,
)
from referee.web.forms.phase10 import PhaseStanding
from referee.web.forms.racks import racks_before, racks_form_class
from referee.web.forms.rounds import (
    build_round,
    ending_chosen,
    fill_from_round,
    quick_form_class,
)
from referee.web.play import pools
from referee.web.play.pools import Pool

Inputs = tuple[RoundInput, ...]


@dataclass(frozen=True)
class Refusal:
    """The engine's refusal as the form shows it: the error, the hand fields it may point
    at, and who showed when the show itself was found invalid (offered as a wrong show)."""

    error: RefereeError
    hands: Mapping[str, Any]
    wrong_show: str | None = None


class EntryForm:
    """How one kind of round is entered (see the module's text); the final table's."""

    template = "matches/round_form.html"
    rows = True  # whether the form shows the table's meld rows (where the ruleset asks them)
    totals_template: str | None = None  # what the scoreboard shows beside the totals

    def form_class(
        self, rules: Ruleset, players: list[str], inputs: Inputs, rows: TableRows | None
    ) -> type[FlaskForm]:
        return quick_form_class(rules, players, inputs, rows)

    def fill(
        self, form: Any, rules: Ruleset, players: list[str], entry: Any, inputs: Inputs
    ) -> bool:
        return fill_from_round(form, rules, players, entry, inputs)

    def build(
        self, form: Any, rules: Ruleset, players: list[str], inputs: Inputs
    ) -> dict[str, Any]:
        entry = build_round(form, rules, players, inputs)
        if rules.round_form.table and has_gaps(form):
            fill_table(form, entry.get("table") or [])  # rows numbered as the melds
        return entry

    def refusal(
        self, form: Any, rules: Ruleset, players: list[str], error: RefereeError
    ) -> Refusal:
        chosen = ending_chosen(form, rules.round_form)
        who = form.player.data if chosen and chosen.ending is Ending.OUT else None
        hands = {
            name: field
            for name, field in zip(players, numbered(form, "hand"), strict=True)
            if name != who
        }
        return Refusal(error, hands)

    def before(self, match: Any, number: int) -> Pool | None:
        """Where the match stands before the round, as the form shows it (a pool's)."""
        return None

    def opened(self, form: Any, players: list[str], asked: list[str], pool: Any) -> None:
        """A new form opened: nothing more to fill."""

    def wrong_show(self, form: Any, players: list[str], pool: Any) -> str | None:
        """The one-tap "record as a wrong show": no such thing in this kind of round."""
        return None

    def of_match(self, teams: Mapping[str, Any] | None) -> EntryForm:
        """This form for a match with ``teams`` (team name -> partners; None or empty where
        each player plays alone): the same form, where it does not ask per side."""
        return self


# The engine's refusals of a show whose cards have no valid arrangement, in the words of a
# form that offers to record it as a wrong show: the match file's key is no word for it.
INVALID_SHOW = {
    indian_rules.SHOW_NOT_VALID: indian_rules.SHOW_REFUSED,
    indian_rules.SHOW_NOT_VALID_TYPED: indian_rules.SHOW_REFUSED_TYPED,
}


class DealEndForm(EntryForm):
    """The end of a deal: who showed (and the show's cards), every other player's cards or
    count, who dropped and who showed wrongly; in a pool, who rejoins before the deal."""

    template = "matches/indian_deal_form.html"
    rows = False

    def form_class(
        self, rules: Ruleset, players: list[str], inputs: Inputs, rows: TableRows | None
    ) -> type[FlaskForm]:
        return deal_form_class(players, inputs)

    def fill(
        self, form: Any, rules: Ruleset, players: list[str], entry: Any, inputs: Inputs
    ) -> bool:
        return fill_deal(form, players, entry, inputs)

    def build(
        self, form: Any, rules: Ruleset, players: list[str], inputs: Inputs
    ) -> dict[str, Any]:
        return build_deal(form, players, inputs)

    def refusal(
        self, form: Any, rules: Ruleset, players: list[str], error: RefereeError
    ) -> Refusal:
        hands = dict(zip(players, numbered(form, "hand"), strict=True))
        refused = INVALID_SHOW.get(error.reason.key)
        if refused is None:
            return Refusal(error, hands)
        said = RefereeError(Reason.of(refused, **error.reason.params))
        return Refusal(said, hands, form.player.data)

    def before(self, match: Any, number: int) -> Pool | None:
        return pools.pool_before(match, number)

    def opened(self, form: Any, players: list[str], asked: list[str], pool: Any) -> None:
        """Tick the rejoin box of the players a "rejoin" link names, when they may rejoin."""
        if pool is None:
            return
        for name, box in zip(players, numbered(form, "rejoin"), strict=True):
            if name in asked and name in pool.rejoin_at:
                box.data = True

    def wrong_show(self, form: Any, players: list[str], pool: Any) -> str | None:
        """Record the refused show as a wrong show: "save" at once when that leaves one player
        in the deal (who wins it, no hand counted), else "check": the form comes back asking
        who won."""
        shower = as_wrong_show(form, players)
        if shower is None:
            return "check"
        dealt = list(pool.dealt) if pool is not None else players
        left = still_in(form, players, dealt)
        if len(left) == 1:
            form.ending.data = LAST_IN
            for hand in numbered(form, "hand"):
                hand.data = ""
            return "save"
        form.form_errors.append(
            gettext(
                "%(player)s's show is now a wrong show (the full count). Play went on: say who"
                " showed next, or how the deal ended, then save.",
                player=shower,
            )
        )
        return "check"


class SideTableForm(EntryForm):
    """A hand's final table side by side (Canasta): how it ended, each side's melds (as cards
    or counted per value) and red 3s, and the cards left in every hand."""

    template = "matches/canasta_hand_form.html"
    rows = False

    def __init__(self, teams: Mapping[str, Any] | None = None) -> None:
        self.teams = teams

    def form_class(
        self, rules: Ruleset, players: list[str], inputs: Inputs, rows: TableRows | None
    ) -> type[FlaskForm]:
        return canasta_forms.hand_form_class(rules, players, self.teams)

    def fill(
        self, form: Any, rules: Ruleset, players: list[str], entry: Any, inputs: Inputs
    ) -> bool:
        return canasta_forms.fill_hand(form, rules, players, entry)

    def build(
        self, form: Any, rules: Ruleset, players: list[str], inputs: Inputs
    ) -> dict[str, Any]:
        return canasta_forms.build_hand(form, rules, players)

    def refusal(
        self, form: Any, rules: Ruleset, players: list[str], error: RefereeError
    ) -> Refusal:
        return Refusal(error, dict(zip(players, numbered(form, "hand"), strict=True)))

    def of_match(self, teams: Mapping[str, Any] | None) -> EntryForm:
        return SideTableForm(teams) if teams else self


class RacksEntryForm(EntryForm):
    """A Rummikub game: who emptied the rack or that the pool ran out, and the racks left
    (tiles or what they are worth)."""

    rows = False
    totals_template = "matches/_totals_racks.html"  # the games each player won

    def form_class(
        self, rules: Ruleset, players: list[str], inputs: Inputs, rows: TableRows | None
    ) -> type[FlaskForm]:
        return racks_form_class(rules, players, inputs)

    def before(self, match: Any, number: int) -> Pool | None:
        return racks_before(match, number)


class Phase10HandForm(EntryForm):
    """A Phase 10 hand: who went out, each player's phase laid (or none, optionally as
    laid) and cards left; the form shows each player's phase before the hand."""

    template = "matches/phase10_hand_form.html"
    rows = False

    def form_class(
        self, rules: Ruleset, players: list[str], inputs: Inputs, rows: TableRows | None
    ) -> type[FlaskForm]:
        return phase10_forms.hand_form_class(players)

    def fill(
        self, form: Any, rules: Ruleset, players: list[str], entry: Any, inputs: Inputs
    ) -> bool:
        return phase10_forms.fill_hand(form, players, entry)

    def build(
        self, form: Any, rules: Ruleset, players: list[str], inputs: Inputs
    ) -> dict[str, Any]:
        return phase10_forms.build_hand(form, players)

    def refusal(
        self, form: Any, rules: Ruleset, players: list[str], error: RefereeError
    ) -> Refusal:
        return Refusal(error, dict(zip(players, numbered(form, "hand"), strict=True)))

    def before(self, match: Any, number: int) -> PhaseStanding | None:  # type: ignore[override]
        return phase10_forms.phases_before(match, number)


ENTRY_FORMS: dict[str, EntryForm] = {
    FINAL_TABLE: EntryForm(),
    DEAL_END: DealEndForm(),
    SIDE_TABLE: SideTableForm(),
    PHASE10_HAND: Phase10HandForm(),
    RACKS: RacksEntryForm(),
}


def entry_form(rules: Ruleset, teams: Mapping[str, Any] | None = None) -> EntryForm:
    """The entry form of the ruleset's kind of round; ``teams``: the match's (team name ->
    partners), where it is played in teams (a form of sides asks per team)."""
    return ENTRY_FORMS[rules.round_form.kind].of_match(teams)
