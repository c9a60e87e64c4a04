"""The results picture to the phone's share sheet where the browser can share files, and a
download where it cannot."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import english
from .test_browser_a11y import table_and_match
from .test_browser_awake import SITI_OUT

pytestmark = pytest.mark.browser

SHARE_STUB = """
window.__shared = [];
navigator.canShare = (data) => !!(data && data.files && data.files.every((f) => f.type === "image/png"));
navigator.share = (data) => {
  window.__shared.push(data.files.map((f) => [f.name, f.type, f.size]));
  return Promise.resolve();
};
"""
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def results_page(page: Page) -> str:
    english(page)
    _table, match = table_and_match(page, "remi")
    api = match.replace("/t/", "/api/v1/t/")
    etag = page.request.get(api).headers["etag"]
    saved = page.request.post(f"{api}/rounds", data=SITI_OUT, headers={"If-Match": etag})
    assert saved.ok, saved.text()
    page.goto(f"{match}/results")
    return match


def test_the_picture_goes_to_the_share_sheet_as_a_png(page: Page):
    page.add_init_script(SHARE_STUB)
    match = results_page(page)
    page.get_by_role("button", name="Share the picture").click()
    page.wait_for_function("() => window.__shared.length === 1")
    [[(name, kind, size)]] = page.evaluate("window.__shared")
    assert name == f"remi-{match.rsplit('/', 1)[-1]}-results.png" and kind == "image/png"
    assert size > 1000


def test_without_a_share_sheet_the_picture_is_downloaded(page: Page):
    page.add_init_script(NO_SHARE)
    results_page(page)
    expect(page.get_by_role("button", name="Share the picture")).to_be_hidden()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the picture (PNG)").click()
    assert download.value.suggested_filename.endswith("-results.png")
