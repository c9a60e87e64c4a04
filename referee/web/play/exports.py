"""Results to share: a match as CSV, the results card (a whole table: :mod:`tablefile`)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext, ngettext

from referee.match import Reseating
from referee.web.show.labels import ruleset_name
from referee.web.show.scoresheet import Sheet
from referee.web.store.models import CardTable, Match
from referee.web.store.summary import as_utc

# A spreadsheet runs a cell that starts like a formula; names are the players' own text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# -- CSV ---------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_START) else text


def match_csv(sheet: Sheet) -> str:
    """One row per round (its points and running totals, a column each per player), then totals.

    Starts with a byte order mark, so that spreadsheets read the names as UTF-8.
    """
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    players = sheet.players
    writer.writerow(
        [gettext("Round"), gettext("Dealer"), gettext("Outcome"), gettext("Winners")]
        + [_cell(name) for name in players]
        + [_cell(gettext("%(name)s, total", name=name)) for name in players]
    )
    for row in sheet.rows:
        if row.seating is not None:
            writer.writerow(_seating_row(row.seating, players))
        if row.rejoined:
            writer.writerow(_rejoin_row(row.number, row.rejoined, players))
        writer.writerow(
            [row.number, _cell(row.dealer), _cell(row.outcome), _cell(", ".join(row.winners))]
            + [row.scores.get(name, "") for name in players]  # blank: not seated then
            + [row.running.get(name, "") for name in players]
        )
    if sheet.pending is not None:
        writer.writerow(_seating_row(sheet.pending, players))
    blank = ["", "", ""]
    if sheet.bonuses:
        bonuses = [sheet.bonuses.get(name, 0) for name in players]
        writer.writerow([gettext("Match-end bonuses"), *blank, *bonuses, *([""] * len(players))])
    totals = [sheet.totals.get(name, 0) for name in players]
    winners = ", ".join(sheet.winners) if sheet.finished else ""
    writer.writerow([gettext("Total"), "", "", _cell(winners), *totals, *([""] * len(players))])
    return out.getvalue()


def _seating_row(change: Reseating, players: list[str]) -> list[Any]:
    """A seating change as the score sheet shows it: under each player who joins, comes
    back or leaves, what they do; under a newcomer's total column, the total they start at."""
    said: dict[str, str] = {}
    for name in change.joined:
        said[name] = gettext("joins") if name in change.starting_totals else gettext("comes back")
    for name in change.left:
        said[name] = gettext("leaves")
    return (
        [
            gettext("Before round %(number)s", number=change.before_round),
            "",
            gettext("seating change"),
            "",
        ]
        + [said.get(name, "") for name in players]
        + [change.starting_totals.get(name, "") for name in players]
    )


def _rejoin_row(number: int, rejoined: dict[str, int], players: list[str]) -> list[Any]:
    """Players back in a pool before round ``number``: under each of them "comes back", and
    under their total column the total they come back with."""
    return (
        [gettext("Before round %(number)s", number=number), "", gettext("rejoin"), ""]
        + [gettext("comes back") if name in rejoined else "" for name in players]
        + [rejoined.get(name, "") for name in players]
    )


# -- the results card --------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    place: int
    name: str
    total: int
    winner: bool
    note: str = ""  # "left before round 5", "out of the pool after round 3"


def standings(sheet: Sheet) -> list[Standing]:
    """The engine's standings (the game's own order, shared places), with a note on who left
    or went out of the pool (a match that does not replay has none: its players as seated)."""
    if not sheet.standings:
        return [Standing(1, name, sheet.totals.get(name, 0), False) for name in sheet.players]
    found = []
    for standing in sheet.standings:
        note = ""
        if standing.left_before is not None:
            note = gettext("left before round %(number)s", number=standing.left_before)
        elif standing.out_after is not None:
            note = gettext("out of the pool after round %(number)s", number=standing.out_after)
        name = standing.player
        if standing.is_team:
            name = f"{name} ({', '.join(standing.members)})"
        found.append(Standing(standing.place, name, standing.total, standing.winner, note))
    return found


def card_heading(match: Match, table: CardTable, sheet: Sheet) -> tuple[str, str]:
    """The card's title and subtitle: the game and table; the date and how far it went."""
    played = max(
        (as_utc(row.stored.created_at) for row in sheet.rows if row.stored is not None),
        default=None,
    )
    when = as_utc(played or match.created_at).strftime("%Y-%m-%d")
    count = len(sheet.rows)
    rounds = ngettext("%(num)s round", "%(num)s rounds", count)
    if sheet.finished:
        progress = rounds
    else:
        progress = gettext("standings after %(rounds)s", rounds=rounds)
    return f"{ruleset_name(match.rules)} · {table.name}", f"{when} · {progress}"


def results_text(match: Match, table: CardTable, sheet: Sheet) -> str:
    """The standings as a few lines to paste into a chat, in the page's language."""
    title, subtitle = card_heading(match, table, sheet)
    lines = [title, subtitle, ""]
    for standing in standings(sheet):
        mark = "🏆" if standing.winner else f"{standing.place}."
        note = f" ({standing.note})" if standing.note else ""
        lines.append(f"{mark} {standing.name} {standing.total}{note}")
    if sheet.finished and sheet.winners:
        lines += [
            "",
            ngettext(
                "Winner: %(names)s",
                "Winners: %(names)s",
                len(sheet.winners),
                names=", ".join(sheet.winners),
            ),
        ]
    lines += ["", gettext("Remi Referee")]
    return "\n".join(lines)
