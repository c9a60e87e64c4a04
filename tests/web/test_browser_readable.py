"""Every ruleset's score sheet read whole on a 360 x 740 phone, light and dark: no name, label
or total cut off (a box narrower than its text, an ellipsis) and no number broken across
two lines (117 read as "11 / 7").

Each sheet is a match file of tests/scenarios imported into a table, its players given the
longer names families have.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .test_browser import ARTIFACTS, english

pytestmark = pytest.mark.browser

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
# Each ruleset's scenario with the most players and rounds that the referee replays whole.
SHEETS = {
    "contract": "contract-seven-deals-shared-win.json",
    "gin": "gin-match-target-50.json",
    "indian": "indian-deals-tie-plays-one-more.json",
    "manipulation": "manipulation-knock-five-players-sum.json",
    "remi": "remi-qa-dealer-rotation-4p.json",
    "remi-indonesia": "remi-indonesia-dealer-lowest.json",
    "rummy": "rummy-target-150.json",
    "rummy500": "rummy500-five-players-two-decks.json",
}
LONGER = {
    "Budi": "Bambang",
    "Siti": "Siti Aminah",
    "Andi": "Andreas",
    "Ana": "Anastasia",
    "Bima": "Bimasakti",
    "Citra": "Citra Dewi",
    "Dewi": "Dewi Lestari",
    "Eko": "Eko Prasetyo",
}

# Every element of the score sheet that shows text: cut off when its box is narrower (or
# lower, for a clamped name) than its text and does not scroll; a number broken when its
# characters lie on two lines.
MEASURE = """
(root) => {
  const problems = [];
  const NUMBER = /[+\\-\\u2212]?\\d[\\d.,]*/g;
  const shown = (el) => el.getClientRects().length > 0;
  for (const el of root.querySelectorAll("*")) {
    if (!shown(el) || el.closest("abbr")) continue;
    const texts = Array.from(el.childNodes).filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    const scrolls = ["auto", "scroll"].includes(style.overflowX);
    const what = el.tagName.toLowerCase() + "." + el.className + ": " + el.textContent.trim().slice(0, 40);
    if (!scrolls && style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1) {
      problems.push("cut off (" + el.scrollWidth + " > " + el.clientWidth + "): " + what);
    }
    if (style.webkitLineClamp !== "none" && el.scrollHeight > el.clientHeight + 1) {
      problems.push("clamped: " + what);
    }
    for (const node of texts) {
      for (const found of node.textContent.matchAll(NUMBER)) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (tops.size > 1) problems.push("number broken: " + found[0] + " in " + what);
      }
    }
  }
  return problems;
}
"""


def longer_names(document: dict[str, Any]) -> str:
    text = json.dumps(document)
    for short, long in LONGER.items():
        text = text.replace(f'"{short}"', f'"{long}"')
    return text


def import_match(page: Page, table: str, document: str) -> None:
    page.goto(table)
    page.get_by_role("link", name="Import a match").click()
    page.get_by_label("…or paste the document").fill(document)
    with page.expect_navigation():
        page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Match imported.")).to_be_visible()


def new_table(page: Page) -> str:
    page.goto("/")
    page.get_by_label("Name of the table").fill("Keluarga")
    with page.expect_navigation():
        page.get_by_role("button", name="Create table").click()
    return page.url.split("#")[0]


def sheet_problems(page: Page) -> list[str]:
    for details in page.locator("main details.every-round").all():
        details.locator("summary").click()  # the contract sheet's every-round table too
    problems: list[str] = []
    for part in page.locator("main .totals, main .sheet, main .match-head").all():
        problems += part.evaluate(MEASURE)
    return problems


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("rules", sorted(SHEETS))
def test_every_score_sheet_reads_whole_on_a_360_px_phone(page: Page, rules: str, scheme: str):
    page.emulate_media(color_scheme=scheme)
    english(page)
    table = new_table(page)
    document = json.loads((SCENARIOS / SHEETS[rules]).read_text())
    assert document["rules"] == rules
    import_match(page, table, longer_names(document))
    expect(page.locator(".sheet").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(ARTIFACTS / f"sheet-{rules}-{scheme}.png"), full_page=True)
    in_english = sheet_problems(page)
    with page.expect_navigation():  # Indonesian has the longer words
        page.get_by_role("button", name="ID").click()
    expect(page.locator("html")).to_have_attribute("lang", "id")
    page.screenshot(path=str(ARTIFACTS / f"sheet-{rules}-{scheme}-id.png"), full_page=True)
    assert (in_english, sheet_problems(page)) == ([], [])


def test_the_number_of_deals_is_asked_only_for_a_match_of_deals(page: Page):
    english(page)
    keys = page.request.post("/api/v1/tables", data={"name": "Meja", "players": ["Budi", "Siti"]})
    page.goto(f"/t/{keys.json()['edit_key']}/new/indian")
    deals = page.get_by_label("Deals", exact=True)
    expect(deals).to_be_hidden()  # pool 101, the usual format
    page.get_by_label("Match", exact=True).select_option(label="a set number of deals")
    expect(deals).to_be_visible()
    page.get_by_label("Match", exact=True).select_option(label="pool 201")
    expect(deals).to_be_hidden()
