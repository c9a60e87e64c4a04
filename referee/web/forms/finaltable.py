"""The final table of a round (``rummy500``, ``contract``): every meld with who laid it, and
the cards laid off on it, with who laid them off (the match file's ``table``).

The form has one row per meld (who laid it: one tap on a name; its cards: typed or tapped
on the picker) and one row per lay-off (who, the cards, onto which meld).  Rows are plain
named fields, so the form works without JavaScript; "More rows" adds empty ones.  Empty rows
are skipped: the melds are numbered in the order of the filled rows, and a form shown again
lists them so, so that "meld 2" in the referee's reason is the second meld row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, RadioField, SelectField

from referee.rulesets import Ruleset
from referee.web.forms.fields import CardsField, add_numbered, choices, numbered

ROWS_MAX = 60  # more melds than two decks can make is a mistake (or an attack)
MORE_ROWS = 4  # what "More rows" adds


@dataclass(frozen=True)
class TableRows:
    """How many meld rows and lay-off rows a final-table form shows."""

    melds: int
    layoffs: int

    @classmethod
    def default(cls, rules: Ruleset, players: int) -> TableRows:
        """Room for every player's melds (a contract's, or two each), and a few lay-offs."""
        per_player = rules.melds_going_down or 2
        return cls(min(max(4, per_player * players), 12), 4)

    @classmethod
    def posted(cls, form: Mapping[str, Any], fallback: TableRows) -> TableRows:
        """The rows a posted form had (its hidden counts), within bounds; more when asked."""
        more = MORE_ROWS if form.get("action") == "more_rows" else 0
        return cls(
            _bounded(form.get("meld_rows"), fallback.melds) + more,
            _bounded(form.get("layoff_rows"), fallback.layoffs) + more,
        ).within_bounds()

    @classmethod
    def of_table(cls, table: Sequence[Mapping[str, Any]], fallback: TableRows) -> TableRows:
        """Rows for a stored table, with two empty ones of each kind to add to it."""
        layoffs = sum(len(meld.get("layoffs") or {}) for meld in table)
        return cls(
            max(fallback.melds, len(table) + 2), max(fallback.layoffs, layoffs + 2)
        ).within_bounds()

    def within_bounds(self) -> TableRows:
        return TableRows(min(max(self.melds, 1), ROWS_MAX), min(max(self.layoffs, 1), ROWS_MAX))


def _bounded(value: Any, fallback: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return fallback
    return min(max(number, 1), ROWS_MAX)


def add_table_fields(form_class: Any, players: list[str], rows: TableRows) -> None:
    """The meld rows and the lay-off rows of a final-table form."""
    form_class.meld_rows = HiddenField(default=str(rows.melds))
    form_class.layoff_rows = HiddenField(default=str(rows.layoffs))
    # "nobody" takes back an owner tapped on a row that stays empty (a radio cannot be unticked).
    owners = choices([(name, name) for name in players] + [("", _l("nobody"))])
    add_numbered(
        form_class,
        "table_by",
        rows.melds,
        lambda i: RadioField(_l("Laid by"), choices=owners, validate_choice=False),
    )
    add_numbered(form_class, "table_cards", rows.melds, lambda i: CardsField(_l("Cards")))
    melds = choices([("", "—")] + [(str(n), str(n)) for n in range(1, rows.melds + 1)])
    add_numbered(
        form_class,
        "layoff_by",
        rows.layoffs,
        lambda i: RadioField(_l("Laid off by"), choices=owners, validate_choice=False),
    )
    add_numbered(form_class, "layoff_cards", rows.layoffs, lambda i: CardsField(_l("Cards")))
    add_numbered(
        form_class,
        "layoff_onto",
        rows.layoffs,
        lambda i: SelectField(_l("Onto meld"), choices=melds, validate_choice=False),
    )


@dataclass
class MeldRow:
    number: int
    by: Any
    cards: Any


@dataclass
class LayoffRow:
    by: Any
    cards: Any
    onto: Any


def meld_rows(form: Any) -> list[MeldRow]:
    return [
        MeldRow(n, by, cards)
        for n, (by, cards) in enumerate(
            zip(numbered(form, "table_by"), numbered(form, "table_cards"), strict=True), 1
        )
    ]


def layoff_rows(form: Any) -> list[LayoffRow]:
    return [
        LayoffRow(by, cards, onto)
        for by, cards, onto in zip(
            numbered(form, "layoff_by"),
            numbered(form, "layoff_cards"),
            numbered(form, "layoff_onto"),
            strict=True,
        )
    ]


def table_complete(form: Any) -> bool:
    """Whether every row that was begun says all it must (who, which cards, onto which meld);
    the errors go next to the row's fields."""
    complete = True
    filled = set()
    for row in meld_rows(form):
        if row.cards.data and not row.by.data:
            row.by.errors.append(_l("Who laid this meld?"))
            complete = False
        elif row.by.data and not row.cards.data:
            row.cards.errors.append(_l("Which cards are in this meld?"))
            complete = False
        if row.cards.data:
            filled.add(row.number)
    for lay in layoff_rows(form):
        if not (lay.cards.data or lay.by.data or lay.onto.data):
            continue
        if not lay.cards.data:
            lay.cards.errors.append(_l("Which cards were laid off?"))
            complete = False
        if not lay.by.data:
            lay.by.errors.append(_l("Who laid these cards off?"))
            complete = False
        onto = _meld_number(lay.onto.data)
        if onto is None:
            lay.onto.errors.append(_l("Onto which meld?"))
            complete = False
        elif onto not in filled:
            lay.onto.errors.append(_l("Meld %(number)s is empty.", number=onto))
            complete = False
    return complete


def _meld_number(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def table_entry(form: Any) -> list[dict[str, Any]]:
    """The match file's ``table`` the rows describe (validated by :func:`table_complete`):
    the filled meld rows in order, each with the lay-offs onto it by player."""
    table: list[dict[str, Any]] = []
    position: dict[int, int] = {}
    for row in meld_rows(form):
        if row.cards.cards:
            position[row.number] = len(table)
            table.append({"by": row.by.data, "cards": list(row.cards.cards)})
    for lay in layoff_rows(form):
        onto = _meld_number(lay.onto.data)
        if not lay.cards.cards or onto not in position:
            continue
        meld = table[position[onto]]
        meld.setdefault("layoffs", {}).setdefault(lay.by.data, []).extend(lay.cards.cards)
    return table


def has_gaps(form: Any) -> bool:
    """Whether an empty meld row comes before a filled one (the melds' numbers then differ
    from the rows')."""
    seen_empty = False
    for row in meld_rows(form):
        if not row.cards.data:
            seen_empty = True
        elif seen_empty:
            return True
    return False


def fill_table(form: Any, table: Sequence[Mapping[str, Any]]) -> None:
    """Show a table in the rows: meld N in row N, every player's lay-offs on it in a row of
    their own; the rows left over empty."""
    rows = meld_rows(form)
    lays = layoff_rows(form)
    layoffs = [
        (by, cards, number)
        for number, meld in enumerate(table, 1)
        for by, cards in (meld.get("layoffs") or {}).items()
        if cards
    ]
    for index, row in enumerate(rows):
        meld = table[index] if index < len(table) else None
        row.by.data = meld["by"] if meld else None
        row.cards.data = " ".join(meld["cards"]) if meld else ""
        # The cards move with their meld: a refusal about them goes next to the row they
        # are shown in (feedback.point_at), which has the meld's number.
        row.cards.cards = list(meld["cards"]) if meld else []
    for index, lay in enumerate(lays):
        given = layoffs[index] if index < len(layoffs) else None
        lay.by.data = given[0] if given else None
        lay.cards.data = " ".join(given[1]) if given else ""
        lay.cards.cards = list(given[1]) if given else []
        lay.onto.data = str(given[2]) if given else ""
