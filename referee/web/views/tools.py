"""Tools that need no match: the meld checker and the gin hand analyser."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from referee.errors import RefereeError
from referee.melds import check_layoff, check_meld
from referee.rulesets import find_ruleset
from referee.web import gin_view, i18n
from referee.web.forms import CheckerForm, GinHandForm

bp = Blueprint("tools", __name__)


@bp.route("/check", methods=["GET", "POST"])
def checker() -> Any:
    form = CheckerForm()
    verdict = None
    if form.validate_on_submit():
        rules = find_ruleset(form.rules.data)
        try:
            if form.meld.cards:
                verdict = check_layoff(form.meld.cards, form.cards.cards, rules)
            else:
                verdict = check_meld(form.cards.cards, rules)
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    page = render_template(
        "tools/checker.html", form=form, verdict=verdict, layoff=bool(form.meld.data)
    )
    return (page, 400) if form.errors else page


@bp.route("/gin", methods=["GET", "POST"])
def gin_analyser() -> Any:
    form = GinHandForm()
    arrangement = None
    if form.validate_on_submit():
        try:
            arrangement = gin_view.analyse(" ".join(form.cards.cards))
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    page = render_template("tools/gin.html", form=form, arrangement=arrangement)
    return (page, 400) if form.errors else page
