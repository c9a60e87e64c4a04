"""The table page's QR codes in a real browser at 360 x 740, light and dark, read back by a decoder.

Screenshots go to ``artifacts/`` (gitignored).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from .qr_reading import read_codes

pytestmark = pytest.mark.browser

expect.set_options(timeout=15_000)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def new_table(page: Page) -> None:
    page.goto("/")
    with page.expect_navigation():  # the language is saved, then the page loads again
        page.get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_label("Name of the table").fill("Friday")
    page.get_by_role("button", name="Create table").click()
    expect(page.get_by_role("heading", name="Links to this table")).to_be_visible()


def scanned(page: Page, selector: str) -> list[str]:
    """What a camera reads from the QR code on screen, as the browser drew it."""
    shot = page.locator(selector).screenshot()
    return read_codes(Image.open(io.BytesIO(shot)).convert("L"))


def test_table_page_shows_the_view_code_and_the_edit_code_behind_a_tap(page: Page):
    new_table(page)
    view_link = page.get_by_label("View link").input_value()
    edit_link = page.get_by_label("Edit link").input_value()
    assert view_link.startswith(page.url.split("/t/")[0] + "/v/")
    assert edit_link == page.url

    view_code = page.locator("figure.qr:not(details figure) svg")
    expect(view_code).to_be_visible()
    box = view_code.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert scanned(page, "figure.qr:not(details figure) svg") == [view_link]

    page.locator("section.links").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "table-links.png"))

    edit_code = page.locator("details.qr-edit svg")
    expect(edit_code).to_be_hidden()
    page.locator("summary", has_text="QR code of the edit link").click()
    expect(edit_code).to_be_visible()
    assert scanned(page, "details.qr-edit svg") == [edit_link]


def test_the_codes_read_in_dark_mode_too(browser: Browser, base_url: str):
    context = browser.new_context(
        base_url=base_url, viewport={"width": 360, "height": 740}, color_scheme="dark"
    )
    page = context.new_page()
    try:
        new_table(page)
        view_link = page.get_by_label("View link").input_value()
        assert scanned(page, "figure.qr:not(details figure) svg") == [view_link]
        page.locator("section.links").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "table-links-dark.png"))
    finally:
        context.close()
