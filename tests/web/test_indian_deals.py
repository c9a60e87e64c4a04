"""Indian rummy at the table: a deal entered on one screen, the pool's scoreboard, rejoin.

Points derived by hand from RULES.md (indian; pool 101, two decks for three players,
drops 20/40, full count 80, jokers count 0):

Deal 1, cut 7D (sevens wild): Siti shows (valid, 0).  Andi drops in the middle: 40.
Budi loses holding KS QS JD 10C 9S KH QH JC 10S 9H KD 8C 6H: no sequence at all
(spades 9 10 Q K, hearts 6 9 Q K, diamonds J K, clubs 8 10 J: no three in a row), so all
13 cards count: nine tens (KS QS JD 10C KH QH JC 10S KD) = 90, plus 9 + 9 + 8 + 6 = 32,
122, capped at the full count: 80.  Totals: Budi 80, Siti 0, Andi 40.

Deal 2, cut 3C: Budi shows 5S 6S 7C 8S | 9H 10H JH | 2D 2C 2H | KD QD JD.  The 7C is no
joker (threes are wild), so 5S 6S 7C 8S is no group, and no arrangement puts those four
in one: a wrong show, 80.  Play goes on; Andi shows validly (0) and Siti counts 15
(typed as a number).  Totals: Budi 160 (out: 101 or more), Siti 15, Andi 40.

Before deal 3: no total still in is above 79 (Siti 15, Andi 40), so Budi may rejoin with
the highest total still in plus 1: 41.
"""

from __future__ import annotations

import json

import pytest

from .helpers import errors, new_match, new_table, text, to_english

THREE = ["Budi", "Siti", "Andi"]
BUDI_LOSES = "KS QS JD 10C 9S KH QH JC 10S 9H KD 8C 6H"
WRONG_SHOW = "5S 6S 7C 8S\n9H 10H JH\n2D 2C 2H\nKD QD JD"


@pytest.fixture
def english(client):
    to_english(client)
    return client


def export(client, match_url):
    return json.loads(client.get(match_url + "export").data)


def indian_match(client, match_format: str = "pool101", **options) -> str:
    """A match of Budi, Siti and Andi (Budi deals first), set up as a phone sends the form."""
    fields = {"format": match_format, "decks": "", "wild": "y", "rejoin": "y", "deals": 2}
    return new_match(
        client, new_table(client), "indian", THREE, dealer="Budi", **(fields | options)
    )


def deal(client, match, **fields):
    data = {"ending": "show", "action": "save"} | {k: str(v) for k, v in fields.items()}
    return client.submit(match + "rounds/new", data)


def test_a_deal_with_a_drop_and_a_capped_count(english):
    match = indian_match(english)
    form = english.get(match + "rounds/new")
    assert form.status_code == 200
    assert 'name="cut"' in form.text and 'name="fate_2"' in form.text
    saved = deal(english, match, cut="7D", player="Siti", hand_0=BUDI_LOSES, fate_2="middle")
    assert saved.status_code == 302, errors(saved)
    entry = export(english, match)["rounds"][0]
    assert entry == {
        "cut": "7D",
        "show": "Siti",
        "hands": {"Budi": BUDI_LOSES.split()},
        "drops": {"Andi": "middle"},
    }
    assert export(english, match)["rounds"][0]
