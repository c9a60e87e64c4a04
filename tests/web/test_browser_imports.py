"""Two phones import the same match file into their table in a real browser:
the first makes the match, the second is told it is already there, with a link to
it, and makes a second one only when it asks for a copy."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .history_fixture import MATCHES
from .test_browser import create_table, english

pytestmark = pytest.mark.browser


def test_the_same_match_imported_from_two_phones_is_one_match_unless_a_copy_is_asked(
    page: Page, second_phone: Page
):
    english(page)
    table = create_table(page, "Budi, Siti, Andi")
    document = json.dumps(MATCHES[0])
    other = second_phone
    english(other)
    for phone in (page, other):  # both open the import page before either imports
        phone.goto(table)
        phone.get_by_role("link", name="Import a match").click()
        phone.get_by_label("…or paste the document").fill(document)

    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Match imported.")).to_be_visible()
    imported = page.url.split("?")[0]

    other.get_by_role("button", name="Import").click()
    expect(other.get_by_text("This match is already at this table")).to_be_visible()
    link = other.get_by_role("link", name="Open the match already at this table")
    assert link.get_attribute("href") == imported.removeprefix(page.url.split("/t/")[0])
    other.get_by_label("…or paste the document").fill(document)
    other.get_by_label("Import it again as a copy").check()
    other.get_by_role("button", name="Import").click()
    expect(other.get_by_text("Match imported.")).to_be_visible()
    assert other.url.split("?")[0] != imported  # a second match, asked for

    other.goto(table)
    expect(other.locator("a[href*='/m/']").filter(has_text="Remi")).to_have_count(2)
