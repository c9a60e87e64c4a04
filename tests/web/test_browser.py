"""Real-browser tests: headless Chromium through Playwright, on a 360 x 740 phone screen.

Screenshots of the scoreboard and the live table go to ``artifacts/`` (gitignored).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

# CI machines are shared: give every expectation room before it fails.
expect.set_options(timeout=15_000)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def english(page: Page) -> None:
    page.goto("/")
    with page.expect_navigation():  # the language is saved, then the page loads again
        page.get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def create_table(page: Page, players: str) -> str:
    page.goto("/")
    page.get_by_label("Name of the table").fill("Friday")
    with page.expect_navigation():
        page.get_by_role("button", name="Create table").click()
    page.get_by_label("New players").fill(players)
    with page.expect_navigation():  # the table's page again, with the players
        page.get_by_role("button", name="Add players").click()
    return page.url.split("#")[0]


def start_match(page: Page, rules: str, players: list[str], target: str | None = None) -> None:
    page.get_by_role("link", name="New match").click()
    page.locator(f"a[href$='/new/{rules}']").click()
    for seat, name in enumerate(players):
        page.locator(f"select[name=seat_{seat}]").select_option(name)
    page.locator("select[name=first_dealer]").select_option(players[0])
    if target:
        page.locator(f"input[name=target][value='{target}']").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".totals")).to_be_visible()


def follow(page: Page, link: Locator) -> str:
    """Follow a link and wait for its page (``page.url`` read right after a click may still
    be the page before): the new address."""
    with page.expect_navigation():
        link.click()
    return page.url


def tap(page: Page, code: str) -> None:
    page.locator(f".picker .pick[data-code='{code}']").click()


def save_turn(page: Page, player: str) -> None:
    """Save the turn and wait for the page that answers it to be loaded, scripts and all: the
    next turn's form looks like this one, and a step taken too soon would act on the old page."""
    page.locator("select[name=player]").select_option(player)
    with page.expect_navigation():
        page.get_by_role("button", name="Save turn").click()


def expect_totals(page: Page, expected: list[str]) -> None:
    """Wait for the score sheet to show these totals (the save navigates first)."""
    expect(page.locator(".total-points")).to_have_text(expected)


def test_remi_live_round_with_a_layoff_and_going_out_at_once(page: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Play a round live").click()

    # Siti lays 7S 8S 9S, typed.
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    expect(page.locator("#meld-1 .owner")).to_have_text("Siti")

    # Andi taps 10S: meld 1 lights up; tapping it lays 10S off there.
    page.locator("textarea[name=melds]").click()
    tap(page, "10S")
    expect(page.locator("#meld-1")).to_have_class(re.compile("accepts"))
    page.locator("#meld-1").click()
    expect(page.locator("textarea[name=layoffs]")).to_have_value("10S > 1")
    expect(page.locator("textarea[name=melds]")).to_have_value("")
    save_turn(page, "Andi")
    expect(page.locator("#meld-1 .by")).to_have_text("Andi")
    page.screenshot(path=str(ARTIFACTS / "live-table-360.png"), full_page=True)

    # Budi goes out all at once: two melds tapped in, one lay-off, the discard.
    page.locator("textarea[name=melds]").click()
    for code in ("4H", "4D", "4C"):
        tap(page, code)
    page.locator("[data-picker-newline]").click()
    for code in ("JC", "QC", "KC"):
        tap(page, code)
    expect(page.locator("textarea[name=melds]")).to_have_value("4H 4D 4C\nJC QC KC")
    expect(page.locator(".pick[data-code='7S']")).to_have_class(re.compile("used"))
    tap(page, "6S")
    page.locator("#meld-1").click()
    page.locator("details summary").click()
    page.locator("input[name=discard]").fill("2D")
    page.locator("input[name=out]").check()
    save_turn(page, "Budi")
    expect(page.locator(".result")).to_contain_text("Budi went out")

    page.get_by_role("link", name="End the round").click()
    page.locator("input[name=hand_1]").fill("KH 2C 9D 5H")
    page.locator("input[name=hand_2]").fill("AS 5D QH 3H 8D JD")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["126", "0", "0"])
    expect(page.locator("table.sheet")).to_contain_text("went out at once ×2")
    page.screenshot(path=str(ARTIFACTS / "scoreboard-360.png"), full_page=True)


def test_a_rejected_meld_shows_its_reason(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "remi", ["Budi", "Siti"])
    page.get_by_role("link", name="Play a round live").click()
    page.locator("textarea[name=melds]").fill("7S 9S 10S")
    save_turn(page, "Siti")
    expect(page.locator(".field.has-error")).to_contain_text("8S is missing between 7S and 9S")
    expect(page.locator(".turn-error")).to_have_count(0)
    expect(page.locator("textarea[name=melds]")).to_have_value("7S 9S 10S")
    expect(page.locator("#meld-1")).to_have_count(0)


def test_gin_knock_with_an_undercut(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "gin", ["Budi", "Siti"])
    page.get_by_role("link", name="Enter a round (knock)").click()
    page.locator("input[name=ending][value=knock]").check()
    page.locator("input[name=player][value=Budi]").check()
    page.locator("input[name=hand_0]").fill("AS 2S 3S 4H 5H 6H 7D 8D 9D KC")
    page.locator("input[name=hand_1]").fill("AH AD AC 2H 2D 2C 3H 3D 3C 4C")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".adjudication .verdict")).to_contain_text("Undercut")
    expect(page.locator(".adjudication")).to_contain_text("K♣ = 10")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["0", "35"])
    expect(page.locator("table.sheet")).to_contain_text("undercut")


def test_edit_a_past_round_and_see_the_totals_change(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "remi", ["Budi", "Siti"])
    for winner, hand_field, hand in (("Budi", "hand_1", "KH"), ("Siti", "hand_0", "2C")):
        page.get_by_role("link", name="Quick round (final table)").click()
        page.locator(f"input[name=player][value='{winner}']").check()
        page.locator(f"input[name={hand_field}]").fill(hand)
        page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["10", "2"])
    page.locator("table.sheet tbody tr").first.get_by_role("link", name="edit").click()
    page.locator("input[name=hand_1]").fill("KH QH")
    page.get_by_role("button", name="Save round").click()
    expect_totals(page, ["20", "2"])


def test_switch_to_english_and_back(page: Page):
    page.goto("/")
    expect(page.locator("h2").first).to_have_text("Meja saya")
    with page.expect_navigation():
        page.get_by_role("button", name="EN").click()
    expect(page.locator("h2").first).to_have_text("My tables")
    with page.expect_navigation():
        page.get_by_role("button", name="ID").click()
    expect(page.locator("h2").first).to_have_text("Meja saya")


def test_everything_works_without_javascript(browser, live_server):
    context = browser.new_context(
        base_url=live_server, java_script_enabled=False, viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "remi", ["Budi", "Siti"])
    page.get_by_role("link", name="Play a round live").click()
    expect(page.locator(".picker")).to_be_hidden()
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    expect(page.locator("#meld-1")).to_be_visible()
    page.locator("textarea[name=layoffs]").fill("10S > 1")
    save_turn(page, "Budi")
    expect(page.locator("#meld-1 .by")).to_have_text("Budi")
    context.close()


def test_checker_asks_about_aces_only_for_rummy(page: Page):
    english(page)
    page.goto("/check")
    aces = page.locator("select[name=ace]")
    page.locator("select[name=rules]").select_option("remi")
    expect(aces).to_be_hidden()
    page.locator("select[name=rules]").select_option("rummy")
    expect(aces).to_be_visible()
    aces.select_option("high-low")
    page.locator("input[name=cards]").fill("QS KS AS")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#verdict")).to_contain_text("Legal")
    expect(page.locator("select[name=ace]")).to_have_value("high-low")


def test_manipulation_what_can_i_play(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "manipulation", ["Budi", "Siti"])
    page.get_by_role("link", name="Play a round live").click()
    page.locator("input[name=played]").fill("7S 8S 9S")
    page.locator("textarea[name=table]").fill("7S 8S 9S")
    save_turn(page, "Siti")
    expect(page.locator("#meld-1")).to_be_visible()

    # Budi taps his hand into the hint form's own picker and asks what he can play.
    page.get_by_text("What can I play?").click()
    page.locator("input[name=hand]").click()
    for code in ("10S", "QD", "6S"):
        page.locator(f"#hint .pick[data-code='{code}']").click()
    expect(page.locator("input[name=hand]")).to_have_value("10S QD 6S")
    expect(page.locator("input[name=played]")).to_have_value("")
    page.get_by_role("button", name="Show what I can play").click()
    expect(page.locator("#hint-result")).to_contain_text("6♠")
    expect(page.locator("#hint-result")).not_to_contain_text("Q♦")
    expect(page.locator("input[name=played]")).to_have_value("6S 10S")
    page.screenshot(path=str(ARTIFACTS / "play-hint-360.png"), full_page=True)
    save_turn(page, "Budi")
    expect(page.locator("#meld-1")).to_contain_text("10♠")


FIVE = ["Budiman", "Sitinurbaya", "Andika", "Rahayu", "Wayan"]


def test_five_player_score_sheet_fits_a_phone(page: Page):
    english(page)
    create_table(page, ", ".join(FIVE))
    start_match(page, "rummy", FIVE, target="200")
    for winner, hands in (
        ("Budiman", ("", "KH QH", "2C 3C 9D", "AS 5D QS 3H", "JD")),
        ("Rahayu", ("KC 10C 9C", "4D", "2H 3S 4S 6H 7C", "", "8D 8S")),
    ):
        page.get_by_role("link", name="Quick round (final table)").click()
        page.locator(f"input[name=player][value='{winner}']").check()
        for seat, hand in enumerate(hands):
            page.locator(f"input[name=hand_{seat}]").fill(hand)
        page.get_by_role("button", name="Save round").click()
        expect(page.locator(".flash")).to_contain_text("saved")
    sheet = page.locator("table.sheet")
    expect(sheet).to_contain_text("went out: Rahayu")
    sizes = sheet.evaluate(
        "t => ({table: [t.scrollWidth, t.clientWidth],"
        " box: [t.parentNode.scrollWidth, t.parentNode.clientWidth],"
        " page: [document.documentElement.scrollWidth, window.innerWidth]})"
    )
    for name, (scroll, client) in sizes.items():
        assert scroll <= client, (name, sizes)
    # Every player's column and the round's links are on screen.
    for cell in page.locator("table.sheet thead th").all() + [
        page.get_by_role("link", name="edit").first
    ]:
        box = cell.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    page.screenshot(path=str(ARTIFACTS / "scoreboard-5-players-360.png"), full_page=True)


def test_lay_off_from_the_strip_next_to_the_picker(page: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Play a round live").click()
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    save_turn(page, "Siti")

    # Big cards: two rows of 7 per suit, nothing wider than the screen.
    card = page.locator(".pick[data-code='10S']").bounding_box()
    assert card and card["height"] >= 40 and card["width"] >= 40, card
    grid = page.locator(".picker-grid").evaluate("g => [g.scrollWidth, g.clientWidth]")
    assert grid[0] <= grid[1]

    strip = page.locator("[data-layoff-strip]")
    expect(strip).to_be_hidden()
    page.locator("textarea[name=melds]").click()
    tap(page, "10S")
    expect(strip).to_be_visible()
    expect(strip).to_be_in_viewport()
    page.screenshot(path=str(ARTIFACTS / "live-layoff-strip-360.png"))  # the phone's screen
    strip.get_by_role("button", name="1").click()
    expect(page.locator("textarea[name=layoffs]")).to_have_value("10S > 1")
    expect(page.locator("textarea[name=melds]")).to_have_value("")
    expect(strip).to_be_hidden()

    # "Next meld" only while a field that takes melds is selected.
    newline = page.locator("[data-picker-newline]")
    expect(newline).to_be_visible()
    page.locator("details summary").click()
    page.locator("input[name=discard]").click()
    expect(newline).to_be_hidden()
    page.locator("input[name=discard]").fill("")
    save_turn(page, "Andi")
    expect(page.locator("#meld-1 .by")).to_have_text("Andi")
    page.screenshot(path=str(ARTIFACTS / "live-360.png"), full_page=True)


def test_switching_language_keeps_what_was_typed(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "remi", ["Budi", "Siti"])
    page.get_by_role("link", name="Play a round live").click()
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    page.locator("select[name=player]").select_option("Budi")
    page.get_by_role("button", name="ID").click()
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("textarea[name=melds]")).to_have_value("7S 8S 9S")
    expect(page.locator("select[name=player]")).to_have_value("Budi")
    page.wait_for_load_state()  # the draft script has run
    expect(page.locator(".draft-notice")).to_have_count(0)  # on screen already: no notice
    # What was typed stays a draft: a reload brings it back from the phone and says so (the
    # language switch put it back in the form, it did not make it the form's own content).
    page.reload()
    expect(page.locator(".draft-notice")).to_be_visible()
    expect(page.locator("textarea[name=melds]")).to_have_value("7S 8S 9S")
    page.locator(".draft-notice button").click()
    expect(page.locator("textarea[name=melds]")).to_have_value("")
    page.reload()
    expect(page.locator("textarea[name=melds]")).to_have_value("")
    expect(page.locator(".draft-notice")).to_have_count(0)


def test_typing_a_target_selects_other(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    page.get_by_role("link", name="New match").click()
    page.locator("a[href$='/new/remi']").click()
    page.locator("input[name=custom_target]").fill("250")
    expect(page.locator("input[name=target][value=custom]")).to_be_checked()
    page.locator("input[name=target][value='100']").check()
    expect(page.locator("input[name=custom_target]")).to_have_value("")


def test_tabbing_through_the_turn_form_keeps_each_field_above_the_save_bar(page: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    page.get_by_role("link", name="Play a round live").click()
    page.locator("details summary").click()  # the discard pile fields too
    page.locator("select[name=player]").focus()
    seen = []
    for _ in range(12):
        page.keyboard.press("Tab")
        box = page.evaluate(
            """() => {
              const el = document.activeElement, bar = document.querySelector('.buttons.sticky');
              if (!el || bar.contains(el)) return null;
              const r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
              return {name: el.name || el.textContent.trim(), bottom: r.bottom, bar: b.top,
                      pick: el.classList.contains('pick'), picker: !!el.closest('.picker')};
            }"""
        )
        if box is None:
            break
        seen.append("card" if box["pick"] else box["name"])
        # A card reached docks the picker at the bottom, the Save bar just above it.
        assert box["picker"] or box["bottom"] <= box["bar"] + 1, box
    assert "melds" in seen and "discard" in seen
    assert seen.count("card") <= 1, "the picker's cards are one Tab stop, not 52"


def test_the_joker_key_is_used_once_every_joker_is(page: Page):
    english(page)
    create_table(page, "Budi, Siti")
    start_match(page, "manipulation", ["Budi", "Siti"])
    page.get_by_role("link", name="Play a round live").click()
    joker = page.locator("form[action$='#turn'] .pick[data-code='JK']")
    used = re.compile(r"\bused\b")
    expect(joker).not_to_have_class(used)
    page.locator("input[name=played]").fill("7S 8S JK")
    expect(joker).to_have_class(used)  # two players: one joker
    page.locator("input[name=played]").fill("7S 8S 9S")
    expect(joker).not_to_have_class(used)
    page.locator("input[name=played]").fill("7S 8S JK")
    page.locator("textarea[name=table]").fill("7S 8S JK=9S")
    save_turn(page, "Budi")
    expect(page.locator("#meld-1")).to_be_visible()
    expect(joker).to_have_class(used)  # on the table
    assert joker.evaluate("b => getComputedStyle(b).color") == "rgb(31, 99, 181)"  # 5.9:1
