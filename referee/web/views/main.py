"""Home (this browser's tables), the language switch and the rules pages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from jinja2 import TemplatesNotFound
from werkzeug.wrappers import Response

from referee.rulesets import RULESETS, Ruleset
from referee.web.forms import LanguageForm, TableForm
from referee.web.play.access import remembered_tables
from referee.web.serving.security import local_target
from referee.web.show import houserules, i18n
from referee.web.store import door, reads
from referee.web.views.pages import render_page

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> Any:
    return home_page(TableForm())


def home_page(form: TableForm) -> Any:
    """This browser's tables (a link replaced since is taken off, with a note) and a new one."""
    remembered = remembered_tables()
    return render_page(
        "home.html",
        tables=remembered.tables,
        lost=remembered.lost,
        form=form,
        backup=reads.status_for_the_host(current_app),
    )


@bp.post("/language")
def language() -> Response:
    form = LanguageForm()
    lang = request.form.get("lang")
    if form.validate_on_submit() and lang in i18n.LANGUAGES:
        session["lang"] = lang
        session.permanent = True
    return redirect(local_target(request.form.get("next")) or url_for("main.home"))


@bp.get("/receipts/<token>")
def receipt(token: str) -> Response:
    """Whether the write sent with this one-time token was carried out: a phone that kept a
    draft asks before showing it again (the token is its own secret: the answer says nothing
    else).  ``at``: the path the draft is sent to; a token carried out at another path
    answers 409: it is not this draft's."""
    saved = door.carried_out(token, request.args.get("at"))
    if saved is None:
        message = gettext("This one-time key belongs to a change of another page.")
        response = jsonify(saved=False, error=message)
        response.status_code = 409
    else:
        response = jsonify(saved=saved)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/rules/")
def rules_index() -> Any:
    return render_page("rules/index.html", rulesets=list(RULESETS.values()))


@bp.get("/rules/<rules_id>")
def rules(rules_id: str) -> Any:
    ruleset = RULESETS.get(rules_id)
    if ruleset is None:
        abort(404)
    return rules_page(ruleset)


def rules_page(ruleset: Ruleset, options: Mapping[str, Any] | None = None, **context: Any) -> Any:
    """A ruleset's rules page, its numbers those of ``options`` (the standard rules without)."""
    pages = rules_pages(ruleset.id)
    try:
        template = current_app.jinja_env.select_template([pages[i18n.current()], pages["en"]])
    except TemplatesNotFound:
        title = gettext(
            "The rules of %(name)s are not written up here yet.", name=gettext(ruleset.name)
        )
        return render_template("errors/http.html", code=404, title=title), 404
    return render_page(
        template,
        rules=ruleset,
        rulesets=list(RULESETS.values()),
        o=houserules.numbers(ruleset, options),
        **context,
    )


def rules_pages(rules_id: str) -> dict[str, str]:
    """The template of a ruleset's rules page in each language (``templates/rules/``)."""
    return {lang: f"rules/{rules_id}.{lang}.html" for lang in i18n.LANGUAGES}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: the app can be installed on a phone's home screen."""
    icons = [
        ("icons/icon-192.png", "192x192", "any"),
        ("icons/icon-512.png", "512x512", "any"),
        ("icons/maskable-512.png", "512x512", "maskable"),
    ]
    response = jsonify(
        name=gettext("Remi Referee"),
        short_name=gettext("Remi Referee"),
        description=gettext("The referee and scorekeeper beside a real deck of cards."),
        lang=i18n.current(),
        start_url=url_for("main.home"),
        scope=url_for("main.home"),
        display="standalone",
        background_color="#ffffff",
        theme_color="#1b5e20",
        icons=[
            {
                "src": url_for("static", filename=path),
                "sizes": sizes,
                "type": "image/png",
                "purpose": purpose,
            }
            for path, sizes, purpose in icons
        ],
    )
    response.mimetype = "application/manifest+json"
    return response
