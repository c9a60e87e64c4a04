"""Fixes from the second player QA pass: hostile imports, limits, statistics, wording."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee import web
from referee.web.extensions import db
from referee.web.models import Match, Round

from .helpers import errors, new_match, new_table, save_round, text
from .test_transfer import DOC

TWO = ["Budi", "Siti"]


@pytest.fixture(autouse=True)
def english(client):
    client.submit("/language", {"lang": "en", "next": "/"})


def plain(response) -> str:
    return re.sub(r"<[^>]+>", "", text(response))


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def imported(client, document: str):
    table = new_table(client, players="")
    return table, client.submit(table + "import", {"document": document})


# -- P1: deeply nested documents ----------------------------------------------------------------


def test_an_import_with_a_deep_unknown_key_stores_only_the_canonical_round(client, app):
    raw = json.dumps(DOC)[:-3] + ', "x": ' + deep(900) + "}]}"
    assert json.loads(raw)["rounds"][0]["x"]
    table, response = imported(client, raw)
    assert response.status_code == 302, errors(response)
    match = response.headers["Location"]
    for url in (match, match + "export", match + "rounds/1", match + "rounds/1/json"):
        assert client.get(url).status_code == 200, url
    for url in (table, table + "stats"):
        assert client.get(url).status_code == 200, url
    assert json.loads(client.get(match + "export").data) == DOC
    with app.app_context():
        assert "x" not in db.session.scalars(db.select(Round)).one().entry


@pytest.mark.parametrize("depth", [5000, 100_000])
def test_an_import_nested_too_deeply_is_refused(client, depth):
    _, response = imported(client, deep(depth))
    assert response.status_code == 400
    assert "nested too deeply" in " ".join(errors(response))


@pytest.mark.parametrize("depth", [900, 5000, 100_000])
def test_the_round_json_editor_refuses_deep_nesting_or_drops_it(client, app, depth):
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


def stored_match(app, url: str) -> Match:
    return db.session.get(Match, int(url.rstrip("/").rsplit("/", 1)[1]))


def test_rounds_stored_before_imports_were_checked_do_not_break_the_table(client, app):
    table = new_table(client)
    deep_one = new_match(client, table, "gin", TWO, target=100)
    save_round(client, deep_one, TWO, {}, ending="draw")
    bad_one = new_match(client, table, "gin", TWO, target=100)
    save_round(client, bad_one, TWO, {}, ending="draw")
    other = new_match(client, table, "gin", TWO, target=100)
    with app.app_context():
        stored_match(app, deep_one).rounds[0].entry = {"end": "draw", "x": json.loads(deep(900))}
        stored_match(app, bad_one).rounds[0].entry = {"end": "draw", "hands": json.loads(deep(50))}
        db.session.commit()
    page = client.get(table)
    assert page.status_code == 200 and text(page).count("needs a correction") == 1
    assert client.get(table + "stats").status_code == 200
    for url in (deep_one, deep_one + "export", deep_one + "rounds/1", deep_one + "rounds/1/json"):
        assert client.get(url).status_code == 200, url
    board = client.get(bad_one)
    assert board.status_code == 200 and "cannot replay" in text(board)
    assert client.get(bad_one + "rounds/1").status_code == 200
    assert client.get(bad_one + "rounds/1/json").status_code == 200
    assert client.get(bad_one + "rounds/1/edit").status_code == 302  # to the JSON editor
    assert client.get(other).status_code == 200


# -- P1: limits on an import, and no replay more than needed -------------------------------------

QUICK = {"out": "Budi", "at_once": False, "hands": {"Siti": ["KS"], "Andi": ["8C"]}}


def many_rounds(count: int) -> str:
    doc = DOC | {"options": {"target": 100000}, "rounds": [QUICK] * count}
    return json.dumps(doc)


def test_an_import_of_too_many_rounds_is_refused(client):
    _, response = imported(client, many_rounds(501))
    assert response.status_code == 400
    assert "at most 500 rounds" in " ".join(errors(response))


def test_an_import_of_500_rounds_is_taken(client):
    _, response = imported(client, many_rounds(500))
    assert response.status_code == 302, errors(response)


def test_the_table_pages_replay_each_match_once(client, monkeypatch):
    from referee.web import matchlog

    calls = []
    engine = matchlog.replay
    monkeypatch.setattr(matchlog, "replay", lambda doc: calls.append(1) or engine(doc))
    matchlog.REPLAYS.clear()
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    save_round(client, match, TWO, {"Siti": "KH"}, ending="out", player="Budi")
    calls.clear()  # saving replays the match to check it, and for its stored summary
    for url in (table, table + "stats", match, match + "rounds/1", table):
        assert client.get(url).status_code == 200
    assert len(calls) == 0  # the score sheet reuses the replay made for the summary
    matchlog.REPLAYS.clear()
    for url in (table, table + "stats", table + "matches"):
        assert client.get(url).status_code == 200
    assert len(calls) == 0  # the list and the statistics read the stored summaries
    for url in (match, match + "rounds/1", match):
        assert client.get(url).status_code == 200
    assert len(calls) == 1


# -- P2: what the app refuses elsewhere, an import refuses too -----------------------------------


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"players": ["Budi", "Siti", "budi"], "rounds": []}, "written twice"),
        ({"options": {"target": 10**400}}, "target from 1 to 100000"),
        ({"options": {"target": 0}}, "target from 1 to 100000"),
    ],
)
def test_an_import_keeps_to_the_limits_of_the_forms(client, change, fragment):
    _, response = imported(client, json.dumps(DOC | change))
    assert response.status_code == 400
    assert fragment in " ".join(errors(response))


def test_an_import_keeps_to_the_number_of_rounds_of_the_setup(client):
    doc = DOC | {"rules": "remi-indonesia", "options": {"hands": 101}, "rounds": []}
    _, response = imported(client, json.dumps(doc))
    assert response.status_code == 400
    assert "number of rounds from 1 to 100" in " ".join(errors(response))


def test_an_import_does_not_split_a_player_by_spelling(client):
    table = new_table(client, players="budi")
    response = client.submit(table + "import", {"document": json.dumps(DOC)})
    assert response.status_code == 400
    assert "same spelling" in " ".join(errors(response))


@pytest.mark.parametrize("where", ["players", "out"])
def test_a_huge_name_is_never_echoed_in_full(client, where):
    huge = "B" * 300_000
    if where == "players":
        doc = DOC | {"players": [huge, "Siti"], "rounds": []}
    else:
        doc = DOC | {"rounds": [{"out": huge, "hands": {}}]}
    _, response = imported(client, json.dumps(doc))
    assert response.status_code == 400 and errors(response)
    assert len(" ".join(errors(response))) < 300


# -- P2: cards taken from the discard pile are shown ---------------------------------------------


def live_turn(client, match, **fields):
    data = {key: str(value) for key, value in fields.items()}
    data.setdefault("action", "save")
    return client.submit(match + "live/turn", data)


def test_cards_taken_from_the_discard_pile_are_shown(client):
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    assert live_turn(client, match, player="Budi", discard="KD", turns_before=0).status_code == 302
    response = live_turn(
        client, match, player="Siti", took_discard="KD", melds="KD KH KS", turns_before=1
    )
    assert response.status_code == 302, errors(response)
    taken = re.compile(
        r'took\s*(</div>)?\s*<span class="cards"><span class="card red ?" data-code="KD"'
    )
    assert taken.search(client.get(match + "live").get_data(as_text=True))
    assert taken.search(client.get(match + "rounds/1").get_data(as_text=True))


# -- P2/P3: keyboard, Back, wording ---------------------------------------------------------------


def test_picker_cards_are_not_tab_stops_and_the_save_bar_leaves_room(client):
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    body = client.get(match + "live").get_data(as_text=True)
    picks = re.findall(r'<button type="button"[^>]*class="pick[^>]*>', body)
    assert picks and all('tabindex="-1"' in pick for pick in picks)
    css = (Path(web.__file__).parent / "static" / "css" / "app.css").read_text()
    assert re.search(r"html \{[^}]*scroll-padding-bottom", css)


def test_round_and_turn_forms_do_not_restore_stale_values(client):
    table = new_table(client)
    remi = new_match(client, table, "remi", TWO, target=200)
    gin = new_match(client, table, "gin", TWO, target=100)
    for url in (remi + "rounds/new", remi + "live", gin + "rounds/new"):
        forms = re.findall(r'<form method="post"[^>]*>', client.get(url).get_data(as_text=True))
        round_forms = [f for f in forms if "language" not in f and "/void" not in f]
        assert round_forms and all('autocomplete="off"' in f for f in round_forms), url


def test_a_closed_remi_indonesia_round_says_closed(client):
    table = new_table(client)
    match = new_match(client, table, "remi-indonesia", TWO, target=500)
    data = {"hand_0": "", "hand_1": "KD QC", "ending": "closed", "player": "Budi"}
    data |= {"closing_card": "AS", "melds_0": "2H 3H 4H", "action": "save"}
    assert client.submit(match + "rounds/new", data).status_code == 302
    assert "closed: Budi" in plain(client.get(match + "rounds/1"))
    client.submit("/language", {"lang": "id", "next": "/"})
    page = plain(client.get(match + "rounds/1"))
    assert "menutup: Budi" in page and "habis: Budi" not in page


# -- P2: statistics per ruleset, of matches played ----------------------------------------------


def stats_groups(client, url):
    """{ruleset id: {player: [cells]}} from the statistics page."""
    body = text(client.get(url + "stats"))
    groups = {}
    for part in body.split('data-rules="')[1:]:
        rules = part.split('"')[0]
        rows = {}
        for row in part.split("</section>")[0].split('<th scope="row">')[1:]:
            cells = [
                re.sub(r"<[^>]+>", "", c).strip() for c in row.split("</tr>")[0].split("<td>")[1:]
            ]
            rows[re.sub(r"<[^>]+>", "", row.split("</th>")[0])] = [c.split("<")[0] for c in cells]
        groups[rules] = rows
    return groups


def test_statistics_count_matches_played_per_ruleset(client):
    table = new_table(client)
    remi = new_match(client, table, "remi", TWO, target=200)
    save_round(client, remi, TWO, {"Siti": "KH QH"}, ending="out", player="Budi")
    new_match(client, table, "remi", TWO, target=200)  # never played
    voided = new_match(client, table, "remi", TWO, target=200)
    save_round(client, voided, TWO, {}, ending="void")
    gin = new_match(client, table, "gin", ["Siti", "Andi"], target=100)
    save_round(client, gin, ["Siti", "Andi"], {}, ending="draw")
    groups = stats_groups(client, table)
    assert set(groups) == {"remi", "gin"}
    # matches, won, win rate (none finished), rounds, rounds won, points per round won
    assert groups["remi"]["Budi"][:6] == ["1", "0", "–", "1", "1", "20.0"]
    assert "Andi" not in groups["remi"]
    # a draw is a round played that nobody won
    assert groups["gin"]["Andi"][:6] == ["1", "0", "–", "1", "0", "–"]
    page = text(client.get(table + "stats"))
    assert "2 matches played" in page and "blocked rounds and draws are rounds played" in page


# -- P3: one error, one field --------------------------------------------------------------------


def field_errors(response) -> dict[str, list[str]]:
    """{field id: its error messages}."""
    body = response.get_data(as_text=True)
    found: dict[str, list[str]] = {}
    for part in body.split('<div class="field')[1:]:
        label = re.search(r'<label for="([^"]+)"', part)
        messages = re.findall(
            r'class="error[^"]*"[^>]*>([^<]+)<', part.split('<div class="field')[0]
        )
        if label and messages:
            found[label.group(1)] = messages
    return found


def test_a_refused_turn_names_its_error_under_one_field(client):
    three = ["Budi", "Siti", "Andi"]
    table = new_table(client)
    match = new_match(client, table, "remi-indonesia", three, target=300)
    for number, (player, card) in enumerate([("Budi", "9H"), ("Siti", "4C"), ("Andi", "KD")]):
        response = live_turn(client, match, player=player, discard=card, turns_before=number)
        assert response.status_code == 302, errors(response)
    response = live_turn(
        client,
        match,
        player="Budi",
        melds="7H 8H 9H",
        took_discard="KD 4C 9H 2S",
        discard="3S",
        turns_before=3,
    )
    assert response.status_code == 400
    marked = field_errors(response)
    assert list(marked) == ["took_discard"], marked


def test_a_refused_gin_spread_is_named_under_the_melds_only(client):
    table = new_table(client)
    match = new_match(client, table, "gin", TWO, target=100)
    data = {
        "ending": "knock",
        "player": "Budi",
        "knocker_melds": "4H 5H 7H\n7S 7D 8C",
        "hand_0": "4H 5H 6H 7H 7S 7D 8C 9C 10C AS",
        "hand_1": "KH QD JS 9H 8D 6S 4D 3D 2C AD",
        "action": "check",
    }
    response = client.submit(match + "rounds/new", data)
    assert response.status_code == 400
    marked = field_errors(response)
    assert list(marked) == ["knocker_melds"], marked


def test_the_indonesian_lay_off_hint_says_rangkaian(client):
    client.submit("/language", {"lang": "id", "next": "/"})
    table = new_table(client)
    match = new_match(client, table, "remi", TWO, target=200)
    assert live_turn(client, match, player="Budi", melds="7S 8S 9S", turns_before=0)
    page = text(client.get(match + "live"))
    assert "rangkaian yang disorot" in page and "kombinasi" not in page
