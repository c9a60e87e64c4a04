"""The ``referee`` command line: ``check``, ``replay``, ``gin``, ``indian``, ``table``,
``serve``, ``backup``, ``restore``.

Each subcommand lives in ``referee/commands/<name>.py`` and provides
``add_parser(subparsers)`` and ``run(args) -> int``.  Exit codes: 0 legal or
done, 1 illegal, 2 bad input; with ``--json`` bad input is printed as
``{"error": {"round", "turn", "message"}}`` on standard output.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import sys
from collections.abc import Sequence

from referee.errors import RefereeError

COMMANDS = ("check", "replay", "gin", "indian", "table", "serve", "backup", "restore")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"referee: {message}", file=sys.stderr)
        raise SystemExit(2)


def version() -> str:
    """The installed version (pyproject.toml keeps it, the package's metadata carries it)."""
    try:
        return importlib.metadata.version("remi-referee")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="referee", description="Remi Referee: settles melds, lay-offs and scores."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"referee.commands.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except RefereeError as error:
        if getattr(args, "json", False):
            print(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            print(f"referee: {error.message}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
