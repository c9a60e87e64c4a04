"""Home (this browser's tables), the language switch and the rules pages."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, request, session, url_for
from werkzeug.wrappers import Response

from referee.rulesets import RULESETS
from referee.web import i18n
from referee.web.access import remembered_tables
from referee.web.forms import LanguageForm, TableForm
from referee.web.security import local_target
from referee.web.views.pages import render_page

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> Any:
    return render_page("home.html", tables=remembered_tables(), form=TableForm())


@bp.post("/language")
def language() -> Response:
    form = LanguageForm()
    lang = request.form.get("lang")
    if form.validate_on_submit() and lang in i18n.LANGUAGES:
        session["lang"] = lang
        session.permanent = True
    return redirect(local_target(request.form.get("next")) or url_for("main.home"))


@bp.get("/rules/")
def rules_index() -> Any:
    return render_page("rules/index.html", rulesets=list(RULESETS.values()))


@bp.get("/rules/<rules_id>")
def rules(rules_id: str) -> Any:
    ruleset = RULESETS.get(rules_id)
    if ruleset is None:
        abort(404)
    return render_page(
        [f"rules/{ruleset.id}.{i18n.current()}.html", f"rules/{ruleset.id}.en.html"],
        rules=ruleset,
        rulesets=list(RULESETS.values()),
    )
