"""Benchmark: a backup of a 10,000-match SQLite database while four phones save rounds.

1. A new SQLite file is seeded as ``bench/load_bench.py`` seeds it: one table of
   ``--matches`` remi matches of ``--rounds`` rounds each, with their summaries.
2. ``referee serve --host 127.0.0.1`` serves it as ``make run`` does (2 workers x 8
   threads; its own automatic backups off, so that the copies below are the only ones).
3. Four "phones" (threads of this process) each save the next round of a match of their
   own through the API, one after the other, as fast as the server answers, for
   ``--seconds`` without any backup, then for ``--seconds`` while backups are made one
   after the other (``referee/web/store/backups.py``'s ``back_up``: the online backup API in
   one step, then ``PRAGMA integrity_check`` on the copy); ``--repeat`` runs both again.
4. It prints, for each phase, saves per second, p50, p99 and the slowest save, and the
   ratios of the phase with backups to the one without (medians over the runs, each
   ratio within its own run); and how long a backup takes (the copy, then the check)
   and how large it is.

The backup and the server share the machine's cores: what a copy costs the phones is
the CPU it takes (a reader never blocks a writer in WAL mode), which is what the
ratios show.

    .venv/bin/python bench/backup_bench.py [--matches 10000] [--rounds 5] [--seconds 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import secrets
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from statistics import median

import requests
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_bench import free_port, quiet_round, seed, start, stop  # noqa: E402

from referee.web.store import backups  # noqa: E402

PHONES = 4


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Phones:
    """Four phones, each saving the next round of its own matches, one after the other."""

    def __init__(self, base: str, edit_key: str, rounds: int) -> None:
        self.base, self.edit_key = base, edit_key
        self.next_round = {m: rounds + 1 for m in range(1, 10_000)}
        self.versions = {m: rounds + 1 for m in range(1, 10_000)}
        self.sessions = [requests.Session() for _ in range(PHONES)]

    def save(self, phone: int, match: int) -> float:
        number = self.next_round[match]
        url = f"{self.base}/api/v1/t/{self.edit_key}/m/{match}/rounds"
        began = time.perf_counter()
        answer = self.sessions[phone].post(
            url,
            json=quiet_round(number),
            headers={"If-Match": f'"m{match}v{self.versions[match]}"'},
        )
        took = time.perf_counter() - began
        if answer.status_code != 201:
            raise SystemExit(f"a save was answered {answer.status_code}: {answer.text[:300]}")
        self.next_round[match] += 1
        self.versions[match] += 1
        return took

    def run(self, seconds: float) -> tuple[list[float], float]:
        """Every save's time, and the saves' wall time."""
        took: list[float] = []
        until = time.monotonic() + seconds

        def phone(index: int) -> None:
            match = index + 1
            while time.monotonic() < until:
                took.append(self.save(index, match))
                match += PHONES  # each phone its own matches: no conflicts

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(PHONES)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return took, time.monotonic() - began


def backing_up(place: backups.Place, folder: Path, stop_at: threading.Event, made: list) -> None:
    number = 0
    while not stop_at.is_set():
        number += 1
        target = folder / f"copy-{number}.db"
        began = time.perf_counter()
        reading = backups.sqlite_connect(place.sqlite_file)
        writing = sqlite3.connect(str(target), isolation_level=None)
        reading.backup(writing, pages=-1)
        copied = time.perf_counter()
        writing.execute("PRAGMA journal_mode = DELETE")
        assert backups.integrity_problems(writing) == []
        writing.close()
        reading.close()
        made.append((copied - began, time.perf_counter() - copied, target.stat().st_size))
        target.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description="Backups while phones save rounds.")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="backup-bench-"))
    database = f"sqlite:///{tmp / 'bench.db'}"
    started = time.monotonic()
    edit_key, _view_key = seed(database, args.matches, args.rounds)
    print(
        f"seeded {args.matches} matches of {args.rounds} rounds in {time.monotonic() - started:.0f} s"
    )
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": secrets.token_hex(16),
        "BACKUPS": "off",
    }
    env.pop("HOST", None)
    referee = str(Path(sys.executable).with_name("referee"))
    server = start(
        [referee, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env,
        f"http://127.0.0.1:{port}/",
        tmp / "server.log",
    )
    place = backups.Place(sa.make_url(database), tmp / "backups", tmp / "bench.db-backups")
    (tmp / "copies").mkdir()
    phones = Phones(f"http://127.0.0.1:{port}", edit_key, args.rounds)
    rows = []
    made: list[tuple[float, float, int]] = []
    try:
        phones.run(2)  # warm-up
        for _ in range(args.repeat):
            quiet, quiet_wall = phones.run(args.seconds)
            stop_at = threading.Event()
            copier = threading.Thread(
                target=backing_up, args=(place, tmp / "copies", stop_at, made)
            )
            copier.start()
            busy, busy_wall = phones.run(args.seconds)
            stop_at.set()
            copier.join()
            rows.append(
                {
                    name: (
                        len(took) / wall,
                        percentile(took, 0.5),
                        percentile(took, 0.99),
                        max(took),
                    )
                    for name, took, wall in (
                        ("without", quiet, quiet_wall),
                        ("with", busy, busy_wall),
                    )
                }
            )
    finally:
        stop(server)
    print(
        f"\nsaves by {PHONES} phones, {args.seconds:.0f} s each phase, {args.repeat} runs (medians):"
    )
    print(f"{'phase':<27}{'saves/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, label in (("without", "no backup"), ("with", "backups one after another")):
        values = [median(run[name][i] for run in rows) for i in range(4)]
        print(
            f"{label:<27}{values[0]:>9.0f}{values[1] * 1000:>9.1f}{values[2] * 1000:>9.1f}{values[3] * 1000:>9.1f}"
        )
    for i, figure in ((0, "saves/s"), (2, "p99"), (3, "max")):
        ratios = [run["with"][i] / run["without"][i] for run in rows]
        print(
            f"ratio with/without, {figure}: {median(ratios):.2f} (runs: {', '.join(f'{r:.2f}' for r in ratios)})"
        )
    if made:
        print(
            f"a backup: {len(made)} made, copy {median(m[0] for m in made) * 1000:.0f} ms,"
            f" integrity check {median(m[1] for m in made) * 1000:.0f} ms,"
            f" {median(m[2] for m in made) / 1e6:.1f} MB (medians)"
        )


if __name__ == "__main__":
    main()
