"""``python -m referee.rulesets markdown``: the README's table of house rules, from the data."""

import sys

from referee.rulesets.options import main

sys.exit(main(sys.argv[1:]))
