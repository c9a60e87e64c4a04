"""500 Rum and Contract Rummy in the app (issue 19): rules pages, the final-table entry, live
turns, scoreboards.  Every expected score is worked out by hand from RULES.md."""

from __future__ import annotations

import re

from .helpers import new_match, new_table, text, to_english


def article(response) -> str:
    page = text(response)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.index("<article") :]))


def test_contract_rules_page_lists_the_seven_contracts_from_the_data(client):
    to_english(client)
    page = article(client.get("/rules/contract"))
    # RULES.md: deals 1-4 deal 10 cards, 5-7 deal 12; the contracts in order.
    for deal, contract, cards in [
        (1, "two sets", 10),
        (2, "one set and one run", 10),
        (3, "two runs", 10),
        (4, "three sets", 10),
        (5, "two sets and a run", 12),
        (6, "one set and two runs", 12),
        (7, "three runs", 12),
    ]:
        assert f"Deal {deal}: {contract} ({cards} cards each)" in page
    # two decks and a joker for 3-4 (105 cards), three and two for 5-8 (158)
    assert "(105 cards) for 3-4 players" in page and "(158 cards) for 5-8 players" in page
    assert "at most 3 times a deal" in page and "joker = 15" in page


def test_contract_rules_page_in_indonesian(client):
    page = article(client.get("/rules/contract"))
    assert "Babak 5: dua seri dan satu urutan (12 kartu per orang)" in page
    assert "paling banyak 3 kali per babak" in page


def test_rummy500_rules_page_numbers(client):
    to_english(client)
    page = article(client.get("/rules/rummy500"))
    assert "one 52-card deck for 2-4 players; 2 decks for 5-8 players" in page
    assert "13 cards each with 2 players, 7 cards each with 3 or more" in page
    assert "A = 15" in page and "counts 1" in page and "(500 by default)" in page


def test_a_match_rules_page_shows_its_house_rules_numbers(client):
    table = new_table(client, "Budi, Siti, Andi")
    match = new_match(client, table, "contract", ["Budi", "Siti", "Andi"], joker_value=25)
    to_english(client)
    assert "joker = 25" in article(client.get(match + "rules"))
    match = new_match(client, table, "rummy500", ["Budi", "Siti"], target=300)
    page = article(client.get(match + "rules"))
    assert "reach the target (300)" in page


def test_contract_setup_asks_no_target_and_says_the_seven_deals(client):
    table = new_table(client, "Budi, Siti, Andi")
    to_english(client)
    page = text(client.get(table + "new/contract"))
    assert 'name="target"' not in page
    assert "The match is 7 deals; the lowest total wins." in page
