"""The manipulation arranger: lay out a table as legal melds, or find the largest play.

:mod:`referee.table` holds the turn rules and the public calls (``arrange``,
``take_back``, ``best_play``); this module is their search.
:func:`solve_turn` lays out the table before a turn plus the cards played
(an :class:`Arrangement`, or ``None`` when none exists); :func:`solve_hint`
finds the most cards of a hand that can join a table (a :class:`Play`).

The method is the dynamic programme over ranks of van Rijn, Takes and Vis
("The complexity of Rummikub problems", 2015), made fast enough in pure Python
by these exact reductions:

* Ranks are processed from the ace (1) up to the king (13), then the ace again
  (14) for runs ending Q-K-A.  The state after a rank is, per suit, how many
  runs are open with 1, 2 or 3-or-more cards.  Cards of a rank go to sets or to
  runs; the ones in runs first extend the runs that are still too short, then
  the runs of 3+ (a longer run is never worse than a new one), then start new
  runs, so the choice per suit and rank is only *how many cards go to sets*
  (and how many jokers join its runs).  Sets need no state: a rank's cards in
  sets can be grouped into sets of 3 or 4 distinct suits exactly when, with
  ``T`` cards (jokers included) and at most ``x`` of any one suit, some
  ``m >= x`` has ``3m <= T <= 4m``.
* Aces are split at rank 1 into low aces, aces in sets, and aces kept for a
  Q-K-A run at rank 14.  Rather than putting that split in the state (up to 81
  combinations), the search carries, as a bit mask, the set of splits that lead
  to the state, and the last rank reports which splits it accepts.  A run that
  would hold both aces (A..K plus A) is 14 cards long and is cut into A-2-3 and
  4..A.
* Each suit has a little automaton per number of jokers still to come: only
  the run states the suit can be in (reachable with the jokers it may have
  used so far), merged when they have the same future and dropped when they
  have none, built rank by rank from the king down.  A class knows the fewest
  jokers its runs still need and how many aces kept high it can end with (an
  ace kept high with no Q-K-A run to end is never tried).
* The search is a depth-first walk with memoisation over whole ranks: a key is
  one int packing the four suits' classes (for the jokers left), the jokers
  left and the rank; the moves of the four suits at a rank are combined in
  nested loops, pruned as soon as the jokers used plus the jokers the suits'
  runs still need exceed the jokers left, and each combination's sets are
  closed, giving the key of the next rank.  It stops at the first arrangement,
  so it is exact (it is the DP, visiting only reachable states); a solvable
  table typically takes a few dozen keys, the hardest tables without an
  arrangement a few hundred to a couple of thousand.

Two safe cuts keep jokers cheap: a joker never sits in a run while a real
copy of its card sits in a set (swap them), and a key is dropped when the
suits' runs need more jokers between them than are left.  Free jokers are
first tried as pure extras (the melds without them, with room left to add
them), which settles most tables that have jokers with the cheaper joker-free
automata.  Because the problem is symmetric under reversing the ranks (A-2-3
<-> Q-K-A), both that first try and the full search run forwards and
backwards with growing budgets and the first to finish answers, which
protects against an unlucky direction: on tables that have no arrangement,
and on tables where the first way of keeping aces for Q-K-A that the search
commits to at rank 1 fails.

The hint is the same search with optional cards: a key also carries how many
optional cards may still be left out, and the search asks for an arrangement
leaving out none of the hand, then at most one, two... (each try keeping the
keys the previous ones learnt); the first that succeeds is a largest play.  A
hand card that is a copy of a card a joker stands for (with no real copy on the
table yet) frees every joker standing for it, so playing such a copy or not (at
most two cards have a joker on them) makes a table of its own, with those
jokers kept as copies or freed.

Jokers (RULES.md, the formal check): a joker that stood for a card before the
turn is free to stand for another when a real copy of its card is on the table
after the turn (it was there already, or it is among the cards played); every
joker standing for that card is then free, since one real card may replace a
joker, move on and replace another within a turn.  Otherwise it keeps its card.
Bound jokers are simply copies of their card for the solver; free jokers are
wildcards that may fill any run position or any set seat, and any free joker
the melds do not need is added where there is room (a run can always take two
more cards once long runs are cut in two; a set of 3 takes one).
"""

from __future__ import annotations

import gc
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypeAlias

from referee.cards import SUITS, Card, Rank, Suit
from referee.errors import RuleError
from referee.integrity import PLACE_MELD, CardPlaces
from referee.melds import BARE_JOKER, Meld, MeldKind
from referee.messages import Reason, define_message
from referee.notation import format_card, format_cards
from referee.rulesets import Ruleset

PLACE_PLAYED = define_message("place.played", "among the cards played")
PLACE_IN_HAND = define_message("place.in_hand", "in the hand")

_HIGH = 14  # the position of an ace above the king


@dataclass(frozen=True)
class Arrangement:
    """Legal melds for a whole table; jokers name the card they stand for."""

    melds: tuple[Meld, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for meld in self.melds for card in meld.cards)

    def to_json(self) -> list[list[str]]:
        return [[format_card(card) for card in meld.cards] for meld in self.melds]

    def __str__(self) -> str:
        return "\n".join(format_cards(meld.cards) for meld in self.melds)


@dataclass(frozen=True)
class Play:
    """The most cards a hand can put on the table, and the table they make."""

    cards: tuple[Card, ...]
    arrangement: Arrangement | None

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [format_card(card) for card in self.cards],
            "table": self.arrangement.to_json() if self.arrangement else None,
        }


def solve_turn(
    before: Sequence[Sequence[Card]], played: Sequence[Card], rules: Ruleset, players: int
) -> Arrangement | None:
    """One legal layout of the table before a turn plus the cards played, or ``None``."""
    problem = _Problem.for_turn(before, played, rules, players)
    with _no_collection():
        return problem.arrange()


def solve_hint(
    hand: Sequence[Card], table: Sequence[Sequence[Card]], rules: Ruleset, players: int
) -> Play:
    """The largest set of cards from ``hand`` that can join ``table``, and a layout."""
    problem = _Problem.for_hint(hand, table, rules, players)
    with _no_collection():
        return problem.best_play()


@contextmanager
def _no_collection() -> Iterator[None]:
    """No garbage collection while the solver runs.

    The solver makes thousands of short-lived lists and tuples (its automata)
    and no reference cycle, so they are all freed by the time it returns; but a
    collection they happened to trigger on the way would scan every object of
    the process (about 15 ms with cvxpy loaded, in the benchmark), which would
    be most of a hard call.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _natural(card: Card) -> Card:
    face = card.stands_for
    assert face is not None
    return face


def _sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: card.sort_key)


def _verify_deck(
    table: Sequence[Sequence[Card]], more: Sequence[Card], place: str, rules: Ruleset, players: int
) -> None:
    """No card more often than the deck holds, on the table (meld by meld) and in ``more``."""
    places = CardPlaces()
    for number, meld in enumerate(table, 1):
        places.add(meld, Reason.of(PLACE_MELD, number=number))
    places.add(more, Reason.of(place))
    places.verify(rules, players)


# ---------------------------------------------------------------------------
# From cards to counts, and back


def _cell(card: Card) -> tuple[int, int]:
    """A natural card's (suit position, rank), from its bit."""
    bit = card.bit
    return bit >> 4, (bit & 15) + 1


def _grid() -> list[list[int]]:
    return [[0] * 14 for _ in SUITS]


class _Problem:
    """A table to solve, as counts per card, with the physical cards kept for the answer.

    ``table[s][r]`` are the cards that must stay on the table as copies of the
    card of suit ``s`` and rank ``r`` (real cards and jokers bound to it);
    ``bound[s][r]`` (hint only) are jokers standing for that card with no real
    copy on the table, which a copy from the hand would free;
    ``hand[s][r]`` are optional cards from the hand.  ``free_jokers`` are jokers
    that may stand for anything and must be placed; ``hand_jokers`` optional ones.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.table = _grid()
        self.bound = _grid()
        self.hand = _grid()
        self.cards_at: dict[tuple[int, int], list[Card]] = {}
        self.hand_at: dict[tuple[int, int], list[Card]] = {}
        self.free_jokers = 0
        self.hand_jokers = 0

    @classmethod
    def for_turn(
        cls,
        before: Sequence[Sequence[Card]],
        played: Sequence[Card],
        rules: Ruleset,
        players: int,
    ) -> _Problem:
        problem = cls(rules)
        table_cards = [card for meld in before for card in meld]
        if any(card.is_bare_joker for card in table_cards):
            raise RuleError(BARE_JOKER)
        _verify_deck(before, [card.in_hand for card in played], PLACE_PLAYED, rules, players)
        jokers_for = Counter(_natural(card) for card in table_cards if card.is_joker)
        real = Counter(card for card in [*table_cards, *played] if not card.is_joker)
        jokers = sum(jokers_for.values()) + sum(1 for card in played if card.is_joker)
        bound = 0
        for card in real.elements():
            problem._add(card, card)
        for card, count in jokers_for.items():
            if real[card]:  # a real copy on the table after the turn: every such joker is free
                continue
            for _ in range(count):
                problem._add(card, Card.joker(card))
            bound += count
        problem.free_jokers = jokers - bound
        return problem

    @classmethod
    def for_hint(
        cls, hand: Sequence[Card], table: Sequence[Sequence[Card]], rules: Ruleset, players: int
    ) -> _Problem:
        problem = cls(rules)
        table_cards = [card for meld in table for card in meld]
        if any(card.is_bare_joker for card in table_cards):
            raise RuleError(BARE_JOKER)
        _verify_deck(table, [card.in_hand for card in hand], PLACE_IN_HAND, rules, players)
        real = Counter(card for card in table_cards if not card.is_joker)
        for card in table_cards:
            if not card.is_joker:
                problem._add(card, card)
            elif real[_natural(card)]:  # its real card is on the table: free already
                problem.free_jokers += 1
            else:
                s, r = _cell(_natural(card))
                problem.bound[s][r] += 1
        for card in hand:
            if card.is_joker:
                problem.hand_jokers += 1
            else:
                s, r = _cell(card)
                problem.hand[s][r] += 1
                problem.hand_at.setdefault((s, r), []).append(card)
        return problem

    def _add(self, natural: Card, card: Card) -> None:
        s, r = _cell(natural)
        self.table[s][r] += 1
        self.cards_at.setdefault((s, r), []).append(card)

    # -- solving ------------------------------------------------------------

    def arrange(self) -> Arrangement | None:
        if not any(any(row) for row in self.table) and self.free_jokers == 0:
            return Arrangement(())
        path = _decide_both_ways(self.table, self.free_jokers)
        if path is None:
            return None
        return self._build(path)

    def best_play(self) -> Play:
        """The most hand cards (and hand jokers) that can join the table, and a layout.

        A hand card that is a copy of a card jokers stand for (with no real
        copy on the table) frees every one of them; the solver's engine knows
        only cards that must be placed, optional cards and wildcards, so playing
        such a copy or not (there are two jokers at most) makes a table of its
        own: with one copy placed and those jokers free (the other copies stay
        optional), or with no copy and the jokers bound (kept as copies).  Then
        the fewest cards left out: none, one, two... until some table can be
        arranged.
        """
        cells = [(s, r) for s in range(4) for r in range(1, 14) if self.bound[s][r]]
        choices = [range(min(self.hand[s][r], 1) + 1) for s, r in cells]
        options: list[tuple[int, dict[tuple[int, int], int], _Race]] = []
        for played in itertools.product(*choices):
            table = [
                [t + b for t, b in zip(row, bound, strict=True)]
                for row, bound in zip(self.table, self.bound, strict=True)
            ]
            hand = [list(row) for row in self.hand]
            free, out = self.free_jokers, 0
            used = {}
            for (s, r), y in zip(cells, played, strict=True):
                if y:  # one copy placed from the hand: the jokers standing for it are free
                    table[s][r] = self.table[s][r] + 1
                    free += self.bound[s][r]
                    hand[s][r] -= 1
                    used[(s, r)] = 1
                else:  # no copy played: the jokers keep the card, the copies stay in hand
                    out += hand[s][r]
                    hand[s][r] = 0
            options.append((out, used, _Race(table, hand, free, self.hand_jokers)))
        options.sort(key=lambda option: option[0])
        optional = sum(sum(row) for row in self.hand) + self.hand_jokers
        for drops in range(optional + 1):
            for out, used, race in options:
                if out > drops:
                    break
                path = race.solve(drops - out)
                if path is None:
                    continue
                for cell, forced in used.items():
                    path.hand_used[cell] = path.hand_used.get(cell, 0) + forced
                path.score += sum(used.values())
                if path.score == 0:
                    return Play((), None)
                arrangement = self._build(path)
                cards: list[Card] = []
                for (s, r), count in path.hand_used.items():
                    cards.extend(self.hand_at[(s, r)][:count])
                cards.extend([Card.joker()] * path.hand_jokers)
                return Play(tuple(_sorted(cards)), arrangement)
        return Play((), None)

    # -- from a path of choices to melds ---------------------------------------

    def _build(self, path: _Path) -> Arrangement:
        set_cards: dict[int, list[list[Card]]] = {r: [] for r in range(1, 14)}
        runs: list[list[tuple[int, Card]]] = []
        for s, suit in enumerate(SUITS):
            columns: dict[int, list[Card]] = {p: [] for p in range(1, _HIGH + 1)}
            for r in range(1, 14):
                cards = self._cards_for(s, r, path.hand_used.get((s, r), 0))
                to_sets = path.to_sets[s][r]
                set_cards[r].append(cards[:to_sets])
                rest = cards[to_sets:]
                high = path.high_aces[s] if r == 1 else 0
                if high:
                    columns[_HIGH].extend(rest[len(rest) - high :])
                    rest = rest[: len(rest) - high]
                columns[r].extend(rest)
            for position in range(1, _HIGH + 1):
                if path.run_jokers[s][position]:
                    named = Card.joker(Card(_rank_at(position), suit))
                    columns[position].extend([named] * path.run_jokers[s][position])
            runs.extend(part for run in _runs_of(columns) for part in _cut(run))
        sets: list[list[Card]] = []
        for r in range(1, 14):
            sets.extend(_sets_of(set_cards[r], path.set_jokers[r], Rank(r)))
        _place_spare_jokers(runs, sets, path.spare_jokers)
        melds = [Meld(MeldKind.RUN, tuple(card for _, card in run)) for run in runs]
        melds.extend(Meld(MeldKind.SET, tuple(sorted(meld, key=_suit_of))) for meld in sets)
        return Arrangement(tuple(melds))

    def _cards_for(self, s: int, r: int, used: int) -> list[Card]:
        """The cards that play as suit ``s``, rank ``r``: table, hand cards used, and the
        jokers bound to it (unless a copy from the hand freed them)."""
        cards = list(self.cards_at.get((s, r), ()))
        if used:
            cards.extend(self.hand_at[(s, r)][:used])
        elif self.bound[s][r]:
            cards.extend([Card.joker(Card(Rank(r), SUITS[s]))] * self.bound[s][r])
        return cards


def _rank_at(position: int) -> Rank:
    return Rank.ACE if position == _HIGH else Rank(position)


def _runs_of(columns: dict[int, list[Card]]) -> list[list[tuple[int, Card]]]:
    """Cut one suit's run cards, position by position, into runs (the solver's own rule)."""
    open_runs: list[list[tuple[int, Card]]] = []
    done: list[list[tuple[int, Card]]] = []
    for position in range(1, _HIGH + 1):
        cards = columns.get(position, [])
        open_runs.sort(key=len)  # the short ones must be extended first
        extended: list[list[tuple[int, Card]]] = []
        for card in cards:
            if open_runs:
                run = open_runs.pop(0)
            else:
                run = []
            run.append((position, card))
            extended.append(run)
        done.extend(open_runs)
        open_runs = extended
    done.extend(open_runs)
    for run in done:
        assert len(run) >= 3, "the solver closed a run too short"
    return done


def _cut(run: list[tuple[int, Card]]) -> list[list[tuple[int, Card]]]:
    """A run holding both aces (A..K and A) is cut into A-2-3 and 4..A."""
    if run[0][0] == 1 and run[-1][0] == _HIGH:
        return [run[:3], run[3:]]
    return [run]


def _sets_of(by_suit: list[list[Card]], jokers: int, rank: Rank) -> list[list[Card]]:
    total = sum(len(cards) for cards in by_suit) + jokers
    if total == 0:
        return []
    count = total // 3
    sets: list[list[Card]] = [[] for _ in range(count)]
    for cards in sorted(by_suit, key=len, reverse=True):
        targets = sorted(range(count), key=lambda i: len(sets[i]))[: len(cards)]
        assert len(targets) == len(cards)
        for index, card in zip(targets, cards, strict=True):
            sets[index].append(card)
    for _ in range(jokers):
        target = min(sets, key=len)
        target.append(Card.joker(Card(rank, _missing_suit(target))))
    return sets


def _missing_suit(meld: list[Card]) -> Suit:
    taken = {_natural(card).suit for card in meld}
    return next(suit for suit in SUITS if suit not in taken)


def _place_spare_jokers(
    runs: list[list[tuple[int, Card]]], sets: list[list[Card]], count: int
) -> None:
    """Add jokers the melds do not need where there is room (the solver made sure there is)."""
    for _ in range(count):
        if _extend_a_run(runs) or _fill_a_set(sets):
            continue
        long_run = next(run for run in runs if len(run) >= 6)
        runs.remove(long_run)
        runs.extend([long_run[:3], long_run[3:]])
        placed = _extend_a_run(runs)
        assert placed


def _extend_a_run(runs: list[list[tuple[int, Card]]]) -> bool:
    for run in runs:
        low, high = run[0][0], run[-1][0]
        suit = _natural(run[0][1]).suit
        assert suit is not None
        if high < _HIGH and not (low == 1 and high + 1 == _HIGH):
            run.append((high + 1, Card.joker(Card(_rank_at(high + 1), suit))))
            return True
        if low > 1 and not (high == _HIGH and low - 1 == 1):
            run.insert(0, (low - 1, Card.joker(Card(_rank_at(low - 1), suit))))
            return True
    return False


def _fill_a_set(sets: list[list[Card]]) -> bool:
    for meld in sets:
        if len(meld) == 3:
            rank = _natural(meld[0]).rank
            assert rank is not None
            meld.append(Card.joker(Card(rank, _missing_suit(meld))))
            return True
    return False


def _suit_of(card: Card) -> int:
    """A set's order: by suit (a card of the set as it plays, joker or not)."""
    return _natural(card).bit >> 4


# ---------------------------------------------------------------------------
# The engine: a DP over ranks on minimised per-suit automata


class _OutOfBudget(Exception):
    """The search used up the states it was allowed; it can resume later."""


@dataclass
class _Path:
    """The choices of one arrangement, rank by rank."""

    to_sets: list[list[int]]
    run_jokers: list[list[int]]  # [suit][position 1..14]
    set_jokers: list[int]  # [rank]
    high_aces: list[int]
    hand_used: dict[tuple[int, int], int]
    hand_jokers: int = 0
    spare_jokers: int = 0
    score: int = 0

    @classmethod
    def empty(cls) -> _Path:
        return cls(
            to_sets=_grid(),
            run_jokers=[[0] * (_HIGH + 1) for _ in SUITS],
            set_jokers=[0] * 14,
            high_aces=[0] * 4,
            hand_used={},
        )

    def reversed(self) -> _Path:
        """The same choices on the table with its ranks reversed (A-2-3 <-> Q-K-A)."""
        path = _Path.empty()
        for s in range(4):
            path.to_sets[s][1] = self.to_sets[s][1]
            for r in range(2, 14):
                path.to_sets[s][r] = self.to_sets[s][15 - r]
            for position in range(1, _HIGH + 1):
                path.run_jokers[s][position] = self.run_jokers[s][15 - position]
        path.set_jokers[1] = self.set_jokers[1]
        for r in range(2, 14):
            path.set_jokers[r] = self.set_jokers[15 - r]
        path.high_aces = list(self.high_aces)  # fixed up by the caller, who knows the counts
        path.hand_used = {(s, r if r == 1 else 15 - r): n for (s, r), n in self.hand_used.items()}
        path.hand_jokers, path.spare_jokers, path.score = (
            self.hand_jokers,
            self.spare_jokers,
            self.score,
        )
        return path


def _set_spare(total: int, most: int) -> int:
    """Seats left in the sets of one rank, or -1 when ``total`` cards cannot form sets."""
    if total == 0:
        return 0
    sets = total // 3
    if sets < max(most, 1) or total > 4 * sets:
        return -1
    return 4 * sets - total


def _reverse_grid(grid: list[list[int]]) -> list[list[int]]:
    return [[row[0], row[1], *(row[15 - r] for r in range(2, 14))] for row in grid]


def _decide_both_ways(table: list[list[int]], free: int) -> _Path | None:
    """Decide a table (``free`` wildcards must be placed) and find one arrangement."""
    return _Race(table, _grid(), free, 0).solve()


class _Race:
    """One table (cards that must be placed, optional ``hand`` cards, jokers) to solve.

    First, cheaply, whether the melds work without the jokers, with room left
    to add them; then the full search forwards and backwards (A-2-3 <-> Q-K-A,
    the problem is symmetric) with growing budgets, the first to finish
    answering.  The engines are made when first needed and keep what they
    learnt from one call of :meth:`solve` to the next.
    """

    def __init__(
        self, table: list[list[int]], hand: list[list[int]], free: int, hand_jokers: int
    ) -> None:
        self.table, self.hand, self.free, self.hand_jokers = table, hand, free, hand_jokers
        self.first: list[_Engine] = []  # jokers as extras: forwards, backwards
        self.engines: list[_Engine] = []  # the full search: forwards, backwards

    def _engine(self, backwards: bool, jokers: bool) -> _Engine:
        table, hand = self.table, self.hand
        if backwards:
            table, hand = _reverse_grid(table), _reverse_grid(hand)
        if jokers:
            return _Engine(table, hand, self.free, self.hand_jokers)
        return _Engine(table, hand, 0, 0, spare=self.free + self.hand_jokers)

    def solve(self, drops: int = 0) -> _Path | None:
        """An arrangement leaving out at most ``drops`` optional cards, or None."""
        if self.free + self.hand_jokers:  # every joker as an extra, no joker in the automata
            found = self._race(self.first, False, drops, _FIRST_TRY)
            if found is not None:
                found.hand_jokers = self.hand_jokers
                found.score += self.hand_jokers
                return found
        return self._race(self.engines, True, drops, None)

    def _race(
        self, engines: list[_Engine], jokers: bool, drops: int, limit: int | None
    ) -> _Path | None:
        """Forwards and backwards with doubling budgets (up to ``limit`` each, when given)."""
        budget = _BUDGET
        spent = 0
        while limit is None or spent < limit:
            if limit is not None:
                budget = min(budget, limit - spent)
            for index in (0, 1):
                if index == len(engines):
                    engines.append(self._engine(index == 1, jokers))
                try:
                    found = engines[index].decide(budget, drops)
                except _OutOfBudget:
                    continue
                if found is None and limit is not None:
                    return None  # no layout with the jokers as extras: the full search decides
                if found is None or index == 0:
                    return found
                path = found.reversed()
                for s in range(4):  # backwards, the aces kept high were the low ones
                    aces = self.table[s][1] + found.hand_used.get((s, 1), 0)
                    path.high_aces[s] = aces - found.to_sets[s][1] - found.high_aces[s]
                return path
            spent += budget
            budget *= 2
        return None


_FIRST_TRY = 150  # rank keys each way for the first try, jokers as extras
_BUDGET = 60  # rank keys for each direction before the other one has a go (doubling)
# per cards to sets at a rank and most of one suit among them: (jokers added, seats left) for
# each number of jokers that lets them form sets, fewest first
_SETS = [
    [
        tuple(
            (v, _set_spare(total + v, most)) for v in range(8) if _set_spare(total + v, most) >= 0
        )
        for most in range(8)
    ]
    for total in range(64)
]
# (hand cards used, aces kept high, cards to sets, jokers, cards to runs, hand cards left out)
_Template: TypeAlias = tuple[int, int, int, int, int, int]
# (target class, cards to sets, jokers, aces kept high, runs get a card, hand cards left out,
# jokers the target still needs, the move)
_Fast: TypeAlias = tuple[int, int, int, int, int, int, int, _Template]


@cache
def _run_states(maxn: int) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]]:
    """The run states of one suit (runs open with 1, 2, 3+ cards) and, per state and number
    of cards going to runs, the next state (-1: a short run would be closed)."""
    states = tuple(
        (a, b, c)
        for a in range(maxn + 1)
        for b in range(maxn + 1 - a)
        for c in range(maxn + 1 - a - b)
    )
    index = {state: i for i, state in enumerate(states)}
    steps = []
    for ones, twos, longs in states:
        row = []
        for k in range(maxn + 1):
            extra = k - ones - twos
            extend = min(longs, extra)
            result = (extra - extend, ones, twos + extend)
            row.append(index[result] if extra >= 0 and sum(result) <= maxn else -1)
        steps.append(tuple(row))
    return states, tuple(steps)


@lru_cache(maxsize=4096)
def _cell_moves(
    table: int, hand: int, jokers: int, limit: int, aces: bool, maxn: int
) -> tuple[_Template, ...]:
    """The moves of one suit at one rank, for any run state."""
    moves = []
    for y in range(hand + 1):
        c = table + y
        for h in range(c + 1 if aces else 1):
            for w in range(jokers + 1):
                # a joker in a run while a real copy sits in a set: swap them instead
                for x in range(min(c - h, limit) + 1 if w == 0 else 1):
                    k = c - h - x + w
                    if k <= maxn:
                        moves.append((y, h, x, w, k, hand - y))
    return tuple(moves)


@dataclass
class _Automaton:
    """One suit's minimised run automaton when ``level`` jokers are still to come.

    Per position (1..13, and 14 for the aces above the king): ``cls[p][state]``
    is the class of a raw run state entering ``p`` (-1: no future; the list
    ends with a -1 for the missing state -1), ``rep[p][class]`` a state of the
    class, ``moves[p][class]`` its moves, ``need[p][class]`` the fewest jokers
    its runs still need, ``highs[p][class]`` the numbers of aces kept high it
    can end with (bit h), and ``accepts[class]`` the (aces high, jokers high)
    endings a class entering 14 takes.
    """

    cls: list[list[int]]
    rep: list[list[int]]
    moves: list[list[list[_Fast]]]
    need: list[list[int]]
    highs: list[list[int]]
    accepts: list[tuple[tuple[int, int], ...]]


class _Engine:
    """The rank DP for one table.

    Inputs are 4 x 14 grids indexed ``[suit][rank]`` (rank 1..13): ``table``
    cards that must be placed and ``hand`` optional ones; ``free`` wildcards
    that must be placed and ``hand_jokers`` optional ones; ``spare`` jokers to
    add at the end where there is room.  :meth:`decide` finds an arrangement
    that leaves out at most ``drops`` optional cards (hand cards and hand
    jokers).

    Each suit has one minimised automaton per number of jokers still to come
    (``level``); its classes are the states of the search.  The search is a
    depth-first walk over the ranks with memoisation.  A key is one int
    packing ``(class per suit, jokers left, optional cards still allowed out,
    room, rank)``, the classes being those for the jokers left; at each rank
    the moves of the four suits are combined in nested loops and the sets of
    the rank closed, each combination giving the key of the next rank.  Memo
    values are bit masks over the ways of keeping aces for Q-K-A runs (bit
    ``sum(high[s] * stride[s])``), shifted left once, with bit 0 set when the
    key is fully explored.
    """

    def __init__(
        self,
        table: list[list[int]],
        hand: list[list[int]],
        free: int,
        hand_jokers: int,
        *,
        spare: int = 0,
    ) -> None:
        self.t, self.u = table, hand
        self.spare = spare
        self.free, self.hand_jokers = free, hand_jokers
        self.optional = sum(sum(row) for row in hand) + hand_jokers
        self.top = free + hand_jokers  # jokers at the start
        cells = [[table[s][r] + hand[s][r] for r in range(14)] for s in range(4)]
        self.maxn = max(1, max(max(row[1:]) for row in cells) + self.top)
        self.states, self.steps = _run_states(self.maxn)
        self.aces = [cells[s][1] for s in range(4)]
        self.stride = [1, 0, 0, 0]
        for s in range(1, 4):
            self.stride[s] = self.stride[s - 1] * (self.aces[s - 1] + 1)
        self.all_splits = (1 << (self.stride[3] * (self.aces[3] + 1))) - 1
        self.slices = [[0] * (self.aces[s] + 1) for s in range(4)]
        for split in range(self.all_splits.bit_length()):
            for s in range(4):
                self.slices[s][split // self.stride[s] % (self.aces[s] + 1)] |= 1 << split
        self.others = [
            [sum(cells[o][r] for o in range(4) if o != s) for r in range(14)] for s in range(4)
        ]
        # A run holds at most ``top`` jokers, so a joker is only ever that close to a card.
        self.near = [[False] * (_HIGH + 1) for _ in range(4)]
        for s in range(4):
            present = [p for p in range(1, _HIGH + 1) if cells[s][1 if p == _HIGH else p]]
            for p in range(1, _HIGH + 1):
                self.near[s][p] = any(abs(p - q) <= self.top for q in present)
        self.reach = [self._reachable(s) for s in range(4)]
        self.automata: dict[int, list[_Automaton]] = {}
        self.remaps: dict[tuple[int, int], list[list[list[int]]]] = {}
        # the key's fields, from the lowest bit
        self.cbits = len(self.states).bit_length()  # a class per run state at most
        self.cmask = (1 << self.cbits) - 1
        self.shift = [s * self.cbits for s in range(4)]
        self.js = 4 * self.cbits  # jokers left
        self.jmask = (1 << max(1, self.top.bit_length())) - 1
        self.ds = self.js + self.jmask.bit_length()  # optional cards still allowed out
        self.dmask = (1 << max(1, self.optional.bit_length())) - 1
        self.rs = self.ds + self.dmask.bit_length()  # room for more jokers: 0, 1, 2+
        self.ss = self.rs + 2  # rank
        self.memo: dict[int, int] = {}
        self.visits = 0
        self.budget = 0

    # -- the automata ---------------------------------------------------------

    def _template(self, s: int, p: int, level: int) -> tuple[_Template, ...]:
        """The moves of suit ``s`` at rank ``p`` (1..13) with ``level`` jokers, for any state."""
        return _cell_moves(
            self.t[s][p],
            self.u[s][p],
            level if self.near[s][p] else 0,
            (self.others[s][p] + level) // 2,  # each set seat needs two other cards
            p == 1,
            self.maxn,
        )

    def _reachable(self, s: int) -> list[list[tuple[int, int]]]:
        """Per rank (1..14), the run states this suit can enter it in, as (fewest jokers the
        suit needs to get there, state), fewest first."""
        never = self.top + 1
        n = len(self.states)
        reach: list[list[tuple[int, int]]] = [[], [(0, 0)]]
        for p in range(1, _HIGH):
            steps = {(move[4], move[3]) for move in self._template(s, p, self.top)}
            ahead = [never] * n
            for used, state in reach[p]:
                row = self.steps[state]
                for k, w in steps:
                    target = row[k]
                    if target >= 0 and used + w < ahead[target]:
                        ahead[target] = used + w
            reach.append(sorted((used, state) for state, used in enumerate(ahead) if used < never))
        return reach

    def _level(self, level: int) -> list[_Automaton]:
        known = self.automata.get(level)
        if known is None:
            known = [self._automaton(s, level) for s in range(4)]
            self.automata[level] = known
        return known

    def _automaton(self, s: int, level: int) -> _Automaton:
        """Suit ``s`` with ``level`` jokers to come: the states it can be in, merged by future.

        The suit has used at most ``top - level`` jokers; a move that uses
        ``w`` jokers leads to a class of the automaton for ``level - w``, and a
        move or a class whose runs need more jokers than are left is dropped.
        """
        n = len(self.states)
        used = self.top - level
        reach = self.reach[s]
        lower = [self._level(level - w)[s] for w in range(1, level + 1)]
        cls = [[-1] * (n + 1) for _ in range(_HIGH + 1)]
        rep: list[list[int]] = [[] for _ in range(_HIGH + 1)]
        moves: list[list[list[_Fast]]] = [[] for _ in range(_HIGH + 1)]
        need: list[list[int]] = [[] for _ in range(_HIGH + 1)]
        highs: list[list[int]] = [[] for _ in range(_HIGH + 1)]
        accepts: list[tuple[tuple[int, int], ...]] = []
        endings: dict[tuple[tuple[int, int], ...], int] = {}
        jokers = level if self.near[s][_HIGH] else 0
        for fewest, state in reach[_HIGH]:
            if fewest > used:
                break
            ones, twos, longs = self.states[state]
            if ones:
                continue
            accepted = tuple(
                (h, w)
                for w in range(jokers + 1)
                for h in range(self.aces[s] + 1)
                if twos <= h + w <= twos + longs
            )
            if not accepted:
                continue
            c = endings.get(accepted)
            if c is None:
                c = endings[accepted] = len(accepts)
                accepts.append(accepted)
                rep[_HIGH].append(state)
                need[_HIGH].append(min(w for _, w in accepted))
                highs[_HIGH].append(sum({1 << h for h, _ in accepted}))
            cls[_HIGH][state] = c
        steps = self.steps
        for p in range(_HIGH - 1, 0, -1):
            looks = []
            for move in self._template(s, p, level):
                after = lower[move[3] - 1] if move[3] else None
                if after is None:
                    looks.append((cls[p + 1], move[4], need[p + 1], highs[p + 1], move))
                else:
                    looks.append(
                        (after.cls[p + 1], move[4], after.need[p + 1], after.highs[p + 1], move)
                    )
            pairs = [(following, k) for following, k, _, _, _ in looks]
            signatures: dict[tuple[int, ...], int] = {}
            row_cls = cls[p]
            for fewest, state in reach[p]:
                if fewest > used:
                    break
                row = steps[state]
                signature = tuple([following[row[k]] for following, k in pairs])
                c = signatures.get(signature)
                if c is None:
                    usable: list[_Fast] = []
                    least = level + 1
                    possible = 0
                    for (_, _, ahead, ends, move), target in zip(looks, signature, strict=True):
                        if target < 0:
                            continue
                        y, h, x, w, k, left_out = move
                        further = ahead[target]
                        if w + further > level or (p == 1 and not ends[target] >> h & 1):
                            continue  # too few jokers, or no place for the aces kept high
                        usable.append((target, x, w, h, 1 if k else 0, left_out, further, move))
                        if w + further < least:
                            least = w + further
                        possible |= ends[target]
                    if not usable:
                        signatures[signature] = -1
                        continue
                    c = signatures[signature] = len(moves[p])
                    moves[p].append(usable)
                    rep[p].append(state)
                    need[p].append(least)
                    highs[p].append(possible)
                row_cls[state] = c
        return _Automaton(cls, rep, moves, need, highs, accepts)

    def _remap_table(self, old: int, new: int) -> list[list[list[int]]]:
        """Per suit and rank, a class for ``old`` jokers left as one for ``new`` (-1: no future)."""
        table = self.remaps.get((old, new))
        if table is None:
            before, after = self._level(old), self._level(new)
            table = [
                [[after[s].cls[p][state] for state in before[s].rep[p]] for p in range(_HIGH + 1)]
                for s in range(4)
            ]
            self.remaps[(old, new)] = table
        return table

    # -- the decision search -----------------------------------------------------

    def _start(self, drops: int) -> int:
        """The first key, or -1 when a suit has no future at all."""
        key = 0
        need = 0
        for s, automaton in enumerate(self._level(self.top)):
            c = automaton.cls[1][0]
            if c < 0:
                return -1
            key |= c << self.shift[s]
            need += automaton.need[1][c]
        if need > self.top:
            return -1
        room = 2 if self.top + self.spare == 0 else 0
        return (
            key
            | (self.top << self.js)
            | (min(drops, self.optional) << self.ds)
            | (room << self.rs)
            | (1 << self.ss)
        )

    def decide(self, budget: int, drops: int = 0) -> _Path | None:
        """One arrangement leaving out at most ``drops`` optional cards, or None.

        Raises _OutOfBudget after ``budget`` new keys; called again, it resumes.
        """
        self.budget = self.visits + budget
        start = self._start(drops)
        if start < 0 or not self._decide(start, self.all_splits):
            return None
        return self._path(start, self.all_splits)

    def _decide(self, key: int, want: int) -> bool:
        """Whether an arrangement follows from ``key`` for one of the ace splits in ``want``.

        The children are those of :meth:`_children`, in the same order; the
        loops are repeated here because this is where the time goes.
        """
        memo = self.memo
        entry = memo.get(key)
        if entry is not None:
            if entry >> 1 & want:
                return True
            if entry & 1:
                return False
            found = entry >> 1
        else:
            self.visits += 1
            if self.visits > self.budget:
                raise _OutOfBudget
            found = 0
        r = key >> self.ss
        if r == _HIGH:
            found = self._final(key)
            memo[key] = found << 1 | 1
            return bool(found & want)
        cmask, shift, js, rs = self.cmask, self.shift, self.js, self.rs
        sh1, sh2, sh3 = shift[1], shift[2], shift[3]
        j = (key >> js) & self.jmask
        left_out = (key >> self.ds) & self.dmask
        room = (key >> rs) & 3
        c0 = key & cmask
        c1 = (key >> sh1) & cmask
        c2 = (key >> sh2) & cmask
        c3 = (key >> sh3) & cmask
        a0, a1, a2, a3 = self.automata.get(j) or self._level(j)
        n1, n2, n3 = a1.need[r][c1], a2.need[r][c2], a3.need[r][c3]
        slices = self.slices if r == 1 else None
        part = self.all_splits
        tail = (r + 1) << self.ss
        decide = self._decide
        for m0 in a0.moves[r][c0]:
            t0, x0, w0, h0, k0, o0, e0, _ = m0
            # jokers used and jokers the targets still need, cards to sets, most of a suit
            # in them, optional cards left out, runs getting a card: so far
            u0 = w0 + e0
            if u0 + n1 + n2 + n3 > j or o0 > left_out:
                continue
            for m1 in a1.moves[r][c1]:
                t1, x1, w1, h1, k1, o1, e1, _ = m1
                u1 = u0 + w1 + e1
                o01 = o0 + o1
                if u1 + n2 + n3 > j or o01 > left_out:
                    continue
                x01 = x0 + x1
                y01 = x0 if x0 > x1 else x1
                k01 = k0 or k1
                for m2 in a2.moves[r][c2]:
                    t2, x2, w2, h2, k2, o2, e2, _ = m2
                    u2 = u1 + w2 + e2
                    o012 = o01 + o2
                    if u2 + n3 > j or o012 > left_out:
                        continue
                    x012 = x01 + x2
                    y012 = y01 if y01 > x2 else x2
                    k012 = k01 or k2
                    for m3 in a3.moves[r][c3]:
                        t3, x3, w3, h3, k3, o3, e3, _ = m3
                        out = o012 + o3
                        if u2 + w3 + e3 > j or out > left_out:
                            continue
                        nj = j - w0 - w1 - w2 - w3
                        spent = e0 + e1 + e2 + e3  # the jokers the suits' runs still need
                        total = x012 + x3
                        most = y012 if y012 > x3 else x3
                        if slices is not None:
                            part = slices[0][h0] & slices[1][h1] & slices[2][h2] & slices[3][h3]
                        rest = tail | ((left_out - out) << self.ds)
                        runs = k012 or k3
                        for v, spare in _SETS[total][most]:
                            after = nj - v
                            if after < spent:
                                break
                            if after == j:
                                classes = t0 | t1 << sh1 | t2 << sh2 | t3 << sh3
                            else:
                                classes = self._classes(
                                    t0, t1, t2, t3, j - w0, j - w1, j - w2, j - w3, after, r
                                )
                                if classes < 0:
                                    continue
                            seats = 2 if runs else min(2, room + spare)
                            child = classes | (after << js) | (seats << rs) | rest
                            entry = memo.get(child)
                            if entry is not None and entry & 1:  # known: no need to go there
                                found |= entry >> 1 & part
                                if entry >> 1 & want & part:
                                    memo[key] = found << 1
                                    return True
                                continue
                            success = decide(child, want & part)
                            found |= memo[child] >> 1 & part
                            if success:
                                memo[key] = found << 1
                                return True
        memo[key] = found << 1 | 1
        return False

    def _children(self, key: int) -> Iterator[tuple[int, int, tuple[Any, ...]]]:
        """(child key, ace splits, (the four suits' moves, set jokers)) for one rank, in order.

        The moves of the four suits at the key's rank are combined in nested
        loops, pruned as soon as the jokers used plus the jokers the suits'
        runs still need exceed the jokers left, or too many optional cards are
        left out; each combination's sets are closed with ``v`` jokers, and the
        child is the key of the next rank.
        """
        r = key >> self.ss
        cmask, shift = self.cmask, self.shift
        j = (key >> self.js) & self.jmask
        left_out = (key >> self.ds) & self.dmask
        room = (key >> self.rs) & 3
        c0 = key & cmask
        c1 = (key >> shift[1]) & cmask
        c2 = (key >> shift[2]) & cmask
        c3 = (key >> shift[3]) & cmask
        a0, a1, a2, a3 = self.automata.get(j) or self._level(j)
        n1, n2, n3 = a1.need[r][c1], a2.need[r][c2], a3.need[r][c3]
        slices = self.slices if r == 1 else None
        every = self.all_splits
        tail = (r + 1) << self.ss
        for m0 in a0.moves[r][c0]:
            t0, x0, w0, h0, k0, o0, e0, _ = m0
            if w0 + e0 + n1 + n2 + n3 > j or o0 > left_out:
                continue
            for m1 in a1.moves[r][c1]:
                t1, x1, w1, h1, k1, o1, e1, _ = m1
                if w0 + e0 + w1 + e1 + n2 + n3 > j or o0 + o1 > left_out:
                    continue
                for m2 in a2.moves[r][c2]:
                    t2, x2, w2, h2, k2, o2, e2, _ = m2
                    if w0 + e0 + w1 + e1 + w2 + e2 + n3 > j or o0 + o1 + o2 > left_out:
                        continue
                    for m3 in a3.moves[r][c3]:
                        t3, x3, w3, h3, k3, o3, e3, _ = m3
                        nj = j - w0 - w1 - w2 - w3
                        out = o0 + o1 + o2 + o3
                        spent = e0 + e1 + e2 + e3  # the jokers the suits' runs still need
                        if nj < spent or out > left_out:
                            continue
                        total = x0 + x1 + x2 + x3
                        most = max(x0, x1, x2, x3)
                        runs = k0 or k1 or k2 or k3
                        part = (
                            slices[0][h0] & slices[1][h1] & slices[2][h2] & slices[3][h3]
                            if slices is not None
                            else every
                        )
                        rest = tail | ((left_out - out) << self.ds)
                        for v, spare in _SETS[total][most]:
                            after = nj - v
                            if after < spent:
                                break
                            if after == j:  # no joker used: the classes stand
                                classes = t0 | t1 << shift[1] | t2 << shift[2] | t3 << shift[3]
                            else:
                                classes = self._classes(
                                    t0, t1, t2, t3, j - w0, j - w1, j - w2, j - w3, after, r
                                )
                                if classes < 0:
                                    continue
                            seats = 2 if runs else min(2, room + spare)
                            yield (
                                classes | (after << self.js) | (seats << self.rs) | rest,
                                part,
                                (m0, m1, m2, m3, v),
                            )

    def _classes(
        self,
        t0: int,
        t1: int,
        t2: int,
        t3: int,
        l0: int,
        l1: int,
        l2: int,
        l3: int,
        new: int,
        r: int,
    ) -> int:
        """The four target classes ``t0..t3`` (for ``l0..l3`` jokers left) as classes for
        ``new`` jokers left, packed; -1 if one has no future or the suits' runs need more
        jokers than that.  (Scalars, not tuples: the search calls this a lot, and every
        tuple made brings the garbage collector closer.)"""
        automata = self.automata.get(new) or self._level(new)
        p = r + 1
        if l0 != new:
            t0 = (self.remaps.get((l0, new)) or self._remap_table(l0, new))[0][p][t0]
        if l1 != new:
            t1 = (self.remaps.get((l1, new)) or self._remap_table(l1, new))[1][p][t1]
        if l2 != new:
            t2 = (self.remaps.get((l2, new)) or self._remap_table(l2, new))[2][p][t2]
        if l3 != new:
            t3 = (self.remaps.get((l3, new)) or self._remap_table(l3, new))[3][p][t3]
        if t0 < 0 or t1 < 0 or t2 < 0 or t3 < 0:
            return -1
        need = (
            automata[0].need[p][t0]
            + automata[1].need[p][t1]
            + automata[2].need[p][t2]
            + automata[3].need[p][t3]
        )
        if need > new:
            return -1
        shift = self.shift
        return t0 | t1 << shift[1] | t2 << shift[2] | t3 << shift[3]

    def _endings(self, key: int) -> Iterator[tuple[tuple[tuple[int, int], ...], int, int]]:
        """(per-suit (aces high, jokers high), jokers to add where there is room, hand jokers
        left out) for each legal ending."""
        j = (key >> self.js) & self.jmask
        room = (key >> self.rs) & 3
        left_out = (key >> self.ds) & self.dmask
        automata = self._level(j)
        lists = [automata[s].accepts[(key >> self.shift[s]) & self.cmask] for s in range(4)]
        for combo in itertools.product(*lists):
            left = j - sum(w for _, w in combo)
            if left < 0:
                continue
            out = max(0, left + self.spare - room)  # hand jokers without a seat stay in the hand
            if out <= min(self.hand_jokers, left, left_out):
                yield combo, left + self.spare - out, out

    def _final(self, key: int) -> int:
        found = 0
        for combo, _, _ in self._endings(key):
            found |= _bit(combo, self.stride)
        return found

    # -- recovering the choices -----------------------------------------------

    def _path(self, start: int, want: int) -> _Path:
        path = _Path.empty()
        key = start
        want &= self.memo[key] >> 1
        while key >> self.ss != _HIGH:
            r = key >> self.ss
            child, mask, choice = next(
                (
                    (child, mask, choice)
                    for child, part, choice in self._children(key)
                    if (mask := self.memo.get(child, 0) >> 1 & want & part)
                ),
                (0, 0, ()),
            )
            assert mask, "no move leads to the arrangement found"
            for s in range(4):
                y, h, x, w, _, _ = choice[s][-1]
                path.to_sets[s][r] = x
                path.run_jokers[s][r] += w
                path.high_aces[s] += h
                path.score += y
                if y:
                    path.hand_used[(s, r)] = y
            path.set_jokers[r] = choice[4]
            want, key = mask, child
        ending = next((end for end in self._endings(key) if _bit(end[0], self.stride) & want), None)
        assert ending is not None, "the last rank does not accept the arrangement found"
        combo, spare, out = ending
        for s, (_, w) in enumerate(combo):
            path.run_jokers[s][_HIGH] += w
        path.hand_jokers = self.hand_jokers - out
        path.score += path.hand_jokers
        path.spare_jokers = spare
        return path


def _bit(combo: tuple[tuple[int, int], ...], stride: list[int]) -> int:
    """The bit of an ace split: aces kept high per suit."""
    return 1 << sum(h * stride[s] for s, (h, _) in enumerate(combo))
