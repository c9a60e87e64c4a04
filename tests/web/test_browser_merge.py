"""Two phones correct the same round in a real browser: the one that saves
second sees what the other changed beside what it typed, and one tap applies only its own
correction."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, create_table, english, expect_totals, follow, start_match

pytestmark = pytest.mark.browser


def one_round_to_correct(page: Page) -> tuple[str, str]:
    """A remi match of Budi, Réni and Siti with one round (Budi out, Réni KS, Siti 9C): the
    scoreboard's address and the address of round 1's correction form, now open."""
    english(page)
    create_table(page, "Budi, Réni, Siti")
    start_match(page, "remi", ["Budi", "Réni", "Siti"], target="200")
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator("input[name=player][value=Budi]").check()
    page.locator("input[name=hand_1]").fill("KS")
    page.locator("input[name=hand_2]").fill("9C")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["19", "0", "0"])  # Budi takes KS 10 + 9C 9
    scoreboard = page.url
    return scoreboard, follow(
        page, page.locator("table.sheet tbody tr").first.get_by_role("link", name="edit")
    )


def test_the_second_correction_is_merged_and_keeps_the_first(page: Page, second_phone: Page):
    scoreboard, edit = one_round_to_correct(page)

    other = second_phone
    english(other)
    other.goto(edit)
    other.locator("input[name=hand_2]").fill("3H 4H 5H")  # typed while phone 1 saves

    page.locator("input[name=hand_1]").fill("KS 2D")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["21", "0", "0"])  # KS 2D 12 + 9C 9

    other.get_by_role("button", name="Save round").click()
    expect(other.locator("#conflict")).to_be_visible()
    expect(other.locator(".merge-theirs")).to_contain_text("Hand of Réni: KS → KS 2D")
    expect(other.locator(".merge-mine")).to_contain_text("Hand of Siti: 9C → 3H 4H 5H")
    expect(other.locator("input[name=hand_1]")).to_have_value("KS 2D")
    expect(other.locator("input[name=hand_2]")).to_have_value("3H 4H 5H")
    other.screenshot(path=str(ARTIFACTS / "merged-correction.png"), full_page=True)
    with other.expect_navigation():  # saved before the phone goes elsewhere
        other.get_by_role("button", name="Save round").click()
    other.goto(scoreboard)
    expect_totals(other, ["24", "0", "0"])  # KS 2D 12 + 3H 4H 5H 12: neither correction lost
