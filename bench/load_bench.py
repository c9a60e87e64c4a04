"""Load benchmark: the app served the way ``make run`` serves it, against a bare Flask endpoint.

In one run, on 127.0.0.1 only:

1. a SQLite database is seeded with one table of 10,000 remi matches (rows inserted
   directly), each with ``--rounds`` rounds;
2. ``referee serve --host 127.0.0.1`` (gunicorn, gthread, the default 2 workers x 8
   threads) serves it, and ``bench/bare_app.py`` serves a bare Flask endpoint returning a
   constant with the same gunicorn settings;
3. ``wrk`` (Debian's package: ``apt-get install wrk``) loads each for ``--seconds``
   with 2 threads and 4 connections: the bare endpoint, the scoreboard read through the
   API and as a page, a round saved through the API (each request saves the next round
   of another match, with its If-Match), and the live change check
   (``.../version`` with If-None-Match: 304);
4. it prints requests per second, p50 and p99, and the ratios to the bare endpoint.

wrk runs on the same 2 cores as the server and takes its share of them (about a core
at full speed): the bare endpoint's figure is bounded by that too, which is why the
ratios, measured in one run, are the result.

    apt-get install wrk
    .venv/bin/python bench/load_bench.py [--matches 10000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import json
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
from datetime import UTC, datetime
from pathlib import Path

import requests
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Budi", "Siti", "Andi"]
TARGETS = {"scoreboard": 10, "save a round": 20, "change check": 2}
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


def seed(url: str, matches: int, rounds: int) -> tuple[str, str]:
    """One table with ``matches`` remi matches of ``rounds`` rounds each; its edit and view keys."""
    from flask_migrate import upgrade

    from referee.web import MIGRATIONS, create_app
    from referee.web.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
        db.engine.dispose()
    engine = sa.create_engine(url)
    edit_key, view_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    now = datetime.now(UTC)
    entries = [json.dumps(quiet_round(n)) for n in range(1, rounds + 1)]
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO card_tables (id, name, edit_key, view_key, created_at)"
            " VALUES (1, 'Bench', ?, ?, ?)",
            (edit_key, view_key, now),
        )
        connection.exec_driver_sql(
            "INSERT INTO players (id, table_id, name, created_at) VALUES (?, 1, ?, ?)",
            [(i + 1, name, now) for i, name in enumerate(PLAYERS)],
        )
        connection.exec_driver_sql(
            "INSERT INTO matches (id, table_id, rules, options, first_dealer, created_at,"
            " updated_at, version) VALUES (?, 1, 'remi', ?, 'Budi', ?, ?, ?)",
            [(m, '{"target": 100000}', now, now, rounds + 1) for m in range(1, matches + 1)],
        )
        connection.exec_driver_sql(
            "INSERT INTO match_players (match_id, seat, player_id) VALUES (?, ?, ?)",
            [(m, seat, seat + 1) for m in range(1, matches + 1) for seat in range(3)],
        )
        connection.exec_driver_sql(
            "INSERT INTO rounds (match_id, number, entry, complete, created_at, updated_at,"
            " version) VALUES (?, ?, ?, 1, ?, ?, 1)",
            [
                (m, n + 1, entries[n], now, now)
                for m in range(1, matches + 1)
                for n in range(rounds)
            ],
        )
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
-- Each request saves the next round of another match, naming its version.
local first, last, rounds, prefix = %d, %d, %d, "%s"
local counter = 0
thread_id = 0  -- a global: setup() gives each thread its own
local threads = 0
function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end
function request()
  local match = first + thread_id + counter * 2
  counter = counter + 1
  if match > last then match = first + ((match - first) %% (last - first + 1)) end
  local body = '{"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}'
  local headers = {}
  headers["Content-Type"] = "application/json"
  headers["If-Match"] = '"m' .. match .. 'v' .. (rounds + 1) .. '"'
  return wrk.format("POST", prefix .. "/m/" .. match .. "/rounds", headers, body)
end
"""


def wrk(url: str, seconds: int, script: Path | None = None, headers: list[str] = ()) -> dict:
    command = ["wrk", "-t2", "-c4", f"-d{seconds}s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script is not None:
        command += ["-s", str(script)]
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    found = {"rate": rate}
    for label, key in (("50%", "p50"), ("99%", "p99")):
        value, unit = re.search(rf"\s{label}\s+([\d.]+)(us|ms|s)", out).groups()
        found[key] = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    found["non_2xx"] = int(errors.group(1)) if errors else 0
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description="Load benchmark of the served app (wrk).")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per seeded match")
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")
    tmp = Path(tempfile.mkdtemp(prefix="load-bench-"))
    database = f"sqlite:///{tmp / 'bench.db'}"
    started = time.monotonic()
    edit_key, view_key = seed(database, args.matches, args.rounds)
    print(
        f"seeded {args.matches} matches of {args.rounds} rounds in {time.monotonic() - started:.0f} s"
    )
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": secrets.token_hex(16),
        "RATELIMIT_ENABLED": "false",
    }
    env.pop("HOST", None)
    app_port, bare_port = free_port(), free_port()
    referee = str(Path(sys.executable).with_name("referee"))
    app = start(
        [referee, "serve", "--host", "127.0.0.1", "--port", str(app_port)],
        env,
        f"http://127.0.0.1:{app_port}/",
        tmp / "app.log",
    )
    bare = start(
        [sys.executable, str(ROOT / "bench" / "bare_app.py"), "--port", str(bare_port)],
        env,
        f"http://127.0.0.1:{bare_port}/",
        tmp / "bare.log",
    )
    base = f"http://127.0.0.1:{app_port}"
    prefix = f"/api/v1/t/{edit_key}"
    shown = args.matches // 2  # a match in the middle of the table
    save_first = args.matches // 2 + 1
    save_script = tmp / "save.lua"
    save_script.write_text(SAVE_SCRIPT % (save_first, args.matches, args.rounds, prefix))
    results = {}
    try:
        for warm in (f"{base}{prefix}/m/{shown}", f"{base}/v/{view_key}/m/{shown}/"):
            requests.get(warm, timeout=30)
        results["bare endpoint"] = wrk(f"http://127.0.0.1:{bare_port}/", args.seconds)
        results["scoreboard"] = wrk(f"{base}/api/v1/v/{view_key}/m/{shown}", args.seconds)
        results["scoreboard page"] = wrk(f"{base}/v/{view_key}/m/{shown}/", args.seconds)
        results["save a round"] = wrk(base, args.seconds, script=save_script)
        results["change check"] = wrk(
            f"{base}/api/v1/v/{view_key}/m/{shown}/version",
            args.seconds,
            headers=[f'If-None-Match: "m{shown}v{args.rounds + 1}"'],
        )
    finally:
        stop(app)
        stop(bare)
    saved = sa.create_engine(database)
    with saved.connect() as connection:
        count = connection.exec_driver_sql(
            "SELECT count(*) FROM rounds WHERE number = ?", (args.rounds + 1,)
        ).scalar()
    saved.dispose()
    bare_rate = results["bare endpoint"]["rate"]
    print(f"\n{'':18} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>8} {'target':>8}")
    for name, found in results.items():
        ratio = bare_rate / found["rate"] if found["rate"] else float("inf")
        target = f"1/{TARGETS[name]}" if name in TARGETS else ""
        verdict = ""
        if name in TARGETS:
            verdict = "ok" if ratio <= TARGETS[name] and found["p99"] < P99_LIMIT_MS else "MISSED"
        print(
            f"{name:18} {found['rate']:8.0f} {found['p50']:8.2f} {found['p99']:8.2f}"
            f" {'1/' + format(ratio, '.1f'):>8} {target:>8} {verdict}"
        )
        if found["non_2xx"] and name != "change check":
            print(f"{'':18} {found['non_2xx']} answers were not 2xx/3xx")
    print(f"\nrounds saved through the API: {count} (each a new round of another match)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
