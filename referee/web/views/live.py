"""The live round: the table as it stands, one turn at a time, undo, and the end of the round.

The turns are stored as entered in the round's ``entry`` (``complete`` false
until the round ends).  Each new turn is checked by the engine on the round
so far (:func:`matchlog.live`); a refused turn shows the reason and saves
nothing.  In ``manipulation`` the engine's table solver also lays out the
table for a turn ("Arrange it for us") and says which cards of a hand can be
played ("What can I play?"); neither saves anything.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms.validators import ValidationError

from referee.cards import RANKS, SUITS, Card
from referee.errors import RefereeError
from referee.notation import format_card, format_cards
from referee.round import RoundInProgress
from referee.rulesets import TurnStyle
from referee.table import Play, arrange, best_play, format_table, take_back
from referee.web import i18n, matchlog
from referee.web.access import Access, open_match, open_table
from referee.web.extensions import db
from referee.web.feedback import show_error
from referee.web.fields import choices, numbered
from referee.web.forms import ActionForm, PlayHintForm
from referee.web.models import Match, Round
from referee.web.roundforms import (
    ManipulationTurnForm,
    TurnForm,
    build_end,
    card_fields,
    end_form_class,
)
from referee.web.scoresheet import picker_rows
from referee.web.views.pages import render_page, to_score_sheet

bp = Blueprint("live", __name__)
LIVE = "/<any(t,v):mode>/<key>/m/<int:match_id>/live"


def _turns(match: Match) -> list[dict[str, Any]]:
    stored = match.live_round
    return copy.deepcopy(stored.entry.get("turns", [])) if stored is not None else []


def _state(match: Match, turns: list[dict[str, Any]]) -> tuple[Any, RefereeError | None]:
    try:
        return matchlog.live(match, turns), None
    except RefereeError as error:
        return None, error


def _has_turns(state: RoundInProgress) -> bool:
    """Whether the ruleset's rounds are entered turn by turn (gin's are not)."""
    return state.rules.turn_style is not TurnStyle.NONE


def _rearranges_table(state: RoundInProgress) -> bool:
    """Whether a turn may rearrange the whole table (manipulation)."""
    return state.rules.turn_style is TurnStyle.TABLE


def _table_view(state: RoundInProgress) -> list[dict[str, Any]]:
    """The melds on the table, each card marked with who laid it off (if it was)."""
    melds = []
    for meld in state.table:
        laid_off = [(format_card(lay.card), lay.player) for lay in meld.layoffs]
        cards = []
        for card in meld.cards:
            code = format_card(card)
            by = next((who for (c, who) in laid_off if c == code), None)
            if by is not None:
                laid_off.remove((code, by))
            cards.append({"code": code, "by": by})
        melds.append({"number": meld.number, "owner": meld.player, "cards": cards})
    return melds


def _accepts(state: RoundInProgress) -> dict[str, list[int]]:
    """For the picker: which melds can take each card as a lay-off."""
    if not state.table:
        return {}
    found = {}
    for suit in SUITS:
        for rank in RANKS:
            code = format_card(Card(rank, suit))
            numbers = matchlog.call_engine(state.melds_accepting, code)
            if numbers:
                found[code] = numbers
    return found


def _cards_on_table(state: RoundInProgress) -> list[str]:
    """The natural cards on the table, which the picker marks as used."""
    return sorted({format_card(card) for card in state.used_cards if not card.is_joker})


def _next_player(state: RoundInProgress, turns: list[dict[str, Any]]) -> str:
    """Who most likely plays next: the leader, then the seat after the last turn entered."""
    last = turns[-1].get("player") if turns else None
    return state.header.seat_after(last) if last in state.players else state.leader


def _table_melds(state: RoundInProgress) -> list[tuple[Card, ...]]:
    """The cards of every meld on the table, as the table solver takes them."""
    return [meld.cards for meld in state.table]


def _turn_form(match: Match, state: RoundInProgress, **kwargs: Any) -> FlaskForm:
    """The turn form of the ruleset (read from this request unless ``formdata=None``)."""
    form_class = ManipulationTurnForm if _rearranges_table(state) else TurnForm
    form = form_class(**kwargs)
    form.player.choices = choices([(name, name) for name in match.player_names])
    return form


def _blank_turn_form(access: Access, match: Match, state: RoundInProgress) -> FlaskForm | None:
    """The turn form as it starts, for whoever has the edit link, while the round goes on."""
    if not access.can_edit or state.is_over:
        return None
    form = _turn_form(match, state, formdata=None)
    form.player.data = _next_player(state, _turns(match))
    form.turns_before.data = str(len(_turns(match)))
    if _rearranges_table(state):  # start from the table as it stands
        form.table.data = format_table(_table_melds(state))
    return form


def _blank_hint_form(state: RoundInProgress) -> PlayHintForm | None:
    """The "what can I play" form as it starts, in manipulation while the round goes on."""
    if state.is_over or not _rearranges_table(state):
        return None
    return PlayHintForm(formdata=None)


def _page(
    access: Access,
    match: Match,
    state: RoundInProgress,
    form: FlaskForm | None,
    hint_form: PlayHintForm | None,
    hint: Play | None = None,
) -> Any:
    return render_page(
        "matches/live.html",
        access=access,
        match=match,
        state=state,
        error=None,
        form=form,
        hint_form=hint_form,
        hint=hint,
        rearranges_table=_rearranges_table(state),
        layoffs=bool(state.rules.layoffs) and not _rearranges_table(state),
        turns=_turns(match),
        melds=_table_view(state),
        accepts=json.dumps(_accepts(state)),
        used=_cards_on_table(state),
        jokers=state.rules.joker_count(len(state.players)),
        # manipulation's table field lists the table already, jokers included
        jokers_used=0
        if _rearranges_table(state)
        else sum(1 for card in state.used_cards if card.is_joker),
        hand_sizes={name: state.hand_size(name) for name in match.player_names},
        rows=picker_rows(match),
    )


def _to_the_round_form(access: Access, match: Match) -> Response:
    """Games whose rounds have no turns (gin) are entered when the round ends."""
    flash(gettext("A round of this game is entered when it ends."))
    return redirect(url_for("rounds.new", mode=access.mode, key=access.key, match_id=match.id))


def _back_to_the_table(access: Access, match: Match) -> Response:
    return redirect(url_for("live.show", mode=access.mode, key=access.key, match_id=match.id))


@bp.get(LIVE)
def show(mode: str, key: str, match_id: int) -> Any:
    access = open_table(mode, key)
    match = open_match(access, match_id)
    state, error = _state(match, _turns(match))
    if state is None:
        return render_page("matches/live.html", access=access, match=match, error=error)
    if not _has_turns(state):
        return _to_the_round_form(access, match)
    return _page(
        access, match, state, _blank_turn_form(access, match, state), _blank_hint_form(state)
    )


def _read_turn(form: Any, state: RoundInProgress) -> dict[str, Any]:
    """The turn object of the match format that the form describes."""
    turn: dict[str, Any] = {"player": form.player.data}
    if _rearranges_table(state):
        turn["played"] = form.played.cards
        turn["table"] = form.table.melds
    else:
        if form.melds.melds:
            turn["melds"] = form.melds.melds
        if form.layoffs.layoffs:
            turn["layoffs"] = form.layoffs.layoffs
        if form.took_discard.cards:
            turn["took_discard"] = form.took_discard.cards
        if form.discard.card:
            turn["discard"] = form.discard.card
        if len(turn) == 1 and not form.out.data:
            form.form_errors.append(gettext("Nothing to record: add a meld or a lay-off."))
            raise ValidationError("empty")
    if form.out.data:
        turn["out"] = True
    return turn


@bp.post(LIVE + "/turn")
def turn(mode: str, key: str, match_id: int) -> Any:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    turns = _turns(match)
    state, _error = _state(match, turns)
    if state is None or state.is_over or not _has_turns(state):
        return _back_to_the_table(access, match)
    form = _turn_form(match, state)
    if _stale_turn(form, turns):
        return _page(access, match, state, form, _blank_hint_form(state))
    if form.validate_on_submit():
        try:
            entry = _read_turn(form, state)
            if request.form.get("action") == "arrange" and _rearranges_table(state):
                _arrange(form, state, entry)
            else:
                matchlog.call_engine(state.apply_turn, entry)
                _save_turn(match, turns + [entry])
                return _back_to_the_table(access, match)
        except ValidationError:
            pass
        except RefereeError as refused:
            show_error(form, card_fields(form), refused, state.number)
    return _page(access, match, state, form, _blank_hint_form(state))


def _stale_turn(form: Any, turns: list[dict[str, Any]]) -> bool:
    """Whether the turn form was opened before the last turn was recorded (Back, then Save).

    Then nothing is saved: the form comes back, up to date, with the table above it.
    """
    try:
        before = int(form.turns_before.data)
    except (TypeError, ValueError):
        return False  # a form without the count (an older page): nothing to compare
    if before >= len(turns):
        return False
    form.turns_before.data = str(len(turns))
    form.form_errors.append(
        gettext(
            "Turn %(number)s is already recorded (see the table above); this form was out of"
            " date, so nothing was saved. Save again only if this is another turn.",
            number=len(turns),
        )
    )
    return True


def _arrange(form: Any, state: RoundInProgress, entry: dict[str, Any]) -> None:
    """Lay out the table with the cards played, in the turn form (nothing saved).

    When no layout uses every card played, say which cards go back to the hand.
    """
    if not entry["played"]:
        form.played.errors = [*form.played.errors, gettext("Which cards were played?")]
        return
    before = _table_melds(state)
    players = len(state.players)
    found = matchlog.call_engine(arrange, before, entry["played"], players, rules=state.rules)
    if found is not None:
        form.table.data = str(found)
        return
    back = matchlog.call_engine(take_back, before, entry["played"], players, rules=state.rules)
    form.form_errors.append(
        gettext(
            "No arrangement uses all these cards; these go back to the hand: %(cards)s",
            cards=format_cards(back),
        )
    )


@bp.post(LIVE + "/hint")
def hint(mode: str, key: str, match_id: int) -> Any:
    """manipulation: the most cards of a hand that can go on the table now (nothing saved).

    With the edit link, the turn form comes back filled in with that play.
    """
    access = open_table(mode, key)
    match = open_match(access, match_id)
    state, _error = _state(match, _turns(match))
    if state is None or state.is_over or not _rearranges_table(state):
        return _back_to_the_table(access, match)
    turn_form = _blank_turn_form(access, match, state)
    hint_form = PlayHintForm()
    play = None
    if hint_form.validate_on_submit():
        try:
            play = matchlog.call_engine(
                best_play,
                hint_form.hand.cards,
                _table_melds(state),
                len(state.players),
                rules=state.rules,
            )
        except RefereeError as refused:
            hint_form.hand.errors.append(i18n.error_text(refused, where=False))
    if turn_form is not None and play is not None and play.arrangement is not None:
        turn_form.played.data = format_cards(play.cards)
        turn_form.table.data = str(play.arrangement)
    return _page(access, match, state, turn_form, hint_form, play)


def _save_turn(match: Match, turns: list[dict[str, Any]]) -> None:
    stored = match.live_round
    if stored is None:
        match.rounds.append(
            Round(number=match.next_round_number, entry={"turns": turns}, complete=False)
        )
    else:
        stored.entry = {**stored.entry, "turns": turns}
    db.session.commit()


@bp.post(LIVE + "/undo")
def undo(mode: str, key: str, match_id: int) -> Response:
    """Take back the last turn (the round disappears with its first turn)."""
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    stored = match.live_round
    if ActionForm().validate_on_submit() and stored is not None:
        turns = _turns(match)[:-1]
        if turns:
            stored.entry = {**stored.entry, "turns": turns}
        else:
            match.rounds.remove(stored)
            db.session.delete(stored)
        db.session.commit()
        flash(gettext("The last turn was taken back."))
    return _back_to_the_table(access, match)


@bp.post(LIVE + "/discard")
def discard(mode: str, key: str, match_id: int) -> Response:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    stored = match.live_round
    if ActionForm().validate_on_submit() and stored is not None:
        match.rounds.remove(stored)
        db.session.delete(stored)
        db.session.commit()
        flash(gettext("The live round was discarded."))
    return to_score_sheet(access, match)


@bp.route(LIVE + "/end", methods=["GET", "POST"])
def end(mode: str, key: str, match_id: int) -> Any:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    players = match.player_names
    turns = _turns(match)
    state, error = _state(match, turns)
    if state is None:
        flash(i18n.error_text(error) if error else gettext("There is no live round."), "error")
        return to_score_sheet(access, match)
    if not _has_turns(state):
        return _to_the_round_form(access, match)
    out = state.out
    form = end_form_class(match.rules, players, out)()
    if not form.is_submitted():
        form.for_round.data = str(state.number)
    elif (form.for_round.data or "").isdigit() and int(form.for_round.data) < state.number:
        flash(
            gettext(
                "Round %(number)s is already saved; this form is out of date.",
                number=form.for_round.data,
            ),
            "error",
        )
        return to_score_sheet(access, match)
    if form.is_submitted() and form.validate():
        try:
            entry = build_end(form, players, out, turns)
            matchlog.verify(match, matchlog.entries(match) + [entry])
        except ValidationError:
            pass
        except RefereeError as refused:
            hands = {
                name: field
                for name, field in zip(players, numbered(form, "hand"), strict=True)
                if name != out
            }
            show_error(form, card_fields(form), refused, state.number, hands)
        else:
            stored = match.live_round
            if stored is None:
                stored = Round(number=match.next_round_number, entry=entry)
                match.rounds.append(stored)
            stored.entry, stored.complete = entry, True
            db.session.commit()
            flash(gettext("Round %(number)s saved.", number=stored.number))
            return to_score_sheet(access, match)
    return render_page(
        "matches/live_end.html",
        access=access,
        match=match,
        form=form,
        players=players,
        out=out,
        state=state,
        rows=picker_rows(match),
        used=_cards_on_table(state),
        hand_sizes={name: state.hand_size(name) for name in players},
    )
