"""Card notation: every spelling MATCH_FORMAT.md allows, and the canonical printer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import Card, Rank, Suit
from referee.errors import NotationError, RefereeError
from referee.notation import format_card, format_cards, parse_card, parse_cards


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10♥", "t♡", " 10h "])
def test_every_spelling_of_ten_of_hearts(text: str) -> None:
    assert parse_card(text) == Card(Rank.TEN, Suit.HEARTS)


def test_joker_in_hand_and_on_table() -> None:
    assert parse_card("jk").is_bare_joker
    named = parse_card("JK=7h")
    assert named.is_joker and named.stands_for == Card(Rank.SEVEN, Suit.HEARTS)
    assert format_card(named) == "JK=7H"
    assert named.in_hand == Card.joker()


@pytest.mark.parametrize("text", ["1X", "11H", "ZS", "10", "H10", "", "JK=JK", "JK=1X", "7HH"])
def test_bad_cards_are_named_in_the_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_card(text)
    assert f'"{text.strip()}"' in caught.value.message or text.startswith("JK")


def test_error_message_for_1x() -> None:
    with pytest.raises(NotationError, match='^"1X" is not a card: '):
        parse_card("1X")


def test_lists_and_strings_both_parse() -> None:
    expected = (Card.parse("AS"), Card.parse("10D"), Card.parse("KC"))
    assert parse_cards("as, td  kc") == expected
    assert parse_cards(["AS", Card.parse("10D"), "k♣"]) == expected


def test_non_string_card_is_a_referee_error() -> None:
    with pytest.raises(RefereeError):
        parse_cards([7])  # type: ignore[list-item]
    with pytest.raises(RefereeError):
        parse_cards(7)  # type: ignore[arg-type]


def test_canonical_form() -> None:
    assert format_cards(parse_cards("th jk=qd jk a♠")) == "10H JK=QD JK AS"


cards = st.one_of(
    st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit))),
    st.builds(
        lambda rank, suit: Card.joker(Card(rank, suit)),
        st.sampled_from(list(Rank)),
        st.sampled_from(list(Suit)),
    ),
    st.just(Card.joker()),
)


@given(cards)
def test_every_printed_card_parses_back(card: Card) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card).lower()) == card


@given(st.text(max_size=12))
def test_no_text_makes_the_parser_raise_anything_but_its_own_error(text: str) -> None:
    try:
        parse_cards(text)
    except NotationError:
        pass
