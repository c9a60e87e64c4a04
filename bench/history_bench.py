"""Benchmark: the history pages of one table with 100, 1,000 and 10,000 matches.

Fills one table with seeded random matches of legal rounds across the five
rulesets (final-table rounds dealt from a shuffled deck, each one played
through the engine's ``MatchState.play`` and redrawn if refused; void,
blocked and drawn rounds now and then; a match ends at its target, or stays in
progress after 40 rounds), written straight into the database in bulk with
their summaries (``referee.web.store.summary.derive``), as the app would have kept
them.  Dates spread over four years.  One long match (rummy, 60 hands) is added.
The database is then analysed (``ANALYZE``; ``VACUUM ANALYZE`` on PostgreSQL), as
a database in use is by itself (autovacuum).

Then, in one process through the Flask test client, each page is requested
``--requests`` times after a few warm-up requests, and reported: p50 and p95
server time (the whole request inside the app, no network) and the SQL
statements per request (counted with SQLAlchemy's ``before_cursor_execute``):

- the table's match list, first page (``/matches``) and the table page;
- a long match's scoreboard (60 rounds), with the replay cache warm as in
  use, and cold (the cache emptied before each request);
- a player's statistics (the player with the most matches), the table's
  statistics and the head-to-head of the two busiest players; the table's statistics
  again after a round saved into a match not finished, and after a match finished (played
  now: after every other), each change made before each request and not timed;
- saving a round (the quick-round form of a rummy match to 200 hands);
- the CSV export of the long match.

Run: ``python bench/history_bench.py [--sizes 100,1000,10000] [--requests 30]
[--pg URL] [--no-sqlite] [--seed S] [--cpu] [--out FILE]``.  ``--cpu`` times the
CPU time of the process instead of the wall clock: what the app costs whatever
else the shared machine is doing (database work in PostgreSQL's own process is
then left out).  PostgreSQL is used when
``--pg`` is given or ``PGPORT`` is set (the cluster of ``.ci/pg_start``:
``postgresql+psycopg://app:app@127.0.0.1:$PGPORT/app_test``); its tables are
dropped and migrated again for each size.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from referee.errors import RefereeError  # noqa: E402
from referee.match import MatchState, read_header  # noqa: E402
from referee.web import MIGRATIONS, create_app
from referee.web.store import matchlog, summary  # noqa: E402
from referee.web.store.extensions import db  # noqa: E402
from referee.web.store.models import (  # noqa: E402
    CardTable,
    Match,
    MatchPlayer,
    MatchSummary,
    Player,
    Round,
    SeatSummary,
)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
DECK = [rank + suit for suit in SUITS for rank in RANKS]
PLAYERS = ["Budi", "Siti", "Andi", "Dewi", "Eko", "Rina", "Tono", "Wati"]
# Rulesets in the mix, with their player counts and the share of matches they get.
MIX = [
    ("remi", (2, 3, 4), 0.3),
    ("rummy", (2, 3, 4, 5), 0.2),
    ("remi-indonesia", (2, 3, 4), 0.2),
    ("manipulation", (2, 3, 4), 0.15),
    ("gin", (2,), 0.15),
]
ROUND_CAP = 40
CLOCK = time.perf_counter  # or time.process_time with --cpu
START = datetime(2022, 1, 7, 19, 0, tzinfo=UTC)
SPAN = timedelta(days=4 * 365)


# -- legal rounds ------------------------------------------------------------------------------


def shuffled(rng: random.Random) -> list[str]:
    deck = DECK[:]
    rng.shuffle(deck)
    return deck


def winner_takes_round(rng: random.Random, players: list[str], dealt: int, blocked: bool) -> dict:
    """remi / rummy: someone went out, the others hold up to what was dealt."""
    roll = rng.random()
    if roll < 0.02:
        return {"end": "void"}
    if blocked and roll < 0.05:
        return {"end": "blocked"}
    deck = shuffled(rng)
    winner = rng.choice(players)
    hands = {}
    for player in players:
        if player != winner:
            hands[player] = [deck.pop() for _ in range(rng.randint(1, dealt))]
    return {"out": winner, "at_once": rng.random() < 0.08, "hands": hands}


def a_run(deck: list[str], rng: random.Random) -> list[str] | None:
    """Three consecutive number cards (2-10) of one suit still in the deck, or J Q K."""
    for _ in range(20):
        suit = rng.choice(SUITS)
        if rng.random() < 0.2:
            cards = [rank + suit for rank in ("J", "Q", "K")]
        else:
            start = rng.randint(1, 7)  # 2-3-4 ... 8-9-10
            cards = [RANKS[start + i] + suit for i in range(3)]
        if all(card in deck for card in cards):
            for card in cards:
                deck.remove(card)
            return cards
    return None


def remi_indonesia_round(rng: random.Random, players: list[str]) -> dict:
    if rng.random() < 0.02:
        return {"end": "void"}
    deck = shuffled(rng)
    closer = rng.choice(players)
    melds: dict[str, list[list[str]]] = {}
    hands: dict[str, list[str]] = {}
    for player in players:
        run = a_run(deck, rng) if player == closer or rng.random() < 0.6 else None
        if run:
            melds[player] = [run]
        if player != closer:
            hands[player] = [deck.pop() for _ in range(rng.randint(1, 4))]
    return {"melds": melds, "closer": closer, "closing_card": deck.pop(), "hands": hands}


def manipulation_round(rng: random.Random, players: list[str]) -> dict:
    if rng.random() < 0.02:
        return {"end": "void"}
    deck = shuffled(rng)
    low = [card for card in deck if card[0] in "A23"]
    knocker = rng.choice(players)
    hands = {knocker: [low[0]] if rng.random() < 0.5 else [low[0], low[1]]}
    for card in hands[knocker]:
        deck.remove(card)
    for player in players:
        if player != knocker:
            hands[player] = [deck.pop() for _ in range(rng.randint(1, 8))]
    if rng.random() < 0.1:
        hands[knocker] = []
        return {"out": knocker, "hands": hands}
    return {"knock": knocker, "hands": hands}


def gin_round(rng: random.Random, players: list[str]) -> dict:
    """A knocker holding three melds and at most one low card; the defender ten others."""
    if rng.random() < 0.05:
        return {"end": "draw"}
    deck = shuffled(rng)
    melds: list[str] = []
    for _ in range(3):
        run = a_run(deck, rng)
        if run is None:
            return {"end": "draw"}
        melds += run
    low = next(card for card in deck if card[0] in "A234")
    if rng.random() < 0.15:  # gin: a fourth card on a run would do; a tenth meld card is simpler
        extra = next((c for c in deck if c != low), low)
    else:
        extra = low
    deck.remove(extra)
    knocker = rng.choice(players)
    defender = next(player for player in players if player != knocker)
    return {
        "knock": knocker,
        "hands": {knocker: [*melds, extra], defender: [deck.pop() for _ in range(10)]},
    }


def a_round(rng: random.Random, rules: str, players: list[str]) -> dict:
    if rules == "remi":
        return winner_takes_round(rng, players, 10 if len(players) == 2 else 7, blocked=True)
    if rules == "rummy":
        dealt = {2: 10, 3: 7, 4: 7}.get(len(players), 6)
        return winner_takes_round(rng, players, dealt, blocked=False)
    if rules == "remi-indonesia":
        return remi_indonesia_round(rng, players)
    if rules == "manipulation":
        return manipulation_round(rng, players)
    return gin_round(rng, players)


@dataclass
class Played:
    rules: str
    options: dict
    players: list[str]
    rounds: list[dict]
    state: MatchState


def a_match(
    rng: random.Random, rules: str, players: list[str], options: dict, cap: int = ROUND_CAP
) -> Played:
    """A match of legal rounds: each round drawn until the engine accepts it."""
    document = {"rules": rules, "options": options, "players": players, "first_dealer": players[0]}
    state = MatchState.start(read_header(document))
    rounds: list[dict] = []
    while not state.finished and len(rounds) < cap:
        for _attempt in range(50):
            entry = a_round(rng, rules, players)
            try:
                state = state.play(entry)
            except RefereeError:
                continue
            rounds.append(matchlog.canonical_round(entry, state.header, len(rounds) + 1))
            break
        else:
            raise RuntimeError(f"no legal {rules} round in 50 tries")
    return Played(rules, options, players, rounds, state)


# -- filling the database ----------------------------------------------------------------------


@dataclass
class Filled:
    table_id: int
    edit_key: str
    long_match: int
    saving_match: int
    busiest: list[int]


def fill(app: Any, size: int, seed: int) -> Filled:
    """One table with ``size`` matches (and the long one), inserted in bulk with summaries."""
    rng = random.Random(seed)
    with app.app_context(), db.engine.begin() as connection:
        table_id = connection.execute(
            sa.insert(CardTable.__table__).values(
                name="Meja Jumat", edit_key="bench-edit", view_key="bench-view", created_at=START
            )
        ).inserted_primary_key[0]
        player_ids = {}
        for name in PLAYERS:
            player_ids[name] = connection.execute(
                sa.insert(Player.__table__).values(table_id=table_id, name=name, created_at=START)
            ).inserted_primary_key[0]
        weights = [share for _rules, _counts, share in MIX]
        played = []
        for _ in range(size):
            rules, counts, _share = rng.choices(MIX, weights)[0]
            players = rng.sample(PLAYERS, rng.choice(counts))
            played.append(a_match(rng, rules, players, {}))
        played.append(a_match(rng, "rummy", ["Budi", "Siti", "Andi"], {"hands": 60}, cap=60))
        played.append(a_match(rng, "rummy", ["Budi", "Siti"], {"hands": 100}, cap=1))
        step = SPAN / max(1, size)
        ids = _insert(connection, table_id, player_ids, played, step)
        busiest = [
            row.player_id
            for row in connection.execute(
                sa.select(SeatSummary.player_id)
                .where(SeatSummary.table_id == table_id)
                .group_by(SeatSummary.player_id)
                .order_by(sa.func.count().desc())
                .limit(2)
            )
        ]
    _analyse(app)
    return Filled(table_id, "bench-edit", ids[-2], ids[-1], busiest)


def _analyse(app: Any) -> None:
    """What a database in use has had done by itself: statistics for the planner (and, on
    PostgreSQL, autovacuum's visibility map, which lets a query read an index alone)."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "postgresql":
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")
        else:
            with engine.begin() as connection:
                connection.exec_driver_sql("ANALYZE")


def _insert(
    connection: sa.Connection,
    table_id: int,
    player_ids: dict[str, int],
    played: list[Played],
    step: timedelta,
) -> list[int]:
    match_rows, seat_rows, round_rows, summaries, seat_summaries = [], [], [], [], []
    first_id = (connection.execute(sa.select(sa.func.max(Match.id))).scalar() or 0) + 1
    ids = []
    for index, match in enumerate(played):
        match_id = first_id + index
        ids.append(match_id)
        started = START + step * index
        match_rows.append(
            {
                "id": match_id,
                "table_id": table_id,
                "rules": match.rules,
                "options": match.options,
                "first_dealer": match.players[0],
                "created_at": started,
                "updated_at": started,
                "version": 1,
            }
        )
        log = summary.MatchLog(
            match_id, table_id, match.rules, match.options, match.players[0], started
        )
        for seat, name in enumerate(match.players):
            seat_rows.append({"match_id": match_id, "seat": seat, "player_id": player_ids[name]})
            log.seats.append((seat, player_ids[name], name))
        for number, entry in enumerate(match.rounds, start=1):
            when = started + timedelta(minutes=10 * number)
            round_rows.append(
                {
                    "match_id": match_id,
                    "number": number,
                    "entry": entry,
                    "previous_entry": None,
                    "complete": True,
                    "created_at": when,
                    "updated_at": when,
                    "version": 1,
                }
            )
            log.rounds.append((number, entry, when))
        derived = summary.derive(log, matchlog.Outlook(match.state, None))
        summaries.append(derived.match)
        seat_summaries.extend(derived.seats)
    for table, rows in (
        (Match.__table__, match_rows),
        (MatchPlayer.__table__, seat_rows),
        (Round.__table__, round_rows),
        (MatchSummary.__table__, summaries),
        (SeatSummary.__table__, seat_summaries),
    ):
        for start in range(0, len(rows), 2000):
            connection.execute(sa.insert(table), rows[start : start + 2000])
    summary.rebuild_totals(connection)
    if connection.dialect.name == "postgresql":  # ids were given: move the sequence on
        connection.execute(
            sa.text("SELECT setval('matches_id_seq', (SELECT max(id) FROM matches))")
        )
    return ids


# -- measuring ---------------------------------------------------------------------------------


@contextmanager
def counting(engine: sa.Engine) -> Iterator[list[int]]:
    sent = [0]

    def count(*_args: Any) -> None:
        sent[0] += 1

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


@dataclass
class Figure:
    page: str
    p50: float
    p95: float
    statements: int


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(
    app: Any,
    page: str,
    request: Callable[[Any, Any], Any],
    requests: int,
    prepare: Callable[[Any], Any] | None = None,
) -> Figure:
    """Time and count ``request(client, prepared)``; ``prepare(client)`` runs before each one,
    untimed and uncounted (emptying a cache, opening the form a player would submit)."""
    client = app.test_client()
    with app.app_context():
        engine = db.engine
    times, counts = [], []
    for index in range(requests + 3):  # 3 warm-up requests first
        prepared = prepare(client) if prepare else None
        with counting(engine) as sent:
            started = CLOCK()
            response = request(client, prepared)
            elapsed = (CLOCK() - started) * 1000
        assert response.status_code in (200, 302), (page, response.status_code)
        if index >= 3:
            times.append(elapsed)
            counts.append(sent[0])
    return Figure(
        page, percentile(times, 0.5), percentile(times, 0.95), int(statistics.median(counts))
    )


HIDDEN = re.compile(r"<input[^>]*>")


def hidden_fields(html: str) -> dict[str, str]:
    """The hidden inputs of a page's forms (the CSRF token, one-time tokens, versions)."""
    found = {}
    for tag in HIDDEN.findall(html):
        if 'type="hidden"' in tag:
            name = re.search(r'name="([^"]+)"', tag)
            value = re.search(r'value="([^"]*)"', tag)
            if name:
                found[name.group(1)] = value.group(1) if value else ""
    return found


def pages(app: Any, filled: Filled, requests: int, only: list[str]) -> list[Figure]:
    base = f"/t/{filled.edit_key}/"
    long_match = f"{base}m/{filled.long_match}/"
    first, second = filled.busiest
    saving = f"{base}m/{filled.saving_match}/rounds/new"

    def get(url: str) -> Callable[[Any, Any], Any]:
        return lambda client, _prepared: client.get(url)

    def open_form(client: Any) -> dict[str, str]:
        form = client.get(saving).get_data(as_text=True)
        return hidden_fields(form) | {
            "ending": "out",
            "player": "Budi",
            "hand_1": "KH",
            "action": "save",
        }

    def empty_cache(_client: Any) -> None:
        matchlog.REPLAYS.clear()

    def round_saved(client: Any) -> None:
        """A round saved into a match not finished (the rummy one of 100 hands)."""
        saved = client.post(saving, data=open_form(client))
        assert saved.status_code == 302, saved.status_code

    api = f"/api/v1/t/{filled.edit_key}"

    def match_finished(client: Any) -> None:
        """A match of one hand played now: finished after every other match of the table."""
        made = client.post(
            f"{api}/matches",
            json={
                "rules": "rummy",
                "players": ["Budi", "Siti"],
                "first_dealer": "Budi",
                "options": {"hands": 1},
            },
        )
        assert made.status_code == 201, made.get_data(as_text=True)
        saved = client.post(
            f"{api}/m/{made.get_json()['id']}/rounds",
            json={"out": "Budi", "hands": {"Siti": ["KH"]}},
            headers={"If-Match": f'"{made.get_json()["etag"]}"'},
        )
        assert saved.status_code == 201, saved.get_data(as_text=True)

    # A period of a year and a half, its ends inside months (the edges read from the summaries).
    period = "since=2023-03-17&until=2024-09-12"
    every = [
        ("match list, first page", get(base + "matches"), None),
        ("table page (10 newest)", get(base), None),
        ("long match scoreboard (60 rounds)", get(long_match), None),
        ("  the same, replay cache emptied", get(long_match), empty_cache),
        ("player statistics", get(f"{base}players/{first}"), None),
        ("player statistics, a period", get(f"{base}players/{first}?{period}"), None),
        ("table statistics", get(base + "stats"), None),
        ("table statistics, a period", get(f"{base}stats?{period}"), None),
        # The first view after a change (the change made before each request, untimed).
        ("table statistics after a round saved", get(base + "stats"), round_saved),
        ("table statistics after a match finished", get(base + "stats"), match_finished),
        # The same figures without the page's ratings (OpenSkill over every finished match).
        ("table statistics, API", get(f"/api/v1/t/{filled.edit_key}/stats"), None),
        ("head-to-head", get(f"{base}head-to-head?first={first}&second={second}"), None),
        (
            "head-to-head, a period",
            get(f"{base}head-to-head?first={first}&second={second}&{period}"),
            None,
        ),
        ("CSV export of the long match", get(long_match + "export.csv"), None),
        ("saving a round", lambda client, data: client.post(saving, data=data), open_form),
    ]
    return [
        measure(app, page, request, requests, prepare)
        for page, request, prepare in every
        if not only or any(part in page for part in only)
    ]


# -- the run -----------------------------------------------------------------------------------


def bench_app(url: str) -> Any:
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True, "SECRET_KEY": "bench"})


def _pages_in_child(
    url: str, filled: Filled, requests: int, cpu: bool, only: list[str], answer: Any
) -> None:
    global CLOCK
    if cpu:
        CLOCK = time.process_time
    answer.put(pages(bench_app(url), filled, requests, only))


def pages_apart(
    url: str, filled: Filled, requests: int, cpu: bool, only: list[str]
) -> list[Figure]:
    """Measure the pages in a process of its own, that has done nothing before: each size
    and database is measured as a server that has just started (measured in the process
    that had filled the database, or measured a smaller table before, every page came
    out about 10 ms slower)."""
    return _in_child(_pages_in_child, url, filled, requests, cpu, only)


def _in_child(target: Callable[..., None], *args: Any) -> Any:
    context = multiprocessing.get_context("spawn")
    answer = context.Queue()
    child = context.Process(target=target, args=(*args, answer))
    child.start()
    found = answer.get()
    child.join()
    if child.exitcode:
        raise RuntimeError(f"{target.__name__} failed ({child.exitcode})")
    return found


def _fill_in_child(url: str, size: int, seed: int, answer: Any) -> None:
    app = migrated(bench_app(url), fresh=url.startswith("postgresql"))
    answer.put(fill(app, size, seed))


def fill_apart(url: str, size: int, seed: int) -> Filled:
    """Fill the database in a process of its own (the pages are measured in another)."""
    filled: Filled = _in_child(_fill_in_child, url, size, seed)
    return filled


def migrated(app: Any, fresh: bool) -> Any:
    """The app with its database migrated; ``fresh``: every table dropped first."""
    with app.app_context():
        if fresh:
            tables = sa.MetaData()
            tables.reflect(bind=db.engine)
            tables.drop_all(bind=db.engine)
        upgrade(directory=str(MIGRATIONS))
    return app


def growth(medians: dict[tuple[str, str, int], float], sizes: list[int]) -> str:
    """Each page's p50 at the largest size over its p50 at the smallest, per database."""
    if len(sizes) < 2:
        return ""
    small, large = min(sizes), max(sizes)
    lines = [
        f"\n| database | request | p50 at {large:,} over p50 at {small:,} |",
        "|---|---|---:|",
    ]
    for (backend, page, size), p50 in medians.items():
        if size == small and (backend, page, large) in medians:
            lines.append(f"| {backend} | {page} | {medians[(backend, page, large)] / p50:.2f}x |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pg", default=None)
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--out", default=None, help="also write the tables to this file")
    parser.add_argument(
        "--cpu", action="store_true", help="time the CPU the app uses, not the wall clock"
    )
    parser.add_argument(
        "--only", default="", help="only the pages whose names hold one of these (comma-separated)"
    )
    args = parser.parse_args()
    only = [part for part in args.only.split(",") if part]
    sizes = [int(size) for size in args.sizes.split(",")]
    pg_url = args.pg or (
        f"postgresql+psycopg://app:app@127.0.0.1:{os.environ['PGPORT']}/app_test"
        if os.environ.get("PGPORT")
        else None
    )
    backends = ([] if args.no_sqlite else ["SQLite"]) + (["PostgreSQL"] if pg_url else [])
    lines = []
    medians: dict[tuple[str, str, int], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for backend in backends:
            for size in sizes:
                url = f"sqlite:///{folder}/history-{size}.db" if backend == "SQLite" else pg_url
                started = time.perf_counter()
                filled = fill_apart(str(url), size, args.seed)
                took = time.perf_counter() - started
                print(f"{backend}, {size} matches: filled in {took:.0f} s", file=sys.stderr)
                for figure in pages_apart(str(url), filled, args.requests, args.cpu, only):
                    medians[(backend, figure.page, size)] = figure.p50
                    line = (
                        f"| {backend} | {size:,} | {figure.page} | {figure.p50:.1f} | "
                        f"{figure.p95:.1f} | {figure.statements} |"
                    )
                    lines.append(line)
                    print(line, flush=True)
    header = "| database | matches | request | p50 ms | p95 ms | SQL statements |\n|---|---:|---|---:|---:|---:|"
    report = header + "\n" + "\n".join(lines) + "\n" + growth(medians, sizes)
    print("\n" + report)
    if args.out:
        Path(args.out).write_text(report)


if __name__ == "__main__":
    main()
