"""Every form of the app, in one place; each is a Flask-WTF form, so every POST carries a CSRF token.

- :mod:`.base`: the base form (WTForms' own messages translated) and the one-time form;
- :mod:`.fields`: fields that read cards, melds and lay-offs, and numbered fields;
- :mod:`.general`: language, tables and players, match setup, tools, import, renames;
- :mod:`.rounds`: a round entered as its final table, a live turn, the end of a live round;
- :mod:`.history`: the match list's filters, periods, head-to-head, a table's import.

The general forms are importable from the package itself (``from referee.web.forms import
TableForm``).
"""

from referee.web.forms.general import (
    HINT_MAX_CARDS,
    ActionForm,
    CheckerForm,
    ForgetTableForm,
    GinHandForm,
    ImportForm,
    IndianShowForm,
    LanguageForm,
    PlayersForm,
    PlayHintForm,
    RenamePlayerForm,
    RenameTableForm,
    ReplaceLinkForm,
    RoundJsonForm,
    TableForm,
    refuse_names,
    rulesets_with_option,
    setup_form_class,
    setup_options,
    split_names,
)
from referee.web.play.limits import (
    NAME_MAX,
    OPTION_LIMITS,
    OPTION_MESSAGES,
    TABLE_NAME_MAX,
    TARGET_MAX,
)

__all__ = [
    "HINT_MAX_CARDS",
    "NAME_MAX",
    "OPTION_LIMITS",
    "OPTION_MESSAGES",
    "TABLE_NAME_MAX",
    "TARGET_MAX",
    "ActionForm",
    "CheckerForm",
    "ForgetTableForm",
    "GinHandForm",
    "ImportForm",
    "IndianShowForm",
    "LanguageForm",
    "PlayHintForm",
    "PlayersForm",
    "RenamePlayerForm",
    "RenameTableForm",
    "ReplaceLinkForm",
    "RoundJsonForm",
    "TableForm",
    "refuse_names",
    "rulesets_with_option",
    "setup_form_class",
    "setup_options",
    "split_names",
]
