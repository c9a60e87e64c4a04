"""The audit trail of a round, and the table's own history, for people to read: what
changed, when, from which link.

Changes are written by :func:`referee.web.store.writes.record` in the transaction
that makes them; this module only words them.  The difference shown is the
simple part of a round (how it ended, the hands, the number of turns); the
rest is said to have changed, and the JSON of both sides stays in the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask_babel import format_datetime, gettext
from flask_babel import lazy_gettext as _l

from referee.web.store.models import CardTable, Match, Round, RoundChange

WHAT = {
    "corrected": _l("Corrected"),
    "turn-corrected": _l("Turn corrected"),
    "voided": _l("Voided"),
    "restored": _l("Restored (void undone)"),
    "deleted": _l("Deleted"),
    "undeleted": _l("Restored (delete undone)"),
}
VIA = {"t": _l("from the edit link"), "v": _l("from the view link")}
TABLE_EVENTS = {
    "edit-link-replaced": _l("Edit link replaced"),
    "view-link-replaced": _l("View link replaced"),
}
ENDING_KEYS = ("end", "out", "at_once", "knock", "closer", "closing_card")


@dataclass
class ShownChange:
    what: str
    when: str
    via: str
    lines: list[str] = field(default_factory=list)


def table_history(table: CardTable) -> list[ShownChange]:
    """What was done to the table itself (its links replaced), newest first."""
    return [
        ShownChange(
            what=str(TABLE_EVENTS.get(event.what, event.what)),
            when=_when(event.happened_at),
            via=str(VIA.get(event.via, event.via)),
        )
        for event in reversed(table.events)
    ]


def trail(match: Match, stored: Round) -> list[ShownChange]:
    """The changes of this round, oldest first (a round that took a deleted one's number starts afresh)."""
    return [shown(change) for change in match.changes if change.round_id == stored.id]


def shown(change: RoundChange) -> ShownChange:
    before, after = change.before or {}, change.after or {}
    if change.what in ("corrected", "turn-corrected"):
        lines = differences(before, after)
    else:
        lines = [ending(after if change.what in ("restored", "undeleted") else before)]
    return ShownChange(
        what=str(WHAT.get(change.what, change.what)),
        when=_when(change.changed_at),
        via=str(VIA.get(change.via, change.via)),
        lines=[line for line in lines if line],
    )


def _when(moment: datetime) -> str:
    return format_datetime(moment, "short")


def ending(entry: dict[str, Any]) -> str:
    """How a round object says the round ended, in words."""
    end = entry.get("end")
    if end == "void":
        return gettext("void (everyone scores 0)")
    if end:
        return gettext("ended without a winner (%(how)s)", how=str(end))
    if entry.get("out"):
        if entry.get("at_once"):
            return gettext("%(name)s went out at once", name=entry["out"])
        return gettext("%(name)s went out", name=entry["out"])
    if entry.get("knock"):
        return gettext("%(name)s knocked", name=entry["knock"])
    if entry.get("closer"):
        return gettext("%(name)s closed the round", name=entry["closer"])
    if entry.get("turns"):
        return gettext("played live, %(count)s turns", count=len(entry["turns"]))
    return ""


def _hand(hand: Any) -> str:
    if hand is None:
        return "–"
    if isinstance(hand, int) and not isinstance(hand, bool):
        return gettext("%(points)s points", points=hand)
    if isinstance(hand, list):
        return " ".join(str(card) for card in hand) or "–"
    return str(hand)


def _cards(cards: Any) -> str:
    return " ".join(str(card) for card in cards) if isinstance(cards, list) else str(cards)


def turn_words(turn: Any) -> str:
    """A turn as the live page lists it: who, and what they took, laid and discarded."""
    if not isinstance(turn, dict):
        return str(turn)
    parts = [str(turn.get("player", "?"))]
    if turn.get("took_discard"):
        parts.append(gettext("took") + " " + _cards(turn["took_discard"]))
    for meld in turn.get("melds") or ():
        parts.append(gettext("meld") + " " + _cards(meld))
    for layoff in turn.get("layoffs") or ():
        if isinstance(layoff, dict):
            onto = layoff.get("onto", "?")
            parts.append(f"{gettext('lay-off')} {_cards(layoff.get('cards', []))} → {onto}")
    if turn.get("played"):
        parts.append(gettext("played") + " " + _cards(turn["played"]))
    if turn.get("table"):
        parts.append(gettext("table") + " " + " | ".join(_cards(m) for m in turn["table"]))
    if turn.get("discard"):
        parts.append(gettext("discard") + " " + str(turn["discard"]))
    if turn.get("out"):
        parts.append(gettext("out"))
    return " · ".join(parts)


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a correction changed, one line per part."""
    lines = []
    if any(before.get(key) != after.get(key) for key in ENDING_KEYS):
        lines.append(
            gettext("Ending: %(before)s → %(after)s", before=ending(before), after=ending(after))
        )
    hands_before, hands_after = before.get("hands") or {}, after.get("hands") or {}
    for name in [*hands_before, *(n for n in hands_after if n not in hands_before)]:
        if hands_before.get(name) != hands_after.get(name):
            lines.append(
                gettext(
                    "Hand of %(name)s: %(before)s → %(after)s",
                    name=name,
                    before=_hand(hands_before.get(name)),
                    after=_hand(hands_after.get(name)),
                )
            )
    turns_before, turns_after = before.get("turns") or [], after.get("turns") or []
    if len(turns_before) != len(turns_after):
        lines.append(
            gettext(
                "Turns: %(before)s → %(after)s", before=len(turns_before), after=len(turns_after)
            )
        )
    else:
        for number, (was, now) in enumerate(zip(turns_before, turns_after, strict=True), 1):
            if was != now:
                lines.append(
                    gettext(
                        "Turn %(number)s: %(before)s → %(after)s",
                        number=number,
                        before=turn_words(was),
                        after=turn_words(now),
                    )
                )
    shown_keys = {*ENDING_KEYS, "hands", "turns"}
    if any(before.get(key) != after.get(key) for key in {*before, *after} if key not in shown_keys):
        lines.append(gettext("Other details changed (see the JSON)."))
    return lines or [gettext("Saved again without a change.")]
