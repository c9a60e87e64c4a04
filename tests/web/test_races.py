"""Two phones at the same moment, for real: concurrent HTTP requests against gunicorn with
three worker processes, on SQLite and on the throwaway PostgreSQL of ``make test``.

Every race is run several times; each time exactly one outcome is allowed: every
acknowledged write (a redirect) is in the database, nothing acknowledged was
overwritten or applied twice, the loser gets a 409 (or, for the same request
twice, the harmless answer of the first), and no request answers 500.
"""

from __future__ import annotations

import json
import re
import signal
from collections import Counter
from functools import partial
from pathlib import Path

import pytest
import sqlalchemy as sa

from .conftest import DATABASE_KINDS as KINDS
from .realserver import Phone, at_once, fresh_database, served_database, start_server

TRIALS = 6
THREE = ["Budi", "Siti", "Andi"]


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    with served_database(request.param, tmp_path_factory.mktemp("races")) as both:
        yield both


def statuses(responses):
    found = Counter(r.status_code for r in responses)
    assert 500 not in found, [r.text[:400] for r in responses if r.status_code >= 500]
    return found


def make_table(phone, players=THREE):
    created = phone.post("/tables", {**phone.form("/tables"), "name": "Meja"})
    assert created.status_code == 302
    table = created.headers["Location"].replace(phone.server, "")
    added = phone.post(
        table + "players", {**phone.form(table + "players"), "names": ", ".join(players)}
    )
    assert added.status_code == 302
    return table


def make_match(phone, table, players=THREE, rules="remi", target=200):
    url = f"{table}new/{rules}"
    data = {f"seat_{i}": name for i, name in enumerate(players)}
    data.update(first_dealer=players[0], target=str(target))
    response = phone.post(url, {**phone.form(url), **data})
    assert response.status_code == 302, response.text[:500]
    return response.headers["Location"].replace(phone.server, "")


def match_id(match_url):
    return int(re.search(r"/m/(\d+)/", match_url).group(1))


def stored_rounds(engine, match_url):
    """The rounds of the match as stored (a deleted round, kept to be restored, is not one)."""
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text(
                "SELECT number, entry, complete FROM rounds"
                " WHERE match_id = :m AND deleted_at IS NULL ORDER BY number"
            ),
            {"m": match_id(match_url)},
        ).all()
    return [(n, e if isinstance(e, dict) else json.loads(e), bool(c)) for n, e, c in rows]


def quick_round(hands, ending="out", player="Budi"):
    hands = {"Andi": "4S", **hands}  # in remi every hand but the winner's holds cards
    data = {f"hand_{i}": hands.get(name, "") for i, name in enumerate(THREE)}
    return {**data, "ending": ending, "player": player, "action": "save"}


def refusals(response):
    return re.findall(r'class="error[^"]*"[^>]*>([^<]+)<', response.text)


def save_quick(phone, match, hands, **fields):
    url = match + "rounds/new"
    response = phone.post(url, {**phone.form(url), **quick_round(hands, **fields)})
    assert response.status_code == 302, refusals(response)


@pytest.fixture
def table(phones):
    return make_table(phones[0])


def test_two_different_turns_from_the_same_state_are_checked_on_the_latest_one(
    phones, table, engine
):
    # Budi deals, so Siti leads, then Andi.  Whichever lands second is checked on the round
    # as the first left it: Andi's after Siti's is his turn and is saved; Siti's after
    # Andi's is not her turn (Budi's is), so she is told.
    a, b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        turn = match + "live/turn"
        form_a, form_b = a.form(turn), b.form(turn)
        mine = {**form_a, "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        theirs = {**form_b, "player": "Andi", "melds": "2H 3H 4H", "action": "save"}
        responses = at_once(partial(a.post, turn, mine), partial(b.post, turn, theirs))
        found = statuses(responses)
        [(number, entry, complete)] = stored_rounds(engine, match)
        players = [t["player"] for t in entry["turns"]]
        if found == {302: 2}:
            assert not complete and players == ["Siti", "Andi"]
        else:
            assert found == {302: 1, 409: 1} and responses[0].status_code == 409
            assert players == ["Andi"]


def test_a_turn_corrected_while_another_phone_records_the_next_one_is_kept(phones, table, engine):
    a, b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        turn = match + "live/turn"
        first = {**a.form(turn), "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        assert a.post(turn, first).status_code == 302
        fix = match + "rounds/1/turns/1"
        form_a, form_b = a.form(fix), b.form(turn)
        mine = {**form_a, "player": "Siti", "melds": "6S 7S 8S 9S", "action": "save"}
        theirs = {**form_b, "player": "Andi", "layoffs": "10S > 1", "action": "save"}
        responses = at_once(partial(a.post, fix, mine), partial(b.post, turn, theirs))
        found = statuses(responses)
        [(_number, entry, complete)] = stored_rounds(engine, match)
        melds = [t.get("melds") for t in entry["turns"]]
        if found == {302: 2}:  # the correction first: Andi's turn still holds on it (10S on 6S-9S)
            assert not complete and melds == [[["6S", "7S", "8S", "9S"]], None]
            assert entry["turns"][1]["layoffs"] == [{"cards": ["10S"], "onto": 1}]
        else:  # Andi's turn first: the correction was made from the round before it
            assert found == {302: 1, 409: 1} and responses[0].status_code == 409
            assert melds == [[["7S", "8S", "9S"]], None]
            assert entry["turns"][1]["layoffs"] == [{"cards": ["10S"], "onto": 1}]


def test_two_corrections_of_the_same_round_one_is_kept_one_is_told(phones, table, engine):
    a, b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        save_quick(a, match, {"Siti": "KH", "Andi": "2C"})
        edit = match + "rounds/1/edit"
        form_a, form_b = a.form(edit), b.form(edit)
        mine = {**form_a, **quick_round({"Siti": "QH", "Andi": "3C"})}
        theirs = {**form_b, **quick_round({"Siti": "JH", "Andi": "4C"})}
        responses = at_once(partial(a.post, edit, mine), partial(b.post, edit, theirs))
        assert statuses(responses) == {302: 1, 409: 1}
        kept = ["QH"] if responses[0].status_code == 302 else ["JH"]
        [(_n, entry, _c)] = stored_rounds(engine, match)
        assert entry["hands"]["Siti"] == kept


def test_a_double_tap_on_delete_removes_one_round(phones, table, engine):
    a, _b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        for hand in ("KH", "2C", "3C"):
            save_quick(a, match, {"Siti": hand})
        button = a.form(match + "rounds/undo")
        responses = at_once(
            partial(a.post, match + "rounds/undo", button),
            partial(a.post, match + "rounds/undo", button),
        )
        assert statuses(responses) == {302: 2}
        assert [n for n, _e, _c in stored_rounds(engine, match)] == [1, 2]


def test_delete_round_while_another_phone_saves_the_next_never_deletes_the_new_one(
    phones, table, engine
):
    a, b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        for hand in ("KH", "2C"):
            save_quick(a, match, {"Siti": hand})
        button = a.form(match + "rounds/undo")  # "Delete round 2?"
        new = b.form(match + "rounds/new")
        round_three = {**new, **quick_round({"Siti": "9D"})}
        responses = at_once(
            partial(a.post, match + "rounds/undo", button),
            partial(b.post, match + "rounds/new", round_three),
        )
        assert statuses(responses) == {302: 1, 409: 1}
        rounds = stored_rounds(engine, match)
        if responses[0].status_code == 302:  # round 2 deleted first: round 3's form is stale
            assert [e["hands"]["Siti"] for _n, e, _c in rounds] == [["KH"]]
        else:  # round 3 saved first: round 2 is no longer the last, nothing deleted
            assert [e["hands"]["Siti"] for _n, e, _c in rounds] == [["KH"], ["2C"], ["9D"]]


def test_the_same_round_posted_twice_is_saved_once(phones, table, engine):
    a, _b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        url = match + "rounds/new"
        data = {**a.form(url), **quick_round({"Siti": "KH"})}
        responses = at_once(partial(a.post, url, data), partial(a.post, url, data))
        assert statuses(responses) == {302: 2}
        assert len(stored_rounds(engine, match)) == 1


def test_the_first_live_turn_raced_starts_one_round(phones, table, engine):
    a, b = phones
    for _ in range(TRIALS):
        match = make_match(a, table)
        turn = match + "live/turn"
        mine = {**a.form(turn), "player": "Siti", "discard": "KD", "action": "save"}
        same = dict(mine)
        theirs = {**b.form(turn), "player": "Andi", "discard": "QD", "action": "save"}
        responses = at_once(
            partial(a.post, turn, mine), partial(a.post, turn, same), partial(b.post, turn, theirs)
        )
        found = statuses(responses)
        rounds = stored_rounds(engine, match)
        assert len(rounds) == 1
        players = [t["player"] for t in rounds[0][1]["turns"]]
        if players[0] == "Siti":  # a's turn first, its double harmless; Andi plays after Siti
            assert found == {302: 3} and players == ["Siti", "Andi"]
        else:  # Andi's first: then it is Budi's turn, not Siti's
            assert found == {302: 1, 409: 2} and players == ["Andi"]


def test_the_same_new_player_added_twice_is_one_player(phones, engine):
    a, b = phones
    for trial in range(TRIALS):
        table = make_table(a, players=["Budi"])
        url = table + "players"
        name = f"Rina{trial}"
        same = {**a.form(url), "names": name}
        other = {**b.form(url), "names": name}
        responses = at_once(
            partial(a.post, url, same), partial(a.post, url, same), partial(b.post, url, other)
        )
        found = statuses(responses)
        # Whoever adds Rina first is acknowledged (a's double with it, harmlessly);
        # the other phone is told she is at the table already.
        a_won = responses[0].status_code == 302 or responses[1].status_code == 302
        assert found == ({302: 2, 400: 1} if a_won else {302: 1, 400: 2})
        with engine.connect() as connection:
            count = connection.execute(
                sa.text("SELECT count(*) FROM players WHERE name = :n"), {"n": name}
            ).scalar()
        assert count == 1


def test_the_same_import_twice_imports_one_match(phones, table, engine):
    a, b = phones
    document = Path("referee/examples/remi-example.json").read_text()
    for _ in range(3):
        url = table + "import"
        # Each time as a copy (the match is at the table after the first time: without
        # "copy" it would be refused as a repeat); a form sent twice still makes one match.
        data = {**a.form(url, page=url), "document": document, "copy": "y"}
        with engine.connect() as connection:
            before = connection.execute(sa.text("SELECT count(*) FROM matches")).scalar()
        responses = at_once(partial(a.post, url, data), partial(a.post, url, data))
        assert statuses(responses) == {302: 2}
        assert responses[0].headers["Location"] == responses[1].headers["Location"]
        with engine.connect() as connection:
            after = connection.execute(sa.text("SELECT count(*) FROM matches")).scalar()
        assert after == before + 1


def test_many_phones_saving_turns_in_a_row_lose_nothing(phones, table, engine):
    """Four phones each keep sending a turn from the state they see: every acknowledged turn
    is stored, once, in the order of the steps; a turn checked on a later state than its page
    showed is saved only when it is still that player's turn, so no player has two turns from
    one state (the second would be the same turn entered twice)."""
    server = phones[0].server
    four = [Phone(server) for _ in range(4)]
    match = make_match(four[0], table)
    turn = match + "live/turn"
    acknowledged = []
    for step in range(5):
        forms = [phone.form(turn) for phone in four]
        sends = [
            partial(
                phone.post,
                turn,
                {
                    **form,
                    "player": THREE[i % 3],
                    "discard": f"{2 + step}{'SHDC'[i]}",
                    "action": "save",
                },
            )
            for i, (phone, form) in enumerate(zip(four, forms, strict=True))
        ]
        responses = at_once(*sends)
        found = statuses(responses)
        assert set(found) <= {302, 409} and found[302] >= 1
        acknowledged.append(
            sorted(
                f"{2 + step}{'SHDC'[i]}" for i, r in enumerate(responses) if r.status_code == 302
            )
        )
    [(_n, entry, _c)] = stored_rounds(engine, match)
    stored = [t["discard"] for t in entry["turns"]]
    by_step = [sorted(d for d in stored if d.startswith(str(2 + step))) for step in range(5)]
    assert by_step == acknowledged
    assert [d[0] for d in stored] == sorted(d[0] for d in stored)  # step by step
    for step in range(5):  # Budi sends from two phones: never both saved
        players = [t["player"] for t in entry["turns"] if t["discard"].startswith(str(2 + step))]
        assert len(players) == len(set(players))


def test_acknowledged_rounds_survive_a_killed_server(tmp_path):
    """kill -9 the whole server right after its answers: every round it acknowledged is there."""
    with fresh_database("sqlite", tmp_path) as database:
        server = start_server(database, tmp_path, workers=2)
        phone = Phone(server.url)
        table = make_table(phone)
        match = make_match(phone, table)
        for hand in ("KH", "2C", "3C", "4C", "5C"):
            save_quick(phone, match, {"Siti": hand})
        server.stop(signal.SIGKILL)
        engine = sa.create_engine(database)
        try:
            rounds = stored_rounds(engine, match)
        finally:
            engine.dispose()
        assert [e["hands"]["Siti"] for _n, e, _c in rounds] == [
            ["KH"],
            ["2C"],
            ["3C"],
            ["4C"],
            ["5C"],
        ]
        again = start_server(database, tmp_path, workers=2)
        try:
            page = Phone(again.url).get(match)
            assert page.status_code == 200 and page.text.count('class="round-no"') == 5
        finally:
            again.stop()


def test_a_write_with_the_old_key_racing_its_replacement_is_saved_whole_or_refused(phones, engine):
    """One phone replaces the edit link while another saves a round with it, from the page
    and through the API (the API's plain save reads first and takes the table's turn after):
    each save is stored whole before the replacement (302, 201) or refused after it as a
    wrong key is (404); never stored after it, never half; the old key opens nothing after."""
    owner, player = phones
    outcomes = Counter()
    for _ in range(TRIALS):
        table = make_table(owner)
        on_page, by_api = make_match(owner, table), make_match(owner, table)
        old_key = table.split("/")[2]
        replace = table + "links/edit/replace"
        confirm = owner.form(replace, page=replace)
        page_round = {**player.form(on_page + "rounds/new"), **quick_round({"Siti": "KH"})}
        api_match = f"/api/v1/t/{old_key}/m/{match_id(by_api)}"
        etag = player.get(api_match).headers["ETag"]
        api_round = {"out": "Budi", "hands": {"Siti": ["KH"], "Andi": ["4S"]}}
        replaced, saved_on_page, saved_by_api = at_once(
            partial(owner.post, replace, confirm),
            partial(player.post, on_page + "rounds/new", page_round),
            partial(
                player.session.post,
                player.server + api_match + "/rounds",
                json=api_round,
                headers={"If-Match": etag},
                timeout=60,
            ),
        )
        statuses([replaced, saved_on_page, saved_by_api])
        assert replaced.status_code == 302
        assert saved_on_page.status_code in (302, 404), saved_on_page.text[:300]
        assert saved_by_api.status_code in (201, 404), saved_by_api.text[:300]
        page_rounds = stored_rounds(engine, on_page)
        api_rounds = stored_rounds(engine, by_api)
        assert len(page_rounds) == (1 if saved_on_page.status_code == 302 else 0)
        assert len(api_rounds) == (1 if saved_by_api.status_code == 201 else 0)
        if api_rounds:  # the round as sent, whole: Budi out, Siti KH (10) and Andi 4S (4)
            assert api_rounds[0][1]["hands"] == {"Siti": ["KH"], "Andi": ["4S"]}
        outcomes[saved_on_page.status_code, saved_by_api.status_code] += 1
        new_table = replaced.headers["Location"].replace(owner.server, "").split("?")[0]
        assert new_table != table and owner.get(new_table).status_code == 200
        assert player.get(table).status_code == 404
        assert player.get(api_match).status_code == 404
    assert sum(outcomes.values()) == TRIALS, outcomes
    print("old key racing its replacement (page, API):", dict(outcomes))
