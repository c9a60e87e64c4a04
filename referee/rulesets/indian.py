"""``indian``: Indian Rummy, 13 cards, a cut joker, pools of 101 or 201, deals or points.

A deal is entered as its end (MATCH_FORMAT.md): the cut card (a round input), who showed
(``show``, optionally with the cards as grouped: ``groups``, and the ``finish`` card), the
other players' 13 cards or their counts (``hands``), who dropped (``drops``) and who showed
wrongly (``wrong_shows``).  :func:`check_deal` checks it (the show by
:func:`referee.indian.check_show`, each loser counted by :func:`referee.indian.least_count`)
and gives every player's penalty; :func:`score_deal` turns penalties into scores (a pool
adds them up; deals and points pay the winner the others' points).

In a pool a player whose total reaches the limit is out: not dealt in
(:func:`players_in_pool`), skipped by the deal (:func:`dealer_skips_players_out`), and may
come back once, right after going out, while no total still in is above 79 (174 in
``pool201``): :func:`rejoin_totals`.  The last player left wins (:func:`indian_match_end`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee import indian
from referee.cards import Card
from referee.errors import MatchFileError, RefereeError, RuleError
from referee.messages import Reason, define_message, define_text
from referee.notation import format_cards
from referee.rulesets.base import (
    DEAL_END,
    VOID,
    AceOrder,
    EndingChoice,
    HandSize,
    MatchEnd,
    MatchProgress,
    Pool,
    RoundForm,
    Ruleset,
    Stopping,
    TurnStyle,
    best_players,
    card_values,
    seat_after,
)
from referee.rulesets.options import OptionType, RoundInput, one_of, option, preset
from referee.scoring import Ending, FinalState, Outcome, RoundEnding, RoundScore

if TYPE_CHECKING:
    from referee.matchfile import MatchHeader, RoundRecord

FORMATS = ("pool101", "pool201", "deals", "points")
POOLS = {"pool101": (101, 79), "pool201": (201, 174)}  # elimination at, rejoin while not above
POOL201 = {"format": "pool201"}
DEALT = 13

NO_ENDING = define_message(
    "round.no_ending.indian",
    'the deal does not say how it ended: give "show" with the player who showed, or the '
    '"drops" and "wrong_shows" that left one player in the deal, or "end": "void"',
)
END_NOT_VOID = define_message(
    "indian.end_not_void",
    'a deal of Indian rummy ends with a show or with one player left; "end" can only be "void"',
)
SHOW_AND_END = define_message(
    "indian.show_and_end", 'a deal ends one way only, but this one gives "show" and "end"'
)
NOT_FOR_DEALS = define_message(
    "indian.not_for_deals",
    '"{field}" is not used in Indian rummy: a deal is entered as its end (show, hands, drops, '
    "wrong shows)",
)
NOT_IN_DEAL = define_message(
    "indian.not_in_deal",
    "{player} is out of the pool, not in this deal",
)
TWICE_IN_DEAL = define_message(
    "indian.twice_in_deal", "{player} cannot both {first} and {second} in one deal"
)
WORD_SHOW = define_message("indian.word_show", "show")
WORD_DROP = define_message("indian.word_drop", "drop")
WORD_WRONG_SHOW = define_message("indian.word_wrong_show", "show wrongly")
GROUPS_ONLY_SHOWER = define_message(
    "indian.groups_only_shower",
    '"groups" gives the cards of the player who showed, {player}, and no one else\'s',
)
WITHOUT_SHOW = define_message(
    "indian.without_show", '"{field}" belongs to a show, but nobody showed in this deal'
)
SHOW_NOT_VALID = define_message(
    "indian.show_not_valid",
    '{player}\'s show is not valid: {why}. A wrong show is written under "wrong_shows"',
)
SHOW_NOT_VALID_TYPED = define_message(
    "indian.show_not_valid_typed",
    "{player}'s show is not valid: {why} (as typed, {typed}). A wrong show is written under "
    '"wrong_shows"',
)
# The same refusals on a screen that offers to record the show as a wrong show itself.
SHOW_REFUSED = define_message("indian.show_refused", "{player}'s show is not valid: {why}")
SHOW_REFUSED_TYPED = define_message(
    "indian.show_refused_typed", "{player}'s show is not valid: {why} (as typed, {typed})"
)
HAND_MISSING = define_message(
    "indian.hand_missing",
    '{player} lost the deal: give {player}\'s 13 cards, or their count, under "hands"',
)
NO_HAND_COUNTED = define_message(
    "indian.no_hand_counted",
    "{player} {why}: no hand of theirs is counted in this deal",
)
WHY_SHOWED = define_message("indian.why_showed", "showed")
WHY_DROPPED = define_message("indian.why_dropped", "dropped")
WHY_WRONG = define_message("indian.why_wrong", "showed wrongly")
WHY_LAST_IN = define_message("indian.why_last_in", "is the last left in the deal and wins it")
HAND_OF = define_message("indian.hand_of", "{player}'s hand: {why}")
COUNT_TOO_HIGH = define_message(
    "indian.count_too_high",
    "{player}'s count is given as {points}, but a count is at most the full count, {full}",
)
COUNT_IMPOSSIBLE = define_message(
    "indian.count_impossible",
    "{player}'s count is given as {points}, but no hand counts that: a count is 0, or from 2 "
    "up to the full count, {full} (no card is worth 1)",
)
NOT_ONE_LEFT = define_message(
    "indian.not_one_left",
    "nobody showed, so exactly one player is left in the deal (not dropped, not a wrong "
    "show), but here {count} are: {players}",
)
NOBODY_LEFT = define_message(
    "indian.nobody_left",
    "nobody is left in the deal: one player must stay in (the winner) when the others drop "
    "or show wrongly",
)
NO_REJOIN_FORMAT = define_message(
    "indian.no_rejoin_format", "players come back only into a pool (101 or 201), not in {format}"
)
NO_REJOIN_OPTION = define_message(
    "indian.no_rejoin_option", "this match is played without rejoining (option rejoin: false)"
)
REJOIN_NOT_OUT = define_message(
    "indian.rejoin_not_out",
    "{player} cannot rejoin: {player} is still in the pool ({total}, below {limit})",
)
REJOIN_TWICE = define_message(
    "indian.rejoin_twice", "{player} cannot rejoin: a player comes back once per match"
)
REJOIN_LATE = define_message(
    "indian.rejoin_late",
    "{player} cannot rejoin: a player comes back only before the deal right after going out",
)
REJOIN_TOO_HIGH = define_message(
    "indian.rejoin_too_high",
    "{player} cannot rejoin: {other} is still in with {total}, above {ceiling}",
)
NOTE_SHOW = define_message("indian.note_show", "{player} showed: 0")
NOTE_SHOW_UNCHECKED = define_message(
    "indian.note_show_unchecked", "{player} showed: 0 (the show's cards were not given)"
)
NOTE_LAST_IN = define_message("indian.note_last_in", "{player} is the last left in the deal: 0")
NOTE_COUNT = define_message(
    "indian.note_count", "{player} counts {count}: {groups}; in no group {ungrouped}"
)
NOTE_COUNT_CAPPED = define_message(
    "indian.note_count_capped",
    "{player} counts the full count, {count} ({points} in the best arrangement: {groups}; "
    "in no group {ungrouped})",
)
NOTE_COUNT_NO_RULE = define_message(
    "indian.note_count_no_rule",
    "{player} has no two sequences with one pure: all 13 cards count, {points}, so {count}",
)
NOTE_COUNT_GIVEN = define_message("indian.note_count_given", "{player} counts {count} (given)")
NOTE_DROP_FIRST = define_message("indian.note_drop_first", "{player} dropped first: {points}")
NOTE_DROP_MIDDLE = define_message("indian.note_drop_middle", "{player} dropped midway: {points}")
NOTE_WRONG_SHOW = define_message("indian.note_wrong_show", "{player} showed wrongly: {points}")
NOTE_POOL = define_message("indian.note_pool", "in a pool every player adds their penalty")
NOTE_DEALS = define_message("indian.note_deals", "{winner} collects the others' points: {points}")
NOTHING = define_message("indian.nothing", "nothing")
SHOW_UNCHECKED = define_message(
    "points.unchecked.indian_show",
    "{player}'s show was taken as valid without its cards: the referee could not check it",
)
COUNT_UNCHECKED = define_message(
    "points.unchecked.indian",
    "{player}'s count was given as {points}, not as cards: the referee could not check it "
    "nor that those cards are not also in another hand",
)


def setting(rules: Ruleset, name: str) -> Any:
    """An option's value in force (its default on the plain ruleset)."""
    if name in rules.settings:
        return rules.settings[name]
    return rules.declared(name).default_for(rules.settings)


def pool_limits(rules: Ruleset) -> tuple[int, int] | None:
    """(elimination total, rejoin ceiling) of a pool, ``None`` for deals and points."""
    return POOLS.get(setting(rules, "format"))


def fixed_deals(rules: Ruleset) -> int | None:
    """The number of deals the format ``deals`` plays; None for a pool or points."""
    return int(setting(rules, "deals")) if setting(rules, "format") == "deals" else None


# -- a deal ------------------------------------------------------------------------------


def check_deal(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> FinalState:
    """Check a deal as entered and find every player's penalty (see the module's text)."""
    rules, players = header.rules, header.players
    for key in ("turns", "out", "knock", "closer", "melds", "at_once", "closing_card"):
        if getattr(record, key) is not None:
            raise MatchFileError(NOT_FOR_DEALS, field=key)
    if record.end is not None:
        if record.end != "void":
            raise RuleError(END_NOT_VOID)
        if record.show is not None:
            raise RuleError(SHOW_AND_END)
        return FinalState(RoundEnding(Ending.VOID, players))
    drops = dict(record.drops or {})
    wrong = tuple(record.wrong_shows or ())
    named = [*drops, *wrong, *([record.show] if record.show else [])]
    named += list(record.hands or {}) + list(record.points or {}) + list(record.groups or {})
    for player in named:
        if player not in players:
            raise RuleError(NOT_IN_DEAL, player=player)
    _refuse_overlaps(record.show, drops, wrong)
    cut = record.inputs.get("cut")
    decks = setting(rules, "decks") or rules.copies(len(header.seated or players))
    full = setting(rules, "full_count")
    penalties: dict[str, int] = {}
    notes: list[Reason] = []
    unchecked: list[Reason] = []
    for player in players:
        if player in drops:
            key = "first_drop" if drops[player] == "first" else "middle_drop"
            penalties[player] = setting(rules, key)
            note = NOTE_DROP_FIRST if drops[player] == "first" else NOTE_DROP_MIDDLE
            notes.append(Reason.of(note, player=player, points=penalties[player]))
        elif player in wrong:
            penalties[player] = full
            notes.append(Reason.of(NOTE_WRONG_SHOW, player=player, points=full))
    winner = record.show
    shown: tuple[Card, ...] = ()
    if winner is None:
        for field_name in ("groups", "finish"):
            if getattr(record, field_name) is not None:
                raise MatchFileError(WITHOUT_SHOW, field=field_name)
        left = [p for p in players if p not in drops and p not in wrong]
        if not left:
            raise RuleError(NOBODY_LEFT)
        if len(left) > 1:
            raise RuleError(NOT_ONE_LEFT, count=len(left), players=", ".join(left))
        winner = left[0]
        for player in [*(record.hands or {}), *(record.points or {})]:
            why = (
                Reason.of(WHY_LAST_IN)
                if player == winner
                else _why_not_counted(player, drops, wrong)
            )
            raise RuleError(NO_HAND_COUNTED, player=player, why=why)
        notes.insert(0, Reason.of(NOTE_LAST_IN, player=winner))
        ending = Ending.LAST_IN
    else:
        ending = Ending.SHOW
        groups = dict(record.groups or {})
        if any(player != winner for player in groups):
            raise RuleError(GROUPS_ONLY_SHOWER, player=winner)
        if winner in groups:
            show = indian.check_show(groups=groups[winner], cut=cut, decks=decks, full_count=full)
            if not show.valid and show.typed_problems:
                raise RuleError(
                    SHOW_NOT_VALID_TYPED,
                    player=winner,
                    why=show.reasons[0],
                    typed=list(show.typed_problems),
                )
            if not show.valid:
                raise RuleError(SHOW_NOT_VALID, player=winner, why=show.reasons[0])
            shown = tuple(card for group in groups[winner] for card in group)
            notes.insert(0, Reason.of(NOTE_SHOW, player=winner))
        else:
            notes.insert(0, Reason.of(NOTE_SHOW_UNCHECKED, player=winner))
            unchecked.append(Reason.of(SHOW_UNCHECKED, player=winner))
    penalties[winner] = 0
    hands = dict(record.hands or {})
    points = dict(record.points or {})
    for player in [*hands, *points]:
        if player in penalties:
            raise RuleError(
                NO_HAND_COUNTED, player=player, why=_why_not_counted(player, drops, wrong)
            )
    for player in players:
        if player in penalties:
            continue
        if player in points:
            if points[player] > full:
                raise RuleError(COUNT_TOO_HIGH, player=player, points=points[player], full=full)
            if points[player] == 1:
                raise RuleError(COUNT_IMPOSSIBLE, player=player, points=1, full=full)
            penalties[player] = points[player]
            notes.append(Reason.of(NOTE_COUNT_GIVEN, player=player, count=points[player]))
            unchecked.append(Reason.of(COUNT_UNCHECKED, player=player, points=points[player]))
        elif player in hands:
            try:
                count = indian.least_count(hands[player], cut, decks=decks, full_count=full)
            except RefereeError as error:
                raise RuleError(HAND_OF, player=player, why=error.reason) from None
            penalties[player] = count.count
            notes.append(_count_note(player, count))
        else:
            raise RuleError(HAND_MISSING, player=player)
    everything = [*shown, *(card for cards in hands.values() for card in cards)]
    if record.finish is not None:
        everything.append(record.finish)
    indian.check_deck(everything, decks, cut)
    facts = RoundEnding(
        ending,
        players,
        {player: hands[player] for player in players if player in hands},
        winner,
        points={player: points[player] for player in players if player in points},
        penalties={player: penalties[player] for player in players},
        drops=drops,
        wrong_shows=wrong,
        notes=tuple(notes),
    )
    return FinalState(facts, unchecked=tuple(unchecked))


def _refuse_overlaps(show: str | None, drops: Mapping[str, str], wrong: Sequence[str]) -> None:
    for player in drops:
        if player == show:
            raise RuleError(
                TWICE_IN_DEAL,
                player=player,
                first=Reason.of(WORD_SHOW),
                second=Reason.of(WORD_DROP),
            )
        if player in wrong:
            raise RuleError(
                TWICE_IN_DEAL,
                player=player,
                first=Reason.of(WORD_DROP),
                second=Reason.of(WORD_WRONG_SHOW),
            )
    if show in wrong:
        raise RuleError(
            TWICE_IN_DEAL,
            player=show,
            first=Reason.of(WORD_SHOW),
            second=Reason.of(WORD_WRONG_SHOW),
        )


def _why_not_counted(player: str, drops: Mapping[str, str], wrong: Sequence[str]) -> Reason:
    if player in drops:
        return Reason.of(WHY_DROPPED)
    if player in wrong:
        return Reason.of(WHY_WRONG)
    return Reason.of(WHY_SHOWED)


def _count_note(player: str, count: Any) -> Reason:
    arrangement = count.arrangement
    if not count.meets_rule:
        return Reason.of(NOTE_COUNT_NO_RULE, player=player, points=count.points, count=count.count)
    groups = " | ".join(str(group) for group in arrangement.groups)
    ungrouped = format_cards(arrangement.ungrouped) or Reason.of(NOTHING)
    if count.capped:
        return Reason.of(
            NOTE_COUNT_CAPPED,
            player=player,
            count=count.count,
            points=count.points,
            groups=groups,
            ungrouped=ungrouped,
        )
    return Reason.of(
        NOTE_COUNT, player=player, count=count.count, groups=groups, ungrouped=ungrouped
    )


def score_deal(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    """A pool adds every player's penalty to their total; deals and points pay the winner
    the sum of the others' points, each of whom scores minus their own."""
    winner = ending.player
    assert winner is not None
    penalties = dict(ending.penalties)
    outcome = Outcome.SHOW if ending.ending is Ending.SHOW else Outcome.LAST_IN
    notes = list(ending.notes)
    if pool_limits(rules) is not None:
        scores = dict(penalties)
        notes.append(Reason.of(NOTE_POOL))
    else:
        collected = sum(penalties.values())
        scores = {player: -points for player, points in penalties.items()}
        scores[winner] = collected
        notes.append(Reason.of(NOTE_DEALS, winner=winner, points=collected))
    return RoundScore(outcome, (winner,), scores, tuple(notes), hand_values=penalties)


# -- the match ---------------------------------------------------------------------------


def players_in_pool(
    rules: Ruleset, totals: Mapping[str, int], seated: tuple[str, ...]
) -> tuple[str, ...]:
    """The players dealt in: in a pool, those whose total is below the limit."""
    limits = pool_limits(rules)
    if limits is None:
        return seated
    return tuple(player for player in seated if totals.get(player, 0) < limits[0])


def dealer_skips_players_out(rules: Ruleset, progress: MatchProgress) -> str:
    """The deal moves one seat clockwise, skipping players out of the pool."""
    dealt = players_in_pool(rules, progress.totals, progress.players)
    dealer = progress.dealer
    for _ in progress.players:
        dealer = seat_after(progress.players, dealer)
        if dealer in dealt:
            return dealer
    return dealer


def indian_match_end(rules: Ruleset, progress: MatchProgress) -> MatchEnd:
    """A pool ends when one player is left in it; deals after the fixed number of deals,
    with one more deal while the top is tied; points only when the players stop."""
    if pool_limits(rules) is not None:
        left = players_in_pool(rules, progress.totals, progress.players)
        if len(left) <= 1:
            return MatchEnd(True, left or best_players(progress.totals, progress.players))
        return MatchEnd(False)
    if setting(rules, "format") == "deals" and progress.rounds_counted >= setting(rules, "deals"):
        top = best_players(progress.totals, progress.players)
        if len(top) == 1:
            return MatchEnd(True, top)
    return MatchEnd(False)


def rejoin_totals(
    rules: Ruleset,
    players: tuple[str, ...],
    totals: Mapping[str, int],
    before: Mapping[str, int],
    seated: tuple[str, ...],
    came_back: frozenset[str],
) -> dict[str, int]:
    """The totals players out of a pool come back with (the highest total still in, plus
    1), or why they may not come back."""
    limits = pool_limits(rules)
    if limits is None:
        raise RuleError(NO_REJOIN_FORMAT, format=setting(rules, "format"))
    if not setting(rules, "rejoin"):
        raise RuleError(NO_REJOIN_OPTION)
    limit, ceiling = limits
    for player in players:
        if totals[player] < limit:
            raise RuleError(REJOIN_NOT_OUT, player=player, total=totals[player], limit=limit)
        if player in came_back:
            raise RuleError(REJOIN_TWICE, player=player)
        if before.get(player, 0) >= limit:
            raise RuleError(REJOIN_LATE, player=player)
    still_in = [p for p in seated if totals[p] < limit]
    for other in still_in:
        if totals[other] > ceiling:
            raise RuleError(
                REJOIN_TOO_HIGH,
                player=players[0],
                other=other,
                total=totals[other],
                ceiling=ceiling,
            )
    highest = max(totals[p] for p in still_in)
    return dict.fromkeys(players, highest + 1)


# -- options -----------------------------------------------------------------------------


def _apply_format(rules: Ruleset, value: str) -> Ruleset:
    return replace(rules, stopping=Stopping() if value == "points" else None)


def _apply_decks(rules: Ruleset, value: int | None) -> Ruleset:
    if value is None:
        return replace(rules, decks=BY_PLAYERS)
    return replace(rules, decks=dict.fromkeys(range(2, 7), value))


def _remember(name: str) -> Any:
    def apply(rules: Ruleset, value: Any) -> Ruleset:
        return replace(rules, settings={**rules.settings, name: value})

    return apply


BY_PLAYERS = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2}

OPTIONS = (
    option(
        "indian",
        "format",
        OptionType.CHOICE,
        "pool101",
        choices=FORMATS,
        usual=True,
        label=define_text("option.indian.format.label", "Match"),
        explanation=define_text(
            "option.indian.format.explanation",
            "In a pool a player is out at 101 (or 201) and the last one left wins; otherwise "
            "the winner of each deal collects the others' points, over a set number of deals "
            "or until the players stop.",
        ),
        summary=define_text("option.indian.format.summary", "Played as {value}"),
        apply=_apply_format,
    ),
    option(
        "indian",
        "deals",
        OptionType.NUMBER,
        2,
        minimum=1,
        maximum=6,
        requires={"format": "deals"},
        usual=True,
        label=define_text("option.indian.deals.label", "Deals"),
        explanation=define_text(
            "option.indian.deals.explanation",
            "How many deals are played; a tie at the top plays one more.",
        ),
        summary=define_text("option.indian.deals.summary", "{value} deals"),
    ),
    option(
        "indian",
        "decks",
        OptionType.CHOICE,
        None,
        choices=(None, 1, 2),
        label=define_text("option.indian.decks.label", "Decks"),
        explanation=define_text(
            "option.indian.decks.explanation",
            "Decks with their printed joker (as the rules say: one for 2 players, two for "
            "3-6; one deck only with 2 players).",
        ),
        summary=define_text("option.indian.decks.summary", "{value} deck(s)"),
        most_players={1: 2},
        apply=_apply_decks,
    ),
    option(
        "indian",
        "wild",
        OptionType.SWITCH,
        True,
        label=define_text("option.indian.wild.label", "Cut joker"),
        explanation=define_text(
            "option.indian.wild.explanation",
            "A card is cut each deal and its rank is wild; unticked: printed jokers only.",
        ),
        summary=define_text("option.indian.wild.summary", "No cut joker: printed jokers only"),
    ),
    option(
        "indian",
        "rejoin",
        OptionType.SWITCH,
        True,
        requires={"format": one_of(*POOLS)},
        label=define_text("option.indian.rejoin.label", "Rejoin"),
        explanation=define_text(
            "option.indian.rejoin.explanation",
            "In a pool, a player who is out may come back once, with the highest total "
            "still in plus 1, while no total still in is above 79 (174 in pool201).",
        ),
        summary=define_text("option.indian.rejoin.summary", "No coming back into the pool"),
    ),
    option(
        "indian",
        "first_drop",
        OptionType.NUMBER,
        20,
        minimum=1,
        maximum=200,
        default_when=((POOL201, 25),),
        label=define_text("option.indian.first_drop.label", "First drop"),
        explanation=define_text(
            "option.indian.first_drop.explanation", "Leaving a deal before the first draw."
        ),
        summary=define_text("option.indian.first_drop.summary", "A first drop costs {value}"),
        at_most="middle_drop",
        apply=_remember("first_drop"),
    ),
    option(
        "indian",
        "middle_drop",
        OptionType.NUMBER,
        40,
        minimum=1,
        maximum=200,
        default_when=((POOL201, 50),),
        label=define_text("option.indian.middle_drop.label", "Middle drop"),
        explanation=define_text(
            "option.indian.middle_drop.explanation", "Leaving a deal after drawing."
        ),
        summary=define_text("option.indian.middle_drop.summary", "A middle drop costs {value}"),
        at_most="full_count",
        apply=_remember("middle_drop"),
    ),
    option(
        "indian",
        "full_count",
        OptionType.NUMBER,
        80,
        minimum=1,
        maximum=200,
        label=define_text("option.indian.full_count.label", "Full count"),
        explanation=define_text(
            "option.indian.full_count.explanation",
            "The most a loser's count can be, and what a wrong show costs.",
        ),
        summary=define_text("option.indian.full_count.summary", "The full count is {value}"),
        apply=_remember("full_count"),
    ),
)

PRESETS = (
    preset("indian", "standard", define_text("preset.indian.standard", "Pool 101"), {}),
    preset("indian", "pool201", define_text("preset.indian.pool201", "Pool 201"), POOL201),
    preset(
        "indian",
        "deals",
        define_text("preset.indian.deals", "Two deals"),
        {"format": "deals", "deals": 2},
    ),
)

CUT = RoundInput(
    "cut",
    "card",
    define_text("input.indian.cut.label", "Cut joker"),
    define_text(
        "input.indian.cut.explanation",
        "The card cut after the deal: every card of its rank is a joker (a printed joker "
        "cut: the aces).",
    ),
    required_when={"wild": True},
    optional_for=("void",),
)

SHOW = EndingChoice(
    "show",
    Ending.SHOW,
    define_text("ending.show", "Someone showed"),
    define_text("ending.show.who", "Who showed?"),
    "show",
)

RULESET = Ruleset(
    id="indian",
    name=define_text("ruleset.indian.name", "Indian Rummy"),
    description=define_text(
        "ruleset.indian.description",
        "13 cards, a cut joker, a show needs two sequences (one pure); pool 101/201 or deals",
    ),
    min_players=2,
    max_players=6,
    deal_sizes=dict.fromkeys(range(2, 7), DEALT),
    decks=BY_PLAYERS,
    jokers_per_deck=1,
    values=card_values(10, None, 10, 10),
    joker_value=0,
    ace_order=AceOrder.LOW_OR_HIGH,
    target=None,
    option_table=OPTIONS,
    presets=PRESETS,
    round_inputs=(CUT,),
    turn_style=TurnStyle.NONE,
    round_form=RoundForm((SHOW, VOID), kind=DEAL_END),
    hand_size=HandSize(exact=DEALT),
    round_is_a_deal=True,
    check_round=check_deal,
    score_round=score_deal,
    next_dealer=dealer_skips_players_out,
    match_end=indian_match_end,
    pool=Pool(pool_limits, players_in_pool, rejoin_totals, fixed_deals),
    no_ending_message=NO_ENDING,
    menu_order=6,
)
