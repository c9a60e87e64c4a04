"""``python -m referee.rulesets markdown``: the house rules table of docs/house-rules.md."""

import sys

from referee.rulesets.options import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
