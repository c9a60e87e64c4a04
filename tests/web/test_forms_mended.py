"""Forms that answer what the player did: a meld row's owner taken back, a refusal shown
next to the row whose cards it is about, one control to take from the discard pile."""

from __future__ import annotations

from .helpers import field_errors, new_match, new_table, text, to_english
from .test_rummies import TWO, turn

THREE = ["Budi", "Siti", "Andi"]


def contract_round(client, **rows):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    fields = {"ending": "out", "player": "Budi", "hand_1": "KH", "hand_2": "QH"}
    fields |= {"meld_rows": "6", "layoff_rows": "2", "action": "save", **rows}
    return client.submit(match + "rounds/new", fields)


def test_a_refusal_about_a_meld_shows_next_to_the_row_that_shows_it(client):
    # Rows 1-4 left empty, the melds typed in rows 5 and 6: they are melds 1 and 2, shown
    # in rows 1 and 2, and the refusal of meld 1 (a run of 3: Contract wants 4, RULES.md)
    # goes next to row 1, where its cards are.
    answer = contract_round(
        client,
        table_by_4="Budi",
        table_cards_4="3S 4S 5S",
        table_by_5="Budi",
        table_cards_5="7D 8D 9D",
    )
    assert answer.status_code == 400
    shown = field_errors(answer)
    assert list(shown) == ["table_cards_0"] and "meld 1 (3S 4S 5S)" in shown["table_cards_0"][0]
    page = text(answer)
    assert (
        'id="table_cards_0" name="table_cards_0" spellcheck="false" type="text" value="3S 4S 5S"'
        in page
    )


def test_an_owner_tapped_on_a_row_left_empty_can_be_taken_back(client):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    page = text(client.get(match + "rounds/new"))
    assert 'name="table_by_2" type="radio" value=""> <span>nobody</span>' in page
    # Budi tapped on row 3, then "nobody": the row is empty, the round is saved without it
    # (the table is not required to score the hands).
    answer = contract_round(client, table_by_2="")
    assert answer.status_code == 302, field_errors(answer)


def test_rummy500_takes_from_the_spread_pile_with_one_control(client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    to_english(client)
    for player, card in [("Siti", "5D"), ("Budi", "9C")]:
        assert turn(client, match, player=player, discard=card).status_code == 302
    page = text(client.get(match + "live"))
    assert 'name="take_from"' in page
    assert "Took from the discard pile?" not in page and 'name="took_discard"' not in page
