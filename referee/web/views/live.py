"""The live round: the table as it stands, one turn at a time, undo, and the end of the round.

The turns are stored as entered in the round's ``entry`` (``complete`` false
until the round ends).  Each new turn is checked by the engine on the round
so far (:func:`matchlog.live`); a refused turn shows the reason and saves
nothing.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response
from wtforms.validators import ValidationError

from referee.cards import RANKS, SUITS, Card
from referee.errors import RefereeError
from referee.notation import format_card
from referee.web import i18n, matchlog
from referee.web.access import open_match, open_table
from referee.web.extensions import db
from referee.web.feedback import point_at
from referee.web.fields import choices
from referee.web.forms import ActionForm
from referee.web.models import Match, Round
from referee.web.roundforms import (
    ManipulationTurnForm,
    TurnForm,
    build_end,
    card_fields,
    end_form_class,
)
from referee.web.scoresheet import picker_rows

bp = Blueprint("live", __name__)
LIVE = "/<any(t,v):mode>/<key>/m/<int:match_id>/live"


def _turns(match: Match) -> list[dict[str, Any]]:
    stored = match.live_round
    return copy.deepcopy(stored.entry.get("turns", [])) if stored is not None else []


def _table_view(state: Any) -> list[dict[str, Any]]:
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


def _accepts(state: Any) -> dict[str, list[int]]:
    """For the picker: which melds can take each card as a lay-off."""
    if not state.table:
        return {}
    found = {}
    for suit in SUITS:
        for rank in RANKS:
            code = format_card(Card(rank, suit))
            numbers = matchlog.engine(state.melds_accepting, code)
            if numbers:
                found[code] = numbers
    return found


def _next_player(state: Any, turns: list[dict[str, Any]], players: list[str]) -> str:
    if not turns:
        return str(state.leader)
    last = turns[-1].get("player")
    if last in players:
        return players[(players.index(last) + 1) % len(players)]
    return players[0]


def _turn_form(match: Match, players: list[str]) -> Any:
    form_class = ManipulationTurnForm if match.rules == "manipulation" else TurnForm
    form = form_class()
    form.player.choices = choices([(name, name) for name in players])
    return form


def _page(access: Any, match: Match, state: Any, error: RefereeError | None, form: Any) -> Any:
    players = match.player_names
    turns = _turns(match)
    page = render_template(
        "matches/live.html",
        access=access,
        table=access.table,
        match=match,
        state=state,
        error=error,
        form=form,
        turns=turns,
        melds=_table_view(state) if state is not None else [],
        accepts=json.dumps(_accepts(state)) if state is not None else "{}",
        used=sorted({format_card(c) for c in state.used_cards if not c.is_joker}) if state else [],
        hand_sizes={p: state.hand_size(p) for p in players} if state is not None else {},
        rows=picker_rows(match),
        action_form=ActionForm(),
    )
    return (page, 400) if form is not None and form.errors else page


@bp.get(LIVE)
def show(mode: str, key: str, match_id: int) -> Any:
    access = open_table(mode, key)
    match = open_match(access, match_id)
    state, error = _state(match, _turns(match))
    form = None
    if state is not None and not _has_turns(state):
        flash(gettext("A round of this game is entered when it ends."))
        return redirect(url_for("rounds.new", mode=mode, key=key, match_id=match.id))
    if access.can_edit and state is not None and not state.is_over:
        form = _turn_form(match, match.player_names)
        form.player.data = _next_player(state, _turns(match), match.player_names)
        if match.rules == "manipulation":  # start from the table as it stands
            form.table.data = "\n".join(
                " ".join(format_card(card) for card in meld.cards) for meld in state.table
            )
    return _page(access, match, state, error, form)


def _has_turns(state: Any) -> bool:
    from referee.rulesets import TurnStyle

    return state.rules.turn_style is not TurnStyle.NONE


def _state(match: Match, turns: list[dict[str, Any]]) -> tuple[Any, RefereeError | None]:
    try:
        return matchlog.live(match, turns), None
    except RefereeError as error:
        return None, error


def _read_turn(form: Any, rules_id: str) -> dict[str, Any]:
    turn: dict[str, Any] = {"player": form.player.data}
    if rules_id == "manipulation":
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
    state, error = _state(match, turns)
    if state is None or state.is_over or not _has_turns(state):
        return redirect(url_for("live.show", mode=mode, key=key, match_id=match.id))
    form = _turn_form(match, match.player_names)
    if form.validate_on_submit():
        try:
            entry = _read_turn(form, match.rules)
            if request.form.get("action") == "arrange":
                _arrange(form, state, entry)
            else:
                matchlog.engine(state.apply_turn, entry)
                _save_turn(match, turns + [entry])
                return redirect(url_for("live.show", mode=mode, key=key, match_id=match.id))
        except ValidationError:
            pass
        except RefereeError as refused:
            form.form_errors.append(i18n.error_text(refused, where=False))
            point_at(card_fields(form), refused)
    return _page(access, match, state, None, form)


def _arrange(form: Any, state: Any, entry: dict[str, Any]) -> None:
    """manipulation: let the solver lay out the table with the cards played (nothing saved)."""
    from referee.table import arrange, take_back

    if not entry["played"]:
        form.played.errors = [*form.played.errors, gettext("Which cards were played?")]
        return
    before = [meld.cards for meld in state.table]
    players = len(state.players)
    found = matchlog.engine(arrange, before, entry["played"], players, rules=state.rules)
    if found is None:
        back = matchlog.engine(take_back, before, entry["played"], players, rules=state.rules)
        form.form_errors.append(
            gettext(
                "No arrangement uses all these cards; these go back to the hand: %(cards)s",
                cards=" ".join(format_card(card) for card in back),
            )
        )
        return
    form.table.data = "\n".join(
        " ".join(format_card(c) for c in meld.cards) for meld in found.melds
    )
    form.table.melds = [line.split() for line in form.table.data.splitlines()]


def _save_turn(match: Match, turns: list[dict[str, Any]]) -> None:
    stored = match.live_round
    if stored is None:
        number = len(match.complete_rounds) + 1
        match.rounds.append(Round(number=number, entry={"turns": turns}, complete=False))
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
    return redirect(url_for("live.show", mode=mode, key=key, match_id=match.id))


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
    return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))


@bp.route(LIVE + "/end", methods=["GET", "POST"])
def end(mode: str, key: str, match_id: int) -> Any:
    access = open_table(mode, key, edit=True)
    match = open_match(access, match_id)
    players = match.player_names
    turns = _turns(match)
    state, error = _state(match, turns)
    if state is None:
        flash(i18n.error_text(error) if error else gettext("There is no live round."), "error")
        return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))
    out = state.out
    form = end_form_class(match.rules, players, out)()
    if form.is_submitted() and form.validate():
        try:
            entry = build_end(form, players, out, turns)
            matchlog.verify(match, matchlog.entries(match) + [entry])
        except ValidationError:
            pass
        except RefereeError as refused:
            form.form_errors.append(i18n.error_text(refused))
            point_at(card_fields(form), refused)
        else:
            stored = match.live_round
            if stored is None:
                stored = Round(number=len(match.complete_rounds) + 1, entry=entry)
                match.rounds.append(stored)
            stored.entry, stored.complete = entry, True
            db.session.commit()
            flash(gettext("Round %(number)s saved.", number=stored.number))
            return redirect(url_for("matches.scoreboard", mode=mode, key=key, match_id=match.id))
    page = render_template(
        "matches/live_end.html",
        access=access,
        table=access.table,
        match=match,
        form=form,
        players=players,
        out=out,
        state=state,
        rows=picker_rows(match),
        used=sorted({format_card(c) for c in state.used_cards if not c.is_joker}),
    )
    return (page, 400) if form.errors else page
