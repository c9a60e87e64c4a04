"""``referee indian``: check an Indian rummy show, or count a loser's hand.

::

    referee indian show "5S 6S 7S 8S | 9H 10H JH | 2D 2C 2H | KD QD JD" --cut 7D
    referee indian show 5S 6S 7C 8S 9H 10H 7H QH QC QS 2D 2C 2H --cut 7D --json
    referee indian count 5S 6S 7S 9H 10H JK 2D 2C 2H KD QD 8C 4H --cut 3C [--full-count 80]

Cards separated by ``|`` are the groups as the player arranged them; without ``|`` the
referee arranges them.  ``--cut JK`` makes the aces wild; without ``--cut`` only the printed
jokers are jokers.  ``--decks 1`` refuses a card given twice.  A show exits 0 when valid,
1 when not; a count exits 0; bad input exits 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from referee import indian
from referee.messages import define_message

NO_CARDS = define_message("indian.cli_no_cards", "give the 13 cards (groups separated by |)")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "indian",
        help="check an Indian rummy show, or count a loser's 13 cards",
        description="Indian rummy: whether a show of 13 cards is valid (and why not), or a "
        "loser's least count with the arrangement that gives it.",
    )
    parser.add_argument("action", choices=("show", "count"), help="show or count")
    parser.add_argument("cards", nargs="*", help='the 13 cards; groups separated by "|"')
    parser.add_argument("--cut", metavar="CARD", help="the cut joker (JK: aces are wild)")
    parser.add_argument("--decks", type=int, choices=(1, 2), default=2, help="decks in play")
    parser.add_argument(
        "--full-count", type=int, default=indian.FULL_COUNT, metavar="N", help="the cap (80)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text = " ".join(args.cards)
    if not text.strip():
        from referee.errors import RuleError

        raise RuleError(NO_CARDS)
    groups = [part for part in text.split("|") if part.strip()] if "|" in text else None
    if args.action == "count":
        count = indian.least_count(
            text.replace("|", " "), args.cut, decks=args.decks, full_count=args.full_count
        )
        if args.json:
            print(json.dumps(count.to_json(), ensure_ascii=False))
        else:
            print(_count_text(count))
        return 0
    show = indian.check_show(
        None if groups else text,
        args.cut,
        groups=groups,
        decks=args.decks,
        full_count=args.full_count,
    )
    if args.json:
        print(json.dumps(show.to_json(), ensure_ascii=False))
    else:
        print(_show_text(show))
    return 0 if show.valid else 1


def _arrangement(arrangement: indian.Arrangement) -> str:
    groups = " | ".join(f"{group} ({group.kind.value})" for group in arrangement.groups)
    return groups or "no groups"


def _show_text(show: indian.ShowCheck) -> str:
    lines = []
    if show.valid:
        lines.append("valid show" + ("" if show.as_typed else " (arranged by the referee)"))
        lines.append(_arrangement(show.arrangement))
    else:
        lines.append(f"not valid: {show.reasons[0].text}")
        lines.append(f"closest: {_arrangement(show.arrangement)}")
    lines += [f"typed: {problem.text}" for problem in show.typed_problems]
    return "\n".join(lines)


def _count_text(count: indian.Count) -> str:
    ungrouped = " ".join(str(card) for card in count.arrangement.ungrouped) or "nothing"
    if not count.meets_rule:
        head = f"count {count.count}: no two sequences with one pure, all 13 cards count"
        return head + (f" ({count.points}, capped)" if count.capped else "")
    head = f"count {count.count}" + (f" ({count.points}, capped)" if count.capped else "")
    return f"{head}\n{_arrangement(count.arrangement)}\nin no group: {ungrouped}"
