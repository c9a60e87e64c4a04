"""What the drafts kept on a phone rely on from the host (static/js/drafts.js; the browser side
is tests/web/test_browser_drafts.py): a name per form and whether a one-time key's save landed."""

from __future__ import annotations

import re

from .helpers import new_match, new_table, save_round

TWO = ["Budi", "Siti"]


def drafts(page: str) -> dict[str, bool]:
    """Each draft form's name on a page, and whether the page answers that form's own post."""
    return {
        name: bool(posted)
        for name, posted in re.findall(r'data-draft="([^"]+)"( data-draft-posted)?', page)
    }


def test_every_recording_form_has_a_draft_name_per_table_and_page_without_the_key(client):
    table = new_table(client)
    key = table.rstrip("/").rsplit("/", 1)[1]
    match = new_match(client, table, "remi", TWO, target=100)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")  # seating opens
    for page, name in [
        (match + "rounds/new", "/m/1/rounds/new"),
        (match + "rounds/1/edit", "/m/1/rounds/1/edit"),
        (match + "rounds/1/json", "/m/1/rounds/1/json"),
        (match + "seating", "/m/1/seating/join"),
        (match + "seating", "/m/1/seating/leave"),
        (table + "settings", "/settings/name"),
        (table + "settings", "/settings/players/1"),
        (table, "/players"),
        (table + "new/remi", "/new/remi"),
    ]:
        found = drafts(client.get(page).text)
        assert any(n.endswith(name) and n.startswith("t") for n in found), (page, found)
        assert not any(key in n for n in found)  # the table's secret stays out of storage
        assert not any(found.values())  # a page opened, not a post answered


def test_a_refused_post_answers_with_its_draft_marked_posted(client):
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=100)
    # Nobody named as the one who went out: refused, the page shows what was sent.
    response = client.submit(
        match + "rounds/new", {"ending": "out", "hand_1": "KH", "action": "save"}
    )
    assert response.status_code == 400
    found = drafts(response.text)
    assert [posted for name, posted in found.items() if name.endswith("/rounds/new")] == [True]


def test_a_receipt_says_whether_a_one_time_keys_save_landed(client):
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=100)
    sent = client.hidden_fields(match + "rounds/new")
    once = sent["once"]
    assert client.get(f"/receipts/{once}").json == {"saved": False}
    data = {**sent, "ending": "out", "player": "Budi", "hand_1": "KH", "action": "save"}
    assert client.submit(match + "rounds/new", data, fresh=False).status_code == 302
    answer = client.get(f"/receipts/{once}")
    assert answer.json == {"saved": True} and answer.headers["Cache-Control"] == "no-store"
    assert client.get("/receipts/" + "x" * 80).json == {"saved": False}  # not a key at all
