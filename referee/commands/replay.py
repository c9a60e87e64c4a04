"""``referee replay``: a whole match file, replayed into scores, dealers and winners.

::

    referee replay match.json           # a score sheet: one line per round, running totals
    referee replay match.json --json    # the JSON of MATCH_FORMAT.md
    referee replay -                    # the match file from standard input

With ``--json`` it prints one JSON object and exits 0, or prints
``{"error": {"round": R, "turn": T, "message": "..."}}`` and exits 2 when the
file breaks a rule, is malformed, or cannot be read.  Without ``--json``
errors go to standard error, also with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from referee.errors import MatchFileError, RefereeError
from referee.messages import define_message

if TYPE_CHECKING:
    from referee.match import MatchState, Reseating, RoundResult
    from referee.standings import SheetRow, Standing

CANNOT_READ = define_message("cli.cannot_read", "cannot read {path}: {problem}")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a match file: scores, dealers, winners",
        description="Replay a referee-match/1 file and print the score sheet (or JSON).",
    )
    parser.add_argument("file", metavar="FILE", help='the match file ("-" for standard input)')
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(run=run)


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError as error:
        raise MatchFileError(CANNOT_READ, path=path, problem=error.strerror or str(error)) from None


def run(args: argparse.Namespace) -> int:
    from referee.match import replay

    try:
        state = replay(_read(args.file))
    except RefereeError as error:
        if args.json:
            print(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            print(f"referee: {_where(error)}{error.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(state.to_json(), ensure_ascii=False, indent=2))
    else:
        print(score_sheet(state))
    return 0


def _where(error: RefereeError) -> str:
    if error.round is None:
        return ""
    if error.turn is None:
        return f"round {error.round}: "
    return f"round {error.round}, turn {error.turn}: "


def describe_round(result: RoundResult) -> str:
    """A round's outcome in a few words: ``out: Budi (all at once)``, ``undercut: Siti``."""
    outcome = result.outcome.value
    if result.is_void or not result.winners:
        return outcome
    text = f"{outcome}: {', '.join(result.winners)}"
    if result.at_once:
        text += " (all at once)"
    if result.undercut and result.knocker:
        text += f" ({result.knocker} knocked)"
    return text


def _seating_cell(reseating: Reseating, player: str) -> str:
    if player in reseating.starting_totals:
        return f"joins at {reseating.starting_totals[player]}"
    if player in reseating.joined:
        return "comes back"
    if player in reseating.left:
        return "leaves"
    return ""


def _sheet_row(row: SheetRow, players: list[str]) -> list[str]:
    from referee.standings import BonusRow, RejoinRow, SeatingRow

    if isinstance(row, SeatingRow):
        return ["", "", "seating", *(_seating_cell(row.change, p) for p in players)]
    if isinstance(row, RejoinRow):
        cells = (f"back at {row.running[p]}" if p in row.running else "" for p in players)
        return ["", "", "rejoin", *cells]
    if isinstance(row, BonusRow):
        cells = (
            f"{row.bonuses[p]:+d} = {row.running[p]}" if p in row.bonuses else "" for p in players
        )
        return ["", "", "match-end bonus", *cells]
    result = row.result
    cells = (
        f"{result.scores[p]:+d} = {row.running[p]}" if p in result.scores else "" for p in players
    )
    return [str(result.number), result.dealer, describe_round(result), *cells]


def _standing(standing: Standing) -> str:
    text = f"{standing.place}. {standing.player} {standing.total}"
    if standing.left_before is not None:
        return text + f" (left before round {standing.left_before})"
    if standing.out_after is not None:
        return text + f" (out after round {standing.out_after})"
    return text


def score_sheet(state: MatchState) -> str:
    """The match as a score sheet: one line per round, seating change, rejoin and match-end
    bonus, each with the running totals after it (the engine's rows)."""
    players = list(state.everyone)
    rules = state.rules
    seated = state.header.players
    lines = [f"{rules.name} ({rules.id}), {rules.describe_goal()}: {', '.join(seated)}", ""]
    rows: list[list[str]] = [["round", "dealer", "outcome", *players]]
    rows += [_sheet_row(row, players) for row in state.sheet_rows()]
    rows.append(["", "", "totals", *(str(state.totals[p]) for p in players)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i == 0 or i > 2 else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    unchecked = [
        f"Round {result.number}: {reason.text}."
        for result in state.rounds
        for reason in result.unchecked
    ]
    if unchecked:
        lines += ["Not checked (hands given as points):", *unchecked, ""]
    lines.append("Standings: " + ", ".join(_standing(s) for s in state.standings()) + ".")
    if state.finished:
        verb = "wins" if len(state.winners) == 1 else "share"
        lines.append(f"Match over: {' and '.join(state.winners)} {verb} the match.")
    else:
        lines.append(f"Match goes on: {state.next_dealer} deals round {state.next_round}.")
    return "\n".join(lines)
