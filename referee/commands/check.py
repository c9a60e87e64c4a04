"""``referee check``: is this a legal meld, or a legal lay-off?

::

    referee check --rules remi 7S 8S 9S
    referee check --rules rummy --option ace=high-low QS KS AS --json
    referee check --rules remi --onto "7S 8S 9S" 10S

Prints the verdict and the reason; exits 0 when legal, 1 when illegal, 2 on
bad input (an unknown ruleset or option, a card that cannot be read).  With
``--json`` it prints ``{"legal": bool, "kind": "set"|"run"|null, "reason": str|null}``
(bad input: ``{"error": {"round": null, "turn": null, "message": ...}}``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from referee.errors import RefereeError
from referee.messages import define_message

BAD_OPTION_SYNTAX = define_message(
    "cli.bad_option_syntax", '--option takes key=value, like ace=high-low, not "{text}"'
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="is this a legal meld or lay-off?",
        description="Check a set or run (or, with --onto, a lay-off) under a ruleset's rules.",
    )
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the cards, e.g. 7S 8S 9S")
    parser.add_argument("--rules", required=True, metavar="ID", help="remi, rummy, ...")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a ruleset option, e.g. ace=high-low or must_discard=true (repeatable)",
    )
    parser.add_argument(
        "--onto", metavar="CARDS", help='the meld on the table to lay off onto, e.g. "7S 8S 9S"'
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def read_option(text: str) -> tuple[str, Any]:
    """``key=value`` with ``true``/``false`` and whole numbers read as such."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise RefereeError(BAD_OPTION_SYNTAX, text=text)
    value: Any = raw.strip()
    if value.lower() in ("true", "false"):
        value = value.lower() == "true"
    elif value.lstrip("-").isdigit():
        value = int(value)
    return key.strip(), value


def run(args: argparse.Namespace) -> int:
    from referee.melds import check_layoff, check_meld
    from referee.rulesets import find_ruleset

    rules = find_ruleset(args.rules, dict(read_option(text) for text in args.option))
    cards = " ".join(args.cards)
    if args.onto is not None:
        verdict = check_layoff(args.onto, cards, rules)
    else:
        verdict = check_meld(cards, rules)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False))
    elif verdict.meld is not None:
        kind = verdict.meld.kind.value
        if args.onto is not None:
            print(f"legal lay-off: the {kind} becomes {verdict.meld}")
        else:
            print(f"legal {kind}: {verdict.meld}")
    else:
        print(f"illegal: {verdict.reason}")
    return 0 if verdict.legal else 1
