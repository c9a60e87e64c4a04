"""Rummikub's table referee on a phone: is this turn legal (the whole table after it, the
initial meld from the rack, the jokers), put a table back that went wrong, and what a rack can
play.  Opened from a match (``?options=``), it judges by the match's house rules."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from referee.errors import RefereeError
from referee.rulesets import find_ruleset
from referee.rulesets.rummikub import RULES_ID, options_of
from referee.rummikub import check_turn, hint, put_back
from referee.web.forms.tiles import TilesTableForm
from referee.web.show import i18n
from referee.web.store import reads
from referee.web.views.pages import render_page
from referee.web.views.tools import read_options

bp = Blueprint("tiles", __name__)

ACTIONS = ("check", "put_back", "hint")


def _sets(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


@bp.route("/tiles", methods=["GET", "POST"])
def table() -> Any:
    """The table referee: one of three answers, asked by the button pressed."""
    form = TilesTableForm()
    if request.method == "GET":
        form.melded.data = True
    answer: dict[str, Any] = {}
    options_text = request.values.get("options")
    try:
        rules = find_ruleset(RULES_ID).with_options(read_options(options_text))
    except RefereeError as error:
        form.form_errors.append(i18n.error_text(error))
        rules = find_ruleset(RULES_ID)
    options = options_of(rules)
    action = request.form.get("action", "check")
    if form.validate_on_submit() and action in ACTIONS:
        before, after = _sets(form.before.data), _sets(form.after.data)
        try:
            if action == "check":
                answer["verdict"] = reads.call_engine(
                    check_turn,
                    before,
                    form.played.data or "",
                    after,
                    melded=bool(form.melded.data),
                    options=options,
                )
            elif action == "put_back":
                answer["layout"] = reads.call_engine(
                    put_back, after or before, form.played.data or ""
                )
            else:
                answer["hint"] = reads.call_engine(
                    hint,
                    form.rack.data or "",
                    after or before,
                    melded=bool(form.melded.data),
                    options=options,
                )
        except RefereeError as error:
            form.form_errors.append(i18n.error_text(error))
    return render_page(
        "tools/tiles.html",
        form=form,
        rules=rules,
        options=options,
        options_text=options_text or "",
        **answer,
    )
