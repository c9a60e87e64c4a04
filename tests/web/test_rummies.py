"""500 Rum and Contract Rummy in the app: rules pages, the final-table entry, live
turns, scoreboards.  Every expected score is worked out by hand from RULES.md."""

from __future__ import annotations

import re

import sqlalchemy as sa

from referee.web.store.extensions import db
from referee.web.store.models import Round

from .helpers import errors, new_match, new_table, text, to_english, totals

TWO = ["Budi", "Siti"]
THREE = ["Budi", "Siti", "Andi"]


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
    assert "Putaran 5: dua seri dan satu urutan (12 kartu per orang)" in page
    assert "paling banyak 3 kali per putaran" in page


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


def final_table(players, hands, melds=(), layoffs=(), **fields):
    """A quick-round form: ``melds`` as (who, cards), ``layoffs`` as (who, cards, meld number)."""
    data = {f"hand_{i}": hands.get(name, "") for i, name in enumerate(players)}
    for i, (by, cards) in enumerate(melds):
        data[f"table_by_{i}"], data[f"table_cards_{i}"] = by, cards
    for i, (by, cards, onto) in enumerate(layoffs):
        data[f"layoff_by_{i}"], data[f"layoff_cards_{i}"] = by, cards
        data[f"layoff_onto_{i}"] = str(onto)
    data.update({key: str(value) for key, value in fields.items()})
    data.setdefault("action", "save")
    return data


def stored_entries(app, match_url):
    match_id = int(match_url.rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        rounds = db.session.scalars(
            sa.select(Round).where(Round.match_id == match_id).order_by(Round.number)
        )
        return [r.entry for r in rounds]


# 500 Rum, Budi goes out (RULES.md: everyone scores the cards they put on the table minus
# their hand; an ace below a 2 in a run counts 1, elsewhere 15):
#   Budi: 7S 8S 9S = 24, AH 2H 3H = 1 + 2 + 3 = 6, 4C 4D 4H = 12; hand empty: +42
#   Siti: KH KD KC = 30, 10S laid off on Budi's run = 10; hand AS 5D = 15 + 5 = 20: +20
RUM_MELDS = [("Budi", "7S 8S 9S"), ("Siti", "KH KD KC"), ("Budi", "AH 2H 3H"), ("Budi", "4C 4D 4H")]
RUM_LAYOFFS = [("Siti", "10S", 1)]


def test_a_rummy500_final_table_with_owners_and_layoffs(app, client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    page = text(client.get(match + "rounds/new"))
    assert 'name="table_by_0"' in page and 'name="layoff_onto_0"' in page
    data = final_table(TWO, {"Siti": "AS 5D"}, RUM_MELDS, RUM_LAYOFFS, ending="out", player="Budi")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [42, 20]
    [entry] = stored_entries(app, match)
    assert entry["table"] == [
        {"by": "Budi", "cards": ["7S", "8S", "9S"], "layoffs": {"Siti": ["10S"]}},
        {"by": "Siti", "cards": ["KH", "KD", "KC"]},
        {"by": "Budi", "cards": ["AH", "2H", "3H"]},
        {"by": "Budi", "cards": ["4C", "4D", "4H"]},
    ]
    assert entry["out"] == "Budi" and entry["hands"] == {"Siti": ["AS", "5D"]}


def test_a_correction_shows_the_stored_table_and_saves_it_changed(client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    data = final_table(TWO, {"Siti": "AS 5D"}, RUM_MELDS, RUM_LAYOFFS, ending="out", player="Budi")
    client.submit(match + "rounds/new", data)
    page = client.get(match + "rounds/1/edit").text
    assert re.search(r'name="table_cards_0"[^>]*value="7S 8S 9S"', page)
    assert re.search(
        r'name="table_by_1"[^>]*value="Siti"[^>]*checked|checked[^>]*name="table_by_1"[^>]*value="Siti"',
        page,
    )
    assert re.search(r'name="layoff_cards_0"[^>]*value="10S"', page)
    # The 10S was Budi's own, not a lay-off: Budi 42 + 10 = 52, Siti 30 - 20 = 10.
    melds = [("Budi", "7S 8S 9S 10S")] + RUM_MELDS[1:]
    fixed = final_table(TWO, {"Siti": "AS 5D"}, melds, ending="out", player="Budi")
    response = client.submit(match + "rounds/1/edit", fixed)
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [52, 10]


def test_empty_rows_between_melds_are_skipped_and_the_layoff_follows_its_meld(app, client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    data = final_table(TWO, {"Siti": "AS 5D"}, [("Budi", "7S 8S 9S")], ending="out", player="Budi")
    # Siti's set in row 3 (row 2 left empty), her lay-off onto row 1; hands as points.
    data.update(table_by_2="Siti", table_cards_2="KH KD KC", hand_1="20")
    data.update(layoff_by_0="Siti", layoff_cards_0="10S", layoff_onto_0="1")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 302, errors(response)
    # Budi 24, Siti 30 + 10 - 20 = 20
    assert totals(client.get(match)) == [24, 20]
    [entry] = stored_entries(app, match)
    assert [meld["by"] for meld in entry["table"]] == ["Budi", "Siti"]
    assert entry["hands"] == {"Siti": 20}


def test_a_wrong_meld_gets_the_referees_reason_and_nothing_is_saved(app, client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    to_english(client)
    melds = [("Budi", "7S 8S 10S")]
    response = client.submit(
        match + "rounds/new", final_table(TWO, {"Siti": "AS"}, melds, ending="out", player="Budi")
    )
    assert response.status_code == 400
    said = " ".join(errors(response))
    assert "meld 1" in said.lower() and "9S" in said
    assert stored_entries(app, match) == []


def test_rows_that_say_too_little_are_named(client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    to_english(client)
    data = final_table(TWO, {"Siti": "AS"}, ending="out", player="Budi")
    data.update(
        table_cards_0="7S 8S 9S", layoff_cards_0="10S", layoff_by_0="Siti", layoff_onto_0="3"
    )
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 400
    said = errors(response)
    assert "Who laid this meld?" in said and "Meld 3 is empty." in said


def test_a_rummy500_round_needs_its_table(client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    to_english(client)
    response = client.submit(
        match + "rounds/new", final_table(TWO, {"Siti": "AS"}, ending="out", player="Budi")
    )
    assert response.status_code == 400
    assert any("give the table" in message for message in errors(response))


def test_more_rows_keeps_what_was_typed(client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    page = client.get(match + "rounds/new").text
    shown = len(re.findall(r'name="table_cards_\d+"', page))
    data = final_table(TWO, {"Siti": "AS"}, [("Budi", "7S 8S 9S")], action="more_rows")
    data["meld_rows"] = str(shown)
    data["layoff_rows"] = "4"
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 200 and not errors(response)
    assert len(re.findall(r'name="table_cards_\d+"', response.text)) == shown + 4
    assert re.search(r'name="table_cards_0"[^>]*value="7S 8S 9S"', response.text)


# Contract Rummy, deal 1 (two sets; two decks and a joker for three players). Budi goes out:
#   Budi: 7S 7H 7D and KC KC KS (suits repeat: two decks); Siti went down with 5H 5D 5S and
#   9C 9D 9H and laid 7C off on Budi's sevens; Andi never went down.
#   Scores (RULES.md: the one who went out 0, the others what they hold, A 15, joker 15):
#   Budi 0; Siti QH JK = 10 + 15 = 25; Andi AS 2C 3D = 15 + 2 + 3 = 20.
DEAL_ONE = [("Budi", "7S 7H 7D"), ("Budi", "KC KC KS"), ("Siti", "5H 5D 5S"), ("Siti", "9C 9D 9H")]


def test_a_contract_final_table_scores_the_hands_and_the_lowest_leads(app, client):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    page = text(client.get(match + "rounds/new"))
    assert "Deal 1: two sets" in page
    hands = {"Siti": "QH JK", "Andi": "AS 2C 3D"}
    data = final_table(THREE, hands, DEAL_ONE, [("Siti", "7C", 1)], ending="out", player="Budi")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [0, 25, 20]
    [entry] = stored_entries(app, match)
    assert entry["table"][0]["layoffs"] == {"Siti": ["7C"]}
    page = text(client.get(match + "rounds/new"))
    assert "Deal 2: one set and one run" in page


def test_a_contract_layoff_before_going_down_is_refused_with_the_reason(app, client):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    hands = {"Siti": "QH JK", "Andi": "AS 2C"}
    data = final_table(THREE, hands, DEAL_ONE, [("Andi", "7C", 1)], ending="out", player="Budi")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 400
    said = " ".join(errors(response))
    assert "Andi laid off on meld 1 but has no contract on the table" in said
    assert stored_entries(app, match) == []


def test_a_contract_round_without_the_table_is_scored_from_the_hands(client):
    match = new_match(client, new_table(client), "contract", THREE)
    # Budi out; Siti 25 as a number, Andi KS KH = 20.
    data = final_table(THREE, {"Siti": "25", "Andi": "KS KH"}, ending="out", player="Budi")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 302, errors(response)
    assert totals(client.get(match)) == [0, 25, 20]


# -- live turns --------------------------------------------------------------------------------


def turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def live_turns(app, match_url):
    match_id = int(match_url.rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        stored = db.session.scalars(sa.select(Round).where(Round.match_id == match_id)).one()
        return stored.entry["turns"]


def test_a_contract_live_round_says_the_contract_and_a_buy_is_one_tap(app, client):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    page = text(client.get(match + "live"))
    assert "Deal 1: two sets" in page and "Nobody is down yet." in page
    # Budi deals, Siti leads and discards 7H; Andi refuses it and Budi buys it (one tap on
    # his name; the card is the top of the pile).  A buy takes the card and a penalty card:
    # Budi holds 10 + 2 = 12 (RULES.md), and has 3 - 1 = 2 buys left.
    assert turn(client, match, player="Siti", discard="7H").status_code == 302
    page = client.get(match + "live").text
    assert re.search(r'name="bought"[^>]*value="7H"', page)
    assert re.search(r'name="buyer"[^>]*value="Budi"', page)
    response = turn(client, match, player="Andi", buyer="Budi", discard="3D")
    assert response.status_code == 302, errors(response)
    assert live_turns(app, match)[1] == {
        "player": "Andi",
        "discard": "3D",
        "buy": {"player": "Budi", "card": "7H"},
    }
    page = text(client.get(match + "live"))
    assert "Budi holds 12" in page and "Andi holds 10" in page
    assert "Buys left: Budi 2, Siti 3, Andi 3" in page
    assert "Budi bought" in page


def test_a_buy_in_the_buyers_own_turn_is_refused_with_the_reason(app, client):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    turn(client, match, player="Siti", discard="7H")
    response = turn(client, match, player="Andi", buyer="Andi", discard="3D")
    assert response.status_code == 400 and errors(response)
    assert len(live_turns(app, match)) == 1


def test_the_contract_of_the_next_deal_on_the_scoreboard(client):
    match = new_match(client, new_table(client), "contract", THREE)
    to_english(client)
    assert "Next: Deal 1: two sets" in text(client.get(match))


def test_rummy500_live_page_spreads_the_pile_and_takes_a_deep_pick(app, client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    to_english(client)
    # Budi deals, Siti leads.  Discards: Siti 5D, Budi 9C, Siti KH: the pile, top first,
    # is KH 9C 5D.
    for player, card in [("Siti", "5D"), ("Budi", "9C"), ("Siti", "KH")]:
        assert turn(client, match, player=player, discard=card).status_code == 302
    page = client.get(match + "live").text
    spread = page.split('class="spread-pile-view"')[1].split("</p>")[0]
    assert [spread.index(code) for code in ("KH", "9C", "5D")] == sorted(
        spread.index(code) for code in ("KH", "9C", "5D")
    )
    # Budi taps 5D, the third card: he takes KH 9C 5D and must use 5D at once (RULES.md).
    refused = turn(client, match, player="Budi", take_from="3", discard="2C")
    assert refused.status_code == 400
    assert any("5D" in message for message in errors(refused))
    assert len(live_turns(app, match)) == 3
    response = turn(client, match, player="Budi", take_from="3", melds="5D 5S 5H", discard="2C")
    assert response.status_code == 302, errors(response)
    assert live_turns(app, match)[3]["took_discard"] == ["KH", "9C", "5D"]
    # 13 dealt to each of two players; Budi: 13 + 3 taken - 3 melded - 1 discarded = 12
    page = text(client.get(match + "live"))
    assert "Budi holds 12" in page
    spread = page.split('class="spread-pile-view"')[1].split("</p>")[0]
    assert "2C" in spread and "KH" not in spread


# -- score sheets ------------------------------------------------------------------------------


def test_rummy500_score_sheet_splits_each_round_into_table_and_hand(client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    data = final_table(TWO, {"Siti": "AS 5D"}, RUM_MELDS, RUM_LAYOFFS, ending="out", player="Budi")
    client.submit(match + "rounds/new", data)
    to_english(client)
    page = text(client.get(match))
    # Budi put 42 on the table and holds nothing; Siti 30 + 10 = 40 and holds 20.
    assert '<small class="split" data-player="Budi">table +42, hand 0</small>' in page
    assert '<small class="split" data-player="Siti">table +40, hand \u221220</small>' in page


def test_contract_score_sheet_has_the_deals_as_columns_lowest_first(client):
    match = new_match(client, new_table(client), "contract", THREE)
    # Deal 1: Budi out (0), Siti 25, Andi 20 (as above).
    hands = {"Siti": "QH JK", "Andi": "AS 2C 3D"}
    data = final_table(THREE, hands, DEAL_ONE, [("Siti", "7C", 1)], ending="out", player="Budi")
    assert client.submit(match + "rounds/new", data).status_code == 302
    # Round 2 is void: no deal, the next round is still deal 2.
    assert (
        client.submit(match + "rounds/new", final_table(THREE, {}, ending="void")).status_code
        == 302
    )
    # Round 3 = deal 2: Siti out; Budi KS = 10, Andi 7H 8H = 15.
    data = final_table(THREE, {"Budi": "KS", "Andi": "7H 8H"}, ending="out", player="Siti")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 302, errors(response)
    to_english(client)
    page = text(client.get(match))
    grid = page.split('class="sheet deals"')[1].split("</table>")[0]
    headers = re.findall(r'data-deal="(\d)"', grid)
    assert headers == [str(n) for n in range(1, 8)]
    assert "two sets" in grid and "one set and one run" in grid and "three runs" in grid
    # Totals: Budi 0 + 10 = 10, Siti 25 + 0 = 25, Andi 20 + 15 = 35; the lowest first.
    rows = re.findall(r'<tr class="[^"]*" data-player="(\w+)">(.*?)</tr>', grid, re.S)
    assert [name for name, _ in rows] == ["Budi", "Siti", "Andi"]
    cells = {name: re.findall(r'<td class="num[^"]*">(.*?)</td>', row, re.S) for name, row in rows}
    numbers = {
        name: [re.sub(r"<[^>]+>", "", re.sub(r"<small.*?</small>", "", c)).strip() for c in found]
        for name, found in cells.items()
    }
    assert numbers["Andi"] == ["20", "15", "", "", "", "", "", "35"]
    assert numbers["Budi"][:3] == ["0", "10", ""]
    assert 'class="leader" data-player="Budi"' in grid
    assert "Next: Deal 3: two runs" in page


# -- statistics --------------------------------------------------------------------------------


def test_contract_statistics_count_going_out_contracts_made_and_buys(client):
    table = new_table(client)
    match = new_match(client, table, "contract", THREE)
    # Round 1 (deal 1, Budi deals): Budi out, Siti down, Andi not (as above).
    hands = {"Siti": "QH JK", "Andi": "AS 2C 3D"}
    data = final_table(THREE, hands, DEAL_ONE, [("Siti", "7C", 1)], ending="out", player="Budi")
    assert client.submit(match + "rounds/new", data).status_code == 302
    # Round 2 (deal 2: one set and one run; Siti deals, Andi leads), live: Andi discards 7H,
    # Budi refuses it and Siti buys it (12 cards now); Budi then goes down with 5H 5D 5S and
    # 2C-8C (10 cards, 10 + 1 drawn - 10 = 1 left) and discards KD: out.
    assert turn(client, match, player="Andi", discard="7H").status_code == 302
    response = turn(client, match, player="Budi", buyer="Siti", discard="3D")
    assert response.status_code == 302, errors(response)
    assert turn(client, match, player="Siti", discard="4C").status_code == 302
    assert turn(client, match, player="Andi", discard="9H").status_code == 302
    response = turn(
        client, match, player="Budi", melds="5H 5D 5S\n2C 3C 4C 5C 6C 7C 8C", discard="KD"
    )
    assert response.status_code == 302, errors(response)
    response = client.submit(
        match + "live/end",
        {
            "hand_1": "7H KH KS QH QS JH JS 9D 9S 10D 10S AD",
            "hand_2": "2D 4D 6D 8D 2S 4S 6S 8S AC KC",
        },
    )
    assert response.status_code == 302, errors(response)
    # Siti 7 + 6 x 10 + 9 + 9 + 10 + 10 + 15 = 120; Andi 2+4+6+8 + 2+4+6+8 + 15 + 10 = 65.
    assert totals(client.get(match)) == [0, 25 + 120, 20 + 65]
    stats = text(client.get(table + "stats"))
    group = stats.split('data-rules="contract"')[1].split("</section>")[0]

    def figure(name, key):
        row = group.split(f'<tr data-player="{name}">')[1].split("</tr>")[0]
        return row.split(f'data-figure="{key}">')[1].split("<")[0].strip()

    # Budi went out twice and made both contracts; Siti made deal 1's and bought once;
    # Andi never went down.
    assert [figure("Budi", k) for k in ("went_out", "contracts", "buys")] == ["2", "2 / 2", "0"]
    assert [figure("Siti", k) for k in ("went_out", "contracts", "buys")] == ["0", "1 / 2", "1"]
    assert [figure("Andi", k) for k in ("went_out", "contracts", "buys")] == ["0", "0 / 2", "0"]
    player_page = re.search(r'<a href="([^"]+)">Siti</a>', group).group(1)
    page = text(client.get(player_page))
    assert re.search(r'data-figure="buys">1<', page) and re.search(
        r'data-figure="contracts">1 / 2<', page
    )


def test_every_page_of_a_rummy500_and_a_contract_match_answers(client):
    table = new_table(client)
    rum = new_match(client, table, "rummy500", TWO)
    data = final_table(TWO, {"Siti": "AS 5D"}, RUM_MELDS, RUM_LAYOFFS, ending="out", player="Budi")
    assert client.submit(rum + "rounds/new", data).status_code == 302
    contract = new_match(client, table, "contract", THREE)
    hands = {"Siti": "QH JK", "Andi": "AS 2C 3D"}
    data = final_table(THREE, hands, DEAL_ONE, [("Siti", "7C", 1)], ending="out", player="Budi")
    assert client.submit(contract + "rounds/new", data).status_code == 302
    turn(client, contract, player="Andi", discard="7H")
    turn(client, contract, player="Budi", buyer="Siti", discard="3D")
    to_english(client)
    for match in (rum, contract):
        for page in (
            "",
            "board",
            "rules",
            "rounds/1",
            "rounds/1/edit",
            "rounds/1/json",
            "export",
            "live",
        ):
            assert client.get(match + page).status_code == 200, page
    shown = text(client.get(rum + "rounds/1"))
    assert "Siti laid off" in shown and "10S" in shown
    assert "Siti bought" in text(client.get(contract + "live"))
    correction = client.get(contract + "rounds/2/turns/2")
    assert correction.status_code == 200
    assert re.search(r'<input checked[^>]*name="buyer"[^>]*value="Siti"', correction.text)
    for page in ("", "stats", "matches"):
        assert client.get(table + page).status_code in (200, 302), page


def test_forged_rows_get_words_not_a_crash(app, client):
    match = new_match(client, new_table(client), "rummy500", TWO)
    to_english(client)
    data = final_table(TWO, {"Siti": "AS"}, [("Mallory", "7S 8S 9S")], ending="out", player="Budi")
    data.update(meld_rows="999999", layoff_rows="-3", action="more_rows")
    page = client.submit(match + "rounds/new", data)
    assert page.status_code == 200
    assert len(re.findall(r'name="table_cards_\d+"', page.text)) == 60  # at most 60 rows
    data.update(action="save", layoff_cards_0="10S", layoff_by_0="Siti", layoff_onto_0="x")
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 400 and "Onto which meld?" in errors(response)
    del data["layoff_cards_0"], data["layoff_by_0"], data["layoff_onto_0"]
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 400 and any("Mallory" in e for e in errors(response))
    assert stored_entries(app, match) == []
