"""The :class:`Ruleset` value and the match-level hooks shared by the rulesets.

A ruleset is data (its name and one-line description, deal sizes, the deck,
card values, ace order, how turns are entered, the discard-pile rules, every
bonus number, the target presets, and how a round entered as its final table
is asked for: :class:`RoundForm`) plus three hooks for what really differs
between games:

- ``score_round(rules, ending) -> RoundScore``: a checked round's scores
  (see :mod:`referee.scoring`);
- ``next_dealer(rules, progress) -> str``: who deals the next round;
- ``match_end(rules, progress) -> MatchEnd``: whether the match is over, its
  winners and any match-end bonuses.

Voided rounds never reach the hooks: they score 0, keep the dealer and
count for nothing (see :mod:`referee.match`).

Texts a player reads (names, descriptions, form labels) are English data
registered with :func:`~referee.messages.define_text`: the web layer shows
them through its translation catalogue.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from referee.cards import Card
from referee.errors import RuleError
from referee.messages import Reason, define_message, define_text
from referee.rulesets.options import (
    STANDARD,
    Option,
    OptionType,
    Preset,
    RoundInput,
    holds,
    same_value,
    show_value,
    target_option,
)
from referee.scoring import Ending, Outcome, RoundEnding, RoundScore, winner_takes_hands

UNKNOWN_OPTION = define_message(
    "rules.unknown_option", '{rules} has no option "{option}"; its options are {known}'
)
OPTION_NOT_NUMBER = define_message(
    "rules.option_not_number",
    "the house rule {label} ({option}) is a whole number from {minimum} to {maximum}, "
    'not "{value}"',
)
OPTION_OUT_OF_RANGE = define_message(
    "rules.option_out_of_range",
    "the house rule {label} ({option}) goes from {minimum} to {maximum}, not {value}",
)
OPTION_NOT_SWITCH = define_message(
    "rules.option_not_switch",
    'the house rule {label} ({option}) is true or false, not "{value}"',
)
OPTION_NOT_A_CHOICE = define_message(
    "rules.option_not_a_choice",
    'the house rule {label} ({option}) is one of {choices}, not "{value}"',
)
STOPPED_HIGHEST_TOTAL = define_message("match.stopped_winner", "the highest total wins")
ROUNDS_LONG = define_message("match.length.rounds", "{count} rounds")
DEALS_LONG = define_message("match.length.deals", "{count} deals")
FIXED_ROUNDS = define_message("match.fixed.rounds", "The match is {count} rounds.")
FIXED_DEALS = define_message("match.fixed.deals", "The match is {count} deals.")
FIXED_ROUNDS_LOWEST = define_message(
    "match.fixed.rounds_lowest", "The match is {count} rounds; the lowest total wins."
)
FIXED_DEALS_LOWEST = define_message(
    "match.fixed.deals_lowest", "The match is {count} deals; the lowest total wins."
)
OPTION_NOT_APPLICABLE = define_message(
    "rules.option_not_applicable",
    "the house rule {label} ({option}) only applies with {condition}; leave it out",
)
OPTION_EXCLUDED = define_message(
    "rules.option_excluded",
    "the house rule {label} ({option}) cannot be used with {condition}",
)
OPTION_ABOVE = define_message(
    "rules.option_above",
    "the house rule {label} ({option}: {value}) is at most {other_label} ({other}: {other_value})",
)
OPTION_PLAYERS = define_message(
    "rules.option_players",
    "the house rule {label} ({option}: {value}) is for at most {most} players, not {count}",
)
OPTION_SETTING = define_message("rules.option_setting", "{label} ({option}: {value})")
PLAYER_COUNT = define_message(
    "rules.player_count", "{rules} is played by {low} to {high} players, not {count}"
)
PLAYER_COUNT_EXACT = define_message(
    "rules.player_count_exact", "{rules} is played by exactly {low} players, not {count}"
)
NO_ENDING = define_message(
    "round.no_ending", 'the round does not say how it ended: give "out", "knock" or "end"'
)
POINTS_UNCHECKED = define_message(
    "points.unchecked",
    "{player}'s hand was given as {points} points, not as cards: the referee could not check "
    "which cards they are (a card also in another hand or on the table) nor that the hand "
    "holds no more than the {cards} cards dealt",
)


class AceOrder(enum.Enum):
    """Where an ace may stand in a run."""

    LOW = "low"  # A-2-3 only
    LOW_OR_HIGH = "high-low"  # A-2-3 or Q-K-A, never K-A-2
    NONE = "none"  # never in a run (remi-indonesia)


class TurnStyle(enum.Enum):
    """How the turns of a round are entered in the match file."""

    MELDS = "melds"  # "melds" and "layoffs" per turn, melds numbered 1, 2, 3 ...
    TABLE = "table"  # "played" and the whole "table" after the turn (manipulation)
    NONE = "none"  # no turns: only the final hands (gin)


def card_values(ace: int, two_to_nine: int | None, ten: int, picture: int) -> tuple[int, ...]:
    """Card values by rank, ace first; ``two_to_nine=None`` means face value."""
    middle = [two_to_nine if two_to_nine is not None else n for n in range(2, 10)]
    return (ace, *middle, ten, picture, picture, picture)


FACE_VALUES = card_values(1, None, 10, 10)


@dataclass(frozen=True)
class MatchProgress:
    """The match right after a (non-void) round, as the dealer and match-end hooks see it.

    ``totals`` include the round just played; ``rounds_counted`` is the number
    of rounds played that were not voided; ``rounds_won`` counts, per player,
    the rounds they won (alone or tied); ``history`` holds the totals after
    every counted round, the last being ``totals``.
    """

    players: tuple[str, ...]
    dealer: str
    last: RoundScore
    totals: Mapping[str, int]
    rounds_counted: int
    rounds_won: Mapping[str, int]
    history: tuple[Mapping[str, int], ...] = ()
    scored: tuple[RoundScore, ...] = ()  # every counted round's score, in order
    carried: Any = None  # what the game carries after this round (its Tracker's state)
    # The seated sides where the match is played in teams (their names key the totals, the
    # scores and the rounds won); empty when each player is a side of their own.
    sides: tuple[str, ...] = ()

    @property
    def contenders(self) -> tuple[str, ...]:
        """Who plays for the win, as the totals name them: the seated sides (the players,
        where each plays alone)."""
        return self.sides or self.players

    def target_reached(self, target: int) -> bool:
        """Whether some total has reached ``target``, after this round or an earlier one
        (a player who joined later has no total in the rounds before)."""
        return any(
            totals.get(side, target - 1) >= target
            for totals in (*self.history, self.totals)
            for side in self.contenders
        )


@dataclass(frozen=True)
class MatchEnd:
    """Whether the match is over; ``bonuses`` go into the totals only."""

    finished: bool
    winners: tuple[str, ...] = ()
    bonuses: Mapping[str, int] = field(default_factory=dict)


ScoreHook = Callable[["Ruleset", RoundEnding], RoundScore]
DealerHook = Callable[["Ruleset", MatchProgress], str]
MatchEndHook = Callable[["Ruleset", MatchProgress], MatchEnd]
RoundRulesHook = Callable[["Ruleset", Mapping[str, Any]], "Ruleset"]
# (rules, players, counted rounds' scores) -> the sheet's columns (Hollywood gin's), or None.
SheetColumnsHook = Callable[["Ruleset", tuple[str, ...], tuple[RoundScore, ...]], Any]
# (rules of the round's deal) -> what the replay adds to a counted round (Three Thirteen's deal).
RoundFactsHook = Callable[["Ruleset"], Mapping[str, Any]]
# (match state, the replay's answer so far) -> what the game adds to it or changes in it
# (Rummikub: each game's winners and the games won).
ReplayFactsHook = Callable[[Any, Mapping[str, Any]], Mapping[str, Any]]
# (rules, totals, rounds won, seated) -> who wins a match its players stopped (default: the
# highest total; Rummikub with standing games_won: the most games won, then the total).
StoppedHook = Callable[["Ruleset", Mapping[str, int], Mapping[str, int], tuple[str, ...]], Any]
# (rules) -> who wins a match its players stop, in words (what stopped_winners decides).
StoppedWordsHook = Callable[["Ruleset"], Reason]
# (header, record, dealer, number) -> FinalState: a round checked by the ruleset itself
# (indian deals), instead of referee.round_end.final_state.
RoundCheckHook = Callable[[Any, Any, str, int], Any]
# (rules, totals, seated) -> the players dealt in (a pool leaves out the players out of it).
DealPlayersHook = Callable[["Ruleset", Mapping[str, int], tuple[str, ...]], tuple[str, ...]]
# (rules, players coming back, totals, totals before the last counted deal, seated,
# players who came back before) -> their new totals, or RuleError.
RejoinHook = Callable[
    [
        "Ruleset",
        tuple[str, ...],
        Mapping[str, int],
        Mapping[str, int],
        tuple[str, ...],
        frozenset[str],
    ],
    dict[str, int],
]
# rules -> (the total that puts a player out, the highest total still in for a rejoin),
# or None when the options in force play no pool.
PoolLimitsHook = Callable[["Ruleset"], "tuple[int, int] | None"]

NO_REJOIN = define_message(
    "rules.no_rejoin", "players come back into a match only in a pool of {rules}"
)


# (rules, the round object as written, players) -> the round's keys checked and written
# canonically (Phase 10's cards), or a RefereeError naming the bad one.
RoundReader = Callable[["Ruleset", Mapping[str, Any], tuple[str, ...]], Mapping[str, Any]]


@dataclass(frozen=True)
class Pieces:
    """What a game is played with when it is not playing cards, and how the match file reads
    and writes it: the game's own notation.  Either piece by piece (Rummikub's tiles):
    ``read`` one piece (a :class:`~referee.errors.NotationError` naming a token that is
    none), ``write`` it back, ``full_set`` every piece as written (copies included); hands,
    played pieces and the table of a turn are read with it and kept as written (never put in
    a card order).  Or round by round (Phase 10's cards): ``read_round`` gives a round's keys
    checked and written canonically, kept as :attr:`~referee.matchfile.RoundRecord.notated`
    and written back as they are."""

    read: Callable[[str], Any] | None = None
    write: Callable[[Any], str] = str
    full_set: tuple[str, ...] = ()
    read_round: RoundReader | None = None


@dataclass(frozen=True)
class Pool:
    """A game whose penalty totals put players out and may let them back in (Indian
    rummy's pool 101/201).  Its hooks read the options in force: with a format that
    plays no pool, ``limits`` is None, everyone is dealt in and a rejoin is refused in
    the game's own words."""

    limits: PoolLimitsHook
    deal_players: DealPlayersHook
    rejoin_totals: RejoinHook
    # rules -> the number of deals a format without a pool plays (Indian's deals), or None.
    fixed_deals: Callable[[Ruleset], int | None] = lambda rules: None


@dataclass(frozen=True)
class Sides:
    """A game played in partnerships (Canasta): with ``seated`` players at the table the match
    is played by teams of ``size`` partners, named in the match file's ``teams``, whose
    partners alternate in the seating (partners sit opposite).  With another number of
    players each player is a side of their own, named by their name.  A side's round score
    is the one the ruleset gives it, or, where the score names the players, the sum of its
    partners' scores."""

    seated: tuple[int, ...] = (4,)
    size: int = 2

    def in_teams(self, count: int) -> bool:
        """Whether a match of ``count`` players is played in teams."""
        return count in self.seated

    def team_seats(self, count: int | None = None) -> tuple[tuple[int, ...], ...]:
        """The seats (0-based) of each team when ``count`` players sit (the most the game
        seats in teams when not given): partners alternate round the table, team 1 in seats
        1, 3 ..., team 2 in seats 2, 4 ...; none where ``count`` players play alone."""
        count = max(self.seated) if count is None else count
        if not self.in_teams(count):
            return ()
        teams = count // self.size
        return tuple(tuple(range(team, teams * self.size, teams)) for team in range(teams))

    def teams(self, seated: Sequence[str], names: Sequence[str]) -> dict[str, list[str]]:
        """The teams of the ``seated`` players (in seating order), named ``names`` in the
        order of :meth:`team_seats`; none where they play alone."""
        seats = self.team_seats(len(seated))
        return {
            str(name or ""): [seated[seat] for seat in team]
            for name, team in zip(names, seats, strict=False)
        }


DealRulesHook = Callable[["Ruleset", int], "Ruleset"]


@dataclass(frozen=True)
class Tracker:
    """What a game carries from round to round besides the totals (Phase 10: who is on
    which phase), made again from the rounds played: ``state(rules, header, rounds)`` (the
    match's header, its :class:`~referee.match.RoundResult` values so far).  The match gives
    that state to the round's check (``header.carried``) and to the dealer and match-end
    hooks (``progress.carried``); ``progress(state, player)`` says how far a player has come
    (more is better), which ranks the players before their totals do; ``facts(state)`` is
    what the replay and the pages show of it."""

    state: Callable[[Ruleset, Any, tuple[Any, ...]], Any]
    progress: Callable[[Any, str], int]
    facts: Callable[[Any], Mapping[str, Any]]


def same_every_round(rules: Ruleset, inputs: Mapping[str, Any]) -> Ruleset:
    """Every round is played by the match's rules."""
    return rules


def same_every_deal(rules: Ruleset, deal: int) -> Ruleset:
    """Every deal is played by the match's rules."""
    return rules


@dataclass(frozen=True)
class Contract:
    """What going down lays in one deal (``contract``): exactly ``sets`` sets and ``runs``
    runs, all in one turn.  ``words`` is a message key ("two sets and a run"), ``label`` a
    display text ("Deal 5: two sets and a run")."""

    deal: int
    sets: int
    runs: int
    words: str
    label: str


def seat_after(players: tuple[str, ...], player: str, seats: int = 1) -> str:
    """Who sits ``seats`` places clockwise after ``player`` (``players`` in seating order)."""
    return players[(players.index(player) + seats) % len(players)]


def dealer_moves_clockwise(rules: Ruleset, progress: MatchProgress) -> str:
    """The deal moves one seat clockwise every round."""
    return seat_after(progress.players, progress.dealer)


def best_players(totals: Mapping[str, int], players: Iterable[str]) -> tuple[str, ...]:
    """The players with the highest total, in seating order."""
    players = tuple(players)
    top = max(totals[player] for player in players)
    return tuple(player for player in players if totals[player] == top)


def first_to_target(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """First to reach the target wins; with ``hands`` = N, the most points after N rounds.

    Ties at the top share the win.
    """
    sides = progress.contenders
    if rules.hands is not None:
        if progress.rounds_counted >= rules.hands:
            return MatchEnd(True, best_players(progress.totals, sides))
        return MatchEnd(False)
    assert rules.target is not None
    if any(progress.totals[side] >= rules.target for side in sides):
        return MatchEnd(True, best_players(progress.totals, sides))
    return MatchEnd(False)


@dataclass(frozen=True)
class DiscardPile:
    """What taking from the discard pile allows and asks: ``depth`` how deep a player may
    take (0: there is no pile, as in manipulation); each flag one game's rule about the
    card taken, false in every other game."""

    depth: int = 1
    # The top discard taken may not be discarded again in the same turn.
    top_kept: bool = True
    # May not leave the taken discard as the hand's last card (remi).
    not_left_last: bool = False
    # The deepest card taken is melded in the same turn (remi-indonesia).
    melded_at_once: bool = False
    # A take of more than the top discard uses the deepest card taken at once, in a new meld
    # or a lay-off (rummy500).
    deepest_used: bool = False


@dataclass(frozen=True)
class Buying:
    """A discard the player in turn does not take may be bought by another player (contract
    rummy), at most ``per_deal`` times by each player in one deal."""

    per_deal: int


@dataclass(frozen=True)
class Runs:
    """What makes a run: at least ``shortest`` cards (contract: 4); with ``first`` a
    player lays a set only after a run of their own in the round, and without
    ``mix_number_and_picture`` a run is all number cards or all picture cards
    (remi-indonesia)."""

    shortest: int = 3
    first: bool = False
    mix_number_and_picture: bool = True


@dataclass(frozen=True)
class Melding:
    """What a player may lay, and when, beyond what makes a run: each flag one family's
    rule, false in every other game."""

    # A set is 3 or more of one rank, suits may repeat (contract, Canasta, Three Thirteen).
    sets_repeat_suits: bool = False
    # Lay off only after an own meld laid in an earlier turn (rummy's house rule).
    layoff_after_own_meld: bool = False


@dataclass(frozen=True)
class HandSize:
    """How many cards a hand holds when its round is scored, where the game fixes it:
    ``exact`` cards each (gin's and Indian rummy's dealt hand, a Three Thirteen deal's), or
    with ``never_grows`` at most the cards dealt, each turn drawing one card and discarding
    one (remi, rummy)."""

    exact: int | None = None
    never_grows: bool = False


AT_ONCE_ASKED = define_text(
    "round_form.at_once", "All at once (nothing melded or laid off before): ×%(factor)s"
)
RUMMY_ASKED = define_text(
    "round_form.rummy", "Going rummy (nothing melded or laid off before): ×%(factor)s"
)


OUT_AT_ONCE_FIGURE = define_text("statistics.at_once", "Out at once")
WENT_RUMMY_FIGURE = define_text("statistics.rummy", "Went rummy")


@dataclass(frozen=True)
class AtOnce:
    """Going out all at once, nothing melded or laid off before (remi, rummy): the round
    counts ``factor`` times.  ``outcome`` is the key of its words in :data:`OUTCOME_LABELS`
    (rummy's "went rummy"); ``asked`` what the round form asks (an English display text
    with ``%(factor)s``), ``figure`` what the statistics call the rounds so won."""

    factor: int = 2
    outcome: str = "at_once"
    asked: str = AT_ONCE_ASKED
    figure: str = OUT_AT_ONCE_FIGURE


@dataclass(frozen=True)
class FixedJokers:
    """A deck whose jokers are fixed by the number of players rather than by its decks
    (contract: 1 joker for 3-4 players, 2 for 5-8; Three Thirteen's option)."""

    counts: Mapping[int, int]


@dataclass(frozen=True)
class Stopping:
    """A match with no fixed end that its players stop (MATCH_FORMAT: ``"stopped": true``;
    Indian rummy's format points, Rummikub without games or target).  ``winners(rules,
    totals, rounds won, seated)`` says who wins it (None: the highest total), ``words(rules)``
    says so in words (None: "the highest total wins")."""

    winners: StoppedHook | None = None
    words: StoppedWordsHook | None = None


class Ranking(enum.Enum):
    """Which end of the totals leads (outside a pool, which ranks by who is out)."""

    HIGHEST_TOTAL = "highest"
    LOWEST_TOTAL = "lowest"  # scores are penalty points


@dataclass(frozen=True)
class Closing:
    """A round the closer ends by discarding the closing card, which scores
    (``Bonuses.closing_card_factor``; remi-indonesia).  The dealer plays the first turn
    (``dealer_leads``), and a hand holds at most ``most_cards`` when the round is scored."""

    most_cards: int
    dealer_leads: bool = True


@dataclass(frozen=True)
class Knock:
    """A round a player may end by knocking with a hand worth ``limit`` or less (gin's
    deadwood, manipulation's hand; 0: only gin ends the round)."""

    limit: int


@dataclass(frozen=True)
class Deadwood:
    """Gin's knock: the knocker's unmelded cards are deadwood.  A hand given as points is
    its deadwood after lay-offs, as the players counted it, at most ``most``; with
    ``big_gin`` a knocker may hold one card more, all of them melded.  Every score of the
    round counts ``round_multiplier`` times (Oklahoma's spade upcard: 2)."""

    most: int
    big_gin: bool = False
    round_multiplier: int = 1


@dataclass(frozen=True)
class RoundKeys:
    """Keys of a final-table round that the game reads itself, in its ``check_round``
    (Canasta's melds keyed by side, its red 3s, going out concealed): the match file keeps
    them in :attr:`~referee.matchfile.RoundRecord.own` as ``canonical`` writes them (card
    codes in upper case; a malformed card refused), and writes them back so."""

    names: tuple[str, ...]
    canonical: Callable[[Mapping[str, Any]], Mapping[str, Any]] = lambda keys: dict(keys)


# (rules, totals before a round) -> what the game says of that round from the totals
# (Canasta's first-meld minimum of each side).
TotalsFactsHook = Callable[["Ruleset", Mapping[str, int]], Mapping[str, Any]]


@dataclass(frozen=True)
class FromTotals:
    """What a game says of each round from the totals before it (Canasta's first-meld
    minimums): the replay adds it to each counted round under ``key``, and the match's under
    ``next_key`` for the next round (MATCH_FORMAT: ``minimums``, ``next_minimums``); the
    scoreboard shows the next round's under ``label``."""

    key: str
    next_key: str
    facts: TotalsFactsHook
    # What the scoreboard says of the next round (English display text, with %(values)s:
    # "Budi 50, Siti 90").
    label: str = ""


@dataclass(frozen=True)
class Bonuses:
    """Every bonus number of a ruleset; 0 (or a factor of 1) where it has none."""

    closing_card_factor: int = 0  # the closer adds this many times the closing card's value
    undercut: int = 0  # a round winner who did not knock (manipulation 10, gin 25)
    empty_hand: int = 0  # a round winner with an empty hand (manipulation 25)
    gin: int = 0  # a gin (25)
    reaching_target: int = 0  # at the match end, each player at the target (manipulation 100)
    round_won: int = 0  # at the match end, every other player per round won (manipulation 25)
    big_gin: int = 0  # added to the gin bonus when all 11 cards are melded (gin)
    box: int = 0  # at the match end, every player per round won (gin's box bonus)
    game: int = 0  # at the match end, the winner (gin's game bonus)
    shutout: bool = False  # at the match end, the winner's total doubles if the other won none


@dataclass(frozen=True)
class EndingChoice:
    """One way a round can end, as a round form offers it.

    ``key`` is the form's value and the outcome's label key (``out``, ``closed``,
    ``knock``, ``blocked``, ``stock``, ``draw``, ``void``); ``names`` is the match-file
    key that names the player (``out``, ``closer``, ``knock``), ``None`` when the
    ending names nobody (``"end": ...``); ``hands`` whether the hands left are asked.
    ``label`` and ``who`` (the question naming the player) are English display texts.
    """

    key: str
    ending: Ending
    label: str
    who: str | None = None
    names: str | None = None
    hands: bool = True


OUT = EndingChoice(
    "out",
    Ending.OUT,
    define_text("ending.out", "Someone went out"),
    define_text("ending.out.who", "Who went out?"),
    "out",
)
CLOSED = EndingChoice(
    "closed",
    Ending.OUT,
    define_text("ending.closed", "Someone closed (discarded the last card)"),
    define_text("ending.closed.who", "Who closed?"),
    "closer",
)
KNOCK = EndingChoice(
    "knock",
    Ending.KNOCK,
    define_text("ending.knock", "Someone knocked"),
    define_text("ending.knock.who", "Who knocked?"),
    "knock",
)
BLOCKED = EndingChoice(
    "blocked",
    Ending.BLOCKED,
    define_text("ending.blocked", "Blocked (stock ran out twice, or 120 turns)"),
    hands=False,
)
STOCK = EndingChoice("stock", Ending.STOCK, define_text("ending.stock", "The stock ran out"))
DRAW = EndingChoice(
    "draw", Ending.DRAW, define_text("ending.draw", "Draw (2 cards left in the stock)"), hands=False
)
VOID = EndingChoice(
    "void",
    Ending.VOID,
    define_text("ending.void", "Void (misdeal, a card seen, an argument)"),
    hands=False,
)


@dataclass(frozen=True)
class FinalTable:
    """The answers of a round entered as its final table (see :class:`RoundForm`).

    ``ending`` is an :attr:`EndingChoice.key`; ``player`` who went out, closed or
    knocked; ``hands`` every player's cards left (card codes) or what the hand counts (an
    integer: docs/points.md; gin's deadwood after lay-offs); ``melds`` every player's
    melds in the order laid (``remi-indonesia``); ``knocker_melds`` the knocker's spread
    as made (``gin``, optional); ``inputs`` the answers to the round's inputs by name, as
    the match file writes them (``{"upcard": "5S"}``; see :meth:`Ruleset.round_inputs_for`).
    """

    ending: str
    player: str | None = None
    hands: Mapping[str, Sequence[str] | int] = field(default_factory=dict)
    at_once: bool = False
    closing_card: str | None = None
    melds: Mapping[str, Sequence[Sequence[str]]] = field(default_factory=dict)
    knocker_melds: Sequence[Sequence[str]] = ()
    inputs: Mapping[str, str] = field(default_factory=dict)
    # rummy500, contract: every meld at the end, as the match file's "table" writes it
    # ({"by": "Budi", "cards": [...], "layoffs": {"Siti": [...]}}).
    table: Sequence[Mapping[str, Any]] = ()


FINAL_TABLE = "final_table"  # the ending, the hands left and the table's melds
DEAL_END = "deal_end"  # who showed, the others' counts, drops and wrong shows (indian)
PHASE10_HAND = "phase10_hand"  # who went out, each player's phase laid and cards left (phase10)
SIDE_TABLE = "side_table"  # each side's melds (cards or counts) and red 3s, every hand (canasta)


@dataclass(frozen=True)
class RoundForm:
    """What a round entered as its final table asks for (MATCH_FORMAT.md, "final table only").

    ``endings`` in the order a form offers them; ``at_once`` whether "all at once"
    is asked (``remi``, ``rummy``); ``closing_card`` whether the closing card is
    (``remi-indonesia``); ``player_melds`` whether every player's melds are
    (``remi-indonesia``, with the hands); ``knocker_melds`` whether the knocker's
    own spread may be given (``gin``).

    >>> from referee.rulesets import find_ruleset
    >>> form = find_ruleset('remi').round_form
    >>> form.entry(FinalTable('out', 'Siti', {'Budi': ['10H'], 'Siti': []}, at_once=True))
    {'out': 'Siti', 'at_once': True, 'hands': {'Budi': ['10H']}}
    >>> form.entry(FinalTable('out', 'Siti', {'Budi': 24, 'Siti': 0}))
    {'out': 'Siti', 'at_once': False, 'hands': {'Budi': 24}}
    """

    endings: tuple[EndingChoice, ...]
    at_once: bool = False
    closing_card: bool = False
    player_melds: bool = False
    knocker_melds: bool = False
    table: bool = False  # every meld at the end with its owners (rummy500, contract)
    table_required: bool = False  # without the table the round cannot be scored (rummy500)
    kind: str = FINAL_TABLE  # which entry form a screen shows for the round

    def choice(self, key: str) -> EndingChoice:
        """The ending offered under ``key`` (``KeyError`` if there is none)."""
        for choice in self.endings:
            if choice.key == key:
                return choice
        raise KeyError(key)

    @property
    def live_endings(self) -> tuple[EndingChoice, ...]:
        """How a round entered turn by turn can end when no turn emptied a hand."""
        return tuple(choice for choice in self.endings if choice.ending is not Ending.OUT)

    def entry(self, answers: FinalTable) -> dict[str, Any]:
        """The round object of the match file that the answers describe.

        Whether it is a possible round is the replay's question; an ending that names
        a player needs one (``ValueError`` otherwise, as for an unknown ending).
        """
        choice = self.choice(answers.ending)
        if choice.names is None:
            entry: dict[str, Any] = {"end": choice.key}  # the match file's "end"
        elif not answers.player:
            raise ValueError(f"the ending {choice.key!r} names a player")
        else:
            entry = {choice.names: answers.player}
        entry.update({name: value for name, value in answers.inputs.items() if value})
        if not choice.hands:
            return entry
        out = answers.player if choice.ending is Ending.OUT else None
        if self.at_once and choice.ending is Ending.OUT:
            entry["at_once"] = bool(answers.at_once)
        if self.closing_card and choice.ending is Ending.OUT:
            entry["closing_card"] = answers.closing_card
        if self.player_melds:
            entry["melds"] = {
                player: [list(meld) for meld in melds]
                for player, melds in answers.melds.items()
                if melds
            }
        if self.table and answers.table:
            entry["table"] = [dict(meld) for meld in answers.table]
        if self.knocker_melds and choice.ending is Ending.KNOCK and answers.knocker_melds:
            entry["melds"] = {answers.player: [list(meld) for meld in answers.knocker_melds]}
        entry["hands"] = {
            player: _hand_entry(hand)
            for player, hand in answers.hands.items()
            if player != out or hand
        }
        return entry

    def answers(self, entry: Mapping[str, Any], inputs: Iterable[str] = ()) -> FinalTable | None:
        """The answers a stored final-table round object gives; ``None`` for a round entered
        turn by turn, or one this form does not offer.  ``inputs`` names the round inputs to
        read back (those of :meth:`Ruleset.round_inputs_for`)."""
        if "turns" in entry:
            return None
        choice = next((c for c in self.endings if c.names is not None and entry.get(c.names)), None)
        if choice is None:
            end = entry.get("end")
            choice = next((c for c in self.endings if c.names is None and c.key == end), None)
        if choice is None:
            return None
        player = entry.get(choice.names) if choice.names is not None else None
        melds = entry.get("melds") or {}
        return FinalTable(
            choice.key,
            player,
            {name: _hand_entry(hand) for name, hand in (entry.get("hands") or {}).items()},
            bool(entry.get("at_once")),
            entry.get("closing_card"),
            {} if not self.player_melds else {name: list(m) for name, m in melds.items()},
            melds.get(player, ()) if self.knocker_melds and player else (),
            {name: entry[name] for name in inputs if entry.get(name) is not None},
            list(entry.get("table") or ()) if self.table else (),
        )


def _hand_entry(hand: Sequence[str] | int) -> list[str] | int:
    """A hand as the match file writes it: its card codes, or the points it counts."""
    return hand if isinstance(hand, int) else list(hand)


OUTCOME_LABELS = {
    "out": define_text("outcome.out", "went out"),
    "closed": define_text("outcome.closed", "closed"),
    "at_once": define_text("outcome.at_once", "went out at once ×%(factor)s"),
    "rummy": define_text("outcome.rummy", "went rummy ×%(factor)s"),
    "knock": define_text("outcome.knock", "knock"),
    "gin": define_text("outcome.gin", "gin"),
    "undercut": define_text("outcome.undercut", "undercut"),
    "blocked": define_text("outcome.blocked", "blocked"),
    "stock": define_text("outcome.stock", "stock ran out"),
    "draw": define_text("outcome.draw", "draw"),
    "void": define_text("outcome.void", "void"),
    "show": define_text("outcome.show", "valid show"),
    "last_in": define_text("outcome.last_in", "the others dropped out"),
}
"""The outcomes of replayed rounds in words (English display texts), by
:meth:`Ruleset.outcome_key`."""


@dataclass(frozen=True)
class Ruleset:
    """One game of the rummy family: its data and its hooks.

    ``name`` and ``description`` are English display texts (see
    :func:`~referee.messages.define_text`).  The deck is ``decks`` 52-card decks
    (per number of players; one when not given) with ``jokers_per_deck`` jokers each, or
    the jokers :class:`FixedJokers` gives.

    >>> from referee.rulesets import find_ruleset
    >>> find_ruleset('remi').deal_size(3)
    7
    """

    id: str
    name: str
    min_players: int
    max_players: int
    deal_sizes: Mapping[int, int]
    round_form: RoundForm = RoundForm((OUT, VOID))
    description: str = ""
    decks: Mapping[int, int] = field(default_factory=dict)
    jokers_per_deck: int = 0
    values: tuple[int, ...] = FACE_VALUES
    joker_value: int = 0
    ace_order: AceOrder = AceOrder.LOW
    layoffs: bool = True
    target: int | None = 100
    target_presets: tuple[int, ...] = ()  # targets a match setup offers besides the default
    hands: int | None = None
    must_discard: bool = False
    # The house rules (see :mod:`referee.rulesets.options`); none given: the target alone.
    option_table: tuple[Option, ...] = ()
    presets: tuple[Preset, ...] = ()  # the first is the standard rules, {}
    round_inputs: tuple[RoundInput, ...] = ()
    # The options in force once :meth:`with_options` applied them (empty on the plain
    # ruleset: its data are the standard rules).
    settings: Mapping[str, Any] = field(default_factory=dict, compare=False)
    turn_style: TurnStyle = TurnStyle.MELDS
    discard: DiscardPile = DiscardPile()  # taking from the discard pile
    runs: Runs = Runs()  # what makes a run
    melding: Melding = Melding()  # what else a player may lay, and when
    closing: Closing | None = None  # a round closed by a closing card (remi-indonesia)
    knock: Knock | None = None  # a round may end by a knock (gin, manipulation)
    bonuses: Bonuses = Bonuses()
    hand_size: HandSize | None = None  # the cards a hand holds when scored, if fixed
    # What a hand entered as points leaves unchecked: a message with {player}, {points},
    # {cards} (the most cards a hand holds) and {rules}; for gin's deadwoods one message
    # for the round with {counted} ("Budi 7, Siti 22").
    points_unchecked: str = POINTS_UNCHECKED
    deadwood: Deadwood | None = None  # a knock's deadwood (gin); None: hands count their cards
    at_once: AtOnce | None = None  # going out all at once counts more (remi, rummy)
    menu_order: int = 100  # where the ruleset comes in lists
    no_ending_message: str = NO_ENDING  # the message key for a round that states no ending
    score_round: ScoreHook = field(default=winner_takes_hands, compare=False, repr=False)
    next_dealer: DealerHook = field(default=dealer_moves_clockwise, compare=False, repr=False)
    match_end: MatchEndHook = field(default=first_to_target, compare=False, repr=False)
    # The ruleset for one round, given the round's inputs (gin's Oklahoma upcard).
    round_rules: RoundRulesHook = field(default=same_every_round, compare=False, repr=False)
    stopping: Stopping | None = None  # no fixed end: the players stop the match
    check_round: RoundCheckHook | None = field(default=None, compare=False, repr=False)
    pool: Pool | None = field(default=None, compare=False, repr=False)  # players put out
    fixed_jokers: FixedJokers | None = None  # jokers by players, not by decks
    buying: Buying | None = None  # refused discards may be bought
    # Every game ranks its players by their totals, one end or the other leading: penalty
    # points (contract, Three Thirteen, Phase 10) rank the lowest first.
    ranking: Ranking = Ranking.HIGHEST_TOTAL
    # Every game plays rounds; some call each one a deal (contract's seven, Three Thirteen's
    # eleven, Indian rummy's), which is how the pages count them.
    round_is_a_deal: bool = False
    contract: Contract | None = None  # what going down lays in this deal
    # The ruleset for one deal, given its number among the deals counted (contract's deals).
    deal_rules: DealRulesHook = field(default=same_every_deal, compare=False, repr=False)
    sheet_columns: SheetColumnsHook | None = field(default=None, compare=False, repr=False)
    round_facts: RoundFactsHook | None = field(default=None, compare=False, repr=False)
    tracker: Tracker | None = field(default=None, compare=False, repr=False)
    round_keys: RoundKeys | None = field(default=None, compare=False, repr=False)
    from_totals: FromTotals | None = field(default=None, compare=False, repr=False)
    sides: Sides | None = None  # partnerships (see :class:`Sides`); None: each player alone
    replay_facts: ReplayFactsHook | None = field(default=None, compare=False, repr=False)
    pieces: Pieces | None = field(default=None, compare=False, repr=False)  # not cards

    def __post_init__(self) -> None:
        if not self.option_table and self.target is not None:
            table = (target_option(self.id, self.target, 1, 100000),)
            object.__setattr__(self, "option_table", table)
        if not self.presets:
            object.__setattr__(self, "presets", (STANDARD,))

    @property
    def endings(self) -> frozenset[Ending]:
        """How a round may end (the endings its round form offers)."""
        return frozenset(choice.ending for choice in self.round_form.endings)

    @property
    def piece_reader(self) -> Callable[[str], Any] | None:
        """How the match file reads one of the game's pieces, where it reads them one by
        one (Rummikub's tiles); None for playing cards."""
        return self.pieces.read if self.pieces is not None else None

    @property
    def round_reader(self) -> RoundReader | None:
        """How the match file reads a whole round in the game's own notation (Phase 10);
        None where its keys are the shared ones."""
        return self.pieces.read_round if self.pieces is not None else None

    @property
    def seating_may_change(self) -> bool:
        """Whether players may join or leave a match between rounds (not in a game for an
        exact number of players, such as gin, nor in a game of sides: Canasta takes no late
        players)."""
        return self.min_players != self.max_players and self.sides is None

    @property
    def buys_per_deal(self) -> int:
        """How often a player may buy a refused discard in one deal (0: never)."""
        return self.buying.per_deal if self.buying is not None else 0

    @property
    def melds_going_down(self) -> int | None:
        """How many melds going down lays, where the deal's contract fixes it."""
        return self.contract.sets + self.contract.runs if self.contract is not None else None

    @property
    def contracts_unchecked_without_table(self) -> bool:
        """Whether a round entered without its final table leaves the contracts unchecked
        (contract rummy, whose table is optional)."""
        return self.contract is not None and not self.round_form.table_required

    @property
    def changes_by_deal(self) -> bool:
        """Whether each deal is played by rules of its own (contract rummy's contracts and
        deal sizes): see :meth:`for_deal`."""
        return self.deal_rules is not same_every_deal

    @property
    def elimination_limit(self) -> int | None:
        """The total that puts a player out of the match (a pool's 101 or 201), if any."""
        limits = self.pool.limits(self) if self.pool is not None else None
        return limits[0] if limits is not None else None

    def players_dealt(self, totals: Mapping[str, int], seated: tuple[str, ...]) -> tuple[str, ...]:
        """The seated players dealt in: all of them, but in a pool those still in it."""
        if self.pool is None:
            return seated
        return self.pool.deal_players(self, totals, seated)

    def rejoin_totals(
        self,
        players: tuple[str, ...],
        totals: Mapping[str, int],
        before: Mapping[str, int],
        seated: tuple[str, ...],
        came_back: frozenset[str],
    ) -> dict[str, int]:
        """The totals ``players`` come back into a pool with (``before``: the totals before
        the last counted deal), or :class:`RuleError` saying why they may not."""
        if self.pool is None:
            raise RuleError(NO_REJOIN, rules=self.name)
        return self.pool.rejoin_totals(self, players, totals, before, seated, came_back)

    @property
    def jokers(self) -> bool:
        return any(self.joker_count(n) for n in range(self.min_players, self.max_players + 1))

    @property
    def counts_at_once(self) -> bool:
        """Whether going out all at once changes the round's score."""
        return self.at_once_factor != 1

    @property
    def at_once_factor(self) -> int:
        """How many times a round won all at once counts (1: no more than another)."""
        return self.at_once.factor if self.at_once is not None else 1

    @property
    def open_ended(self) -> bool:
        """Whether the match has no fixed end: its players stop it (:class:`Stopping`)."""
        return self.stopping is not None

    @property
    def every_hand_holds(self) -> int | None:
        """How many cards every hand holds when the round is scored, where the game fixes
        it (gin's 10); None where a hand holds what is left of it."""
        return self.hand_size.exact if self.hand_size is not None else None

    @property
    def target_choices(self) -> tuple[int, ...]:
        """The targets a match setup offers: the presets and the default, in order."""
        return tuple(sorted({*self.target_presets, *([self.target] if self.target else [])}))

    def outcome_key(self, outcome: Outcome, at_once: bool = False) -> str:
        """The key of a round outcome's words in :data:`OUTCOME_LABELS`: ``at_once`` for a
        round won all at once, ``closed`` for going out where a closing card closes."""
        if outcome is Outcome.OUT and at_once and self.at_once is not None and self.counts_at_once:
            return self.at_once.outcome
        if outcome is Outcome.OUT and self.closing is not None:
            return "closed"
        return outcome.value

    def value(self, card: Card) -> int:
        """What a card held in hand counts."""
        if card.is_joker:
            return self.joker_value
        assert card.rank is not None
        return self.values[card.rank - 1]

    def hand_value(self, cards: Iterable[Card]) -> int:
        return sum(self.value(card) for card in cards)

    def deal_size(self, players: int) -> int:
        return self.deal_sizes[players]

    @property
    def points_are_deadwood(self) -> bool:
        """Whether a hand entered as points is a deadwood after lay-offs (gin)."""
        return self.deadwood is not None

    def deck_size(self, players: int) -> int:
        return 52 * self.copies(players) + self.joker_count(players)

    def most_cards_held(self, players: int) -> int:
        """The most cards one hand can hold when a round of ``players`` is scored."""
        if self.every_hand_holds is not None:
            return self.every_hand_holds
        if self.closing is not None:
            return self.closing.most_cards
        if self.hand_size is not None and self.hand_size.never_grows:
            return self.deal_size(players)
        if self.discard.depth == 0:  # no discard pile: only the own deal and the stock
            return self.deck_size(players) - self.deal_size(players) * (players - 1)
        return self.deck_size(players)

    def deck_values(self, players: int) -> tuple[int, ...]:
        """What every card of the deck counts in hand, highest first."""
        copies = self.copies(players)
        values = [value for value in self.values for _ in range(4 * copies)]
        values += [self.joker_value] * self.joker_count(players)
        return tuple(sorted(values, reverse=True))

    def most_hand_points(self, players: int) -> int:
        """The most a hand entered as points can count (gin: the most deadwood)."""
        if self.deadwood is not None:
            return self.deadwood.most
        return sum(self.deck_values(players)[: self.most_cards_held(players)])

    def possible_hand_points(self, players: int) -> frozenset[int]:
        """Every total that the cards of one hand can count (gin: ``range`` of deadwoods)."""
        if self.deadwood is not None:
            return frozenset(range(self.deadwood.most + 1))
        return _sums_of_at_most(self.deck_values(players), self.most_cards_held(players))

    def copies(self, players: int) -> int:
        """How many copies of each natural card the deck holds."""
        return self.decks.get(players, 1)

    def joker_count(self, players: int) -> int:
        if self.fixed_jokers is not None:
            return self.fixed_jokers.counts.get(players, 0)
        return self.jokers_per_deck * self.copies(players)

    @property
    def most_copies(self) -> int:
        """The most copies of a card the deck holds, whatever the number of players."""
        return max(self.copies(n) for n in range(self.min_players, self.max_players + 1))

    @property
    def most_jokers(self) -> int:
        return max(self.joker_count(n) for n in range(self.min_players, self.max_players + 1))

    def verify_players(self, count: int) -> None:
        """Refuse a number of players the game, or an option in force, is not for."""
        for declared in self.option_table:
            value = self.settings.get(declared.name, declared.default_for(self.settings))
            most = next((n for v, n in declared.most_players.items() if same_value(value, v)), None)
            if most is not None and count > most:
                raise RuleError(
                    OPTION_PLAYERS,
                    label=_label(declared),
                    option=declared.name,
                    value=show_value(value),
                    most=most,
                    count=count,
                )
        if not self.min_players <= count <= self.max_players:
            if self.min_players == self.max_players:
                raise RuleError(
                    PLAYER_COUNT_EXACT, rules=self.id, low=self.min_players, count=count
                )
            raise RuleError(
                PLAYER_COUNT,
                rules=self.id,
                low=self.min_players,
                high=self.max_players,
                count=count,
            )

    # -- house rules ------------------------------------------------------------------------

    @property
    def options(self) -> tuple[str, ...]:
        """The names of the options this ruleset takes, in declaration order."""
        return tuple(declared.name for declared in self.option_table)

    def declared(self, name: str) -> Option:
        """The declaration of option ``name`` (:class:`RuleError` if there is none)."""
        for declared in self.option_table:
            if declared.name == name:
                return declared
        raise RuleError(
            UNKNOWN_OPTION, rules=self.id, option=name, known=", ".join(self.options) or "none"
        )

    def check_options(
        self, options: Mapping[str, Any] | None, *, as_played: bool = False
    ) -> dict[str, Any]:
        """A validated copy of a match's options, or :class:`RuleError` saying what is wrong:
        an unknown option, a value of the wrong type, out of range or not one of the choices,
        an option that does not apply to the other options, or a refused combination.

        ``as_played``: the options of a match stored before the option ranges existed, read
        as it was played: a number out of its range is kept as recorded
        (:meth:`Option.accepts_as_played`); everything else is checked as for a new match.
        Only a stored match is read so; a new one (a setup, a match file) never is.

        >>> from referee.rulesets import find_ruleset
        >>> find_ruleset('gin').check_options({'oklahoma': True, 'knock_limit': 7})
        Traceback (most recent call last):
        ...
        referee.errors.RuleError: the house rule Knock limit (knock_limit) cannot be used with Oklahoma (oklahoma: true)
        """
        checked: dict[str, Any] = {}
        for name, value in (options or {}).items():
            declared = self.declared(name)
            if not declared.accepts(value) and not (
                as_played and declared.accepts_as_played(value)
            ):
                raise option_refusal(declared, value)
            checked[name] = value
        everything = self._with_defaults(checked)
        for name in checked:
            declared = self.declared(name)
            if not holds(declared.requires, everything):
                raise RuleError(
                    OPTION_NOT_APPLICABLE,
                    label=_label(declared),
                    option=name,
                    condition=self._settings(declared.requires),
                )
            if declared.excludes and holds(declared.excludes, everything):
                raise RuleError(
                    OPTION_EXCLUDED,
                    label=_label(declared),
                    option=name,
                    condition=self._settings(declared.excludes),
                )
        self._check_order(everything)
        return checked

    def _check_order(self, everything: Mapping[str, Any]) -> None:
        """Refuse an option above the one it may not exceed (its ``at_most``), defaults
        counting as given."""
        for declared in self.option_table:
            if not declared.at_most or not declared.applies(everything):
                continue
            other = self.declared(declared.at_most)
            value, other_value = everything[declared.name], everything[other.name]
            if value is not None and other_value is not None and value > other_value:
                raise RuleError(
                    OPTION_ABOVE,
                    label=_label(declared),
                    option=declared.name,
                    value=show_value(value),
                    other_label=_label(other),
                    other=other.name,
                    other_value=show_value(other_value),
                )

    def _with_defaults(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value, given or default (dependent defaults applied), whether it
        applies or not."""
        values = {
            declared.name: options.get(declared.name, declared.default)
            for declared in self.option_table
        }
        for declared in self.option_table:
            if declared.default_when and declared.name not in options:
                values[declared.name] = declared.default_for(values)
        return values

    def _settings(self, condition: Mapping[str, Any]) -> list[Reason]:
        settings = []
        for name, value in condition.items():
            declared = self.declared(name)
            settings.append(
                Reason.of(
                    OPTION_SETTING, label=_label(declared), option=name, value=show_value(value)
                )
            )
        return settings

    def options_in_force(
        self, options: Mapping[str, Any] | None = None, *, as_played: bool = False
    ) -> dict[str, Any]:
        """Every option that applies, with its value: given, or its default (dependent
        defaults applied).  ``options`` are checked first (:meth:`check_options`, which
        says what ``as_played`` reads leniently).

        >>> from referee.rulesets import find_ruleset
        >>> find_ruleset('gin').options_in_force({'oklahoma': True})['target']
        150
        """
        values = self._with_defaults(self.check_options(options, as_played=as_played))
        return {
            declared.name: values[declared.name]
            for declared in self.option_table
            if declared.applies(values)
        }

    def house_rules(
        self, options: Mapping[str, Any] | None = None, *, as_played: bool = False
    ) -> tuple[tuple[Option, Any], ...]:
        """The options whose value differs from the standard rules, in declaration order
        (an option whose default follows another, as gin's target with Oklahoma, differs
        only from that default).

        >>> from referee.rulesets import find_ruleset
        >>> [(o.name, v) for o, v in find_ruleset('gin').house_rules({'gin_bonus': 20})]
        [('gin_bonus', 20)]
        """
        in_force = self.options_in_force(options, as_played=as_played)
        return tuple(
            (declared, in_force[declared.name])
            for declared in self.option_table
            if declared.name in in_force
            and not same_value(in_force[declared.name], declared.default_for(in_force))
        )

    def round_inputs_for(
        self, options: Mapping[str, Any] | None = None, *, as_played: bool = False
    ) -> tuple[RoundInput, ...]:
        """The per-round inputs a match with these options asks (gin's ``upcard`` with
        Oklahoma)."""
        in_force = self.options_in_force(options, as_played=as_played)
        return tuple(asked for asked in self.round_inputs if asked.asked(in_force))

    def with_options(
        self, options: Mapping[str, Any] | None, *, as_played: bool = False
    ) -> Ruleset:
        """This ruleset with a match's options checked (:meth:`check_options`, which says
        what ``as_played`` reads leniently) and applied; missing ones take their defaults.

        With ``hands`` the match ends after that many rounds, whatever ``target`` says.
        """
        in_force = self.options_in_force(options, as_played=as_played)
        result = self
        for declared in self.option_table:
            if declared.name in in_force:
                result = declared.apply(result, in_force[declared.name])
        return replace(result, settings=in_force)

    def for_round(self, inputs: Mapping[str, Any]) -> Ruleset:
        """The rules of one round, given its inputs (see :attr:`round_inputs`)."""
        return self.round_rules(self, inputs)

    def for_deal(self, deal: int) -> Ruleset:
        """The rules of deal number ``deal`` (1-based, void rounds not counted): contract
        rummy's contract and deal size."""
        return self.deal_rules(self, deal)

    @property
    def stopped_standing(self) -> Reason:
        """Who wins when the players stop the match, in words (:class:`Stopping`)."""
        if self.stopping is None or self.stopping.words is None:
            return Reason.of(STOPPED_HIGHEST_TOTAL)
        return self.stopping.words(self)

    @property
    def lowest_total_wins(self) -> bool:
        """Whether the lowest total leads (penalty points), outside a pool."""
        return self.ranking is Ranking.LOWEST_TOTAL

    def match_length(self, rounds: int) -> Reason:
        """How a match of ``rounds`` rounds reads: "7 deals", "10 rounds"."""
        return Reason.of(DEALS_LONG if self.round_is_a_deal else ROUNDS_LONG, count=rounds)

    def fixed_goal(self) -> Reason | None:
        """What a match of a fixed number of rounds is, in words ("The match is 7 deals;
        the lowest total wins."); None for a match to a target or with no fixed end."""
        if self.hands is None:
            return None
        if self.round_is_a_deal:
            key = FIXED_DEALS_LOWEST if self.lowest_total_wins else FIXED_DEALS
        else:
            key = FIXED_ROUNDS_LOWEST if self.lowest_total_wins else FIXED_ROUNDS
        return Reason.of(key, count=self.hands)

    def describe_goal(self) -> str:
        """The match goal in a few English words, for text output."""
        if self.hands is not None:
            return f"{self.hands} rounds"
        return f"target {self.target}"


@cache
def _sums_of_at_most(values: tuple[int, ...], cards: int) -> frozenset[int]:
    """Every sum of at most ``cards`` of ``values`` (each used once): a bitset per count."""
    by_count = [1] + [0] * cards  # by_count[k]: bit s set when k cards can add up to s
    for value in values:
        for count in range(cards, 0, -1):
            by_count[count] |= by_count[count - 1] << value
    reachable = 0
    for sums in by_count:
        reachable |= sums
    return frozenset(s for s in range(reachable.bit_length()) if reachable >> s & 1)


def _label(declared: Option) -> Reason | str:
    """An option's label, translated with the message when it was registered."""
    key = f"{declared.text_key}.label"
    return Reason.of(key) if declared.text_key else declared.label


def option_refusal(declared: Option, value: Any) -> RuleError:
    """The refusal of ``value`` for an option that does not accept it, in its own words."""
    shown = show_value(value) if not isinstance(value, str) else value
    label = _label(declared)
    if declared.type is OptionType.SWITCH:
        return RuleError(OPTION_NOT_SWITCH, label=label, option=declared.name, value=shown)
    if declared.type is OptionType.CHOICE:
        choices = ", ".join(show_value(choice) for choice in declared.choices)
        return RuleError(
            OPTION_NOT_A_CHOICE, label=label, option=declared.name, choices=choices, value=shown
        )
    key = (
        OPTION_OUT_OF_RANGE
        if isinstance(value, int) and not isinstance(value, bool)
        else (OPTION_NOT_NUMBER)
    )
    return RuleError(
        key,
        label=label,
        option=declared.name,
        minimum=declared.minimum,
        maximum=declared.maximum,
        value=shown,
    )
