"""Reading and writing the referee-match/1 document (MATCH_FORMAT.md)."""

from __future__ import annotations

import json
import string
from typing import Any

import pytest

from referee.cards import Card
from referee.errors import MatchFileError, NotationError, RefereeError, RuleError
from referee.matchfile import (
    LayOffEntry,
    Turn,
    dump_match,
    read_header,
    read_match,
    read_turn,
)
from referee.messages import CATALOGUE
from referee.rulesets import RULESETS


def document(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 100},
        "players": ["Budi", "Siti", "Andi"],
        "first_dealer": "Budi",
        "rounds": [],
    }
    return base | changes


def error_of(source: Any) -> RefereeError:
    with pytest.raises(RefereeError) as caught:
        read_match(source)
    return caught.value


def test_header_is_read_with_ruleset_options_and_seating() -> None:
    header = read_header(document(rules="rummy", options={"ace": "high-low", "hands": 3}))
    assert header.rules.id == "rummy" and header.rules.hands == 3
    assert header.players == ("Budi", "Siti", "Andi") and header.first_dealer == "Budi"


def test_first_dealer_defaults_to_the_first_player() -> None:
    raw = document()
    del raw["first_dealer"]
    assert read_header(raw).first_dealer == "Budi"


def test_missing_options_and_rounds_take_defaults() -> None:
    match = read_match({"rules": "gin", "players": ["Budi", "Siti"]})
    assert match.header.rules.target == 100 and match.rounds == ()


def test_json_text_and_bytes_are_read_too() -> None:
    text = json.dumps(document())
    assert read_match(text) == read_match(text.encode()) == read_match(document())


def test_not_json_is_a_match_file_error() -> None:
    error = error_of("{not json")
    assert isinstance(error, MatchFileError) and "not valid JSON" in error.message
    assert error.round is None and error.turn is None


def test_not_utf8_bytes_is_a_match_file_error() -> None:
    assert isinstance(error_of(b"\xff\xfe\x00"), MatchFileError)


def test_a_document_that_is_not_an_object() -> None:
    assert "JSON object" in error_of("[1, 2]").message


def test_deeply_nested_json_is_a_match_file_error() -> None:
    assert isinstance(error_of("[" * 100000 + "]" * 100000), MatchFileError)


def test_unknown_format_is_refused() -> None:
    assert "referee-match/1" in error_of(document(format="referee-match/9")).message


def test_unknown_ruleset_is_refused_naming_the_choices() -> None:
    error = error_of(document(rules="bezique"))
    assert isinstance(error, RuleError)
    assert error.message.startswith(
        '"bezique" is not a ruleset; choose one of remi, rummy, remi-indonesia, manipulation, gin'
    )
    assert error.message.endswith(", ".join(RULESETS))  # every registered ruleset


def test_missing_rules_and_players() -> None:
    raw = document()
    del raw["rules"]
    assert '"rules"' in error_of(raw).message
    raw = document()
    del raw["players"]
    assert '"players"' in error_of(raw).message


@pytest.mark.parametrize(
    ("players", "words"),
    [
        (["Budi"], "2 or more"),
        (["Budi", "Budi"], "listed twice"),
        (["Budi", " "], "cannot be empty"),
        ("Budi, Siti", "list of player names"),
        (["Budi", 7], "list of player names"),
        (["A", "B", "C", "D", "E"], "2 to 4 players"),
    ],
)
def test_players_must_be_distinct_names_in_the_rulesets_range(players: Any, words: str) -> None:
    assert words in error_of(document(players=players)).message


def test_unknown_first_dealer_is_refused() -> None:
    assert '"Rudi" is not a player' in error_of(document(first_dealer="Rudi")).message


def test_unknown_option_and_bad_option_values() -> None:
    assert 'has no option "ace"' in error_of(document(options={"ace": "high-low"})).message
    # RULES.md House rules: remi's target is a whole number from 50 to 10000.
    wanted = "Target (target) is a whole number from 50 to 10000"
    assert wanted in error_of(document(options={"target": "lots"})).message
    assert wanted in error_of(document(options={"target": True})).message


def test_unknown_player_in_a_round_names_round_and_turn() -> None:
    rounds = [{"end": "void"}, {"turns": [{"player": "Budi"}, {"player": "Rudi"}]}]
    error = error_of(document(rounds=rounds))
    assert isinstance(error, MatchFileError)
    assert (error.round, error.turn) == (2, 2)
    assert error.message == '"Rudi" is not a player in this match; the players are Budi, Siti, Andi'


def test_malformed_card_names_the_token_round_and_turn() -> None:
    rounds = [{"turns": [{"player": "Budi", "melds": [["7S", "8X", "9S"]]}]}]
    error = error_of(document(rounds=rounds))
    assert isinstance(error, NotationError) and (error.round, error.turn) == (1, 1)
    assert error.message.startswith('"8X" is not a card')


def test_malformed_card_in_hands_has_no_turn() -> None:
    error = error_of(document(rounds=[{"out": "Budi", "hands": {"Siti": ["QQ"]}}]))
    assert (error.round, error.turn) == (1, None) and '"QQ"' in error.message


@pytest.mark.parametrize(
    ("round_", "words"),
    [
        ("void", "JSON object"),
        ({"turns": "Budi melds"}, '"turns" must be a list'),
        ({"turns": [7]}, "each turn"),
        ({"turns": [{"melds": []}]}, '"player"'),
        ({"turns": [{"player": "Budi", "melds": "7S 8S 9S"}]}, '"melds" must be a list of melds'),
        ({"turns": [{"player": "Budi", "layoffs": [{"cards": ["7S"]}]}]}, '"onto"'),
        ({"turns": [{"player": "Budi", "layoffs": [{"cards": ["7S"], "onto": 0}]}]}, '"onto"'),
        ({"turns": [{"player": "Budi", "layoffs": [{"cards": ["7S"], "onto": True}]}]}, '"onto"'),
        ({"turns": [{"player": "Budi", "out": "yes"}]}, '"out" must be true or false'),
        ({"turns": [{"player": "Budi", "discard": ["7S"]}]}, '"discard" must be one card'),
        ({"hands": ["7S"]}, '"hands" must be'),
        ({"hands": {"Siti": 7.5}}, "Siti's hand must be the cards left"),
        ({"hands": {"Siti": True}}, "Siti's hand must be the cards left"),
        ({"hands": {"Siti": {"points": 7}}}, "Siti's hand must be the cards left"),
        ({"hands": {"Siti": -3}}, "Siti's hand cannot count -3"),
        ({"end": "abandoned"}, '"end" must be'),
        ({"out": 3}, '"out" must be a player'),
        ({"at_once": "true"}, '"at_once" must be true or false'),
        ({"melds": [["7S"]]}, '"melds" must be'),
        ({"closing_card": 7}, '"closing_card" must be one card'),
    ],
)
def test_wrong_types_are_match_file_errors_with_the_round(round_: Any, words: str) -> None:
    error = error_of(document(rounds=[round_]))
    assert isinstance(error, MatchFileError) and error.round == 1
    assert words in error.message


def test_rounds_must_be_a_list() -> None:
    assert '"rounds" must be a list' in error_of(document(rounds={"1": {}})).message


def test_unknown_keys_are_ignored() -> None:
    raw = document(colour="green", rounds=[{"end": "void", "note": "misdeal"}])
    assert read_match(raw).rounds[0].is_void


def test_cards_are_read_leniently_and_kept_as_cards() -> None:
    raw = document(
        rounds=[
            {
                "turns": [
                    {
                        "player": "Siti",
                        "melds": ["7♠ 8s T♠"],
                        "layoffs": [{"cards": "9S", "onto": 1}],
                        "took_discard": "th",
                        "discard": "kd",
                    }
                ],
                "end": "blocked",
            }
        ]
    )
    (turn,) = read_match(raw).rounds[0].turns or ()
    assert turn == Turn(
        player="Siti",
        melds=((Card.parse("7S"), Card.parse("8S"), Card.parse("10S")),),
        layoffs=(LayOffEntry((Card.parse("9S"),), 1),),
        took_discard=(Card.parse("10H"),),
        discard=Card.parse("KD"),
    )


def test_dump_writes_canonical_cards_and_reads_back_the_same() -> None:
    raw = document(
        rounds=[
            {
                "turns": [
                    {"player": "Siti", "melds": [["7♠", "8s", "t♠"]], "discard": "kd"},
                    {"player": "Andi", "played": ["jk"], "table": [["jk=9s", "10h"]]},
                ],
                "end": "blocked",
                "extra": 1,
            },
            {"out": "Budi", "at_once": False, "hands": {"Andi": ["ah"], "Siti": ["2c"]}},
            {"melds": {"Siti": [["2H", "3H", "4H"]]}, "closer": "Siti", "closing_card": "as"},
        ]
    )
    dumped = dump_match(read_match(raw))
    assert dumped["rounds"][0] == {
        "end": "blocked",
        "turns": [
            {"player": "Siti", "melds": [["7S", "8S", "10S"]], "discard": "KD"},
            {"player": "Andi", "played": ["JK"], "table": [["JK=9S", "10H"]]},
        ],
    }
    # hands are written in seating order
    assert list(dumped["rounds"][1]["hands"]) == ["Siti", "Andi"]
    assert dumped["rounds"][2]["closing_card"] == "AS"
    assert read_match(dumped) == read_match(raw)
    assert read_match(json.dumps(dumped)) == read_match(raw)


def test_meld_cards_in_any_order_runs_written_in_rank_order() -> None:
    # MATCH_FORMAT.md: the cards of a meld may be written in any order; writers emit runs
    # in rank order (the ace after the king in Q-K-A).  Sets keep the order written.
    raw = document(
        rules="rummy",
        options={"ace": "high-low"},
        rounds=[
            {
                "turns": [
                    {"player": "Siti", "melds": [["9S", "7S", "8S"], ["AH", "KH", "QH"]]},
                    {"player": "Andi", "melds": [["3D", "AD", "2D"], ["KC", "KS", "KD"]]},
                ],
                "end": "void",
            },
            {"melds": {"Siti": [["4H", "2H", "3H"]]}, "closer": "Siti", "closing_card": "AS"},
        ],
    )
    dumped = dump_match(read_match(raw))
    turns = dumped["rounds"][0]["turns"]
    assert turns[0]["melds"] == [["7S", "8S", "9S"], ["QH", "KH", "AH"]]
    assert turns[1]["melds"] == [["AD", "2D", "3D"], ["KC", "KS", "KD"]]
    assert dumped["rounds"][1]["melds"] == {"Siti": [["2H", "3H", "4H"]]}
    assert read_match(dumped) == read_match(raw)


def test_read_turn_for_the_live_round_carries_its_position() -> None:
    header = read_header(document())
    with pytest.raises(MatchFileError) as caught:
        read_turn({"player": "Rudi"}, header, round=3, number=5)
    assert (caught.value.round, caught.value.turn) == (3, 5)


def test_messages_of_the_round_engine_avoid_reserved_parameter_names() -> None:
    # RefereeError(reason, round=, turn=, **params) and Reason.of(key, **params) take these
    # names themselves; the two messages with a nested {reason} are built with Reason.of.
    built_with_reason_of = {"round.layoff_failed", "round.table_meld_illegal"}
    mine = ("file.", "round.", "deck.", "place.", "score.", "match.", "cli.", "rules.")
    for key, template in CATALOGUE.items():
        if key.startswith(mine):
            names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
            reserved = {"key", "round", "turn"}
            if key not in built_with_reason_of:
                reserved.add("reason")
            assert not names & reserved, key
