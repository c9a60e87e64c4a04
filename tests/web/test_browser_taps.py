"""Taps for the common round: a remi final table of four players with seven cards left in
the hands, from the score sheet to the round saved (docs/taps.md).

A tap is a click; a select counts two (open it, choose).  Scrolling is not counted.  The
one hand left empty when the others are filled in is the winner's: "Who?" answers itself.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import english

pytestmark = pytest.mark.browser

PLAYERS = ["Budi", "Siti", "Andi", "Dewi"]
# Siti went out; RULES.md (remi): she scores what the others hold, 2+3, 4+5, 6+7+8 = 35.
HANDS = {"Budi": ["2C", "3C"], "Andi": ["4D", "5D"], "Dewi": ["6H", "7H", "8H"]}
TOTALS = ["0", "35", "0", "0"]


class Taps:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.count += 1

    def choose(self, selector: str, value: str) -> None:
        self.page.locator(selector).select_option(value)
        self.count += 2


def remi_of_four(page: Page) -> str:
    english(page)
    keys = page.request.post("/api/v1/tables", data={"name": "Meja", "players": PLAYERS}).json()
    made = page.request.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        data={"rules": "remi", "players": PLAYERS, "first_dealer": "Budi"},
    ).json()
    return f"/t/{keys['edit_key']}/m/{made['id']}/"


def enter_round(page: Page, choose_the_winner: bool) -> int:
    taps = Taps(page)
    page.goto(remi_of_four(page))
    with page.expect_navigation():
        taps.tap("a:has-text('Quick round (final table)')")
    expect(page.locator("input[name=ending][value=out]")).to_be_checked()  # the usual ending
    if choose_the_winner:
        taps.tap("input[name=player][value=Siti]")  # one chip
    for name, cards in HANDS.items():
        taps.tap(f"[data-player='{name}'][data-cards]")
        for code in cards:
            taps.tap(f".picker .pick[data-code='{code}']")
    expect(page.locator("input[name=player][value=Siti]")).to_be_checked()
    with page.expect_navigation():
        taps.tap("button[name=action][value=save]")
    expect(page.locator(".total-points")).to_have_text(TOTALS)
    return taps.count


def test_the_winner_is_the_one_hand_left_empty(page: Page):
    assert enter_round(page, choose_the_winner=False) == 12


def test_a_winner_chosen_by_hand_is_kept(page: Page):
    assert enter_round(page, choose_the_winner=True) == 13


def test_who_is_a_group_of_chips_named_by_its_question_and_chosen_by_keyboard(page: Page):
    page.goto(remi_of_four(page))
    with page.expect_navigation():
        page.get_by_role("link", name="Quick round (final table)").click()
    who = page.get_by_role("group", name="Who?")
    expect(who.get_by_role("radio")).to_have_count(len(PLAYERS))
    who.get_by_role("radio", name="Budi").focus()
    page.keyboard.press("Space")
    expect(who.get_by_role("radio", name="Budi")).to_be_checked()
    page.keyboard.press("ArrowRight")  # within the group, as any radio group
    expect(who.get_by_role("radio", name="Siti")).to_be_checked()
    expect(who.get_by_role("radio", name="Budi")).not_to_be_checked()
