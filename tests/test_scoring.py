"""A round's scores from how it ended (referee.scoring), counted by hand from RULES.md."""

from __future__ import annotations

from collections.abc import Mapping

from referee.cards import Card
from referee.notation import parse_cards
from referee.rulesets import find_ruleset
from referee.scoring import (
    Ending,
    Outcome,
    RoundEnding,
    lowest_hand_wins,
    own_melds_minus_hand,
    winner_takes_hands,
)

REMI = find_ruleset("remi")
RUMMY_HIGH = find_ruleset("rummy", {"ace": "high-low"})
INDO = find_ruleset("remi-indonesia")
MANIP = find_ruleset("manipulation")


def hands(**cards: str) -> dict[str, tuple[Card, ...]]:
    return {player: parse_cards(text) for player, text in cards.items()}


def ending(kind: Ending, held: Mapping[str, tuple[Card, ...]], **facts: object) -> RoundEnding:
    return RoundEnding(kind, tuple(held), held, **facts)  # type: ignore[arg-type]


def test_remi_winner_takes_the_value_of_every_other_hand() -> None:
    # A=1, 2-10 face value, J Q K = 10: Siti 1+10+10 = 21, Andi 7+10 = 17.
    score = winner_takes_hands(
        REMI, ending(Ending.OUT, hands(Budi="", Siti="AS JD KC", Andi="7H 10C"), player="Budi")
    )
    assert score.outcome is Outcome.OUT and score.winners == ("Budi",)
    assert score.scores == {"Budi": 38, "Siti": 0, "Andi": 0}


def test_remi_going_out_all_at_once_doubles() -> None:
    score = winner_takes_hands(
        REMI,
        ending(
            Ending.OUT, hands(Budi="", Siti="AS JD KC", Andi="7H 10C"), player="Budi", at_once=True
        ),
    )
    assert score.scores["Budi"] == 76


def test_remi_blocked_round_scores_zero_for_everyone() -> None:
    score = winner_takes_hands(REMI, RoundEnding(Ending.BLOCKED, ("Budi", "Siti")))
    assert score.outcome is Outcome.BLOCKED and score.winners == ()
    assert score.scores == {"Budi": 0, "Siti": 0}


def test_rummy_high_low_every_ace_is_worth_fifteen() -> None:
    score = winner_takes_hands(
        RUMMY_HIGH, ending(Ending.OUT, hands(Budi="", Siti="AS AD 2C"), player="Budi")
    )
    assert score.scores["Budi"] == 32


def test_remi_indonesia_melds_minus_hand_with_closing_bonus() -> None:
    # Values: 2-10 = 5, J Q K = 10, A = 15.
    # Budi: melds 2H 3H 4H (15) + AS AH AD (45) = 60, hand empty, closes with KC: +100.
    # Siti: melds JS QS KS (30), hand 9D AC (5 + 15): 10.
    # Andi: no melds, hand 10D JH (5 + 10): -15.
    melds = {
        "Budi": (parse_cards("2H 3H 4H"), parse_cards("AS AH AD")),
        "Siti": (parse_cards("JS QS KS"),),
    }
    score = own_melds_minus_hand(
        INDO,
        ending(
            Ending.OUT,
            hands(Budi="", Siti="9D AC", Andi="10D JH"),
            player="Budi",
            melds=melds,
            closing_card=Card.parse("KC"),
        ),
    )
    assert score.scores == {"Budi": 160, "Siti": 10, "Andi": -15}
    assert score.winners == ("Budi",) and score.outcome is Outcome.OUT


def test_remi_indonesia_closing_bonus_is_50_100_or_150() -> None:
    for card, bonus in (("7C", 50), ("QC", 100), ("AC", 150)):
        score = own_melds_minus_hand(
            INDO,
            ending(
                Ending.OUT, hands(Budi="", Siti=""), player="Budi", closing_card=Card.parse(card)
            ),
        )
        assert score.scores["Budi"] == bonus


def test_remi_indonesia_stock_ending_has_no_winner_and_no_bonus() -> None:
    score = own_melds_minus_hand(INDO, ending(Ending.STOCK, hands(Budi="2C", Siti="KD")))
    assert score.outcome is Outcome.STOCK and score.winners == ()
    assert score.scores == {"Budi": -5, "Siti": -10}


def test_manipulation_three_players_winner_scores_the_sum_of_differences() -> None:
    # Values in hand: joker 25, J Q K 10, 2-10 face value, ace 1.
    # Budi 2, Siti JK = 25, Andi 9: (25-2) + (9-2) = 30.
    score = lowest_hand_wins(
        MANIP, ending(Ending.KNOCK, hands(Budi="2C", Siti="JK", Andi="9C"), player="Budi")
    )
    assert score.outcome is Outcome.KNOCK and score.scores == {"Budi": 30, "Siti": 0, "Andi": 0}


def test_manipulation_undercut_bonus_is_ten() -> None:
    score = lowest_hand_wins(
        MANIP, ending(Ending.KNOCK, hands(Budi="5C", Siti="AD", Andi="9C"), player="Budi")
    )
    # Siti 1: (5-1) + (9-1) + 10 = 22.
    assert score.outcome is Outcome.UNDERCUT and score.undercut
    assert score.scores == {"Budi": 0, "Siti": 22, "Andi": 0}


def test_manipulation_knocker_tie_gives_the_round_to_the_other() -> None:
    score = lowest_hand_wins(
        MANIP, ending(Ending.KNOCK, hands(Budi="3C", Siti="2D AD"), player="Budi")
    )
    # Two players, 3 each: Siti wins with 0 + 10.
    assert score.winners == ("Siti",) and score.scores == {"Budi": 0, "Siti": 10}


def test_manipulation_out_winner_adds_25_and_no_undercut() -> None:
    score = lowest_hand_wins(MANIP, ending(Ending.OUT, hands(Budi="4C", Siti=""), player="Siti"))
    assert score.outcome is Outcome.OUT and score.scores == {"Budi": 0, "Siti": 29}


def test_manipulation_stock_tied_winners_each_score_without_bonus() -> None:
    score = lowest_hand_wins(MANIP, ending(Ending.STOCK, hands(Budi="2C", Siti="2D", Andi="KC")))
    assert score.winners == ("Budi", "Siti")
    assert score.scores == {"Budi": 8, "Siti": 8, "Andi": 0}
