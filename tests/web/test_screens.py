"""Screens read by someone who plays, in both languages: player counts, tap and knock, gin's
forms, who leads, and what a saved or voided gin round shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from .helpers import new_match, new_table, save_round, text

TWO = ["Budi", "Siti"]
PO = Path(__file__).parents[2] / "referee/web/translations/id/LC_MESSAGES/messages.po"
GIN_KNOCKER = "7C 8C 9C 2S 2H 2D 5H 6H 7H AS"
GIN_DEFENDER = "6C 10C 4D 10S JS QS KS 9H 9D 9S"


def language(client, lang):
    client.submit("/language", {"lang": lang, "next": "/"}, fresh=False)


def main_text(response):
    """The words of the page's main part, tags left out."""
    body = text(response).split("<main", 1)[1].split("</main>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


@pytest.mark.parametrize(
    ("lang", "exact", "span"),
    [("id", "tepat 2 pemain", "2 sampai 2"), ("en", "exactly 2 players", "2 to 2")],
)
def test_gin_says_exactly_two_players(client, lang, exact, span):
    language(client, lang)
    table = new_table(client)
    chooser = main_text(client.get(table + "new"))
    gin = chooser.split("Gin Rummy", 1)[1]
    assert exact in gin.lower() and span not in chooser
    setup = main_text(client.get(table + "new/gin"))
    assert exact in setup.lower() and span not in setup


def test_tap_and_knock_are_different_words_in_indonesian():
    with PO.open("rb") as source:
        catalog = read_po(source)
    tapping, knocking = [], []
    for message in catalog:
        english = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        indonesian = (
            " ".join(message.string) if isinstance(message.string, tuple) else message.string
        )
        if not english or not indonesian:
            continue
        if re.search(r"\btap", english, re.I):
            tapping.append(indonesian)
            assert "ketuk" not in indonesian.lower(), (english, indonesian)
        if "ketuk" in indonesian.lower():
            knocking.append(english)
            assert "knock" in english.lower(), (english, indonesian)
    assert tapping and all("sentuh" in words.lower() for words in tapping), tapping
    assert knocking  # gin's knock is still "ketuk"


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ("emptied", "empty hand", "hand is empty")), ("id", ("habis", "tangan kosong"))],
)
def test_gin_forms_do_not_mention_emptied_hands(client, lang, words):
    language(client, lang)
    match = new_match(client, new_table(client), "gin", TWO, target=100)
    form = main_text(client.get(match + "rounds/new")).lower()
    assert not [word for word in words if word in form], form
    # the hands are asked for whole
    assert ("all 10 cards" if lang == "en" else "semua 10 kartu") in form


@pytest.mark.parametrize(
    ("lang", "leads", "tag"),
    [("en", "In the lead: Budi", "leads"), ("id", "Memimpin: Budi", "memimpin")],
)
def test_the_scoreboard_says_who_leads(client, lang, leads, tag):
    language(client, lang)
    match = new_match(client, new_table(client), "remi", TWO, target=100)
    board = main_text(client.get(match))
    assert leads not in board  # no round yet: nobody leads
    # remi: Budi goes out, Siti holds KH 2C = 10 + 2 = 12, which Budi wins
    save_round(client, match, TWO, {"Siti": "KH 2C"}, ending="out", player="Budi")
    board = main_text(client.get(match))
    assert leads in board
    assert re.search(r"Budi 12 (\d+% )?" + tag, board)


def knock_round(client, lang):
    language(client, lang)
    match = new_match(client, new_table(client), "gin", TWO, target=100)
    data = {"hand_0": GIN_KNOCKER, "hand_1": GIN_DEFENDER, "ending": "knock", "player": "Budi"}
    assert client.submit(match + "rounds/new", {**data, "action": "save"}).status_code == 302
    return match


def adjudication_words(page):
    return page.split("Adjudication" if "Adjudication" in page else "Keputusan", 1)[1]


def test_a_saved_gin_round_shows_its_whole_adjudication(client):
    match = knock_round(client, "en")
    shown = adjudication_words(main_text(client.get(match + "rounds/1")))
    # Budi's melds 2-2-2, 5-6-7 hearts, 7-8-9 clubs; deadwood AS = 1
    assert "Budi — knocker Melds: 2♠ 2♥ 2♦ | 5♥ 6♥ 7♥ | 7♣ 8♣ 9♣ Deadwood: A♠ = 1" in shown
    # Siti's melds 9-9-9 and 10-J-Q-K spades; 6C and 10C laid off on 7-8-9 clubs; 4D = 4 left
    assert "Siti — defender Melds: 9♠ 9♥ 9♦ | 10♠ J♠ Q♠ K♠ Deadwood: 4♦ = 4" in shown
    assert "Lay-offs by Siti: 6♣ → 7♣ 8♣ 9♣ ; 10♣ → 7♣ 8♣ 9♣" in shown
    assert "Deadwood: Budi 1, Siti 4 (before lay-offs 20)" in shown  # 6 + 10 + 4 = 20
    assert "Budi scores 4 - 1 = 3" in shown


def test_a_voided_gin_round_shows_what_was_recorded_and_its_adjudication(client):
    match = knock_round(client, "en")
    assert client.submit(match + "rounds/1/void").status_code == 302
    page = main_text(client.get(match + "rounds/1"))
    recorded = page.split("Recorded before the void", 1)[1].split("As entered", 1)[0]
    assert "Budi knocked." in recorded
    assert "Budi: 7♣ 8♣ 9♣ 2♠ 2♥ 2♦ 5♥ 6♥ 7♥ A♠" in recorded
    assert "Deadwood: Budi 1, Siti 4 (before lay-offs 20)" in recorded
    assert "Budi scores 4 - 1 = 3" in recorded
    score = page.split("Recorded before the void", 1)[0]
    assert "Budi 0 Siti 0" in score  # the void counts 0
