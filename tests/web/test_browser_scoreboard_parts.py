"""A phone following a long score sheet gets only the parts that changed, in a real browser:
the rows it already shows stay the same elements, the new round appears, the totals follow;
a change of the page's frame (the first round) brings the whole page.

Remi: the player who goes out scores what the other holds (2C is 2)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_browser import english

pytestmark = pytest.mark.browser

LIVE_WITHIN_MS = 4_000
TWO = ["Budi", "Siti"]


def save(page: Page, path: str, etag: str, out: str, holder: str) -> str:
    answer = page.request.post(
        f"{path}/rounds",
        data={"out": out, "hands": {holder: ["2C"]}},
        headers={"If-Match": f'"{etag}"'},
    )
    assert answer.status == 201, answer.text()
    return str(answer.json()["etag"])


def test_a_phone_gets_the_new_round_as_parts(page: Page):
    english(page)
    keys = page.request.post("/api/v1/tables", data={"name": "Meja", "players": TWO}).json()
    made = page.request.post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        data={"rules": "remi", "players": TWO, "first_dealer": "Budi"},
    ).json()
    path, etag = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]
    page.goto(f"/v/{keys['view_key']}/m/{made['id']}/")
    expect(page.locator(".round-no")).to_have_count(0)
    # The first round changes the frame (a sheet where there was none): the page comes whole.
    etag = save(page, path, etag, "Siti", "Budi")  # Siti 2
    expect(page.locator(".round-no")).to_have_count(1, timeout=LIVE_WITHIN_MS)
    for number in range(2, 13):  # Budi out in the even rounds, Siti in the odd: 12 each
        etag = save(page, path, etag, TWO[number % 2], TWO[(number + 1) % 2])
    expect(page.locator(".round-no")).to_have_count(12, timeout=LIVE_WITHIN_MS)
    page.evaluate("document.querySelector('[data-part=\"sheet/r1\"]').dataset.seen = 'kept'")
    patches: list[str] = []
    page.on(
        "response",
        lambda answer: (
            patches.append(answer.headers.get("live-patch", ""))
            if answer.url.endswith(f"/m/{made['id']}/")
            else None
        ),
    )
    # Round 13: Siti out, Budi holds 2C: Siti 14 (she went out in 1, 3, ..., 13).
    save(page, path, etag, "Siti", "Budi")
    expect(page.locator(".round-no")).to_have_count(13, timeout=LIVE_WITHIN_MS)
    expect(page.locator(".total-points")).to_have_text(["12", "14"])
    expect(page.locator("tr.total-row td")).to_have_text(["12", "14"])
    expect(page.locator("details.entry")).to_have_count(13)
    assert page.locator('[data-part="sheet/r1"]').get_attribute("data-seen") == "kept"
    assert patches == ["1"]
    # The parts are in document order: row 13 last before the totals, entry 13 last.
    numbers = page.locator("table.sheet .round-no").all_inner_texts()
    assert numbers == [str(n) for n in range(1, 14)]
    assert page.locator("details.entry").last.get_attribute("id") == "round-13"
