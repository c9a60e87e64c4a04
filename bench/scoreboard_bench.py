"""Scoreboard benchmark: the page every phone fetches again after a change, on a long match.

In one run, on 127.0.0.1 only (served as ``make run`` serves it, as ``bench/load_bench.py``
does, beside the bare Flask endpoint of ``bench/bare_app.py`` on the same settings):

1. one table is seeded with ``--matches`` remi matches of ``--rounds`` rounds (60 by default);
2. ``wrk`` (2 threads, 4 connections) loads the bare endpoint, the scoreboard page of one
   match through its view link and through its edit link, for ``--seconds`` each (the
   ratio target); then one connection, one request at a time, loads the bare endpoint and
   the page (the p99 target: the page's own wait when no request queues before it);
3. four phones follow another match while a fifth saves ``--changes`` rounds into it
   through the API, one at a time; after each save the four phones fetch their update at
   once, the way the page's script does (the parts that changed when the page offers them,
   else the whole page).  It reports the bytes each phone received per change, the slowest
   phone's wait, and the server's CPU milliseconds for the four updates of one change
   (one render shared by four phones costs about a fourth of four renders).  The API's
   JSON scoreboard of the same match (kept per version since before) is loaded too, as a
   peer: what a page costs when nothing is rendered;
4. before all that, the first view of other matches of the same length, one request at a
   time on the quiet server: matches no worker has replayed or rendered yet (seeded beside
   the others, their replays kept with their summaries as a save keeps them), each asked
   once, ``--fresh`` as the page and as many as the JSON scoreboard, of two kinds: rounds
   entered by their final table (as above) and rounds played turn by turn (melds, lay-offs,
   a discard: what a match played live on the phones stores, about five times the replay);
   beside as many single requests to the bare endpoint.  It reports each request's wait
   (p50, p95, worst) and the server's CPU per request; step 3 is repeated on a match of
   rounds played turn by turn.

    apt-get install wrk
    .venv/bin/python bench/scoreboard_bench.py [--rounds 60] [--seconds 10] [--repeat 1]
        [--changes 20] [--fresh 30] [--database-url postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import median

import requests
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bench import (  # noqa: E402
    PLAYERS,
    cpu_seconds,
    load_average,
    quiet_round,
    seed,
    serve_both,
    stop,
    wrk,
)

TARGET_RATIO, P99_LIMIT_MS, UPDATE_LIMIT, FIRST_VIEW_LIMIT_MS = 8, 50, 20_000, 50
PHONES = 4
PARTS = re.compile(r'data-live-parts="([^"]*)"')


class Phone:
    """A phone following a match: it holds the page's parts (if the page has them)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.session = requests.Session()
        self.parts = self.parts_of(self.session.get(url, timeout=30).text)

    @staticmethod
    def parts_of(html: str) -> str | None:
        found = PARTS.search(html)
        return found.group(1) if found else None

    def update(self) -> tuple[int, float]:
        """The update after a change: (bytes received, seconds waited)."""
        headers = {"Live-Have": self.parts} if self.parts else {}
        started = time.perf_counter()
        answer = self.session.get(self.url, headers=headers, timeout=30)
        waited = time.perf_counter() - started
        answer.raise_for_status()
        self.parts = self.parts_of(answer.text) or self.parts
        return len(answer.content), waited


def follow(base: str, edit_key: str, view_key: str, match: int, rounds: int, changes: int, app):
    """Four phones (two through each link) follow ``match`` while rounds are saved into it."""
    pages = [f"{base}/v/{view_key}/m/{match}/", f"{base}/t/{edit_key}/m/{match}/"]
    phones = [Phone(pages[n % 2]) for n in range(PHONES)]
    version = rounds + 1
    sizes: list[int] = []
    waits: list[float] = []
    cpu: list[float] = []
    body = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}
    with ThreadPoolExecutor(PHONES) as pool:
        for _ in range(changes):
            saved = requests.post(
                f"{base}/api/v1/t/{edit_key}/m/{match}/rounds",
                json=body,
                headers={"If-Match": f'"m{match}v{version}"'},
                timeout=30,
            )
            if saved.status_code != 201:
                raise SystemExit(f"the save answered {saved.status_code}: {saved.text[:300]}")
            version = int(re.search(r"v(\d+)", saved.headers["ETag"]).group(1))
            before = cpu_seconds(app.pid)
            found = list(pool.map(lambda phone: phone.update(), phones))
            cpu.append(1000 * (cpu_seconds(app.pid) - before))
            sizes += [size for size, _ in found]
            waits.append(max(wait for _, wait in found))
    return {
        "bytes": median(sizes),
        "largest": max(sizes),
        "wait_ms": 1000 * median(waits),
        "wait_max_ms": 1000 * max(waits),
        "cpu_ms": sum(cpu) / len(cpu),  # a mean: /proc counts CPU time in 10 ms ticks
    }


def one_at_a_time(urls: list[str], server) -> dict[str, float]:
    """Each URL asked once, one after the other: the waits (ms) and the server's CPU per
    request (a mean over all: /proc counts CPU time in 10 ms ticks)."""
    session = requests.Session()
    waits = []
    cpu_before = cpu_seconds(server.pid)
    for url in urls:
        started = time.perf_counter()
        answer = session.get(url, timeout=60)
        waits.append(1000 * (time.perf_counter() - started))
        answer.raise_for_status()
    cpu = 1000 * (cpu_seconds(server.pid) - cpu_before) / len(urls)
    waits.sort()
    return {
        "p50": median(waits),
        "p95": waits[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))],
        "worst": waits[-1],
        "cpu_ms": cpu,
    }


# Cards no seeded round holds: one of them in a hand makes each match's log its own
# (a replay is kept by the log it was made from, so matches of one log replay only once).
SPARE = ["2S", "3S", "4S", "5S", "JS", "QS", "KS", "6H", "7H", "8H", "9H", "10H"]


def own_round(entry: dict, match: int, number: int) -> dict:
    """``entry`` (round ``number``) made that of match ``match`` alone: in its first two rounds
    a loser holds a spare card instead of his last one, picked by the match's id (144
    matches differ)."""
    if number > 2:
        return entry
    spare = SPARE[(match // len(SPARE) ** (number - 1)) % len(SPARE)]
    hands = dict(entry["hands"])
    loser = next(iter(hands))
    hands[loser] = [*hands[loser][:-1], spare]
    return entry | {"hands": hands}


def played_round(number: int) -> dict:
    """Round ``number`` played turn by turn (the example of docs' MATCH_FORMAT, the players
    turning): two melds and lay-offs before the last player goes out all at once."""
    first, second, third = (PLAYERS[(seat + number) % 3] for seat in range(3))
    return {
        "turns": [
            {"player": second, "melds": [["7S", "8S", "9S"]]},
            {"player": third, "layoffs": [{"cards": ["10S"], "onto": 1}]},
            {
                "player": first,
                "melds": [["4H", "4D", "4C"], ["JC", "QC", "KC"]],
                "layoffs": [{"cards": ["6S"], "onto": 1}],
                "discard": "2D",
                "out": True,
            },
        ],
        "hands": {
            second: ["KH", "2C", "9D", "5H"],
            third: ["AS", "5D", "QH", "3H", "8D", "JD"],
        },
    }


def first_views(base: str, bare_base: str, view_key: str, fresh: dict, app, bare) -> dict:
    """The first view of each fresh match (``fresh``: the ids by kind; half of them as the
    page, half as the JSON scoreboard), and as many single requests to the bare endpoint;
    after a warm-up of both workers on a match of the same length (so that no template is
    compiled in what is measured)."""
    for _ in range(8):
        requests.get(f"{base}/v/{view_key}/m/1/", timeout=60).raise_for_status()
        requests.get(f"{base}/api/v1/v/{view_key}/m/1", timeout=60).raise_for_status()
        requests.get(f"{bare_base}/", timeout=60).raise_for_status()
    each = min(len(ids) for ids in fresh.values()) // 2
    found = {"bare endpoint": one_at_a_time([f"{bare_base}/"] * each, bare)}
    for kind, ids in fresh.items():
        ids = list(ids)
        pages, answers = ids[: len(ids) // 2], ids[len(ids) // 2 :]
        found[f"page, {kind}"] = one_at_a_time([f"{base}/v/{view_key}/m/{m}/" for m in pages], app)
        found[f"JSON, {kind}"] = one_at_a_time(
            [f"{base}/api/v1/v/{view_key}/m/{m}" for m in answers], app
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description="Scoreboard page benchmark (wrk, four phones).")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument(
        "--fresh", type=int, default=30, help="matches viewed once each, first view (per kind)"
    )
    parser.add_argument("--database-url", default="", help="a PostgreSQL database (emptied)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")
    tmp = Path(tempfile.mkdtemp(prefix="scoreboard-bench-"))
    database = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    quiet = range(args.matches + 1, args.matches + 1 + 2 * args.fresh)
    played = range(quiet.stop, quiet.stop + 2 * args.fresh)
    fresh = {"final tables": quiet, "turn by turn": played}

    def entry(match: int, number: int) -> dict:
        if match in played:
            return own_round(played_round(number), match, number)
        return (
            own_round(quiet_round(number), match, number) if match in quiet else quiet_round(number)
        )

    edit_key, view_key = seed(database, {args.rounds: range(1, played.stop)}, entry)
    backend = sa.make_url(database).get_backend_name()
    print(f"seeded {args.matches} matches of {args.rounds} rounds ({backend})")
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": secrets.token_hex(16)}
    env["BACKUPS"] = "off"
    app, bare, base, bare_base = serve_both(env, tmp)
    shown, followed = 1, 2
    pages = {
        "page (view link)": f"{base}/v/{view_key}/m/{shown}/",
        "page (edit link)": f"{base}/t/{edit_key}/m/{shown}/",
    }
    json_scoreboard = f"{base}/api/v1/v/{view_key}/m/{shown}"
    runs = []
    loads = [load_average()]
    try:
        first = first_views(base, bare_base, view_key, fresh, app, bare)
        for url in pages.values():
            size = len(requests.get(url, timeout=60).content)
            print(f"{url.split('/m/')[0][:30]}…: {size / 1000:.0f} kB")
        for _ in range(args.repeat):
            found = {"bare endpoint": wrk(f"{bare_base}/", args.seconds, bare)}
            for name, url in pages.items():
                found[name] = wrk(url, args.seconds, app)
            found["JSON scoreboard"] = wrk(json_scoreboard, args.seconds, app)
            # One phone reloading at a time: the page's own wait, with no queue before it.
            found["bare, one phone"] = wrk(f"{bare_base}/", args.seconds, bare, connections=1)
            found["page, one phone"] = wrk(
                pages["page (view link)"], args.seconds, app, connections=1
            )
            runs.append(found)
            loads.append(load_average())
        phones = follow(base, edit_key, view_key, followed, args.rounds, args.changes, app)
        # The same on a match of rounds played turn by turn (its first view was measured).
        played_phones = follow(base, edit_key, view_key, played[0], args.rounds, args.changes, app)
    finally:
        stop(app)
        stop(bare)
    if database.startswith("postgresql"):
        with sa.create_engine(database).begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    print(f"\n{'':18} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'cpu ms':>7} {'ratio':>8}   runs")
    for name in runs[0]:
        rows = [run[name] for run in runs]
        peer = "bare, one phone" if name.endswith("one phone") else "bare endpoint"
        ratios = [run[peer]["rate"] / max(run[name]["rate"], 0.001) for run in runs]
        rate, p50, p99, cpu = (median(r[k] for r in rows) for k in ("rate", "p50", "p99", "cpu_ms"))
        ratio = median(ratios)
        verdict = ""
        if name == "page, one phone":  # the p99 target: the page's wait on a quiet server
            verdict = "ok" if p99 < P99_LIMIT_MS else "MISSED"
        elif name.startswith("page"):
            verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
        print(
            f"{name:18} {rate:8.0f} {p50:8.2f} {p99:8.2f} {cpu:7.2f} {'1/' + format(ratio, '.1f'):>8}"
            f" {verdict:6} {' '.join(f'{r:.1f}' for r in ratios)}"
        )
    verdict = "ok" if phones["largest"] < UPDATE_LIMIT else "MISSED"
    print(
        f"\nfour phones, {args.changes} rounds saved one at a time (each phone's update):"
        f"\n  bytes per update: median {phones['bytes'] / 1000:.1f} kB,"
        f" largest {phones['largest'] / 1000:.1f} kB (target < {UPDATE_LIMIT // 1000} kB: {verdict})"
        f"\n  slowest phone per change: median {phones['wait_ms']:.1f} ms,"
        f" worst {phones['wait_max_ms']:.1f} ms"
        f"\n  server CPU for the four updates of one change: mean {phones['cpu_ms']:.1f} ms"
        f"\n  the same, rounds played turn by turn: mean {played_phones['cpu_ms']:.1f} ms"
        f" (slowest phone: median {played_phones['wait_ms']:.1f} ms)"
    )
    print(
        f"\nfirst view of a {args.rounds}-round match no worker has replayed"
        f" ({args.fresh} of each, one at a time):"
        f"\n{'':22} {'p50 ms':>8} {'p95 ms':>8} {'worst ms':>9} {'cpu ms':>7}"
    )
    for name, found in first.items():
        verdict = ""
        if name != "bare endpoint":
            verdict = "ok" if found["p95"] < FIRST_VIEW_LIMIT_MS else "MISSED"
        print(
            f"{name:22} {found['p50']:8.2f} {found['p95']:8.2f} {found['worst']:9.2f}"
            f" {found['cpu_ms']:7.2f} {verdict}"
        )
    print("load average (1 min) before and after each run: " + ", ".join(f"{x:.1f}" for x in loads))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
