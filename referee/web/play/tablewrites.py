"""The writes of a card table as values handed to the door
(:func:`referee.web.store.door.save_table`): a new table, its players, a new key, its
house rules, a whole table imported from its file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.web.play import changes, tablefile
from referee.web.store.door import Applied, Refusal, Seen, Verdict
from referee.web.store.extensions import db
from referee.web.store.models import CardTable, HouseRules


@dataclass(frozen=True)
class NewTable:
    """A new card table with its first players; it leads where ``leads_to`` says from its
    edit key."""

    name: str
    players: tuple[str, ...] = ()
    once: str | None = None
    location: str = ""
    leads_to: Callable[[CardTable], str] | None = None

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        table = changes.create_table(self.name, self.players)
        location = self.leads_to(table) if self.leads_to is not None else None
        return Applied(result=table, location=location)


@dataclass(frozen=True)
class AddPlayers:
    """New players at a table; a name already there (compared without case or width) is
    refused, in words."""

    table: CardTable
    names: tuple[str, ...]
    once: str | None = None
    location: str = ""

    def check(self) -> Verdict:
        refusal = changes.name_refusal(self.names)
        taken = changes.taken_names(self.table, self.names)
        if refusal is None and taken:
            refusal = gettext("Already at this table: %(names)s", names=", ".join(taken))
        if refusal:
            raise Refusal(refusal, "names")
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        changes.add_players(self.table, self.names)
        return Applied()


@dataclass(frozen=True)
class ReplaceKey:
    """A new edit or view key for the table: the old one opens nothing from the commit on."""

    table: CardTable
    link: str
    via: str
    once: str | None = None
    location: str = ""
    leads_to: Callable[[CardTable], str] | None = None

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        changes.replace_link(self.table, self.link, via=self.via)
        location = self.leads_to(self.table) if self.leads_to is not None else None
        return Applied(result=self.table, location=location)


@dataclass(frozen=True)
class SaveHouseRules:
    """A table's set of house rules, new (``found`` None) or saved again under its name."""

    table: CardTable
    rules: str
    name: str
    options: dict[str, Any]
    found: HouseRules | None = None
    once: str | None = None
    location: str = ""
    seen: Seen = Seen()  # the set's version the phone saw, the merge choices it left

    @property
    def versioned(self) -> HouseRules | None:
        return self.found

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        if self.found is None:
            made = HouseRules(
                table=self.table, rules=self.rules, name=self.name, options=self.options
            )
            db.session.add(made)
            return Applied(result=made)
        self.found.version = self.found.version + 1
        self.found.name, self.found.options = self.name, self.options
        return Applied(result=self.found)


@dataclass(frozen=True)
class DeleteHouseRules:
    found: HouseRules
    once: str | None = None
    location: str = ""
    seen: Seen = Seen()  # the set's version the phone saw

    @property
    def versioned(self) -> HouseRules:
        return self.found

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        db.session.delete(self.found)
        return Applied()


@dataclass(frozen=True)
class ImportTable:
    """A whole table from its file, read and checked before (its matches are stored with
    their summaries in bulk); it leads where ``leads_to`` says from the new edit key."""

    read: Any  # tablefile.ReadTable
    once: str | None = None
    location: str = ""
    leads_to: Callable[[str], str] | None = None

    def check(self) -> Verdict:
        return Verdict()

    def apply(self, verdict: Verdict) -> Applied:
        _table_id, edit_key = tablefile.store_table(self.read)
        location = self.leads_to(edit_key) if self.leads_to is not None else None
        return Applied(result=edit_key, location=location)
