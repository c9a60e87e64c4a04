"""CPU of a save through the API into short and long matches, in one process.

``bench/load_bench.py`` measures the save as served, against a bare endpoint; on a machine
shared with other work its rates, and its CPU per request, move with the load.  This one
takes the same seeded table (``load_bench.seed``: remi matches of 2, 20 and 60 rounds, as
many of each), saves the next round of another match through the API's plain path with
the Flask test client, a match of each length in turn (so that the machine's load falls
on every length alike), and reports the CPU time of the process per save: the median over
the saves (the first ``--warm`` of each length left out) and the ratio of each length to
the shortest.  Every match is saved into once: no worker cache holds it, as in the served
bench.

    .venv/bin/python bench/save_cpu_bench.py [--matches 900] [--lengths 2,20,60]
        [--database-url postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import logging
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_bench import match_lengths, seed  # noqa: E402

from referee.web import create_app  # noqa: E402

BODY = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=900)
    parser.add_argument("--lengths", default="2,20,60")
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database to seed (everything in it is dropped); default: SQLite",
    )
    args = parser.parse_args()
    lengths = sorted({int(length) for length in args.lengths.split(",")})
    groups = match_lengths(args.matches, lengths)
    tmp = Path(tempfile.mkdtemp(prefix="save-cpu-"))
    url = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    edit_key, _view_key = seed(url, groups)
    logging.disable(logging.WARNING)
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": secrets.token_hex(16)}
        | {"RATELIMIT_ENABLED": False}
    )
    client = app.test_client()
    cpu: dict[int, list[float]] = {length: [] for length in lengths}
    for turn in range(min(len(ids) for ids in groups.values())):
        for length in lengths:
            match_id = groups[length][turn]
            started = time.process_time()
            answer = client.post(
                f"/api/v1/t/{edit_key}/m/{match_id}/rounds",
                json=BODY,
                headers={"If-Match": f'"m{match_id}v{length + 1}"'},
            )
            cpu[length].append(time.process_time() - started)
            assert answer.status_code == 201, answer.get_data(as_text=True)[:500]
    medians = {length: 1000 * statistics.median(cpu[length][args.warm :]) for length in lengths}
    shortest = medians[lengths[0]]
    print(f"{sa.make_url(url).get_backend_name()}, {len(cpu[lengths[0]])} saves a length")
    for length in lengths:
        print(
            f"  {length:>3} rounds: {medians[length]:.2f} ms of CPU a save (median),"
            f" {medians[length] / shortest:.2f}x the {lengths[0]}-round save"
        )
    with app.app_context():
        from referee.web.store.extensions import db

        db.engine.dispose()
    if url.startswith("postgresql"):
        with sa.create_engine(url).begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
