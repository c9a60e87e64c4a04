"""``rummikub`` (Rummikub, remi batu angka): 106 tiles, the initial meld of 30 from the rack,
the whole table may be rearranged, zero-sum scoring.

The referee of the tiles is :mod:`referee.rummikub` (turns, the table put back, scoring, the
match end); this module declares the game over it: its pieces (the tiles, read and written
by the match file), its options and presets, its round (a game: turn by turn, or the racks
left when it ended) and its match end.  A game is a round of the match file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from referee import rummikub
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.messages import Reason, define_message, define_text
from referee.rulesets.base import (
    STOPPED_HIGHEST_TOTAL,
    VOID,
    EndingChoice,
    MatchEnd,
    MatchProgress,
    Pieces,
    RoundForm,
    Ruleset,
    Stopping,
    TurnStyle,
)
from referee.rulesets.options import OptionType, option, preset
from referee.scoring import Ending, FinalState, Outcome, RoundEnding, RoundScore
from referee.tiles import RUMMIKUB_TILES, Tile, format_tile, parse_tile

if TYPE_CHECKING:
    from referee.matchfile import MatchHeader, RoundRecord

RULES_ID = "rummikub"
TILES = RUMMIKUB_TILES  # the pieces: 1-13 in four colours, two of each, two jokers
PLAYERS = range(2, 5)
POOL_KEY = "pool"
RACKS = "racks"  # the kind of round: a game entered as the racks left (its own entry form)

NO_ENDING = define_message(
    "round.no_ending.rummikub",
    'the game does not say how it ended: give "out" with the player who emptied the rack, '
    'or "end": "pool" when the pool ran out, or "end": "void"',
)
NOT_IN_A_GAME = define_message(
    "file.rummikub_not_in_a_game",
    'a Rummikub game has no "{field}": give its turns (played, table), who emptied the rack '
    'or "end": "pool", and the racks left in "hands"',
)
POINTS_UNCHECKED = define_message(
    "points.unchecked.rummikub",
    "{player}'s rack was given as {points} points, not as tiles: the referee could not check "
    "which tiles they are (no tile more often than the set holds it)",
)
STOPPED_BY_GAMES_WON = define_message(
    "match.stopped_winner.games_won", "the most games won wins, then the highest total"
)
TABLE_AND_RACKS = define_message(
    "rummikub.table_and_racks", "on the table and the racks together: {reason}"
)

EMPTIED = EndingChoice(
    "out",
    Ending.OUT,
    define_text("ending.rummikub.out", "Someone emptied the rack"),
    define_text("ending.rummikub.out.who", "Who emptied the rack?"),
    "out",
)
POOL = EndingChoice(
    POOL_KEY,
    Ending.STOCK,
    define_text("ending.rummikub.pool", "The pool ran out (the lowest rack wins)"),
)
NOT_IN_A_GAME_KEYS = ("knock", "closer", "melds", "at_once", "closing_card", "table")


def tiles(pieces: Iterable[Any]) -> tuple[Tile, ...]:
    """Pieces the match file read with the ruleset's :class:`Pieces` (tiles, though its
    records are typed for cards)."""
    return cast("tuple[Tile, ...]", tuple(pieces))


def options_of(rules: Ruleset) -> rummikub.RummikubOptions:
    """The options in force, as the tiles referee reads them."""
    settings = rules.settings
    defaults = rummikub.RummikubOptions()
    return rummikub.RummikubOptions(
        **{name: settings.get(name, getattr(defaults, name)) for name in OPTION_NAMES}
    )


def _turns(header: MatchHeader, record: RoundRecord) -> tuple[tuple[Tile, ...], ...]:
    """Every turn of the game checked in order (each table legal, each initial meld from the
    rack): the table after the last one."""
    rules = header.rules
    options = options_of(rules)
    table: tuple[tuple[Tile, ...], ...] = ()
    melded: set[str] = set()
    for index, turn in enumerate(record.turns or (), 1):
        played = tiles(turn.played or ())
        after = table if turn.table is None else tuple(tiles(s) for s in turn.table)
        if not played and after == table:
            continue  # a turn that only drew (or passed)
        try:
            rummikub.verify_turn(
                table, played, after, melded=turn.player in melded, options=options, pieces=TILES
            )
        except RefereeError as error:
            raise error.at(turn=index) from None
        table = after
        melded.add(turn.player)
    return table


def check_game(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> FinalState:
    """A game checked: its turns, how it ended, the racks left (every tile at most as often
    as the set holds it, on the table and the racks together)."""
    players = header.players
    for key in NOT_IN_A_GAME_KEYS:
        if getattr(record, key) is not None:
            raise MatchFileError(NOT_IN_A_GAME, field=key)
    if record.end == "void":
        if record.out is not None:
            raise RuleError(rummikub.OUT_AND_POOL)
        return FinalState(RoundEnding(Ending.VOID, players))
    pool = record.end == POOL_KEY
    if record.end is not None and not pool:
        raise RuleError(NO_ENDING)
    if record.out is not None and pool:
        raise RuleError(rummikub.OUT_AND_POOL)
    if record.out is None and not pool:
        raise RuleError(NO_ENDING)
    table = _turns(header, record)
    hands = dict(record.hands or {})
    points = dict(record.points or {})
    racks: dict[str, Any] = {**hands, **points}
    scored = rummikub.score_game(
        players, racks, out=record.out, pool=pool, options=options_of(header.rules), pieces=TILES
    )
    on_table = [tile for placed in table for tile in placed]
    on_racks = [tile for rack in hands.values() for tile in tiles(rack)]
    problems = TILES.count_problems([*on_table, *on_racks])
    if problems:
        raise RuleError(Reason.of(TABLE_AND_RACKS, reason=problems[0]))
    unchecked = tuple(
        Reason.of(POINTS_UNCHECKED, player=player, points=value)
        for player, value in points.items()
        if player != record.out
    )
    ending = RoundEnding(
        Ending.STOCK if pool else Ending.OUT,
        players,
        dict(hands),
        record.out,
        points=points,
        penalties=scored.values,
    )
    return FinalState(ending, unchecked=unchecked)


def score_game(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """Zero-sum (RULES.md): a rack emptied takes every other rack's value; with the pool
    empty the lowest racks win the differences.  ``penalties`` holds each rack's value."""
    values = dict(ending.penalties)
    pool = ending.ending is Ending.STOCK
    scored = rummikub.score_game(
        ending.players,
        values,
        out=ending.player,
        pool=pool,
        options=options_of(rules),
        pieces=TILES,
    )
    outcome = Outcome.STOCK if pool else Outcome.OUT
    return RoundScore(outcome, scored.winners, scored.scores, hand_values=scored.values)


def match_end(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """After ``games`` games, or once a total reached ``target`` with one total highest
    alone; with neither the players stop the match.  The winner is the highest total, or
    with ``standing: games_won`` the most games won, then the highest total."""
    games = [
        rummikub.GameScore(dict(score.scores), tuple(score.winners), {})
        for score in progress.scored
    ]
    result = rummikub.standing(progress.players, games, options=options_of(rules))
    return MatchEnd(result.over, result.winners)


def stopped_winners(
    rules: Ruleset,
    totals: Mapping[str, int],
    games_won: Mapping[str, int],
    seated: tuple[str, ...],
) -> tuple[str, ...]:
    """The players stopped the match: the highest total wins, or with ``standing:
    games_won`` the most games won, then the highest total; a tie is shared."""
    if options_of(rules).standing == "games_won":
        rank = {p: (games_won.get(p, 0), totals.get(p, 0)) for p in seated}
    else:
        rank = {p: (totals.get(p, 0), 0) for p in seated}
    top = max(rank.values())
    return tuple(p for p in seated if rank[p] == top)


def stopped_words(rules: Ruleset) -> Reason:
    """Who wins when the players stop, in the words of :func:`stopped_winners`."""
    if options_of(rules).standing == "games_won":
        return Reason.of(STOPPED_BY_GAMES_WON)
    return Reason.of(STOPPED_HIGHEST_TOTAL)


def replay_facts(state: Any, answer: Mapping[str, Any]) -> Mapping[str, Any]:
    """Each game's winners (the emptied rack, or the lowest racks) and the games won."""
    rounds = [
        {**entry, "winners": list(result.winners)}
        for entry, result in zip(answer["rounds"], state.rounds, strict=True)
    ]
    return {"rounds": rounds, "games_won": dict(state.rounds_won)}


STOPPING = Stopping(winners=stopped_winners, words=stopped_words)


def _stopping(open_ended: bool) -> Stopping | None:
    """The players stop a match that has neither games nor a target."""
    return STOPPING if open_ended else None


def _games(rules: Ruleset, value: int | None) -> Ruleset:
    return replace(rules, hands=value, stopping=_stopping(value is None and rules.target is None))


def _target(rules: Ruleset, value: int | None) -> Ruleset:
    return replace(rules, target=value, stopping=_stopping(value is None and rules.hands is None))


OPTIONS = (
    option(
        RULES_ID,
        "initial_meld",
        OptionType.NUMBER,
        30,
        minimum=0,
        maximum=100,
        usual=True,
        label="Initial meld",
        explanation="The least value of the initial meld, counted from the rack only "
        "(a joker counts the number of the tile it stands for).",
        summary="The initial meld makes {value} or more",
    ),
    option(
        RULES_ID,
        "initial_turn_table",
        OptionType.SWITCH,
        False,
        label="Rearrange in the initial meld's turn",
        explanation="After laying the initial sets, the player may add to and rearrange the "
        "table in the same turn; the sets of rack tiles alone must still make the initial "
        "meld.",
        summary="The table may be rearranged in the initial meld's turn",
    ),
    option(
        RULES_ID,
        "joker_value",
        OptionType.NUMBER,
        30,
        minimum=1,
        maximum=50,
        label="Joker left on a rack",
        explanation="What a joker left on a rack costs at the end of a game.",
        summary="A joker left on a rack costs {value}",
        apply=lambda rules, value: replace(rules, joker_value=value),
    ),
    option(
        RULES_ID,
        "games",
        OptionType.NUMBER,
        None,
        minimum=1,
        maximum=100,
        usual=True,
        label="Games",
        explanation="The match ends after this many games (without it or a target, the "
        "players stop it when they choose).",
        summary="The match is {value} games",
        apply=_games,
    ),
    option(
        RULES_ID,
        "target",
        OptionType.NUMBER,
        None,
        minimum=50,
        maximum=10000,
        requires={"games": None, "standing": "points"},
        label="Target",
        explanation="The match ends after a game in which a total reaches this (a tie at "
        "the top plays one more game).",
        summary="The match is played to {value}",
        apply=_target,
    ),
    option(
        RULES_ID,
        "standing",
        OptionType.CHOICE,
        "points",
        choices=("points", "games_won"),
        label="Who wins the match",
        explanation="points: the highest total; games_won: the most games won, then the "
        "highest total.",
        summary="The winner is decided by {value}",
    ),
)
OPTION_NAMES = tuple(declared.name for declared in OPTIONS)

PRESETS = (
    preset(RULES_ID, "standard", define_text("preset.rummikub.standard", "Box rules"), {}),
    preset(
        RULES_ID, "sabra", define_text("preset.rummikub.sabra", "Sabra 50"), {"initial_meld": 50}
    ),
    preset(
        RULES_ID,
        "tournament",
        define_text("preset.rummikub.tournament", "Tournament (joker 50)"),
        {"joker_value": 50},
    ),
)


RULESET = Ruleset(
    id=RULES_ID,
    name=define_text("ruleset.rummikub.name", "Rummikub"),
    description=define_text(
        "ruleset.rummikub.description",
        "Remi batu angka: 106 tiles, an initial meld of 30 from the rack, the whole table "
        "may be rearranged, zero-sum scores",
    ),
    min_players=PLAYERS.start,
    max_players=PLAYERS.stop - 1,
    deal_sizes=dict.fromkeys(PLAYERS, rummikub.RACK_TILES),
    joker_value=30,
    target=None,
    stopping=STOPPING,
    option_table=OPTIONS,
    presets=PRESETS,
    round_form=RoundForm((EMPTIED, POOL, VOID), kind=RACKS),
    turn_style=TurnStyle.NONE,
    layoffs=False,
    points_unchecked=POINTS_UNCHECKED,
    check_round=check_game,
    score_round=score_game,
    match_end=match_end,
    replay_facts=replay_facts,
    pieces=Pieces(
        read=lambda token: parse_tile(token, TILES),
        write=format_tile,
        full_set=tuple(format_tile(tile) for tile in TILES.full_set()),
    ),
    no_ending_message=NO_ENDING,
    menu_order=12,
)
