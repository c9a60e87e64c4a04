"""A Phase 10 evening of two in a real browser, on two phones (two browser contexts): a
player who fails a phase stays on it, one who completes it moves on, every phone shows it.

Figures by hand from RULES.md (phase10): hand 1 (dealer Budi): Siti goes out with phase 1,
Budi fails it and holds R1-R9 (5 each) and R10 (10): 55.  Hand 2, on the second phone:
Siti has completed phase 1, so a phase 1 for her is refused in words; then Budi goes out with phase
1 (his again) and Siti lays phase 2 (R5 B5 G5 / Y1 Y2 W=3 B4) and holds R11: 10.  Totals
55 and 10; next, Budi tries phase 2 and Siti phase 3.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import create_table, english, expect_totals, start_match

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}}
TEN = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10"


def expect_phases(page: Page, phases: dict[str, str]) -> None:
    for name, phase in phases.items():
        row = page.locator(f"#phase-tracker tr[data-player={name}]")
        expect(row).to_have_attribute("data-phase", phase)


def test_a_phase10_evening_on_two_phones(page: Page, browser: Browser, base_url: str):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "phase10", ["Budi", "Siti"])
    scoreboard = page.url
    expect_phases(page, {"Budi": "1", "Siti": "1"})

    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("#seat-0 .phase-now")).to_have_text("on phase 1")
    page.locator("input[name=player][value=Siti]").check()
    page.locator("select[name=made_1]").select_option("1")
    page.locator("input[name=hand_0]").fill(TEN)
    page.get_by_role("button", name="Save hand").click()
    expect_totals(page, ["55", "0"])
    expect_phases(page, {"Budi": "1", "Siti": "2"})
    expect(page.locator("#phase-tracker tr[data-player=Siti] .phase-last")).to_have_text(
        "made phase 1"
    )
    expect(page.locator("#phase-tracker tr[data-player=Budi] .phase-last")).to_have_text("no phase")

    context = browser.new_context(base_url=base_url, **PHONE)
    try:
        other = context.new_page()
        english(other)
        other.goto(scoreboard)
        expect_phases(other, {"Budi": "1", "Siti": "2"})
        other.get_by_role("link", name="Enter hand 2").click()
        expect(other.locator("#seat-1 .phase-now")).to_have_text("on phase 2")
        other.locator("input[name=player][value=Budi]").check()
        other.locator("select[name=made_0]").select_option("1")
        other.locator("select[name=made_1]").select_option("1")
        other.locator("input[name=hand_1]").fill("R11")
        other.get_by_role("button", name="Save hand").click()
        expect(other.locator("#round-form")).to_contain_text("Siti has already completed phase 1")
        other.locator("select[name=made_1]").select_option("2")
        other.locator("textarea[name=phase_1]").fill("R5 B5 G5\nY1 Y2 W=3 B4")
        other.get_by_role("button", name="Save hand").click()
        expect_totals(other, ["55", "10"])
        expect_phases(other, {"Budi": "2", "Siti": "3"})
    finally:
        context.close()
    page.goto(scoreboard)
    expect_totals(page, ["55", "10"])
    expect_phases(page, {"Budi": "2", "Siti": "3"})
