"""Tools that need no match: the meld checker, the gin hand analyser and "Check my show".

Both take house rules: opened from a match (``?options=`` with its options as JSON)
they judge by the match's options, which the page lists.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request
from flask_babel import lazy_gettext as _l

from referee.errors import RefereeError
from referee.gin import best_arrangement
from referee.indian import GroupKind, check_show, least_count
from referee.melds import check_layoff, check_meld
from referee.rulesets import RULESETS, Ruleset, find_ruleset
from referee.web.forms import CheckerForm, GinHandForm, IndianShowForm, rulesets_with_option
from referee.web.forms.indian import CountForm
from referee.web.forms.rounds import add_round_inputs, input_fields, round_inputs
from referee.web.show import i18n
from referee.web.show.houserules import house_rules
from referee.web.store import reads
from referee.web.views.pages import render_page

bp = Blueprint("tools", __name__)
# A match's options as JSON in a link or a hidden field: a few dozen options at most.
OPTIONS_TEXT_MAX = 2000


def read_options(text: str | None) -> dict[str, Any]:
    """House rules passed as JSON (from a match's link); anything else is no house rules."""
    if not text or len(text) > OPTIONS_TEXT_MAX:
        return {}
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _house_rules_given(form: Any) -> dict[str, Any]:
    if not form.is_submitted():
        form.options.data = request.args.get("options", "")
    return read_options(form.options.data)


def _checked_rules(form: CheckerForm, options: dict[str, Any]) -> Ruleset:
    """The chosen ruleset with the match's house rules when they are that ruleset's, or
    else with the chosen ace option where the ruleset has that option."""
    rules = find_ruleset(form.rules.data)
    if options and form.options_for.data == rules.id:
        return rules.with_options(options)
    return rules.with_options({"ace": form.ace.data} if "ace" in rules.options else {})


@bp.route("/check", methods=["GET", "POST"])
def checker() -> Any:
    form = CheckerForm()
    options = _house_rules_given(form)
    if not form.is_submitted() and request.args.get("rules") in RULESETS:
        form.rules.data = form.options_for.data = request.args["rules"]
        if "ace" in options:
            form.ace.data = str(options["ace"])
    verdict = None
    if form.validate_on_submit():
        try:
            rules = _checked_rules(form, options)
            if form.meld.cards:
                verdict = reads.call_engine(check_layoff, form.meld.cards, form.cards.cards, rules)
            else:
                verdict = reads.call_engine(check_meld, form.cards.cards, rules)
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    return render_page(
        "tools/checker.html",
        form=form,
        verdict=verdict,
        ace_rulesets=[rules.id for rules in rulesets_with_option("ace")],
        house_rules=house_rules(form.options_for.data or "", options) if options else [],
    )


@bp.route("/gin", methods=["GET", "POST"])
def gin_analyser() -> Any:
    gin = find_ruleset("gin")
    options = read_options(request.values.get("options"))
    try:
        rules = gin.with_options(options)
    except RefereeError:
        rules, options = gin, {}
    inputs = round_inputs(gin, options)

    class Form(GinHandForm):
        pass

    add_round_inputs(Form, inputs)
    form = Form()
    if not form.is_submitted():
        form.options.data = request.args.get("options", "") if options else ""
    arrangement = None
    limit = rules.knock.limit if rules.knock is not None else None
    if form.validate_on_submit():
        given = {asked.name: getattr(form, asked.name).card for asked in inputs}
        try:
            round_rules = rules.for_round({k: v for k, v in given.items() if v})
            limit = round_rules.knock.limit if round_rules.knock is not None else None
            arrangement = reads.call_engine(best_arrangement, form.cards.cards, round_rules)
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    return render_page(
        "tools/gin.html",
        form=form,
        arrangement=arrangement,
        knock_limit=limit,
        round_inputs=input_fields(form, inputs),
        house_rules=house_rules("gin", options) if options else [],
    )


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
            show = reads.call_engine(
                check_show, None if groups else cards, form.cut.card, groups=groups, **options
            )
            count = reads.call_engine(least_count, cards, form.cut.card, **options)
        except RefereeError as error:
            form.groups.errors.append(i18n.error_text(error))
    return render_page(
        "tools/indian.html", form=form, show=show, count=count, kind_labels=KIND_LABELS
    )


@bp.route("/indian/count", methods=["GET", "POST"])
def indian_count() -> Any:
    """Indian rummy's count helper: a loser's best arrangement and count."""
    form = CountForm()
    count = None
    if form.validate_on_submit():
        try:
            count = reads.call_engine(
                least_count, form.cards.cards, form.cut.card, decks=int(form.decks.data or 2)
            )
        except RefereeError as error:
            form.cards.errors.append(i18n.error_text(error))
    return render_page("tools/indian_count.html", form=form, count=count)


KIND_LABELS = {
    GroupKind.PURE: _l("pure sequence"),
    GroupKind.IMPURE: _l("impure sequence"),
    GroupKind.SET: _l("set"),
}
