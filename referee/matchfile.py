"""Reading and writing the ``referee-match/1`` document (see MATCH_FORMAT.md).

:func:`read_match` turns a document (JSON text, bytes or an already parsed
mapping) into a :class:`Match`: the :class:`MatchHeader` (ruleset with its
options applied, players in seating order, first dealer) and one
:class:`RoundRecord` per round, exactly as entered but with every card read
into a :class:`~referee.cards.Card` and every name checked against the
players.  Anything malformed raises :class:`~referee.errors.MatchFileError`
(or :class:`~referee.errors.NotationError` for a bad card, or
:class:`~referee.errors.RuleError` for an unknown ruleset, option or player
count) carrying the 1-based round and turn where it is.  Unknown keys are
ignored.

Whether the rounds follow the rules is not checked here: that is the replay's
job (:func:`referee.match.replay`).  The cards of a meld may be written in any
order; a meld shaped like a run is read (and so written back) in rank order.

:func:`dump_match` writes the canonical document back (canonical card
strings, only the keys that carry information), so that
``read_match(dump_match(read_match(doc)))`` equals ``read_match(doc)``.

>>> match = read_match('{"rules": "remi", "players": ["Budi", "Siti"], '
...                    '"rounds": [{"out": "Siti", "hands": {"Budi": ["th", "qs"]}}]}')
>>> match.header.first_dealer, match.rounds[0].hands
('Budi', {'Budi': (Card.parse('10H'), Card.parse('QS'))})
>>> dump_match(match)["rounds"]
[{'out': 'Siti', 'hands': {'Budi': ['10H', 'QS']}}]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee import jsonread
from referee.cards import Card
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.melds import in_rank_order
from referee.messages import define_message
from referee.notation import format_card, parse_card, parse_cards
from referee.rulesets import Ruleset, find_ruleset
from referee.rulesets.base import DEAL_END, seat_after

FORMAT = "referee-match/1"
ENDS = ("blocked", "stock", "draw", "void")

NOT_JSON = define_message(
    "file.not_json", "the match file is not valid JSON: {detail} at line {line}, column {column}"
)
TOO_DEEP = define_message(
    "file.too_deep", "the match file is not valid JSON: it is nested too deeply"
)
NOT_TEXT = define_message("file.not_text", "the match file is not UTF-8 text")
NUMBER_TOO_LONG = define_message(
    "file.number_too_long", "the match file has a number of more than {limit} digits"
)
NOT_A_MATCH = define_message(
    "file.not_a_match",
    'a match file is a JSON object with "rules", "players" and "rounds"',
)
WRONG_FORMAT = define_message(
    "file.wrong_format", 'this is not a {expected} match file: its "format" is "{found}"'
)
MISSING_KEY = define_message("file.missing_key", 'the match file needs "{field}"')
TURN_NEEDS_PLAYER = define_message("file.turn_needs_player", 'a turn needs "player": who played it')
LAYOFF_NEEDS = define_message(
    "file.layoff_needs", 'a lay-off needs "cards" and "onto" (the number of the meld)'
)
ROUND_NOT_OBJECT = define_message(
    "file.round_not_object", 'each round is a JSON object (with "turns" or the final "hands")'
)
TURN_NOT_OBJECT = define_message(
    "file.turn_not_object", 'each turn is a JSON object with "player" and what was played'
)
TOO_FEW_PLAYERS = define_message(
    "file.too_few_players", "a match needs 2 or more players, not {count}"
)
EMPTY_NAME = define_message("file.empty_name", "a player's name cannot be empty")
DUPLICATE_PLAYER = define_message(
    "file.duplicate_player", "{player} is listed twice among the players"
)
UNKNOWN_PLAYER = define_message(
    "file.unknown_player", '"{name}" is not a player in this match; the players are {players}'
)
UNKNOWN_END = define_message(
    "file.unknown_end", '"end" must be "blocked", "stock", "draw" or "void", not "{value}"'
)
MELD_NUMBER = define_message(
    "file.meld_number", '"onto" must be the number of a meld (1, 2, 3 ...), not {value}'
)
TEAMS_NOT_PLAYED = define_message(
    "file.teams_not_played", '{rules} is not played in teams: leave out "teams"'
)
TEAMS_NOT_WITH_COUNT = define_message(
    "file.teams_not_with_count",
    '{rules} with {count} players is played without teams, each player alone: leave out "teams"',
)
TEAMS_MISSING = define_message(
    "file.teams_missing",
    '{rules} with {count} players is played by teams of {size} partners: give "teams", like '
    '{{"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}}',
)
MUST_BE_TEAMS = define_message(
    "file.must_be_teams",
    '"teams" must give each team\'s name and its players, like {{"Kita": ["Budi", "Andi"], '
    '"Mereka": ["Siti", "Dewi"]}}',
)
TEAM_EMPTY_NAME = define_message("file.team_empty_name", "a team's name cannot be empty")
TEAM_NAME_TWICE = define_message(
    "file.team_name_twice", "two teams are named {team}: each team has a name of its own"
)
TEAM_NAMED_AS_PLAYER = define_message(
    "file.team_named_as_player",
    "the team {team} has the name of a player: a team's name differs from every player's",
)
TEAM_SIZE = define_message(
    "file.team_size", "the team {team} has {count} players: each team is {size} partners"
)
PLAYER_IN_TWO_TEAMS = define_message(
    "file.player_in_two_teams", "{player} is in two teams, {first} and {second}"
)
PLAYER_IN_NO_TEAM = define_message(
    "file.player_in_no_team", "{player} is in no team: every player is a partner in one team"
)
TEAMS_NOT_ALTERNATE = define_message(
    "file.teams_not_alternate",
    "partners sit opposite, so the teams alternate round the table: seat the players as "
    "{example}, not {players}",
)
TEAMS_SEATING_FIXED = define_message(
    "file.teams_seating_fixed",
    "a match played in teams keeps its seating from start to end: nobody can join or leave; "
    "start a new match instead",
)

# What a field must be, each a whole sentence so that it translates as one.
MUST_BE_NAME = define_message("file.must_be_name", '"{field}" must be a player\'s name')
MUST_BE_NAMES = define_message("file.must_be_names", '"{field}" must be a list of player names')
MUST_BE_OBJECT = define_message("file.must_be_object", '"{field}" must be a JSON object')
MUST_BE_LIST = define_message("file.must_be_list", '"{field}" must be a list')
MUST_BE_BOOL = define_message("file.must_be_bool", '"{field}" must be true or false')
MUST_BE_CARDS = define_message(
    "file.must_be_cards", '"{field}" must be a list of cards, like ["7S", "8S", "9S"]'
)
MUST_BE_CARD = define_message("file.must_be_card", '"{field}" must be one card, like "7S"')
MUST_BE_MELDS = define_message(
    "file.must_be_melds",
    '"{field}" must be a list of melds, each a list of cards, like [["7S", "8S", "9S"]]',
)
MUST_BE_HANDS = define_message(
    "file.must_be_hands",
    '"{field}" must be an object giving each player\'s cards, like {{"Siti": ["KH", "2C"]}}',
)
MUST_BE_HAND = define_message(
    "file.must_be_hand",
    '{player}\'s hand must be the cards left, like ["KH", "2C"], or what they count, '
    "a whole number like 24",
)
NEGATIVE_POINTS = define_message(
    "file.negative_points",
    "{player}'s hand cannot count {points}: a hand counts 0 points or more",
)
SEATING_NOT_LIST = define_message(
    "file.seating_not_list",
    '"seating_changes" must be a list of changes, each like {{"before_round": 4, "players":'
    ' ["Budi", "Dewi", "Siti"]}}',
)
SEATING_ROUND = define_message(
    "file.seating_round",
    '"before_round" of a seating change must be a round number from 2 on, each change after the'
    " one before it, not {value}",
)
SEATING_TOO_LATE = define_message(
    "file.seating_too_late",
    "the seating changes before round {number}, but the match has {rounds} rounds: a seating"
    " changes before the next round at the latest",
)
SIDES_SEATING_FIXED = define_message(
    "seating.sides_fixed",
    "{rules} keeps its seating from start to end: nobody joins late nor leaves (the sides are "
    "fixed); start a new match instead",
)
SEATING_FIXED = define_message(
    "seating.fixed",
    "{rules} is played by exactly {count} players from start to end: nobody can join or leave"
    " a match; start a new match instead",
)
SEATING_COUNT = define_message(
    "seating.count",
    "{rules} is played by {low} to {high} players: the table would have {count}",
)
SEATING_UNCHANGED = define_message(
    "seating.unchanged", "the seating before round {number} is the same as before"
)
SEATING_NOBODY_STAYS = define_message(
    "seating.nobody_stays",
    "a match goes on with at least one of its players; with everyone new, start a new match",
)
SEATING_ORDER = define_message(
    "seating.order",
    "the players who stay keep their seats: {players}, in this order clockwise",
)
NOT_SEATED = define_message(
    "file.not_seated",
    '"{name}" is not at the table in round {number}; the players then are {players}',
)
INPUT_MISSING = define_message(
    "file.input_missing", 'give "{field}" for this round ({label}): {explanation}'
)
INPUT_NOT_ASKED = define_message(
    "file.input_not_asked",
    '"{field}" is not recorded in this match: {rules} asks for it only with other house rules',
)
MUST_BE_DROPS = define_message(
    "file.must_be_drops",
    '"drops" must say, for each player who dropped, "first" or "middle", like {{"Andi": "first"}}',
)
STOPPED_NOT_OPEN = define_message(
    "file.stopped_not_open",
    '"stopped" ends a match that has no fixed end; this match ends by its own rules',
)
MUST_BE_PLAYER_MELDS = define_message(
    "file.must_be_player_melds",
    '"{field}" must be an object giving each player\'s melds, like {{"Siti": [["7S", "8S", "9S"]]}}',
)

MUST_BE_TABLE = define_message(
    "file.must_be_table",
    '"table" must be a list of the melds on the table, each like {{"by": "Budi", "cards": '
    '["7S", "8S", "9S"], "layoffs": {{"Siti": ["10S"]}}}}',
)
TABLE_MELD_NEEDS = define_message(
    "file.table_meld_needs",
    'meld {number} of the table needs "by" (who laid it) and "cards" (the cards they laid)',
)
MUST_BE_LAYOFFS_BY = define_message(
    "file.must_be_layoffs_by",
    '"layoffs" of meld {number} must give the cards each player laid off on it, like '
    '{{"Siti": ["10S"]}}',
)
MUST_BE_BUY = define_message(
    "file.must_be_buy",
    '"buy" must say who bought the discard and which card it was, like {{"player": "Andi", '
    '"card": "7H"}}',
)


@dataclass(frozen=True)
class SeatingChange:
    """From round ``before_round`` on, ``players`` sit at the table, clockwise.

    Who joined and who left is the difference with the seating before; the
    players who stay keep their order.
    """

    before_round: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class Team:
    """A side of a match: a team of partners, or a player alone (named by their name)."""

    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class MatchHeader:
    """Who plays what: the ruleset (options applied) and the seating, clockwise.

    ``players`` sit at the table in round 1 (in the header of one round, as
    :meth:`at_round` gives it: in that round); ``seating_changes`` say who
    joins or leaves between rounds.
    """

    rules: Ruleset
    players: tuple[str, ...]
    first_dealer: str
    options: Mapping[str, Any] = field(default_factory=dict)
    seating_changes: tuple[SeatingChange, ...] = ()
    stopped: bool = False  # the players ended a match that has no fixed end
    # The players seated in the round when only some of them are dealt in (a pool leaves
    # out the players out of it); empty when every seated player plays.
    seated: tuple[str, ...] = ()
    # In the header of one round: what the game carries into it (its Tracker's state).
    carried: Any = field(default=None, compare=False, repr=False)
    # The teams, where the ruleset plays in sides with this many players (Canasta's two
    # partnerships); empty when every player is a side of their own.
    teams: tuple[Team, ...] = ()

    @property
    def sides(self) -> tuple[Team, ...]:
        """Every side of the match: its teams, or each player who sat at the table alone."""
        return self.teams or tuple(Team(player, (player,)) for player in self.everyone)

    def side_of(self, player: str) -> str:
        """The name of ``player``'s side: their team's, or their own."""
        return next((team.name for team in self.teams if player in team.members), player)

    def sides_of(self, players: Sequence[str]) -> tuple[str, ...]:
        """The sides of ``players`` (the seated ones, say), each once, in their order."""
        return tuple(dict.fromkeys(self.side_of(player) for player in players))

    def members(self, side: str) -> tuple[str, ...]:
        """The players of ``side``: a team's partners, or the player alone."""
        return next((team.members for team in self.teams if team.name == side), (side,))

    def seat_after(self, player: str, seats: int = 1) -> str:
        """Who sits ``seats`` places clockwise after ``player``."""
        return seat_after(self.players, player, seats)

    def seating(self, number: int) -> tuple[str, ...]:
        """Who sits at the table in round ``number``, clockwise."""
        seated = self.players
        for change in self.seating_changes:
            if change.before_round <= number:
                seated = change.players
        return seated

    def at_round(self, number: int | None) -> MatchHeader:
        """The header of round ``number``: its players are the ones seated then."""
        if not self.seating_changes or number is None:
            return self
        return replace(self, players=self.seating(number), seating_changes=())

    def change_before(self, number: int) -> SeatingChange | None:
        return next((c for c in self.seating_changes if c.before_round == number), None)

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every player who sits at the table in some round: round 1's, then who joined."""
        names = list(self.players)
        for change in self.seating_changes:
            names.extend(name for name in change.players if name not in names)
        return tuple(names)


@dataclass(frozen=True)
class LayOffEntry:
    """Cards added to meld number ``onto`` (1-based, in the order melds reached the table)."""

    cards: tuple[Card, ...]
    onto: int


@dataclass(frozen=True)
class Buy:
    """``player`` bought the discard ``card`` refused by the player in turn, taking the top
    card of the stock with it (contract rummy)."""

    player: str
    card: Card


@dataclass(frozen=True)
class Turn:
    """One turn in which something was put on the table, as entered.

    ``melds`` and ``layoffs`` for ``remi``, ``rummy`` and ``remi-indonesia``;
    ``played`` and ``table`` (every meld after the turn) for ``manipulation``.
    ``took_discard`` lists the discards taken, top card first.
    """

    player: str
    melds: tuple[tuple[Card, ...], ...] = ()
    layoffs: tuple[LayOffEntry, ...] = ()
    took_discard: tuple[Card, ...] = ()
    discard: Card | None = None
    out: bool = False
    played: tuple[Card, ...] | None = None
    table: tuple[tuple[Card, ...], ...] | None = None
    buy: Buy | None = None

    @property
    def cards_put_down(self) -> tuple[Card, ...]:
        """Every card this turn put on the table from hand (melds, lay-offs or ``played``)."""
        if self.played is not None:
            return self.played
        return tuple(card for meld in self.melds for card in meld) + tuple(
            card for layoff in self.layoffs for card in layoff.cards
        )


@dataclass(frozen=True)
class TableEntry:
    """One meld on the table at the end of a round entered as its final table (rummy500,
    contract): who laid it, the cards they laid, and the cards each player laid off on it."""

    by: str
    cards: tuple[Card, ...]
    layoffs: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundRecord:
    """One round as entered: turn by turn (``turns``) or as a final table only.

    ``out``, ``knock`` and ``closer`` name players; ``end`` is ``"blocked"``,
    ``"stock"``, ``"draw"`` or ``"void"``; ``melds`` maps a player to the melds
    they laid (``remi-indonesia``'s final table, gin's knocker spread).

    ``hands`` holds the hands entered as cards; ``points`` those entered as what they
    count (an integer in the file's ``hands``: see docs/points.md), never the same player
    in both.  Both are in seating order.

    ``inputs`` holds the answers to the ruleset's per-round questions
    (:attr:`~referee.rulesets.Ruleset.round_inputs`, gin's Oklahoma ``upcard``), read by
    their type (a card is a :class:`~referee.cards.Card`).

    A deal ended by a show (``indian``: its round form's kind is ``DEAL_END``) gives who
    showed (``show``), optionally the cards shown as grouped (``groups``) and the finish
    card, who dropped (``drops``: ``first`` or ``middle``), who showed wrongly
    (``wrong_shows``), and the players who come back into a pool before it (``rejoin``).
    """

    turns: tuple[Turn, ...] | None = None
    hands: Mapping[str, tuple[Card, ...]] | None = None
    points: Mapping[str, int] | None = None
    end: str | None = None
    out: str | None = None
    at_once: bool | None = None
    knock: str | None = None
    melds: Mapping[str, tuple[tuple[Card, ...], ...]] | None = None
    closer: str | None = None
    closing_card: Card | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    show: str | None = None
    groups: Mapping[str, tuple[tuple[Card, ...], ...]] | None = None
    finish: Card | None = None
    drops: Mapping[str, str] | None = None
    wrong_shows: tuple[str, ...] | None = None
    rejoin: tuple[str, ...] | None = None
    table: tuple[TableEntry, ...] | None = None  # the final table (rummy500, contract)
    notated: Mapping[str, Any] | None = None  # the round in the game's own notation (Phase 10)
    # The keys the ruleset reads itself (its ``round_keys``: Canasta's melds by side, red 3s,
    # ``concealed``), as written in canonical form.
    own: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_void(self) -> bool:
        return self.end == "void"

    def has_hand(self, player: str) -> bool:
        """Whether the round gives ``player``'s hand, as cards or as points."""
        return player in (self.hands or {}) or player in (self.points or {})


@dataclass(frozen=True)
class Match:
    header: MatchHeader
    rounds: tuple[RoundRecord, ...] = ()


# -- reading ---------------------------------------------------------------------------------


def load_document(source: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """The parsed JSON object of a match document, or :class:`MatchFileError`."""
    if isinstance(source, bytes | bytearray):
        try:
            source = bytes(source).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise MatchFileError(NOT_TEXT) from None
    if isinstance(source, str):
        try:
            source = jsonread.loads(source)
        except jsonread.NumberTooLong as error:
            raise MatchFileError(NUMBER_TOO_LONG, limit=error.limit) from None
        except json.JSONDecodeError as error:
            raise MatchFileError(
                NOT_JSON, detail=error.msg, line=error.lineno, column=error.colno
            ) from None
        except RecursionError:
            raise MatchFileError(TOO_DEEP) from None
    if not isinstance(source, Mapping):
        raise MatchFileError(NOT_A_MATCH)
    return source


def read_header(source: str | bytes | Mapping[str, Any], *, as_played: bool = False) -> MatchHeader:
    """The checked header of a match document (its rounds are not read).

    ``as_played``: the document of a match stored before the option ranges existed, whose
    options are read as it was played (see :meth:`Ruleset.check_options`); never for a new
    match.
    """
    document = load_document(source)
    found = document.get("format", FORMAT)
    if found != FORMAT:
        raise MatchFileError(WRONG_FORMAT, expected=FORMAT, found=_show(found))
    if "rules" not in document:
        raise MatchFileError(MISSING_KEY, field="rules")
    options = document.get("options")
    if options is None:
        options = {}
    if not isinstance(options, Mapping) or not all(isinstance(key, str) for key in options):
        raise MatchFileError(MUST_BE_OBJECT, field="options")
    rules = find_ruleset(document["rules"], options, as_played=as_played)
    if "players" not in document:
        raise MatchFileError(MISSING_KEY, field="players")
    players = document["players"]
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise MatchFileError(MUST_BE_NAMES, field="players")
    if len(players) < 2:
        raise MatchFileError(TOO_FEW_PLAYERS, count=len(players))
    seen: set[str] = set()
    for player in players:
        if not player.strip():
            raise MatchFileError(EMPTY_NAME)
        if player in seen:
            raise MatchFileError(DUPLICATE_PLAYER, player=player)
        seen.add(player)
    rules.verify_players(len(players))
    seating = tuple(players)
    first_dealer = document.get("first_dealer")
    if first_dealer is None:
        first_dealer = seating[0]
    first_dealer = _player(first_dealer, seating, "first_dealer")
    changes = _seating_changes(document.get("seating_changes"), rules, seating)
    stopped = _optional(document, "stopped", lambda value: _bool(value, "stopped")) or False
    if stopped and not rules.open_ended:
        raise MatchFileError(STOPPED_NOT_OPEN)
    teams = _teams(document.get("teams"), rules, seating)
    if teams and changes:
        raise MatchFileError(TEAMS_SEATING_FIXED)
    return MatchHeader(rules, seating, first_dealer, dict(options), changes, stopped, teams=teams)


def _teams(value: Any, rules: Ruleset, seating: tuple[str, ...]) -> tuple[Team, ...]:
    """The match file's ``teams``, checked: given exactly where the ruleset plays in teams
    with this many players; names distinct, not empty and none a player's; each team
    ``size`` players of the match, every player in one, the teams alternating round the
    table."""
    sides, count = rules.sides, len(seating)
    if sides is None or not sides.in_teams(count):
        if value is None:
            return ()
        if sides is None:
            raise MatchFileError(TEAMS_NOT_PLAYED, rules=rules.id)
        raise MatchFileError(TEAMS_NOT_WITH_COUNT, rules=rules.id, count=count)
    if value is None:
        raise MatchFileError(TEAMS_MISSING, rules=rules.id, count=count, size=sides.size)
    if not isinstance(value, Mapping) or not all(
        isinstance(name, str)
        and isinstance(members, list | tuple)
        and all(isinstance(member, str) for member in members)
        for name, members in value.items()
    ):
        raise MatchFileError(MUST_BE_TEAMS)
    names: dict[str, str] = {}
    folded_players = {player.strip().casefold() for player in seating}
    team_of: dict[str, str] = {}
    teams: list[Team] = []
    for name, members in value.items():
        folded = name.strip().casefold()
        if not folded:
            raise MatchFileError(TEAM_EMPTY_NAME)
        if folded in names:
            raise MatchFileError(TEAM_NAME_TWICE, team=name)
        if folded in folded_players:
            raise MatchFileError(TEAM_NAMED_AS_PLAYER, team=name)
        names[folded] = name
        for member in members:
            player = _player(member, seating, "teams")
            if player in team_of:
                raise MatchFileError(
                    PLAYER_IN_TWO_TEAMS, player=player, first=team_of[player], second=name
                )
            team_of[player] = name
        if len(members) != sides.size:
            raise MatchFileError(TEAM_SIZE, team=name, count=len(members), size=sides.size)
        teams.append(Team(name, tuple(members)))
    for player in seating:
        if player not in team_of:
            raise MatchFileError(PLAYER_IN_NO_TEAM, player=player)
    apart = len(teams)
    first_round = [team_of[player] for player in seating[:apart]]
    alternating = len(set(first_round)) == apart and all(
        team_of[player] == first_round[seat % apart] for seat, player in enumerate(seating)
    )
    if not alternating:
        example = [team.members[seat] for seat in range(sides.size) for team in teams]
        raise MatchFileError(
            TEAMS_NOT_ALTERNATE, example=", ".join(example), players=", ".join(seating)
        )
    return tuple(teams)


def _seating_changes(
    value: Any, rules: Ruleset, seating: tuple[str, ...]
) -> tuple[SeatingChange, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise MatchFileError(SEATING_NOT_LIST)
    changes: list[SeatingChange] = []
    for raw in value:
        if not isinstance(raw, Mapping) or "before_round" not in raw or "players" not in raw:
            raise MatchFileError(SEATING_NOT_LIST)
        number = raw["before_round"]
        earliest = changes[-1].before_round + 1 if changes else 2
        if isinstance(number, bool) or not isinstance(number, int) or number < earliest:
            raise MatchFileError(SEATING_ROUND, value=_show(number))
        try:
            seating = _seating_change(raw["players"], rules, seating, number)
        except RefereeError as error:
            raise error.at(round=number) from None
        changes.append(SeatingChange(number, seating))
    return tuple(changes)


def _seating_change(
    value: Any, rules: Ruleset, before: tuple[str, ...], number: int
) -> tuple[str, ...]:
    """The seating a change gives, checked against the seating ``before`` it."""
    if not isinstance(value, list | tuple) or not all(isinstance(p, str) for p in value):
        raise MatchFileError(MUST_BE_NAMES, field="players")
    seen: set[str] = set()
    for player in value:
        if not player.strip():
            raise MatchFileError(EMPTY_NAME)
        if player in seen:
            raise MatchFileError(DUPLICATE_PLAYER, player=player)
        seen.add(player)
    after = tuple(value)
    verify_seating(rules, before, after, number)
    return after


def verify_seating(
    rules: Ruleset, before: Sequence[str], after: Sequence[str], number: int
) -> None:
    """Whether the table may go from seating ``before`` to ``after`` before round ``number``.

    The ruleset's player counts hold; a game for a fixed number of players (gin)
    takes no change at all; at least one player stays, and the players who stay
    keep their order clockwise (a newcomer may sit anywhere between them).
    """
    if tuple(after) == tuple(before):
        raise RuleError(SEATING_UNCHANGED, round=number, number=number)
    if rules.sides is not None:  # partners, or players alone in a game of sides: fixed
        if rules.sides.in_teams(len(before)):
            raise MatchFileError(TEAMS_SEATING_FIXED)
        raise RuleError(SIDES_SEATING_FIXED, rules=rules.id)
    if not rules.seating_may_change:
        raise RuleError(SEATING_FIXED, rules=rules.id, count=rules.min_players)
    if not rules.min_players <= len(after) <= rules.max_players:
        raise RuleError(
            SEATING_COUNT,
            rules=rules.id,
            low=rules.min_players,
            high=rules.max_players,
            count=len(after),
        )
    staying = [player for player in before if player in after]
    if not staying:
        raise RuleError(SEATING_NOBODY_STAYS)
    kept = [player for player in after if player in before]
    start = kept.index(staying[0])
    if kept[start:] + kept[:start] != staying:
        raise RuleError(SEATING_ORDER, players=", ".join(staying))


def read_match(source: str | bytes | Mapping[str, Any], *, as_played: bool = False) -> Match:
    """The whole match document, read and checked for form (not yet for the rules);
    ``as_played`` as for :func:`read_header`."""
    document = load_document(source)
    header = read_header(document, as_played=as_played)
    rounds = document.get("rounds")
    if rounds is None:
        rounds = []
    if not isinstance(rounds, list | tuple):
        raise MatchFileError(MUST_BE_LIST, field="rounds")
    if header.seating_changes and header.seating_changes[-1].before_round > len(rounds) + 1:
        number = header.seating_changes[-1].before_round
        raise MatchFileError(SEATING_TOO_LATE, round=number, number=number, rounds=len(rounds))
    return Match(
        header, tuple(read_round(raw, header, number) for number, raw in enumerate(rounds, 1))
    )


def read_round(raw: Any, header: MatchHeader, number: int | None = None) -> RoundRecord:
    """One round of the document; errors carry ``number`` as their round."""
    try:
        return _read_round(raw, header.at_round(number), number)
    except RefereeError as error:
        raise _not_seated(error, header, number).at(round=number) from None


def read_turn(
    raw: Any, header: MatchHeader, round: int | None = None, number: int | None = None
) -> Turn:
    """One turn; errors carry ``round`` and ``number`` (the turn's 1-based index)."""
    try:
        return _read_turn(raw, header.at_round(round))
    except RefereeError as error:
        raise _not_seated(error, header, round).at(round=round, turn=number) from None


def _not_seated(error: RefereeError, header: MatchHeader, number: int | None) -> RefereeError:
    """An unknown player who is a player of the match, but not seated in round ``number``,
    is named as such."""
    name = error.reason.params.get("name")
    if error.reason.key != UNKNOWN_PLAYER or number is None or name not in header.everyone:
        return error
    players = ", ".join(header.seating(number))
    return MatchFileError(NOT_SEATED, name=name, number=number, players=players)


def _read_round(raw: Any, header: MatchHeader, number: int | None) -> RoundRecord:
    if not isinstance(raw, Mapping):
        raise MatchFileError(ROUND_NOT_OBJECT)
    players = header.players
    read_round = header.rules.round_reader
    if read_round is not None:
        end = raw.get("end")
        if end is not None and end not in ENDS:
            raise MatchFileError(UNKNOWN_END, value=_show(end))
        if end is not None:
            out = _optional(raw, "out", lambda value: _player(value, players, "out"))
            return RoundRecord(end=end, out=out)
        notated = read_round(header.rules, raw, players)
        return RoundRecord(out=notated.get("out"), notated=notated)
    turns = None
    if raw.get("turns") is not None:
        if not isinstance(raw["turns"], list | tuple):
            raise MatchFileError(MUST_BE_LIST, field="turns")
        turns = tuple(
            read_turn(turn, header, number, index) for index, turn in enumerate(raw["turns"], 1)
        )
    end = raw.get("end")
    if end is not None and end not in ENDS and end not in _ending_keys(header.rules):
        raise MatchFileError(UNKNOWN_END, value=_show(end))
    read = _reader(header.rules)
    hands, points = _optional(raw, "hands", lambda value: _hands(value, players, read)) or (
        None,
        None,
    )
    inputs = _round_inputs(raw, header.rules, end)
    own_keys = header.rules.round_keys
    own: dict[str, Any] = {}
    if own_keys is not None:
        own = dict(own_keys.canonical({k: raw[k] for k in own_keys.names if k in raw}))
    return RoundRecord(
        turns=turns,
        hands=hands,
        points=points,
        end=end,
        out=_optional(raw, "out", lambda value: _player(value, players, "out")),
        at_once=_optional(raw, "at_once", lambda value: _bool(value, "at_once")),
        knock=_optional(raw, "knock", lambda value: _player(value, players, "knock")),
        melds=None
        if "melds" in own
        else _optional(raw, "melds", lambda value: _player_melds(value, players)),
        closer=_optional(raw, "closer", lambda value: _player(value, players, "closer")),
        closing_card=_optional(raw, "closing_card", lambda value: _card(value, "closing_card")),
        inputs=inputs,
        **(_deal_keys(raw, header) if header.rules.round_form.kind == DEAL_END else {}),
        table=_optional(raw, "table", lambda value: _table(value, players))
        if header.rules.round_form.table
        else None,
        own=own,
    )


def _ending_keys(rules: Ruleset) -> tuple[str, ...]:
    """The ``"end"`` values a ruleset's round form adds (Rummikub's ``"pool"``)."""
    return tuple(choice.key for choice in rules.round_form.endings if choice.names is None)


Reader = Callable[[Any, str], tuple[Any, ...]]


def _reader(rules: Ruleset) -> Reader:
    """How the round's cards are read: as cards, or as the ruleset's own pieces."""
    read_piece = rules.piece_reader
    if read_piece is None:
        return _cards

    def read(value: Any, key: str) -> tuple[Any, ...]:
        if isinstance(value, str):
            value = value.split()
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise MatchFileError(MUST_BE_CARDS, field=key)
        return tuple(read_piece(item) for item in value)

    return read


def _sets(value: Any, key: str, read: Reader) -> tuple[tuple[Any, ...], ...]:
    """Sets of pieces, each kept as written (the ruleset's own pieces have no card order)."""
    if not isinstance(value, list | tuple):
        raise MatchFileError(MUST_BE_MELDS, field=key)
    sets = []
    for meld in value:
        if not isinstance(meld, list | tuple | str):
            raise MatchFileError(MUST_BE_MELDS, field=key)
        sets.append(read(meld, key))
    return tuple(sets)


DROPS = ("first", "middle")


def _deal_keys(raw: Mapping[str, Any], header: MatchHeader) -> dict[str, Any]:
    """The keys of a deal ended by a show (``indian``); ``rejoin`` names any player of the
    match (a player out of a pool is still seated)."""
    players = header.players

    def drops(value: Any) -> dict[str, str]:
        if not isinstance(value, Mapping):
            raise MatchFileError(MUST_BE_DROPS)
        read = {}
        for name, when in value.items():
            if when not in DROPS:
                raise MatchFileError(MUST_BE_DROPS)
            read[_player(name, players, "drops")] = when
        return {player: read[player] for player in players if player in read}

    def names(key: str) -> Any:
        def read(value: Any) -> tuple[str, ...]:
            if not isinstance(value, list | tuple):
                raise MatchFileError(MUST_BE_NAMES, field=key)
            return tuple(dict.fromkeys(_player(name, players, key) for name in value))

        return read

    return {
        "show": _optional(raw, "show", lambda value: _player(value, players, "show")),
        "groups": _optional(raw, "groups", lambda value: _player_melds(value, players, "groups")),
        "finish": _optional(raw, "finish", lambda value: _card(value, "finish")),
        "drops": _optional(raw, "drops", drops),
        "wrong_shows": _optional(raw, "wrong_shows", names("wrong_shows")),
        "rejoin": _optional(raw, "rejoin", names("rejoin")),
    }


# How a round input of each type is read from and written to the match file.
def _round_inputs(raw: Mapping[str, Any], rules: Ruleset, end: str | None) -> dict[str, Any]:
    """The round's answers to the ruleset's per-round questions: each asked one read by its
    type, required unless the round ends one of the ways it is optional for; a question the
    match's options do not ask is an error."""
    asked = {question.name for question in rules.round_inputs if question.asked(rules.settings)}
    inputs: dict[str, Any] = {}
    for question in rules.round_inputs:
        value = raw.get(question.name)
        if question.name not in asked:
            if value is not None:
                raise MatchFileError(INPUT_NOT_ASKED, field=question.name, rules=rules.name)
            continue
        if value is None:
            if end not in question.optional_for:
                raise MatchFileError(
                    INPUT_MISSING,
                    field=question.name,
                    label=question.label,
                    explanation=question.explanation,
                )
            continue
        inputs[question.name] = INPUT_TYPES[question.type][0](value, question.name)
    return inputs


def _read_turn(raw: Any, header: MatchHeader) -> Turn:
    if not isinstance(raw, Mapping):
        raise MatchFileError(TURN_NOT_OBJECT)
    if raw.get("player") is None:
        raise MatchFileError(TURN_NEEDS_PLAYER)
    took = raw.get("took_discard")
    if header.rules.piece_reader is not None:
        read = _reader(header.rules)
        return Turn(
            player=_player(raw["player"], header.players, "player"),
            played=_optional(raw, "played", lambda value: read(value, "played")),
            table=_optional(raw, "table", lambda value: _sets(value, "table", read)),
        )
    return Turn(
        player=_player(raw["player"], header.players, "player"),
        melds=_optional(raw, "melds", lambda value: _melds(value, "melds")) or (),
        layoffs=_optional(raw, "layoffs", _layoffs) or (),
        took_discard=() if took is None else _cards(took, "took_discard"),
        discard=_optional(raw, "discard", lambda value: _card(value, "discard")),
        out=_optional(raw, "out", lambda value: _bool(value, "out")) or False,
        played=_optional(raw, "played", lambda value: _cards(value, "played")),
        table=_optional(raw, "table", lambda value: _melds(value, "table")),
        buy=_optional(raw, "buy", lambda value: _buy(value, header.players)),
    )


def _optional(raw: Mapping[str, Any], key: str, read: Any) -> Any:
    value = raw.get(key)
    return None if value is None else read(value)


def _show(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def _player(value: Any, players: Sequence[str], key: str) -> str:
    if not isinstance(value, str):
        raise MatchFileError(MUST_BE_NAME, field=key)
    if value not in players:
        raise MatchFileError(UNKNOWN_PLAYER, name=value, players=", ".join(players))
    return value


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise MatchFileError(MUST_BE_BOOL, field=key)
    return value


def _card(value: Any, key: str) -> Card:
    if not isinstance(value, str):
        raise MatchFileError(MUST_BE_CARD, field=key)
    return parse_card(value)


# How a round input of each type (RoundInput.type) is read from the match file and written
# back: a new type is one entry here, a new input of a known type a change in its ruleset only.
INPUT_TYPES: dict[str, tuple[Callable[[Any, str], Any], Callable[[Any], Any]]] = {
    "card": (_card, format_card),
}


def _cards(value: Any, key: str) -> tuple[Card, ...]:
    """A list of card strings, or one string of cards separated by spaces."""
    if isinstance(value, str):
        return parse_cards(value)
    if not isinstance(value, list | tuple):
        raise MatchFileError(MUST_BE_CARDS, field=key)
    for item in value:
        if not isinstance(item, str):
            raise MatchFileError(MUST_BE_CARDS, field=key)
    return tuple(parse_card(item) for item in value)


def _melds(value: Any, key: str) -> tuple[tuple[Card, ...], ...]:
    """Melds, each a list of cards in any order; a run is kept in rank order."""
    if not isinstance(value, list | tuple):
        raise MatchFileError(MUST_BE_MELDS, field=key)
    melds = []
    for meld in value:
        if not isinstance(meld, list | tuple | str):
            raise MatchFileError(MUST_BE_MELDS, field=key)
        melds.append(in_rank_order(_cards(meld, key)))
    return tuple(melds)


def _layoffs(value: Any) -> tuple[LayOffEntry, ...]:
    if not isinstance(value, list | tuple):
        raise MatchFileError(MUST_BE_LIST, field="layoffs")
    layoffs = []
    for raw in value:
        if not isinstance(raw, Mapping) or raw.get("cards") is None or raw.get("onto") is None:
            raise MatchFileError(LAYOFF_NEEDS)
        onto = raw["onto"]
        if isinstance(onto, bool) or not isinstance(onto, int) or onto < 1:
            raise MatchFileError(MELD_NUMBER, value=_show(onto))
        layoffs.append(LayOffEntry(_cards(raw["cards"], "cards"), onto))
    return tuple(layoffs)


def _buy(value: Any, players: Sequence[str]) -> Buy:
    if not isinstance(value, Mapping) or value.get("player") is None or value.get("card") is None:
        raise MatchFileError(MUST_BE_BUY)
    return Buy(_player(value["player"], players, "buy"), _card(value["card"], "buy"))


def _table(value: Any, players: Sequence[str]) -> tuple[TableEntry, ...]:
    """The final table: each meld with who laid it and the cards laid off on it, by player."""
    if not isinstance(value, list | tuple):
        raise MatchFileError(MUST_BE_TABLE)
    table = []
    for number, raw in enumerate(value, 1):
        if not isinstance(raw, Mapping):
            raise MatchFileError(MUST_BE_TABLE)
        if raw.get("by") is None or raw.get("cards") is None:
            raise MatchFileError(TABLE_MELD_NEEDS, number=number)
        layoffs = raw.get("layoffs") or {}
        if not isinstance(layoffs, Mapping):
            raise MatchFileError(MUST_BE_LAYOFFS_BY, number=number)
        by_player = {
            _player(name, players, "layoffs"): _cards(cards, "layoffs")
            for name, cards in layoffs.items()
        }
        table.append(
            TableEntry(
                _player(raw["by"], players, "by"),
                in_rank_order(_cards(raw["cards"], "cards")),
                {player: by_player[player] for player in players if by_player.get(player)},
            )
        )
    return tuple(table)


def _hands(
    value: Any, players: Sequence[str], read: Reader = _cards
) -> tuple[dict[str, tuple[Card, ...]], dict[str, int] | None]:
    """The hands given as cards and those given as points (``None`` when there are none)."""
    if not isinstance(value, Mapping):
        raise MatchFileError(MUST_BE_HANDS, field="hands")
    hands: dict[str, tuple[Card, ...]] = {}
    points: dict[str, int] = {}
    for name, hand in value.items():
        player = _player(name, players, "hands")
        if isinstance(hand, int) and not isinstance(hand, bool):
            if hand < 0:
                raise MatchFileError(NEGATIVE_POINTS, player=player, points=hand)
            points[player] = hand
        elif isinstance(hand, list | tuple | str):
            hands[player] = read(hand, "hands")
        else:
            raise MatchFileError(MUST_BE_HAND, player=player)
    return (
        {player: hands[player] for player in players if player in hands},
        {player: points[player] for player in players if player in points} or None,
    )


def _player_melds(
    value: Any, players: Sequence[str], key: str = "melds"
) -> dict[str, tuple[tuple[Card, ...], ...]]:
    if not isinstance(value, Mapping):
        raise MatchFileError(MUST_BE_PLAYER_MELDS, field=key)
    melds = {}
    for name, player_melds in value.items():
        player = _player(name, players, key)
        melds[player] = _melds(player_melds, key)
    return {player: melds[player] for player in players if player in melds}


# -- writing ---------------------------------------------------------------------------------


def dump_cards(cards: Sequence[Card]) -> list[str]:
    """Cards (or a ruleset's own pieces) in their canonical notation."""
    return [str(card) for card in cards]


def dump_turn(turn: Turn) -> dict[str, Any]:
    """A turn in canonical form: only the keys that say something."""
    out: dict[str, Any] = {"player": turn.player}
    if turn.melds:
        out["melds"] = [dump_cards(meld) for meld in turn.melds]
    if turn.layoffs:
        out["layoffs"] = [
            {"cards": dump_cards(layoff.cards), "onto": layoff.onto} for layoff in turn.layoffs
        ]
    if turn.played is not None:
        out["played"] = dump_cards(turn.played)
    if turn.table is not None:
        out["table"] = [dump_cards(meld) for meld in turn.table]
    if turn.took_discard:
        out["took_discard"] = dump_cards(turn.took_discard)
    if turn.discard is not None:
        out["discard"] = format_card(turn.discard)
    if turn.buy is not None:
        out["buy"] = {"player": turn.buy.player, "card": format_card(turn.buy.card)}
    if turn.out:
        out["out"] = True
    return out


def dump_round(
    record: RoundRecord, players: Sequence[str] = (), rules: Ruleset | None = None
) -> dict[str, Any]:
    """A round in canonical form: only the keys that say something.

    A hand entered as points is written as that integer; ``players`` (the seating) orders
    ``hands`` when some are cards and some points (cards first otherwise).  The round's
    inputs are written by the types ``rules`` declares for them (as they are without it).
    """
    out: dict[str, Any] = {}
    if record.notated is not None:
        return dict(record.notated)
    if record.rejoin:
        out["rejoin"] = list(record.rejoin)
    types = {question.name: question.type for question in (rules.round_inputs if rules else ())}
    for name, value in record.inputs.items():
        out[name] = INPUT_TYPES[types[name]][1](value) if name in types else value
    if record.end is not None:
        out["end"] = record.end
    for key in ("out", "knock", "closer"):
        if getattr(record, key) is not None:
            out[key] = getattr(record, key)
    if record.at_once is not None:
        out["at_once"] = record.at_once
    if record.closing_card is not None:
        out["closing_card"] = format_card(record.closing_card)
    if record.show is not None:
        out["show"] = record.show
    if record.groups is not None:
        out["groups"] = {
            player: [dump_cards(group) for group in groups]
            for player, groups in record.groups.items()
        }
    if record.finish is not None:
        out["finish"] = format_card(record.finish)
    if record.drops:
        out["drops"] = dict(record.drops)
    if record.wrong_shows:
        out["wrong_shows"] = list(record.wrong_shows)
    if record.turns is not None:
        out["turns"] = [dump_turn(turn) for turn in record.turns]
    if record.melds is not None:
        out["melds"] = {
            player: [dump_cards(meld) for meld in melds] for player, melds in record.melds.items()
        }
    if record.table is not None:
        out["table"] = [dump_table_entry(entry) for entry in record.table]
    out.update(record.own)
    if record.hands is not None or record.points is not None:
        hands: dict[str, list[str] | int] = {
            player: dump_cards(cards) for player, cards in (record.hands or {}).items()
        }
        hands.update(record.points or {})
        order = {player: seat for seat, player in enumerate(players)}
        out["hands"] = dict(sorted(hands.items(), key=lambda item: order.get(item[0], len(order))))
    return out


def dump_table_entry(entry: TableEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"by": entry.by, "cards": dump_cards(entry.cards)}
    if entry.layoffs:
        out["layoffs"] = {player: dump_cards(cards) for player, cards in entry.layoffs.items()}
    return out


def dump_header(header: MatchHeader) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": header.rules.id,
        "options": dict(header.options),
        "players": list(header.players),
        "first_dealer": header.first_dealer,
    }
    if header.teams:
        out["teams"] = {team.name: list(team.members) for team in header.teams}
    if header.seating_changes:
        out["seating_changes"] = [dump_seating_change(c) for c in header.seating_changes]
    if header.stopped:
        out["stopped"] = True
    return out


def dump_seating_change(change: SeatingChange) -> dict[str, Any]:
    return {"before_round": change.before_round, "players": list(change.players)}


def dump_match(match: Match) -> dict[str, Any]:
    """The canonical ``referee-match/1`` document of a match (ready for ``json.dumps``)."""
    players = match.header.players
    rules = match.header.rules
    rounds = [dump_round(r, players, rules) for r in match.rounds]
    return dump_header(match.header) | {"rounds": rounds}


def meaning(document: Mapping[str, Any]) -> dict[str, Any]:
    """What a canonical document (:func:`dump_match`'s) says, however it was written: the
    same match written two ways has one meaning.  A hand's cards are a set (sorted); every
    option is given, its default filled in (dependent defaults applied); a default written
    out (``at_once: false``, a first dealer or seating left as they were) is as one left out.

    >>> a = read_match({"rules": "remi", "players": ["Budi", "Siti"],
    ...                 "rounds": [{"out": "Siti", "hands": {"Budi": ["QS", "10H"]}}]})
    >>> b = read_match({"rules": "remi", "players": ["Budi", "Siti"], "options": {"target": 100},
    ...                 "rounds": [{"out": "Siti", "at_once": False,
    ...                             "hands": {"Budi": ["th", "qs"]}}]})
    >>> meaning(dump_match(a)) == meaning(dump_match(b))
    True
    """
    rules_id = str(document.get("rules"))
    options = dict(document.get("options") or {})
    try:
        options = dict(find_ruleset(rules_id, options, as_played=True).settings)
    except RefereeError:
        pass  # not a ruleset's options: they mean what they say
    players = list(document.get("players") or ())
    return {
        "rules": rules_id,
        "options": options,
        "players": players,
        "first_dealer": document.get("first_dealer") or (players[0] if players else None),
        "seating_changes": list(document.get("seating_changes") or ()),
        "stopped": bool(document.get("stopped")),
        "teams": dict(document.get("teams") or {}),
        "rounds": [_round_meaning(entry) for entry in document.get("rounds") or ()],
    }


# A round's flags that say nothing when false (MATCH_FORMAT.md: their default).
FALSE_BY_DEFAULT = frozenset({"at_once", "concealed"})


def _round_meaning(entry: Any) -> Any:
    if not isinstance(entry, Mapping):
        return entry
    found = {
        key: value for key, value in entry.items() if not (key in FALSE_BY_DEFAULT and not value)
    }
    hands = found.get("hands")
    if isinstance(hands, Mapping):
        found["hands"] = {
            player: sorted(cards, key=str) if isinstance(cards, list) else cards
            for player, cards in sorted(hands.items())
        }
    return found


__all__ = [
    "FORMAT",
    "Buy",
    "TableEntry",
    "LayOffEntry",
    "Match",
    "MatchHeader",
    "RoundRecord",
    "SeatingChange",
    "Team",
    "Turn",
    "dump_cards",
    "dump_header",
    "dump_match",
    "dump_round",
    "dump_seating_change",
    "dump_turn",
    "load_document",
    "meaning",
    "read_header",
    "read_match",
    "read_round",
    "read_turn",
    "verify_seating",
]
