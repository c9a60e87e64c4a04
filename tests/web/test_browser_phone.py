"""A phone that never fights the player, in a real browser on a 360 x 740 screen.

The card picker docks at the bottom of the screen while a card field is chosen, and the
phone keyboard stays down; the view link sees the round in play; nothing overflows 360 px
with the longest name a player may have; every control is a 44 px touch target.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import ARTIFACTS, create_table, english, follow, save_turn, start_match, tap

pytestmark = pytest.mark.browser

SCREEN = {"width": 360, "height": 740}

# Every focus that lands in a text box without the player having tapped that box (or its
# label) is noted: on a phone each one opens the keyboard over the card picker.
FOCUS_WATCH = """
window.__unasked = [];
let lastTapped = null;
document.addEventListener("pointerdown", (event) => { lastTapped = event.target; }, true);
document.addEventListener("focusin", (event) => {
  const el = event.target;
  if (!el.matches("textarea, input:not([type]), input[type=text], input[type=number]")) return;
  const asked = lastTapped && (lastTapped === el || (lastTapped.closest("label") || {}).control === el);
  if (!asked) window.__unasked.push(el.name || el.id);
}, true);
"""


def in_sight_above_the_picker(page: Page, selector: str) -> None:
    """The field and the docked picker are both on screen, and the field is not covered."""
    picker = page.locator(".picker.docked")
    expect(picker).to_be_visible()
    box = picker.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= SCREEN["height"] + 0.5, box
    field = page.locator(selector)
    expect(field).to_have_class(re.compile(r"\btarget\b"))
    where = field.bounding_box()
    assert where is not None
    assert where["y"] >= 0 and where["y"] + where["height"] <= box["y"], (selector, where, box)
    on_top = page.evaluate(
        """(selector) => { const el = document.querySelector(selector);
             const r = el.getBoundingClientRect();
             const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
             return top === el ? "" : (top ? top.outerHTML.slice(0, 120) : "nothing"); }""",
        selector,
    )
    assert on_top == "", f"{selector} is covered by {on_top}"


def test_a_quick_round_of_four_on_a_phone(page: Page):
    page.add_init_script(FOCUS_WATCH)
    english(page)
    # Typed in this order; alphabetical would be Andi, Budi, Siti Aminah, Siti Nurhaliza.
    create_table(page, "Siti Nurhaliza, Budi, Siti Aminah, Andi")
    page.get_by_role("link", name="New match").click()
    page.locator("a[href$='/new/remi']").click()
    seats = [page.locator(f"select[name=seat_{seat}]") for seat in range(4)]
    for seat, name in zip(seats, ["Siti Nurhaliza", "Budi", "Siti Aminah", "Andi"], strict=True):
        expect(seat).to_have_value(name)
    page.get_by_role("button", name="Move seat 4 up").click()
    for seat, name in zip(seats, ["Siti Nurhaliza", "Budi", "Andi", "Siti Aminah"], strict=True):
        expect(seat).to_have_value(name)
    page.locator("select[name=first_dealer]").select_option("Siti Nurhaliza")
    page.locator("input[name=target][value='200']").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".totals")).to_be_visible()
    # No round yet: nothing to play again, and the destructive actions wait under "More".
    expect(page.get_by_role("button", name=re.compile("Rematch"))).to_have_count(0)
    expect(page.get_by_role("button", name="Delete match")).to_be_hidden()

    page.get_by_role("link", name="Quick round (final table)").click()
    expect(page.locator("[name=hand_0]")).to_have_attribute("inputmode", "none")
    page.locator("input[name=ending][value=out]").check()
    page.locator("input[name=player][value=Budi]").check()
    # Budi went out.  Remi counts A = 1, 2-10 their value, J Q K = 10, and the winner scores
    # every card still held: Siti Nurhaliza KH 2C (12) + Andi AS 5D (6) + Siti Aminah 10H (10).
    hands = {0: ["KH", "2C"], 1: [], 2: ["AS", "5D"], 3: ["10H"]}
    page.locator("[name=hand_0]").click()
    for seat, cards in hands.items():
        if seat:
            page.locator(".picker [data-picker-step='1']").click()
        in_sight_above_the_picker(page, f"[name=hand_{seat}]")
        for code in cards:
            tap(page, code)
        expect(page.locator(f"[name=hand_{seat}]")).to_have_value(" ".join(cards))
        if seat == 2:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "phone-quick-round-docked-picker-360.png"))
    expect(page.locator(".picker [data-picker-target]")).to_have_text("Hand of Siti Aminah")
    assert page.evaluate("window.__unasked") == []
    # The save bar stays in reach above the docked picker.
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".total-points")).to_have_text(["0", "28", "0", "0"])

    # The score sheet's header: short forms, unique within the match, the full name kept.
    header = page.locator("table.sheet thead th")
    expect(header).to_have_text(["Siti N.", "Budi", "Andi", "Siti A."])
    expect(header.nth(0).locator("abbr")).to_have_attribute("title", "Siti Nurhaliza")
    expect(page.locator(".total-name")).to_have_text(
        ["Siti Nurhaliza", "Budi", "Andi", "Siti Aminah"]
    )
    page.locator("details.more summary").click()
    expect(page.get_by_role("button", name="Delete last round")).to_be_visible()
    expect(page.get_by_role("button", name="Delete match")).to_be_visible()
    assert page.evaluate("window.__unasked") == []


def test_a_seat_dragged_by_its_handle_to_the_top(page: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    page.get_by_role("link", name="New match").click()
    page.locator("a[href$='/new/remi']").click()
    seats = [page.locator(f"select[name=seat_{seat}]") for seat in range(3)]
    for seat, name in zip(seats, ["Budi", "Siti", "Andi"], strict=True):
        expect(seat).to_have_value(name)
    # Press on the third seat's handle, move up past the first seat's middle, release. The
    # handles are shown by the page's script: wait for it before measuring.
    expect(page.locator("[data-seat-handle]").nth(2)).to_be_visible()
    handle = page.locator("[data-seat-handle]").nth(2).bounding_box()
    top = page.locator("[data-seat]").first.bounding_box()
    assert handle is not None and top is not None
    assert handle["width"] >= 43.5 and handle["height"] >= 43.5  # a finger's target
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(handle["x"] + handle["width"] / 2, top["y"] + top["height"] / 3, steps=8)
    page.mouse.up()
    for seat, name in zip(seats, ["Andi", "Budi", "Siti"], strict=True):
        expect(seat).to_have_value(name)
    page.locator("select[name=first_dealer]").select_option("Andi")
    page.locator("input[name=target][value='200']").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".total-name")).to_have_text(["Andi", "Budi", "Siti"])


def test_live_round_entry_focuses_nothing_and_the_view_link_follows_it(
    page: Page, browser: Browser, base_url: str
):
    page.add_init_script(FOCUS_WATCH)
    english(page)
    table = create_table(page, "Budi, Siti, Andi")
    view_path = re.sub(r"^https?://[^/]+", "", page.get_by_label("View link").input_value())
    start_match(page, "remi", ["Budi", "Siti", "Andi"], target="200")
    match_path = re.search(r"/m/\d+/$", page.url)
    assert match_path and table
    viewer_context = browser.new_context(base_url=base_url, viewport=SCREEN)
    viewer = viewer_context.new_page()
    try:
        english(viewer)
        viewer.goto(view_path + match_path.group(0)[1:])
        expect(viewer.locator(".totals")).to_be_visible()
        expect(viewer.locator("#in-play")).to_have_count(0)

        page.get_by_role("link", name="Play a round live").click()
        assert page.evaluate("document.activeElement === document.body")
        # Siti leads (Budi deals): she melds 7S 8S 9S by taps and discards 2D.
        page.locator("textarea[name=melds]").click()
        for code in ("7S", "8S", "9S"):
            tap(page, code)
        page.locator("[data-picker-newline]").click()
        page.locator(".picker [data-picker-step='1']").click()  # the lay-offs
        page.locator(".picker [data-picker-step='1']").click()  # the discard, in sight
        in_sight_above_the_picker(page, "input[name=discard]")
        tap(page, "2D")
        page.locator(".picker [data-picker-done]").click()
        expect(page.locator(".picker.docked")).to_have_count(0)
        assert page.evaluate("window.__unasked") == []
        save_turn(page, "Siti")
        expect(page.locator("#meld-1 .owner")).to_have_text("Siti")

        # The viewer's score sheet follows without a reload.  Remi deals 7 cards each to
        # 3 players; a turn draws one and discards one: Siti 7 + 1 - 3 - 1 = 4.
        in_play = viewer.locator("#in-play")
        expect(in_play).to_contain_text("Round 1 in play")
        expect(in_play).to_contain_text("Next to play: Andi")
        expect(in_play.locator(".meld")).to_have_count(1)
        expect(in_play.locator(".meld .card")).to_have_count(3)
        codes = in_play.locator(".meld .card").evaluate_all(
            "cards => cards.map(c => c.dataset.code)"
        )
        assert codes == ["7S", "8S", "9S"]
        expect(in_play.locator(".hand-sizes li")).to_have_text(
            [
                re.compile(r"Budi\s*7 cards"),
                re.compile(r"Siti\s*4 cards"),
                re.compile(r"Andi\s*7 cards"),
            ]
        )
        expect(viewer.get_by_role("link", name="Play a round live")).to_have_count(0)
        in_play.scroll_into_view_if_needed()
        assert viewer.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
        ARTIFACTS.mkdir(exist_ok=True)
        viewer.screenshot(path=str(ARTIFACTS / "phone-view-link-live-round-360.png"))

        # "Type" is how a player asks for the keyboard: the field takes it, and only then.
        page.locator("textarea[name=melds]").click()
        page.locator(".picker [data-picker-type]").click()
        expect(page.locator("textarea[name=melds]")).not_to_have_attribute("inputmode", "none")
        assert page.evaluate("document.activeElement.name") == "melds"
        expect(page.locator(".picker.docked")).to_have_count(0)
    finally:
        viewer_context.close()


# The longest names a player may have (40 letters): with spaces, and as one long word.
LONGEST = "Réni Wulandari Kusumaningtyas Prameswari"
LONGEST_WORD = "Kusumaningtyasprameswariwulandarisasmita"

# The innermost elements reaching past the right edge of the screen (what overflows).
WIDE = """() => Array.from(document.querySelectorAll("body *"))
  .filter(el => el.getBoundingClientRect().right > 360.5 && el.children.length === 0)
  .slice(0, 3).map(el => el.tagName + "." + el.className + " " + Math.round(el.getBoundingClientRect().right))"""

TOO_SMALL = """() => Array.from(document.querySelectorAll("a, button, summary"))
  .filter(el => el.offsetParent !== null && !el.closest(".visually-hidden"))
  .map(el => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
  .filter(([, r]) => r.height < 43.5 || r.width < 43.5)
  .map(([name, r]) => name + " " + Math.round(r.width) + "x" + Math.round(r.height))"""


def test_every_page_fits_360_px_with_the_longest_names_and_has_44_px_targets(page: Page):
    assert len(LONGEST) == len(LONGEST_WORD) == 40
    english(page)
    table = create_table(page, f"{LONGEST}, {LONGEST_WORD}, Budi")
    base = re.sub(r"/t/.*", "", table)
    start_match(page, "remi", [LONGEST, LONGEST_WORD, "Budi"], target="200")
    scoreboard = page.url
    page.get_by_role("link", name="Quick round (final table)").click()
    page.locator("input[name=ending][value=out]").check()
    page.locator("input[name=player][value=Budi]").check()
    page.locator("[name=hand_0]").fill("KH 2C")
    page.locator("[name=hand_1]").fill("AS")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".total-points")).to_have_text(["0", "0", "13"])
    live = follow(page, page.get_by_role("link", name="Play a round live"))
    page.locator("textarea[name=melds]").fill("7S 8S 9S")
    save_turn(page, LONGEST_WORD)
    expect(page.locator("#meld-1")).to_be_visible()
    page.goto(table + "stats")
    player = page.locator("table.stats th[scope=row] a").first.get_attribute("href")
    pages = [
        base + "/",
        table,
        table + "new",
        table + "new/remi",
        scoreboard,
        scoreboard + "board",
        scoreboard + "rounds/1",
        scoreboard + "rounds/1/edit",
        scoreboard + "delete",
        live,
        live + "/end",
        table + "matches",
        table + "stats",
        f"{base}{player}" if player and player.startswith("/") else str(player),
        table + "head-to-head",
        table + "settings",
        base + "/check",
        base + "/gin",
        base + "/rules/",
        base + "/rules/remi",
    ]
    overflowing, small = {}, {}
    for url in pages:
        response = page.goto(url)
        assert response is not None and response.ok, url
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > SCREEN["width"]:
            overflowing[url] = (width, page.evaluate(WIDE))
        page.locator("details:not([open]) > summary").evaluate_all(
            "all => all.forEach(s => s.parentElement.open = true)"
        )
        if too_small := page.evaluate(TOO_SMALL):
            small[url] = too_small
    assert overflowing == {}
    assert small == {}
