"""Rendering a page the same way everywhere, and the way back to the score sheet.

A page below a card table gets the table's ``access`` and the ``table``
itself (its crumbs and links need both).  A page that shows a form with an
error answers 400, so that a refused form never looks like a success.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from flask import redirect, render_template, url_for
from flask_wtf import FlaskForm
from jinja2 import Template
from werkzeug.wrappers import Response

from referee.web.play.access import Access
from referee.web.store import reads
from referee.web.store.models import Match


class Page(NamedTuple):
    """A rendered page and its status: a view may return it as it is (Flask takes the pair)."""

    body: str
    status: int

    @property
    def refused(self) -> bool:
        """Whether a form on the page shows an error."""
        return self.status == 400


def render_page(
    template: str | Template | list[str | Template], *, access: Access | None = None, **context: Any
) -> Page:
    """The page, with status 400 while any form on it shows an error (else 200)."""
    if access is not None:
        context.update(access=access, table=access.table)
    page = render_template(template, **context)
    refused = any(isinstance(value, FlaskForm) and value.errors for value in context.values())
    return Page(page, 400 if refused else 200)


# A number no round has, to find where a round's number stands in its address.
_PROBE = 918_273_645_546_372_819


def numbered_address(endpoint: str, **values: Any) -> Callable[[int], str]:
    """``url_for(endpoint, number=n, **values)`` for any ``n``, with url_for called once: a
    long match's page links every round, and each url_for goes through the request, the
    table link's defaults and the URL map."""
    probe = url_for(endpoint, number=_PROBE, **values)
    head, found, tail = probe.partition(str(_PROBE))
    if not found or str(_PROBE) in tail:  # the number elsewhere too (in a key): each its own
        return lambda number: url_for(endpoint, number=number, **values)
    return lambda number: f"{head}{number}{tail}"


def following(access: Access, match: Match, page: str) -> dict[str, Any]:
    """What a page that follows the match live needs: where to ask, the version it shows,
    and the address of the page to fetch again when the match changes."""
    return following_version(match.id, match.version, page)


def following_version(match_id: int, version: int, page: str) -> dict[str, Any]:
    """:func:`following` for a page made from the match at ``version``."""
    version_url = url_for("matches.version", match_id=match_id)
    return {"url": version_url, "etag": reads.etag(match_id, version), "page": page}


def to_score_sheet(access: Access, match: Match) -> Response:
    """Back to the match's score sheet, through the same link the page was opened with."""
    return redirect(url_for("matches.scoreboard", match_id=match.id))
