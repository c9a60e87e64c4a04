"""Hollywood gin (gin's option ``scoring: hollywood``): three games scored at once.

Rounds are played and scored exactly as plain gin (:mod:`referee.gin`); this module only
says where each round's score goes.  :func:`score_columns` takes the rounds' results in
order (who won and with how many points; a draw has no winner) and gives the sheet: the
three columns, each closing with its game, box and shutout bonuses, and the match result.

* A winner enters their score in every open column where they already have an entry, and
  in the lowest-numbered open column where they have none: a first win goes into column 1,
  a second into 1 and 2, the third and every later one into all three.  A player shut out
  of a column (no entry when it closed) starts on the next open column.
* A column closes after the round in which a player's total in it reaches the target.
  The winner adds the game bonus, each player the box bonus for each of their entries,
  and with ``shutout`` the winner's column total (bonuses included) is doubled when the
  other player has no entry in it.
* The match ends when all three columns have closed; the higher sum of the column totals
  wins, equal sums share the win.

>>> sheet = score_columns(("Budi", "Siti"), [HandResult("Budi", 30), HandResult("Siti", 12)],
...                       HollywoodOptions())
>>> [column.points for column in sheet.columns]
[{'Budi': 30, 'Siti': 12}, {'Budi': 0, 'Siti': 0}, {'Budi': 0, 'Siti': 0}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from referee.errors import RuleError
from referee.messages import Reason, define_message
from referee.rulesets.options import Option, OptionType, option, preset
from referee.scoring import Outcome, RoundScore

COLUMNS = 3

NOT_TWO_PLAYERS = define_message(
    "hollywood.not_two_players", "Hollywood gin is played by exactly 2 players, not {count}"
)
UNKNOWN_WINNER = define_message(
    "hollywood.unknown_winner", "{name} is not one of the two players of this match"
)
NEGATIVE_POINTS = define_message(
    "hollywood.negative_points", "a round's score is 0 or more, not {points}"
)
AFTER_THE_END = define_message(
    "hollywood.after_the_end",
    "round {number} comes after the end of the match: all three games had closed",
)
TARGET_OUT_OF_RANGE = define_message(
    "hollywood.target_out_of_range", "the target of a game is from 50 to 1000, not {value}"
)
BONUS_OUT_OF_RANGE = define_message(
    "hollywood.bonus_out_of_range", "the {bonus} is from 0 to {maximum}, not {value}"
)
SHUTOUT_SWITCH = define_message("hollywood.shutout_switch", "shutout is true or false, not {value}")
THE_GAME_BONUS = define_message("hollywood.the_game_bonus", "game bonus")
THE_BOX_BONUS = define_message("hollywood.the_box_bonus", "box bonus")


@dataclass(frozen=True)
class HollywoodOptions:
    """The bonuses that act at each column's close, with Hollywood's published defaults.

    ``target`` is gin's own target: 100, or 150 with ``oklahoma`` (:meth:`for_gin`).
    """

    target: int = 100
    game_bonus: int = 100
    box_bonus: int = 20
    shutout: bool = True

    def __post_init__(self) -> None:
        if not (_whole(self.target) and 50 <= self.target <= 1000):
            raise RuleError(TARGET_OUT_OF_RANGE, value=str(self.target))
        for name, bonus, maximum in (
            (THE_GAME_BONUS, self.game_bonus, 500),
            (THE_BOX_BONUS, self.box_bonus, 100),
        ):
            if not (_whole(bonus) and 0 <= bonus <= maximum):
                raise RuleError(
                    BONUS_OUT_OF_RANGE, bonus=Reason.of(name), maximum=maximum, value=str(bonus)
                )

        if not isinstance(self.shutout, bool):
            raise RuleError(SHUTOUT_SWITCH, value=str(self.shutout))

    @classmethod
    def for_gin(cls, settings: Mapping[str, object]) -> HollywoodOptions:
        """The options from a gin match's settings (absent ones at Hollywood's defaults)."""
        oklahoma = settings.get("oklahoma") is True
        defaults = cls(target=150 if oklahoma else 100)
        values = {
            name: settings.get(name, getattr(defaults, name))
            for name in ("target", "game_bonus", "box_bonus", "shutout")
        }
        return cls(**values)  # type: ignore[arg-type]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


HOLLYWOOD_DEFAULTS: Mapping[str, object] = {"game_bonus": 100, "box_bonus": 20, "shutout": True}
"""The defaults gin's ``game_bonus``, ``box_bonus`` and ``shutout`` take with
``scoring: hollywood`` (for their ``default_when``)."""

SCORING_OPTION: Option = option(
    "gin",
    "scoring",
    OptionType.CHOICE,
    "standard",
    choices=("standard", "hollywood"),
    label="Scoring",
    explanation=(
        "hollywood: three games scored at once; each win enters the games in turn, each game "
        "closes at the target with its bonuses, the higher sum of the three wins."
    ),
    summary="Hollywood scoring: three games at once",
)

PRESETS = (preset("gin", "hollywood", "Hollywood gin", {"scoring": "hollywood"}),)


@dataclass(frozen=True)
class HandResult:
    """One gin round as gin scored it: its winner (``None`` for a draw) and their points."""

    winner: str | None
    points: int = 0

    @classmethod
    def draw(cls) -> HandResult:
        return cls(None, 0)


def results_of(rounds: Iterable[RoundScore]) -> list[HandResult]:
    """Gin's scored rounds (as the match replay scores them) as Hollywood's results: a
    void round is no round at all, a draw has no winner, any other round its winner's
    score (0 included).

    >>> from referee.scoring import Outcome
    >>> results_of([RoundScore(Outcome.KNOCK, ("Budi",), {"Budi": 12, "Siti": 0}),
    ...             RoundScore(Outcome.VOID, (), {"Budi": 0, "Siti": 0})])
    [HandResult(winner='Budi', points=12)]
    """
    results = []
    for scored in rounds:
        if scored.outcome is Outcome.VOID:
            continue
        if not scored.winners:
            results.append(HandResult.draw())
            continue
        winner = scored.winners[0]
        results.append(HandResult(winner, scored.scores[winner]))
    return results


@dataclass(frozen=True)
class Entry:
    """A round's score entered in a column (``round`` is 1-based among the results)."""

    round: int
    player: str
    points: int


@dataclass(frozen=True)
class Column:
    """One of the three games.

    ``points`` are the entries' sums; once ``closed``, ``winner`` won it and ``totals``
    are the totals after its bonuses (``boxes`` per player, the ``game_bonus`` and the
    ``shutout`` doubling); while open, ``totals`` equal ``points``.
    """

    number: int
    entries: tuple[Entry, ...]
    points: dict[str, int]
    totals: dict[str, int]
    closed: bool = False
    closed_after: int | None = None
    winner: str | None = None
    boxes: dict[str, int] = field(default_factory=dict)
    game_bonus: int = 0
    shutout: bool = False

    def has_entry(self, player: str) -> bool:
        return any(entry.player == player for entry in self.entries)

    @property
    def difference(self) -> int:
        """What the column is settled by: the winner's total minus the other's (0 open)."""
        if self.winner is None:
            return 0
        other = next(name for name in self.totals if name != self.winner)
        return self.totals[self.winner] - self.totals[other]

    def to_json(self) -> dict[str, object]:
        facts: dict[str, object] = {"totals": dict(self.totals), "closed": self.closed}
        if self.closed:
            facts["winner"] = self.winner
        return facts


@dataclass(frozen=True)
class HollywoodSheet:
    """The three columns after the rounds so far, and the match result once they closed."""

    players: tuple[str, str]
    columns: tuple[Column, ...]

    @property
    def over(self) -> bool:
        return all(column.closed for column in self.columns)

    @property
    def totals(self) -> dict[str, int]:
        """Each player's sum of their three column totals."""
        return {name: sum(column.totals[name] for column in self.columns) for name in self.players}

    @property
    def columns_won(self) -> dict[str, int]:
        """Shown beside the totals; decides nothing."""
        return {
            name: sum(1 for column in self.columns if column.winner == name)
            for name in self.players
        }

    @property
    def winners(self) -> tuple[str, ...]:
        """The higher total once the match is over (both on equal totals); none before."""
        if not self.over:
            return ()
        totals = self.totals
        best = max(totals.values())
        return tuple(name for name in self.players if totals[name] == best)

    def to_json(self) -> dict[str, object]:
        return {"columns": [column.to_json() for column in self.columns]}


def _open_column(number: int, players: tuple[str, str]) -> Column:
    zero = dict.fromkeys(players, 0)
    return Column(number, (), zero, dict(zero))


def _enter(column: Column, entry: Entry) -> Column:
    points = dict(column.points)
    points[entry.player] += entry.points
    return Column(column.number, (*column.entries, entry), points, dict(points))


def _close(column: Column, winner: str, after: int, rules: HollywoodOptions) -> Column:
    boxes = {
        name: rules.box_bonus * sum(1 for entry in column.entries if entry.player == name)
        for name in column.points
    }
    totals = {name: column.points[name] + boxes[name] for name in column.points}
    totals[winner] += rules.game_bonus
    other = next(name for name in column.points if name != winner)
    shutout = rules.shutout and not column.has_entry(other)
    if shutout:
        totals[winner] *= 2
    return Column(
        column.number,
        column.entries,
        dict(column.points),
        totals,
        closed=True,
        closed_after=after,
        winner=winner,
        boxes=boxes,
        game_bonus=rules.game_bonus,
        shutout=shutout,
    )


def columns_entered(columns: Sequence[Column], player: str) -> tuple[int, ...]:
    """The numbers of the columns a win of ``player`` enters now: every open column where
    they have an entry, and the lowest open one where they have none."""
    entered = []
    first_new = True
    for column in columns:
        if column.closed:
            continue
        if column.has_entry(player):
            entered.append(column.number)
        elif first_new:
            entered.append(column.number)
            first_new = False
    return tuple(entered)


def score_columns(
    players: Sequence[str], results: Iterable[HandResult], rules: HollywoodOptions
) -> HollywoodSheet:
    """The Hollywood sheet after ``results`` (the match's rounds in order, voids left out).

    Refuses (:class:`RuleError`) a winner who is not one of the two players, a negative
    score, and any round after the third column closed.
    """
    if len(players) != 2:
        raise RuleError(NOT_TWO_PLAYERS, count=len(players))
    pair = (players[0], players[1])
    columns = [_open_column(number, pair) for number in range(1, COLUMNS + 1)]
    for number, result in enumerate(results, start=1):
        if all(column.closed for column in columns):
            raise RuleError(AFTER_THE_END, number=number, round=number)
        if result.winner is None:
            continue
        if result.winner not in pair:
            raise RuleError(UNKNOWN_WINNER, name=result.winner)
        if result.points < 0:
            raise RuleError(NEGATIVE_POINTS, points=result.points)
        entry = Entry(number, result.winner, result.points)
        for entered in columns_entered(columns, result.winner):
            column = _enter(columns[entered - 1], entry)
            if column.points[result.winner] >= rules.target:
                column = _close(column, result.winner, number, rules)
            columns[entered - 1] = column
    return HollywoodSheet(pair, tuple(columns))


__all__ = [
    "COLUMNS",
    "HOLLYWOOD_DEFAULTS",
    "PRESETS",
    "SCORING_OPTION",
    "Column",
    "Entry",
    "HandResult",
    "HollywoodOptions",
    "HollywoodSheet",
    "columns_entered",
    "results_of",
    "score_columns",
]
