"""Plain words on every page: no raw option value or match-file key, one word per thing in
Indonesian (a round is "babak", a deal "putaran"), nothing said twice."""

from __future__ import annotations

import re

import pytest

from .helpers import new_match, new_table, text, to_english, view_url
from .test_rummies import turn

RAW = re.compile(r"\b(null|false|none|pool101|pool201):|>(pool101|pool201|deals|points)<")


@pytest.mark.parametrize("rules", ["indian", "remi", "rummy", "gin", "contract", "rummy500"])
def test_the_setup_shows_no_raw_option_value(client, rules):
    table = new_table(client)
    for english in (False, True):
        if english:
            to_english(client)
        page = text(client.get(table + f"new/{rules}"))
        assert not RAW.search(page), RAW.search(page)


def test_indian_formats_in_words_and_deals_asked_only_for_a_match_of_deals(client):
    table = new_table(client)
    to_english(client)
    page = text(client.get(table + "new/indian"))
    for words in ("pool 101", "pool 201", "a set number of deals", "deals until the players stop"):
        assert f">{words}</option>" in page
    # The number of deals says which format it belongs to (app.js hides it for the others).
    assert 'data-requires="{"format": "deals"}" id="deals"' in page


def test_a_match_without_a_goal_has_no_stray_dot_before_rules(client):
    match = new_match(client, new_table(client), "indian", ["Budi", "Siti", "Andi"])
    to_english(client)
    page = text(client.get(match))
    head = page.split('<header class="match-head">')[1].split("</header>")[0]
    assert not re.search(r'<p class="muted">\s*·', head), head


def test_a_deal_is_putaran_and_a_round_babak(client):
    match = new_match(client, new_table(client), "contract", ["Budi", "Siti", "Andi"])
    page = text(client.get(match))  # Indonesian
    assert "Putaran 1: dua seri" in page and "Babak 1: dua seri" not in page
    assert "7 putaran ·" in page and "7 babak" not in page


def test_a_live_round_has_one_way_to_it_on_each_phone(client):
    table = new_table(client)
    match = new_match(client, table, "remi", ["Budi", "Siti", "Andi"], target=200)
    to_english(client)
    assert turn(client, match, player="Siti", discard="7H").status_code == 302
    editing = text(client.get(match))
    assert "Continue the live round" in editing and "Open the live round" not in editing
    watching = text(client.get(view_url(client, table) + "m/" + match.split("/m/")[1]))
    assert "Open the live round" in watching and "Continue the live round" not in watching
