"""Manipulation turns: the turn check, and the solver that arranges a table.

In ``manipulation`` a turn may rearrange every meld on the table.  This module
settles such a turn in two ways.

**The turn check.**  :func:`check_turn` takes the table before the turn, the
cards played from the hand and the table after it (every meld, jokers written
``JK=7H``) and returns a :class:`TurnVerdict` listing every rule the turn
breaks; :func:`verify_turn` raises :class:`~referee.errors.RuleError` with the
first.  The rules: a player who drew a third card may not meld; at least one
card comes from the hand; no card leaves the table (after = before + played,
jokers counted as jokers); every meld after the turn is legal; the joker rule
(for every card, the real copies on the table plus the jokers standing for it
never go down); the deck (one deck and one joker for 2 players, two decks and
two jokers for 3-5).

**The solver.**  :func:`arrange` decides whether the table before the turn plus
the cards played can be laid out as legal melds at all, honouring the joker
rule, and returns one such layout (an :class:`Arrangement`); :func:`take_back`
says which played cards have to go back when none exists; and
:func:`playable_cards` / :func:`best_play` find the largest set of cards from a
hand that can join the table (the "what can I play" hint).

The method is the dynamic programme over ranks of van Rijn, Takes and Vis
("The complexity of Rummikub problems", 2015), made fast enough in pure Python
by three exact reductions:

* Ranks are processed from the ace (1) up to the king (13), then the ace again
  (14) for runs ending Q-K-A.  The state after a rank is, per suit, how many
  runs are open with 1, 2 or 3-or-more cards.  Cards of a rank go to sets or to
  runs; the ones in runs first extend the runs that are still too short, then
  the runs of 3+ (a longer run is never worse than a new one), then start new
  runs, so the choice per suit and rank is only *how many cards go to sets*.
  Sets need no state: a rank's cards in sets can be grouped into sets of 3 or 4
  distinct suits exactly when, with ``T`` cards (jokers included) and at most
  ``x`` of any one suit, some ``m >= x`` has ``3m <= T <= 4m``.
* Aces are split at rank 1 into low aces, aces in sets, and aces kept for a
  Q-K-A run at rank 14.  Rather than putting that split in the state (up to 81
  combinations), the search carries, as a bit mask, the set of splits that lead
  to the state, and the last rank reports which splits it accepts.  A run that
  would hold both aces (A..K plus A) is 14 cards long and is cut into A-2-3 and
  4..A.
* Per suit, states with the same future (the same legal continuations, given
  that suit's remaining cards and the jokers still free) are merged, and states
  with no future are dropped, before the search starts: each suit's little
  automaton is minimised rank by rank (per number of jokers left), and the
  search runs over the product of the minimised automata.

The search is a depth-first walk of that product with memoisation, stopping at
the first arrangement; so it is exact (it is the DP, visiting only reachable
states) and typically visits a few dozen states on a solvable table.  Two
safe cuts keep jokers cheap: a joker never sits in a run while a real copy of
its card sits in a set (swap them), and a state is dropped when the suits'
runs need more jokers between them than are left (each suit's fewest, from
its automaton).  Free jokers are first tried as pure extras (the melds without
them, with room left to add them), which settles most tables that have jokers
with the cheaper joker-free automata.  Because
the problem is symmetric under reversing the ranks (A-2-3 <-> Q-K-A), the
search runs forwards and backwards with growing budgets and the first to finish
answers, which protects against an unlucky direction on tables that have no
arrangement.

Jokers: a joker that stood for a card before the turn keeps standing for it
unless a real copy of that card came from the hand (then it is freed and may
stand for anything).  Bound jokers are simply copies of their card for the
solver; free jokers are wildcards that may fill any run position or any set
seat, and any free joker the melds do not need is added where there is room (a
run can always take two more cards once long runs are cut in two; a set of 3
takes one).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from referee.cards import SUITS, Card, Rank, Suit
from referee.errors import RuleError
from referee.melds import BARE_JOKER, Meld, check_meld
from referee.messages import Reason, define_message
from referee.notation import format_card, format_cards, parse_cards
from referee.rulesets import Ruleset, find_ruleset

NOTHING_PLAYED = define_message(
    "table.nothing_played",
    "a turn that melds must put at least one card from the hand on the table",
)
THIRD_DRAW = define_message(
    "table.third_draw",
    "no melding after the third draw, but this turn drew 3 cards and played {cards}",
)
BAD_DRAWS = define_message("table.bad_draws", "draws must be 1, 2 or 3, not {draws}")
CARDS_LEFT = define_message(
    "table.cards_left", "{cards} left the table: no card may leave the table during a turn"
)
CARDS_APPEARED = define_message(
    "table.cards_appeared",
    "{cards} is on the table after the turn but was neither on it before nor played",
)
MELD_ILLEGAL = define_message("table.meld_illegal", "meld {index} ({meld}) is not legal: {reason}")
EMPTY_MELD = define_message("table.empty_meld", "meld {index} has no cards")
JOKER_RULE = define_message(
    "table.joker_rule",
    "{card} was on the table {before} times before the turn (jokers standing for it included) "
    "and only {after} times after it: a joker keeps its card until a real {card} from the hand "
    "replaces it",
)
TOO_MANY_COPIES = define_message(
    "table.too_many_copies",
    "{card} is there {count} times, but {players} players play with {decks} of each card",
)
TOO_MANY_JOKERS = define_message(
    "table.too_many_jokers", "{count} jokers are there, but {players} players play with {limit}"
)
UNNAMED_JOKER_BEFORE = define_message(
    "table.unnamed_joker_before",
    "a joker on the table before the turn must name the card it stands for, like JK=7H",
)
NOT_A_TABLE = define_message(
    "table.not_a_table", "a table is a list of melds, each a list of card codes like 7S 8S 9S"
)

MeldInput: TypeAlias = "str | Iterable[str | Card]"
TableInput: TypeAlias = "str | Iterable[MeldInput]"
CardsInput: TypeAlias = "str | Card | Iterable[str | Card]"

MANIPULATION = "manipulation"
_HIGH = 14  # the position of an ace above the king


# ---------------------------------------------------------------------------
# Reading tables


def parse_table(table: TableInput) -> tuple[tuple[Card, ...], ...]:
    """Melds from a list of melds (each a string or a list of cards), or from text.

    Text has one meld per line (cards separated by spaces or commas); blank
    lines and lines starting with ``#`` are skipped.

    >>> parse_table("7S 8S 9S\\nJK=4H 4D 4C")
    ((Card.parse('7S'), Card.parse('8S'), Card.parse('9S')), (Card.parse('JK=4H'), \
Card.parse('4D'), Card.parse('4C')))
    """
    if isinstance(table, str):
        lines = [line.strip() for line in table.splitlines()]
        return tuple(parse_cards(line) for line in lines if line and not line.startswith("#"))
    if isinstance(table, Card):
        raise RuleError(NOT_A_TABLE)
    try:
        melds = list(table)
    except TypeError:
        raise RuleError(NOT_A_TABLE) from None
    return tuple(parse_cards(meld) for meld in melds)


def format_table(table: Iterable[Iterable[Card]]) -> str:
    """The text form of a table: one meld per line."""
    return "\n".join(format_cards(list(meld)) for meld in table)


def _rules(rules: Ruleset | str | None) -> Ruleset:
    if rules is None:
        return find_ruleset(MANIPULATION)
    return find_ruleset(rules) if isinstance(rules, str) else rules


def _natural(card: Card) -> Card:
    face = card.stands_for
    assert face is not None
    return face


# ---------------------------------------------------------------------------
# The turn check


@dataclass(frozen=True)
class TurnVerdict:
    """Whether a manipulation turn is legal, with every reason it is not."""

    reasons: tuple[Reason, ...]

    @property
    def legal(self) -> bool:
        return not self.reasons

    @property
    def reason(self) -> Reason | None:
        return self.reasons[0] if self.reasons else None

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "reasons": [reason.text for reason in self.reasons]}


def check_turn(
    before: TableInput,
    played: CardsInput,
    after: TableInput,
    players: int,
    draws: int | None = None,
    *,
    rules: Ruleset | str | None = None,
) -> TurnVerdict:
    """Every rule a manipulation turn breaks (an empty verdict when it is legal).

    >>> check_turn(["7S 8S 9S"], "10S", ["7S 8S 9S 10S"], players=2).legal
    True
    >>> print(check_turn(["7S 8S 9S"], "10S", ["7S 8S 10S"], players=2).reason)
    9S left the table: no card may leave the table during a turn
    """
    ruleset = _rules(rules)
    ruleset.verify_players(players)
    table_before = parse_table(before)
    table_after = parse_table(after)
    hand = parse_cards(played)
    reasons: list[Reason] = []

    if draws is not None:
        if isinstance(draws, bool) or not isinstance(draws, int) or not 1 <= draws <= 3:
            reasons.append(Reason.of(BAD_DRAWS, draws=draws))
        elif draws == 3 and hand:
            reasons.append(Reason.of(THIRD_DRAW, cards=format_cards(hand)))
    if not hand:
        reasons.append(Reason.of(NOTHING_PLAYED))

    after_cards = [card for meld in table_after for card in meld]
    reasons.extend(_deck_reasons(after_cards, ruleset, players))

    physical_before = Counter(card.in_hand for meld in table_before for card in meld)
    physical_played = Counter(card.in_hand for card in hand)
    physical_after = Counter(card.in_hand for card in after_cards)
    expected = physical_before + physical_played
    left = expected - physical_after
    appeared = physical_after - expected
    if left:
        reasons.append(Reason.of(CARDS_LEFT, cards=format_cards(_sorted(left.elements()))))
    if appeared:
        reasons.append(Reason.of(CARDS_APPEARED, cards=format_cards(_sorted(appeared.elements()))))

    for index, meld in enumerate(table_after, start=1):
        if not meld:
            reasons.append(Reason.of(EMPTY_MELD, index=index))
            continue
        verdict = check_meld(meld, ruleset)
        if not verdict.legal:
            reasons.append(
                Reason.of(MELD_ILLEGAL, index=index, meld=format_cards(meld), reason=verdict.reason)
            )

    if any(card.is_bare_joker for meld in table_before for card in meld):
        reasons.append(Reason.of(UNNAMED_JOKER_BEFORE))
    else:
        standing_before = Counter(_natural(card) for meld in table_before for card in meld)
        standing_after = Counter(_natural(card) for card in after_cards if not card.is_bare_joker)
        joker_cards = {_natural(card) for meld in table_before for card in meld if card.is_joker}
        for card in _sorted(joker_cards):  # without a joker, a card that went left the table
            if standing_after[card] < standing_before[card]:
                reasons.append(
                    Reason.of(
                        JOKER_RULE,
                        card=str(card),
                        before=standing_before[card],
                        after=standing_after[card],
                    )
                )
    return TurnVerdict(tuple(reasons))


def verify_turn(
    before: TableInput,
    played: CardsInput,
    after: TableInput,
    players: int,
    draws: int | None = None,
    *,
    rules: Ruleset | str | None = None,
) -> None:
    """Raise :class:`RuleError` with the first rule a manipulation turn breaks."""
    verdict = check_turn(before, played, after, players, draws, rules=rules)
    if verdict.reason is not None:
        raise RuleError(verdict.reason)


def _sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: card.sort_key)


def _deck_reasons(cards: Iterable[Card], rules: Ruleset, players: int) -> list[Reason]:
    cards = list(cards)
    reasons = []
    copies = rules.copies(players)
    naturals = Counter(card for card in cards if not card.is_joker)
    for card in _sorted(naturals):
        if naturals[card] > copies:
            reasons.append(
                Reason.of(
                    TOO_MANY_COPIES,
                    card=str(card),
                    count=naturals[card],
                    players=players,
                    decks=copies,
                )
            )
    jokers = sum(1 for card in cards if card.is_joker)
    limit = rules.joker_count(players)
    if jokers > limit:
        reasons.append(Reason.of(TOO_MANY_JOKERS, count=jokers, players=players, limit=limit))
    return reasons


def _verify_deck(cards: Iterable[Card], rules: Ruleset, players: int) -> None:
    reasons = _deck_reasons(cards, rules, players)
    if reasons:
        raise RuleError(reasons[0])


# ---------------------------------------------------------------------------
# The solver's public face


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
        return format_table(meld.cards for meld in self.melds)


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


def arrange(
    before: TableInput,
    played: CardsInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> Arrangement | None:
    """One legal layout of the table before the turn plus the cards played, or ``None``.

    Jokers that stood for a card keep standing for it unless a real copy of
    that card is among the cards played.

    >>> print(arrange(["7S 8S 9S", "KH KD KC"], "10S JK", players=3))
    7S 8S 9S 10S JK=JS
    KH KD KC
    >>> arrange(["7S 8S 9S"], "QD", players=2) is None
    True
    """
    ruleset = _rules(rules)
    ruleset.verify_players(players)
    problem = _Problem.for_turn(parse_table(before), parse_cards(played), ruleset, players)
    return problem.arrange()


def take_back(
    before: TableInput,
    played: CardsInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> tuple[Card, ...]:
    """The played cards that must go back to the hand so that the rest can be arranged.

    Empty when the whole play can be arranged; otherwise the fewest cards
    (keeping the largest playable part of the play).

    >>> take_back(["7S 8S 9S"], "10S QD", players=2)
    (Card.parse('QD'),)
    """
    cards = parse_cards(played)
    kept = Counter(c.in_hand for c in playable_cards(cards, before, players, rules=rules))
    back = Counter(card.in_hand for card in cards) - kept
    return tuple(_sorted(back.elements()))


def best_play(
    hand: CardsInput,
    table: TableInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> Play:
    """The largest set of cards from ``hand`` that can join ``table`` this turn, and a layout."""
    ruleset = _rules(rules)
    ruleset.verify_players(players)
    problem = _Problem.for_hint(parse_cards(hand), parse_table(table), ruleset, players)
    return problem.best_play()


def playable_cards(
    hand: CardsInput,
    table: TableInput,
    players: int,
    *,
    rules: Ruleset | str | None = None,
) -> tuple[Card, ...]:
    """The largest set of cards from ``hand`` that can join ``table`` this turn.

    >>> playable_cards("10S QD 6S", ["7S 8S 9S"], players=2)
    (Card.parse('6S'), Card.parse('10S'))
    """
    return best_play(hand, table, players, rules=rules).cards


# ---------------------------------------------------------------------------
# From cards to counts, and back


def _cell(card: Card) -> tuple[int, int]:
    assert card.suit is not None and card.rank is not None
    return SUITS.index(card.suit), int(card.rank)


def _grid() -> list[list[int]]:
    return [[0] * 14 for _ in SUITS]


class _Problem:
    """A table to solve, as counts per card, with the physical cards kept for the answer.

    ``table[s][r]`` are the cards that must stay on the table as copies of the
    card of suit ``s`` and rank ``r`` (real cards and jokers bound to it);
    ``bound[s][r]`` of the hand-mode ones are jokers that a hand copy would free;
    ``hand[s][r]`` are optional cards from the hand.
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
        _verify_deck([*table_cards, *(card.in_hand for card in played)], rules, players)
        jokers_for = Counter(_natural(card) for card in table_cards if card.is_joker)
        real_played = Counter(card for card in played if not card.is_joker)
        jokers = sum(jokers_for.values()) + sum(1 for card in played if card.is_joker)
        bound = 0
        for card in [*table_cards, *played]:
            if not card.is_joker:
                problem._add(card, card)
        for card, count in jokers_for.items():
            keep = max(0, count - real_played[card])
            for _ in range(keep):
                problem._add(card, Card.joker(card))
            bound += keep
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
        _verify_deck([*table_cards, *(card.in_hand for card in hand)], rules, players)
        for card in table_cards:
            if card.is_joker:
                s, r = _cell(card)
                problem.bound[s][r] += 1
            else:
                problem._add(card, card)
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
        engine = _Engine(self.table, self.bound, self.hand, 0, self.hand_jokers, optimize=True)
        path = engine.optimise()
        if path is None or path.score == 0:
            return Play((), None)
        arrangement = self._build(path)
        used: list[Card] = []
        for (s, r), count in path.hand_used.items():
            used.extend(self.hand_at[(s, r)][:count])
        used.extend([Card.joker()] * path.hand_jokers)
        return Play(tuple(_sorted(used)), arrangement)

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
                named = Card.joker(Card(_rank_at(position), suit))
                columns[position].extend([named] * path.run_jokers[s][position])
            runs.extend(part for run in _runs_of(columns) for part in _cut(run))
        sets: list[list[Card]] = []
        for r in range(1, 14):
            sets.extend(_sets_of(set_cards[r], path.set_jokers[r], Rank(r)))
        _place_spare_jokers(runs, sets, path.spare_jokers)
        melds = [[card for _, card in run] for run in runs] + sets
        return Arrangement(tuple(_as_meld(meld, self.rules) for meld in melds))

    def _cards_for(self, s: int, r: int, used: int) -> list[Card]:
        """The cards that play as suit ``s``, rank ``r``: table, hand cards used, bound jokers."""
        cards = list(self.cards_at.get((s, r), []))
        cards.extend(self.hand_at.get((s, r), [])[:used])
        still_bound = self.bound[s][r] - min(used, self.bound[s][r])
        cards.extend([Card.joker(Card(Rank(r), SUITS[s]))] * still_bound)
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


def _as_meld(cards: list[Card], rules: Ruleset) -> Meld:
    verdict = check_meld(cards, rules)
    assert verdict.meld is not None, f"the solver built an illegal meld {format_cards(cards)}"
    return verdict.meld


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
    """Decide a table (``free`` wildcards must be placed) and find one arrangement.

    First, cheaply, whether the melds work without the free jokers, with room
    left to add them; then the full search, forwards and backwards with growing
    budgets, the first to finish answering.
    """
    zero = _grid()
    if free:
        try:
            found = _Engine(table, zero, zero, 0, 0, optimize=False, spare=free).decide(600)
        except _OutOfBudget:
            found = None
        if found is not None:
            return found
    engines: list[_Engine] = [_Engine(table, zero, zero, free, 0, optimize=False)]
    budget = 200
    while True:
        for index in (0, 1):
            if index == len(engines):
                engines.append(_Engine(_reverse_grid(table), zero, zero, free, 0, optimize=False))
            try:
                found = engines[index].decide(budget)
            except _OutOfBudget:
                continue
            if found is None or index == 0:
                return found
            path = found.reversed()
            for s in range(4):  # backwards, the aces kept high were the low ones
                path.high_aces[s] = table[s][1] - found.to_sets[s][1] - found.high_aces[s]
            return path
        budget *= 2


_Key: TypeAlias = tuple[int, ...]
_Move: TypeAlias = tuple[int, int, int, int, int]  # hand cards, aces high, to sets, jokers, class
_FINAL = 65  # the step after the king's rank: the aces above the king


@dataclass
class _Level:
    """The minimised per-suit automata when ``jokers`` wildcards are still to come.

    For suit ``s`` and rank ``r`` (1..13; 14 for the aces above the king),
    ``cls[s][r][state]`` is the class of a run state entering rank ``r``
    (-1: unreachable), ``rep[s][r][class]`` a state of that class,
    ``moves[s][r][class]`` the moves with their target classes, ``dead[s][r]``
    the class with no future (or -1), ``accepts[s][class]`` the (aces high,
    jokers high) endings a class entering rank 14 accepts.
    """

    cls: list[list[list[int]]]
    rep: list[list[list[int]]]
    moves: list[list[list[list[_Move]]]]
    dead: list[list[int]]
    accepts: list[list[list[tuple[int, int]]]]
    need: list[list[list[int]]]  # the fewest jokers a class's runs still need


class _Engine:
    """The rank DP for one table.

    Inputs are 4 x 14 grids indexed ``[suit][rank]`` (rank 1..13): ``table``
    cards that must be placed, ``bound`` jokers that a ``hand`` copy would free,
    ``hand`` optional cards; ``free`` wildcards that must be placed and
    ``hand_jokers`` optional ones.  ``decide`` (no optional cards) stops at the
    first arrangement; ``optimise`` maximises the optional cards used.

    A search key is ``(step, class per suit, cards to sets so far this rank,
    most of one suit in them, jokers left, room)``; step ``5 * (rank - 1) + i``
    is suit ``i`` of that rank (``i == 4``: its sets are closed).  Values are
    bit masks over the ways of keeping aces for Q-K-A runs (bit
    ``sum(high[s] * stride[s])``).
    """

    def __init__(
        self,
        table: list[list[int]],
        bound: list[list[int]],
        hand: list[list[int]],
        free: int,
        hand_jokers: int,
        *,
        optimize: bool,
        spare: int = 0,
    ) -> None:
        self.t, self.b, self.u = table, bound, hand
        self.spare = spare  # jokers to add at the end where there is room
        self.free, self.hand_jokers, self.optimize = free, hand_jokers, optimize
        self.jokers = free + hand_jokers + sum(sum(row) for row in bound)
        self.most = [
            max(table[s][r] + max(bound[s][r], hand[s][r]) for r in range(1, 14)) for s in range(4)
        ]
        self.maxn = max(1, max(self.most) + self.jokers)
        states = [
            (a, b, c)
            for a in range(self.maxn + 1)
            for b in range(self.maxn + 1 - a)
            for c in range(self.maxn + 1 - a - b)
        ]
        self.states = states
        index = {state: i for i, state in enumerate(states)}
        self.empty = index[(0, 0, 0)]
        self.step_table = [
            [self._step(state, k, index) for k in range(self.maxn + 1)] for state in states
        ]
        self.aces = [table[s][1] + max(bound[s][1], hand[s][1]) for s in range(4)]
        self.stride = [1, 0, 0, 0]
        for s in range(1, 4):
            self.stride[s] = self.stride[s - 1] * (self.aces[s - 1] + 1)
        self.all_splits = (1 << (self.stride[3] * (self.aces[3] + 1))) - 1
        self.slices = [[0] * (self.aces[s] + 1) for s in range(4)]
        for split in range(self.all_splits.bit_length()):
            for s in range(4):
                self.slices[s][split // self.stride[s] % (self.aces[s] + 1)] |= 1 << split
        self.others = [
            [
                sum(table[o][r] + max(bound[o][r], hand[o][r]) for o in range(4) if o != s)
                for r in range(14)
            ]
            for s in range(4)
        ]
        self.raw_cache: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
        # A run holds at most ``jokers`` jokers, so a joker is only ever that close to a card.
        self.near = [[False] * (_HIGH + 1) for _ in range(4)]
        for s in range(4):
            present = [p for p in range(1, _HIGH + 1) if self.most_at(s, 1 if p == _HIGH else p)]
            for p in range(1, _HIGH + 1):
                self.near[s][p] = any(abs(p - q) <= self.jokers for q in present)
        self.reach = self._reachable()
        self.levels: list[_Level | None] = [None] * (self.jokers + 1)
        self.remaps: dict[tuple[int, int], list[list[list[int]]]] = {}
        self.memo: dict[_Key, list[int]] = {}
        self.values: dict[_Key, tuple[int, ...]] = {}
        self.visits = 0
        self.budget = 0
        self.low = -self.jokers if optimize else 0  # how far below zero "jokers left" may go
        room = 2 if self.jokers + spare == 0 else 0
        self.start: _Key = (0, 0, 0, 0, 0, 0, 0, free, room)

    def most_at(self, s: int, r: int) -> int:
        """How many cards can play as suit ``s``, rank ``r``."""
        return self.t[s][r] + max(self.b[s][r], self.u[s][r])

    def _step(self, state: tuple[int, int, int], k: int, index: dict[Any, int]) -> int:
        ones, twos, longs = state
        if k < ones + twos:
            return -1
        extra = k - ones - twos
        extend = min(longs, extra)
        result = (extra - extend, ones, twos + extend)
        if sum(result) > self.maxn:
            return -1
        return index[result]

    def _cards(self, s: int, r: int) -> Iterable[tuple[int, int]]:
        """(hand cards used, cards that play as this card) for each choice of hand cards."""
        for y in range(self.u[s][r] + 1):
            yield y, self.t[s][r] + max(y, self.b[s][r])

    def _raw_moves(self, s: int, r: int, state: int, level: int) -> list[tuple[int, ...]]:
        """(y, h, x, w, next state) for one suit at one rank, ``level`` jokers available."""
        key = (s, r, state)
        every = self.raw_cache.get(key)
        if every is None:
            row = self.step_table[state]
            every = []
            jokers = self.jokers if self.near[s][r] else 0
            for y, c in self._cards(s, r):
                for h in range(c + 1 if r == 1 else 1):
                    for w in range(jokers + 1):
                        # a joker in a run while a real copy sits in a set: swap them instead
                        for x in range(c - h + 1 if w == 0 else 1):
                            k = c - h - x + w
                            if k <= self.maxn and row[k] >= 0:
                                every.append((y, h, x, w, row[k]))
            self.raw_cache[key] = every
        to_sets_limit = (self.others[s][r] + level) // 2  # each set seat needs two other cards
        return [move for move in every if move[3] <= level and move[2] <= to_sets_limit]

    def _reachable(self) -> list[list[set[int]]]:
        """Per suit and rank (1..14), the run states that can enter it."""
        reach: list[list[set[int]]] = [[set() for _ in range(_HIGH + 1)] for _ in range(4)]
        for s in range(4):
            reach[s][1] = {self.empty}
            for r in range(1, 14):
                reach[s][r + 1] = {
                    move[4]
                    for state in reach[s][r]
                    for move in self._raw_moves(s, r, state, self.jokers)
                }
        return reach

    def _level(self, level: int) -> _Level:
        known = self.levels[level]
        if known is not None:
            return known
        n = len(self.states)
        cls = [[[-1] * n for _ in range(_HIGH + 1)] for _ in range(4)]
        rep: list[list[list[int]]] = [[[] for _ in range(_HIGH + 1)] for _ in range(4)]
        moves: list[list[list[list[_Move]]]] = [[[] for _ in range(_HIGH + 1)] for _ in range(4)]
        dead = [[-1] * (_HIGH + 1) for _ in range(4)]
        accepts: list[list[list[tuple[int, int]]]] = [[] for _ in range(4)]
        for s in range(4):
            signatures: dict[tuple[Any, ...], int] = {}
            for sid in sorted(self.reach[s][_HIGH]):
                ones, twos, longs = self.states[sid]
                accepted = tuple(
                    (h, w)
                    for w in range(level + 1 if self.near[s][_HIGH] else 1)
                    for h in range(self.aces[s] + 1)
                    if ones == 0 and twos <= h + w <= twos + longs
                )
                if accepted not in signatures:
                    signatures[accepted] = len(signatures)
                    accepts[s].append(list(accepted))
                    rep[s][_HIGH].append(sid)
                cls[s][_HIGH][sid] = signatures[accepted]
            dead[s][_HIGH] = signatures.get((), -1)
            for r in range(13, 0, -1):
                following, no_future = cls[s][r + 1], dead[s][r + 1]
                signatures = {}
                for sid in sorted(self.reach[s][r]):
                    items = tuple(
                        (y, h, x, w, following[target])
                        for y, h, x, w, target in self._raw_moves(s, r, sid, level)
                        if following[target] != no_future
                    )
                    if items not in signatures:
                        signatures[items] = len(signatures)
                        moves[s][r].append(list(items))
                        rep[s][r].append(sid)
                    cls[s][r][sid] = signatures[items]
                dead[s][r] = signatures.get((), -1)
        need = [[[0] * len(moves[s][r]) for r in range(_HIGH + 1)] for s in range(4)]
        for s in range(4):
            need[s][_HIGH] = [min((w for _, w in a), default=level + 1) for a in accepts[s]]
            for r in range(13, 0, -1):
                following = need[s][r + 1]
                need[s][r] = [
                    min((w + following[t] for _, _, _, w, t in items), default=level + 1)
                    for items in moves[s][r]
                ]
        result = _Level(cls, rep, moves, dead, accepts, need)
        self.levels[level] = result
        return result

    def _remap(self, classes: list[int], done: int, r: int, old: int, new: int) -> bool:
        """Re-express the suits' classes for ``new`` jokers left; False if one has no future."""
        table = self.remaps.get((old, new))
        if table is None:
            before, after = self._level(old), self._level(new)
            table = [
                [
                    [
                        -1 if c == after.dead[s][rank] else c
                        for c in (after.cls[s][rank][sid] for sid in before.rep[s][rank])
                    ]
                    for rank in range(_HIGH + 1)
                ]
                for s in range(4)
            ]
            self.remaps[(old, new)] = table
        for s in range(4):
            c = table[s][r + 1 if s < done else r][classes[s]]
            if c < 0:
                return False
            classes[s] = c
        return True

    def _short_of_jokers(self, classes: list[int], done: int, r: int, level: int) -> bool:
        """Whether the suits' runs together need more jokers than are left."""
        need = (self.levels[level] or self._level(level)).need
        total = 0
        for s in range(4):
            total += need[s][r + 1 if s < done else r][classes[s]]
        return total > level

    def _moves_from(self, key: _Key) -> Iterable[tuple[_Move, _Key]]:
        """(move, child) pairs; a move is (y, h, x, w, k) for a suit, (0, 0, v, spare, 0) to close."""
        step, j, room = key[0], key[7], key[8]
        r, sub = step // 5 + 1, step % 5
        level = self.jokers if self.optimize else j
        if sub < 4:
            s = sub
            x_sum, most = key[5], key[6]
            tables = self.levels[level] or self._level(level)
            table = tables.moves[s][r][key[1 + s]]
            for y, h, x, w, target in table:
                nj = j + min(y, self.b[s][r]) - w
                if nj < self.low:
                    continue
                classes = [key[1], key[2], key[3], key[4]]
                classes[s] = target
                if not self.optimize:
                    if nj != level and not self._remap(classes, s + 1, r, j, nj):
                        continue
                    if nj and self._short_of_jokers(classes, s + 1, r, nj):
                        continue
                k = self.t[s][r] + max(y, self.b[s][r]) - h - x + w
                child = (
                    step + 1,
                    *classes,
                    x_sum + x,
                    most if most > x else x,
                    nj,
                    2 if k else room,
                )
                yield (y, h, x, w, k), child
        else:
            for v in range(0, j - self.low + 1):
                spare = _set_spare(key[5] + v, key[6])
                if spare < 0:
                    continue
                classes = [key[1], key[2], key[3], key[4]]
                nj = j - v
                if v and not self.optimize:
                    if not self._remap(classes, 4, r, j, nj):
                        continue
                    if nj and self._short_of_jokers(classes, 4, r, nj):
                        continue
                child = (step + 1, *classes, 0, 0, nj, min(2, room + spare))
                yield (0, 0, v, spare, 0), child

    def _slice(self, key: _Key, move: _Move) -> int:
        """The ace splits a move is consistent with (all of them, except at rank 1)."""
        if key[0] < 4:
            return self.slices[key[0]][move[1]]
        return self.all_splits

    def _final_combos(self, key: _Key) -> Iterable[tuple[tuple[tuple[int, int], ...], int, int]]:
        """(per-suit (aces high, jokers high), jokers left, bonus) for every legal ending."""
        j, room = key[7], key[8]
        level = self._level(self.jokers if self.optimize else j)
        lists = [level.accepts[s][key[1 + s]] for s in range(4)]
        for combo in itertools.product(*lists):
            left = j - sum(w for _, w in combo)
            if self.optimize:
                if left < -self.hand_jokers:
                    continue
                if left >= 0:
                    if left > room:
                        continue
                    bonus = min(self.hand_jokers, room - left)
                else:
                    bonus = -left + min(self.hand_jokers + left, room)
                yield combo, left, bonus
            elif 0 <= left and left + self.spare <= room:
                yield combo, left, 0

    # -- the decision search -----------------------------------------------------

    def decide(self, budget: int) -> _Path | None:
        """One arrangement, or None; raises _OutOfBudget after ``budget`` new states."""
        self.budget = self.visits + budget
        start = self._start_key()
        if start is None or not self._decide(start, self.all_splits):
            return None
        return self._path(start, self.all_splits)

    def _start_key(self) -> _Key | None:
        level = self.jokers if self.optimize else self.free
        if any(self._level(level).dead[s][1] == 0 for s in range(4)):
            return None
        if not self.optimize and self._short_of_jokers([0, 0, 0, 0], 0, 1, level):
            return None
        return self.start

    def _decide(self, key: _Key, want: int) -> bool:
        entry = self.memo.get(key)
        if entry is not None:
            if entry[0] & want:
                return True
            if entry[1]:
                return False
        else:
            self.visits += 1
            if self.visits > self.budget:
                raise _OutOfBudget
            entry = [0, 0]
            self.memo[key] = entry
        if key[0] == _FINAL:
            for combo, _, _ in self._final_combos(key):
                entry[0] |= _bit(combo, self.stride)
            entry[1] = 1
            return bool(entry[0] & want)
        found = 0
        rank_one = key[0] < 4
        for move, child in self._moves_from(key):
            if rank_one:
                part = self.slices[key[0]][move[1]]
                success = self._decide(child, want & part)
                found |= self.memo[child][0] & part
            else:
                success = self._decide(child, want)
                found |= self.memo[child][0]
            if success:
                entry[0] |= found
                return True
        entry[0] |= found
        entry[1] = 1
        return False

    # -- the optimisation (the hint) ---------------------------------------------

    def optimise(self) -> _Path | None:
        start = self._start_key()
        if start is None:
            return None
        levels = self._value(start)
        if not levels:
            return None
        path = self._path(start, levels[-1], target=len(levels) - 1)
        path.score = len(levels) - 1
        return path

    def _value(self, key: _Key) -> tuple[int, ...]:
        """levels[i] = mask of ace splits for which the optional cards used from here can be >= i."""
        known = self.values.get(key)
        if known is not None:
            return known
        acc: list[int] = []
        if key[0] == _FINAL:
            for combo, _, bonus in self._final_combos(key):
                _merge(acc, (_bit(combo, self.stride),), bonus)
        else:
            for move, child in self._moves_from(key):
                part = self._slice(key, move)
                _merge(acc, tuple(mask & part for mask in self._value(child)), move[0])
        result = tuple(acc)
        while result and not result[-1]:
            result = result[:-1]
        self.values[key] = result
        return result

    # -- recovering the choices -----------------------------------------------

    def _mask_of(self, key: _Key, target: int) -> int:
        if self.optimize:
            levels = self._value(key)
            return levels[target] if target < len(levels) else 0
        entry = self.memo.get(key)
        return entry[0] if entry else 0

    def _path(self, start: _Key, want: int, target: int = 0) -> _Path:
        path = _Path.empty()
        key = start
        want &= self._mask_of(key, target)
        while key[0] != _FINAL:
            step = key[0]
            r, sub = step // 5 + 1, step % 5
            for move, child in self._moves_from(key):
                rest = max(0, target - move[0])
                mask = self._mask_of(child, rest) & want & self._slice(key, move)
                if mask:
                    break
            else:
                raise AssertionError("no move leads to the arrangement found")
            if sub < 4:
                y, h, x, w, _ = move
                path.to_sets[sub][r] = x
                path.run_jokers[sub][r] += w
                path.high_aces[sub] += h
                if y:
                    path.hand_used[(sub, r)] = y
            else:
                path.set_jokers[r] = move[2]
            want, target, key = mask, rest, child
        ending = next(
            (
                (combo, left, bonus)
                for combo, left, bonus in self._final_combos(key)
                if _bit(combo, self.stride) & want and bonus >= target
            ),
            None,
        )
        assert ending is not None, "the last rank does not accept the arrangement found"
        combo, left, bonus = ending
        for s, (_, w) in enumerate(combo):
            path.run_jokers[s][_HIGH] += w
        if self.optimize:
            path.hand_jokers = bonus
            path.spare_jokers = max(0, left) + bonus - max(0, -left)
        else:
            path.spare_jokers = left + self.spare
        return path


def _bit(combo: tuple[tuple[int, int], ...], stride: list[int]) -> int:
    """The bit of an ace split: aces kept high per suit."""
    return 1 << sum(h * stride[s] for s, (h, _) in enumerate(combo))


def _merge(acc: list[int], child: tuple[int, ...], gain: int) -> None:
    """Fold a child's levels, each ``gain`` higher, into ``acc``."""
    if not child or not child[0]:
        return
    while len(acc) < len(child) + gain:
        acc.append(0)
    for i in range(gain):
        acc[i] |= child[0]
    for i, mask in enumerate(child):
        acc[i + gain] |= mask


__all__ = [
    "Arrangement",
    "Play",
    "TurnVerdict",
    "arrange",
    "best_play",
    "check_turn",
    "format_table",
    "parse_table",
    "playable_cards",
    "take_back",
    "verify_turn",
]
