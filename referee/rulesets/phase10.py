"""``phase10`` (Phase 10): ten phases in order, everyone who makes their phase moves on.

A hand is entered as its final table (who went out, who made which phase, optionally each
phase as laid, every other hand) or turn by turn in the match file; the checks, the
penalties and the match's phase tracker are in :mod:`referee.phase10`, the deck in
:mod:`referee.phase10_deck`.  The match carries each player's completed phases from hand to
hand (a :class:`~referee.rulesets.base.Tracker`): the round's check reads them, the end at
the last phase (ties by the lowest total, then a replay) comes from them, and the standings
rank the players by the phases completed before their totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from referee import phase10
from referee.errors import MatchFileError, RuleError
from referee.messages import define_message, define_text
from referee.phase10_deck import CardsIn, PieceSet
from referee.rulesets.base import (
    OUT,
    PHASE10_HAND,
    VOID,
    MatchEnd,
    MatchProgress,
    Pieces,
    Ranking,
    RoundForm,
    Ruleset,
    Tracker,
    TurnStyle,
    dealer_moves_clockwise,
)
from referee.rulesets.options import preset
from referee.scoring import Ending, FinalState, Outcome, RoundEnding, RoundScore

if TYPE_CHECKING:
    from referee.matchfile import MatchHeader, RoundRecord

NO_ENDING = define_message(
    "round.no_ending.phase10",
    'the hand does not say how it ended: give "out" with the player who went out, or "end": "void"',
)
UNKNOWN_KEY = define_message(
    "phase10.unknown_key",
    'a Phase 10 hand has no "{field}": it gives out, made, phases and hands (or turns)',
)
MADE_NOT_OBJECT = define_message(
    "phase10.made_not_object",
    '"made" says who laid down which phase, like {{"Budi": 4, "Siti": 2}}',
)
PHASES_NOT_OBJECT = define_message(
    "phase10.phases_not_object",
    '"phases" gives each phase as laid, a list of melds per player, like {{"Budi": [["R7", '
    '"B7", "W"], ["G2", "G2", "Y2"]]}}',
)
HANDS_NOT_OBJECT = define_message(
    "phase10.hands_not_object",
    '"hands" gives every other player\'s cards (a list) or their penalty points (a number)',
)
TURNS_NOT_LIST = define_message("phase10.turns_not_list", '"turns" is a list of turns')
BAD_TURN = define_message(
    "file.phase10.bad_turn",
    'turn {number} is not a Phase 10 turn: it gives "player", then any of "melds" (lists of '
    'cards), "phase" (a number), "layoffs" ({{"cards": [...], "onto": 1}}), "took_discard", '
    '"discard", "skip" (a player) and "out": true',
)
NOT_A_PLAYER = define_message(
    "phase10.not_a_player", '{name} in "{field}" is not a player of this hand'
)

FINAL_TABLE_KEYS = ("out", "made", "phases", "hands")
TURN_KEYS = ("turns", "hands")


def options_of(rules: Ruleset) -> phase10.Phase10Options:
    settings = rules.settings
    return phase10.Phase10Options(
        deck=settings.get("deck", "phase10"),
        phases=settings.get("phases", phase10.ALL),
        order=settings.get("order", phase10.FIXED),
        format=settings.get("format", phase10.BY_PHASES),
    )


def deck_of(rules: Ruleset) -> PieceSet:
    return options_of(rules).pieces


# -- the match file's round ---------------------------------------------------------------


def _player(name: Any, players: tuple[str, ...], key: str) -> str:
    if not isinstance(name, str) or name not in players:
        raise MatchFileError(NOT_A_PLAYER, name=str(name), field=key)
    return name


def _in_seating(found: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    return {player: found[player] for player in players if player in found}


def read_hand(rules: Ruleset, raw: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    """A hand of the match file, checked and written as its deck writes it."""
    deck = deck_of(rules)
    unknown = [key for key in raw if key not in (*FINAL_TABLE_KEYS, *TURN_KEYS, "end")]
    if unknown:
        raise MatchFileError(UNKNOWN_KEY, field=unknown[0])
    own: dict[str, Any] = {}
    if "turns" in raw:
        for key in ("made", "phases"):
            if key in raw:
                raise MatchFileError(UNKNOWN_KEY, field=key)
        if not isinstance(raw["turns"], list):
            raise MatchFileError(TURNS_NOT_LIST)
        own["turns"] = [
            _read_turn(deck, turn, players, number) for number, turn in enumerate(raw["turns"], 1)
        ]
    if raw.get("out") is not None:
        own["out"] = _player(raw["out"], players, "out")
    if "made" in raw:
        made = raw["made"]
        if not isinstance(made, Mapping) or not all(
            isinstance(phase, int) and not isinstance(phase, bool) for phase in made.values()
        ):
            raise MatchFileError(MADE_NOT_OBJECT)
        own["made"] = _in_seating(
            {_player(n, players, "made"): p for n, p in made.items()}, players
        )
    if "phases" in raw:
        phases = raw["phases"]
        if not isinstance(phases, Mapping) or not all(
            isinstance(melds, list) for melds in phases.values()
        ):
            raise MatchFileError(PHASES_NOT_OBJECT)
        laid = _in_seating({_player(n, players, "phases"): m for n, m in phases.items()}, players)
        own["phases"] = {
            name: [[deck.format(piece) for piece in deck.parse_many(meld)] for meld in melds]
            for name, melds in laid.items()
        }
    if "hands" in raw:
        hands = raw["hands"]
        if not isinstance(hands, Mapping):
            raise MatchFileError(HANDS_NOT_OBJECT)
        given = _in_seating({_player(n, players, "hands"): h for n, h in hands.items()}, players)
        read: dict[str, Any] = {}
        for player, hand in given.items():
            if isinstance(hand, int) and not isinstance(hand, bool):
                read[player] = hand
            elif isinstance(hand, list | str):
                read[player] = [deck.format(piece) for piece in deck.parse_many(hand)]
            else:
                raise MatchFileError(HANDS_NOT_OBJECT)
        own["hands"] = read
    return own


TURN_KEYS_KNOWN = ("player", "melds", "phase", "layoffs", "took_discard", "discard", "skip", "out")


def _read_turn(deck: PieceSet, raw: Any, players: tuple[str, ...], number: int) -> dict[str, Any]:
    """One turn of the match file, its cards written as the deck writes them."""
    wrong = MatchFileError(BAD_TURN, number=number)
    if not isinstance(raw, Mapping) or any(key not in TURN_KEYS_KNOWN for key in raw):
        raise wrong
    turn: dict[str, Any] = {"player": _player(raw.get("player"), players, "player")}

    def cards(value: Any) -> list[str]:
        if not isinstance(value, list | str):
            raise wrong
        return [deck.format(piece) for piece in deck.parse_many(value)]

    if "melds" in raw:
        if not isinstance(raw["melds"], list):
            raise wrong
        turn["melds"] = [cards(meld) for meld in raw["melds"]]
    if "phase" in raw:
        if not isinstance(raw["phase"], int) or isinstance(raw["phase"], bool):
            raise wrong
        turn["phase"] = raw["phase"]
    if "layoffs" in raw:
        layoffs = raw["layoffs"]
        if not isinstance(layoffs, list) or not all(
            isinstance(layoff, Mapping)
            and isinstance(layoff.get("onto"), int)
            and not isinstance(layoff.get("onto"), bool)
            for layoff in layoffs
        ):
            raise wrong
        turn["layoffs"] = [
            {"cards": cards(layoff.get("cards")), "onto": layoff["onto"]} for layoff in layoffs
        ]
    if "took_discard" in raw:
        turn["took_discard"] = cards(raw["took_discard"])
    if "discard" in raw:
        if not isinstance(raw["discard"], str):
            raise wrong
        turn["discard"] = deck.format(deck.parse(raw["discard"]))
    if "skip" in raw:
        turn["skip"] = _player(raw["skip"], players, "skip")
    if "out" in raw:
        if not isinstance(raw["out"], bool):
            raise wrong
        if raw["out"]:
            turn["out"] = True
    return turn


# -- the phases carried from hand to hand ---------------------------------------------------


@dataclass(frozen=True)
class Tracked:
    """The match's :class:`~referee.phase10.Phase10State`, and who made which phase in the
    last hand counted (the tracker shows who completed their phase this hand)."""

    state: phase10.Phase10State
    made_last: Mapping[str, int]


def tracked(rules: Ruleset, header: MatchHeader, rounds: tuple[Any, ...]) -> Tracked:
    """The match after ``rounds``, seated as the next round is (a player who joined starts
    at the first phase with the highest total seated)."""
    state = phase10.Phase10State.start(header.players, header.first_dealer, options_of(rules))
    made: dict[str, int] = {}
    for result in rounds:
        state = _seated(state, header.seating(result.number))
        if result.is_void:
            continue
        made = {name: int(phase) for name, phase in result.kept.get("made", {}).items()}
        scores = {name: points for name, points in result.scores.items() if name in state.in_hand}
        state = state.after(phase10.HandResult(made, scores, result.went_out))
    return Tracked(_seated(state, header.seating(len(rounds) + 1)), made)


def _seated(state: phase10.Phase10State, players: Sequence[str]) -> phase10.Phase10State:
    for name in players:
        if name not in state.seating:
            state = state.with_player(name)
    if tuple(players) == state.seating:
        return state
    return replace(state, seating=tuple(players))


def progress(tracked: Tracked, player: str) -> int:
    """How many phases ``player`` has completed (with ``format: hands`` the phases decide
    nothing: only the totals rank the players)."""
    if tracked.state.options.format == phase10.BY_HANDS:
        return 0
    return len(tracked.state.done.get(player, ()))


def tracker_facts(tracked: Tracked) -> Mapping[str, Any]:
    """What the replay shows of the tracker: each player's completed phases, who made which
    in the last hand, and the phases each may make in the next hand."""
    state = tracked.state
    facts: dict[str, Any] = {
        "phases_done": {n: list(state.done[n]) for n in state.done},
        "made_last": dict(tracked.made_last),
    }
    if not state.over:
        facts["next_phases"] = {n: list(state.allowed_phases(n)) for n in state.in_hand}
        if state.replay:
            facts["replay"] = list(state.replay)
    return facts


# -- a hand checked and scored --------------------------------------------------------------


def check_hand(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> FinalState:
    """A hand's final table (or its turns) checked by :mod:`referee.phase10` against each
    player's phase."""
    players = header.players
    if record.end is not None:
        if record.end != "void" or record.out is not None:
            raise RuleError(NO_ENDING)
        return FinalState(RoundEnding(Ending.VOID, players))
    own = record.notated or {}
    assert isinstance(header.carried, Tracked)
    state = header.carried.state
    hands: Mapping[str, CardsIn | int] = own.get("hands", {})
    if "turns" in own:
        cards = {name: hand for name, hand in hands.items() if not isinstance(hand, int)}
        result = phase10.play_turns(state, own["turns"], cards)
    else:
        if record.out is None:
            raise RuleError(NO_ENDING)
        result = phase10.score_hand(
            state, record.out, own.get("made", {}), hands, own.get("phases")
        )
    scores = {player: result.scores.get(player, 0) for player in players}
    ending = RoundEnding(Ending.OUT, players, player=result.out, penalties=scores)
    return FinalState(ending, kept={"made": dict(result.made)})


def score_hand(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """The player who went out scores 0, every other player the penalty of their cards."""
    assert ending.player is not None
    scores = {player: ending.penalties[player] for player in ending.players}
    return RoundScore(Outcome.OUT, (ending.player,), scores, hand_values=dict(scores))


def match_end(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """The first through the last phase wins (ties by the lowest total, then a replay);
    with ``format: hands`` the lowest total after the last hand."""
    assert isinstance(progress.carried, Tracked)
    state = progress.carried.state
    return MatchEnd(True, state.winners) if state.over else MatchEnd(False)


def next_dealer(rules: Ruleset, progress: MatchProgress) -> str:
    """The deal passes one seat clockwise; in a replay, to the next of the tied players."""
    carried = progress.carried
    if isinstance(carried, Tracked) and carried.state.replay:
        return carried.state.dealer
    return dealer_moves_clockwise(rules, progress)


PLAYERS = range(2, phase10.MOST_PLAYERS + 1)

RULESET = Ruleset(
    id=phase10.RULES_ID,
    name=define_text("ruleset.phase10.name", "Phase 10"),
    description=define_text(
        "ruleset.phase10.description",
        "Ten phases in order; everyone who makes their phase moves on; penalty points for "
        "the cards left; the first through phase 10 wins",
    ),
    min_players=2,
    max_players=phase10.MOST_PLAYERS,
    deal_sizes=dict.fromkeys(PLAYERS, phase10.HAND_SIZE),
    decks=dict.fromkeys(PLAYERS, 2),
    target=None,
    option_table=phase10.OPTION_TABLE,
    presets=(
        preset(
            phase10.RULES_ID,
            "standard",
            define_text("preset.phase10.standard", "Standard rules"),
            {},
        ),
        *phase10.PRESETS,
    ),
    round_form=RoundForm((OUT, VOID), kind=PHASE10_HAND),
    turn_style=TurnStyle.NONE,
    layoffs=False,
    ranking=Ranking.LOWEST_TOTAL,
    check_round=check_hand,
    score_round=score_hand,
    match_end=match_end,
    next_dealer=next_dealer,
    no_ending_message=NO_ENDING,
    tracker=Tracker(tracked, progress, tracker_facts),
    pieces=Pieces(read_round=read_hand),
    menu_order=10,
)

__all__ = ["RULESET"]
