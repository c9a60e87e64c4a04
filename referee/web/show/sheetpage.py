"""The rounds of a score sheet page in words, worked out once per page.

A long match's page shows every round twice: its row on the sheet and, below, the round as
entered.  What the template would otherwise work out in its loops, a call at a time (the
outcome and who won, the dealer, the referee's notes, a hand's table and hand points), is
made here in one pass over the rows, in the page's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from referee.web.show.i18n import reason_text, said
from referee.web.show.labels import signed
from referee.web.show.scoresheet import Sheet, SheetRow


@dataclass(frozen=True)
class RoundLine:
    """One round of the page: its row of the sheet and the words shown with it."""

    row: SheetRow
    outcome: str  # the outcome and who won: "out: Siti"
    dealt: Markup  # "dealer Budi"
    voided: bool
    notes: list[str]  # how the referee counted the round
    unchecked: list[str]  # what it could not check (hands given as points)
    points_entered: bool  # some hands were given as points
    splits: dict[str, Markup]  # each player's table and hand points, where the rules count both
    entry: Mapping[str, Any] | None  # the round as stored, if it is a round object


def round_lines(sheet: Sheet) -> list[RoundLine]:
    dealt: dict[str, Markup] = {}
    lines = []
    for row in sheet.rows:
        result = row.result
        if row.dealer not in dealt:
            dealt[row.dealer] = said("dealer %(name)s", name=row.dealer)
        stored = row.stored
        entry = getattr(stored, "entry", None)  # a Round's (the API's sheet rows have none)
        lines.append(
            RoundLine(
                row=row,
                outcome=f"{row.outcome}: {', '.join(row.winners)}" if row.winners else row.outcome,
                dealt=dealt[row.dealer],
                voided=bool(stored and stored.voided),
                notes=[reason_text(note) for note in result.notes or ()] if result else [],
                unchecked=[reason_text(why) for why in result.unchecked or ()] if result else [],
                points_entered=bool(result and result.points),
                splits=_splits(row) if result and result.table_values else {},
                entry=entry if isinstance(entry, Mapping) else None,
            )
        )
    return lines


def _splits(row: SheetRow) -> dict[str, Markup]:
    result = row.result
    assert result is not None
    return {
        name: said(
            "table %(table)s, hand %(hand)s",
            table=signed(result.table_values.get(name, 0)),
            hand=signed(-result.hand_values.get(name, 0)),
        )
        for name in row.scores
    }
