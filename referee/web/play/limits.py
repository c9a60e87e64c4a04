"""What a table accepts: the lengths of names and the ranges of the numeric match options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l

NAME_MAX = 40
TABLE_NAME_MAX = 80
# The most characters the new-players box takes at once (a few dozen names).
NAMES_TEXT_MAX = 1000
# A number typed with more digits than this is out of every range (and never reaches int()).
NUMBER_DIGITS_MAX = 9
TARGET_MAX = 100000
HANDS_MAX = 100
# The numeric match options the setup form offers, with its limits (an import keeps to them).
OPTION_LIMITS = {"target": (1, TARGET_MAX), "hands": (1, HANDS_MAX)}
OPTION_MESSAGES = {
    "target": _l("Enter a target from %(min)s to %(max)s."),
    "hands": _l("Enter a number of rounds from %(min)s to %(max)s."),
}


def option_refusal(options: Any) -> str | None:
    """Why a document's numeric options are outside the setup form's limits (None: they are
    within them, or not numbers: the engine says what is wrong with those).

    Any number counts, a fraction or one too long for a float as well as a whole one (an
    imported file may hold either); true and false are not numbers here.
    """
    if not isinstance(options, Mapping):
        return None
    for option, (low, high) in OPTION_LIMITS.items():
        value = options.get(option)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not low <= value <= high:
                return str(OPTION_MESSAGES[option] % {"min": low, "max": high})
    return None
