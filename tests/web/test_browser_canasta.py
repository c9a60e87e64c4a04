"""A Canasta evening in a real browser, three players each a side, on four phones (browser
contexts): a concealed going out, red 3s against a side that melded nothing, and a side's
first-meld minimum rising past 1,500, shown on every phone.

Figures by hand from RULES.md (canasta): joker 50, 2 and A 20, K-8 10, 7-4 5; natural
canasta +500; red 3 +100, minus for a side with no meld; going out +100, concealed +200
instead; hands subtracted; minimums 15 below 0, 50 from 0, 90 from 1500.
Hand 1 (Budi deals): Siti goes out concealed: 8s and 6s natural (70 + 35) and 4 4 2 (30):
135 + 1000 + 200 = 1335.  Budi melded nothing and put down two red 3s: -200, hand AS KS
(30): -230.  Andi: Q Q Q 30, hand 9H 10: 20.  Minimums: Budi 15, Siti 50, Andi 50.
Hand 2 (Siti deals): Siti goes out: Ks natural 70 + J J J 30, 500, out 100: 700.  Budi holds
5C (-5), Andi 7C (-5).  Totals Budi -235, Siti 2035, Andi 15: Siti's minimum is 90.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import create_table, english, expect_totals, start_match

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}}
PLAYERS = ["Budi", "Siti", "Andi"]


CONCEALED_EIGHTS_SIXES_FOURS = "8S 8S 8H 8H 8D 8D 8C\n6S 6S 6H 6H 6D 6D 6C\n4S 4H 2S"
KINGS_AND_JACKS = "KS KS KH KH KD KD KC\nJS JH JD"


def enter_hand(
    page: Page,
    number: int,
    out: str,
    *,
    concealed: bool = False,
    melds: dict[int, str],
    red_threes: dict[int, int] | None = None,
    hands: dict[int, str],
) -> None:
    """Fill the hand form from the scoreboard (seats by number) and save it."""
    page.get_by_role("link", name=f"Enter hand {number}").click()
    page.locator(f"input[name=player][value={out}]").check()
    if concealed:
        page.locator("input[name=concealed]").check()
    for seat, cards in melds.items():
        page.locator(f"textarea[name=melds_{seat}]").fill(cards)
    for seat, count in (red_threes or {}).items():
        page.locator(f"input[name=red_{seat}]").fill(str(count))
    for seat, cards in hands.items():
        page.locator(f"input[name=hand_{seat}]").fill(cards)
    page.get_by_role("button", name="Save hand").click()


@contextmanager
def other_phones(browser: Browser, base_url: str, scoreboard: str) -> Iterator[list[Page]]:
    """Three more phones at the table (browser contexts of their own), in English, each
    showing the scoreboard."""
    contexts = [browser.new_context(base_url=base_url, **PHONE) for _ in range(3)]
    try:
        phones = []
        for context in contexts:
            phone = context.new_page()
            english(phone)
            phone.goto(scoreboard)
            phones.append(phone)
        yield phones
    finally:
        for context in contexts:
            context.close()


def expect_on_every_phone(phones: list[Page], totals: list[str], minimums: str) -> None:
    for phone in phones:
        phone.reload()
        expect_totals(phone, totals)
        expect(phone.locator(".next-from-totals")).to_have_text(
            f"First meld of the next hand, at least: {minimums}"
        )


def test_a_canasta_evening_on_four_phones(page: Page, browser: Browser, base_url: str):
    english(page)
    create_table(page, ", ".join(PLAYERS))
    start_match(page, "canasta", PLAYERS)
    scoreboard = page.url
    minimums = page.locator(".next-from-totals")
    expect(minimums).to_have_text(
        "First meld of the next hand, at least: Budi 50, Siti 50, Andi 50"
    )

    enter_hand(
        page,
        1,
        "Siti",
        concealed=True,
        melds={1: CONCEALED_EIGHTS_SIXES_FOURS, 2: "QS QH QD"},
        red_threes={0: 2},
        hands={0: "AS KS", 2: "9H"},
    )
    expect_totals(page, ["-230", "1335", "20"])
    expect(minimums).to_have_text(
        "First meld of the next hand, at least: Budi 15, Siti 50, Andi 50"
    )

    with other_phones(browser, base_url, scoreboard) as others:
        second = others[0]
        enter_hand(second, 2, "Siti", melds={1: KINGS_AND_JACKS}, hands={0: "5C", 2: "7C"})
        expect_totals(second, ["-235", "2035", "15"])
        expect_on_every_phone([page, *others], ["-235", "2035", "15"], "Budi 15, Siti 90, Andi 50")


TEAM_PLAYERS = ["Budi", "Siti", "Andi", "Dewi"]
TEAM_MATCH = {
    "format": "referee-match/1",
    "rules": "canasta",
    "options": {},
    "players": TEAM_PLAYERS,
    "teams": {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]},
    "first_dealer": "Budi",
    "rounds": [],
}


def test_a_team_evening_on_four_phones(page: Page, browser: Browser, base_url: str):
    """Four players in two teams (Kita: Budi and Andi; Mereka: Siti and Dewi), the match
    brought in as a match file with its teams, each partner on a phone of their own.

    Hand 1 (Budi deals), on Budi's phone: Siti goes out concealed for Mereka: 8s and 6s
    natural (70 + 35) and 4 4 2 (30): 135 + 1000 + 200, Dewi holds QC (10): 1325.  Kita
    melded nothing and put down two red 3s: -200, hands AS KS (30) and 9H (10): -240.
    Minimums: Kita 15 (below 0), Mereka 50.
    Hand 2 (Siti deals), on Siti's phone: Dewi goes out: Ks natural 70 + J J J 30, 500, out
    100, Siti holds 5D (5): 695.  Kita: Q Q Q 30, hands 5C and 7C (10): 20.  Totals Kita
    -220, Mereka 2020: Mereka's minimum has risen past 1,500 to 90, on every phone."""
    english(page)
    create_table(page, ", ".join(TEAM_PLAYERS))
    page.get_by_role("link", name="Import a match").click()
    page.get_by_label("…or paste the document").fill(json.dumps(TEAM_MATCH))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Match imported.")).to_be_visible()
    scoreboard = page.url.split("?")[0]
    minimums = page.locator(".next-from-totals")
    expect(minimums).to_have_text("First meld of the next hand, at least: Kita 50, Mereka 50")

    enter_hand(
        page,
        1,
        "Siti",
        concealed=True,
        melds={1: CONCEALED_EIGHTS_SIXES_FOURS},
        red_threes={0: 2},
        hands={0: "AS KS", 2: "9H", 3: "QC"},
    )
    expect_totals(page, ["-240", "1325"])
    expect(minimums).to_have_text("First meld of the next hand, at least: Kita 15, Mereka 50")

    with other_phones(browser, base_url, scoreboard) as others:
        siti = others[0]
        enter_hand(
            siti,
            2,
            "Dewi",
            melds={0: "QS QH QD", 1: KINGS_AND_JACKS},
            hands={0: "5C", 1: "5D", 2: "7C"},
        )
        expect_totals(siti, ["-220", "2020"])
        expect_on_every_phone([page, *others], ["-220", "2020"], "Kita 15, Mereka 90")
