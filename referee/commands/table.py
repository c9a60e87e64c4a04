"""``referee table``: settle a manipulation turn, arrange a table, or hint a play.

::

    referee table --before BEFORE --played "10S JK" --after AFTER     # check a turn
    referee table --before BEFORE --played "10S JK" --arrange         # arrange it for us
    referee table --before BEFORE --hint --hand "10S QD 6S JK"        # what can I play?

A table file holds the melds on the table, either as text, one meld per line
(``7S 8S 9S``; jokers on the table name their card, ``JK=7H``; blank lines and
``#`` comments are skipped), or as JSON, a list of lists of card codes
(``[["7S", "8S", "9S"], ["JK=4H", "4D", "4C"]]``).  ``-`` reads the file from
standard input; leaving ``--before`` out means an empty table.

Exit codes: 0 legal / arranged / something to play, 1 illegal / no arrangement
(the output says which cards to take back) / nothing to play, 2 bad input.
With ``--json`` the output is one JSON object: ``{"legal", "reasons"}`` for a
check, ``{"arrangeable", "table", "take_back"}`` for ``--arrange``,
``{"cards", "table"}`` for ``--hint``, and ``{"error": {...}}`` on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from referee import jsonread
from referee.errors import RefereeError
from referee.messages import Reason, define_message

CANNOT_READ = define_message("cli.table.cannot_read", "cannot read the table file {path}: {error}")
NOT_TEXT = define_message("cli.table.not_text", "the table file {path} is not UTF-8 text")
BAD_JSON = define_message(
    "cli.table.bad_json", "{path} is not a JSON list of melds (lists of card codes): {error}"
)
NOT_A_LIST_OF_MELDS = define_message(
    "cli.table.not_a_list_of_melds", "{path} is not a JSON list of melds (lists of card codes)"
)
NEEDS_AFTER = define_message(
    "cli.table.needs_after",
    "say what to do: --after FILE to check a turn, --arrange to arrange it, "
    "or --hint --hand CARDS for a hint",
)
ONLY_MANIPULATION = define_message(
    "cli.table.only_manipulation",
    "referee table settles manipulation turns; {rules} does not rearrange the table",
)
HINT_NEEDS_HAND = define_message("cli.table.hint_needs_hand", "--hint needs --hand CARDS")

TABLE_FILE_HELP = (
    "a table file: one meld per line (7S 8S 9S; jokers as JK=7H; # comments) "
    'or a JSON list of lists of card codes ([["7S","8S","9S"]]); - for standard input'
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "table",
        help="settle a manipulation turn, arrange a table, or hint a play",
        description=(
            "Manipulation rummy: check a turn (--after), arrange the table for the cards "
            "played (--arrange), or find the most cards a hand can play (--hint --hand). "
            + TABLE_FILE_HELP[0].upper()
            + TABLE_FILE_HELP[1:]
            + "."
        ),
    )
    parser.add_argument(
        "--rules", default="manipulation", metavar="ID", help="the ruleset (only manipulation)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=3,
        metavar="N",
        help="players at the table, 2-5 (default 3: two decks and two jokers; "
        "2 players use one deck and one joker)",
    )
    parser.add_argument(
        "--before", metavar="FILE", help="the table before the turn (" + TABLE_FILE_HELP + ")"
    )
    parser.add_argument(
        "--played",
        default="",
        metavar="CARDS",
        help='the cards played from the hand, e.g. "10S JK"',
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--after", metavar="FILE", help="the table after the turn: check the turn")
    action.add_argument(
        "--arrange",
        action="store_true",
        help="arrange the table before plus the cards played, or say what to take back",
    )
    action.add_argument(
        "--hint", action="store_true", help="the most cards from --hand that can join the table"
    )
    parser.add_argument("--hand", metavar="CARDS", help="the hand, for --hint")
    parser.add_argument(
        "--draws", type=int, metavar="N", help="cards drawn this turn (3: melding not allowed)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def read_table_file(path: str | None) -> Any:
    """The melds in a table file (text or JSON), as the solver's input."""
    from referee.table import parse_table

    if path is None:
        return ()
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise RefereeError(CANNOT_READ, path=path, error=error.strerror or str(error)) from None
    except UnicodeDecodeError:
        raise RefereeError(NOT_TEXT, path=path) from None
    if text.lstrip().startswith("["):
        try:
            melds = jsonread.loads(text)
        except json.JSONDecodeError as error:
            raise RefereeError(BAD_JSON, path=path, error=error.msg) from None
        except jsonread.NumberTooLong as error:
            raise RefereeError(BAD_JSON, path=path, error=str(error)) from None
        if not isinstance(melds, list) or not all(isinstance(meld, list) for meld in melds):
            raise RefereeError(NOT_A_LIST_OF_MELDS, path=path)
        return parse_table(melds)
    return parse_table(text)


def run(args: argparse.Namespace) -> int:
    from referee.notation import format_cards, parse_cards
    from referee.rulesets import TurnStyle, find_ruleset
    from referee.table import BAD_DRAWS, THIRD_DRAW, arrange, best_play, check_turn, take_back

    rules = find_ruleset(args.rules)
    if rules.turn_style is not TurnStyle.TABLE:
        raise RefereeError(ONLY_MANIPULATION, rules=rules.id)
    rules.verify_players(args.players)
    if args.draws is not None and not 1 <= args.draws <= 3:
        raise RefereeError(BAD_DRAWS, draws=args.draws)
    before = read_table_file(args.before)
    played = parse_cards(args.played)
    if args.draws == 3 and args.after is None:
        reason = Reason.of(THIRD_DRAW, cards=format_cards(parse_cards(args.hand or args.played)))
        if args.json:
            print(json.dumps({"legal": False, "reasons": [reason.text]}, ensure_ascii=False))
        else:
            print(f"illegal: {reason.text}")
        return 1

    if args.after is not None:
        after = read_table_file(args.after)
        verdict = check_turn(before, played, after, args.players, args.draws, rules=rules)
        if args.json:
            print(json.dumps(verdict.to_json(), ensure_ascii=False))
        elif verdict.legal:
            print("legal")
        else:
            print("illegal:")
            for reason in verdict.reasons:
                print(f"  {reason.text}")
        return 0 if verdict.legal else 1

    if args.arrange:
        arrangement = arrange(before, played, args.players, rules=rules)
        back = () if arrangement else take_back(before, played, args.players, rules=rules)
        if args.json:
            result = {
                "arrangeable": arrangement is not None,
                "table": arrangement.to_json() if arrangement else None,
                "take_back": [str(card) for card in back],
            }
            print(json.dumps(result, ensure_ascii=False))
        elif arrangement is not None:
            print(arrangement)
        else:
            print(f"no arrangement exists; take back {format_cards(back)}")
        return 0 if arrangement is not None else 1

    if args.hint:
        if args.hand is None:
            raise RefereeError(HINT_NEEDS_HAND)
        play = best_play(parse_cards(args.hand), before, args.players, rules=rules)
        if args.json:
            print(json.dumps(play.to_json(), ensure_ascii=False))
        elif play.arrangement is None:
            print("nothing from this hand can join the table")
        else:
            print(f"play {format_cards(play.cards)}")
            print(play.arrangement)
        return 0 if play.cards else 1

    raise RefereeError(NEEDS_AFTER)
