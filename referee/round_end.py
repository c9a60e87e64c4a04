"""How a round ended, and the checks on its final state.

A round of the match file states how it ended (``out``, ``knock``, ``closer``
or ``end``), or its turns show it (a turn marked ``"out": true``); it ends one
way only.  :func:`final_state` reads that ending, replays the round's turns (a
:class:`~referee.round.RoundInProgress`) and checks the round's final state
against the rules: every hand present (and the emptied one empty), hand sizes
(gin's 10, never more than dealt where hands never grow, exactly what the turns
leave), "all at once" and the closing card as the turns show them, the melds
stated against the melds laid, a gin knocker's own spread, the knock limit, and
the deck (:mod:`referee.integrity`).  What it returns, a :class:`FinalState`,
is all a ruleset's ``score_round`` hook needs (:class:`~referee.scoring.RoundEnding`)
plus what the replay shows of the round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from referee.cards import Card
from referee.errors import MatchFileError, RuleError
from referee.integrity import (
    PLACE_CLOSING,
    PLACE_HAND,
    PLACE_PLAYER_MELD,
    CardPlaces,
    join_reasons,
    physical_card,
)
from referee.matchfile import MatchHeader, RoundRecord, TableEntry
from referee.melds import NUMBERED_MELD_ILLEGAL, Meld, check_meld, verify_layoff, verify_meld
from referee.messages import Reason, define_message
from referee.notation import format_cards
from referee.round import (
    LAYOFF_FAILED,
    NO_TURNS,
    LaidOffCard,
    RoundInProgress,
    TableMeld,
    add_table_places,
    laid_melds,
    verify_contract,
)
from referee.rulesets import Ruleset, TurnStyle
from referee.scoring import Ending, FinalState, RoundEnding

ENDING_NOT_IN_RULES = define_message(
    "round.ending_not_in_rules", 'a round of {rules} cannot end "{ending}"'
)
TWO_ENDINGS = define_message(
    "round.two_endings", "a round ends one way only, but this one gives {first} and {second}"
)
CLOSER_NOT_IN_RULES = define_message(
    "round.closer_not_in_rules",
    "no closing card closes a round of {rules}: name who went out, not who closed",
)
OUT_CONTRADICTS = define_message(
    "round.out_contradicts",
    '"{field}" says {said}, but the turns show {player} going out in turn {turn_number}',
)
OUT_NOT_IN_TURNS = define_message(
    "round.out_not_in_turns",
    '"{field}" says {player} went out, but no turn is marked "out": true; mark the turn in '
    "which the hand became empty",
)
OUT_BUT_ENDED = define_message(
    "round.out_but_ended",
    '{player} went out in turn {turn_number}, so the round cannot end "{ending}"',
)
AT_ONCE_SAID_TRUE = define_message(
    "round.at_once_said_true",
    '"at_once" is true, but {player} had already put cards on the table in turn {turn_number}',
)
AT_ONCE_SAID_FALSE = define_message(
    "round.at_once_said_false",
    '"at_once" is false, but {player} put no card on the table before going out in turn '
    "{turn_number}: that is going out all at once",
)
HAND_MISSING = define_message(
    "round.hand_missing",
    '{player}\'s hand is missing: give the cards left in every hand under "hands"',
)
OUT_HAND_NOT_EMPTY = define_message(
    "round.out_hand_not_empty", "{player} went out, so {player}'s hand is empty, not {cards}"
)
EMPTY_HAND_IS_OUT = define_message(
    "round.empty_hand_is_out",
    "{player}'s hand is empty, but an empty hand ends the round with that player going out",
)
HAND_TOO_BIG = define_message(
    "round.hand_too_big",
    "{player} holds {count} cards; in a {players}-player game of {rules} a hand never holds "
    "more than {dealt}",
)
HAND_COUNT = define_message(
    "round.hand_count",
    "{player} was dealt {dealt} cards and put {played} on the table, so holds {expected}, "
    "not {count}",
)
HAND_COUNT_TAKEN = define_message(
    "round.hand_count_taken",
    "{player} was dealt {dealt} cards, took {taken} more from the discard pile and put {played} "
    "on the table, so holds {expected}, not {count}",
)
HAND_SIZE_FIXED = define_message(
    "round.hand_size_fixed",
    "{player}'s hand holds {count} cards; when a round of {rules} is scored each hand holds {size}",
)
KNOCK_TOO_HIGH = define_message(
    "round.knock_too_high",
    "{player} cannot knock with a hand worth {value}: a knock in {rules} needs {limit} or less",
)
KNOCK_DEADWOOD_TOO_HIGH = define_message(
    "round.knock_deadwood_too_high",
    "{player} cannot knock with {value} deadwood: a knock in {rules} needs {limit} or less",
)
KNOCK_GIN_ONLY = define_message(
    "round.knock_gin_only",
    "{player} cannot knock with {value} deadwood: with an ace upcard only gin ends the round",
)
CLOSING_CARD_MISSING = define_message(
    "round.closing_card_missing", 'the round was closed: give the "closing_card" {player} discarded'
)
CLOSING_CARD_CONTRADICTS = define_message(
    "round.closing_card_contradicts",
    '"closing_card" says {said}, but {player} discarded {card} in turn {turn_number}',
)
MELDS_CONTRADICT = define_message(
    "round.melds_contradict",
    '"melds" for {player} do not match the melds laid in the turns',
)
ONLY_KNOCKER_MELDS = define_message(
    "round.only_knocker_melds", "\"melds\" gives the knocker's spread only, so only {player}'s"
)
KNOCKER_MELD_NOT_IN_HAND = define_message(
    "round.knocker_meld_not_in_hand", "{card} is in {player}'s melds but not in {player}'s hand"
)
POINTS_IN_TURNS = define_message(
    "points.in_turns",
    "{player}'s hand is given as points, but this round was entered turn by turn: give the "
    "cards left, so that they can be checked against the turns",
)
OUT_POINTS_NOT_ZERO = define_message(
    "points.out_not_zero", "{player} went out, so {player}'s hand counts 0, not {points}"
)
POINTS_TOO_HIGH = define_message(
    "points.too_high",
    "{player}'s hand cannot count {points}: in {rules} a hand holds at most {cards} cards, "
    "which count at most {most}",
)
POINTS_IMPOSSIBLE = define_message(
    "points.impossible",
    "{player}'s hand cannot count {points}: in {rules} every card counts {values}, and no "
    "hand adds up to {points}",
)
DEADWOOD_TOO_HIGH = define_message(
    "points.deadwood_too_high",
    "{player}'s deadwood cannot be {points}: the 10 cards of a hand leave at most {most}",
)
DEADWOOD_BOTH_OR_NEITHER = define_message(
    "points.deadwood_both_or_neither",
    "give both hands as cards (the referee finds the melds and lay-offs) or both as the "
    "deadwood left after the lay-offs (as you counted it), not {cards}'s hand as cards and "
    "{points}'s as points",
)
DEADWOOD_NO_MELDS = define_message(
    "points.deadwood_no_melds",
    "the knocker's melds can only be used with the cards: give both hands as cards, or "
    "leave the melds out",
)

HAND_COUNT_BOUGHT = define_message(
    "round.hand_count_bought",
    "{player} was dealt {dealt} cards, bought {bought} discard(s) (each with a penalty card) "
    "and put {played} on the table, so holds {expected}, not {count}",
)
TABLE_MISSING = define_message(
    "round.table_missing",
    "give the table: every meld on the table at the end of the round, who laid it and the "
    'cards others laid off on it ("table")',
)
TABLE_WITH_TURNS = define_message(
    "round.table_with_turns",
    'this round was entered turn by turn, so the table follows from the turns: leave out "table"',
)
TABLE_UNCHECKED = define_message(
    "round.table_unchecked",
    "the table was not given: the referee could not check who went down with which contract "
    "nor the lay-offs",
)
LAYOFF_NOT_DOWN = define_message(
    "round.layoff_not_down",
    "{player} laid off on meld {number} but has no contract on the table: nobody lays off "
    "before going down",
)
OUT_NOT_DOWN = define_message(
    "round.out_not_down",
    "{player} went out, so went down first, but the table shows no contract of {player}'s",
)


def stated_ending(rules: Ruleset, record: RoundRecord) -> tuple[Ending | None, str | None]:
    """The ending a round states (``None`` when only the turns can say) and who it names.

    A round ends one way only: ``end`` beside ``out``, ``knock`` or ``closer`` (or two
    of those) is an error naming both.
    """
    stated: list[tuple[str, Ending, str | None]] = []
    if record.end is not None:
        stated.append((f'"end": "{record.end}"', Ending(record.end), None))
    if record.knock is not None:
        stated.append(('"knock"', Ending.KNOCK, record.knock))
    out = record.out
    if record.closer is not None:  # remi-indonesia's name for going out: the same ending
        if out is not None and out != record.closer:
            raise RuleError(TWO_ENDINGS, first='"out"', second='"closer"')
        out = record.closer
    if out is not None:
        stated.append(('"out"' if record.out is not None else '"closer"', Ending.OUT, out))
    if len(stated) > 1:
        raise RuleError(TWO_ENDINGS, first=stated[0][0], second=stated[1][0])
    if record.closer is not None and rules.closing is None:
        raise RuleError(CLOSER_NOT_IN_RULES, rules=rules.name)
    if not stated:
        return None, None
    _, ending, player = stated[0]
    if ending not in rules.endings:
        raise RuleError(ENDING_NOT_IN_RULES, rules=rules.name, ending=ending.value)
    return ending, player


def final_state(header: MatchHeader, record: RoundRecord, dealer: str, number: int) -> FinalState:
    """Check a round's ending and final state against the rules (:class:`RefereeError`
    otherwise, turn errors carrying the turn).  A void round is not checked."""
    rules, players = header.rules, header.players
    ending, player = stated_ending(rules, record)
    if ending is Ending.VOID:
        return FinalState(RoundEnding(Ending.VOID, players))
    live = None
    if record.turns is not None and record.points:
        raise MatchFileError(POINTS_IN_TURNS, player=next(iter(record.points)))
    if record.turns is not None:
        if rules.turn_style is TurnStyle.NONE:
            raise RuleError(NO_TURNS, rules=rules.name)
        live = RoundInProgress.start(header, dealer, number)
        for turn in record.turns:
            live = live.apply_turn(turn)
        ending, player = _reconcile_turns(rules, live, ending, player, record)
    if ending is None:
        raise RuleError(rules.no_ending_message)
    at_once = _at_once(rules, live, record, player) if ending is Ending.OUT else False
    hands = _hands(rules, players, record, ending, player)
    points = _points(rules, players, record, ending, player)
    table = _table(rules, players, record, live, ending, player)
    melds = _final_melds(rules, players, record, live)
    closing = _closing_card(rules, record, live, ending, player)
    knocker_melds = _knocker_melds(rules, record, ending, player, hands)
    _verify_hand_sizes(rules, players, hands, live, ending, player)
    _verify_round_integrity(rules, players, hands, live, record, closing, table)
    if ending is Ending.KNOCK:
        _verify_knock(rules, hands, points, player)
    facts = RoundEnding(
        ending,
        players,
        hands,
        player,
        at_once,
        {p: tuple(meld.cards for meld in melds.get(p, ())) for p in players},
        closing,
        knocker_melds,
        points,
        table=table,
    )
    unchecked = _unchecked(rules, players, points)
    if rules.round_form.table and live is None and record.table is None:
        unchecked = (Reason.of(TABLE_UNCHECKED), *unchecked)
    return FinalState(facts, live, melds, unchecked)


def _table(
    rules: Ruleset,
    players: tuple[str, ...],
    record: RoundRecord,
    live: RoundInProgress | None,
    ending: Ending,
    player: str | None,
) -> tuple[TableMeld, ...]:
    """The table at the end of the round: from the turns, or the final table entered (every
    meld legal, every lay-off on it legal; contract: each player's melds exactly the
    contract, lay-offs and going out only after going down)."""
    if live is not None:
        if record.table is not None:
            raise MatchFileError(TABLE_WITH_TURNS)
        return live.table
    if record.table is None:
        if rules.round_form.table_required and ending in (Ending.OUT, Ending.STOCK):
            raise MatchFileError(TABLE_MISSING)
        return ()
    table = []
    for number, entry in enumerate(record.table, 1):
        verdict = check_meld(entry.cards, rules)
        if verdict.meld is None:
            raise RuleError(
                Reason.of(
                    NUMBERED_MELD_ILLEGAL,
                    index=number,
                    meld=format_cards(entry.cards),
                    reason=verdict.reason,
                )
            )
        meld = verdict.meld
        laid_off = tuple(
            LaidOffCard(card, by, None) for by, cards in entry.layoffs.items() for card in cards
        )
        if laid_off:
            try:
                meld = verify_layoff(meld, [lay.card for lay in laid_off], rules)
            except RuleError as error:
                raise RuleError(
                    Reason.of(LAYOFF_FAILED, number=number, reason=error.reason)
                ) from None
        table.append(TableMeld(number, entry.by, None, meld, laid_off))
    if rules.contract is not None:
        _verify_final_contracts(rules, players, record.table, table, ending, player)
    return tuple(table)


def _verify_final_contracts(
    rules: Ruleset,
    players: tuple[str, ...],
    entries: Sequence[TableEntry],
    table: Sequence[TableMeld],
    ending: Ending,
    player: str | None,
) -> None:
    down = set()
    for p in players:
        laid = [check_meld(entry.cards, rules).meld for entry in entries if entry.by == p]
        if laid:
            verify_contract(rules, p, [meld for meld in laid if meld is not None])
            down.add(p)
    for meld in table:
        for lay in meld.layoffs:
            if lay.player not in down:
                raise RuleError(LAYOFF_NOT_DOWN, player=lay.player, number=meld.number)
    if ending is Ending.OUT and player not in down:
        raise RuleError(OUT_NOT_DOWN, player=player)


def _unchecked(
    rules: Ruleset, players: tuple[str, ...], points: Mapping[str, int]
) -> tuple[Reason, ...]:
    """What the referee could not check: a reason per hand given as points (gin: one for
    the two deadwoods)."""
    if not points:
        return ()
    if rules.points_are_deadwood:
        counted = ", ".join(f"{player} {value}" for player, value in points.items())
        return (Reason.of(rules.points_unchecked, counted=counted),)
    cards = rules.most_cards_held(len(players))
    return tuple(
        Reason.of(rules.points_unchecked, player=p, points=value, cards=cards, rules=rules.name)
        for p, value in points.items()
    )


def _verify_knock(
    rules: Ruleset,
    hands: Mapping[str, tuple[Card, ...]],
    points: Mapping[str, int],
    player: str | None,
) -> None:
    """A knock needs a hand worth the knock limit or less (gin's deadwood is the
    adjudication's to count, unless the players counted it)."""
    if rules.knock is None:
        return
    limit = rules.knock.limit
    assert player is not None
    if rules.turn_style is TurnStyle.NONE and player not in points:
        return
    value = points[player] if player in points else rules.hand_value(hands[player])
    if value > limit:
        counted = KNOCK_DEADWOOD_TOO_HIGH if rules.points_are_deadwood else KNOCK_TOO_HIGH
        if rules.points_are_deadwood and limit == 0:
            counted = KNOCK_GIN_ONLY
        raise RuleError(counted, player=player, value=value, rules=rules.name, limit=limit)


def _reconcile_turns(
    rules: Ruleset,
    live: RoundInProgress,
    ending: Ending | None,
    player: str | None,
    record: RoundRecord,
) -> tuple[Ending | None, str | None]:
    """The ending as the turns show it, checked against what the round states."""
    key = "closer" if record.out is None and record.closer is not None else "out"
    if live.out is not None:
        if ending is Ending.OUT and player != live.out:
            raise RuleError(
                OUT_CONTRADICTS, field=key, said=player, player=live.out, turn_number=live.out_turn
            )
        if ending is not None and ending is not Ending.OUT:
            raise RuleError(
                OUT_BUT_ENDED, player=live.out, turn_number=live.out_turn, ending=ending.value
            )
        if Ending.OUT not in rules.endings:
            raise RuleError(ENDING_NOT_IN_RULES, rules=rules.name, ending=Ending.OUT.value)
        return Ending.OUT, live.out
    if ending is Ending.OUT:
        raise RuleError(OUT_NOT_IN_TURNS, field=key, player=player)
    return ending, player


def _at_once(
    rules: Ruleset, live: RoundInProgress | None, record: RoundRecord, player: str | None
) -> bool:
    if not rules.counts_at_once:
        return False
    if live is None:
        return bool(record.at_once)
    assert player is not None and live.out_turn is not None
    earlier = [turn for turn in live.play_turns(player) if turn != live.out_turn]
    shown = not earlier
    if record.at_once is not None and record.at_once != shown:
        if record.at_once:
            raise RuleError(AT_ONCE_SAID_TRUE, player=player, turn_number=earlier[0])
        raise RuleError(AT_ONCE_SAID_FALSE, player=player, turn_number=live.out_turn)
    return shown


def _hands(
    rules: Ruleset,
    players: tuple[str, ...],
    record: RoundRecord,
    ending: Ending,
    player: str | None,
) -> dict[str, tuple[Card, ...]]:
    """Every player's hand at the end (jokers bare), checked for presence and emptiness."""
    given = {
        p: tuple(physical_card(card) for card in cards) for p, cards in (record.hands or {}).items()
    }
    needed = ending not in (Ending.BLOCKED, Ending.DRAW)
    hands: dict[str, tuple[Card, ...]] = {}
    for p in players:
        went_out = ending is Ending.OUT and p == player
        if went_out:
            if given.get(p):
                raise RuleError(OUT_HAND_NOT_EMPTY, player=p, cards=format_cards(given[p]))
            hands[p] = ()
            continue
        if p not in given:
            if needed and not record.has_hand(p):
                raise MatchFileError(HAND_MISSING, player=p)
            continue
        if not given[p] and needed:
            _refuse_empty_hand(rules, ending, p)
        hands[p] = given[p]
    return hands


def _refuse_empty_hand(rules: Ruleset, ending: Ending, player: str) -> None:
    """An empty hand is going out, except at a stock ending where the table takes every card."""
    stock_may_empty = ending is Ending.STOCK and rules.turn_style is TurnStyle.TABLE
    if not stock_may_empty:
        raise RuleError(EMPTY_HAND_IS_OUT, player=player)


def _points(
    rules: Ruleset,
    players: tuple[str, ...],
    record: RoundRecord,
    ending: Ending,
    player: str | None,
) -> dict[str, int]:
    """The hands given as points (the emptied one left out), checked against what a hand
    can count; gin's deadwoods both or neither, the knocker's within the knock limit."""
    given = dict(record.points or {})
    if not given:
        return {}
    if ending is Ending.OUT and player in given:
        if given[player] != 0:
            raise RuleError(OUT_POINTS_NOT_ZERO, player=player, points=given[player])
        del given[player]
    if ending in (Ending.BLOCKED, Ending.DRAW):
        return {}  # nobody scores: the hands count for nothing, so nothing is left unchecked
    count = len(players)
    if rules.points_are_deadwood:
        if given and len(given) != count:
            cards = [p for p in players if p not in given]
            raise RuleError(
                DEADWOOD_BOTH_OR_NEITHER,
                cards=join_reasons(cards),
                points=join_reasons(list(given)),
            )
        if given and record.melds:
            raise RuleError(DEADWOOD_NO_MELDS)
    possible = rules.possible_hand_points(count)
    most = rules.most_hand_points(count)
    for p, value in given.items():
        if value > most:
            if rules.points_are_deadwood:
                raise RuleError(DEADWOOD_TOO_HIGH, player=p, points=value, most=most)
            raise RuleError(
                POINTS_TOO_HIGH,
                player=p,
                points=value,
                rules=rules.name,
                cards=rules.most_cards_held(count),
                most=most,
            )
        if value == 0 and not rules.points_are_deadwood:
            _refuse_empty_hand(rules, ending, p)
        if value not in possible:
            values = ", ".join(str(v) for v in sorted(set(rules.deck_values(count))))
            raise RuleError(
                POINTS_IMPOSSIBLE, player=p, points=value, rules=rules.name, values=values
            )
    return given


def _final_melds(
    rules: Ruleset,
    players: tuple[str, ...],
    record: RoundRecord,
    live: RoundInProgress | None,
) -> dict[str, tuple[Meld, ...]]:
    """The melds each player laid: from the turns, or (remi-indonesia's final table) "melds",
    or the melds of the final table (rummy500, contract) as their players laid them."""
    if live is not None:
        from_turns = {p: live.melds_laid[p] for p in players if live.melds_laid[p]}
        if record.melds is not None and rules.turn_style is TurnStyle.MELDS:
            for p in players:
                stated = sorted(_meld_key(m) for m in record.melds.get(p, ()))
                shown = sorted(_meld_key(m.cards) for m in from_turns.get(p, ()))
                if stated != shown:
                    raise RuleError(MELDS_CONTRADICT, player=p)
        return from_turns
    if record.table is not None:
        by_player: dict[str, list[Meld]] = {}
        for entry in record.table:  # every one checked with the table
            by_player.setdefault(entry.by, []).append(verify_meld(entry.cards, rules))
        return {p: tuple(by_player[p]) for p in players if p in by_player}
    if record.melds is None or rules.turn_style is not TurnStyle.MELDS:
        return {}
    laid = {p: laid_melds(rules, p, melds, has_run=False) for p, melds in record.melds.items()}
    return {p: melds for p, melds in laid.items() if melds}


def _meld_key(cards: Sequence[Card]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted(card.sort_key for card in cards))


def _closing_card(
    rules: Ruleset,
    record: RoundRecord,
    live: RoundInProgress | None,
    ending: Ending,
    player: str | None,
) -> Card | None:
    """remi-indonesia's closing card: the discard of the turn marked out, or "closing_card"."""
    if ending is not Ending.OUT or rules.closing is None:
        return None
    if live is not None and live.closing_card is not None:
        if record.closing_card is not None and record.closing_card != live.closing_card:
            raise RuleError(
                CLOSING_CARD_CONTRADICTS,
                said=str(record.closing_card),
                player=player,
                card=str(live.closing_card),
                turn_number=live.out_turn,
            )
        return live.closing_card
    if record.closing_card is None:
        raise MatchFileError(CLOSING_CARD_MISSING, player=player)
    return physical_card(record.closing_card)


def _knocker_melds(
    rules: Ruleset,
    record: RoundRecord,
    ending: Ending,
    player: str | None,
    hands: Mapping[str, tuple[Card, ...]],
) -> tuple[tuple[Card, ...], ...] | None:
    """Gin's knocker spread, when given: only the knocker's, only cards from that hand."""
    if rules.turn_style is not TurnStyle.NONE or ending is not Ending.KNOCK:
        return None
    if not record.melds:
        return None
    assert player is not None
    others = [p for p in record.melds if p != player]
    if others:
        raise RuleError(ONLY_KNOCKER_MELDS, player=player)
    melds = record.melds.get(player, ())
    hand = Counter(hands[player])
    for card, count in Counter(card for meld in melds for card in meld).items():
        if count > hand[card]:
            raise RuleError(KNOCKER_MELD_NOT_IN_HAND, card=str(card), player=player)
    return tuple(melds)


def _verify_hand_sizes(
    rules: Ruleset,
    players: tuple[str, ...],
    hands: Mapping[str, tuple[Card, ...]],
    live: RoundInProgress | None,
    ending: Ending,
    player: str | None,
) -> None:
    """Hands as large as the rules and the turns allow: gin's 10, never more than dealt where
    hands never grow, and exactly what the turns leave when the round was entered turn by turn."""
    size = rules.every_hand_holds
    if size is not None:
        for p, cards in hands.items():
            big_gin = (
                bool(rules.deadwood and rules.deadwood.big_gin)
                and ending is Ending.KNOCK
                and p == player
            )
            if big_gin and len(cards) == size + 1:
                continue  # all melded, or the adjudication refuses it
            if len(cards) != size:
                raise RuleError(
                    HAND_SIZE_FIXED,
                    player=p,
                    count=len(cards),
                    rules=rules.name,
                    size=size,
                )
    dealt = rules.deal_size(len(players))
    if rules.hand_size is not None and rules.hand_size.never_grows:
        for p, cards in hands.items():
            if len(cards) > dealt:
                raise RuleError(
                    HAND_TOO_BIG,
                    player=p,
                    count=len(cards),
                    players=len(players),
                    rules=rules.id,
                    dealt=dealt,
                )
    if live is None or rules.turn_style is not TurnStyle.MELDS:
        return
    for p, cards in hands.items():
        if ending is Ending.OUT and p == player:
            continue
        expected = live.held[p]
        if len(cards) == expected:
            continue
        played = len(live.played[p])
        if live.bought[p]:
            raise RuleError(
                HAND_COUNT_BOUGHT,
                player=p,
                dealt=dealt,
                bought=live.bought[p],
                played=played,
                expected=expected,
                count=len(cards),
            )
        if live.taken_extra[p]:
            raise RuleError(
                HAND_COUNT_TAKEN,
                player=p,
                dealt=dealt,
                taken=live.taken_extra[p],
                played=played,
                expected=expected,
                count=len(cards),
            )
        raise RuleError(
            HAND_COUNT, player=p, dealt=dealt, played=played, expected=expected, count=len(cards)
        )


def _verify_round_integrity(
    rules: Ruleset,
    players: tuple[str, ...],
    hands: Mapping[str, tuple[Card, ...]],
    live: RoundInProgress | None,
    record: RoundRecord,
    closing: Card | None,
    table: Sequence[TableMeld] = (),
) -> None:
    """No card more often than the deck holds: hands, table, melds and closing card."""
    places = CardPlaces()
    for p in players:
        if p in hands:
            places.add(hands[p], Reason.of(PLACE_HAND, player=p))
    if live is not None or record.table is not None:
        add_table_places(table, places)
    elif record.melds is not None and rules.turn_style is TurnStyle.MELDS:
        for p, melds in record.melds.items():
            for number, meld in enumerate(melds, 1):
                places.add(meld, Reason.of(PLACE_PLAYER_MELD, player=p, number=number))
    if closing is not None:
        places.add([closing], Reason.of(PLACE_CLOSING))
    places.verify(rules, len(players))
