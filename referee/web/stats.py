"""Statistics of one card table, from its matches as the engine replays them."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.web.matchlog import outlook
from referee.web.models import CardTable, Match


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
class TableStats:
    players: list[PlayerStats] = field(default_factory=list)
    matches: int = 0
    finished: int = 0
    unreadable: int = 0


def for_table(table: CardTable) -> TableStats:
    by_name = {player.name: PlayerStats(player.name) for player in table.players}
    summary = TableStats()
    for match in table.matches:
        summary.matches += 1
        seen = outlook(match)
        if seen.state is None:
            summary.unreadable += 1
            continue
        state = seen.state
        for name in match.player_names:
            by_name.setdefault(name, PlayerStats(name)).matches += 1
        if state.finished:
            summary.finished += 1
            for name in state.winners:
                by_name[name].won += 1
        for result in state.rounds:
            if result.is_void:
                continue
            for name in result.winners:
                by_name[name].rounds_won += 1
            for name, score in dict(result.scores).items():
                player = by_name[name]
                player.rounds += 1
                player.points += score
                if player.best is None or score > player.best:
                    player.best, player.best_at = score, (match, result.number)
    summary.players = sorted(by_name.values(), key=lambda p: (-p.won, -p.rounds_won, p.name))
    return summary
