"""The live round: the table as it stands, one turn at a time, undo, and the end of the round.

The turns are stored as entered in the round's ``entry`` (``complete`` false
until the round ends).  Each new turn is checked by the engine on the round
so far (:func:`matchlog.live`); a refused turn shows the reason and saves
nothing.  In ``manipulation`` the engine's table solver also lays out the
table for a turn ("Arrange it for us") and says which cards of a hand can be
played ("What can I play?"); neither saves anything.
"""

from __future__ import annotations

import json
from typing import Any

from flask import abort, flash, redirect, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from referee.cards import RANKS, SUITS, Card
from referee.errors import RefereeError
from referee.notation import format_card, format_cards
from referee.round import RoundInProgress
from referee.rulesets import TurnStyle, find_ruleset
from referee.table import Play, arrange, best_play, format_table, take_back
from referee.web.forms import ActionForm, PlayHintForm
from referee.web.forms.feedback import show_error
from referee.web.forms.fields import choices, numbered
from referee.web.forms.rounds import (
    ManipulationTurnForm,
    TurnForm,
    build_end,
    card_fields,
    end_form_class,
    input_fields,
    round_inputs,
)
from referee.web.play import changes, staleturns
from referee.web.play.access import Access, edit_page, open_match, table_blueprint, table_page
from referee.web.play.liveround import (
    DiscardLiveRound,
    EndLiveRound,
    RecordTurn,
    TakeBackTurn,
    next_player,
    table_melds,
    table_view,
)
from referee.web.show import i18n
from referee.web.show.scoresheet import picker_rows
from referee.web.store import door, reads
from referee.web.store.models import Match
from referee.web.views.pages import following, render_page, to_score_sheet

bp = table_blueprint("live", __name__)
LIVE = "/<any(t,v):mode>/<key>/m/<int:match_id>/live"


def _turns(match: Match) -> list[dict[str, Any]]:
    return changes.live_turns(match)


def _state(
    match: Match, turns: list[dict[str, Any]]
) -> tuple[RoundInProgress | None, RefereeError | None]:
    try:
        return reads.live(match, turns), None
    except RefereeError as error:
        return None, error


def _has_turns(state: RoundInProgress) -> bool:
    """Whether the ruleset's rounds are entered turn by turn (gin's are not)."""
    return state.rules.turn_style is not TurnStyle.NONE


def rearranges_table(state: RoundInProgress) -> bool:
    """Whether a turn may rearrange the whole table (manipulation)."""
    return state.rules.turn_style is TurnStyle.TABLE


def _accepts(state: RoundInProgress) -> dict[str, list[int]]:
    """For the picker: which melds can take each card as a lay-off."""
    if not state.table:
        return {}
    found = {}
    for suit in SUITS:
        for rank in RANKS:
            code = format_card(Card(rank, suit))
            numbers = reads.call_engine(state.melds_accepting, code)
            if numbers:
                found[code] = numbers
    return found


def _cards_on_table(state: RoundInProgress) -> list[str]:
    """The natural cards on the table, once per copy (the picker counts them against the decks)."""
    return sorted(format_card(card) for card in state.used_cards if not card.is_joker)


def round_in_play(match: Match) -> dict[str, Any] | None:
    """The live round as the score sheet shows it to every phone (None when none is played,
    or when the referee cannot replay it: the live page says why)."""
    if match.live_round is None:
        return None
    turns = _turns(match)
    state, _error = _state(match, turns)
    if state is None or not _has_turns(state):
        return None
    return {
        "number": state.number,
        "turns": len(turns),
        "out": state.out if state.is_over else None,
        "next": None if state.is_over else next_player(state, turns),
        "hand_sizes": {name: state.hand_size(name) for name in state.players},
        "melds": table_view(state),
    }


def discard_pile(state: RoundInProgress) -> list[str]:
    """The discard pile as the turns recorded it, top card first: each discard goes on top,
    each card taken (or bought) leaves it.  Discards that were not entered are missing."""
    pile: list[str] = []  # bottom first
    for turn in state.turns:
        taken = [*turn.took_discard, *((turn.buy.card,) if turn.buy else ())]
        for card in taken:
            code = format_card(card)
            if code in pile:
                del pile[len(pile) - 1 - pile[::-1].index(code)]
        if turn.discard is not None:
            pile.append(format_card(turn.discard))
    return pile[::-1]


def takes_deep(state: RoundInProgress) -> bool:
    """Whether a player may take more than the top discard (rummy500: the pile is spread)."""
    return state.rules.discard.depth > 1 and not rearranges_table(state)


def make_turn_form(match: Match, state: RoundInProgress, **kwargs: Any) -> FlaskForm:
    """The turn form of the ruleset (read from this request unless ``formdata=None``)."""
    form_class = ManipulationTurnForm if rearranges_table(state) else TurnForm
    form = form_class(**kwargs)
    form.player.choices = choices([(name, name) for name in state.players])
    if form_class is TurnForm:
        pile = discard_pile(state) if takes_deep(state) or state.rules.buys_per_deal else []
        form.take_from.choices = choices(
            [(str(depth), code) for depth, code in enumerate(pile, 1)] if takes_deep(state) else []
        )
        form.buyer.choices = choices(
            [("", _l("nobody"))] + [(name, name) for name in state.players]
            if state.rules.buys_per_deal
            else []
        )
        if state.rules.buys_per_deal and pile and not form.bought.data:
            form.bought.data = pile[0]  # the discard refused is the top of the pile
    return form


def _blank_turn_form(access: Access, match: Match, state: RoundInProgress) -> FlaskForm | None:
    """The turn form as it starts, for whoever has the edit link, while the round goes on."""
    if not access.can_edit or state.is_over:
        return None
    form = make_turn_form(match, state, formdata=None)
    form.player.data = next_player(state, _turns(match))
    form.turns_before.data = str(len(_turns(match)))
    form.for_round.data = str(state.number)
    form.match_version.data = str(match.version)
    if rearranges_table(state):  # start from the table as it stands
        form.table.data = format_table(table_melds(state))
    return form


def _blank_hint_form(state: RoundInProgress) -> PlayHintForm | None:
    """The "what can I play" form as it starts, in manipulation while the round goes on."""
    if state.is_over or not rearranges_table(state):
        return None
    return PlayHintForm(formdata=None)


def _page(
    access: Access,
    match: Match,
    state: RoundInProgress,
    form: FlaskForm | None,
    hint_form: PlayHintForm | None,
    hint: Play | None = None,
    conflict: list[str] | None = None,
) -> Any:
    return render_page(
        "matches/live.html",
        live=following(access, match, url_for("live.show", match_id=match.id)),
        conflict=conflict or [],
        access=access,
        match=match,
        state=state,
        error=None,
        form=form,
        hint_form=hint_form,
        hint=hint,
        turns=_turns(match),
        hand_sizes={name: state.hand_size(name) for name in state.players},
        down=[name for name in state.players if state.is_down(name)],
        changes=reads.trail(match, match.live_round) if match.live_round else [],
        **turn_form_context(match, state),
    )


def turn_form_context(match: Match, state: RoundInProgress) -> dict[str, Any]:
    """What the turn form and the table above it show, for the round as ``state`` has it."""
    return {
        "rearranges_table": rearranges_table(state),
        "layoffs": bool(state.rules.layoffs) and not rearranges_table(state),
        "melds": table_view(state),
        "accepts": json.dumps(_accepts(state)),
        "used": _cards_on_table(state),
        "copies": state.rules.copies(len(state.players)),
        "jokers": state.rules.joker_count(len(state.players)),
        # manipulation's table field lists the table already, jokers included
        "jokers_used": 0
        if rearranges_table(state)
        else sum(1 for card in state.used_cards if card.is_joker),
        "rows": picker_rows(match),
        "pile": discard_pile(state) if takes_deep(state) or state.rules.buys_per_deal else [],
        "takes_deep": takes_deep(state),
        "buys": state.rules.buys_per_deal,
    }


def _to_the_round_form(access: Access, match: Match) -> Response:
    """Games whose rounds have no turns (gin) are entered when the round ends."""
    flash(gettext("A round of this game is entered when it ends."))
    return redirect(url_for("rounds.new", match_id=match.id))


def _back_to_the_table(access: Access, match: Match) -> Response:
    return redirect(url_for("live.show", match_id=match.id))


@bp.get(LIVE)
@table_page
def show(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    state, error = _state(match, _turns(match))
    if state is None:
        return render_page("matches/live.html", access=access, match=match, error=error)
    if not _has_turns(state):
        return _to_the_round_form(access, match)
    return _page(
        access, match, state, _blank_turn_form(access, match, state), _blank_hint_form(state)
    )


def read_turn(form: Any, state: RoundInProgress) -> dict[str, Any]:
    """The turn object of the match format that the form describes."""
    turn: dict[str, Any] = {"player": form.player.data}
    if rearranges_table(state):
        turn["played"] = form.played.cards
        turn["table"] = form.table.melds
    else:
        if form.melds.melds:
            turn["melds"] = form.melds.melds
        if form.layoffs.layoffs:
            turn["layoffs"] = form.layoffs.layoffs
        taken = form.took_discard.cards or _taken_from_pile(form, state)
        if taken:
            turn["took_discard"] = taken
        if form.discard.card:
            turn["discard"] = form.discard.card
        if form.buyer.data and form.bought.card:
            turn["buy"] = {"player": form.buyer.data, "card": form.bought.card}
    if form.out.data:
        turn["out"] = True
    return turn


def _taken_from_pile(form: Any, state: RoundInProgress) -> list[str]:
    """The cards a tap on the spread pile takes: that card and every card above it, top first."""
    pile = discard_pile(state)
    try:
        depth = int(form.take_from.data or "")
    except ValueError:
        return []
    return pile[:depth] if 1 <= depth <= len(pile) else []


@bp.post(LIVE + "/turn")
@edit_page
def turn(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    if done := door.repeated(request.form.get("once")):
        flash(gettext("This turn was saved already."))
        return redirect(done.location)
    turns = _turns(match)
    state, _error = _state(match, turns)
    if state is None or not _has_turns(state):
        return _back_to_the_table(access, match)
    form = make_turn_form(match, state)
    location = url_for("live.show", match_id=match.id)
    recording = RecordTurn(
        seen=door.Seen(match_version=form.match_version.data),
        once=form.once.data,
        location=location,
        state=state,
        turns=tuple(turns),
        marks_out=True,
        page=staleturns.Seen(
            reads.posted_number(form.for_round), reads.posted_number(form.turns_before)
        ),
        player=form.player.data or "",
        read=lambda: _posted_turn(form, state),
    )
    answer = door.save(recording, match)
    if isinstance(answer, door.Saved):
        if answer.moved_on:
            flash(staleturns.saved_after(len(turns) + 1))
        return redirect(location)
    if isinstance(answer, door.Conflict) and answer.refused is None:
        kept = _brought_up_to_date(form, match, state, turns)
        return _conflict_page(access, match, state, form, [*answer.words, *kept])
    if isinstance(answer, door.Conflict):  # typed before the round moved on: still that turn
        form.turns_before.data = str(len(turns))
        form.match_version.data = str(match.version)
    elif state.is_over:
        return _back_to_the_table(access, match)
    refused = answer.refused if isinstance(answer, door.Conflict) else answer
    if isinstance(refused, door.Refused) and isinstance(refused.reason, RefereeError):
        show_error(form, card_fields(form), refused.reason, state.number)
        if isinstance(answer, door.Conflict) and request.form.get("action") != "arrange":
            reason = staleturns.refused(i18n.error_text(refused.reason, where=False))
            kept = _brought_up_to_date(form, match, state, turns)
            return _conflict_page(access, match, state, form, [reason, *kept])
    return _page(access, match, state, form, _blank_hint_form(state))


def _posted_turn(form: Any, state: RoundInProgress) -> dict[str, Any]:
    """The turn posted, read once the door has compared what the phone saw (raises
    RefereeError; :class:`door.Refusal` without words when there is nothing to save: the
    round is over, the form's fields say why, or it only asked to lay the table out)."""
    if state.is_over or not form.validate_on_submit():
        raise door.Refusal("")
    entry = read_turn(form, state)
    if request.form.get("action") == "arrange" and rearranges_table(state):
        arrange_turn(form, state, entry)  # laid out in the form, nothing saved
        raise door.Refusal("")
    return entry


def _brought_up_to_date(
    form: Any, match: Match, state: RoundInProgress, turns: list[dict[str, Any]]
) -> list[str]:
    """The form names the round as it is now: saving it again is one tap, if it still makes
    sense."""
    form.turns_before.data = str(len(turns))
    form.for_round.data = str(state.number)
    form.match_version.data = str(match.version)
    return [gettext("Your entry is kept below: check it against the table and save again.")]


def _conflict_page(
    access: Access, match: Match, state: RoundInProgress, form: Any, conflict: list[str]
) -> tuple[str, int]:
    page = _page(access, match, state, form, _blank_hint_form(state), conflict=conflict)
    return page.body, 409


def turn_conflict(
    form: Any, match: Match, state: RoundInProgress, turns: list[dict[str, Any]]
) -> list[str]:
    """What changed since a live-round form was opened, the door found (nothing is saved).

    The form names the match's version; the turn count and round number it also
    carries say what happened meanwhile.  The form is brought up to date, so that
    saving it again (if it still makes sense) is one tap.
    """
    before = reads.posted_number(form.turns_before)
    opened_for = reads.posted_number(form.for_round)
    changes = []
    if opened_for is not None and opened_for != state.number:
        changes.append(
            gettext(
                "Round %(number)s was ended, saved or discarded on another phone meanwhile.",
                number=opened_for,
            )
        )
    elif before is not None and before < len(turns):
        for number, other in enumerate(turns[before:], start=before + 1):
            changes.append(
                gettext(
                    "Turn %(number)s (%(name)s) was recorded on another phone meanwhile.",
                    number=number,
                    name=other.get("player", "?"),
                )
            )
    elif before is not None and before > len(turns):
        changes.append(
            gettext(
                "The last turn was taken back on another phone meanwhile: the round has"
                " %(count)s turns now.",
                count=len(turns),
            )
        )
    else:
        changes.append(gettext("The round was changed on another phone meanwhile."))
    if state.is_over:
        changes.append(gettext("%(name)s went out.", name=state.out))
    else:
        changes.append(
            gettext("Your entry is kept below: check it against the table and save again.")
        )
    form.turns_before.data = str(len(turns))
    if hasattr(form, "for_round"):
        form.for_round.data = str(state.number)
    form.match_version.data = str(match.version)
    return changes


def arrange_turn(form: Any, state: RoundInProgress, entry: dict[str, Any]) -> None:
    """Lay out the table with the cards played, in the turn form (nothing saved).

    When no layout uses every card played, say which cards go back to the hand.
    """
    if not entry["played"]:
        form.played.errors = [*form.played.errors, gettext("Which cards were played?")]
        return
    before = table_melds(state)
    players = len(state.players)
    found = reads.call_engine(arrange, before, entry["played"], players, rules=state.rules)
    if found is not None:
        form.table.data = str(found)
        return
    back = reads.call_engine(take_back, before, entry["played"], players, rules=state.rules)
    form.form_errors.append(
        gettext(
            "No arrangement uses all these cards; these go back to the hand: %(cards)s",
            cards=format_cards(back),
        )
    )


@bp.post(LIVE + "/hint")
@table_page
def hint(access: Access, match_id: int) -> Any:
    """manipulation: the most cards of a hand that can go on the table now (nothing saved).

    With the edit link, the turn form comes back filled in with that play.
    """
    match = open_match(access, match_id)
    state, _error = _state(match, _turns(match))
    if state is None or state.is_over or not rearranges_table(state):
        return _back_to_the_table(access, match)
    turn_form = _blank_turn_form(access, match, state)
    hint_form = PlayHintForm()
    play = None
    if hint_form.validate_on_submit():
        try:
            play = reads.call_engine(
                best_play,
                hint_form.hand.cards,
                table_melds(state),
                len(state.players),
                rules=state.rules,
            )
        except RefereeError as refused:
            hint_form.hand.errors.append(i18n.error_text(refused, where=False))
    if turn_form is not None and play is not None and play.arrangement is not None:
        turn_form.played.data = format_cards(play.cards)
        turn_form.table.data = str(play.arrangement)
    return _page(access, match, state, turn_form, hint_form, play)


def _named_turns() -> tuple[int | None, door.Seen]:
    """The number of turns an undo or discard button saw, and the match's version it saw."""
    if not ActionForm().validate_on_submit():
        abort(400)
    seen = reads.posted_number(request.form.get("turns"))
    return seen, door.Seen(match_version=request.form.get("match_version"))


@bp.post(LIVE + "/undo")
@edit_page
def undo(access: Access, match_id: int) -> Any:
    """Take back the last turn: the one the button names (the round goes with its first turn).

    The same request again does nothing: a double tap takes back one turn.
    """
    match = open_match(access, match_id)
    seen, saw = _named_turns()
    answer = door.save(TakeBackTurn(seen=saw), match)
    if isinstance(answer, door.Saved):
        flash(gettext("The last turn was taken back."))
    elif isinstance(answer, door.Conflict):
        turns = _turns(match)
        if seen is None or len(turns) != seen - 1:
            return _live_conflict(access, match, seen, turns)
        flash(gettext("Turn %(number)s was taken back already.", number=seen))
    return _back_to_the_table(access, match)  # refused: no turn to take back


def _live_conflict(
    access: Access, match: Match, seen: int | None, turns: list[dict[str, Any]]
) -> tuple[str, int]:
    from referee.web.views.rounds import conflict_page

    if seen is not None and len(turns) > seen:
        change = gettext(
            "Turn %(number)s (%(name)s) was recorded on another phone meanwhile; nothing was done.",
            number=len(turns),
            name=turns[-1].get("player", "?"),
        )
    else:
        change = gettext("The round was changed on another phone meanwhile; nothing was done.")
    return conflict_page(access, match, change)


@bp.post(LIVE + "/discard")
@edit_page
def discard(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    seen, saw = _named_turns()
    if match.live_round is not None:  # else: discarded already (a double tap)
        answer = door.save(DiscardLiveRound(seen=saw), match)
        if isinstance(answer, door.Conflict):
            return _live_conflict(access, match, seen, _turns(match))
    flash(gettext("The live round was discarded."))
    return to_score_sheet(access, match)


@bp.route(LIVE + "/end", methods=["GET", "POST"])
@edit_page
def end(access: Access, match_id: int) -> Any:
    match = open_match(access, match_id)
    players = match.seated_names
    turns = _turns(match)
    state, error = _state(match, turns)
    if state is None:
        flash(i18n.error_text(error) if error else gettext("There is no live round."), "error")
        return to_score_sheet(access, match)
    if not _has_turns(state):
        return _to_the_round_form(access, match)
    out = state.out
    inputs = round_inputs(find_ruleset(match.rules), match.options)
    form = end_form_class(state.rules, players, out, inputs)()
    conflict: list[str] = []
    if not form.is_submitted():
        form.for_round.data = str(state.number)
        form.match_version.data = str(match.version)
    elif done := door.repeated(form.once.data):
        flash(gettext("This round was saved already."))
        return redirect(done.location)
    if form.is_submitted() and form.validate():
        try:
            entry = build_end(form, state.rules, players, out, turns, inputs)
            location = url_for("matches.scoreboard", match_id=match.id)
            seen = door.Seen(match_version=form.match_version.data)
            ending = EndLiveRound(seen=seen, once=form.once.data, location=location, entry=entry)
            answer = door.save(ending, match)
            if isinstance(answer, door.Refused):
                assert isinstance(answer.reason, RefereeError)
                raise answer.reason
        except RefereeError as refused:
            hands = {
                name: field
                for name, field in zip(players, numbered(form, "hand"), strict=True)
                if name != out
            }
            show_error(form, card_fields(form), refused, state.number, hands)
        else:
            if isinstance(answer, door.Saved):
                flash(gettext("Round %(number)s saved.", number=state.number))
                return redirect(location)
            conflict = _end_conflict(form, match, state, turns)
    page = render_page(
        "matches/live_end.html",
        access=access,
        match=match,
        form=form,
        players=players,
        out=out,
        state=state,
        rows=picker_rows(match),
        used=_cards_on_table(state),
        copies=state.rules.copies(len(players)),
        hand_sizes={name: state.hand_size(name) for name in players},
        round_inputs=input_fields(form, inputs),
        conflict=conflict,
    )
    if conflict:
        return page.body, 409
    return page


def _end_conflict(
    form: Any, match: Match, state: RoundInProgress, turns: list[dict[str, Any]]
) -> list[str]:
    opened_for = reads.posted_number(form.for_round)
    if opened_for is not None and opened_for != state.number:
        change = gettext(
            "Round %(number)s was ended, saved or discarded on another phone meanwhile.",
            number=opened_for,
        )
    else:
        change = gettext(
            "The turns of this round were changed on another phone meanwhile: it has"
            " %(count)s turns now.",
            count=len(turns),
        )
    form.for_round.data = str(state.number)
    form.match_version.data = str(match.version)
    return [change, gettext("Your entry is kept below: check it and save again.")]
