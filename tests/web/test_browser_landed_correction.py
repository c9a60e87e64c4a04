"""Two phones in a real browser: a correction that landed is never offered again by the
phone's drafts, so no later save undoes the other phone's correction.  Phone B corrects
Réni's hand; phone A then corrects Siti's; phone B opens the round again and sees both, with
no "not sent yet" notice; saving it keeps both."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import english, expect_totals
from .test_browser_merge import one_round_to_correct

pytestmark = pytest.mark.browser


def test_a_landed_correction_is_not_offered_again_and_undoes_nothing(
    page: Page, second_phone: Page
):
    scoreboard, edit = one_round_to_correct(page)

    # Phone B corrects Réni's hand: KS 2D (12).
    page.locator("input[name=hand_1]").fill("KS 2D")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["21", "0", "0"])

    # Phone A corrects Siti's hand on a page opened after: 3H 4H 5H (12).
    other = second_phone
    english(other)
    other.goto(edit)
    expect(other.locator("input[name=hand_1]")).to_have_value("KS 2D")
    other.locator("input[name=hand_2]").fill("3H 4H 5H")
    with other.expect_navigation():
        other.get_by_role("button", name="Save round").click()
    other.goto(scoreboard)
    expect_totals(other, ["24", "0", "0"])

    # Phone B opens the round again: what the host has, no draft brought back.
    page.goto(edit)
    expect(page.locator("input[name=hand_1]")).to_have_value("KS 2D")
    expect(page.locator("input[name=hand_2]")).to_have_value("3H 4H 5H")
    page.wait_for_timeout(300)  # the drafts script has asked the host by now
    expect(page.locator(".draft-notice")).to_have_count(0)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#conflict")).to_have_count(0)
    expect_totals(page, ["24", "0", "0"])  # neither correction undone
