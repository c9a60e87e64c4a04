"""The phone on the table over a plain-http Wi-Fi: the screen stays on without the Wake Lock
API, a secure origin uses the API, and the score sheet says when the host cannot be reached
and catches up by itself when it can again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from .test_browser import english
from .test_browser_a11y import table_and_match
from .test_browser_evening import WAKE_LOCK_STUB

pytestmark = pytest.mark.browser

# An insecure origin (http://192.168.1.20) has no navigator.wakeLock at all.
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock; delete navigator.wakeLock;"
SITI_OUT = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}


def test_without_the_wake_lock_api_a_muted_video_keeps_the_screen_on(page: Page):
    page.add_init_script(NO_WAKE_LOCK)
    _table, match = table_and_match(page, "remi")
    page.goto(f"{match}/")
    assert page.evaluate("'wakeLock' in navigator") is False
    page.locator("h1").click()  # a browser may want a tap before it plays a video
    expect(page.locator("html")).to_have_attribute("data-awake", "video")


def test_a_secure_origin_gets_the_real_wake_lock_and_no_video(page: Page):
    page.add_init_script(WAKE_LOCK_STUB)
    _table, match = table_and_match(page, "remi")
    page.goto(f"{match}/")
    expect(page.locator("html")).to_have_attribute("data-awake", "")
    page.locator("h1").click()
    expect(page.locator("html")).to_have_attribute("data-awake", "")
    assert page.evaluate("window.__wakeLocks") == ["screen"]


def test_the_host_out_of_reach_is_said_with_since_when_and_the_sheet_catches_up(page: Page):
    english(page)
    _table, match = table_and_match(page, "remi")
    page.goto(f"{match}/")
    expect(page.locator(".total-points")).to_have_text(["0", "0", "0"])
    notice = page.locator("[data-live-offline]")
    expect(notice).to_be_hidden()

    def unreachable(route: Route) -> None:
        route.abort("connectionrefused")

    page.route("**/version", unreachable)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(re.compile(r"cannot be reached since \d\d?[:.]\d\d"))
    # Meanwhile another phone saves a round; the host answers again.
    api = match.replace("/t/", "/api/v1/t/")
    etag = page.request.get(api).headers["etag"]
    saved = page.request.post(f"{api}/rounds", data=SITI_OUT, headers={"If-Match": etag})
    assert saved.ok, saved.text()
    page.unroute("**/version", unreachable)
    expect(page.locator(".total-points")).to_have_text(["0", "9", "0"], timeout=30_000)
    expect(notice).to_be_hidden()
