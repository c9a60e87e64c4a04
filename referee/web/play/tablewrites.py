"""The writes of a card table as values handed to the door
(:func:`referee.web.store.door.save_table`): a new table, its players, a new key."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext

from referee.web.play import changes
from referee.web.store.door import Applied, Refusal, Verdict
from referee.web.store.models import CardTable


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
