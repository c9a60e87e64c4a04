"""What is wrong with a piece of JSON typed by hand, in words a player understands.

Python's parser says ``Expecting ',' delimiter: line 3 column 12 (char 40)``.
The JSON editor says which line, which column, what is missing there in the
player's language, and shows that line with a mark where the parser stopped.
"""

from __future__ import annotations

import json

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
    (
        "Extra data",
        _l("something follows the end of the round object: remove it, or check the braces { }"),
    ),
)
# How much of the line to show on either side of the mark.
AROUND = 30
MARK = "⟶"


def problem(text: str) -> str | None:
    """Why ``text`` is not JSON, in words with the line and column; None if it is JSON."""
    try:
        jsonread.loads(text)
    except jsonread.NumberTooLong as error:
        return number_too_long(error)
    except json.JSONDecodeError as error:
        what = next(
            (str(words) for start, words in PROBLEMS if error.msg.startswith(start)),
            gettext("this is not valid JSON"),
        )
        if not text.strip():
            return gettext("The box is empty: write the round object, starting with {.")
        return gettext(
            "Line %(line)s, column %(column)s: %(what)s. Here: %(excerpt)s",
            line=error.lineno,
            column=error.colno,
            what=what,
            excerpt=excerpt(text, error.lineno, error.colno),
        )
    except RecursionError:
        return gettext("The round object is nested too deeply.")
    return None


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
