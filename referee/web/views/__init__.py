"""Blueprints, one per area, and what every page shares (language, error pages)."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import Conflict, HTTPException, InternalServerError

from referee.errors import RefereeError
from referee.web.api import core as api
from referee.web.play.access import UnknownLink
from referee.web.serving.security import NotUtf8, referrer_path
from referee.web.show import i18n
from referee.web.store import door
from referee.web.views import templating

log = logging.getLogger(__name__)


def register(app: Flask) -> None:
    from referee.web.views import (
        health,
        history,
        housekeeping,
        houserules,
        live,
        main,
        matches,
        rounds,
        seating,
        tables,
        tiles,
        tools,
        turns,
    )

    for module in (
        main,
        tables,
        matches,
        rounds,
        live,
        turns,
        tools,
        tiles,
        housekeeping,
        history,
        seating,
        houserules,
        health,
    ):
        app.register_blueprint(module.bp)

    templating.install(app)

    # The JSON API (/api/v1) answers every error as JSON: see referee.web.api.core.
    @app.errorhandler(api.ApiError)
    def api_error(error: api.ApiError) -> Any:
        door.abandon()
        return api.error_response(error)

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Any:
        door.abandon()
        return render_template("errors/csrf.html"), 400

    @app.errorhandler(RefereeError)
    def referee_error(error: RefereeError) -> Any:
        door.abandon()
        if api.is_api_request():
            return api.error_response(api.refused(error))
        page = render_template(
            "errors/referee.html", message=i18n.error_text(error), back=referrer_path()
        )
        return page, 400

    @app.errorhandler(door.KeyUsed)
    def key_used(_error: door.KeyUsed) -> Any:
        """A one-time key sent again with another write: it belongs to the first one."""
        door.abandon()
        if api.is_api_request():
            return api.error_response(api.key_used())
        message = gettext(
            "This form was already sent once with other contents or to another page, and "
            "that was saved. Open the page again to make this change."
        )
        return render_template("errors/referee.html", message=message, back=referrer_path()), 409

    @app.errorhandler(StaleDataError)
    @app.errorhandler(IntegrityError)
    def write_conflict(error: Exception) -> Any:
        """Two phones wrote at the same instant and the database kept the first: a 409."""
        door.abandon()
        log.info("write conflict: %s", type(error).__name__)
        if api.is_api_request():
            return api.http_error(Conflict())
        return conflict_page(), 409

    @app.errorhandler(OperationalError)
    def busy_database(error: OperationalError) -> Any:
        door.abandon()
        if "locked" not in str(error.orig) and "could not serialize" not in str(error.orig):
            return unexpected(error)
        log.warning("database busy: %s", error.orig)
        if api.is_api_request():
            return api.http_error(Conflict())
        return conflict_page(), 409

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        door.abandon()
        if api.is_api_request():
            return api.http_error(error)
        if isinstance(error, UnknownLink):
            return render_template("errors/unknown_link.html"), 404
        code = error.code or 500
        title = error.player_message() if isinstance(error, NotUtf8) else _title(code)
        page = render_template("errors/http.html", code=code, title=title)
        return page, code, _retry_after(error)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        log.exception("unexpected error")
        try:
            door.abandon()
            if api.is_api_request():
                return api.http_error(InternalServerError())
            return render_template("errors/http.html", code=500, title=_title(500)), 500
        except Exception:  # the page itself failed: a plain one, still friendly
            log.exception("the error page failed too")
            return PLAIN_500, 500


def _retry_after(error: HTTPException) -> dict[str, str]:
    """The ``Retry-After`` an error carries (a 429 of :func:`security.stop_guessing`)."""
    return {name: value for name, value in error.get_headers() if name == "Retry-After"}


def conflict_page() -> str:
    """The conflict page of a write the database refused, with what the phone sent kept on it."""
    typed = [
        (name, value)
        for name, value in request.form.items(multi=True)
        if value.strip() and name not in HIDDEN_FIELDS
    ]
    back = request.path if request.method == "POST" else None
    return render_template(
        "errors/conflict.html",
        changes=[
            gettext(
                "Another phone saved a change to this table at the same moment, so nothing of"
                " yours was saved. Check the match and send it again."
            )
        ],
        typed=typed,
        back=back if back and back.startswith("/") else None,
    )


# What a form carries besides what the player typed.
HIDDEN_FIELDS = frozenset(
    {
        "csrf_token",
        "once",
        "match_version",
        "round_version",
        "round_id",
        "turns_before",
        "for_round",
        "action",
        "round_number",
    }
)


PLAIN_500 = (
    '<!doctype html><meta charset="utf-8"><title>500</title>'
    "<p>Maaf, ada yang salah. Silakan kembali dan coba lagi. / "
    "Sorry, something went wrong. Please go back and try again.</p>"
    '<p><a href="/">Remi Referee</a></p>'
)


def _title(code: int) -> str:
    titles = {
        400: gettext("That request could not be understood."),
        403: gettext("That is not allowed."),
        404: gettext("There is nothing here. Check the link you were given."),
        405: gettext("That page does not take this kind of request."),
        413: gettext("That is too much to send at once."),
        429: gettext("Too many requests from here. Please wait a minute, then try again."),
        500: gettext("Something went wrong on our side. Please go back and try again."),
    }
    return titles.get(code, gettext("Something went wrong."))
