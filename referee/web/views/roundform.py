"""The round form of one request: built once (from what was posted, or from the round it
shows), made into the write the door carries out (:class:`SaveRound`), and the door's
answer shaped for the page.

What the posted form says goes into the write: its entry (or what kept it from being
read), what the phone saw (the versions, and the choices offered and not made: a field
both phones changed, the same deal saved from two phones), and what the player asked
(save, save and remove the rounds after, or a preview).  The door decides from there;
this module only says the answer in the page's words: a conflict's words and the merge
of a correction onto the round as it is now, a refusal beside its field, the rounds a
correction would remove.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from referee.errors import RefereeError
from referee.rulesets import Ruleset, find_ruleset
from referee.web.forms.entry import EntryForm, entry_form
from referee.web.forms.feedback import field_cards, show_error
from referee.web.forms.finaltable import TableRows
from referee.web.forms.rounds import card_fields, input_fields, round_inputs
from referee.web.play import samedeal
from referee.web.play.access import Access
from referee.web.play.roundwrites import SaveRound
from referee.web.show.scoresheet import deal_rules
from referee.web.store import door, reads
from referee.web.store.models import Match, Round
from referee.web.views import merges
from referee.web.views.pages import following, render_page

SAVES = ("save", "save_cut")


@dataclass(frozen=True)
class Built:
    """The round form as the plain way built it and the door's answer, when the round was
    not saved: the page shows them, without building the form or playing the round again."""

    form: Any
    answer: door.Answer


@dataclass
class RoundForm:
    """The round form of a request and the write it makes (None: nothing was posted, or
    the plain way's ``answer`` is there already)."""

    access: Access
    match: Match
    stored: Round | None  # the round corrected (None: the next round)
    same: samedeal.SameDeal | None  # the round opened for, saved from another phone meanwhile
    number: int
    players: list[str]
    rules: Ruleset
    inputs: Any
    entering: EntryForm
    pool: Any
    form: Any
    write: SaveRound | None = None
    merging: merges.MergeForms | None = None
    loaded: merges.Loaded | None = None
    unsettled: tuple[str, ...] = ()
    answer: door.Answer | None = None


def build(
    access: Access,
    match: Match,
    stored: Round | None,
    same: samedeal.SameDeal | None = None,
    built: Built | None = None,
) -> RoundForm | Response:
    """The round form, built once, and the write it makes when posted.  ``same``: the round a
    new round's form was opened for, saved from another phone meanwhile (see
    :mod:`samedeal`); with "keep mine" chosen, ``stored`` is that round.  A stored round
    this form cannot show opens the JSON editor (the redirect)."""
    number = stored.number if stored is not None else match.next_round_number
    players = match.seating_at(number)
    rules = deal_rules(match, number) or find_ruleset(match.rules)
    entering = entry_form(rules, match.teams)
    inputs = round_inputs(rules, match.options)
    posted = request.method == "POST"
    readable = None
    if stored is not None and not posted:
        readable = reads.readable_entry(match, stored.number, stored.entry)
    rows = _table_rows(rules, players, readable) if entering.rows else None
    form = built.form if built is not None else entering.form_class(rules, players, inputs, rows)()
    shown = RoundForm(
        access, match, stored, same, number, players, rules, inputs, entering, None, form
    )
    shown.pool = entering.before(match, number)
    if not form.is_submitted():
        if stored is not None and (
            readable is None or not entering.fill(form, rules, players, readable, inputs)
        ):
            return redirect(url_for("rounds.edit_json", match_id=match.id, number=stored.number))
        form.for_round.data = str(number)
        form.match_version.data = str(match.version)
        form.round_version.data = str(stored.version) if stored else ""
        entering.opened(form, players, request.args.getlist("rejoin"), shown.pool)
        return shown
    if built is not None:
        shown.answer = built.answer
    else:
        shown.write = _posted(shown)
    return shown


def _posted(shown: RoundForm) -> SaveRound:
    """The write of the posted form: what the phone saw, what it asked, the round it typed."""
    form, same, stored = shown.form, shown.same, shown.stored
    action = request.form.get("action")
    unchosen: tuple[str, ...] = ()
    if same is not None:
        action = "save" if same.decided else None
        unchosen = () if same.decided else ("same_deal",)
    elif stored is not None:
        shown.merging = _merge_forms(shown)
        shown.loaded = merges.opened(stored)
        shown.unsettled = merges.settle_choices(form, shown.merging, shown.loaded)
        unchosen = shown.unsettled
    if action == "wrong_show" and not unchosen:
        action = shown.entering.wrong_show(form, shown.players, shown.pool) or action
    entry: dict[str, Any] = {}
    unreadable: Exception | None = None
    if action == "more_rows" or unchosen:
        unreadable = door.Refusal("")  # not to be read yet: the form comes back as it is
    elif not form.validate():
        unreadable = door.Refusal("")  # its fields say why
    else:
        try:
            entry = shown.entering.build(form, shown.rules, shown.players, shown.inputs)
        except RefereeError as error:
            unreadable = error
    return SaveRound(
        shown.number,
        _seen(form, stored, same, unchosen),
        form.once.data,
        url_for("matches.scoreboard", match_id=shown.match.id),
        shown.access.mode,
        entry=entry,
        new=stored is None,
        unreadable=unreadable,
        preview=action not in SAVES,
        cut=action == "save_cut",
    )


def _seen(
    form: Any, stored: Round | None, same: samedeal.SameDeal | None, unchosen: tuple[str, ...]
) -> door.Seen:
    """What the phone saw: a new round names the match's version (another round saved,
    corrected or removed meanwhile changes what this one means); a correction names the
    round's version (and, to remove the rounds after it, the match's).  A round saved from
    another phone meanwhile whose choice was made names nothing (the player chose what
    stays)."""
    if same is not None and same.decided:
        return door.Seen()
    new = stored is None
    cutting = request.form.get("action") == "save_cut"
    return door.Seen(
        match_version=form.match_version.data if new or cutting else door.ANY,
        round_version=door.ANY if new else form.round_version.data,
        unchosen=unchosen,
    )


def flash_saved(shown: RoundForm, answer: door.Saved) -> None:
    if answer.repeated:
        flash(gettext("This round was saved already."))
        return
    flash(gettext("Round %(number)s saved.", number=shown.number))
    if shown.same is not None and shown.same.keeps_mine:
        flash(_replaced_theirs())
    later = list(answer.verdict.later)
    if later:
        flash(
            ngettext(
                "Round %(rounds)s was removed.",
                "Rounds %(rounds)s were removed.",
                len(later),
                rounds=span(later),
            )
        )


def page(shown: RoundForm, answer: door.Answer | None) -> Any:
    """The form again, with the door's answer: what changed meanwhile (409), the engine's
    refusal beside its field (400), or the round as the referee counts it (with the rounds
    a correction would remove: 409 when "save" was pressed)."""
    form, number = shown.form, shown.number
    conflict: list[str] = []
    merge = None
    later: list[int] = []
    preview = None
    wrong_show: str | None = None  # who showed, when the show was found invalid
    if isinstance(answer, door.Conflict):
        form, merge, conflict = _conflict(shown, answer)
    elif isinstance(answer, door.Refused) and isinstance(answer.reason, RefereeError):
        refusal = shown.entering.refusal(form, shown.rules, shown.players, answer.reason)
        wrong_show = refusal.wrong_show
        show_error(form, card_fields(form), refusal.error, number, refusal.hands)
    elif isinstance(answer, door.Held):
        later = list(answer.verdict.later)
        preview = answer.verdict.state.rounds[number - 1]
    match, stored = shown.match, shown.stored
    rendered = render_page(
        shown.entering.template,
        pool=shown.pool,
        wrong_show=wrong_show,
        access=shown.access,
        match=match,
        form=form,
        players=shown.players,
        number=number,
        stored=stored,
        preview=preview,
        conflict=conflict,
        later=span(later) if later else None,
        later_count=len(later),
        rules=shown.rules,
        round_inputs=input_fields(form, shown.inputs),
        jokers=shown.rules.jokers,
        used=_typed_cards(form) if form.is_submitted() else [],
        **_following_the_match(shown),
        merge=merge,
        loaded=merges.seal(stored, merge.contested if merge else ()) if stored else None,
    )
    # A save before later rounds is refused as a conflict, unless the form itself refused it.
    write = shown.write
    pressed_save = write is not None and not write.preview and write.cut is False
    if conflict or (later and pressed_save and not rendered.refused):
        return rendered.body, 409
    return rendered


def _conflict(
    shown: RoundForm, answer: door.Conflict
) -> tuple[Any, merges.MergeShown | None, list[str]]:
    """The form brought up to date, the merge shown, and the words for what changed."""
    form, same, stored = shown.form, shown.same, shown.stored
    for field in form:  # what changed is said first; the fields are checked on the next save
        field.errors = []
    if same is not None:
        return form, None, _same_deal_words(same) if not same.decided else []
    words = _round_conflict(shown, answer.changed - {door.CHOICE})
    merge = None
    if stored is not None and shown.merging is not None:
        if words and door.ROUND in answer.changed:
            form, merge = merges.merge_posted(
                form, shown.merging, stored, shown.loaded, shown.unsettled
            )
        elif shown.unsettled and shown.loaded is not None:
            merge = merges.choices_left(form, shown.merging, shown.loaded, shown.unsettled)
            words = [*words, merges.choose_first()]
    return form, merge, words


def _round_conflict(shown: RoundForm, moved: frozenset[str]) -> list[str]:
    """What changed since the round form was opened, if anything (then nothing is saved).
    The form is brought up to date so that saving it again is one tap."""
    form, match, stored, number = shown.form, shown.match, shown.stored, shown.number
    changes: list[str] = []
    if stored is None and moved:
        changes = match_changes(match, reads.posted_number(form.for_round), number)
    elif door.ROUND in moved:
        changes = [round_corrected(number)]
    elif moved:
        changes = match_changes(match, None, number)
    if changes:
        form.for_round.data = str(number)
        form.match_version.data = str(match.version)
        form.round_version.data = str(stored.version) if stored else ""
        changes.append(totals_now(match))
    return changes


def _following_the_match(shown: RoundForm) -> dict[str, Any]:
    """A new round's form follows the match like the score sheet: the round number and the
    dealer change in place, what is typed stays, and a round saved from another phone
    meanwhile is shown with the choice (the page is fetched again for the round typed)."""
    match, same = shown.match, shown.same
    if shown.stored is not None and not (same is not None and same.keeps_mine):
        return {"same_deal": None}
    address = url_for("rounds.new", match_id=match.id)
    return {
        "live": {**following(shown.access, match, address), "carry": "for_round"},
        "same_deal": same,
        "their_result": samedeal.result_of(match, same) if same is not None else None,
        "dealer": samedeal.dealer_of_next_round(match, request.args.getlist("rejoin")),
    }


def _typed_cards(form: Any) -> list[str]:
    """Cards typed anywhere in the round form, which the picker marks as used."""
    return sorted({card for field in card_fields(form) for card in field_cards(field)})


def _same_deal_words(same: samedeal.SameDeal) -> list[str]:
    return [
        gettext(
            "Round %(number)s was just saved from another phone: nothing of yours is saved"
            " yet. Choose below.",
            number=same.number,
        )
    ]


def _replaced_theirs() -> str:
    return gettext(
        "This phone's deal replaced the one saved from the other phone; the round's page keeps"
        " both in its changes."
    )


def _merge_forms(shown: RoundForm) -> merges.MergeForms:
    """How this round's form is made and filled, for merging a correction onto the round."""
    match, rules, players, inputs, number = (
        shown.match,
        shown.rules,
        shown.players,
        shown.inputs,
        shown.number,
    )
    entering = shown.entering

    def make(rows: TableRows | None, posted: bool) -> Any:
        reading = {} if posted else {"formdata": None}
        return entering.form_class(rules, players, inputs, rows)(**reading)

    def fill(form: Any, entry: dict[str, Any]) -> bool:
        readable = reads.readable_entry(match, number, entry)
        if readable is None:
            return False
        return entering.fill(form, rules, players, readable, inputs)

    return merges.MergeForms(make, fill, players)


def _table_rows(rules: Ruleset, players: list[str], stored: dict[str, Any] | None) -> TableRows:
    """The meld and lay-off rows of a final-table form: as posted (more if asked), as many as
    a stored table needs, or the ruleset's default."""
    default = TableRows.default(rules, len(players))
    if request.method == "POST":
        return TableRows.posted(request.form, default)
    if stored is not None and isinstance(stored.get("table"), list):
        return TableRows.of_table(stored["table"], default)
    return default


def round_corrected(number: int) -> str:
    return gettext(
        "Round %(number)s was changed on another phone meanwhile; it now reads as"
        " shown in the score sheet.",
        number=number,
    )


def match_changes(match: Match, opened_for: int | None, number: int) -> list[str]:
    """Words for what another phone did to the match since a form was opened for round ``opened_for``."""
    changes = []
    if opened_for is not None and opened_for < number:
        saved = list(range(opened_for, number))
        changes.append(
            ngettext(
                "Round %(rounds)s was saved on another phone meanwhile.",
                "Rounds %(rounds)s were saved on another phone meanwhile.",
                len(saved),
                rounds=span(saved),
            )
        )
    elif opened_for is not None and opened_for > number:
        gone = list(range(number, opened_for))
        changes.append(
            ngettext(
                "Round %(rounds)s was removed on another phone meanwhile.",
                "Rounds %(rounds)s were removed on another phone meanwhile.",
                len(gone),
                rounds=span(gone),
            )
        )
    if match.live_round is not None:
        changes.append(gettext("A round is being played live on another phone."))
    if not changes:
        changes.append(
            gettext(
                "The match was changed on another phone meanwhile (a round was corrected,"
                " voided or restored)."
            )
        )
    return changes


def totals_now(match: Match) -> str:
    seen = reads.outlook(match)
    if seen.state is None:
        return ""
    totals = ", ".join(f"{name} {total}" for name, total in seen.state.totals.items())
    return gettext(
        "Totals now: %(totals)s. Your entry is kept below: check it and save again.", totals=totals
    )


def span(numbers: list[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"
