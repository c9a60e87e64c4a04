"""Tools that need no match: the meld checker, the gin hand analyser and "Check my show"."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask_babel import lazy_gettext as _l

from referee.errors import RefereeError
from referee.gin import best_arrangement
from referee.indian import GroupKind, check_show, least_count
from referee.melds import check_layoff, check_meld
from referee.rulesets import Ruleset, find_ruleset
from referee.web import i18n, matchlog
from referee.web.forms import CheckerForm, GinHandForm, IndianShowForm, rulesets_with_option
from referee.web.views.pages import render_page

bp = Blueprint("tools", __name__)


def _checked_rules(form: CheckerForm) -> Ruleset:
    """The chosen ruleset, with the chosen ace option where the ruleset has that option."""
    rules = find_ruleset(form.rules.data)
    return rules.with_options({"ace": form.ace.data} if "ace" in rules.options else {})


@bp.route("/check", methods=["GET", "POST"])
def checker() -> Any:
    form = CheckerForm()
    verdict = None
    if form.validate_on_submit():
        try:
            rules = _checked_rules(form)
            if form.meld.cards:
                verdict = matchlog.call_engine(
                    check_layoff, form.meld.cards, form.cards.cards, rules
                )
            else:
                verdict = matchlog.call_engine(check_meld, form.cards.cards, rules)
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    return render_page(
        "tools/checker.html",
        form=form,
        verdict=verdict,
        ace_rulesets=[rules.id for rules in rulesets_with_option("ace")],
    )


@bp.route("/gin", methods=["GET", "POST"])
def gin_analyser() -> Any:
    form = GinHandForm()
    arrangement = None
    if form.validate_on_submit():
        try:
            arrangement = matchlog.call_engine(best_arrangement, form.cards.cards)
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    return render_page("tools/gin.html", form=form, arrangement=arrangement)


@bp.route("/indian", methods=["GET", "POST"])
def indian_show() -> Any:
    """Indian rummy's "Check my show": the show's verdict, why not, an arrangement, and what
    the same cards count as a loser's hand."""
    form = IndianShowForm()
    show = count = None
    if form.validate_on_submit():
        melds = form.groups.melds
        groups = melds if len(melds) > 1 else None
        cards = [card for meld in melds for card in meld]
        options = {"decks": int(form.decks.data or 2)}
        try:
            show = matchlog.call_engine(
                check_show, None if groups else cards, form.cut.card, groups=groups, **options
            )
            count = matchlog.call_engine(least_count, cards, form.cut.card, **options)
        except RefereeError as error:
            form.groups.errors.append(i18n.error_text(error))
    return render_page(
        "tools/indian.html", form=form, show=show, count=count, kind_labels=KIND_LABELS
    )


KIND_LABELS = {
    GroupKind.PURE: _l("pure sequence"),
    GroupKind.IMPURE: _l("impure sequence"),
    GroupKind.SET: _l("set"),
}
