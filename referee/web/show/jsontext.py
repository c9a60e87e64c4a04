"""What is wrong with a piece of JSON typed by hand, in words a player understands.

Python's parser says ``Expecting ',' delimiter: line 3 column 12 (char 40)``.
Every place that reads JSON typed or uploaded by a player (the round's JSON
editor, the match import, the table import) says instead which line, which
column, what is missing there in the page's language, and shows that line with
a mark under the place where the reading stopped (:class:`Problem`).
"""

from __future__ import annotations

import json
import unicodedata

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee import jsonread

# The start of each of the parser's messages (json.decoder, Python 3.11 to 3.13).
PROBLEMS = (
    (
        "Expecting value",
        _l(
            "a value is missing here (a card in quotes, a name, a number, a list in [ ] or an object in { }), or a comma is one too many"
        ),
    ),
    ("Expecting ',' delimiter", _l("a comma is missing between two items")),
    ("Expecting ':' delimiter", _l("a colon (:) is missing after a name in quotes")),
    (
        "Expecting property name enclosed in double quotes",
        _l(
            'a name in double quotes ("hands") is expected here, or a comma before } is one too many'
        ),
    ),
    ("Illegal trailing comma", _l("a comma before ] or } is one too many")),
    ("Unterminated string", _l('a text in quotes is not closed: a " is missing')),
    (
        "Invalid control character",
        _l('a line break or a tab inside quotes: close the quotes (") first'),
    ),
    # The json module's two messages for a backslash it cannot read (after \ and after \u).
    ("Invalid \\", _l("a backslash (\\) inside quotes: remove it")),
)
# What follows the end of the JSON, by what the text should be.
EXTRA = {
    "round": _l(
        "something follows the end of the round object: remove it, or check the braces { }"
    ),
    "document": _l("something follows the end of the document: remove it, or check the braces { }"),
}
# How much of the line to show on either side of the mark.
AROUND = 30
MARK = "⟶"


class Problem(str):
    """A JSON mistake in words (``Line 3, column 27: a comma is missing between two items.
    Here: ...⟶...``), with the line it is on (``shown``) and, under it, a mark where the
    reading stopped (``mark``), for a page to show one above the other."""

    said: str = ""  # the words without the excerpt, for a page that shows the mark
    shown: str = ""
    mark: str = ""


def problem(text: str | bytes, whole: str = "round") -> Problem | None:
    """Why ``text`` is not JSON, in words with the line and column; None if it is JSON.

    ``whole`` is what the text should be: a ``"round"`` object or a ``"document"``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            return Problem(gettext("The file is not UTF-8 text."))
    try:
        jsonread.loads(text)
    except jsonread.NumberTooLong as error:
        return Problem(number_too_long(error))
    except json.JSONDecodeError as error:
        if not text.strip():
            if whole == "round":
                return Problem(
                    gettext("The box is empty: write the round object, starting with {.")
                )
            return Problem(gettext("The document is empty."))
        if error.msg.startswith("Extra data"):
            what = str(EXTRA.get(whole, EXTRA["document"]))
        else:
            what = next(
                (str(words) for start, words in PROBLEMS if error.msg.startswith(start)),
                gettext("this is not valid JSON"),
            )
        found = Problem(
            gettext(
                "Line %(line)s, column %(column)s: %(what)s. Here: %(excerpt)s",
                line=error.lineno,
                column=error.colno,
                what=what,
                excerpt=excerpt(text, error.lineno, error.colno),
            )
        )
        found.said = gettext(
            "Line %(line)s, column %(column)s: %(what)s.",
            line=error.lineno,
            column=error.colno,
            what=what,
        )
        found.shown, found.mark = marked(text, error.lineno, error.colno)
        return found
    except RecursionError:
        if whole == "round":
            return Problem(gettext("The round object is nested too deeply."))
        return Problem(gettext("The document is nested too deeply."))
    except ValueError:  # a number of thousands of digits, which Python refuses to read
        return Problem(gettext("A number in it is too long to read."))
    return None


def _width(text: str) -> int:
    """How many columns of a monospaced font ``text`` takes (wide letters take two)."""
    return sum(
        0
        if unicodedata.combining(char)
        else 2
        if unicodedata.east_asian_width(char) in ("W", "F")
        else 1
        for char in text
    )


def marked(text: str, line: int, column: int) -> tuple[str, str]:
    """The line the parser stopped on (shortened around the place) and a line with a ``^``
    under the place."""
    lines = text.splitlines() or [""]
    row = lines[min(line, len(lines)) - 1].expandtabs(1)
    at = min(max(column - 1, 0), len(row))
    before, after = row[:at], row[at:]
    if len(before) > 2 * AROUND:
        before = "…" + before[-2 * AROUND :]
    if len(after) > 2 * AROUND:
        after = after[: 2 * AROUND] + "…"
    return before + after, " " * _width(before) + "^"


def number_too_long(error: jsonread.NumberTooLong) -> str:
    """What is wrong with a number Python cannot read, wherever JSON is read."""
    return gettext(
        "A number has more than %(limit)s digits: no score, option or card needs one that long.",
        limit=error.limit,
    )


def excerpt(text: str, line: int, column: int) -> str:
    """The line the parser stopped on, with a mark where it stopped (shortened around it)."""
    lines = text.splitlines() or [""]
    row = lines[min(line, len(lines)) - 1]
    at = min(max(column - 1, 0), len(row))
    before, after = row[:at], row[at:]
    before = before.lstrip()
    if len(before) > AROUND:
        before = "…" + before[-AROUND:]
    if len(after) > AROUND:
        after = after[:AROUND] + "…"
    return f"{before}{MARK}{after}".strip() or MARK
