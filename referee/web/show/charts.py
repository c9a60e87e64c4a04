"""The geometry of the charts; the SVG itself is a template (``templates/charts/``).

Charts are drawn in the page as inline SVG with classes only (colours, dashes
and text come from ``app.css``, so they follow dark mode and print, and need
no inline style).  Each chart has a text alternative on its page: the score
sheet for a match's running totals, a table for a player's results.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from referee.web.show.history import Period
from referee.web.show.ratings import MODEL, RulesetRatings
from referee.web.show.scoresheet import Sheet

WIDTH, HEIGHT = 320, 180
# The most points a line of the rating chart draws (about one for every pixel and a half).
MOST_POINTS = 200
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 22
SERIES = 6  # series classes in app.css, each with its own colour and dash


def nice_step(span: float, ticks: int = 5) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` steps over ``span``:
    50 for 126, 2 for 7."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return int(10 * power)  # pragma: no cover


def _range(values: Sequence[int]) -> tuple[int, int, int]:
    """The y axis: its low and high ends on whole steps (zero included), and the step."""
    low, high = min(0, *values), max(1, *values)
    step = nice_step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


@dataclass
class Axis:
    low: int
    high: int
    top: float = TOP
    bottom: float = HEIGHT - BOTTOM

    def y(self, value: float) -> float:
        share = (value - self.low) / ((self.high - self.low) or 1)
        return round(self.bottom - share * (self.bottom - self.top), 1)


@dataclass
class Tick:
    at: float
    label: str


@dataclass
class Line:
    name: str
    index: int  # its class in app.css (series-0 ...)
    points: str  # the SVG polyline points
    end: tuple[float, float]
    last: int


@dataclass
class LineChart:
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    target: float | None
    target_value: int | None
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    baseline: float = HEIGHT - BOTTOM
    zero: float = HEIGHT - BOTTOM


def running_totals(sheet: Sheet) -> LineChart | None:
    """Each player's running total round by round, from 0 before the first round.

    Match-end bonuses (manipulation's) are a last step to the final totals.
    """
    if not sheet.rows:
        return None
    steps: list[dict[str, int]] = [dict.fromkeys(sheet.players, 0)]
    for row in sheet.rows:  # a player not seated in a round keeps their line level
        steps.append({**steps[-1], **row.running})
    if sheet.bonuses:
        steps.append(dict(sheet.totals))
    values = [step[name] for step in steps for name in sheet.players]
    target = sheet.target if sheet.target and not sheet.hands else None
    low, high, step = _range([*values, *([target] if target else [])])
    axis = Axis(low, high)
    count = len(steps) - 1
    span = WIDTH - RIGHT - LEFT

    def x(index: int) -> float:
        return round(LEFT + span * index / count, 1)

    lines = []
    for index, name in enumerate(sheet.players):
        points = [(x(i), axis.y(s[name])) for i, s in enumerate(steps)]
        lines.append(
            Line(
                name,
                index % SERIES,
                " ".join(f"{px},{py}" for px, py in points),
                points[-1],
                steps[-1][name],
            )
        )
    every = nice_step(count, 6) if count > 8 else 1
    x_ticks = [Tick(x(i), str(i)) for i in range(0, count + 1, every) if i <= len(sheet.rows)]
    y_ticks = [Tick(axis.y(v), str(v)) for v in range(low, high + 1, step)]
    return LineChart(
        lines,
        x_ticks,
        y_ticks,
        axis.y(target) if target else None,
        target,
        zero=axis.y(0),
    )


def rating_history(found: RulesetRatings) -> LineChart | None:
    """Each player's rating after every finished match of the ruleset (the first point: the
    rating everyone starts with, just before their first match); drawn once for each
    ratings worked out."""
    if found.chart is None:
        found.chart = _rating_history(found)
    return cast(LineChart | None, found.chart)


def rating_series(found: RulesetRatings) -> list[tuple[str, list[tuple[int, float]]]]:
    """Each player's line: (matches rated, their mu then), from 25 just before their first
    match, then a point every so many matches of the ruleset (theirs or not) and the last:
    no more points than the chart's width can show apart, however many matches were rated."""
    count = found.matches
    start = float(MODEL.mu)
    every_point = max(1, math.ceil(count / MOST_POINTS))
    series: list[tuple[str, list[tuple[int, float]]]] = []
    for rating in found.ratings:
        first = rating.at[0]
        shown = list(range(first + every_point - 1, count, every_point))
        if not shown or shown[-1] != count - 1:
            shown.append(count - 1)
        points = [(first, start)] + [(i + 1, rating.mu_after(i)) for i in shown]
        series.append((rating.name, points))
    return series


def _rating_history(found: RulesetRatings) -> LineChart | None:
    count = found.matches
    if not count:
        return None
    series = rating_series(found)
    values = [value for _, points in series for _, value in points]
    step_size = nice_step(max(values) - min(values) or 1)
    low = math.floor(min(values) / step_size) * step_size
    high = math.ceil(max(values) / step_size) * step_size
    axis = Axis(low, high if high > low else low + step_size)
    span = WIDTH - RIGHT - LEFT

    def x(index: int) -> float:
        return round(LEFT + span * index / count, 1)

    lines = []
    for index, (name, points) in enumerate(series):
        drawn = [(x(i), axis.y(value)) for i, value in points]
        lines.append(
            Line(
                name,
                index % SERIES,
                " ".join(f"{px},{py}" for px, py in drawn),
                drawn[-1],
                round(points[-1][1]),
            )
        )
    every = nice_step(count, 6) if count > 8 else 1
    x_ticks = [Tick(x(i), str(i)) for i in range(0, count + 1, every)]
    y_ticks = [Tick(axis.y(v), str(v)) for v in range(low, axis.high + 1, step_size)]
    return LineChart(lines, x_ticks, y_ticks, None, None, zero=axis.bottom)


@dataclass
class Bar:
    label: str
    shown_label: bool
    x: float
    width: float
    played_y: float
    won_y: float
    played: int
    won: int


@dataclass
class BarChart:
    bars: list[Bar]
    y_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    baseline: float = HEIGHT - BOTTOM
    labels: list[Tick] = field(default_factory=list)


def results_over_time(periods: Sequence[Period]) -> BarChart | None:
    """Matches played and won in each period: a bar for the played, its won part filled."""
    if not periods:
        return None
    _low, high, step = _range([period.played for period in periods])
    axis = Axis(0, high)
    slot = (WIDTH - RIGHT - LEFT) / len(periods)
    width = round(min(max(2.0, slot * 0.7), 40.0), 1)
    every = math.ceil(len(periods) / 6)
    bars = []
    for index, period in enumerate(periods):
        left = round(LEFT + slot * index + (slot - width) / 2, 1)
        bars.append(
            Bar(
                period.label,
                index % every == 0,
                left,
                width,
                axis.y(period.played),
                axis.y(period.won),
                period.played,
                period.won,
            )
        )
    y_ticks = [Tick(axis.y(v), str(v)) for v in range(0, high + 1, step)]
    labels = [Tick(round(bar.x + bar.width / 2, 1), bar.label) for bar in bars if bar.shown_label]
    return BarChart(bars, y_ticks, labels=labels)
