"""Names of tables and players as people read them: no invisible characters, one spelling.

``clean_name`` is what gets stored: Unicode NFKC (full-width letters become
plain ones), control, format and other invisible characters removed (a
zero-width space, a right-to-left override, a NUL, which PostgreSQL would
refuse), runs of spaces made one.  ``name_key`` is what two names are
compared by: ``Budi``, ``BUDI``, ``Ｂｕｄｉ``, ``Bu\\u200bdi`` and ``Вudi``
(a Cyrillic В) are one player.
"""

from __future__ import annotations

import unicodedata

import icu  # type: ignore[import-untyped]

# Unicode categories that never show as a character of a name: controls, format characters
# (zero-width spaces and joiners, direction marks and overrides), surrogates, private use
# and unassigned code points.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

# Default-ignorable code points of other categories (Unicode's DerivedCoreProperties):
# they show as nothing, so a name made of them looks empty.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0x1D173, 0x1D17A),  # musical symbol formatting
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
# Blank-looking characters that are not even default-ignorable.
_BLANK = frozenset({"\u2800"})  # Braille pattern blank


def _invisible(char: str) -> bool:
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES or char in _BLANK:
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE_RANGES)


def clean_name(text: str | None) -> str:
    """The name as it is stored and shown: NFKC, nothing invisible, single spaces."""
    normal = unicodedata.normalize("NFKC", text or "")
    kept = "".join(" " if char.isspace() else "" if _invisible(char) else char for char in normal)
    return " ".join(kept.split())


def name_key(name: str) -> str:
    """What two names are compared by: the same key is the same person, or a name that would
    look the same beside it (case and width ignored; ``Вudi`` with a Cyrillic В is Budi).

    The look is Unicode's confusable skeleton (UTS #39, ICU's SpoofChecker), taken of the
    name in capitals: ``Вudi`` and ``BUDI`` both read ``BUDl``.  In capitals, letters that
    look alike only in small letters (``rn`` and ``m``: Arni and Ami) stay apart.
    """
    capitals = unicodedata.normalize("NFKC", clean_name(name)).upper()
    return unicodedata.normalize("NFKC", _skeleton(capitals).casefold())


# One checker for every thread: ICU's skeleton is a read-only call on it.
_SPOOF_CHECKER = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    skeleton: str = _SPOOF_CHECKER.getSkeleton(0, text)
    return skeleton


def short_names(names: list[str]) -> dict[str, str]:
    """A short form of each name for a narrow column, unique among ``names``: the first name,
    or the first name and the initial of the next ("Siti N."), or the whole name."""
    forms: dict[str, str] = {}
    for name in names:
        words = name.split()
        forms[name] = words[0] if words else name
    for shorten in (_with_initial, lambda name: name):
        taken: dict[str, int] = {}
        for form in forms.values():
            taken[name_key(form)] = taken.get(name_key(form), 0) + 1
        for name, form in forms.items():
            if taken[name_key(form)] > 1:
                forms[name] = shorten(name)
    return forms


def _with_initial(name: str) -> str:
    words = name.split()
    return f"{words[0]} {words[1][0]}." if len(words) > 1 else name
