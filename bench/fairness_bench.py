"""Does a public gunicorn setting spread the phones' connections over the workers as
``serve.IdleFirstWorker`` does?  The same saves of rounds, served by each way in turn.

In one run, on 127.0.0.1 only: a SQLite database seeded as ``bench/load_bench.py`` seeds it
(one table, ``--matches`` remi matches), then for each way of serving it (2 workers x 8
threads, everything else as ``referee serve`` sets it), ``wrk -t2 -c4`` saves rounds through
the API for ``--seconds`` (each request the next round of another match, with its If-Match),
and ``--repeat`` runs every way again, the ways taken in turn so that a busy moment of the
machine falls on all of them.  Printed: requests per second, p50 and p99, the server's CPU
milliseconds per request, and how the answered requests were shared between the two
workers (from the access log), medians over the runs.  Then, with two workers of one thread
each, one held in a save: how many of 8 new connections the other answers (a measure that a
busy machine moves much less than the rates).

The ways:

- ``idle-first``: what ``referee serve`` runs (``serve.IdleFirstWorker``);
- ``gthread``: gunicorn's own threaded worker, nothing else changed;
- ``reuse-port``: gunicorn's ``reuse_port`` setting (each worker its own socket with
  ``SO_REUSEPORT``: the kernel spreads the connections over them by a hash of their addresses);
- ``connections-2``: gunicorn's ``worker_connections`` at 2 (a worker holding 2 connections
  takes no more: 4 connections fill 2 workers; a fifth phone would wait);
- ``sync``: gunicorn's sync worker (a worker takes a connection only when it is idle, one
  request at a time, no keep-alive).

    apt-get install wrk
    .venv/bin/python bench/fairness_bench.py [--matches 2000] [--seconds 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any

import requests
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bench import SAVE_SCRIPT, free_port, seed, start, stop, wrk  # noqa: E402

WAYS: dict[str, dict[str, Any]] = {
    "idle-first": {},
    "gthread": {"worker_class": "gthread"},
    "reuse-port": {"worker_class": "gthread", "reuse_port": True},
    "connections-2": {"worker_class": "gthread", "worker_connections": 2},
    "sync": {"worker_class": "sync"},
}


def serve(way: str, port: int, threads: int) -> None:
    """Run ``referee serve``'s gunicorn with the options of ``way`` (blocks)."""
    from referee.web import serve as referee_serve

    settings = referee_serve.Settings("127.0.0.1", port, 2, threads)
    options = referee_serve.gunicorn_options(settings) | WAYS[way]
    # The banner reads the arbiter's socket, which reuse_port leaves to the workers.
    options.pop("when_ready")
    options["access_log_format"] = "pid=%(p)s %(s)s"  # which worker answered

    class Server(referee_serve.RefereeServer):
        def load_config(self) -> None:
            for name, value in options.items():
                self.cfg.set(name, value)

    referee_serve.prepare_app()
    Server(settings).run()


def shares(log: Path, since: int) -> list[int]:
    """Answered requests per worker in the access log from byte ``since``, largest first."""
    text = log.read_bytes()[since:].decode(errors="replace")
    counted = Counter(re.findall(r"^pid=<(\d+)> ", text, flags=re.M))
    return sorted(counted.values(), reverse=True)


def held_worker(
    way: str, tmp: Path, env: dict[str, str], database: str, edit_key: str
) -> tuple[int, float]:
    """With one worker (of 2, one thread each) held in a save that waits for SQLite's write
    lock, how many of 8 new connections are answered within 3 s (the test of
    tests/web/test_serve.py, with each way).  Counted, and the seconds the 8 took."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start(
        [sys.executable, __file__, "--serve", way, "--port", str(port), "--threads", "1"],
        env,
        base + "/",
        tmp / f"held-{way}.log",
    )
    try:
        made = requests.post(
            f"{base}/api/v1/t/{edit_key}/matches",
            json={"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
            timeout=30,
        ).json()
        match_url = f"{base}/api/v1/t/{edit_key}/m/{made['id']}"
        holder = sqlite3.connect(sa.make_url(database).database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        save = threading.Thread(
            target=lambda: requests.post(
                f"{match_url}/rounds",
                json={"out": "Siti", "hands": {"Budi": ["2C", "3D"]}},
                headers={"If-Match": f'"{made["etag"]}"'},
                timeout=60,
            )
        )
        save.start()
        time.sleep(1.0)  # the save has a worker, and waits for the lock
        answered = 0
        started = time.monotonic()
        try:
            for _ in range(8):
                try:
                    got = requests.get(match_url, headers={"Connection": "close"}, timeout=3)
                    answered += got.status_code == 200
                except requests.RequestException:
                    pass
        finally:
            seconds = time.monotonic() - started
            holder.execute("ROLLBACK")
            holder.close()
        save.join(60)
        return answered, seconds
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ways", default=",".join(WAYS))
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, default=8, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port, args.threads)
        return
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed: apt-get install wrk")
    ways = args.ways.split(",")
    tmp = Path(tempfile.mkdtemp(prefix="fairness-bench-"))
    database = f"sqlite:///{tmp / 'bench.db'}"
    edit_key, _view_key = seed(database, args.matches, args.rounds)
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": secrets.token_hex(16),
        "BACKUPS": "off",
    }
    held = {way: held_worker(way, tmp, env, database, edit_key) for way in ways}
    prefix = f"/api/v1/t/{edit_key}"
    # Each (run, way) saves into its own share of the matches.
    share = args.matches // (args.repeat * len(ways))
    found: dict[str, list[dict[str, Any]]] = {way: [] for way in ways}
    for run in range(args.repeat):
        for place, way in enumerate(ways):
            port = free_port()
            log = tmp / f"{way}.log"
            server = start(
                [sys.executable, __file__, "--serve", way, "--port", str(port)],
                env,
                f"http://127.0.0.1:{port}/",
                log,
            )
            try:
                first = 1 + (run * len(ways) + place) * share
                script = tmp / f"save-{run}-{way}.lua"
                script.write_text(SAVE_SCRIPT % (first, first + share - 1, args.rounds, prefix))
                since = log.stat().st_size
                measured = wrk(f"http://127.0.0.1:{port}", args.seconds, server, script=script)
                measured["shares"] = shares(log, since)
                found[way].append(measured)
            finally:
                stop(server)
    print(
        f"\n{'':14} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'cpu ms':>7}   worker shares per run"
    )
    for way, rows in found.items():
        rate, p50, p99, cpu = (
            median(row[key] for row in rows) for key in ("rate", "p50", "p99", "cpu_ms")
        )
        spread = "  ".join("/".join(str(n) for n in row["shares"]) for row in rows)
        rates = " ".join(f"{row['rate']:.0f}" for row in rows)
        print(
            f"{way:14} {rate:8.0f} {p50:8.2f} {p99:8.2f} {cpu:7.2f}   {spread}   (req/s: {rates})"
        )
        failed = sum(row["non_2xx"] for row in rows)
        if failed:
            print(f"{'':14} {failed} answers were not 2xx/3xx")
    print(
        "\nOne of two workers of one thread each held in a save (SQLite's write lock held):"
        " of 8 new connections, answered within 3 s"
    )
    for way, (answered, seconds) in held.items():
        print(f"{way:14} {answered} of 8   ({seconds:.1f} s for the 8)")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
