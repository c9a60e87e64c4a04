"""Corrections that cannot hurt, in a real browser: the delete asks first, with and without
JavaScript, and the round's page shows its audit trail."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, create_table, english, expect_totals, start_match

pytestmark = pytest.mark.browser


def quick_round(page: Page, winner: str, hand_field: str, hand: str) -> None:
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator(f"input[name=player][value='{winner}']").check()
    page.locator(f"input[name={hand_field}]").fill(hand)
    page.get_by_role("button", name="Save round").click()


def two_rounds(page: Page) -> None:
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "remi", ["Budi", "Siti"])
    quick_round(page, "Budi", "hand_1", "KH")  # Budi takes Siti's king: 10
    quick_round(page, "Siti", "hand_0", "2C")  # Siti takes Budi's two: 2
    expect_totals(page, ["10", "2"])


def test_delete_confirm_page_restore_and_audit_trail_without_javascript(browser, live_server):
    context = browser.new_context(
        base_url=live_server, java_script_enabled=False, viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    two_rounds(page)
    page.locator("table.sheet tbody tr").nth(2).get_by_role("link", name="edit").click()
    page.locator("input[name=hand_0]").fill("3C")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["10", "3"])

    page.locator("details.more summary").click()  # out of the way of the main actions
    page.get_by_role("button", name="Delete last round").click()
    expect(page.locator("h1")).to_have_text("Delete round 2?")
    expect_totals_unchanged = page.url
    assert "/rounds/undo?" in expect_totals_unchanged
    page.get_by_role("button", name="Delete round 2").click()
    expect_totals(page, ["10", "0"])
    deleted_row = page.locator("tbody.round.deleted")
    expect(deleted_row).to_contain_text("deleted")
    deleted_row.get_by_role("button", name="restore").click()
    expect_totals(page, ["10", "3"])

    page.locator("table.sheet tbody tr").nth(2).get_by_role("link", name="view").click()
    trail = page.locator(".audit-trail")
    expect(trail.locator("ol.changes > li")).to_have_count(3)
    expect(trail).to_contain_text("Corrected")
    expect(trail).to_contain_text("Hand of Budi: 2C → 3C")
    expect(trail).to_contain_text("Deleted")
    expect(trail).to_contain_text("Restored (delete undone)")
    expect(trail).to_contain_text("from the edit link")
    trail.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "audit-trail.png"))
    context.close()


def test_with_javascript_the_confirm_dialog_deletes_at_once(page: Page):
    two_rounds(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("details.more summary").click()  # out of the way of the main actions
    page.get_by_role("button", name="Delete last round").click()
    expect_totals(page, ["10", "0"])
    assert "/rounds/undo" not in page.url
