"""The forms of the history pages: filters read from the query string (no CSRF: they change
nothing) and the import of a whole table."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import IO, Any, cast

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField
from wtforms import BooleanField, SelectField, StringField, TextAreaField
from wtforms.validators import Optional, ValidationError

from referee.rulesets import RULESETS
from referee.web.forms.base import Form, OneTimeForm
from referee.web.forms.fields import choices
from referee.web.play.names import name_key
from referee.web.show.history import Filters
from referee.web.store.models import Player
from referee.web.store.summary import BROKEN, FINISHED, PLAYING

STATES = [
    ("", _l("Any")),
    (PLAYING, _l("In progress")),
    (FINISHED, _l("Finished")),
    (BROKEN, _l("Needs a correction")),
]


def read_date(text: str | None) -> date | None:
    """A date written YYYY-MM-DD (what a date field sends); None when empty or not a date."""
    try:
        return date.fromisoformat((text or "").strip())
    except ValueError:
        return None


class DateField(StringField):
    """A date, typed or picked (``<input type="date">``), checked with a message in words."""

    def __init__(self, label: Any, **kwargs: Any) -> None:
        super().__init__(label, validators=[Optional()], render_kw={"type": "date"}, **kwargs)

    @property
    def day(self) -> date | None:
        return read_date(self.data)

    def pre_validate(self, form: Any) -> None:
        if self.data and self.day is None:
            raise ValidationError(gettext("Write the date as year-month-day, like 2026-03-31."))


class PeriodForm(Form):
    """A ruleset and a period: what every history page may be narrowed to."""

    class Meta:
        csrf = False

    rules = SelectField(_l("Game"), default="")
    since = DateField(_l("From"))
    until = DateField(_l("Until"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules.choices = choices(
            [("", gettext("Every game"))]
            + [(rules.id, gettext(rules.name)) for rules in RULESETS.values()]
        )

    def validate_until(self, field: DateField) -> None:
        since, until = self.since.day, field.day
        if since is not None and until is not None and until < since:
            raise ValidationError(gettext("The period ends before it starts."))

    def filters(self, **extra: Any) -> Filters:
        """What the form asks for (its valid parts: a refused field narrows nothing)."""
        rules = self.rules.data if self.rules.data in RULESETS else None
        return Filters(rules=rules, since=self.since.day, until=self.until.day, **extra)

    @property
    def narrowed(self) -> bool:
        return any(field.data for field in self if field.type != "CSRFTokenField")


class PlayerField(SelectField):
    """A player of the table, chosen from the list or named in a shared link: its id
    (``?player=3``) or its name as the players write it (``?player=Andi+Pratama``, case
    and spacing ignored). A name that is nobody's is kept in ``unknown``, not refused:
    the page says so in words instead of a field error."""

    unknown: str | None = None
    data: Any

    def offer(self, offered: Iterable[Player], nobody: str) -> None:
        """The players to choose from, and what was asked read against them."""
        players = list(offered)
        self.choices = player_choices(players, nobody)
        self.unknown = None
        asked = str(self.data or "")
        if not asked or any(asked == str(player.id) for player in players):
            return
        wanted = name_key(asked)
        named = [player for player in players if name_key(player.name) == wanted]
        if named:
            self.data = str(named[0].id)
        else:
            self.unknown, self.data = asked, ""

    def pre_validate(self, form: Any) -> None:
        """Every value is answered (a name that is nobody's by ``unknown``)."""


class MatchFilterForm(PeriodForm):
    player = PlayerField(_l("Player"), default="")
    state = SelectField(_l("State"), choices=choices(STATES), default="")

    def __init__(self, players: Iterable[Player], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player.offer(players, gettext("Everyone"))

    @property
    def unknown_player(self) -> str | None:
        """A name in the link that is no player of this table."""
        return self.player.unknown

    def filters(self, **extra: Any) -> Filters:
        state = self.state.data if self.state.data in (PLAYING, FINISHED, BROKEN) else None
        return super().filters(player_id=_player_id(self.player), state=state, **extra)


class HeadToHeadForm(PeriodForm):
    first = PlayerField(_l("Player"), default="")
    second = PlayerField(_l("Against"), default="")

    def __init__(self, players: Iterable[Player], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = list(players)
        self.first.offer(players, gettext("Choose a player"))
        self.second.offer(players, gettext("Choose a player"))

    def validate_second(self, field: SelectField) -> None:
        if field.data and field.data == self.first.data:
            raise ValidationError(gettext("Choose two different players."))

    @property
    def pair(self) -> tuple[int, int] | None:
        first, second = _player_id(self.first), _player_id(self.second)
        if first is None or second is None or first == second:
            return None
        return first, second


def player_choices(players: Iterable[Player], nobody: str) -> list[Any]:
    return choices([("", nobody)] + [(str(player.id), player.name) for player in players])


def _player_id(field: SelectField) -> int | None:
    """The player chosen, if it is one of the choices."""
    valid = {getattr(choice, "value", None) for choice in field.choices or ()}
    return int(field.data) if field.data and field.data in valid else None


class TableImportForm(OneTimeForm):
    """A whole table as exported (``referee-table/1``): a file, or its text pasted."""

    file = FileField(_l("Table file (.json)"))
    document = TextAreaField(_l("…or paste the document"), render_kw={"rows": 6})

    copies = BooleanField(_l("Import repeated matches as copies"))

    def upload(self) -> IO[bytes] | str:
        """What was sent: the file if one was chosen (read as a stream), else the pasted text
        ("" for nothing)."""
        if self.file.data and getattr(self.file.data, "filename", ""):
            return cast(IO[bytes], self.file.data.stream)
        text = self.document.data or ""
        return text if text.strip() else ""
