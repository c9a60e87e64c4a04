"""A Rummikub evening on two phones, in a real browser: the table referee with its tile picker
refuses an initial meld of 27 and takes one of 30 with a joker, passes a rearranged table,
puts a bad rearrangement back; the other phone enters the game, scored zero-sum.  Every
figure worked out by hand from RULES.md (``rummikub``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import create_table, english, expect_totals, follow, start_match

pytestmark = pytest.mark.browser


def pick(page: Page, *tiles: str) -> None:
    """Tap tiles on the picker: a colour, then a number; ``JK=O9`` taps "Joker standing
    for…" first, ``JK`` the bare joker."""
    picker = page.locator("[data-tile-picker]")
    names = {"K": "black", "B": "blue", "O": "orange", "R": "red"}
    for tile in tiles:
        if tile == "JK":
            picker.locator("[data-bare-joker]").click()
            continue
        if tile.startswith("JK="):
            picker.locator("[data-joker]").click()
            tile = tile[3:]
        picker.get_by_role("button", name=names[tile[0]], exact=True).click()
        picker.locator(f"[data-number='{tile[1:]}']").click()


def check(page: Page, action: str = "Check the turn") -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=action).click()


def test_a_rummikub_evening_on_two_phones(page: Page, second_phone: Page):
    english(page)
    create_table(page, "Budi, Siti, Andi")
    start_match(page, "rummikub", ["Budi", "Siti", "Andi"])
    scoreboard = page.url
    follow(page, page.get_by_role("link", name="Table referee"))

    # Andi's initial meld, tapped: K9 B9 and a joker standing for O9 make 27, not 30
    page.locator("[name=played]").click()
    pick(page, "K9", "B9", "JK")
    expect(page.locator("[name=played]")).to_have_value("K9 B9 JK")
    page.locator("[name=after]").click()
    pick(page, "K9", "B9", "JK=O9")
    expect(page.locator("[name=after]")).to_have_value("K9 B9 JK=O9")
    page.locator("[name=melded]").uncheck()
    check(page)
    expect(page.locator("#verdict")).to_contain_text(
        "the initial meld makes 27 from your rack: 30 needed"
    )

    # the same with the 10s: the joker counts 10, 30 is enough
    page.locator("[name=played]").fill("K10 B10 JK")
    page.locator("[name=after]").fill("K10 B10 JK=O10")
    page.locator("[name=melded]").uncheck()
    check(page)
    expect(page.locator("#verdict")).to_contain_text("A legal turn")
    expect(page.locator("#verdict")).to_contain_text("The initial meld makes 30 from the rack")

    # a rearranged table: Budi's O10 frees the joker, which joins the 13s as R13
    page.locator("[name=before]").fill("R10 R11 R12\nK10 B10 JK=O10\nO13 K13 B13")
    page.locator("[name=played]").fill("O10")
    page.locator("[name=after]").fill("R10 R11 R12\nK10 B10 O10\nO13 K13 B13 JK=R13")
    page.locator("[name=melded]").check()
    check(page)
    expect(page.locator("#verdict")).to_contain_text("A legal turn")

    # a rearrangement gone wrong, put back: every tile fits again, K1 goes back to the rack
    page.locator("[name=before]").fill("")
    page.locator("[name=after]").fill("R7 R8\nR9 K5\nB5 O5")
    page.locator("[name=played]").fill("R10 R5 K1")
    check(page, "Put the table back")
    sets = page.locator("#put-back .tile-set")
    expect(sets).to_have_count(2)
    assert sorted(sets.all_inner_texts()) == ["K5 B5 O5 R5", "R7 R8 R9 R10"]
    expect(page.locator("#put-back .back-to-rack")).to_have_text("K1")

    # the other phone enters the game: Andi emptied the rack; Budi R1 R2 = 3, Siti JK K5 =
    # 30 + 5 = 35; Andi scores 38 and the game adds up to 0
    other = second_phone
    english(other)
    other.goto(scoreboard)
    follow(other, other.get_by_role("link", name="Enter a game (the racks left)"))
    other.locator("input[name=ending][value=out]").check()
    other.locator("input[name=player][value=Andi]").check()
    other.locator("input[name=hand_0]").fill("R1 R2")
    other.locator("input[name=hand_1]").fill("JK K5")
    with other.expect_navigation():
        other.get_by_role("button", name="Save round").click()
    expect_totals(other, ["-3", "-35", "38"])

    page.goto(scoreboard)
    expect_totals(page, ["-3", "-35", "38"])
    expect(page.locator("[data-games-won=Andi]")).to_have_text("Andi 1")
    expect(page.locator("[data-games-won=Budi]")).to_have_text("Budi 0")


def test_the_turn_clock_is_off_until_switched_on_and_notes_the_penalty(second_phone: Page):
    phone = second_phone  # its clock is installed: the minute passes at once
    english(phone)
    phone.goto("/tiles")
    clock = phone.locator("[data-turn-clock]")
    expect(clock.locator(".clock")).to_be_hidden()
    phone.clock.run_for(61_000)
    expect(clock.locator(".clock-up")).to_be_hidden()  # off by default: nothing runs
    clock.locator("[data-clock-on]").check()
    expect(clock.locator("[data-clock-left]")).to_have_text("60")
    phone.clock.run_for(30_000)
    expect(clock.locator("[data-clock-left]")).to_have_text("30")
    clock.get_by_role("button", name="Next turn").click()  # the next player's minute
    expect(clock.locator("[data-clock-left]")).to_have_text("60")
    phone.clock.run_for(60_000)
    expect(clock.locator(".clock-up")).to_contain_text("the player draws 3 tiles as a penalty")
