"""A form another phone made stale, merged onto what it shows as that is now: a round's
correction, a turn's, a match's setup before its first round, a table's house rules.

The form carries what it was loaded from in one hidden field, ``loaded``, signed
with the app's secret key (the server reads back only what it wrote itself):
what it shows (kind and id), that thing as loaded (a round object, a turn, a
setup), the last line of the round's audit trail seen then, and the fields a
person still has to choose between.  When the version the form names moved
meanwhile, the form as loaded (base), as typed (mine) and the thing as it is now
(theirs) are each read into the same form and merged field by field
(:mod:`referee.web.play.merging`): the form comes back holding the thing as it
is now with only this phone's changes applied, beside what the other phone
changed (the audit trail's own lines where there is one) and what this phone
typed; a field both changed differently is a choice ("keep theirs" / "keep
mine") that must be made before anything is saved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, request
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeSerializer
from wtforms import HiddenField

from referee.web.forms.fields import numbered
from referee.web.forms.finaltable import TableRows
from referee.web.play import merging
from referee.web.store import reads
from referee.web.store.models import Round

FIELD = "loaded"
PICK = "keep-"
_SALT = "referee-form-loaded"
_NUMBERED = re.compile(r"(?P<prefix>[a-z_]+)_(?P<index>\d+)")
_PER_SEAT = ("hand", "melds", "fate", "rejoin")


@dataclass(frozen=True)
class Loaded:
    """What a form was loaded from (read back from its signed field)."""

    entry: dict[str, Any]
    mark: int
    contested: tuple[str, ...]


@dataclass(frozen=True)
class MergeForms:
    """How the view makes its form: ``make(rows, posted)`` (``rows``: a final table's, if
    the form has one; ``posted``: read the request), and ``fill(form, entry)`` from what it
    shows (a round object, a turn, a setup; False if it cannot)."""

    make: Callable[[TableRows | None, bool], Any]
    fill: Callable[[Any, dict[str, Any]], bool]
    players: Sequence[str]


@dataclass(frozen=True)
class Choice:
    name: str
    label: str
    theirs: str
    mine: str


@dataclass
class MergeShown:
    """What the conflict page shows: the other phone's changes, this phone's, the choices."""

    known: bool = True  # whether the form said what it was loaded from
    unshowable: bool = False  # what the form shows now reads in a way it cannot show
    other: list[reads.ShownChange] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)

    @property
    def contested(self) -> tuple[str, ...]:
        return tuple(choice.name for choice in self.choices)


def choose_first() -> str:
    return gettext(
        "Both phones changed the fields below differently: choose which to keep for each, then save."
    )


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt=_SALT)


def seal(
    stored: Round,
    contested: Sequence[str] = (),
    entry: dict[str, Any] | None = None,
    part: str = "round",
) -> str:
    """The ``loaded`` field of a correction form showing ``stored`` as it is now (``entry``:
    the part of it the form shows, named by ``part``, when not the whole round)."""
    return seal_thing(
        f"{part}:{stored.id}",
        stored.entry if entry is None else entry,
        contested,
        mark=_mark(stored),
    )


def seal_thing(
    what: str, entry: dict[str, Any], contested: Sequence[str] = (), *, mark: int = 0
) -> str:
    """The ``loaded`` field of a form showing ``entry``; ``what`` names the thing (its kind
    and id), ``mark`` the last line of its audit trail seen."""
    return _serializer().dumps(
        {"what": what, "entry": entry, "mark": mark, "contested": list(contested)}
    )


def _mark(stored: Round) -> int:
    return max((c.id or 0 for c in stored.match.changes if c.round_id == stored.id), default=0)


def opened(stored: Round, part: str = "round") -> Loaded | None:
    return opened_thing(f"{part}:{stored.id}")


def opened_thing(what: str) -> Loaded | None:
    """What the posted form was loaded from; None if it does not say (an old page) or says it
    in a way the server did not write, or about something else."""
    try:
        data = _serializer().loads(request.form.get(FIELD, ""))
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("what") != what:
        return None
    entry, mark, contested = data.get("entry"), data.get("mark"), data.get("contested")
    if not isinstance(entry, dict) or not isinstance(mark, int) or not isinstance(contested, list):
        return None
    return Loaded(entry, mark, tuple(str(name) for name in contested))


def snapshot(form: Any) -> dict[str, Any]:
    """What a person typed or chose in a form, by field name (hidden bookkeeping left out)."""
    return {f.name: _typed(f.data) for f in form if not isinstance(f, HiddenField)}


def _typed(value: Any) -> Any:
    """Text as typed, without what a browser adds to a text area (CRLF, edge blanks)."""
    if not isinstance(value, str):
        return value
    return "\n".join(line.strip() for line in value.replace("\r\n", "\n").split("\n")).strip()


def _filled(forms: MergeForms, rows: TableRows | None, entry: dict[str, Any]) -> Any:
    blank = forms.make(rows, False)
    return blank if forms.fill(blank, entry) else None


def _rows(form: Any) -> TableRows | None:
    if getattr(form, "meld_rows", None) is None:
        return None
    return TableRows(len(numbered(form, "table_cards")), len(numbered(form, "layoff_cards")))


def settle_choices(form: Any, forms: MergeForms, loaded: Loaded | None) -> tuple[str, ...]:
    """Apply the choices posted for the fields both phones changed ("keep theirs" puts the
    other phone's value back); the names still without a choice."""
    if loaded is None or not loaded.contested:
        return ()
    theirs_form = _filled(forms, _rows(form), loaded.entry)
    theirs = snapshot(theirs_form) if theirs_form is not None else {}
    unsettled = []
    for name in loaded.contested:
        pick = request.form.get(PICK + name)
        if name not in form._fields:
            continue
        if pick == "theirs":
            _put(form[name], theirs.get(name))
        elif pick != "mine":
            unsettled.append(name)
    return tuple(unsettled)


def merge_posted(
    form: Any,
    forms: MergeForms,
    stored: Round | None,
    loaded: Loaded | None,
    unsettled: Sequence[str] = (),
    now: dict[str, Any] | None = None,
) -> tuple[Any, MergeShown]:
    """The posted form rebuilt as the round (or its part ``now``) is now with only this
    phone's changes applied, and what the page says about it."""
    if now is None:
        assert stored is not None, "the round is what the form shows"
        now = stored.entry
    rows = _rows(form)
    if rows is not None:
        for entry in (now, loaded.entry if loaded else {}):
            table = entry.get("table")
            grown = TableRows.of_table(table if isinstance(table, list) else [], rows)
            rows = TableRows(max(rows.melds, grown.melds), max(rows.layoffs, grown.layoffs))
        form = _regrown(form, forms, rows)
    theirs_form = _filled(forms, rows, now)
    if theirs_form is None:  # it now reads in a way this form cannot show: nothing to merge
        for name in ("round_version", "match_version", "version"):
            if name in form._fields:  # still stale: saving it again cannot overwrite theirs
                form[name].data = request.form.get(name, "")
        other = _other_changes(stored, loaded) if stored is not None else []
        return form, MergeShown(known=loaded is not None, unshowable=True, other=other)
    base_form = _filled(forms, rows, loaded.entry) if loaded is not None else None
    mine = snapshot(form)
    theirs = snapshot(theirs_form)
    base = snapshot(base_form) if base_form is not None else None
    merged = merging.merge(base, mine, theirs)
    for name, value in merged.values.items():
        if name in form._fields:
            _put(form[name], value)
    contests = dict(merged.contests)
    for name in unsettled:  # a choice not made before stays a choice
        if name not in contests and not merging.same(mine.get(name), theirs.get(name)):
            contests[name] = merging.Contest(name, None, mine.get(name), theirs.get(name))
    shown = MergeShown(
        known=loaded is not None,
        other=_other_changes(stored, loaded)
        if stored is not None
        else _field_changes(form, forms.players, merged.theirs_changed, base, theirs),
        typed=[
            _change_words(form, forms.players, name, (base or theirs).get(name), mine.get(name))
            for name in merged.mine_changed
        ],
    )
    shown.choices = _choices(form, forms.players, contests.values())
    return form, shown


def choices_left(
    form: Any, forms: MergeForms, loaded: Loaded, unsettled: Sequence[str]
) -> MergeShown:
    """The choices still to make on a form saved without them (nothing changed meanwhile)."""
    theirs_form = _filled(forms, _rows(form), loaded.entry)
    theirs = snapshot(theirs_form) if theirs_form is not None else {}
    contests = [
        merging.Contest(name, None, form[name].data, theirs.get(name))
        for name in unsettled
        if name in form._fields
    ]
    return MergeShown(choices=_choices(form, forms.players, contests))


def _put(field: Any, value: Any) -> None:
    """Give a posted field a value, as if it had been posted (a number box shows what was
    posted, not its data)."""
    field.data = value
    if field.raw_data is not None:
        if value is None or value is False:
            field.raw_data = []
        else:
            field.raw_data = ["y" if value is True else str(value)]


def _regrown(form: Any, forms: MergeForms, rows: TableRows) -> Any:
    """The posted form with room for the rows of every side (its hidden fields as they are)."""
    if rows == _rows(form):
        return form
    grown = forms.make(rows, True)
    for name, old in form._fields.items():
        if isinstance(old, HiddenField) and name in grown._fields:
            grown[name].data = old.data
    grown.meld_rows.data, grown.layoff_rows.data = str(rows.melds), str(rows.layoffs)
    return grown


def _other_changes(stored: Round, loaded: Loaded | None) -> list[reads.ShownChange]:
    """The audit trail's lines for the changes made to the round since the form was loaded."""
    if loaded is None:
        return []
    return [
        reads.shown(change)
        for change in stored.match.changes
        if change.round_id == stored.id and (change.id or 0) > loaded.mark
    ]


def _field_changes(
    form: Any,
    players: Sequence[str],
    names: Sequence[str],
    base: dict[str, Any] | None,
    theirs: dict[str, Any],
) -> list[reads.ShownChange]:
    """The other phone's changes, field by field, where there is no audit trail to quote."""
    if base is None or not names:
        return []
    lines = [_change_words(form, players, name, base.get(name), theirs.get(name)) for name in names]
    return [reads.ShownChange(what=gettext("Changed"), when="", via="", lines=lines)]


def _choices(form: Any, players: Sequence[str], contests: Any) -> list[Choice]:
    return [
        Choice(
            contest.name,
            _label(form, players, contest.name),
            _value_words(form, contest.name, contest.theirs),
            _value_words(form, contest.name, contest.mine),
        )
        for contest in contests
    ]


def _label(form: Any, players: Sequence[str], name: str) -> str:
    label = str(form[name].label.text) if name in form._fields else name
    numbered_name = _NUMBERED.fullmatch(name)
    if numbered_name is None:
        return label
    prefix, index = numbered_name["prefix"], int(numbered_name["index"])
    if prefix == "hand" and index < len(players):
        return gettext("Hand of %(name)s", name=players[index])
    if prefix in _PER_SEAT and index < len(players):
        return f"{label} ({players[index]})"
    return f"{label} {index + 1}"


def _change_words(form: Any, players: Sequence[str], name: str, before: Any, after: Any) -> str:
    """A change typed on this phone, in the audit trail's words where it has them."""
    was, now = _value_words(form, name, before), _value_words(form, name, after)
    numbered_name = _NUMBERED.fullmatch(name)
    if numbered_name and numbered_name["prefix"] == "hand":
        index = int(numbered_name["index"])
        if index < len(players):
            return gettext(
                "Hand of %(name)s: %(before)s → %(after)s",
                name=players[index],
                before=was,
                after=now,
            )
    return f"{_label(form, players, name)}: {was} → {now}"


def _value_words(form: Any, name: str, value: Any) -> str:
    """A field's value as the page shows it: a choice by its label, a box ticked or not."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None or value == "":
        return "–"
    choices = getattr(form[name], "choices", None) if name in form._fields else None
    for choice in choices or ():
        if isinstance(choice, tuple) and len(choice) >= 2 and choice[0] == value:
            return str(choice[1])
    return str(value)
