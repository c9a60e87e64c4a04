"""Rummikub's table tools (no table needed): is this turn legal, put the table back, what can
this rack play.  The answers are :mod:`referee.rummikub`'s, in the language asked."""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from referee.rulesets import find_ruleset
from referee.rulesets.rummikub import RULES_ID, options_of
from referee.rummikub import check_turn, hint, put_back
from referee.web.api.base import ApiBlueprint, engine_call
from referee.web.api.schemas import Cards, Melds, StrictSchema
from referee.web.show import i18n
from referee.web.store import reads

blp = ApiBlueprint(
    "api_tiles",
    __name__,
    url_prefix="/api/v1/tools/tiles",
    description="Rummikub: check a turn, put a table back, a hint for a rack.",
)

TABLE_EXAMPLE = [["R10", "R11", "R12"], ["K7", "B7", "JK=O7"]]


class TilesOptions(StrictSchema):
    options = fields.Dict(
        load_default=dict, metadata={"description": "the match's options (initial_meld, ...)"}
    )


class TilesTurn(TilesOptions):
    before = Melds(load_default=list, example=TABLE_EXAMPLE, description="the table before")
    played = Cards(load_default=list, example=["R13"], description="tiles played from the rack")
    after = Melds(required=True, example=[["R10", "R11", "R12", "R13"], ["K7", "B7", "JK=O7"]])
    melded = fields.Boolean(
        load_default=True, metadata={"description": "whether the player made the initial meld"}
    )


class TilesVerdict(StrictSchema):
    legal = fields.Boolean(required=True)
    reasons = fields.List(fields.String(), required=True)
    first_meld = fields.Integer(allow_none=True)


class TilesPutBack(StrictSchema):
    table = Melds(load_default=list, example=TABLE_EXAMPLE, description="the tiles on the table")
    added = Cards(load_default=list, example=["R13", "O7"], description="tiles added from the rack")


class TilesLayout(StrictSchema):
    complete = fields.Boolean(required=True)
    table = fields.List(fields.List(fields.String()), required=True)
    back_to_rack = fields.List(fields.String(), required=True)
    cannot_place = fields.List(fields.String(), required=True)


class TilesHintAsk(TilesOptions):
    table = Melds(load_default=list, example=TABLE_EXAMPLE)
    rack = Cards(required=True, example=["R13", "K1", "B1", "O1", "JK"])
    melded = fields.Boolean(load_default=True)


class TilesHint(StrictSchema):
    tiles = fields.List(fields.String(), required=True)
    table = fields.List(fields.List(fields.String()), allow_none=True)
    first_meld = fields.Integer(allow_none=True)


def rummikub_options(given: dict[str, Any]) -> Any:
    """The options asked, checked as a match's are."""
    return options_of(find_ruleset(RULES_ID).with_options(given))


def verdict_of(before: Any, played: Any, after: Any, melded: bool, options: Any) -> dict[str, Any]:
    verdict = reads.call_engine(check_turn, before, played, after, melded=melded, options=options)
    return {
        "legal": verdict.legal,
        "reasons": [i18n.reason_text(reason) for reason in verdict.reasons],
        "first_meld": verdict.first_meld,
    }


def layout_of(table: Any, added: Any) -> dict[str, Any]:
    found = reads.call_engine(put_back, table, added)
    return {"complete": found.complete, **found.to_json()}


def hint_of(rack: Any, table: Any, melded: bool, options: Any) -> dict[str, Any]:
    return dict(reads.call_engine(hint, rack, table, melded=melded, options=options).to_json())


@blp.route("/turn", methods=["POST"])
@blp.arguments(TilesTurn)
@blp.response(200, TilesVerdict)
@blp.errors(422)
@engine_call
def turn(asked: dict[str, Any]) -> Any:
    """Is this turn legal: the whole table after it, the initial meld from the rack, jokers."""
    options = rummikub_options(asked["options"])
    return verdict_of(asked["before"], asked["played"], asked["after"], asked["melded"], options)


@blp.route("/put-back", methods=["POST"])
@blp.arguments(TilesPutBack)
@blp.response(200, TilesLayout)
@blp.errors(422)
@engine_call
def table_put_back(asked: dict[str, Any]) -> Any:
    """Put the table back: the tiles on it and those added from the rack as legal sets, or
    which tiles go back to the rack or fit nowhere."""
    return layout_of(asked["table"], asked["added"])


@blp.route("/hint", methods=["POST"])
@blp.arguments(TilesHintAsk)
@blp.response(200, TilesHint)
@blp.errors(422)
@engine_call
def rack_hint(asked: dict[str, Any]) -> Any:
    """What can this rack play: the most tiles, or before the initial meld the best one."""
    options = rummikub_options(asked["options"])
    return hint_of(asked["rack"], asked["table"], asked["melded"], options)
