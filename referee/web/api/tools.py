"""The tools that need no table: melds and lay-offs, gin hands and knocks, manipulation tables."""

from __future__ import annotations

from typing import Any

from referee.errors import RefereeError
from referee.gin import adjudicate_knock, best_arrangement
from referee.indian import check_show, least_count
from referee.melds import check_layoff, check_meld
from referee.notation import format_card
from referee.rulesets import find_ruleset
from referee.table import BAD_DRAWS, arrange, best_play, check_turn, take_back
from referee.web.api import schemas
from referee.web.api.base import ApiBlueprint, engine_call
from referee.web.show import i18n
from referee.web.store import reads

blp = ApiBlueprint(
    "api_tools",
    __name__,
    url_prefix="/api/v1/tools",
    description="Check melds and lay-offs, analyse gin hands, settle manipulation tables.",
)


def meld_verdict(verdict: Any) -> dict[str, Any]:
    return {
        "legal": verdict.legal,
        "kind": verdict.kind.value if verdict.kind else None,
        "meld": [format_card(card) for card in verdict.meld.cards] if verdict.meld else None,
        "reason": i18n.reason_text(verdict.reason) if verdict.reason else None,
        "reason_key": verdict.reason.key if verdict.reason else None,
    }


@blp.route("/meld", methods=["POST"])
@blp.arguments(schemas.MeldCheck, example={"rules": "remi", "cards": ["7S", "9S", "10S"]})
@blp.response(200, schemas.MeldVerdict)
@blp.errors(422)
@engine_call
def meld(asked: dict[str, Any]) -> Any:
    """Is this a legal meld, or (with ``onto``) a legal lay-off onto a meld?

    An illegal meld is an answer (200, ``legal`` false, with the reason); cards
    that cannot be read are a 422.
    """
    rules = find_ruleset(asked["rules"])
    if "ace" in rules.options and asked.get("ace"):
        rules = rules.with_options({"ace": asked["ace"]})
    cards = asked.get("cards") or []
    if asked.get("onto"):
        verdict = reads.call_engine(check_layoff, asked["onto"], cards, rules)
    else:
        verdict = reads.call_engine(check_meld, cards, rules)
    return meld_verdict(verdict)


@blp.route("/gin", methods=["POST"])
@blp.arguments(schemas.GinHand)
@blp.response(200, schemas.GinArrangement)
@blp.errors(422)
@engine_call
def gin_hand(asked: dict[str, Any]) -> Any:
    """The arrangement of a gin hand that leaves the least deadwood (11 cards: the best discard)."""
    return reads.call_engine(best_arrangement, asked["cards"]).to_json()


@blp.route("/indian", methods=["POST"])
@blp.arguments(
    schemas.IndianHand,
    example={
        "groups": [
            ["5S", "6S", "7C", "8S"],
            ["9H", "10H", "JH"],
            ["2D", "2C", "2H"],
            ["KD", "QD", "JD"],
        ],
        "cut": "7D",
    },
)
@blp.response(200, schemas.IndianVerdict)
@blp.errors(422)
@engine_call
def indian_show(asked: dict[str, Any]) -> Any:
    """Indian rummy: is this show of 13 cards valid (whatever their grouping), why not, an
    arrangement, and what the cards count as a loser's hand."""
    groups = asked.get("groups") or None
    cards = None if groups else asked.get("cards") or []
    options = {"decks": asked["decks"], "full_count": asked["full_count"]}
    show = reads.call_engine(check_show, cards, asked.get("cut"), groups=groups, **options)
    every = [card for group in groups for card in group] if groups else cards
    count = reads.call_engine(least_count, every, asked.get("cut"), **options)
    found: dict[str, Any] = show.to_json()
    found["reasons"] = [i18n.reason_text(reason) for reason in show.reasons]
    found["typed_problems"] = [i18n.reason_text(reason) for reason in show.typed_problems]
    found["count"] = count.to_json()
    return found


def adjudication(result: Any) -> dict[str, Any]:
    found: dict[str, Any] = result.to_json()
    found["reason"] = i18n.reason_text(result.why)
    return found


@blp.route("/knock", methods=["POST"])
@blp.arguments(
    schemas.GinKnock,
    example={
        "knocker": ["7C", "8C", "9C", "2S", "2H", "2D", "5H", "6H", "7H", "AS"],
        "defender": ["6C", "10C", "4D", "5D", "KS", "KH", "QC", "JD", "3S", "9H"],
    },
)
@blp.response(200, schemas.GinAdjudication)
@blp.errors(422)
@engine_call
def knock(asked: dict[str, Any]) -> Any:
    """A gin knock settled: the spread, the defender's lay-offs, who scores how much and why."""
    melds = asked.get("melds")
    result = reads.call_engine(adjudicate_knock, asked["knocker"], asked["defender"], melds)
    return adjudication(result)


def manipulation(players: int) -> Any:
    rules = find_ruleset("manipulation")
    rules.verify_players(players)
    return rules


@blp.route("/turn", methods=["POST"])
@blp.arguments(
    schemas.TableTurn,
    example={
        "players": 3,
        "before": [["7S", "8S", "9S"]],
        "played": ["10S"],
        "after": [["7S", "8S", "9S", "10S"]],
    },
)
@blp.response(200, schemas.TableVerdict)
@blp.errors(422)
@engine_call
def turn(asked: dict[str, Any]) -> Any:
    """manipulation: is this turn legal (the table before, the cards played, the table after)?"""
    rules = manipulation(asked["players"])
    draws = asked.get("draws")
    if draws is not None and not 1 <= draws <= 3:
        raise RefereeError(BAD_DRAWS, draws=draws)
    verdict = reads.call_engine(
        check_turn,
        asked["before"],
        asked["played"],
        asked["after"],
        asked["players"],
        draws,
        rules=rules,
    )
    return {"legal": verdict.legal, "reasons": [i18n.reason_text(r) for r in verdict.reasons]}


def arrangement(before: Any, played: Any, players: int, rules: Any) -> dict[str, Any]:
    found = reads.call_engine(arrange, before, played, players, rules=rules)
    back = () if found else reads.call_engine(take_back, before, played, players, rules=rules)
    return {
        "arrangeable": found is not None,
        "table": found.to_json() if found is not None else None,
        "take_back": [format_card(card) for card in back],
    }


@blp.route("/arrange", methods=["POST"])
@blp.arguments(schemas.TableArrange)
@blp.response(200, schemas.Arrangement)
@blp.errors(422)
@engine_call
def arrange_table(asked: dict[str, Any]) -> Any:
    """manipulation: "arrange it for us": a table using every card played, or what to take back."""
    rules = manipulation(asked["players"])
    return arrangement(asked["before"], asked["played"], asked["players"], rules)


def play_hint(hand: Any, before: Any, players: int, rules: Any) -> dict[str, Any]:
    play = reads.call_engine(best_play, hand, before, players, rules=rules)
    return {
        "cards": [format_card(card) for card in play.cards],
        "table": play.arrangement.to_json() if play.arrangement is not None else None,
    }


@blp.route("/hint", methods=["POST"])
@blp.arguments(schemas.TableHint)
@blp.response(200, schemas.Hint)
@blp.errors(422)
@engine_call
def hint(asked: dict[str, Any]) -> Any:
    """manipulation: "what can I play": the most cards of a hand that can join the table."""
    rules = manipulation(asked["players"])
    return play_hint(asked["hand"], asked["before"], asked["players"], rules)
