"""Corrections that cannot hurt: the soft delete of the last round, the audit trail,
archived and deleted matches (test client)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from referee.web.store import work
from referee.web.store.extensions import db
from referee.web.store.models import Match, Round, RoundChange, now
from referee.web.views.housekeeping import purge_deleted

from .helpers import (
    errors,
    new_match,
    new_table,
    round_data,
    save_round,
    text,
    to_english,
    totals,
    view_url,
)

TWO = ["Budi", "Siti"]


@pytest.fixture
def table(client):
    client.submit("/language", {"lang": "en", "next": "/"})
    return new_table(client)


def two_rounds(client, table):
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    after_one = totals(client.get(match))
    save_round(client, match, TWO, {"Siti": "2C"}, ending="out", player="Budi")
    return match, after_one


def delete_last(client, match):
    button = client.hidden_fields(match + "rounds/undo")
    return client.submit(match + "rounds/undo", button, fresh=False), button


def test_the_delete_button_opens_a_confirm_page_whose_form_deletes(client, table):
    match, after_one = two_rounds(client, table)
    button = client.hidden_fields(match + "rounds/undo")
    confirm = client.get(match + "rounds/undo", query_string=button)
    assert confirm.status_code == 200
    page = text(confirm)
    assert "Delete round 2?" in page and "until another round is entered" in page
    assert 'method="post"' in page and 'name="round_version"' in page
    assert len(client.get(match).text.split('class="round-no"')) == 3  # nothing deleted yet
    response = client.submit(match + "rounds/undo", button, fresh=False)
    assert response.status_code == 302
    sheet = client.get(match)
    assert totals(sheet) == after_one
    assert "deleted" in text(sheet) and "rounds/2/undelete" in sheet.text


def test_a_deleted_round_stays_stored_and_comes_back_as_the_last_round(client, table, app):
    match, after_one = two_rounds(client, table)
    before = totals(client.get(match))
    delete_last(client, match)
    with app.app_context():
        stored = db.session.scalars(select(Round).where(Round.number == 2)).one()
        assert stored.deleted_at is not None and stored.entry["hands"] == {"Siti": ["2C"]}
    page = client.get(match + "rounds/2")
    assert page.status_code == 200 and "This round is deleted" in text(page)
    button = client.hidden_fields(match + "rounds/2/undelete")
    undelete = client.submit(match + "rounds/2/undelete", button, fresh=False)
    assert undelete.status_code == 302
    assert totals(client.get(match)) == before
    again = client.submit(match + "rounds/2/undelete", button, fresh=False)  # a double tap
    assert again.status_code == 302 and totals(client.get(match)) == before


def test_a_new_round_takes_the_deleted_rounds_number_and_it_is_gone(client, table, app):
    match, _ = two_rounds(client, table)
    delete_last(client, match)
    kept = client.hidden_fields(match + "rounds/2/undelete", match)
    assert kept["round_id"]
    save_round(client, match, TWO, {"Siti": "3C"}, ending="out", player="Budi")
    with app.app_context():
        assert [r.entry["hands"] for r in db.session.scalars(select(Round))] == [
            {"Siti": ["KH"]},
            {"Siti": ["3C"]},
        ]
    refused = client.submit(match + "rounds/2/undelete", kept, fresh=False)
    assert refused.status_code == 409
    assert "Round 2 cannot come back: another round has taken its place" in text(refused)
    assert "rounds/2/undelete" not in client.get(match).text


def test_delete_asks_for_the_round_version(client, table):
    match, _ = two_rounds(client, table)
    button = client.hidden_fields(match + "rounds/undo")
    client.submit(match + "rounds/2/void")  # another phone voids round 2 meanwhile
    response = client.submit(match + "rounds/undo", button, fresh=False)
    assert response.status_code == 409 and "Round 2 was changed on another phone" in text(response)


def changes_of(app, number):
    with app.app_context():
        return [
            (c.what, c.before, c.after, c.via)
            for c in db.session.scalars(
                select(RoundChange).where(RoundChange.number == number).order_by(RoundChange.id)
            )
        ]


def test_every_change_is_kept_in_the_audit_trail_with_the_link_not_its_key(client, table, app):
    match, _ = two_rounds(client, table)
    client.submit(
        match + "rounds/2/edit",
        {"hand_1": "5C", "ending": "out", "player": "Budi", "action": "save"},
    )
    client.submit(match + "rounds/2/void")
    client.submit(match + "rounds/2/restore")
    delete_last(client, match)
    client.submit(match + "rounds/2/undelete")
    one, five, void = {"Siti": ["2C"]}, {"Siti": ["5C"]}, {"end": "void"}
    kept = changes_of(app, 2)
    assert [what for what, *_ in kept] == [
        "corrected",
        "voided",
        "restored",
        "deleted",
        "undeleted",
    ]
    assert kept[0][1]["hands"] == one and kept[0][2]["hands"] == five
    assert kept[1][1]["hands"] == five and kept[1][2] == void
    assert kept[2][1] == void and kept[2][2]["hands"] == five
    assert kept[3][1]["hands"] == five and kept[3][2] is None
    assert kept[4][1] is None and kept[4][2]["hands"] == five
    assert {via for *_, via in kept} == {"t"}
    assert changes_of(app, 1) == []
    page = text(
        client.get(view_url(client, table) + match.split("/t/", 1)[1].split("/", 1)[1] + "rounds/2")
    )
    assert "Changes to this round" in page
    for words in (
        "Corrected",
        "Voided",
        "Restored (void undone)",
        "Deleted",
        "Restored (delete undone)",
    ):
        assert words in page
    assert "Hand of Siti: 2C → 5C" in page and "from the edit link" in page
    assert "Budi went out → void" not in page  # a void shows what was recorded, not a diff
    assert "void (everyone scores 0)" not in page.split("Voided", 1)[0]


def test_the_trail_of_a_round_that_took_a_deleted_rounds_number_starts_afresh(client, table):
    match, _ = two_rounds(client, table)
    delete_last(client, match)
    save_round(client, match, TWO, {"Siti": "3C"}, ending="out", player="Budi")
    assert "Changes to this round" not in text(client.get(match + "rounds/2"))


def test_a_rename_reaches_the_audit_trail(client, table, app):
    match, _ = two_rounds(client, table)
    client.submit(
        match + "rounds/2/edit",
        {"hand_1": "5C", "ending": "out", "player": "Budi", "action": "save"},
    )
    with app.app_context():
        budi = next(p for p in db.session.get(Match, 1).table.players if p.name == "Budi")
        player_id = budi.id
    settings = table + "settings"
    response = client.submit(
        f"{settings}/players/{player_id}", {f"p{player_id}-name": "Bude"}, page=settings
    )
    assert response.status_code == 302
    kept = changes_of(app, 2)
    assert kept[0][1]["out"] == "Bude" and kept[0][2]["out"] == "Bude"


# -- whole matches ------------------------------------------------------------------------


def test_an_archived_match_leaves_the_list_and_a_filter_shows_it(client, table):
    match, _ = two_rounds(client, table)
    assert client.submit(match + "archive").status_code == 302
    listing = text(client.get(table))
    assert match.split("/")[-2] and f'href="{match}"' not in listing
    assert "Archived matches (1)" in listing
    archived = client.get(table + "?show=archived")
    assert f'href="{match}"' in archived.text
    assert client.get(match).status_code == 200  # still opens, still counted
    assert "Budi" in text(client.get(table + "stats"))
    client.submit(match + "unarchive")
    assert f'href="{match}"' in client.get(table).text


def test_a_deleted_match_is_restorable_and_statistics_leave_it_out(client, table):
    match, _ = two_rounds(client, table)
    stats_before = text(client.get(table + "stats"))
    assert "Budi" in stats_before
    response = client.submit(match + "delete")
    assert response.status_code == 302
    assert client.get(match).status_code == 404
    page = text(client.get(table))
    assert "Recently deleted" in page and f'href="{match}"' not in page
    assert "Budi" not in text(client.get(table + "stats")).split("<main", 1)[-1].split("Players")[0]
    assert client.submit(match + "undelete").status_code == 302
    assert client.get(match).status_code == 200
    assert 'id="recently-deleted"' not in client.get(table).text


def test_delete_match_names_the_match_version(client, table):
    match, _ = two_rounds(client, table)
    button = client.hidden_fields(match + "delete", match)
    save_round(client, match, TWO, {"Siti": "3C"}, ending="out", player="Budi")
    response = client.submit(match + "delete", button, fresh=False)
    assert response.status_code == 409
    assert client.get(match).status_code == 200


def test_deleted_matches_are_purged_after_30_days(client, table, app):
    match, _ = two_rounds(client, table)
    client.submit(match + "delete")
    with app.app_context():
        stored = db.session.scalars(select(Match)).one()
        stored.deleted_at = now() - timedelta(days=29)
        work.commit(stored)
        assert purge_deleted() == []
        work.commit()
    assert client.submit(match + "undelete").status_code == 302
    client.submit(match + "delete")
    with app.app_context():
        stored = db.session.scalars(select(Match)).one()
        stored.deleted_at = now() - timedelta(days=31)
        work.commit(stored)
    assert 'id="recently-deleted"' not in client.get(table).text
    assert client.submit(match + "undelete").status_code == 404
    result = app.test_cli_runner().invoke(args=["purge-deleted"])
    assert result.exit_code == 0 and "1 deleted matches purged" in result.output
    with app.app_context():
        assert db.session.scalars(select(Match)).all() == []
        assert db.session.scalars(select(Round)).all() == []
        assert db.session.scalars(select(RoundChange)).all() == []


def test_the_view_link_cannot_archive_or_delete(client, table):
    match, _ = two_rounds(client, table)
    viewer = view_url(client, table) + "m/1/"
    assert "Delete match" not in text(client.get(viewer))
    assert client.submit(viewer + "delete").status_code in (404, 405)


def rounds_of(client, match):
    return json.loads(client.get(match + "export").data)["rounds"]


def two_rounds_then_a_big_correction(client, table):
    match = new_match(client, table, "remi", TWO, target=100)
    for hand in ("KH", "2C"):
        response = save_round(client, match, TWO, {"Siti": hand}, ending="out", player="Budi")
        assert response.status_code == 302, errors(response)
    big = round_data(
        TWO,
        {"Siti": "KH QH JH KD QD JD KC QC JC KS"},
        ending="out",
        player="Budi",
        for_round=1,
    )
    return match, big


def test_a_correction_that_ends_the_match_offers_to_remove_the_later_rounds(client, table):
    to_english(client)
    match, big = two_rounds_then_a_big_correction(client, table)
    response = client.submit(match + "rounds/1/edit", big)
    assert response.status_code == 409
    page = text(response)
    assert "the match ends after round 1, but round 2 was played after it" in page
    assert 'value="save_cut"' in response.text and "data-confirm" in response.text
    assert "Save the correction and remove round 2" in page
    assert 'value="KH QH JH KD QD JD KC QC JC KS"' in response.text  # the typed correction
    assert len(rounds_of(client, match)) == 2  # nothing saved yet

    done = client.submit(match + "rounds/1/edit", {**big, "action": "save_cut"})
    assert done.status_code == 302, errors(done)
    rounds = rounds_of(client, match)
    assert len(rounds) == 1 and len(rounds[0]["hands"]["Siti"]) == 10
    assert "Round 2 was removed." in text(client.get(match))


def test_removing_later_rounds_needs_the_correction_to_end_the_match(client, table):
    match, _big = two_rounds_then_a_big_correction(client, table)
    small = round_data(TWO, {"Siti": "QH"}, ending="out", player="Budi", action="save_cut")
    response = client.submit(match + "rounds/1/edit", small)
    assert len(rounds_of(client, match)) == 2  # nothing removed
    assert response.status_code == 200 and "save_cut" not in response.text


def test_delete_last_round_names_the_round(client, table):
    to_english(client)
    match = new_match(client, table, "remi", TWO, target=200)
    for hand in ("KH", "2C"):
        save_round(client, match, TWO, {"Siti": hand}, ending="out", player="Budi")
    page = text(client.get(match))
    assert "Delete last round" in page and 'data-confirm="Delete round 2?"' in page
    assert "Undo the last round" not in page
    shown = text(client.get(match + "rounds/1"))
    assert "Void round (scores 0)" in shown and "Void round 1? Everyone scores 0" in shown


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [900, 5000, 100_000])
def test_the_round_json_editor_refuses_deep_nesting_or_drops_it(client, app, depth):
    to_english(client)
    table = new_table(client)
    match = new_match(client, table, "gin", TWO, target=100)
    save_round(client, match, TWO, {}, ending="draw")
    body = '{"end": "draw", "x": ' + deep(depth) + "}"
    response = client.submit(match + "rounds/1/json", {"entry": body})
    if response.status_code == 302:  # parsed (900 deep may be): the unknown key is dropped
        assert depth == 900
        with app.app_context():
            assert db.session.scalars(db.select(Round)).one().entry == {"end": "draw"}
    else:
        assert response.status_code == 400
        assert "nested too deeply" in " ".join(errors(response))
    for url in (match, match + "rounds/1", match + "rounds/1/json", table, table + "stats"):
        assert client.get(url).status_code == 200, url
