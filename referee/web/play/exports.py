"""Results to share: a match as CSV, a whole table as one JSON document (and back), the results card.

The table document (``referee-table/1``) holds the table's name, its players
and every match as its ``referee-match/1`` document, written and read by the
engine (:mod:`referee.matchfile`), with keys the engine ignores: when the
match was set up (``started``), when each round was entered (``played``) and,
for an archived match, when it was archived (``archived``).  A live round that
is not finished is not part of a match document, and deleted matches and
rounds are not exported.  An import reads and replays every match before it stores anything:
one refusal and nothing is created.  A match the export wrote (it has ``started``) or that
has rounds is a restore, its options kept as played (:func:`matchlog.restores_play`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext, ngettext
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from referee import jsonread
from referee.errors import RefereeError
from referee.match import Reseating
from referee.matchfile import dump_match, read_match
from referee.web.play import seating
from referee.web.play.limits import NAME_MAX, option_refusal
from referee.web.show import i18n, jsontext
from referee.web.show.labels import ruleset_name
from referee.web.show.scoresheet import Sheet
from referee.web.store import matchlog
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, Match, MatchPlayer, Player, Round, now
from referee.web.store.summary import as_utc

TABLE_FORMAT = "referee-table/1"
TABLE_NAME_MAX = 80
MAX_MATCHES = 20000
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


# -- the results card --------------------------------------------------------------------------


@dataclass
class Standing:
    place: int
    name: str
    total: int
    winner: bool
    note: str = ""  # "left before round 5": a player who left keeps their total, cannot win


def standings(sheet: Sheet) -> list[Standing]:
    """The players by total, highest first; equal totals share a place."""
    ordered = sorted(
        sheet.players, key=lambda name: (name not in sheet.winners, -sheet.totals.get(name, 0))
    )
    found: list[Standing] = []
    for index, name in enumerate(ordered):
        total = sheet.totals.get(name, 0)
        winner = name in sheet.winners
        same = found and found[-1].total == total and found[-1].winner == winner
        place = found[-1].place if same else index + 1
        note = ""
        if name in sheet.left:
            note = gettext("left before round %(number)s", number=sheet.left[name])
        found.append(Standing(place, name, total, winner, note))
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


# -- the whole table as one document ---------------------------------------------------------


def _moment(value: datetime) -> str:
    return as_utc(value).isoformat()


def table_document(table: CardTable) -> dict[str, Any]:
    """The table, its players and every match (oldest first) as one JSON-ready document."""
    matches = db.session.scalars(
        select(Match)
        .where(Match.table_id == table.id, Match.deleted_at.is_(None))
        .options(
            selectinload(Match.seats).selectinload(MatchPlayer.player),
            selectinload(Match.stored_rounds),
        )
        .order_by(Match.id)
    )
    players = db.session.scalars(
        select(Player.name).where(Player.table_id == table.id).order_by(Player.name)
    ).all()
    documents = []
    for match in matches:
        try:
            document = matchlog.document(match)
        except RefereeError:  # a stored round the engine cannot read: kept as it was entered
            document = matchlog.header(match) | {"rounds": [r.entry for r in match.complete_rounds]}
        document["started"] = _moment(match.created_at)
        document["played"] = [_moment(r.created_at) for r in match.complete_rounds]
        if match.archived_at is not None:
            document["archived"] = _moment(match.archived_at)
        documents.append(document)
    return {
        "format": TABLE_FORMAT,
        "name": table.name,
        "players": list(players),
        "matches": documents,
    }


class TableRefused(ValueError):
    """Why a table document cannot be imported, in the reader's language."""

    @property
    def message(self) -> str:
        """The words (a :class:`jsontext.Problem` for a JSON mistake, with its mark)."""
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


@dataclass
class ImportedMatch:
    document: dict[str, Any]  # canonical, as the engine wrote it back
    started: datetime | None
    played: list[datetime | None]
    archived: datetime | None = None


def read_table_document(raw: bytes | str) -> tuple[str, list[str], list[ImportedMatch]]:
    """The name, players and matches of a table document; :class:`TableRefused` if anything
    in it is refused (by the engine or by the limits of the app's forms)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise TableRefused(gettext("The file is not UTF-8 text.")) from None
    try:
        document = jsonread.loads(raw)
    except jsonread.NumberTooLong as error:
        raise TableRefused(jsontext.number_too_long(error)) from None
    except (ValueError, RecursionError):  # not JSON
        said = jsontext.problem(raw, "document") or gettext("The file is not valid JSON.")
        raise TableRefused(said) from None
    if not isinstance(document, dict) or document.get("format") != TABLE_FORMAT:
        raise TableRefused(gettext("This is not a table export (referee-table/1)."))
    name = document.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > TABLE_NAME_MAX:
        raise TableRefused(
            gettext("The table needs a name of 1 to %(max)s letters.", max=TABLE_NAME_MAX)
        )
    players = document.get("players", [])
    matches = document.get("matches", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise TableRefused(gettext('"players" must be a list of names.'))
    if not isinstance(matches, list):
        raise TableRefused(gettext('"matches" must be a list of match documents.'))
    if len(matches) > MAX_MATCHES:
        raise TableRefused(gettext("A table can bring at most %(max)s matches.", max=MAX_MATCHES))
    spelling: dict[str, str] = {}
    for player in players:
        _refuse_name(player, spelling)
    read = []
    for number, match in enumerate(matches, start=1):
        try:
            read.append(_read_match(match, spelling))
        except TableRefused as refusal:
            raise TableRefused(
                gettext("Match %(number)s: %(reason)s", number=number, reason=str(refusal))
            ) from None
    return name.strip(), players, read


def _refuse_name(name: Any, spelling: dict[str, str]) -> None:
    """Names as the forms allow them, spelt the same way all over the table."""
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        raise TableRefused(gettext("Player names must be 1 to %(max)s letters long.", max=NAME_MAX))
    other = spelling.setdefault(name.casefold(), name)
    if other != name:
        raise TableRefused(
            gettext(
                "%(name)s is at this table already, written %(other)s: use the same spelling.",
                name=name,
                other=other,
            )
        )


def _read_match(raw: Any, spelling: dict[str, str]) -> ImportedMatch:
    if not isinstance(raw, Mapping):
        raise TableRefused(gettext("This is not a referee-match/1 document."))
    names = raw.get("players")
    if isinstance(names, list):
        seen: set[str] = set()
        for name in names:
            _refuse_name(name, spelling)
            if name.casefold() in seen:
                raise TableRefused(gettext("%(name)s is written twice.", name=name))
            seen.add(name.casefold())
    rounds = raw.get("rounds")
    if isinstance(rounds, list) and len(rounds) > matchlog.MAX_ROUNDS:
        raise TableRefused(
            gettext(
                "A match can have at most %(max)s rounds; this one has %(count)s.",
                max=matchlog.MAX_ROUNDS,
                count=len(rounds),
            )
        )
    refusal = option_refusal(raw.get("options"))
    if refusal:
        raise TableRefused(refusal)
    as_played = matchlog.restores_play(raw)
    try:
        canonical = dump_match(matchlog.call_engine(read_match, raw, as_played=as_played))
    except RefereeError as error:
        raise TableRefused(i18n.error_text(error)) from None
    for name in seating.everyone(canonical)[len(canonical["players"]) :]:
        _refuse_name(name, spelling)  # the players who joined later
    seen_replay = matchlog.replayed(canonical, as_played=as_played)
    if seen_replay.error is not None:
        raise TableRefused(i18n.error_text(seen_replay.error))
    played = raw.get("played")
    moments = played if isinstance(played, list) else []
    return ImportedMatch(
        canonical,
        _read_moment(raw.get("started")),
        [
            _read_moment(moments[i] if i < len(moments) else None)
            for i in range(len(canonical["rounds"]))
        ],
        _read_moment(raw.get("archived")),
    )


def _read_moment(value: Any) -> datetime | None:
    """A time written by the export; None (the time of the import) for anything else."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return as_utc(moment)


def create_table(name: str, players: Sequence[str], matches: Sequence[ImportedMatch]) -> CardTable:
    """Store an imported table (the caller commits)."""
    table = CardTable(name=name)
    db.session.add(table)
    by_name: dict[str, Player] = {}

    def player(player_name: str) -> Player:
        if player_name not in by_name:
            # added by itself: a player of no match is reached by no cascade
            by_name[player_name] = Player(table=table, name=player_name)
            db.session.add(by_name[player_name])
        return by_name[player_name]

    for player_name in players:
        player(player_name)
    imported_at = now()
    for imported in matches:
        document = imported.document
        match = Match(
            table=table,
            rules=document["rules"],
            options=document["options"],
            first_dealer=document["first_dealer"],
            stopped=bool(document.get("stopped")),
            created_at=imported.started or imported_at,
            archived_at=imported.archived,
        )
        seating.seat_players(match, document, player)
        for number, (entry, played) in enumerate(
            zip(document["rounds"], imported.played, strict=True), start=1
        ):
            when = played or imported_at
            match.stored_rounds.append(
                Round(number=number, entry=entry, created_at=when, updated_at=when)
            )
        db.session.add(match)
    return table
