"""Two phones, one table, in a real browser: one replaces the edit link, the other is sent
to the page of a link that opens nothing on its next "has the match changed?" check.

Two browser contexts are two phones (separate cookies and "My tables").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .test_browser import create_table, english, start_match

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
# The check runs about once a second; a page load and a margin for a loaded machine.
NEXT_CHECK_MS = 5_000


def test_the_edit_link_replaced_on_one_phone_sends_the_other_to_the_replaced_page(
    page: Page, second_phone: Page
):
    english(page)
    table = create_table(page, "Budi, Siti")
    start_match(page, "remi", ["Budi", "Siti"], target="200")
    scoreboard = page.url

    other = second_phone
    english(other)
    other.goto(scoreboard)  # the leaked link, following the match
    expect(other.locator("h1, .crumbs").first).to_contain_text("Friday")

    page.goto(table)
    page.get_by_role("link", name="Replace the edit link…").click()
    expect(page.locator("h1")).to_have_text("Replace the edit link?")
    expect(page.locator("main")).to_contain_text("stops working at once, on every phone")
    page.get_by_role("button", name="Replace the edit link").click()

    # This phone: the new link to copy, its QR code in sight.
    expect(page.locator(".flash")).to_contain_text("The edit link was replaced")
    new_link = page.get_by_label("Edit link", exact=True)
    expect(new_link).not_to_have_value(table)
    value = new_link.input_value()
    assert "/t/" in value and value == page.url.split("?")[0]  # this page is the new link
    expect(page.locator("details.qr-edit svg.qr-code")).to_be_visible()
    expect(page.locator("details.qr-edit")).to_have_attribute("open", "")
    expect(new_link.locator("xpath=following-sibling::button[1]")).to_be_visible()  # Copy
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keys-new-edit-link.png"), full_page=True)

    # The other phone: sent to the page of a link that opens nothing, by its own polling.
    expect(other.locator("h1")).to_have_text(
        "This link does not exist or was replaced", timeout=NEXT_CHECK_MS
    )
    expect(other.locator("main")).to_contain_text("Ask the table's owner for the new one.")
    expect(other.locator("main")).not_to_contain_text("Friday")
    assert other.url == scoreboard
    other.screenshot(path=str(ARTIFACTS / "keys-old-link.png"), full_page=True)
    other.goto("/")
    expect(other.locator("#lost-tables")).to_contain_text("A table was taken off this list")
    expect(other.locator("main")).not_to_contain_text("Friday")
