"""axe-core 4 over every page state of each ruleset on a 360 x 740 phone, light and dark:
the match setup, the score sheet, the round's form with its card picker closed and open, the
live round where the game is played turn by turn.  No violation of serious or critical
impact, and headings in order.  And the card picker used from a keyboard alone.

axe-core is vendored in tests/web/vendor/axe-core (from the npm registry; the app never
serves it) and evaluated in the page by the test driver, so the page's
Content-Security-Policy stays as it is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .test_browser import english

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
RUN_AXE = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "heading-order")
    .map((v) => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""
PLAYERS = {
    "gin": ["Budi", "Siti"],
    "manipulation": ["Budi", "Siti", "Andi"],
}
RULESETS = [
    "canasta",
    "contract",
    "gin",
    "indian",
    "manipulation",
    "phase10",
    "remi",
    "remi-indonesia",
    "rummy",
    "rummy500",
    "rummikub",
]


def violations(page: Page, state: str) -> list[str]:
    expect(page.locator("main")).to_be_visible()
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE + "\n;0")
    return [f"{state}: {found}" for found in page.evaluate(RUN_AXE)]


def table_and_match(page: Page, rules: str) -> tuple[str, str]:
    """A table's edit address and a new match of ``rules`` at it (through the API)."""
    players = PLAYERS.get(rules, ["Budi", "Siti", "Andi"])
    keys = page.request.post("/api/v1/tables", data={"name": "Meja", "players": players}).json()
    table = f"/t/{keys['edit_key']}"
    made = page.request.post(
        f"/api/v1{table}/matches",
        data={"rules": rules, "players": players, "first_dealer": players[0]},
    )
    assert made.ok, made.text()
    return table, f"{table}/m/{made.json()['id']}"


def states(page: Page, rules: str) -> list[str]:
    found: list[str] = []
    table, match = table_and_match(page, rules)
    page.goto(f"{table}/new/{rules}")
    found += violations(page, "setup")
    page.goto(f"{match}/")
    found += violations(page, "score sheet")
    for where, address in (("round form", f"{match}/rounds/new"), ("live round", f"{match}/live")):
        answer = page.goto(address)
        assert answer is not None
        if answer.status == 404 or not page.url.endswith(address.rsplit("/", 1)[-1]):
            continue  # not a game played that way
        found += violations(page, where)
        card_field = page.locator("main [data-cards]:visible").first
        if card_field.count():
            card_field.click()
            expect(page.locator(".picker.docked")).to_be_visible()
            found += violations(page, where + ", picker open")
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("rules", RULESETS)
def test_no_serious_accessibility_violation_on_any_page_state(page: Page, rules: str, scheme: str):
    page.emulate_media(color_scheme=scheme)
    english(page)
    assert states(page, rules) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rummikub_table_referee_with_its_tile_picker(page: Page, scheme: str):
    page.emulate_media(color_scheme=scheme)
    english(page)
    page.goto("/tiles")
    page.locator("[data-clock-on]").check()  # the turn clock shown too
    assert violations(page, "table referee") == []


def test_the_card_picker_from_a_keyboard_alone(page: Page):
    english(page)
    _table, match = table_and_match(page, "remi")
    page.goto(f"{match}/rounds/new")
    hand = page.locator("[name=hand_0]")
    hand.focus()
    # From the hand field, Tab reaches the cards (one Tab stop for all of them) ...
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('pick')"):
            break
    else:
        pytest.fail("no card of the picker is reached with Tab")
    first: Any = page.evaluate("document.activeElement.dataset.code")
    assert first == "AS"
    # The picker docks and says where the cards go; its buttons before the cards choose
    # another field (Shift+Tab: Done, next field, previous field).
    expect(page.locator(".picker.docked")).to_be_visible()
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    expect(page.locator(":focus")).to_have_attribute("data-picker-step", "-1")
    while page.locator("[data-picker-target]").text_content() != "Hand of Budi":
        page.keyboard.press("Enter")
    expect(hand).to_have_class(re.compile(r"\btarget\b"))
    for _ in range(3):
        page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("data-code", "AS")
    # The arrow keys move between the cards as they are laid out, Enter and Space tap one.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press(" ")
    expect(hand).to_have_value("2S 2H")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    expect(hand).to_have_value("2S 2H 7H")
