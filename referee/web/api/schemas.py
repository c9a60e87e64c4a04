"""The JSON the API reads and writes, as marshmallow schemas (the OpenAPI document's schemas).

Request schemas check only the shape (types, lengths, how many): whether the
cards make a meld, whether a round can have happened, is the engine's to say,
with a 422 and its reason.  Card codes are the notation of MATCH_FORMAT.md
(``10H``, ``TH``, ``JK``, ``JK=7H`` on a table).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from referee.rulesets import RULESETS
from referee.web.forms import HINT_MAX_CARDS, NAME_MAX

MAX_CARDS = 120  # two decks and four jokers, and then some


def known_ruleset(rules_id: str) -> None:
    """A ruleset registered now (read at every request: a ruleset may be registered later)."""
    if rules_id not in RULESETS:
        raise ValidationError(f"not a ruleset; choose one of {', '.join(RULESETS)}")


def RulesetId(**meta: Any) -> fields.String:  # noqa: N802 - a field type
    options, meta = _split(meta)
    meta.setdefault("description", "a ruleset's id: remi, rummy, remi-indonesia, gin ...")
    return fields.String(validate=[validate.Length(1, 40), known_ruleset], metadata=meta, **options)


FIELD_OPTIONS = ("required", "load_default", "allow_none")


def _split(meta: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Field options (required, load_default) apart from the documentation (metadata)."""
    options = {name: meta.pop(name) for name in FIELD_OPTIONS if name in meta}
    return options, meta


def Cards(max_cards: int = MAX_CARDS, **meta: Any) -> fields.List[Any]:  # noqa: N802 - a field type
    options, meta = _split(meta)
    return fields.List(
        fields.String(validate=validate.Length(1, 12)),
        validate=validate.Length(max=max_cards),
        metadata=meta,
        **options,
    )


def Melds(**meta: Any) -> fields.List[Any]:  # noqa: N802
    options, meta = _split(meta)
    return fields.List(
        fields.List(
            fields.String(validate=validate.Length(1, 12)), validate=validate.Length(max=40)
        ),
        validate=validate.Length(max=60),
        metadata=meta,
        **options,
    )


def Name(**meta: Any) -> fields.String:  # noqa: N802
    options, meta = _split(meta)
    return fields.String(validate=validate.Length(1, NAME_MAX), metadata=meta, **options)


class Hand(fields.Field[Any]):
    """A hand left at the end of a round: its card codes or, in a final-table round, what it
    counts (a whole number; docs/points.md).  Whether the number is possible is the engine's
    to say (422)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {})
        kwargs["metadata"].setdefault(
            "oneOf",
            [
                {"type": "array", "items": {"type": "string"}, "maxItems": MAX_CARDS},
                {"type": "integer", "minimum": 0},
            ],
        )
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if (
            isinstance(value, list)
            and len(value) <= MAX_CARDS
            and all(isinstance(card, str) and 1 <= len(card) <= 12 for card in value)
        ):
            return value
        raise ValidationError("a list of card codes, or a whole number: what the hand counts")


HAND_DESCRIPTION = (
    "each player's hand left: card codes, or in a final-table round a whole number, what the "
    "hand counts (gin: the deadwood after lay-offs; docs/points.md)"
)


class StrictSchema(Schema):
    class Meta:
        ordered = True


# -- errors --------------------------------------------------------------------------------


class ErrorBody(StrictSchema):
    code = fields.String(
        required=True,
        metadata={
            "description": "malformed (400), not_found (404), conflict (409), too_large (413),"
            " refused (422: the referee's reason), precondition_required (428), ...",
            "example": "refused",
        },
    )
    status = fields.Integer(required=True, metadata={"example": 422})
    message = fields.String(
        required=True,
        metadata={
            "description": "for people, in the language of Accept-Language (id by default, en)",
            "example": "8S is missing between 7S and 9S",
        },
    )
    round = fields.Integer(allow_none=True, metadata={"description": "the round it is about"})
    turn = fields.Integer(allow_none=True, metadata={"description": "the turn it is about"})
    reason = fields.String(
        metadata={"description": "the referee's message key (422)", "example": "meld.run_gap"}
    )
    version = fields.Integer(metadata={"description": "the match's current version (409, 428)"})
    etag = fields.String(metadata={"description": "its ETag, for If-Match (409, 428)"})
    totals = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        allow_none=True,
        metadata={"description": "the match's totals now (409)"},
    )
    later = fields.List(
        fields.Integer(), metadata={"description": "the rounds a correction would remove (409)"}
    )
    errors = fields.Dict(metadata={"description": "what was wrong in the request (400)"})
    field = fields.String(metadata={"description": "the setup field a refusal is about (422)"})


class ErrorAnswer(StrictSchema):
    error = fields.Nested(ErrorBody, required=True)


# -- tools ---------------------------------------------------------------------------------


class MeldCheck(StrictSchema):
    rules = RulesetId(required=True, example="remi")
    ace = fields.String(
        validate=validate.OneOf(["low", "high-low"]),
        metadata={"description": "rummy's ace option (other rulesets ignore it)"},
    )
    cards = Cards(example=["7S", "8S", "9S"], description="the cards to check")
    onto = Cards(
        description="a meld on the table: check the cards as a lay-off onto it",
        example=["4H", "4D", "4C"],
    )


class MeldVerdict(StrictSchema):
    legal = fields.Boolean(required=True)
    kind = fields.String(allow_none=True, metadata={"description": "set or run"})
    meld = fields.List(fields.String(), allow_none=True, metadata={"description": "as it stands"})
    reason = fields.String(allow_none=True, metadata={"description": "why not, when illegal"})
    reason_key = fields.String(allow_none=True)


class GinHand(StrictSchema):
    cards = Cards(
        30,
        required=True,
        example=["7S", "8S", "9S", "7H", "7D", "2C", "3C", "4C", "KD", "QH"],
        description="10 or 11 cards",
    )


class GinArrangement(StrictSchema):
    cards = fields.List(fields.String())
    melds = fields.List(fields.List(fields.String()))
    deadwood_cards = fields.List(fields.String())
    deadwood = fields.Integer()
    discard = fields.String(allow_none=True)
    gin = fields.Boolean()
    big_gin = fields.Boolean()
    can_knock = fields.Boolean()


class IndianHand(StrictSchema):
    cards = Cards(30, description="the 13 cards, ungrouped (or give groups)")
    groups = Melds(description="the 13 cards as the player grouped them")
    cut = fields.String(
        allow_none=True,
        validate=validate.Length(1, 12),
        metadata={"description": "the cut joker (JK: aces are wild); none: printed jokers only"},
    )
    decks = fields.Integer(load_default=2, validate=validate.OneOf([1, 2]))
    full_count = fields.Integer(load_default=80, validate=validate.Range(1, 200))


class IndianGroup(StrictSchema):
    kind = fields.String(metadata={"description": "pure sequence, impure sequence or set"})
    cards = fields.List(fields.String())
    jokers = fields.List(fields.String(), metadata={"description": "the cards playing as jokers"})


class IndianCount(StrictSchema):
    count = fields.Integer(metadata={"description": "the least count, at most the full count"})
    points = fields.Integer(metadata={"description": "the same before the cap"})
    meets_rule = fields.Boolean(metadata={"description": "two sequences, one of them pure"})
    capped = fields.Boolean()
    groups = fields.List(fields.Nested(IndianGroup))
    ungrouped = fields.List(fields.String())


class IndianVerdict(StrictSchema):
    valid = fields.Boolean()
    as_typed = fields.Boolean(metadata={"description": "the typed grouping is itself valid"})
    reasons = fields.List(fields.String(), metadata={"description": "why the show is not valid"})
    typed_problems = fields.List(fields.String())
    groups = fields.List(fields.Nested(IndianGroup))
    ungrouped = fields.List(fields.String())
    count = fields.Nested(IndianCount, metadata={"description": "the cards as a loser's hand"})


class GinKnock(StrictSchema):
    knocker = Cards(30, required=True, description="the knocker's 10 cards, after the discard")
    defender = Cards(30, required=True, description="the defender's 10 cards")
    melds = Melds(description="the knocker's melds as spread (default: the best spread)")


class GinDefender(GinArrangement):
    deadwood_before_layoffs = fields.Integer()


class GinLayoff(StrictSchema):
    cards = fields.List(fields.String())
    onto = fields.List(fields.String())


class GinAdjudication(StrictSchema):
    knocker = fields.Nested(GinArrangement)
    defender = fields.Nested(GinDefender)
    layoffs = fields.List(fields.Nested(GinLayoff))
    knocker_deadwood = fields.Integer()
    defender_deadwood = fields.Integer()
    outcome = fields.String(metadata={"description": "knock, gin or undercut"})
    winner = fields.String(metadata={"description": "knocker or defender"})
    points = fields.Integer()
    scores = fields.Dict(keys=fields.String(), values=fields.Integer())
    reason = fields.String()


TABLE_EXAMPLE = [["7S", "8S", "9S"], ["JK=4H", "4D", "4C"]]


class TableTurn(StrictSchema):
    players = fields.Integer(
        load_default=3,
        validate=validate.Range(1, 10),
        metadata={"description": "players at the table (2-5 play manipulation)"},
    )
    before = Melds(load_default=list, example=TABLE_EXAMPLE, description="the table before")
    played = Cards(load_default=list, example=["10S"], description="cards played from the hand")
    after = Melds(
        required=True,
        example=[["7S", "8S", "9S", "10S"], ["JK=4H", "4D", "4C"]],
        description="the whole table after the turn",
    )
    draws = fields.Integer(
        validate=validate.Range(1, 3), metadata={"description": "cards drawn this turn"}
    )


class TableVerdict(StrictSchema):
    legal = fields.Boolean(required=True)
    reasons = fields.List(fields.String(), required=True)


class TableArrange(StrictSchema):
    players = fields.Integer(load_default=3, validate=validate.Range(1, 10))
    before = Melds(load_default=list, example=TABLE_EXAMPLE)
    played = Cards(required=True, example=["10S", "JS"])


class Arrangement(StrictSchema):
    arrangeable = fields.Boolean(required=True)
    table = fields.List(fields.List(fields.String()), allow_none=True)
    take_back = fields.List(fields.String(), required=True)


class TableHint(StrictSchema):
    players = fields.Integer(load_default=3, validate=validate.Range(1, 10))
    before = Melds(load_default=list, example=TABLE_EXAMPLE)
    hand = Cards(HINT_MAX_CARDS, required=True, example=["10S", "QD", "6S", "JK"])


class LiveArrange(StrictSchema):
    played = Cards(required=True, example=["10S", "JS"])


class LiveHint(StrictSchema):
    hand = Cards(HINT_MAX_CARDS, required=True, example=["10S", "QD", "6S", "JK"])


class Hint(StrictSchema):
    cards = fields.List(fields.String(), required=True)
    table = fields.List(fields.List(fields.String()), allow_none=True)


# -- tables --------------------------------------------------------------------------------


class NewTable(StrictSchema):
    name = fields.String(
        required=True, validate=validate.Length(1, 80), metadata={"example": "Friday at Budi's"}
    )
    players = fields.List(
        Name(), validate=validate.Length(max=50), metadata={"example": ["Budi", "Siti", "Andi"]}
    )


class NewPlayers(StrictSchema):
    names = fields.List(
        Name(), required=True, validate=validate.Length(1, 50), metadata={"example": ["Dewi"]}
    )


class ReplaceLink(StrictSchema):
    link = fields.String(
        required=True,
        validate=validate.OneOf(["edit", "view"]),
        metadata={"description": "which key to replace: edit or view", "example": "edit"},
    )


class Table(StrictSchema):
    name = fields.String(required=True)
    mode = fields.String(required=True, metadata={"description": "t: edit key, v: view key"})
    edit_key = fields.String(metadata={"description": "with the edit key only"})
    view_key = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    matches = fields.String(required=True, metadata={"description": "the match list's path"})
    pages = fields.Dict(keys=fields.String(), values=fields.String())


class MatchListQuery(StrictSchema):
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    before = fields.Integer(
        validate=validate.Range(1, 2**31 - 1),
        metadata={"description": "the next page: matches older than this id"},
    )


class MatchSummary(StrictSchema):
    id = fields.Integer(required=True)
    rules = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    rounds = fields.Integer(required=True)
    live = fields.Boolean(required=True)
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    version = fields.Integer(required=True)
    created_at = fields.DateTime(required=True)
    error = fields.String(allow_none=True)


class MatchList(StrictSchema):
    matches = fields.List(fields.Nested(MatchSummary), required=True)
    next = fields.Integer(
        allow_none=True, metadata={"description": "pass as ?before= for the next page"}
    )


class PlayerFigures(StrictSchema):
    name = fields.String()
    matches = fields.Integer()
    won = fields.Integer()
    rounds = fields.Integer()
    rounds_won = fields.Integer()
    points = fields.Integer()
    best = fields.Integer(allow_none=True)
    average = fields.Float(allow_none=True)


class RulesetFigures(StrictSchema):
    rules = fields.String()
    matches = fields.Integer()
    finished = fields.Integer()
    players = fields.List(fields.Nested(PlayerFigures))


class Statistics(StrictSchema):
    groups = fields.List(fields.Nested(RulesetFigures), required=True)
    unreadable = fields.Integer(required=True)


OPTIONS_DESCRIPTION = (
    "the ruleset's house rules (RULES.md, House rules), by name: each checked against the"
    " ruleset's declaration (unknown, out of range, of the wrong type or not applicable: 400)"
)


def Options(**meta: Any) -> fields.Dict:  # noqa: N802 - a field type
    options, meta = _split(meta)
    meta.setdefault("description", OPTIONS_DESCRIPTION)
    return fields.Dict(
        keys=fields.String(validate=validate.Length(1, 40)),
        values=fields.Raw(allow_none=True),
        validate=validate.Length(max=40),
        metadata=meta,
        **options,
    )


class NewMatch(StrictSchema):
    rules = RulesetId(required=True, example="remi")
    players = fields.List(
        Name(),
        required=True,
        validate=validate.Length(1, 10),
        metadata={
            "description": "the table's players, in seating order",
            "example": ["Budi", "Siti"],
        },
    )
    first_dealer = fields.String(
        load_default="random",
        validate=validate.Length(1, NAME_MAX),
        metadata={"description": "a player, or random", "example": "Budi"},
    )
    options = Options(load_default=dict, example={"target": 200})
    teams = fields.Dict(
        keys=fields.String(validate=validate.Length(0, NAME_MAX)),
        values=fields.List(Name()),
        load_default=None,
        metadata={
            "description": "the match file's teams, where the game is played in teams: each"
            " team's name and its two partners, who sit opposite",
            "example": {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]},
        },
    )


# -- matches -------------------------------------------------------------------------------


class RoundRow(StrictSchema):
    number = fields.Integer(required=True)
    dealer = fields.String(required=True)
    outcome = fields.String(required=True, metadata={"description": "the engine's outcome"})
    label = fields.String(required=True, metadata={"description": "the outcome, in words"})
    winners = fields.List(fields.String(), required=True)
    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    running = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    voided = fields.Boolean(required=True)
    version = fields.Integer(allow_none=True)
    unchecked = fields.List(
        fields.String(),
        metadata={"description": "what the referee could not check (hands given as points)"},
    )
    rejoined = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "players back in a pool before this round, at these totals"},
    )


class StandingRow(StrictSchema):
    place = fields.Integer(required=True, metadata={"description": "1 first; equal places shared"})
    player = fields.String(required=True)
    total = fields.Integer(required=True)
    winner = fields.Boolean(required=True)
    out_after = fields.Integer(
        allow_none=True, metadata={"description": "out of the pool after this round"}
    )
    left_before = fields.Integer(
        allow_none=True, metadata={"description": "left the table before this round"}
    )
    members = fields.List(
        fields.String(),
        metadata={"description": "the side's players: a team's partners, or the player alone"},
    )


class LiveSummary(StrictSchema):
    number = fields.Integer(required=True)
    turns = fields.Integer(required=True)


class Scoreboard(StrictSchema):
    id = fields.Integer(required=True)
    rules = fields.String(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.String(), required=True)
    first_dealer = fields.String(required=True)
    version = fields.Integer(required=True)
    etag = fields.String(required=True, metadata={"example": "m3v7"})
    target = fields.Integer(allow_none=True)
    hands = fields.Integer(allow_none=True)
    rounds = fields.List(fields.Nested(RoundRow), required=True)
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    bonuses = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    next_dealer = fields.String(allow_none=True)
    leaders = fields.List(fields.String(), required=True)
    standings = fields.List(
        fields.Nested(StandingRow),
        metadata={"description": "every player in the game's order (the referee's standings)"},
    )
    seated = fields.List(
        fields.String(),
        metadata={"description": "the players at the table for the next round, clockwise"},
    )
    columns = fields.List(
        fields.Dict(),
        allow_none=True,
        metadata={
            "description": "gin with scoring hollywood: the three games in order, each with its"
            " totals, closed and (once closed) winner; null for every other match"
        },
    )
    tracked = fields.Dict(
        allow_none=True,
        metadata={
            "description": "what the game carries from hand to hand (phase10: phases_done, each"
            " player's completed phases; made_last, who made which phase in the last hand;"
            " next_phases, the phases each may make next; replay, the tied players replaying"
            " phase 10); null for every other match"
        },
    )
    seating_changes = fields.List(
        fields.Dict(),
        metadata={
            "description": "the match file's seating_changes: who sits at the table from a"
            " round on (before_round, players)"
        },
    )
    next_facts = fields.Dict(
        allow_none=True,
        metadata={
            "description": "what the game says of the next round from the totals: canasta's"
            ' {"minimums": {side: the least value of its first meld}}; null for other games'
        },
    )
    live = fields.Nested(LiveSummary, allow_none=True)
    error = fields.Nested(ErrorBody, allow_none=True)


class Version(StrictSchema):
    version = fields.Integer(required=True)


ROUND_EXAMPLE = {"out": "Siti", "hands": {"Budi": ["10H", "QS"]}}


class FinalTableMeld(StrictSchema):
    """One meld on the table at the end of a final-table round (rummy500, contract)."""

    by = Name(required=True, metadata={"description": "who laid the meld"})
    cards = Cards(required=True, metadata={"description": "the cards they laid"})
    layoffs = fields.Dict(
        keys=fields.String(validate=validate.Length(1, NAME_MAX)),
        values=Cards(),
        metadata={"description": "the cards others laid off on it, by player"},
    )


class RoundEntry(Schema):
    """A round object of ``referee-match/1`` (MATCH_FORMAT.md), checked by the engine."""

    class Meta:
        unknown = "include"

    out = fields.String(metadata={"description": "remi, rummy, manipulation: who went out"})
    at_once = fields.Boolean()
    knock = fields.String(metadata={"description": "gin, manipulation: who knocked"})
    end = fields.String(metadata={"description": "void, blocked, stock, draw"})
    hands = fields.Dict(
        keys=fields.String(), values=Hand(), metadata={"description": HAND_DESCRIPTION}
    )
    melds = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True))
    closer = fields.String()
    closing_card = fields.String()
    table = fields.List(
        fields.Nested(FinalTableMeld),
        validate=validate.Length(max=60),
        metadata={
            "description": "rummy500, contract: every meld on the table at the end, who laid"
            " it and the cards others laid off on it",
            "example": [{"by": "Budi", "cards": ["7S", "8S", "9S"], "layoffs": {"Siti": ["10S"]}}],
        },
    )
    turns = fields.List(fields.Dict())
    # The keys below are only described here: the engine reads them and says what is wrong.
    upcard = fields.Raw(
        allow_none=True, metadata={"description": "gin with oklahoma: the upcard, like 5S"}
    )
    cut = fields.Raw(
        allow_none=True,
        metadata={"description": 'indian: the cut joker, like 7D ("JK": a printed joker)'},
    )
    show = fields.Raw(
        allow_none=True, metadata={"description": "indian: who showed (a valid show)"}
    )
    groups = fields.Raw(
        allow_none=True,
        metadata={
            "description": "indian, optional: the show's 13 cards as grouped, by the player"
            ' who showed: {"Budi": [["5H", "6H", "7H"], ...]}; checked before saving'
        },
    )
    finish = fields.Raw(
        allow_none=True, metadata={"description": "indian, optional: the finish card"}
    )
    drops = fields.Raw(
        allow_none=True,
        metadata={"description": 'indian: who dropped, "first" or "middle": {"Andi": "first"}'},
    )
    wrong_shows = fields.Raw(
        allow_none=True, metadata={"description": "indian: who showed wrongly (full count)"}
    )
    rejoin = fields.Raw(
        allow_none=True,
        metadata={"description": "indian pools: who comes back into the pool before this deal"},
    )


class Seating(StrictSchema):
    """Who sits at the table from the next round on."""

    players = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "every player seated from the next round on, clockwise: a new name"
            " joins (a new player of the table if needed), a name left out leaves",
            "example": ["Budi", "Dewi", "Siti"],
        },
    )


class CorrectionQuery(StrictSchema):
    remove_later = fields.Boolean(
        load_default=False,
        metadata={
            "description": "when the corrected round ends the match, remove the rounds after it"
        },
    )


class RoundResult(StrictSchema):
    dealer = fields.String()
    outcome = fields.String()
    label = fields.String()
    winners = fields.List(fields.String())
    scores = fields.Dict(keys=fields.String(), values=fields.Integer())
    unchecked = fields.List(
        fields.String(),
        metadata={"description": "what the referee could not check (hands given as points)"},
    )


class StoredRound(StrictSchema):
    number = fields.Integer(required=True)
    complete = fields.Boolean(required=True)
    voided = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    entry = fields.Dict(required=True, metadata={"description": "the round object as entered"})
    result = fields.Nested(RoundResult, allow_none=True)
    match_version = fields.Integer(required=True)
    etag = fields.String(required=True)


class Buy(StrictSchema):
    player = Name(required=True)
    card = fields.String(required=True, validate=validate.Length(1, 12))


class TurnEntry(StrictSchema):
    """A turn object of ``referee-match/1``, checked by the engine on the round so far: a
    field the format does not have (a misspelt ``lay_offs``) is refused, never ignored."""

    player = fields.String(required=True, validate=validate.Length(1, NAME_MAX))
    melds = fields.List(fields.List(fields.String()))
    layoffs = fields.List(fields.Dict())
    took_discard = fields.List(
        fields.String(), metadata={"description": "the discards taken, top card first"}
    )
    discard = fields.String()
    buy = fields.Nested(
        Buy,
        metadata={"description": "contract: who bought the refused discard, and the card"},
    )
    played = fields.List(fields.String())
    table = fields.List(fields.List(fields.String()))
    out = fields.Boolean()


class TurnQuery(StrictSchema):
    round = fields.Integer(
        load_default=None,
        validate=validate.Range(1, 100000),
        metadata={"description": "the round this turn was typed for"},
    )
    after = fields.Integer(
        load_default=None,
        validate=validate.Range(0, 100000),
        metadata={
            "description": "how many turns the round had when this turn was typed; with an"
            " older If-Match the turn is checked again on the round as it is now"
        },
    )


class RoundEnd(Schema):
    """How a live round ended: the round object's ending (its turns are the live round's)."""

    class Meta:
        unknown = "include"

    end = fields.String(metadata={"description": "stock, blocked, void (no one went out)"})
    knock = fields.String()
    hands = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))


class TableCard(StrictSchema):
    code = fields.String()
    by = fields.String(allow_none=True, metadata={"description": "who laid it off, if laid off"})


class TableMeld(StrictSchema):
    number = fields.Integer()
    owner = fields.String(allow_none=True)
    cards = fields.List(fields.Nested(TableCard))


class LiveRound(StrictSchema):
    number = fields.Integer(required=True)
    dealer = fields.String(required=True)
    started = fields.Boolean(required=True, metadata={"description": "has a turn been saved"})
    turns = fields.List(fields.Dict(), required=True)
    table = fields.List(fields.Nested(TableMeld), required=True)
    hand_sizes = fields.Dict(keys=fields.String(), values=fields.Integer(allow_none=True))
    out = fields.String(allow_none=True)
    over = fields.Boolean(required=True)
    next_player = fields.String(allow_none=True)
    match_version = fields.Integer(required=True)
    etag = fields.String(required=True)


class Document(Schema):
    """A ``referee-match/1`` document (MATCH_FORMAT.md)."""

    class Meta:
        unknown = "include"

    format = fields.String(metadata={"example": "referee-match/1"})
    rules = fields.String()
    options = fields.Dict()
    players = fields.List(fields.String())
    first_dealer = fields.String()
    rounds = fields.List(fields.Dict())
