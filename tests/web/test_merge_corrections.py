"""A correction sent from a form another phone made stale is merged, never reverting the
other phone's correction; test client, two phones with their own cookies."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from referee.web.store.extensions import db
from referee.web.store.models import HouseRules, Match, Round, RoundChange

from .helpers import new_match, new_table, save_round, text
from .pageform import PageForm, as_posted

FOUR = ["Budi", "Réni", "Siti", "Andi"]


@pytest.fixture
def phones(app, client):
    client.submit("/language", {"lang": "en", "next": "/"})
    other = app.test_client()
    other.submit("/language", {"lang": "en", "next": "/"})
    return client, other


@pytest.fixture
def round_four(phones):
    """A match of four whose round 4 Budi went out of, Réni holding KS and Siti 9C."""
    one, _three = phones
    table = new_table(one, players=", ".join(FOUR))
    match = new_match(one, table, "remi", FOUR, target=200)
    for hands in ({"Réni": "2C"}, {"Réni": "3C"}, {"Réni": "4C"}):
        saved = save_round(one, match, FOUR, {**hands, "Siti": "5H", "Andi": "6H"}, player="Budi")
        assert saved.status_code == 302
    saved = save_round(one, match, FOUR, {"Réni": "KS", "Siti": "9C", "Andi": "4S"}, player="Budi")
    assert saved.status_code == 302
    return match, match + "rounds/4/edit"


def stored_hands(app):
    with app.app_context():
        stored = db.session.scalars(select(Round).where(Round.number == 4)).one()
        return stored.entry["hands"]


def trail(app):
    with app.app_context():
        return [
            (c.before["hands"], c.after["hands"]) for c in db.session.scalars(select(RoundChange))
        ]


def test_a_stale_correction_is_merged_and_reapplied_without_reverting_the_other(
    app, phones, round_four
):
    one, three = phones
    match, edit = round_four
    form_one, form_three = one.get(edit).text, three.get(edit).text
    assert one.submit(edit, as_posted(form_one, hand_1="KS 2D"), fresh=False).status_code == 302
    conflict = three.submit(edit, as_posted(form_three, hand_2="3H 4H"), fresh=False)
    assert conflict.status_code == 409
    page = text(conflict)
    # side by side: the audit trail's line of the other phone, and what this phone typed
    assert "Changed on the other phone" in page and "Hand of Réni: KS → KS 2D" in page
    assert "Typed on this phone" in page and "Hand of Siti: 9C → 3H 4H" in page
    assert "choose which to keep" not in page  # nothing both phones changed
    kept = PageForm(conflict.text).fields
    assert (kept["hand_1"], kept["hand_2"]) == ("KS 2D", "3H 4H")  # theirs kept, mine applied
    assert stored_hands(app) == {"Réni": ["KS", "2D"], "Siti": ["9C"], "Andi": ["4S"]}
    again = three.submit(edit, as_posted(conflict.text), fresh=False)  # one tap on save
    assert again.status_code == 302
    assert stored_hands(app) == {"Réni": ["KS", "2D"], "Siti": ["3H", "4H"], "Andi": ["4S"]}
    old = {"Réni": ["KS"], "Siti": ["9C"], "Andi": ["4S"]}
    assert trail(app) == [
        (old, {**old, "Réni": ["KS", "2D"]}),
        (
            {**old, "Réni": ["KS", "2D"]},
            {"Réni": ["KS", "2D"], "Siti": ["3H", "4H"], "Andi": ["4S"]},
        ),
    ]
    assert "KS 2D → KS" not in text(one.get(match + "rounds/4"))


@pytest.mark.parametrize(("pick", "kept"), [("theirs", ["KS", "2D"]), ("mine", ["QH"])])
def test_a_hand_both_phones_changed_is_a_choice_never_taken_silently(
    app, phones, round_four, pick, kept
):
    one, three = phones
    _match, edit = round_four
    form_one, form_three = one.get(edit).text, three.get(edit).text
    assert one.submit(edit, as_posted(form_one, hand_1="KS 2D"), fresh=False).status_code == 302
    conflict = three.submit(edit, as_posted(form_three, hand_1="QH", hand_2="3H 4H"), fresh=False)
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Both phones changed these: choose which to keep" in page
    assert "Keep theirs: KS 2D" in page and "Keep mine: QH" in page
    unchosen = three.submit(edit, as_posted(conflict.text), fresh=False)
    assert unchosen.status_code == 409 and "choose which to keep for each" in text(unchosen)
    assert stored_hands(app)["Réni"] == ["KS", "2D"] and stored_hands(app)["Siti"] == ["9C"]
    chosen = three.submit(edit, as_posted(unchosen.text, **{"keep-hand_1": pick}), fresh=False)
    assert chosen.status_code == 302
    assert stored_hands(app) == {"Réni": kept, "Siti": ["3H", "4H"], "Andi": ["4S"]}


def test_a_forged_base_is_not_believed_every_difference_becomes_a_choice(app, phones, round_four):
    """The form's record of what it was loaded from is signed: a changed one counts as none."""
    one, three = phones
    _match, edit = round_four
    form_one, form_three = one.get(edit).text, three.get(edit).text
    assert one.submit(edit, as_posted(form_one, hand_1="KS 2D"), fresh=False).status_code == 302
    forged = as_posted(form_three, hand_2="3H 4H")
    forged["loaded"] = re.sub(r"\.[^.]+$", ".forged", forged["loaded"])
    conflict = three.submit(edit, forged, fresh=False)
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Keep theirs: KS 2D" in page and "Keep mine: KS" in page  # Réni's hand: a choice
    assert "Keep theirs: 9C" in page and "Keep mine: 3H 4H" in page


def test_a_stale_turn_correction_keeps_the_other_phones_correction_of_the_same_turn(app, phones):
    """Phone 1 adds 4S to Andi's set in turn 2; phone 3, on the same turn's form opened
    before, only adds Andi's discard: after one tap both stand."""
    one, three = phones
    match = new_match(one, new_table(one), "remi", ["Budi", "Siti", "Andi"], target=200)
    for fields in (
        {"player": "Siti", "melds": "7S 8S 9S"},
        {"player": "Andi", "melds": "4H 4D 4C"},
    ):
        live = one.submit(match + "live/turn", {**fields, "action": "save"})
        assert live.status_code == 302
    url = match + "rounds/1/turns/2"
    form_one, form_three = one.get(url).text, three.get(url).text
    saved = one.submit(url, turn_posted(form_one, url, melds="4H 4D 4C 4S"), fresh=False)
    assert saved.status_code == 302
    conflict = three.submit(url, turn_posted(form_three, url, discard="KD"), fresh=False)
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Turn 2: Andi · meld 4H 4D 4C → Andi · meld 4H 4D 4C 4S" in page
    assert "Discarded (optional): – → KD" in page
    again = three.submit(url, turn_posted(conflict.text, url), fresh=False)
    assert again.status_code == 302, text(again)
    with app.app_context():
        stored = db.session.scalars(select(Round)).one()
        assert stored.entry["turns"][1] == {
            "player": "Andi",
            "melds": [["4H", "4D", "4C", "4S"]],
            "discard": "KD",
        }


def turn_posted(body, url, **changes):
    return {**PageForm(body, action=url).fields, "action": "save", **changes}


def test_a_stale_setup_keeps_the_target_another_phone_set(app, phones):
    """Before the first round: phone 1 sets the target to 50, phone 3 (form opened before)
    makes Siti the first dealer; after one tap the match plays to 50 with Siti dealing."""
    one, three = phones
    match = new_match(one, new_table(one), "remi", ["Budi", "Siti", "Andi"], target=200)
    url = match + "setup"
    form_one, form_three = one.get(url).text, three.get(url).text
    saved = one.submit(url, setup_posted(form_one, url, target="50"), fresh=False)
    assert saved.status_code == 302
    conflict = three.submit(url, setup_posted(form_three, url, first_dealer="Siti"), fresh=False)
    assert conflict.status_code == 409
    page = text(conflict)
    assert "Changed on the other phone" in page and "Target: 200 → 50" in page
    assert "First dealer: Budi → Siti" in page
    again = three.submit(url, setup_posted(conflict.text, url), fresh=False)
    assert again.status_code == 302, text(again)
    with app.app_context():
        stored = db.session.scalars(select(Match)).one()
        assert (stored.options["target"], stored.first_dealer) == (50, "Siti")


def setup_posted(body, url, **changes):
    return {**PageForm(body, action=url).fields, **changes}


def test_a_stale_edit_of_house_rules_keeps_the_bonus_another_phone_changed(app, phones):
    """Phone 1 lowers the gin bonus of "Oma" to 15; phone 3 (form opened before) only sets the
    knock limit to 7; after one tap the set has both."""
    one, three = phones
    table = new_table(one, players="Budi, Siti")
    made = one.submit(
        table + "house-rules/new/gin",
        {"name": "Oma", "target": "100", "knock_limit": "10", "gin_bonus": "25"},
    )
    assert made.status_code == 302
    with app.app_context():
        url = f"{table}house-rules/{db.session.scalars(select(HouseRules)).one().id}"
    form_one, form_three = one.get(url).text, three.get(url).text
    assert (
        one.submit(url, setup_posted(form_one, url, gin_bonus="15"), fresh=False).status_code == 302
    )
    conflict = three.submit(url, setup_posted(form_three, url, knock_limit="7"), fresh=False)
    assert conflict.status_code == 409
    assert "→ 15" in text(conflict) and "10 → 7" in text(conflict)
    again = three.submit(url, setup_posted(conflict.text, url), fresh=False)
    assert again.status_code == 302, text(again)
    with app.app_context():
        options = db.session.scalars(select(HouseRules)).one().options
        assert (options["gin_bonus"], options["knock_limit"]) == (15, 7)


def test_a_final_table_grown_on_another_phone_comes_back_whole_in_the_merged_form(app, phones):
    """500 Rum: phone 1 adds three melds (more rows than phone 3's form has); phone 3 only
    corrects Siti's hand. The merged form has room for all seven melds and keeps them."""
    one, three = phones
    match = new_match(one, new_table(one, players="Budi, Siti"), "rummy500", ["Budi", "Siti"])
    melds = [("Budi", "7S 8S 9S"), ("Siti", "KH KD KC"), ("Budi", "AH 2H 3H"), ("Budi", "4C 4D 4H")]
    first = {"hand_1": "AS 5D", "ending": "out", "player": "Budi", "action": "save"}
    for i, (by, cards) in enumerate(melds):
        first[f"table_by_{i}"], first[f"table_cards_{i}"] = by, cards
    first.update(layoff_by_0="Siti", layoff_cards_0="10S", layoff_onto_0="1")
    assert one.submit(match + "rounds/new", first).status_code == 302
    edit = match + "rounds/1/edit"
    form_one, form_three = one.get(edit).text, three.get(edit).text
    added = {"meld_rows": "10"}
    for i, (by, cards) in enumerate(
        [("Siti", "QS QH QD"), ("Budi", "JC JD JH"), ("Siti", "5C 6C 7C")], start=4
    ):
        added[f"table_by_{i}"], added[f"table_cards_{i}"] = by, cards
    assert one.submit(edit, as_posted(form_one, **added), fresh=False).status_code == 302
    conflict = three.submit(edit, as_posted(form_three, hand_1="AS 6D"), fresh=False)
    assert conflict.status_code == 409
    kept = PageForm(conflict.text).fields
    assert (kept["table_cards_6"], kept["table_by_6"], kept["hand_1"]) == (
        "5C 6C 7C",
        "Siti",
        "AS 6D",
    )
    assert three.submit(edit, as_posted(conflict.text), fresh=False).status_code == 302
    with app.app_context():
        entry = db.session.scalars(select(Round)).one().entry
    assert [meld["cards"][0] for meld in entry["table"]] == [
        "7S",
        "KH",
        "AH",
        "4C",
        "QS",
        "JC",
        "5C",
    ]
    assert entry["table"][0]["layoffs"] == {"Siti": ["10S"]}
    assert entry["hands"] == {"Siti": ["AS", "6D"]}


def test_a_stale_indian_deal_correction_keeps_the_count_another_phone_corrected(app, phones):
    """Siti showed; phone 1 corrects Budi's count 30 to 40, phone 3 (form opened before)
    only says Andi dropped in the middle, not first: after one tap both stand."""
    one, three = phones
    table = new_table(one, players="Budi, Siti, Andi")
    options = {"format": "pool101", "decks": "", "wild": "y", "rejoin": "y", "deals": "2"}
    match = new_match(one, table, "indian", ["Budi", "Siti", "Andi"], dealer="Budi", **options)
    first = {"ending": "show", "player": "Siti", "cut": "5C", "hand_0": "30", "fate_2": "first"}
    assert one.submit(match + "rounds/new", {**first, "action": "save"}).status_code == 302
    edit = match + "rounds/1/edit"
    form_one, form_three = one.get(edit).text, three.get(edit).text
    assert one.submit(edit, as_posted(form_one, hand_0="40"), fresh=False).status_code == 302
    conflict = three.submit(edit, as_posted(form_three, fate_2="middle"), fresh=False)
    assert conflict.status_code == 409
    assert "Hand of Budi: 30 points → 40 points" in text(conflict)
    assert three.submit(edit, as_posted(conflict.text), fresh=False).status_code == 302
    with app.app_context():
        entry = db.session.scalars(select(Round)).one().entry
    assert (entry["hands"]["Budi"], entry["drops"]) == (40, {"Andi": "middle"})


def test_a_round_the_form_cannot_show_any_more_is_not_merged_and_stays_stale(app):
    """Another phone made the round one the quick form cannot show (edited as JSON, with
    turns): nothing is merged, the page says so, and the form still names the old version,
    so saving it again is a conflict again rather than an overwrite."""
    from wtforms import Form, HiddenField, StringField

    from referee.web.views import merges

    class Shown(Form):
        round_version = HiddenField()
        hand_0 = StringField("Hand")

    posted = {"round_version": "3", "hand_0": "3H 4H"}
    with app.test_request_context(method="POST", data=posted):
        from flask import request

        form = Shown(request.form)
        form.round_version.data = "4"  # brought up to date by the view's conflict check
        forms = merges.MergeForms(lambda rows, posted: Shown(), lambda form, entry: False, ["Budi"])
        kept, shown = merges.merge_posted(form, forms, None, None, now={"turns": []})
    assert shown.unshowable and not shown.choices and not shown.typed
    assert (kept.round_version.data, kept.hand_0.data) == ("3", "3H 4H")
