"""500 Rum and Contract Rummy where a scenario file is awkward: the contract of each deal as
data, the live round's view of it, the match file's ``table`` and ``buy`` written back,
meld shapes, and refusals that need a state built turn by turn.

Every expectation is worked out from RULES.md (``rummy500`` and ``contract`` sections).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import RefereeError, RuleError
from referee.match import live_round, replay
from referee.matchfile import dump_match, read_match
from referee.melds import check_layoff, check_meld
from referee.rulesets import FinalTable, find_ruleset
from referee.rulesets.contract import CONTRACTS, contract_of

PLAYERS = ["Budi", "Siti", "Andi"]


def contract_match(rounds: list[Any], players: list[str] = PLAYERS) -> dict[str, Any]:
    return {"rules": "contract", "players": players, "rounds": rounds}


def rummy500_match(rounds: list[Any], players: list[str] = PLAYERS) -> dict[str, Any]:
    return {"rules": "rummy500", "players": players, "rounds": rounds}


def refusal(document: dict[str, Any]) -> RefereeError:
    with pytest.raises(RefereeError) as caught:
        replay(document)
    return caught.value


# -- the contract of each deal ---------------------------------------------------------------


def test_contract_of_each_deal_in_words() -> None:
    # RULES.md: 1 two sets; 2 one set and one run; 3 two runs; 4 three sets;
    # 5 two sets and one run; 6 one set and two runs; 7 three runs.
    shapes = [(c.sets, c.runs) for c in CONTRACTS]
    assert shapes == [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
    assert contract_of(5).label == "Deal 5: two sets and a run"
    assert [c.deal for c in CONTRACTS] == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(ValueError):
        contract_of(8)


def test_deal_rules_give_the_contract_and_the_deal_size() -> None:
    rules = find_ruleset("contract", {"joker_value": 25})
    assert rules.contract is not None and rules.contract.deal == 1  # the plain ruleset: deal 1
    for deal, size in [(1, 10), (4, 10), (5, 12), (7, 12)]:
        dealt = rules.for_deal(deal)
        assert dealt.contract is not None and dealt.contract.deal == deal
        assert dealt.deal_size(4) == size
        assert dealt.joker_value == 25  # the house rule stays in force


def test_live_round_knows_its_deal_after_a_void_round() -> None:
    # Deal 1 scored, round 2 voided (no deal): round 3 is deal 2, one set and one run.
    rounds = [{"out": "Siti", "hands": {"Budi": 5, "Andi": 5}}, {"end": "void"}]
    live = live_round(contract_match(rounds))
    view = live.to_json()
    assert view["contract"] == {"deal": 2, "label": "Deal 2: one set and one run"}
    assert view["round"] == 3 and view["down"] == [] and view["bought"]["Budi"] == 0


def test_each_round_knows_its_deal_when_void_rounds_are_no_deal() -> None:
    # RULES.md: a void round is no deal. Round 1 scored (deal 1), round 2 void (no deal),
    # round 3 scored (deal 2), round 4 void: round 5, the next, is deal 3.
    scored = {"out": "Siti", "hands": {"Budi": 5, "Andi": 5}}
    state = replay(contract_match([scored, {"end": "void"}, scored, {"end": "void"}]))
    assert [state.deal_of(number) for number in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]
    assert state.next_deal == 3


def test_a_layoff_is_highlighted_only_for_a_player_who_went_down() -> None:
    live = live_round(
        contract_match([]),
        [{"player": "Siti", "melds": [["7H", "7S", "7D"], ["KD", "KC", "KS"]], "discard": "2C"}],
    )
    assert live.melds_accepting("7C", "Siti") == [1]
    assert live.melds_accepting("7C", "Andi") == []  # Andi has not gone down
    assert live.melds_accepting("7C") == [1]


def test_a_buy_adds_two_cards_to_the_buyer() -> None:
    live = live_round(
        contract_match([]),
        [{"player": "Siti", "buy": {"player": "Andi", "card": "9C"}, "discard": "3C"}],
    )
    # Andi: 10 dealt + the bought 9C + a penalty card from the stock.
    assert live.hand_size("Andi") == 12 and live.hand_size("Siti") == 10
    assert live.to_json()["bought"] == {"Budi": 0, "Siti": 0, "Andi": 1}


def test_a_card_whose_every_copy_is_on_the_table_cannot_be_bought() -> None:
    turns = [
        {"player": "Siti", "melds": [["7H", "7H", "7S"], ["KD", "KC", "KS"]], "discard": "2C"},
        {"player": "Andi", "buy": {"player": "Budi", "card": "7H"}, "discard": "3C"},
    ]
    with pytest.raises(RuleError, match="every 7H is already on the table") as caught:
        live_round(contract_match([]), turns)
    assert (caught.value.round, caught.value.turn) == (1, 2)


def test_no_buys_in_other_rulesets() -> None:
    turns = [{"player": "Siti", "buy": {"player": "Andi", "card": "9C"}, "discard": "3C"}]
    with pytest.raises(RuleError, match="nobody buys a discard in 500 Rum"):
        live_round(rummy500_match([]), turns)
    table_turn = {"player": "Siti", "played": [], "buy": {"player": "Andi", "card": "9C"}}
    manipulation = {"rules": "manipulation", "players": PLAYERS, "rounds": []}
    with pytest.raises(RuleError, match="nobody buys a discard in Manipulation Rummy"):
        live_round(manipulation, [table_turn])


def test_contract_may_discard_the_discard_it_took() -> None:
    # RULES.md sets no such limit for contract (unlike remi, rummy and gin).
    live = live_round(
        contract_match([]), [{"player": "Siti", "took_discard": ["5C"], "discard": "5C"}]
    )
    assert live.hand_size("Siti") == 10


def test_lay_off_after_going_down_in_the_same_turn() -> None:
    live = live_round(
        contract_match([]),
        [
            {
                "player": "Siti",
                "melds": [["7H", "7S", "7D"], ["KD", "KC", "KS"]],
                "layoffs": [{"cards": ["7C", "JK=7H"], "onto": 1}],
                "discard": "2C",
            }
        ],
    )
    assert [card for card in live.to_json()["table"][0]["cards"]] == [
        "7S",
        "7H",
        "JK=7H",
        "7D",
        "7C",
    ]
    assert live.hand_size("Siti") == 10 + 1 - 8 - 1


def test_five_players_play_three_decks_and_two_jokers() -> None:
    five = ["Budi", "Siti", "Andi", "Dewi", "Eko"]
    rules = find_ruleset("contract")
    assert rules.deck_size(5) == 158 and rules.deck_size(4) == 105
    table = [
        {"by": "Siti", "cards": ["7H", "7H", "7H", "JK=7S"]},
        {"by": "Siti", "cards": ["KD", "KD", "JK=KS"]},
    ]
    hands = {"Budi": ["2C"], "Andi": ["3C"], "Dewi": ["4C"], "Eko": ["5C"]}
    state = replay(contract_match([{"table": table, "out": "Siti", "hands": hands}], five))
    assert state.totals == {"Budi": 2, "Siti": 0, "Andi": 3, "Dewi": 4, "Eko": 5}
    hands["Eko"] = ["7H"]
    error = refusal(contract_match([{"table": table, "out": "Siti", "hands": hands}], five))
    assert "the 3 decks hold only 3 of it" in error.message


# -- melds -----------------------------------------------------------------------------------


def test_contract_sets_repeat_suits_and_have_no_size_limit() -> None:
    assert check_meld("7H 7H 7S 7D 7C", find_ruleset("contract")).legal
    assert check_layoff("7H 7H 7S", "7S 7H", find_ruleset("contract")).legal
    assert not check_meld("7H 7S", find_ruleset("contract")).legal


def test_contract_runs_have_four_cards_or_more_and_the_ace_high_or_low() -> None:
    verdict = check_meld("8C 9C 10C", find_ruleset("contract"))
    assert not verdict.legal and "at least 4 cards" in str(verdict.reason)
    assert check_meld("JH QH KH AH", find_ruleset("contract")).legal
    assert check_meld("AH 2H 3H JK=4H", find_ruleset("contract")).legal
    assert not check_meld("QH KH AH 2H", find_ruleset("contract")).legal


def test_rummy500_sets_are_of_different_suits_and_runs_of_three() -> None:
    assert check_meld("QS KS AS", find_ruleset("rummy500")).legal
    assert check_meld("AS 2S 3S", find_ruleset("rummy500")).legal
    assert not check_meld("7H 7H 7S", find_ruleset("rummy500")).legal
    assert not check_meld("7H JK=7S 7D", find_ruleset("rummy500")).legal  # no jokers


def test_rummy500_values_ace_fifteen_in_hand() -> None:
    rules = find_ruleset("rummy500")
    assert [rules.value(card) for card in read_cards("AS 2S 10S JS KS")] == [15, 2, 10, 10, 10]


def read_cards(text: str) -> list[Any]:
    from referee.notation import parse_cards

    return list(parse_cards(text))


# -- rummy500 live ---------------------------------------------------------------------------


def test_taking_only_the_top_discard_needs_no_meld() -> None:
    live = live_round(
        rummy500_match([]), [{"player": "Siti", "took_discard": ["5C"], "discard": "9D"}]
    )
    assert live.hand_size("Siti") == 7


def test_the_deepest_card_may_be_used_in_a_layoff_on_anyones_meld() -> None:
    turns = [
        {"player": "Siti", "melds": [["4D", "5D", "6D"]], "discard": "KS"},
        {
            "player": "Andi",
            "took_discard": ["KS", "3D"],
            "layoffs": [{"cards": ["3D"], "onto": 1}],
            "discard": "2C",
        },
    ]
    live = live_round(rummy500_match([]), turns)
    meld = live.table[0]
    assert [(lay.player, str(lay.card)) for lay in meld.layoffs] == [("Andi", "3D")]
    assert live.hand_size("Andi") == 7 + 2 - 1 - 1


def test_a_round_entered_turn_by_turn_takes_no_table() -> None:
    rounds = [
        {
            "turns": [{"player": "Siti", "melds": [["4D", "5D", "6D"]], "discard": "KS"}],
            "table": [{"by": "Siti", "cards": ["4D", "5D", "6D"]}],
            "end": "stock",
            "hands": {
                "Budi": ["AS", "2S", "3S", "4S", "5S", "6S", "7S"],
                "Siti": ["AH", "2H", "3H", "4H"],
                "Andi": ["AC", "2C", "3C", "4C", "5C", "6C", "7C"],
            },
        }
    ]
    assert 'leave out "table"' in refusal(rummy500_match(rounds)).message


def test_replay_gives_each_players_table_points() -> None:
    rounds = [
        {
            "table": [{"by": "Budi", "cards": ["2H", "3H", "4H"], "layoffs": {"Andi": ["AH"]}}],
            "out": "Budi",
            "hands": {"Siti": ["KC"], "Andi": ["2C"]},
        }
    ]
    result = replay(rummy500_match(rounds)).rounds[0]
    # Budi 2 + 3 + 4 = 9; Andi's AH below the 2 counts 1 (minus 2C in hand = -1); Siti -10.
    assert result.table_values == {"Budi": 9, "Siti": 0, "Andi": 1}
    assert result.scores == {"Budi": 9, "Siti": -10, "Andi": -1}
    assert [meld.player for meld in result.table] == ["Budi"]


# -- the match file --------------------------------------------------------------------------


def test_table_and_buy_are_written_back_canonically() -> None:
    document = contract_match(
        [
            {
                "turns": [
                    {"player": "Siti", "buy": {"player": "Andi", "card": "7h"}, "discard": "2c"}
                ]
            },
        ]
    )
    document["rounds"] = [
        {
            "table": [
                {"by": "Siti", "cards": ["kd", "qd", "jd", "jk=10d"], "layoffs": {"Budi": ["9d"]}},
                {"by": "Budi", "cards": ["2h", "2d", "2s"]},
            ],
            "out": "Siti",
            "hands": {"Budi": 3, "Andi": ["as"]},
        },
        document["rounds"][0],
    ]
    match = read_match(document)
    written = dump_match(match)
    assert written["rounds"][0]["table"] == [
        {"by": "Siti", "cards": ["JK=10D", "JD", "QD", "KD"], "layoffs": {"Budi": ["9D"]}},
        {"by": "Budi", "cards": ["2H", "2D", "2S"]},
    ]
    assert written["rounds"][1]["turns"][0]["buy"] == {"player": "Andi", "card": "7H"}
    assert read_match(written) == match


def test_table_is_ignored_by_rulesets_without_it() -> None:
    document = {
        "rules": "remi",
        "players": PLAYERS,
        "rounds": [{"out": "Siti", "table": "anything", "hands": {"Budi": ["2C"], "Andi": []}}],
    }
    assert read_match(document).rounds[0].table is None


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("7S 8S 9S", '"table" must be a list'),
        ([{"cards": ["7S", "8S", "9S"]}], 'meld 1 of the table needs "by"'),
        ([{"by": "Siti", "cards": ["7S", "8S", "9S"], "layoffs": ["10S"]}], '"layoffs" of meld 1'),
    ],
)
def test_malformed_tables_are_refused_in_words(table: Any, words: str) -> None:
    rounds = [{"table": table, "out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3C"]}}]
    assert words in refusal(rummy500_match(rounds)).message


def test_a_malformed_buy_is_refused_in_words() -> None:
    rounds = [{"turns": [{"player": "Siti", "buy": "Andi", "discard": "3C"}]}]
    assert '"buy" must say who bought the discard' in refusal(contract_match(rounds)).message


def test_the_round_form_asks_the_table_and_writes_it() -> None:
    form = find_ruleset("rummy500").round_form
    assert form.table and form.table_required
    assert find_ruleset("contract").round_form.table
    assert not find_ruleset("contract").round_form.table_required
    table = [{"by": "Siti", "cards": ["7S", "8S", "9S"], "layoffs": {"Budi": ["10S"]}}]
    entry = form.entry(FinalTable("stock", hands={"Budi": 5, "Siti": ["2C"]}, table=table))
    assert entry == {"end": "stock", "table": table, "hands": {"Budi": 5, "Siti": ["2C"]}}
    answers = form.answers(entry)
    assert answers is not None and list(answers.table) == table


# -- the command line ------------------------------------------------------------------------


def test_referee_check_knows_both_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["check", "--rules", "contract", "8C", "9C", "10C"]) == 1
    assert "at least 4 cards" in capsys.readouterr().out
    assert main(["check", "--rules", "contract", "7H", "7H", "JK=7S"]) == 0
    assert capsys.readouterr().out.strip() == "legal set: JK=7S 7H 7H"  # suits in order S H D C
    assert main(["check", "--rules", "rummy500", "--onto", "QS KS", "AS"]) == 1  # no 2-card meld
    capsys.readouterr()
    assert main(["check", "--rules", "rummy500", "--onto", "JS QS KS", "AS"]) == 0
    assert capsys.readouterr().out.strip() == "legal lay-off: the run becomes JS QS KS AS"


def test_a_second_joker_or_a_third_copy_laid_later_is_named_by_the_deck_check() -> None:
    turns = [
        {"player": "Siti", "melds": [["7H", "7H", "JK=7S"], ["KD", "KC", "KS"]], "discard": "2C"},
        {"player": "Siti", "layoffs": [{"cards": ["JK=KH"], "onto": 2}], "discard": "3C"},
    ]
    with pytest.raises(RuleError) as caught:
        live_round(contract_match([]), turns)
    assert caught.value.message == (
        "a joker is in meld 1 and in meld 2, but the deck has only 1 joker(s)"
    )
    turns[1] = {"player": "Siti", "layoffs": [{"cards": ["7H"], "onto": 1}], "discard": "3C"}
    with pytest.raises(RuleError) as caught:
        live_round(contract_match([]), turns)
    assert caught.value.message == "7H is 3 times in meld 1, but the two decks hold only 2 of it"
