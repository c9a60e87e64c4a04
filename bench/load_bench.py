"""Load benchmark: the app served the way ``make run`` serves it, against a bare Flask endpoint.

In one run, on 127.0.0.1 only:

1. a database (a new SQLite file, or the PostgreSQL of ``--database-url``, emptied) is
   seeded with one table of ``--matches`` remi matches (rows inserted directly), as many
   of each length of ``--lengths`` (2, 20 and 60 rounds: a short match and realistic
   ones), and the summaries every match keeps, as the migration fills them;
2. ``referee serve --host 127.0.0.1`` (gunicorn, gthread, the default 2 workers x 8
   threads, the rate limiter on) serves it, and ``bench/bare_app.py`` serves a bare Flask
   endpoint returning a constant with the same gunicorn settings;
3. ``wrk`` (Debian's package: ``apt-get install wrk``) loads each for ``--seconds``
   with 2 threads and 4 connections: the bare endpoint, the scoreboard read through the
   API and as a page, a round saved through the API (each request saves the next round
   of another match, with its If-Match; a thread that has been through its matches goes
   through them again, naming the versions its saves answered), and the live change check
   (``.../version`` with If-None-Match: 304); ``--repeat`` runs the whole sequence again;
4. it prints requests per second, p50 and p99, the server's CPU milliseconds per request
   (its processes' user and system time over the requests answered), and the ratios to
   the bare endpoint: medians over the runs, each ratio taken within its own run, with
   every run's ratio beside it to show how noisy the machine was.

wrk runs on the same 2 cores as the server and takes its share of them (about a core
at full speed): the bare endpoint's figure is bounded by that too, which is why the
ratios, measured in one run, are the result.  On a machine shared with other work the
CPU time per request varies much less than the rates do.

    apt-get install wrk
    .venv/bin/python bench/load_bench.py [--matches 6000] [--lengths 2,20,60] [--seconds 10]
        [--repeat 3] [--database-url postgresql+psycopg://...]
        [--only scoreboard,page,save,form,check]
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from statistics import median

import requests
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Budi", "Siti", "Andi"]
TARGETS = {"scoreboard": 10, "save a round": 20, "change check": 2}
# A save into a long match costs at most this much the CPU of a save into the shortest one.
SAVE_CPU_LIMIT = 1.5
P99_LIMIT_MS = 50


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def quiet_round(number: int) -> dict:
    """Round ``number`` of a seeded match: someone goes out, the others hold a few cards."""
    out = PLAYERS[number % 3]
    others = [name for name in PLAYERS if name != out]
    return {"out": out, "hands": {others[0]: ["2C"], others[1]: ["3D", "4H"]}}


def match_lengths(matches: int, lengths: Sequence[int]) -> dict[int, range]:
    """The ids of the seeded matches of each length: as many of each, one after the other."""
    each = matches // len(lengths)
    return {length: range(1 + i * each, 1 + (i + 1) * each) for i, length in enumerate(lengths)}


def seed(
    url: str, groups: dict[int, range], entry: Callable[[int, int], dict] | None = None
) -> tuple[str, str]:
    """One table with the remi matches of ``groups`` (ids by number of rounds); its edit
    and view keys.  ``entry(match, number)``: a round of a match (else :func:`quiet_round`)."""
    from flask_migrate import upgrade

    from referee.web import MIGRATIONS, create_app
    from referee.web.store import summary
    from referee.web.store.extensions import db
    from referee.web.store.models import CardTable, Match, MatchPlayer, Player, Round

    if url.startswith("postgresql"):  # a clean slate: the bench's own tables only
        with sa.create_engine(url).begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
        db.engine.dispose()
    engine = sa.create_engine(url)
    edit_key, view_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    now = datetime.now(UTC)
    rounds_of = {m: length for length, ids in groups.items() for m in ids}
    entries = [quiet_round(n) for n in range(1, max(groups) + 1)]
    with engine.begin() as connection:
        connection.execute(
            CardTable.__table__.insert(),
            [
                {
                    "id": 1,
                    "name": "Bench",
                    "edit_key": edit_key,
                    "view_key": view_key,
                    "created_at": now,
                }
            ],
        )
        connection.execute(
            Player.__table__.insert(),
            [
                {"id": i + 1, "table_id": 1, "name": name, "created_at": now}
                for i, name in enumerate(PLAYERS)
            ],
        )
        connection.execute(
            Match.__table__.insert(),
            [
                {
                    "id": m,
                    "table_id": 1,
                    "rules": "remi",
                    "options": {"target": 10000},
                    "first_dealer": "Budi",
                    "created_at": now,
                    "updated_at": now,
                    "version": rounds_of[m] + 1,
                }
                for m in rounds_of
            ],
        )
        connection.execute(
            MatchPlayer.__table__.insert(),
            [
                {"match_id": m, "seat": seat, "player_id": seat + 1}
                for m in rounds_of
                for seat in range(3)
            ],
        )
        connection.execute(
            Round.__table__.insert(),
            [
                {
                    "match_id": m,
                    "number": n + 1,
                    "entry": entries[n] if entry is None else entry(m, n + 1),
                    "complete": True,
                    "created_at": now,
                    "updated_at": now,
                    "version": 1,
                }
                for m in rounds_of
                for n in range(rounds_of[m])
            ],
        )
        # The summaries every match keeps (the match list, the statistics), as the
        # migration's backfill fills them: a save rewrites its match's and the totals.
        summary.refresh_all(connection)
        if engine.dialect.name == "postgresql":  # the ids given above: the sequences follow
            for table in ("card_tables", "players", "matches"):
                connection.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" (SELECT max(id) FROM {table}))"
                )
    if engine.dialect.name == "postgresql":
        # What autovacuum would do in the first minutes after so many rows arrive, done before
        # anything is measured (its planner statistics, and no vacuum running meanwhile).
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE")
    engine.dispose()
    return edit_key, view_key


def start(command: list[str], env: dict[str, str], url: str, log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{command[0]} stopped:\n{log.read_text()[-2000:]}")
        try:
            requests.get(url, timeout=5)
            return process
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit(f"{command[0]} did not start:\n{log.read_text()[-2000:]}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)


SAVE_SCRIPT = """
-- Each request saves the next round of another match, naming its version.  Each of the
-- 2 threads takes its own half of the matches; when a thread has gone through its half
-- it starts again, naming the versions its saves answered (ETag).
local first, last, rounds, prefix = %d, %d, %d, "%s"
local counter = 0
local versions = {}
thread_id = 0  -- a global: setup() gives each thread its own
local threads = 0
function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end
function request()
  local half = math.floor((last - first + 1) / 2)
  local match = first + thread_id * half + (counter %% half)
  counter = counter + 1
  local body = '{"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}'
  local headers = {}
  headers["Content-Type"] = "application/json"
  headers["If-Match"] = '"m' .. match .. 'v' .. (versions[match] or (rounds + 1)) .. '"'
  return wrk.format("POST", prefix .. "/m/" .. match .. "/rounds", headers, body)
end
function response(status, headers, body)
  local match, version = string.match(headers["ETag"] or "", "m(%%d+)v(%%d+)")
  if match and status == 201 then versions[tonumber(match)] = tonumber(version) end
end
"""


FORM_SCRIPT = """
-- Each request saves the next round of another match through the round form, as a phone
-- posts it (its CSRF token and session cookie, a one-time token, the match's version);
-- the threads share the matches out as in the API's saves.  The form answers a redirect
-- to the match: its version is then one more.
local first, last, rounds, prefix, csrf, cookie = %d, %d, %d, "%s", "%s", "%s"
local counter = 0
local versions = {}
thread_id = 0
local threads = 0
local letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end
function init(args)
  math.randomseed(os.time() + thread_id * 7919)
end
local function token()
  local out = {}
  for i = 1, 24 do
    local at = math.random(1, #letters)
    out[i] = string.sub(letters, at, at)
  end
  return table.concat(out)
end
function request()
  local half = math.floor((last - first + 1) / 2)
  local match = first + thread_id * half + (counter %% half)
  counter = counter + 1
  local version = versions[match] or (rounds + 1)
  local body = "csrf_token=" .. csrf .. "&for_round=" .. version .. "&match_version=" .. version
    .. "&round_version=&once=" .. token() .. "&ending=out&player=Siti"
    .. "&hand_0=2C&hand_1=&hand_2=3D+4H&action=save"
  local headers = {}
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  headers["Cookie"] = cookie
  return wrk.format("POST", prefix .. "/m/" .. match .. "/rounds/new", headers, body)
end
function response(status, headers, body)
  local match = string.match(headers["Location"] or "", "/m/(%%d+)/")
  if match and status == 302 then
    match = tonumber(match)
    versions[match] = (versions[match] or (rounds + 1)) + 1
  end
end
"""


def form_session(base: str, edit_key: str, match_id: int) -> tuple[str, str]:
    """A CSRF token and the session cookie it belongs to, from a round form's page."""
    session = requests.Session()
    page = session.get(f"{base}/t/{edit_key}/m/{match_id}/rounds/new", timeout=30)
    page.raise_for_status()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.text)
    if token is None:
        token = re.search(r'value="([^"]+)"[^>]*name="csrf_token"', page.text)
    assert token is not None, "no CSRF token on the round form"
    cookie = "; ".join(f"{name}={value}" for name, value in session.cookies.items())
    return token.group(1), cookie


def cpu_seconds(group: int) -> float:
    """User and system CPU time of every process of a process group (the server's
    arbiter and workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def wrk(
    url: str,
    seconds: int,
    server: subprocess.Popen,
    script: Path | None = None,
    headers: Sequence[str] = (),
    connections: int = 4,
) -> dict[str, float]:
    """Load ``url`` for ``seconds`` from ``connections`` at once: requests/s, p50 and p99
    (ms), the server's CPU milliseconds per request, and the answers that were not 2xx/3xx."""
    threads = min(2, connections)
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script is not None:
        command += ["-s", str(script)]
    cpu_before = cpu_seconds(server.pid)
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server.pid) - cpu_before
    requests_done = int(re.search(r"(\d+) requests in", out).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    found = {"rate": rate, "cpu_ms": 1000 * cpu / max(requests_done, 1)}
    for label, key in (("50%", "p50"), ("99%", "p99")):
        value, unit = re.search(rf"\s{label}\s+([\d.]+)(us|ms|s)", out).groups()
        found[key] = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    found["non_2xx"] = int(errors.group(1)) if errors else 0
    return found


def load_average() -> float:
    return os.getloadavg()[0]


def serve_both(
    env: dict[str, str], tmp: Path
) -> tuple[subprocess.Popen, subprocess.Popen, str, str]:
    """The app served as ``make run`` serves it and the bare endpoint on the same settings,
    both on 127.0.0.1: their processes and their addresses."""
    env = {key: value for key, value in env.items() if key != "HOST"}
    app_port, bare_port = free_port(), free_port()
    referee = str(Path(sys.executable).with_name("referee"))
    base, bare_base = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{bare_port}"
    app = start(
        [referee, "serve", "--host", "127.0.0.1", "--port", str(app_port)],
        env,
        f"{base}/",
        tmp / "app.log",
    )
    bare = start(
        [sys.executable, str(ROOT / "bench" / "bare_app.py"), "--port", str(bare_port)],
        env,
        f"{bare_base}/",
        tmp / "bare.log",
    )
    return app, bare, base, bare_base


def main() -> None:
    parser = argparse.ArgumentParser(description="Load benchmark of the served app (wrk).")
    parser.add_argument("--matches", type=int, default=6_000)
    parser.add_argument(
        "--lengths", default="2,20,60", help="rounds of the seeded matches (as many of each)"
    )
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of every load, one after the other; medians"
    )
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database to seed (everything in it is dropped); default: a new SQLite file",
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated loads to run beside the bare endpoint:"
        " scoreboard, page, save, form, check",
    )
    args = parser.parse_args()
    chosen = set(filter(None, args.only.split(","))) or {
        *("scoreboard", "page", "save", "form", "check")
    }
    lengths = sorted({int(length) for length in args.lengths.split(",")})
    groups = match_lengths(args.matches, lengths)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")
    tmp = Path(tempfile.mkdtemp(prefix="load-bench-"))
    database = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    started = time.monotonic()
    edit_key, view_key = seed(database, groups)
    print(
        f"seeded {args.matches} matches of {', '.join(map(str, lengths))} rounds"
        f" ({sa.make_url(database).get_backend_name()}) in {time.monotonic() - started:.0f} s"
    )
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": secrets.token_hex(16),
        "BACKUPS": "off",  # measured apart: bench/backup_bench.py
    }
    app, bare, base, bare_base = serve_both(env, tmp)
    prefix = f"/api/v1/t/{edit_key}"
    longest = max(lengths)
    shown = groups[longest][0]  # the first of the longest matches: no save goes into it

    def saved_into(length: int, how: int, run: int) -> tuple[int, int]:
        """The first and last match a run saves into, through the API (``how`` 0) or the
        form (1): each its own share of the matches of that length."""
        ids = groups[length][1:] if length == longest else groups[length]
        share = len(ids) // (2 * args.repeat)
        first = ids[(how * args.repeat + run) * share]
        return first, first + share - 1

    runs: list[dict[str, dict[str, float]]] = []
    loads = [load_average()]
    try:
        for warm in (f"{base}{prefix}/m/{shown}", f"{base}/v/{view_key}/m/{shown}/"):
            requests.get(warm, timeout=30)
        csrf, cookie = form_session(base, edit_key, shown)
        for run in range(args.repeat):
            found = {}
            found["bare endpoint"] = wrk(f"{bare_base}/", args.seconds, bare)
            if "scoreboard" in chosen:
                found["scoreboard"] = wrk(
                    f"{base}/api/v1/v/{view_key}/m/{shown}", args.seconds, app
                )
            if "page" in chosen:
                found["scoreboard page"] = wrk(f"{base}/v/{view_key}/m/{shown}/", args.seconds, app)
            for length in lengths:
                if "save" in chosen:
                    script = tmp / f"save{run}-{length}.lua"
                    first, last = saved_into(length, 0, run)
                    script.write_text(SAVE_SCRIPT % (first, last, length, prefix))
                    found[f"save API, {length}"] = wrk(base, args.seconds, app, script=script)
                if "form" in chosen:
                    script = tmp / f"form{run}-{length}.lua"
                    first, last = saved_into(length, 1, run)
                    script.write_text(
                        FORM_SCRIPT % (first, last, length, f"/t/{edit_key}", csrf, cookie)
                    )
                    found[f"save form, {length}"] = wrk(base, args.seconds, app, script=script)
            if "check" in chosen:
                found["change check"] = wrk(
                    f"{base}/api/v1/v/{view_key}/m/{shown}/version",
                    args.seconds,
                    app,
                    headers=[f'If-None-Match: "m{shown}v{longest + 1}"'],
                )
            runs.append(found)
            loads.append(load_average())
    finally:
        stop(app)
        stop(bare)
    saved = sa.create_engine(database)
    with saved.connect() as connection:
        count = connection.execute(sa.text("SELECT count(*) FROM rounds")).scalar() - sum(
            length * len(ids) for length, ids in groups.items()
        )
        if saved.dialect.name == "postgresql":  # leave the database as empty as it was given
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            connection.commit()
    saved.dispose()
    report(runs)
    print(f"\nrounds saved: {count} (each the next round of a match)")
    print("load average (1 min) before and after each run: " + ", ".join(f"{x:.1f}" for x in loads))
    shutil.rmtree(tmp, ignore_errors=True)


def report(runs: list[dict[str, dict[str, float]]]) -> None:
    """Medians over the runs (each ratio taken within its own run), and the spread of the ratios."""
    print(
        f"\n{'':18} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'cpu ms':>7} {'ratio':>8}"
        f" {'target':>7}   ratios of the {len(runs)} run(s)"
    )
    for name in runs[0]:
        kind, _, length = name.partition(", ")
        limit = TARGETS.get(name) or (TARGETS["save a round"] if kind.startswith("save") else None)
        rows = [run[name] for run in runs]
        ratios = [run["bare endpoint"]["rate"] / max(run[name]["rate"], 0.001) for run in runs]
        rate, p50, p99, cpu = (
            median(row[key] for row in rows) for key in ("rate", "p50", "p99", "cpu_ms")
        )
        ratio = median(ratios)
        target = f"1/{limit}" if limit else ""
        verdict = ""
        if limit:
            verdict = "ok" if ratio <= limit and p99 < P99_LIMIT_MS else "MISSED"
        spread = " ".join(f"{r:.1f}" for r in ratios)
        print(
            f"{name:18} {rate:8.0f} {p50:8.2f} {p99:8.2f} {cpu:7.2f} {'1/' + format(ratio, '.1f'):>8}"
            f" {target:>7} {verdict:6} {spread}"
        )
        shortest = next((other for other in runs[0] if other.startswith(kind + ", ")), name)
        if kind.startswith("save") and shortest != name:
            cpu_ratio = cpu / median(run[shortest]["cpu_ms"] for run in runs)
            within = "ok" if cpu_ratio <= SAVE_CPU_LIMIT else "MISSED"
            print(f"{'':18} CPU {cpu_ratio:.2f}x a save into the shortest match ({within})")
        failed = sum(row["non_2xx"] for row in rows)
        if failed and name != "change check":
            print(f"{'':18} {failed} answers were not 2xx/3xx")


if __name__ == "__main__":
    main()
