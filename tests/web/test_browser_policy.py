"""The Content-Security-Policy blocks nothing the app itself serves (Chromium reports each
refusal on the console); every browser test also fails on one (see ``conftest.page``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import watch_policy
from .test_browser import create_table, english, save_turn, start_match

pytestmark = pytest.mark.browser


def visit(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


def test_the_main_pages_break_no_policy(page: Page, live_server: str):
    refused = watch_policy(page)
    english(page)
    for url in ("/", "/rules/", "/rules/remi", "/check", "/gin"):
        visit(page, url)
    page.locator("input[name=cards]").fill("7S 8S 9S 7H 7D 2C 3C 4C KD QH")
    with page.expect_navigation():  # the analysis page itself, not only the form
        page.get_by_role("button", name="Analyse").click()
    table = create_table(page, "Budi, Siti")
    start_match(page, "manipulation", ["Budi", "Siti"])
    match = page.url
    page.get_by_role("link", name="Play a round live").click()
    page.locator("input[name=played]").fill("7S 8S 9S")
    page.locator("textarea[name=table]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    expect(page.locator("#meld-1")).to_be_visible()
    page.get_by_text("What can I play?").click()
    page.locator("input[name=hand]").fill("10S QD 6S")
    page.get_by_role("button", name="Show what I can play").click()
    expect(page.locator("#hint-result")).to_contain_text("6♠")
    for url in (table, table + "stats", table + "new", table + "import", match, match + "live/end"):
        visit(page, url)
    visit(page, table)
    start_match(page, "remi", ["Budi", "Siti"], target="100")
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator("input[name=player][value=Budi]").check()
    page.locator("input[name=hand_1]").fill("KH QH")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("progress.bar").first).to_have_attribute("value", "20")
    assert page.locator("progress.bar").first.bounding_box()["width"] > 50
    assert refused == []


def test_a_refusal_would_be_seen(context, live_server: str):
    """The watch works: a page with an inline style and script under the policy is reported."""
    page = context.new_page()
    refused = watch_policy(page)
    policy = "default-src 'self'; frame-ancestors 'none'"

    def inline_style(route):
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/html", "Content-Security-Policy": policy},
            body='<!doctype html><p style="color: red">red</p><script>1</script>',
        )

    page.route("**/not-the-app", inline_style)
    visit(page, live_server + "/not-the-app")
    assert len(refused) == 2, refused
    assert "inline style" in refused[0] and "inline script" in refused[1]
