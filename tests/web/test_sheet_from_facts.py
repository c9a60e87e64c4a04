"""The pages that show a match's score sheet are the same whether their worker replayed the
match or made its state again from the facts kept with its summary (``Detail.SHEET``): the
scoreboard page, the JSON scoreboard, the big board, the CSV, the results card's text and
the seating page, on scenario matches of every ruleset with notes, hands given as points
(not checked), table values (rummy500) and seating changes; the kept facts serve them
without any replay.  On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

import referee.match
from referee.match import Detail, replay
from referee.web import create_app
from referee.web.api import matches as api_matches
from referee.web.store import matchlog, summary
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchReplay, Round
from referee.web.views import livepage

from .conftest import DATABASE_KINDS as KINDS
from .conftest import TEST_CONFIG, Client, long_match
from .helpers import errors
from .realserver import fresh_database

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
# Scenarios chosen for what their sheet shows beyond the scores (by name: checked below).
CHOSEN = [
    "remi-seating-join-and-leave",  # a seating change: a newcomer, players leaving
    "remi-indonesia-seating-newcomer",
]
# What each page is asked for (its path after the table's edit link, or the API's).
PAGES = ["m/{id}/", "m/{id}/board", "m/{id}/export.csv", "m/{id}/results", "m/{id}/seating"]
# Tokens made for each request (forms' CSRF and one-time tokens): not the sheet.
TOKENS = re.compile(
    r'((?:name="(?:\w+-)?(?:csrf_token|once)"[^>]*?value=)|data-confirm-post=)"[^"]*"'
)


def legal_scenarios() -> dict[str, dict[str, Any]]:
    found = {}
    for path in sorted(SCENARIOS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        if "error" not in expected:
            found[path.stem] = json.loads(path.read_text())
    return found


def chosen_scenarios() -> dict[str, dict[str, Any]]:
    """Per ruleset the scenario whose sheet shows the most (notes, what was not checked, hands
    as points, table values), and the ones with seating changes."""
    legal = legal_scenarios()
    best: dict[str, tuple[int, str]] = {}
    for name, document in legal.items():
        state = replay(document)
        shown = sum(
            len(result.notes) + 3 * len(result.unchecked) + 3 * bool(result.table_values)
            for result in state.rounds
        )
        if shown > best.get(state.rules.id, (-1, ""))[0]:
            best[state.rules.id] = (shown, name)
    return {name: legal[name] for name in sorted({*CHOSEN, *(n for _s, n in best.values())})}


@pytest.fixture(params=KINDS)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    with fresh_database(request.param, tmp_path) as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, **TEST_CONFIG})
        app.test_client_class = Client
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def a_worker_that_never_saw_them(app: Flask, folder: Path) -> None:
    """Forget every replay and rendered page, as a fresh worker of another server would."""
    matchlog.REPLAYS.clear()
    livepage.PAGES.clear()
    api_matches.SCOREBOARDS.clear()
    app.config["PAGES_DIR"] = str(folder)


def shown(client: Any, table: str, key: str, ids: list[int]) -> dict[str, str]:
    """Every page of each match, and its JSON scoreboard, as the phones get them."""
    found = {}
    for match_id in ids:
        for page in PAGES:
            path = table + page.format(id=match_id)
            answer = client.get(path)
            assert answer.status_code == 200, path
            found[path] = TOKENS.sub(r'\1""', answer.get_data(as_text=True))
        path = f"/api/v1/t/{key}/m/{match_id}"
        answer = client.get(path)
        assert answer.status_code == 200, path
        found[path] = json.dumps(answer.get_json(), sort_keys=True)
    return found


def test_the_sheet_from_kept_facts_is_the_sheet_of_a_whole_replay(app, tmp_path, monkeypatch):
    scenarios = chosen_scenarios()
    client = app.test_client()
    whole = {"format": "referee-table/1", "name": "Scenarios", "matches": list(scenarios.values())}
    imported = client.submit("/tables/import", {"document": json.dumps(whole)})
    assert imported.status_code == 302, errors(imported)
    table = imported.headers["Location"]
    assert client.get(table).status_code == 200  # the import's message shown
    key = table.rstrip("/").rsplit("/", 1)[1]
    with app.app_context():
        ids = list(db.session.scalars(sa.select(Match.id).order_by(Match.id)))
        with db.engine.connect() as connection:  # the replays kept by the import are right
            assert summary.check(connection) == []
            kept = connection.execute(sa.select(sa.func.count()).select_from(MatchReplay))
            assert kept.scalar_one() == len(ids)
    assert len(ids) == len(scenarios)

    replayed: list[Any] = []

    def no_replay(*args: Any, **kwargs: Any) -> Any:
        replayed.append(args)  # the page would show the error this raises: counted first
        raise AssertionError("a page of the score sheet replayed the match")

    a_worker_that_never_saw_them(app, tmp_path / "kept")
    monkeypatch.setattr(referee.match, "replay", no_replay)
    from_facts = shown(client, table, key, ids)
    monkeypatch.undo()
    assert replayed == []
    with app.app_context():
        for match_id in ids:  # what such a worker holds: the states made from the facts
            match = db.session.get(Match, match_id)
            assert matchlog.outlook(match, Detail.SHEET).detail is Detail.SHEET, match_id

    a_worker_that_never_saw_them(app, tmp_path / "replayed")
    with app.app_context():
        for match_id in ids:  # every round as the engine scored it
            assert matchlog.outlook(db.session.get(Match, match_id)).detailed
    from_replays = shown(client, table, key, ids)
    assert from_facts.keys() == from_replays.keys()
    for path, page in from_facts.items():
        assert page == from_replays[path], path
    # The sheets show what the facts had to carry (the scenarios chosen have it).
    pages = "".join(from_facts.values())
    assert "points-entered" in pages and 'class="split"' in pages  # points, table values
    assert 'class="note unchecked"' in pages and "seating-change" in pages


def test_a_live_round_of_a_long_match_is_shown_and_played_without_a_replay(app, monkeypatch):
    client = app.test_client()
    match = long_match(client, 20)
    url, etag = match.url, match.etag
    turn = {"player": "Siti", "melds": [["7S", "8S", "9S"]], "discard": "2C"}
    added = client.post(f"{url}/live/turns", json=turn, headers={"If-Match": etag})
    assert added.status_code == 201, added.get_json()
    etag = f'"{added.get_json()["etag"]}"'

    replayed: list[Any] = []

    def no_replay(*args: Any, **kwargs: Any) -> Any:
        replayed.append(args)
        raise AssertionError("the live round replayed the match")

    a_worker_that_never_saw_them(app, Path(app.instance_path) / "fresh-worker")
    monkeypatch.setattr(referee.match, "replay", no_replay)
    page = client.get(match.page).get_data(as_text=True)
    assert ">180<" in page and "7S" in page  # Siti 20 x 9, and the live round's meld
    assert client.get(match.page + "live").status_code == 200
    # Andi lays off 10S on Siti's run: the turn is checked on the kept state.
    layoff = {"player": "Andi", "layoffs": [{"cards": ["10S"], "onto": 1}], "discard": "3C"}
    matchlog.REPLAYS.clear()
    answer = client.post(f"{url}/live/turns", json=layoff, headers={"If-Match": etag})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["table"][0]["cards"][-1] == {"code": "10S", "by": "Andi"}
    assert replayed == []


def test_facts_kept_before_the_sheet_show_the_match_by_a_replay_and_the_next_round_has_it(
    app, monkeypatch
):
    client = app.test_client()
    keys = client.post("/api/v1/tables", json={"name": "Meja", "players": ["Budi", "Siti"]})
    key = keys.get_json()["edit_key"]
    made = client.post(
        f"/api/v1/t/{key}/matches",
        json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    ).get_json()
    url = f"/api/v1/t/{key}/m/{made['id']}"
    # Siti goes out, Budi holds 10H QS (10 + 10): Siti 20, a note saying so.
    saved = client.post(
        f"{url}/rounds",
        json={"out": "Siti", "hands": {"Budi": ["10H", "QS"]}},
        headers={"If-Match": f'"{made["etag"]}"'},
    ).get_json()
    rounds = Round.__table__
    with app.app_context(), db.engine.begin() as connection:
        # The rounds' facts are kept with the rounds.
        for number, text in connection.execute(sa.select(rounds.c.number, rounds.c.facts)):
            facts = json.loads(text)
            assert facts["sheet"]["notes"]  # kept with the sheet's lines
            del facts["sheet"]  # as an engine before this one kept them
            connection.execute(
                sa.update(rounds).where(rounds.c.number == number).values(facts=json.dumps(facts))
            )
        assert summary.check(connection) == []  # less detail, not a wrong state
    matchlog.REPLAYS.clear()
    page = client.get(f"/t/{key}/m/{made['id']}/")
    assert page.status_code == 200 and ">20<" in page.get_data(as_text=True)
    with app.app_context():  # the page replayed the match: every detail in this worker
        assert matchlog.outlook(db.session.get(Match, made["id"]), Detail.SHEET).detailed
    # The next save, played on that replay, keeps its round's facts with the sheet (a save
    # writes only its own round's: the first stays as kept, a state with less detail).
    # Budi goes out, Siti holds 2C: Budi 2.
    again = client.post(
        f"{url}/rounds",
        json={"out": "Budi", "hands": {"Siti": ["2C"]}},
        headers={"If-Match": f'"{saved["etag"]}"'},
    )
    assert again.status_code == 201 and again.get_json()["totals"] == {"Budi": 2, "Siti": 20}
    with app.app_context(), db.engine.connect() as connection:
        kept = matchlog.kept_replay(connection, made["id"])
        assert kept is not None and len(kept.rounds) == 2
        first, second = kept.whole_facts()["rounds"]
        assert "sheet" not in first and second["sheet"]["notes"]
        assert summary.check(connection) == []
