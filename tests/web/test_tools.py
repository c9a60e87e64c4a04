"""The meld checker and the gin hand analyser (no match needed); the rules pages."""

from __future__ import annotations

import re

import pytest

from referee.rulesets import RULESETS
from referee.web.views.main import rules_pages

from .helpers import errors, text


def check(client, **fields):
    return client.submit("/check", {key: str(value) for key, value in fields.items()})


def test_checker_page(client):
    page = client.get("/check")
    assert page.status_code == 200 and 'name="cards"' in page.text and "data-picker" in page.text


@pytest.mark.parametrize(
    ("rules", "cards", "legal"),
    [
        ("remi", "7S 8S 9S", True),
        ("remi", "QS KS AS", False),
        ("rummy", "AS 2S 3S", True),
        ("remi-indonesia", "10H JH QH", False),
        ("manipulation", "7S JK=8S 9S", True),
        ("gin", "4H 4D 4C 4S", True),
    ],
)
def test_checker_verdict_per_ruleset(client, rules, cards, legal):
    response = check(client, rules=rules, cards=cards)
    assert response.status_code == 200
    verdict = text(response).split('id="verdict"')[1][:600]
    assert ("✔" in verdict) is legal
    if not legal:
        assert 'class="reason"' in verdict


def test_checker_reason_is_in_the_ui_language(client):
    response = check(client, rules="remi", cards="7S 9S 10S")
    assert "8S tidak ada di antara 7S dan 9S" in text(response)
    client.submit("/language", {"lang": "en", "next": "/check"})
    response = check(client, rules="remi", cards="7S 9S 10S")
    assert "8S is missing between 7S and 9S" in text(response)


def test_checker_layoff(client):
    response = check(client, rules="remi", cards="10S", meld="7S 8S 9S")
    assert "✔" in text(response)
    response = check(client, rules="remi", cards="QS", meld="7S 8S 9S")
    assert "✘" in text(response)


def verdict_of(response):
    return "✔" in text(response).split('id="verdict"')[1][:600]


@pytest.mark.parametrize(
    ("rules", "ace", "cards", "legal"),
    [
        ("rummy", None, "QS KS AS", False),  # the ace is low unless the match says otherwise
        ("rummy", "low", "QS KS AS", False),
        ("rummy", "high-low", "QS KS AS", True),
        ("rummy", "high-low", "KS AS 2S", False),  # never round the corner
        ("rummy", "high-low", "AS 2S 3S", True),
        ("remi", "high-low", "QS KS AS", False),  # remi has no ace option: it is ignored
    ],
)
def test_checker_ace_option(client, rules, ace, cards, legal):
    fields = {"rules": rules, "cards": cards} | ({"ace": ace} if ace else {})
    response = check(client, **fields)
    assert response.status_code == 200
    assert verdict_of(response) is legal


def test_checker_ace_option_for_a_layoff(client):
    assert verdict_of(check(client, rules="rummy", ace="high-low", cards="AS", meld="JS QS KS"))
    assert not verdict_of(check(client, rules="rummy", ace="low", cards="AS", meld="JS QS KS"))


def test_checker_ace_option_is_shown_for_the_rulesets_that_have_it(client):
    page = client.get("/check").text
    assert re.search(r'data-only-for-rules="rummy"[^>]*>.*?name="ace"', page, re.S)
    response = check(client, rules="rummy", ace="high-low", cards="QS KS AS")
    assert re.search(r'<option selected value="high-low">', response.text)


def test_checker_refuses_an_unknown_ace_option(client):
    response = check(client, rules="rummy", ace="middle", cards="QS KS AS")
    assert response.status_code == 400 and errors(response)


def test_checker_bad_card_is_named_and_kept(client):
    response = check(client, rules="remi", cards="7S 8S 9Q")
    assert response.status_code == 400
    assert any("9Q" in message for message in errors(response))
    assert 'value="7S 8S 9Q"' in response.text


def test_checker_needs_cards(client):
    assert check(client, rules="remi", cards="").status_code == 400


def test_checker_unknown_ruleset_is_refused(client):
    assert check(client, rules="poker", cards="7S 8S 9S").status_code == 400


def test_gin_analyser_best_melds_and_deadwood(client):
    response = client.submit("/gin", {"cards": "7S 8S 9S 7H 7D KC 2C 3H 4D 5C"})
    assert response.status_code == 200
    page = text(response)
    assert "38" in page and "7S" in page.split('id="verdict"')[1]


def test_gin_analyser_gin_and_best_discard(client):
    response = client.submit("/gin", {"cards": "7S 8S 9S 7H 7D 7C 2C 2H 2D 5C KD"})
    page = text(response).split('id="verdict"')[1]
    assert "KD" in page and ">5<" in page


@pytest.mark.parametrize("cards", ["7S 8S 9S", "7S 7S 8S 9S 10S JS QS KS AS 2S", "ZZ"])
def test_gin_analyser_refuses_a_bad_hand(client, cards):
    response = client.submit("/gin", {"cards": cards})
    assert response.status_code == 400 and errors(response)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_ruleset_has_its_rules_page_in_both_languages(app, client, rules):
    for template in rules_pages(rules).values():
        app.jinja_env.get_template(template)  # TemplateNotFound: a page is missing
    indonesian = text(client.get(f"/rules/{rules}"))
    assert "<h2>" in indonesian and 'lang="id"' in indonesian
    client.submit("/language", {"lang": "en", "next": "/"})
    english = client.get(f"/rules/{rules}")
    assert english.status_code == 200 and 'lang="en"' in english.text
    assert english.text != indonesian


def test_rules_index_and_unknown_rules(client):
    assert client.get("/rules/").status_code == 200
    assert client.get("/rules/poker").status_code == 404


# --- Indian rummy: "Check my show" -------------------------------------------------------


def show(client, groups, cut="7D", decks="2"):
    return client.submit("/indian", {"groups": groups, "cut": cut, "decks": decks})


def test_indian_show_page_is_linked_from_home(client):
    assert "/indian" in client.get("/").text
    page = client.get("/indian")
    assert page.status_code == 200 and 'name="groups"' in page.text and "data-picker" in page.text


def test_indian_show_valid_as_grouped(client):
    # 5S 6S 7S 8S pure (the 7S in its own place, 7 wild), 9H 10H JH pure, a set, JD QD KD
    response = show(client, "5S 6S 7S 8S\n9H 10H JH\n2D 2C 2H\nKD QD JD")
    verdict = text(response).split('id="verdict"')[1][:800]
    assert response.status_code == 200 and "✔" in verdict


def test_indian_show_refused_with_the_reason_and_counted(client):
    # no pure sequence anywhere (7C and 7H are wild); as a loser's hand: no two sequences with
    # one pure, so all 13 count: 5+6+0+8 + 9+10+0 + 3x10 + 2+2+2 = 74
    response = show(client, "5S 6S 7C 8S\n9H 10H 7H\nQH QC QS\n2D 2C 2H")
    page = text(response)
    assert "✘" in page.split('id="verdict"')[1][:800]
    assert "5S 6S 7C 8S memakai 7C sebagai joker" in page  # the page speaks Indonesian
    assert ">74<" in page.split('id="count"')[1][:400]


def test_indian_show_bad_input_is_said(client):
    response = show(client, "5S 6S 7S")
    assert response.status_code == 400 and errors(response)
    assert "13" in " ".join(errors(response))


# --- Indian rummy: the count helper ---------------------------------------------------------


def test_the_count_helper_finds_a_losers_least_count(client):
    """Cut 3C (threes wild; the hand has none): 4S 5S 6S 7S pure, 9H 10H JK QH impure (the
    joker as JH), so only AD 2D KD 2C 8C count: 10 (an ace counts 10) + 2 + 10 + 2 + 8 = 32.
    Using the JK in a set of twos instead leaves one sequence (all 13 count); AD 2D JK
    instead leaves 9H 10H QH 2C KD 8C: 9 + 10 + 10 + 2 + 10 + 8 = 49."""
    home = client.get("/").text
    assert "/indian/count" in home
    page = client.get("/indian/count")
    assert page.status_code == 200 and 'name="cards"' in page.text
    hand = "5S 6S 7S 9H 10H JK 2D 2C KD QH 8C 4S AD"
    response = client.submit("/indian/count", {"cards": hand, "cut": "3C", "decks": "2"})
    assert response.status_code == 200
    found = text(response).split('id="count"')[1][:1500]
    assert ">32<" in found


def test_the_count_helper_says_what_is_wrong(client):
    response = client.submit("/indian/count", {"cards": "5S 6S 7S", "cut": "3C", "decks": "2"})
    assert response.status_code == 400
    assert "13" in " ".join(errors(response))
