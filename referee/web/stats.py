"""Statistics of one card table, per ruleset, from its matches as the engine replays them.

Each ruleset scores on its own scale (remi-indonesia's hundreds, gin's tens), so
the figures are kept apart per ruleset.  A match counts as played once it has a
round that is not void; rounds, best round and average count only scored rounds
(not void, not a draw).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.scoring import Outcome
from referee.web.matchlog import outlook
from referee.web.models import CardTable, Match

# Rounds that score nothing by their nature: left out of rounds and averages.
UNSCORED = (Outcome.VOID, Outcome.DRAW)


@dataclass
class PlayerStats:
    name: str
    matches: int = 0
    won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points: int = 0
    best: int | None = None
    best_at: tuple[Match, int] | None = None

    @property
    def average(self) -> float | None:
        return self.points / self.rounds if self.rounds else None


@dataclass
class RulesetStats:
    rules: str
    players: list[PlayerStats] = field(default_factory=list)
    matches: int = 0
    finished: int = 0


@dataclass
class TableStats:
    groups: list[RulesetStats] = field(default_factory=list)
    unreadable: int = 0

    @property
    def matches(self) -> int:
        return sum(group.matches for group in self.groups)

    @property
    def finished(self) -> int:
        return sum(group.finished for group in self.groups)


def for_table(table: CardTable) -> TableStats:
    summary = TableStats()
    groups: dict[str, tuple[RulesetStats, dict[str, PlayerStats]]] = {}
    for match in table.matches:
        seen = outlook(match)
        if seen.state is None:
            summary.unreadable += 1
            continue
        state = seen.state
        if not any(not result.is_void for result in state.rounds):
            continue  # not played yet (or every round void)
        group, by_name = groups.setdefault(match.rules, (RulesetStats(match.rules), {}))
        group.matches += 1
        for name in match.player_names:
            by_name.setdefault(name, PlayerStats(name)).matches += 1
        if state.finished:
            group.finished += 1
            for name in state.winners:
                by_name[name].won += 1
        for result in state.rounds:
            if result.outcome in UNSCORED:
                continue
            for name in result.winners:
                by_name[name].rounds_won += 1
            for name, score in dict(result.scores).items():
                player = by_name[name]
                player.rounds += 1
                player.points += score
                if player.best is None or score > player.best:
                    player.best, player.best_at = score, (match, result.number)
    for group, by_name in groups.values():
        group.players = sorted(by_name.values(), key=lambda p: (-p.won, -p.rounds_won, p.name))
        summary.groups.append(group)
    summary.groups.sort(key=lambda group: (-group.matches, group.rules))
    return summary
