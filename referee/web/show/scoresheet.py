"""The score sheet as on paper: one row per round, running totals, the match end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from referee.errors import RefereeError
from referee.match import MatchState, Reseating, RoundResult
from referee.rulesets import Ruleset, find_ruleset
from referee.standings import BonusRow, RejoinRow, SeatingRow, Standing, current_totals
from referee.web.show.cardview import CardFace, picker_deck
from referee.web.show.labels import outcome_key, outcome_labels
from referee.web.store import matchlog
from referee.web.store.models import Match


class StoredRound(Protocol):
    """What a score sheet row shows of the round as stored (a :class:`Round`, or its row)."""

    @property
    def number(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def voided(self) -> bool: ...


@dataclass
class SheetRow:
    number: int
    stored: StoredRound | None
    dealer: str
    outcome: str
    outcome_key: str
    winners: list[str]
    scores: dict[str, int]
    running: dict[str, int]
    result: RoundResult | None = None  # the replayed round: its verdicts (notes) and detail
    seating: Reseating | None = None  # who joined or left just before this round
    rejoined: dict[str, int] = field(default_factory=dict)  # back in a pool before it: at what


@dataclass
class Sheet:
    players: list[str]
    rules: Ruleset | None
    rows: list[SheetRow] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    bonuses: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    next_dealer: str | None = None
    leaders: list[str] = field(default_factory=list)
    seated: list[str] = field(default_factory=list)  # at the table for the next round
    pending: Reseating | None = None  # who joined or left since the last round
    joined: dict[str, int] = field(default_factory=dict)  # a newcomer: the round they joined
    left: dict[str, int] = field(default_factory=dict)  # who is gone: the round they left before
    next_deal: Ruleset | None = None  # the rules of the next deal, where its contract changes
    standings: tuple[Standing, ...] = ()  # the engine's, in the game's order
    deal_facts: dict[str, Any] = field(default_factory=dict)  # the next deal's (Three Thirteen)
    # What the game says of the next round from the totals (Canasta's minimums), in words.
    next_from_totals: str = ""
    next_facts: dict[str, Any] | None = None  # the same facts, as the API gives them
    columns: Any = None  # Hollywood gin's three games (referee.hollywood.HollywoodSheet)
    rounds_won: dict[str, int] = field(default_factory=dict)  # the engine's, per side
    tracker: dict[str, Any] = field(default_factory=dict)  # what the game carries (Phase 10)
    counted_rounds: list[int] = field(default_factory=list)  # the non-void rounds' numbers
    # The match's sides (its columns are theirs): each team's partners, where it is played in
    # teams (empty where each player plays alone); the sides seated for the next round.
    members: dict[str, list[str]] = field(default_factory=dict)
    seated_sides: list[str] = field(default_factory=list)
    next_dealer_side: str | None = None  # the side of the player who deals next

    def is_seated(self, side: str) -> bool:
        """Whether ``side`` (a column of the sheet) sits at the table for the next round."""
        return side in (self.seated_sides or self.seated)

    def entry_round(self, index: int) -> int:
        """The number of the round a column entry came from (entries count the non-void rounds)."""
        return self.counted_rounds[index - 1]

    @property
    def target(self) -> int | None:
        return self.rules.target if self.rules else None

    @property
    def hands(self) -> int | None:
        return self.rules.hands if self.rules else None

    def progress(self, name: str) -> int:
        """Percent of the way to the target (or through the agreed number of rounds)."""
        if self.hands:
            deals = sum(row.outcome_key != "void" for row in self.rows)
            return min(100, round(100 * deals / self.hands))
        if not self.target:
            return 0
        return max(0, min(100, round(100 * self.totals.get(name, 0) / self.target)))


def ruleset_of(match: Match) -> Ruleset | None:
    try:
        return find_ruleset(match.rules, match.options, as_played=True)
    except RefereeError:
        return None


def build(match: Match, state: MatchState | None) -> Sheet:
    """The score sheet: a column for everyone who has sat at the table; a round's cells only
    for the players seated in it (a newcomer's running total starts at their starting total)."""
    if state is None:
        rules = ruleset_of(match)
        sheet = Sheet(players=match.everyone, rules=rules, seated=match.seated_names)
        if rules is not None and rules.round_facts is not None:
            sheet.deal_facts = dict(rules.round_facts(rules.for_deal(1)))
        sheet.next_deal = rules if rules is not None and rules.changes_by_deal else None
        if rules is not None and rules.tracker is not None:
            try:
                fresh = MatchState.start(matchlog.stored_header(matchlog.header(match)))
                sheet.tracker = dict(rules.tracker.facts(fresh.carried))
            except RefereeError:
                pass  # a match that does not replay shows no tracker
        if rules is not None and rules.from_totals is not None:
            _from_totals(sheet, rules, dict.fromkeys(match.teams or match.everyone, 0))
        return sheet
    return sheet_of(state, ruleset_of(match), {r.number: r for r in match.complete_rounds})


def sheet_of(state: MatchState, rules: Ruleset | None, stored: Mapping[int, StoredRound]) -> Sheet:
    """The score sheet of a match replayed, its complete rounds as stored by number."""
    players = list(state.everyone)
    sheet = Sheet(players=players, rules=rules, seated=list(state.players))
    sheet.members = {team.name: list(team.members) for team in state.header.teams}
    sheet.seated_sides = list(state.seated_sides)
    outcome_label = outcome_labels(state.rules)
    for reseating in state.reseatings:
        for name in reseating.joined:
            sheet.joined.setdefault(name, reseating.before_round)
            sheet.left.pop(name, None)
        for name in reseating.left:
            sheet.left[name] = reseating.before_round
    seating: Reseating | None = None
    rejoined: dict[str, int] = {}
    for line in state.sheet_rows():
        if isinstance(line, SeatingRow):
            seating = line.change
        elif isinstance(line, RejoinRow):
            rejoined = dict(line.running)
        elif isinstance(line, BonusRow):
            sheet.bonuses = {name: int(bonus) for name, bonus in line.bonuses.items()}
        else:
            result = line.result
            sheet.rows.append(
                SheetRow(
                    number=result.number,
                    stored=stored.get(result.number),
                    dealer=str(result.dealer),
                    outcome=outcome_label(result),
                    outcome_key=outcome_key(result),
                    winners=list(result.winners),
                    scores={name: int(score) for name, score in result.scores.items()},
                    running={name: int(total) for name, total in line.running.items()},
                    result=result,
                    seating=seating,
                    rejoined=rejoined,
                )
            )
            seating, rejoined = None, {}
    sheet.pending = seating
    totals = current_totals(state)
    sheet.totals = {name: int(totals.get(name, 0)) for name in players}
    sheet.columns = state.columns
    if sheet.columns is not None:
        sheet.counted_rounds = [result.number for result in state.rounds if not result.is_void]
    sheet.finished = bool(state.finished)
    sheet.winners = list(state.winners)
    sheet.next_dealer = None if sheet.finished else state.next_dealer
    if sheet.next_dealer is not None:
        sheet.next_dealer_side = state.header.side_of(sheet.next_dealer)
    if rules is not None and rules.changes_by_deal and not sheet.finished:
        sheet.next_deal = rules.for_deal(state.next_deal)
    if state.rules.round_facts is not None and not sheet.finished:
        sheet.deal_facts = dict(state.rules.round_facts(state.rules_of_round(state.next_round)))
    if state.rules.tracker is not None:
        sheet.tracker = dict(state.rules.tracker.facts(state.carried))
    if state.rules.from_totals is not None and not sheet.finished:
        _from_totals(sheet, state.rules, state.totals)
    sheet.standings = state.standings()
    sheet.rounds_won = dict(state.rounds_won)
    if sheet.rows:
        sheet.leaders = list(state.leaders)
    return sheet


def _from_totals(sheet: Sheet, rules: Ruleset, totals: Mapping[str, int]) -> None:
    """The next round's facts from the totals (Canasta's minimums), and in words side by
    side ("Budi 50, Siti 90")."""
    assert rules.from_totals is not None
    facts = dict(rules.from_totals.facts(rules, totals))
    sheet.next_facts = {rules.from_totals.key: facts}
    sheet.next_from_totals = ", ".join(f"{side} {value}" for side, value in facts.items())


def picker_rows(match: Match) -> list[list[CardFace]]:
    """The card picker for a match: jokers only where the ruleset has them."""
    rules = ruleset_of(match)
    return picker_deck(bool(rules and rules.jokers))


def deal_rules(match: Match, number: int, state: MatchState | None = None) -> Ruleset | None:
    """The rules of round ``number`` of a match, with its options: the contract and deal size
    of its deal where they change from deal to deal (void rounds are no deal)."""
    rules = ruleset_of(match)
    if rules is None or not rules.changes_by_deal:
        return rules
    if state is None:
        state = matchlog.outlook(match).state
    return rules_of_deal(rules, number, state)


def rules_of_deal(rules: Ruleset, number: int, state: MatchState | None) -> Ruleset:
    """``rules`` (a match's, with its options) for round ``number`` of the match ``state``
    has played so far: its deal's contract and size where they change from deal to deal."""
    if state is None:
        return rules
    return state.rules_of_round(number)


@dataclass
class DealColumn:
    """One deal of a match with a contract per deal: its rules (contract) and its round."""

    number: int
    rules: Ruleset
    row: SheetRow | None  # None: not played yet


def deal_columns(sheet: Sheet) -> list[DealColumn]:
    """Every deal of the match in order, each with the round that played it (void rounds are
    no deal); empty for a ruleset without contracts."""
    rules = sheet.rules
    if rules is None or not rules.changes_by_deal or rules.hands is None:
        return []
    played = [row for row in sheet.rows if row.outcome_key != "void"]
    return [
        DealColumn(
            number, rules.for_deal(number), played[number - 1] if number <= len(played) else None
        )
        for number in range(1, rules.hands + 1)
    ]


def in_order(sheet: Sheet) -> list[str]:
    """The players in the game's order (the engine's standings), else as seated."""
    return [standing.player for standing in sheet.standings] or list(sheet.players)
