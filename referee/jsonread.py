"""JSON read the one way every reader of the project uses: an integer too long for Python.

Python reads at most ``sys.get_int_max_str_digits()`` digits (4,300 by default) into
an ``int`` and raises a bare ``ValueError`` past that, out of ``json.loads``, where
a reader expecting only ``JSONDecodeError`` lets it through.  Here it is
:class:`NumberTooLong`, which says how long the number was and what the limit is.
"""

from __future__ import annotations

import json
import sys
from typing import Any


class NumberTooLong(ValueError):
    """An integer in a JSON text with more digits than Python reads."""

    def __init__(self, digits: int) -> None:
        self.digits = digits
        self.limit = max_digits()
        super().__init__(f"a number of {digits} digits (at most {self.limit})")


def max_digits() -> int:
    return sys.get_int_max_str_digits() or sys.maxsize


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NumberTooLong(len(text.lstrip("-"))) from None


def loads(text: str | bytes) -> Any:
    """``json.loads``, with an integer too long to read raised as :class:`NumberTooLong`
    (a syntax error is still ``json.JSONDecodeError``, too deep a nesting ``RecursionError``)."""
    return json.loads(text, parse_int=_integer)
