"""The state kept with a match is taken at the match's version only.

The API's plain save plays its round on the state kept with the match (``match_replays``)
when that state was kept at the match's current version, and takes the key of the log from
it instead of reading and hashing every round.  That is right only if no write changes a
match's log (its rounds, its seats, its header, a player's name) without raising the
match's version in the same transaction.  These tests walk every kind of write the app
makes, through the API and through the pages, and after each one:

* the state kept at the match's version is the whole replay's of the log as it now is
  (``history check`` finds nothing: it compares the kept key and facts with a whole replay),
  so a state kept before a change is never taken after it;
* no write left a change of the log without a new version (the unit of work's guard,
  :mod:`referee.web.store.writes`, says so in the log when one does, and drops the state);
* the next save through the API answers what a whole replay of the stored log gives.

Then a write that does change a round without the version (as a faulty new write would) is
shown to lose the kept state instead of leaving it to the next save.  On SQLite and
PostgreSQL.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa

from referee.web import create_app
from referee.web.play import appending
from referee.web.store import matchlog, summary, work
from referee.web.store.extensions import db
from referee.web.store.models import Match, MatchReplay, Player, Round

from .conftest import DATABASE_KINDS as KINDS
from .conftest import Client
from .helpers import errors
from .realserver import fresh_database

API = "/api/v1"
PLAYERS = ["Budi", "Siti", "Andi"]
# Siti goes out; Budi holds 2C (2), Andi 3D 4H (3 + 4): Siti scores 9.
SITI_OUT = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}
# Budi goes out; Siti holds KH (10), Andi 5C (5): Budi scores 15.
BUDI_OUT = {"out": "Budi", "hands": {"Siti": ["KH"], "Andi": ["5C"]}}
GUARD = "changed with no new version"


@pytest.fixture(params=KINDS, scope="module")
def app(request, tmp_path_factory) -> Iterator[Any]:
    with fresh_database(request.param, tmp_path_factory.mktemp("kept")) as url:
        # One app for the module's many tables: no limit on new tables.
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "TESTING": True, "RATELIMIT_ENABLED": False}
        )
        app.test_client_class = Client
        yield app
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@dataclass
class Table:
    """A table of four players and one remi match of three rounds, saved through the API."""

    client: Client
    edit_key: str
    match_id: int
    plain_saves: list[bool] = field(default_factory=list)

    @property
    def api(self) -> str:
        return f"{API}/t/{self.edit_key}/m/{self.match_id}"

    @property
    def page(self) -> str:
        return f"/t/{self.edit_key}/m/{self.match_id}/"

    @property
    def table_page(self) -> str:
        return f"/t/{self.edit_key}/"

    def if_match(self) -> dict[str, str]:
        return {"If-Match": f'"{self.client.get(self.api).get_json()["etag"]}"'}


@pytest.fixture
def table(app, monkeypatch) -> Table:
    client = app.test_client()
    client.submit("/language", {"lang": "en", "next": "/"})
    keys = client.post(
        f"{API}/tables", json={"name": "Meja", "players": [*PLAYERS, "Dewi"]}
    ).get_json()
    made = client.post(
        f"{API}/t/{keys['edit_key']}/matches",
        json={"rules": "remi", "players": PLAYERS, "first_dealer": "Budi"}
        | {"options": {"target": 1000}},
    ).get_json()
    found = Table(client, keys["edit_key"], made["id"])
    append = appending.append

    def counted(*args: Any, **kwargs: Any) -> bool:
        done = append(*args, **kwargs)
        found.plain_saves.append(done)
        return done

    monkeypatch.setattr(appending, "append", counted)
    for entry in (SITI_OUT, BUDI_OUT, SITI_OUT):
        saved = client.post(f"{found.api}/rounds", json=entry, headers=found.if_match())
        assert saved.status_code == 201, saved.get_json()
    assert found.plain_saves == [True, True, True]
    return found


def kept_row(app: Any, match_id: int) -> tuple[str | None, int | None, int]:
    """The kept state's key and version, and the match's version."""
    with app.app_context():
        kept = db.session.get(MatchReplay, match_id)
        match = db.session.get(Match, match_id)
        assert match is not None
        return (
            (kept.replay_key, kept.match_version, match.version)
            if kept
            else (None, None, match.version)
        )


def log_key(app: Any, match_id: int) -> str:
    with app.app_context(), db.engine.connect() as connection:
        log = summary.read_log(connection, match_id)
        assert log is not None
        return matchlog.replay_key(log.header(), [entry for _n, entry, _w in log.rounds])


def whole_replay_totals(app: Any, match_id: int) -> dict[str, int]:
    """The totals a whole replay of the stored log gives (no cache, no kept state)."""
    matchlog.REPLAYS.clear()
    with app.app_context(), db.engine.connect() as connection:
        log = summary.read_log(connection, match_id)
        assert log is not None
        state = matchlog.replay(
            log.header() | {"rounds": [entry for _n, entry, _w in log.rounds]}, as_played=True
        )
        return dict(state.totals)


def next_round(table: Table) -> dict[str, Any]:
    """Siti goes out; everyone else seated holds one card of their own."""
    seated = table.client.get(table.api).get_json()["seated"]
    cards = iter(["2C", "3D", "4H", "5S", "9C"])
    return {"out": "Siti", "hands": {name: [next(cards)] for name in seated if name != "Siti"}}


def first_to_play(table: Table) -> str:
    """Who plays first in the next round: the player after its dealer."""
    board = table.client.get(table.api).get_json()
    seated = board["seated"]
    return str(seated[(seated.index(board["next_dealer"]) + 1) % len(seated)])


def check_after_write(app: Any, caplog: Any, table: Table, key_before: str | None) -> None:
    """What must hold after any write (see the module's docstring); ``key_before``: the key
    of the state kept before it, when the write changed the log."""
    assert GUARD not in caplog.text
    matchlog.REPLAYS.clear()  # the next save lands in a worker that never saw the match
    with app.app_context(), db.engine.connect() as connection:
        assert summary.check(connection) == []
    key, kept_version, version = kept_row(app, table.match_id)
    if kept_version == version:
        assert key == log_key(app, table.match_id)
        assert key != key_before


def api_write(method: str, path: str, **body: Any) -> Callable[[Table], Any]:
    def write(table: Table) -> Any:
        return table.client.open(table.api + path, method=method, headers=table.if_match(), **body)

    return write


def form_write(path: str, data: dict[str, Any] | None = None, **kwargs: Any) -> Callable[..., Any]:
    def write(table: Table) -> Any:
        return table.client.submit(table.page + path, data or {}, **kwargs)

    return write


def button_write(path: str) -> Callable[[Table], Any]:
    """A button whose hidden fields are on the page the form's path names."""

    def write(table: Table) -> Any:
        button = table.client.hidden_fields(table.page + path)
        return table.client.submit(table.page + path, button, fresh=False)

    return write


def rename(table: Table) -> Any:
    with table.client.application.app_context():
        match = db.session.get(Match, table.match_id)
        assert match is not None
        budi = db.session.scalars(
            sa.select(Player).where(Player.name == "Budi", Player.table_id == match.table_id)
        ).first()
        assert budi is not None
        player_id = budi.id
    settings = table.table_page + "settings"
    return table.client.submit(
        f"{settings}/players/{player_id}", {f"p{player_id}-name": "Bude"}, page=settings
    )


FORM_ROUND = {"hand_0": "2C", "hand_1": "", "hand_2": "3D 4H", "ending": "out"}
FORM_ROUND |= {"player": "Siti", "action": "save"}
CORRECTED = {"hand_0": "", "hand_1": "KH", "hand_2": "5C 6C", "ending": "out"}
CORRECTED |= {"player": "Budi", "action": "save"}

# Each kind of write: its steps (each one write) and whether each changes the log.
WRITES: dict[str, list[tuple[Callable[[Table], Any], bool]]] = {
    "API save": [(api_write("POST", "/rounds", json=BUDI_OUT), True)],
    "API save with an Idempotency-Key": [
        (
            lambda t: t.client.post(
                f"{t.api}/rounds",
                json=BUDI_OUT,
                headers=t.if_match() | {"Idempotency-Key": "once-1"},
            ),
            True,
        )
    ],
    "API correction": [(api_write("PUT", "/rounds/2", json=SITI_OUT), True)],
    "API void and restore": [
        (api_write("POST", "/rounds/3/void"), True),
        (api_write("POST", "/rounds/3/restore"), True),
    ],
    "API delete": [(api_write("DELETE", "/rounds/3"), True)],
    "API seating": [
        (api_write("PUT", "/seating", json={"players": [*PLAYERS, "Dewi"]}), True),
        (lambda t: api_write("POST", "/rounds", json=next_round(t))(t), True),
    ],
    # A live round is not in the log until it ends; its turns raise the version all the same.
    "API live round, started and discarded": [
        (
            lambda t: t.client.post(
                f"{t.api}/live/turns",
                json={"player": first_to_play(t), "melds": [["7S", "8S", "9S"]], "discard": "2C"},
                headers=t.if_match(),
            ),
            False,
        ),
        (api_write("DELETE", "/live"), False),
    ],
    "form save": [(form_write("rounds/new", FORM_ROUND), True)],
    "form correction": [(form_write("rounds/2/edit", CORRECTED), True)],
    "form correction as JSON": [
        (form_write("rounds/1/json", {"entry": json.dumps(BUDI_OUT)}), True)
    ],
    "form void and restore": [
        (form_write("rounds/3/void"), True),
        (form_write("rounds/3/restore"), True),
    ],
    "form delete and undelete": [
        (button_write("rounds/undo"), True),
        (button_write("rounds/3/undelete"), True),
    ],
    "rename a player": [(rename, True)],
    "archive, unarchive, delete and restore the match": [
        (form_write("archive"), False),
        (form_write("unarchive"), False),
        (form_write("delete"), False),
        (form_write("undelete"), False),
    ],
}


@pytest.mark.parametrize("kind", list(WRITES))
def test_no_write_leaves_a_kept_state_to_a_log_it_did_not_come_from(
    app: Any, table: Table, caplog: Any, kind: str
) -> None:
    caplog.set_level(logging.WARNING, logger="referee.web.store.writes")
    for write, log_changed in WRITES[kind]:
        key_before, _kept_version, version_before = kept_row(app, table.match_id)
        answer = write(table)
        assert answer.status_code in (200, 201, 302), errors(answer) or answer.get_json()
        assert kept_row(app, table.match_id)[2] > version_before  # the write raised it
        check_after_write(app, caplog, table, key_before if log_changed else None)
    # The next save through the API answers what a whole replay of the log gives, through
    # the plain path whenever the write left a state kept at the match's version.
    _key, kept_version, version = kept_row(app, table.match_id)
    with app.app_context():
        match = db.session.get(Match, table.match_id)
        assert match is not None
        only_complete = all(r.complete and r.deleted_at is None for r in match.stored_rounds)
    table.plain_saves.clear()
    saved = table.client.post(
        f"{table.api}/rounds", json=next_round(table), headers=table.if_match()
    )
    assert saved.status_code == 201, saved.get_json()
    assert saved.get_json()["totals"] == whole_replay_totals(app, table.match_id)
    # (a deleted round in the way is left to the general path, as always)
    assert table.plain_saves == ([True] if kept_version == version and only_complete else [])
    check_after_write(app, caplog, table, None)


def test_a_match_imported_keeps_its_state_at_its_version_and_the_next_save_is_plain(
    app: Any, table: Table, caplog: Any
) -> None:
    caplog.set_level(logging.WARNING, logger="referee.web.store.writes")
    document = table.client.get(f"{table.api}/export").get_json()
    answer = table.client.submit(
        table.table_page + "import", {"document": json.dumps(document), "copy": "y"}
    )
    assert answer.status_code == 302, errors(answer)
    copy = Table(
        table.client, table.edit_key, int(answer.headers["Location"].split("/m/")[1].split("/")[0])
    )
    assert copy.match_id != table.match_id
    key, kept_version, version = kept_row(app, copy.match_id)
    assert kept_version == version and key == log_key(app, copy.match_id)
    check_after_write(app, caplog, copy, None)
    table.plain_saves.clear()
    saved = copy.client.post(f"{copy.api}/rounds", json=next_round(copy), headers=copy.if_match())
    assert saved.status_code == 201 and table.plain_saves == [True]
    # Siti 9 + 9 + 9 (three times out), Budi 15: as saved in the original, plus this round.
    assert saved.get_json()["totals"] == whole_replay_totals(app, copy.match_id)
    assert saved.get_json()["totals"]["Siti"] == 9 + 9 + (2 + 3)


def test_a_table_imported_keeps_its_states_at_their_versions_and_saves_plainly(
    app: Any, table: Table, caplog: Any
) -> None:
    caplog.set_level(logging.WARNING, logger="referee.web.store.writes")
    exported = table.client.get(table.table_page + "export.json")
    assert exported.status_code == 200
    answer = table.client.submit("/tables/import", {"document": exported.get_data(as_text=True)})
    assert answer.status_code == 302, errors(answer)
    edit_key = answer.headers["Location"].split("/t/")[1].strip("/")
    with app.app_context():
        imported = db.session.scalars(
            sa.select(Match).join(Match.table).where(Match.table.has(edit_key=edit_key))
        ).one()
        match_id = imported.id
    copy = Table(table.client, edit_key, match_id)
    key, kept_version, version = kept_row(app, match_id)
    assert key is not None and kept_version == version  # kept with the summary, in bulk
    for expected_plain in ([True], [True]):  # the first save plays on it already
        table.plain_saves.clear()
        saved = copy.client.post(
            f"{copy.api}/rounds", json=next_round(copy), headers=copy.if_match()
        )
        assert saved.status_code == 201, saved.get_json()
        assert saved.get_json()["totals"] == whole_replay_totals(app, match_id)
        assert table.plain_saves == expected_plain
        check_after_write(app, caplog, copy, None)


def test_a_round_changed_without_a_new_version_loses_the_kept_state(
    app: Any, table: Table, caplog: Any
) -> None:
    """What the guard does for a write that would forget the version: the state kept at the
    version is dropped in the same transaction, and the next save replays the log."""
    caplog.set_level(logging.WARNING, logger="referee.web.store.writes")
    key_before, kept_version, version = kept_row(app, table.match_id)
    assert kept_version == version
    with app.test_request_context():
        stored = db.session.scalars(
            sa.select(Round).where(Round.match_id == table.match_id, Round.number == 1)
        ).one()
        stored.entry = BUDI_OUT  # Siti 9 becomes Budi 15, and nothing raises the version
        work.commit(table.match_id)
    assert GUARD in caplog.text
    assert kept_row(app, table.match_id) == (None, None, version)
    table.plain_saves.clear()
    saved = table.client.post(
        f"{table.api}/rounds", json=next_round(table), headers=table.if_match()
    )
    assert saved.status_code == 201 and table.plain_saves == []
    # Rounds: Budi out (15), Budi out (15), Siti out (9), Siti out (Budi 2C, Andi 3D: 5).
    assert saved.get_json()["totals"] == {"Budi": 30, "Siti": 14, "Andi": 0}
    assert saved.get_json()["totals"] == whole_replay_totals(app, table.match_id)


def test_the_key_of_one_more_round_is_made_from_the_last_key_alone() -> None:
    head = {"format": matchlog.FORMAT, "rules": "remi", "players": PLAYERS, "first_dealer": "Budi"}
    entries = [SITI_OUT, BUDI_OUT, SITI_OUT]
    key = matchlog.replay_key(head, [])
    for number in range(1, len(entries) + 1):
        key = matchlog.next_replay_key(key, entries[number - 1])
        assert key == matchlog.replay_key(head, entries[:number])
    # Another round, another order of the same rounds, another header: other keys.
    assert key != matchlog.replay_key(head, [BUDI_OUT, SITI_OUT, SITI_OUT])
    assert key != matchlog.replay_key(head | {"first_dealer": "Siti"}, entries)
    # Keys of an object are read in any order: the same round, the same key.
    assert matchlog.next_replay_key(key, {"hands": {}, "out": "Siti"}) == matchlog.next_replay_key(
        key, {"out": "Siti", "hands": {}}
    )


def test_a_void_round_saved_plainly_is_shown_void_as_the_scoreboard_shows_it(
    app: Any, table: Table
) -> None:
    table.plain_saves.clear()
    saved = table.client.post(f"{table.api}/rounds", json={"end": "void"}, headers=table.if_match())
    assert saved.status_code == 201 and table.plain_saves == [True]
    rows = saved.get_json()["rounds"]
    assert [row["voided"] for row in rows] == [False, False, False, True]
    # The answer is the scoreboard as read afterwards (no cache: a whole replay).
    matchlog.REPLAYS.clear()
    assert table.client.get(table.api).get_json()["rounds"] == rows
