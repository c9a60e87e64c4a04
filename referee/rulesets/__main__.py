"""``python -m referee.rulesets markdown``: the house rules table of docs/house-rules.md."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from referee.rulesets import RULESETS
from referee.rulesets.options import markdown_table


def main(argv: Sequence[str]) -> int:
    """Print docs/house-rules.md's table of house rules of every registered ruleset."""
    if list(argv) != ["markdown"]:
        print("usage: python -m referee.rulesets markdown", file=sys.stderr)
        return 2
    sys.stdout.write(markdown_table(list(RULESETS.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
