"""``referee gin``: the best arrangement of a gin hand, or a knock adjudicated.

::

    referee gin 7S 8S 9S 7H 7D 2C 3C 4C 5C 6C
    referee gin "7S 8S 9S 7H 7D 2C 3C 4C 5C 6C KD" --json
    referee gin --knock "7C 8C 9C 2S 2H 2D 5H 6H 7H AS" --defender "6C 10C 4D ..."
    referee gin --knock "..." --defender "..." --melds "7C 8C 9C | 2S 2H 2D | 5H 6H 7H"
    referee gin --upcard 4H --knock "..." --defender "..."      # Oklahoma: knock at 4
    referee gin --knock-limit 7 --option gin_bonus=20 --knock "..." --defender "..."

The house rules (RULES.md) apply as in a match: ``--option`` takes any gin option,
``--knock-limit N`` is the option ``knock_limit``, and ``--upcard`` plays Oklahoma with that
upcard (its value is the knock limit, an ace: gin only; a spade doubles the score).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee.errors import RefereeError
from referee.messages import define_message
from referee.notation import format_cards

if TYPE_CHECKING:
    from referee.gin import Adjudication, Arrangement
    from referee.rulesets import Ruleset

NO_CARDS = define_message(
    "gin.cli_no_cards",
    "give the 10 or 11 cards of a hand, or --knock and --defender with 10 cards each",
)
KNOCK_NEEDS_DEFENDER = define_message(
    "gin.cli_knock_needs_defender", "--knock needs --defender with the defender's 10 cards"
)
DEFENDER_NEEDS_KNOCK = define_message(
    "gin.cli_defender_needs_knock", "--defender and --melds go with --knock"
)
CARDS_AND_KNOCK = define_message(
    "gin.cli_cards_and_knock", "give either the cards of one hand or --knock, not both"
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "gin",
        help="best gin arrangement of a hand, or a knock adjudicated",
        description="Gin rummy: the arrangement that leaves the least deadwood (10 cards, "
        "or 11 with the best discard), or a knock settled with the defender's best lay-offs.",
    )
    parser.add_argument("cards", nargs="*", help="the hand's cards, e.g. 7S 8S 9S 7H ...")
    parser.add_argument("--knock", metavar="CARDS", help="the knocker's 10 cards (after discard)")
    parser.add_argument("--defender", metavar="CARDS", help="the defender's 10 cards")
    parser.add_argument(
        "--melds",
        metavar="MELDS",
        help='the melds the knocker spread, separated by "|" (default: the best spread)',
    )
    parser.add_argument(
        "--knock-limit", type=int, metavar="N", help="knock at N or less (default 10)"
    )
    parser.add_argument(
        "--upcard",
        metavar="CARD",
        help="Oklahoma: the round's upcard, whose value is the knock limit (an ace: gin only)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a gin house rule, e.g. gin_bonus=20 or undercut_bonus=10 (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def house_rules(args: argparse.Namespace) -> Ruleset:
    """The gin ruleset with the command line's house rules, for the round of ``--upcard``."""
    from referee.commands.check import read_option
    from referee.notation import parse_card
    from referee.rulesets import find_ruleset

    options = dict(read_option(text) for text in args.option)
    if args.knock_limit is not None:
        options["knock_limit"] = args.knock_limit
    if args.upcard is None:
        return find_ruleset("gin", options)
    options.setdefault("oklahoma", True)
    return find_ruleset("gin", options).for_round({"upcard": parse_card(args.upcard)})


def run(args: argparse.Namespace) -> int:
    from referee import gin

    rules = house_rules(args)
    if args.knock is None:
        if args.defender is not None or args.melds is not None:
            raise RefereeError(DEFENDER_NEEDS_KNOCK)
        if not args.cards:
            raise RefereeError(NO_CARDS)
        arrangement = gin.best_arrangement(" ".join(args.cards), rules)
        if args.json:
            print(json.dumps(arrangement.to_json()))
        else:
            limit = rules.knock.limit if rules.knock is not None else 0
            print("\n".join(arrangement_lines(arrangement, limit)))
        return 0
    if args.cards:
        raise RefereeError(CARDS_AND_KNOCK)
    if args.defender is None:
        raise RefereeError(KNOCK_NEEDS_DEFENDER)
    result = gin.adjudicate_knock(args.knock, args.defender, args.melds, rules=rules)
    factor = rules.deadwood.round_multiplier if rules.deadwood is not None else 1
    if factor != 1:  # Oklahoma's spade upcard: the whole score doubles
        result = replace(result, points=result.points * factor)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print("\n".join(adjudication_lines(result)))
    return 0


def _melds(arrangement: Arrangement) -> str:
    return " | ".join(format_cards(meld) for meld in arrangement.melds) or "none"


def _cards(cards: Any) -> str:
    return format_cards(cards) or "none"


def arrangement_lines(arrangement: Arrangement, limit: int = 10) -> list[str]:
    lines = [f"Hand: {format_cards(arrangement.cards)}"]
    if len(arrangement.cards) == 11:
        if arrangement.big_gin:
            lines.append("Discard: none needed (big gin: all 11 cards melded)")
        else:
            assert arrangement.discard is not None
            lines.append(f"Discard: {arrangement.discard}")
    lines.append(f"Melds: {_melds(arrangement)}")
    lines.append(f"Deadwood cards: {_cards(arrangement.deadwood_cards)}")
    lines.append(f"Deadwood: {arrangement.deadwood}")
    if arrangement.big_gin:
        lines.append("Big gin: every card is melded (it counts as gin)")
    elif arrangement.is_gin:
        lines.append("Gin: every card is melded")
    elif arrangement.can_knock:
        lines.append(f"May knock: yes ({arrangement.deadwood} is {limit} or less)")
    elif limit == 0:
        lines.append("May knock: no (with an ace upcard only gin ends the round)")
    else:
        lines.append(f"May knock: no ({arrangement.deadwood} is more than {limit})")
    return lines


def adjudication_lines(result: Adjudication) -> list[str]:
    knocker, defender = result.knocker, result.defender
    lines = [
        f"Knocker: {format_cards(knocker.cards)}",
        f"  melds: {_melds(knocker)}"
        + ("" if result.knocker_melds_given else " (the best spread)"),
        f"  deadwood cards: {_cards(knocker.deadwood_cards)}",
        f"  deadwood: {result.knocker_deadwood}" + (" (gin)" if result.outcome == "gin" else ""),
        f"Defender: {format_cards(defender.cards)}",
        f"  melds: {_melds(defender)}",
    ]
    if result.outcome == "gin":
        lines.append("  lay-offs: none (nobody lays off on gin)")
    elif not result.layoffs:
        lines.append("  lay-offs: none")
    for layoff in result.layoffs:
        lines.append(f"  lays off {format_cards(layoff.cards)} onto {format_cards(layoff.meld)}")
    lines.append(f"  deadwood cards: {_cards(defender.deadwood_cards)}")
    before = result.defender_deadwood_before_layoffs
    if result.layoffs and before != result.defender_deadwood:
        lines.append(f"  deadwood: {result.defender_deadwood} (down from {before})")
    else:
        lines.append(f"  deadwood: {result.defender_deadwood}")
    lines.append(f"Outcome: {result.outcome}; {result.winner} scores {result.points}")
    lines.append(f"Why: {result.explanation}")
    return lines
