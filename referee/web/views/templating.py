"""Everything the templates call besides ``url_for`` and ``_``, registered in one place.

The words for what the engine reports are in :mod:`referee.web.show.labels`, card faces in
:mod:`referee.web.show.cardview`, absolute links and QR codes in :mod:`referee.web.play.links`;
this module puts them, and the few helpers of its own below, in the Jinja environment.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, request
from flask_babel import get_locale, gettext
from markupsafe import Markup

from referee.rulesets import RULESETS
from referee.rulesets.base import OUT_AT_ONCE_FIGURE
from referee.scoring import LOW_RUN_ACE
from referee.statistics import BEST_ROUND, POINTS_PER_ROUND_WON, statistics_figures
from referee.web.forms import LanguageForm
from referee.web.forms.entry import entry_form
from referee.web.forms.fields import numbered
from referee.web.play import links
from referee.web.play.names import short_names
from referee.web.show import cardview, charts, entered, houserules, i18n, labels, scoresheet
from referee.web.show.phase10 import phase_list
from referee.web.store import reads


def install(app: Flask) -> None:
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals.update(
        face=cardview.face,
        reason_text=i18n.reason_text,
        error_text=i18n.error_text,
        LANGUAGES=i18n.LANGUAGES,
        outcome_label=labels.outcome_label,
        match_rules=scoresheet.ruleset_of,
        gin_outcome=labels.gin_outcome,
        gin_verdict=labels.gin_verdict,
        picker_deck=cardview.picker_deck,
        picker_rows=scoresheet.picker_rows,
        ruleset_description=labels.description,
        ruleset_name=labels.ruleset_name,
        contract_label=labels.contract_label,
        contract_words=labels.contract_words,
        signed=labels.signed,
        deal_columns=scoresheet.deal_columns,
        in_order=scoresheet.in_order,
        deal_contracts=labels.deal_contracts,
        player_ranges=labels.player_ranges,
        LOW_RUN_ACE=LOW_RUN_ACE,
        numbered=numbered,
        external_url=links.external_url,
        qr_svg=links.qr_svg,
        running_chart=running_chart,
        figures_shown=figures_shown,
        at_once_figure=at_once_figure,
        entry_words=entry_words,
        entered=entered.entered,
        card_list=card_list,
        table_events=reads.table_history,
        short_names=short_names,
        draft_for=draft_for,
        house_rules=houserules.house_rules,
        phase_list=phase_list,
        totals_template=lambda rules: entry_form(rules).totals_template,
    )

    @app.context_processor
    def shared() -> dict[str, object]:
        return {
            "lang": str(get_locale() or i18n.DEFAULT),
            "language_form": LanguageForm(formdata=None),
        }


# The table's secret key in a path (``/t/<key>``): a draft's name carries the table's id instead.
_TABLE_PREFIX = re.compile(r"^/[tv]/[^/]+")


def draft_for(table: Any = None, action: str | None = None) -> Markup:
    """The attributes that let a form keep its draft on the phone (``static/js/drafts.js``):
    its name, one per table and per page the form posts to (a match's new round, round 3's
    correction, turn 2 of round 3...), and whether this page answers that form's own post
    (then the page holds what was sent, and the draft follows the page)."""
    path = urlsplit(action or request.path).path
    name = f"t{table.id}:{_TABLE_PREFIX.sub('', path)}" if table is not None else path
    posted = request.method == "POST" and path == request.path
    return Markup(' data-draft="{}"{}').format(name, Markup(" data-draft-posted") if posted else "")


def running_chart(sheet: scoresheet.Sheet) -> charts.LineChart | None:
    return charts.running_totals(sheet)


def figures_shown(rules_id: str) -> frozenset[str]:
    """The figures beyond matches, wins, rounds and rounds won that the engine says a
    ruleset's statistics have (a ruleset no longer known: the common ones)."""
    rules = RULESETS.get(rules_id)
    if rules is None:
        return frozenset({POINTS_PER_ROUND_WON, BEST_ROUND})
    return statistics_figures(rules)


def at_once_figure(rules_id: str) -> str:
    """What a ruleset calls its rounds won all at once, as a statistics heading."""
    rules = RULESETS.get(rules_id)
    return gettext(rules.at_once.figure if rules and rules.at_once else OUT_AT_ONCE_FIGURE)


def entry_words() -> dict[str, str]:
    """The words of a round as entered (``matches/_entry.html``), translated."""
    return {
        "took": gettext("took"),
        "meld": gettext("meld"),
        "lay-off": gettext("lay-off"),
        "played": gettext("played"),
        "table": gettext("table"),
        "discard": gettext("discard"),
        "out": gettext("out"),
        "Hands": gettext("Hands"),
        "Melds": gettext("Melds"),
    }


def card_list(codes: Any) -> Markup:
    """Cards as the ``cards`` macro of ``macros.html`` shows them, built in Python: a long
    match's rounds as entered hold a thousand cards."""
    if isinstance(codes, str) or not isinstance(codes, (list, tuple)):
        codes = [str(codes)]
    faces = "".join([_card_html(str(code)) for code in codes])  # each one escaped
    return Markup(f'<span class="cards">{faces}</span>')  # noqa: S704


@lru_cache(maxsize=512)
def _card_html(code: str) -> Markup:
    found = cardview.face(code)
    joker = " joker" if found.joker else ""
    mark = Markup('<small class="jk">JK</small>') if found.joker and found.rank else ""
    return Markup(
        '<span class="card {colour}{joker} " data-code="{code}" title="{code}">{mark}{label}</span>'
    ).format(colour=found.colour, joker=joker, code=found.code, mark=mark, label=found.label)
