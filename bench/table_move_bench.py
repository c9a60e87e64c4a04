"""Benchmark: a whole table moved, its export streamed and imported back, at 100 to 10,000 matches.

Fills one table with seeded random matches of legal rounds (``history_bench.fill``:
the five rulesets, dates over four years, written in bulk with their summaries), then,
each step in a process of its own that has done nothing before (as a worker that has
just started):

- **export**: ``GET /t/<key>/export.json`` through the Flask test client, the streamed
  answer read chunk by chunk into a file; the CPU time of the request, the wall clock,
  the document's size and the process's peak memory (``ru_maxrss``) beside its memory
  before the request;
- **export before** (the peer, up to ``--legacy-max`` matches): the same table written as
  the app wrote it before, every match through the ORM and ``matchlog.document`` (every
  round read again into canonical form), one ``json.dumps(indent=1)`` of the whole;
- **import**: ``POST /tables/import`` of the exported file (a file upload, as a phone
  sends it); CPU, wall clock and peak memory; then the new table is exported again and
  must be byte for byte the document imported (the round trip).

The import's growth is the ratio of its CPU time at each size to its time at the
smallest.  Run: ``python bench/table_move_bench.py [--sizes 100,200,400,800,10000]
[--pg URL] [--no-sqlite] [--seed S] [--legacy-max N] [--out FILE]``.  PostgreSQL as in
``history_bench.py`` (``--pg`` or ``PGPORT``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqlalchemy as sa  # noqa: E402
from history_bench import Filled, _in_child, bench_app, fill_apart, hidden_fields  # noqa: E402
from sqlalchemy.orm import selectinload  # noqa: E402

from referee.web.store import matchlog  # noqa: E402
from referee.web.store.extensions import db  # noqa: E402
from referee.web.store.models import CardTable, Match, MatchPlayer  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _export_in_child(url: str, key: str, path: str, answer: Any) -> None:
    app = bench_app(url)
    client = app.test_client()
    client.get(f"/t/{key}/")  # the app warmed up: what a worker has loaded anyway
    before = rss_mb()
    digest = hashlib.sha256()
    cpu, wall = time.process_time(), time.perf_counter()
    response = client.get(f"/t/{key}/export.json", buffered=False)
    with open(path, "wb") as out:
        for chunk in response.iter_encoded():
            digest.update(chunk)
            out.write(chunk)
    response.close()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    answer.put((cpu, wall, before, peak_mb(), Path(path).stat().st_size, digest.hexdigest()))


def _legacy_in_child(url: str, table_id: int, answer: Any) -> None:
    """The export as the app made it before: every match through the ORM, every round read
    again into canonical form, the whole document indented at once."""
    app = bench_app(url)
    with app.app_context():
        before = rss_mb()
        cpu, wall = time.process_time(), time.perf_counter()
        matches = db.session.scalars(
            sa.select(Match)
            .where(Match.table_id == table_id, Match.deleted_at.is_(None))
            .options(
                selectinload(Match.seats).selectinload(MatchPlayer.player),
                selectinload(Match.stored_rounds),
            )
            .order_by(Match.id)
        )
        documents = []
        for match in matches:
            document = matchlog.document(match)
            document["started"] = match.created_at.isoformat()
            document["played"] = [r.created_at.isoformat() for r in match.complete_rounds]
            documents.append(document)
        table = db.session.get(CardTable, table_id)
        assert table is not None
        whole = {"format": "referee-table/1", "name": table.name, "matches": documents}
        size = len(json.dumps(whole, ensure_ascii=False, indent=1).encode())
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    answer.put((cpu, wall, before, peak_mb(), size))


def _import_in_child(url: str, path: str, answer: Any) -> None:
    app = bench_app(url)
    client = app.test_client()
    page = client.get("/tables/import").get_data(as_text=True)
    fields = hidden_fields(page)
    before = rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    with open(path, "rb") as upload:
        response = client.post(
            "/tables/import",
            data={**fields, "file": (upload, "table.json")},
            content_type="multipart/form-data",
        )
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    location = response.headers.get("Location", "")
    if response.status_code != 302:
        raise RuntimeError(f"import refused: {response.status_code} {response.text[:2000]}")
    answer.put((cpu, wall, before, peak_mb(), location.split("/t/")[1].rstrip("/")))


def table_of(url: str, key: str) -> int:
    app = bench_app(url)
    with app.app_context():
        found = db.session.scalar(sa.select(CardTable.id).where(CardTable.edit_key == key))
        assert found is not None
        return found


def run(backend: str, url: str, size: int, seed: int, legacy_max: int, folder: str) -> list[str]:
    started = time.perf_counter()
    filled: Filled = fill_apart(url, size, seed)
    print(f"{backend}, {size} matches: filled in {time.perf_counter() - started:.0f} s", flush=True)
    document = f"{folder}/export-{size}.json"
    e_cpu, e_wall, e_before, e_peak, e_size, e_hash = _in_child(
        _export_in_child, url, filled.edit_key, document
    )
    with open(document, "rb") as written:
        rounds = sum(len(match["rounds"]) for match in json.load(written)["matches"])
    lines = [
        f"| {backend} | {size:,} | export (streamed), {rounds:,} rounds | {e_cpu:.2f} | "
        f"{e_wall:.2f} | {e_before:.0f} / {e_peak:.0f} | {e_size / 2**20:.1f} |"
    ]
    if size <= legacy_max:
        l_cpu, l_wall, l_before, l_peak, l_size = _in_child(
            _legacy_in_child, url, table_of(url, filled.edit_key)
        )
        lines.append(
            f"| {backend} | {size:,} | export before (whole, indented) | {l_cpu:.2f} | "
            f"{l_wall:.2f} | {l_before:.0f} / {l_peak:.0f} | {l_size / 2**20:.1f} |"
        )
    i_cpu, i_wall, i_before, i_peak, key = _in_child(_import_in_child, url, document)
    again = f"{folder}/again-{size}.json"
    *_figures, a_hash = _in_child(_export_in_child, url, key, again)
    same = "same document" if a_hash == e_hash else "DIFFERENT document"
    lines.append(
        f"| {backend} | {size:,} | import of the export ({same} back) | {i_cpu:.2f} | "
        f"{i_wall:.2f} | {i_before:.0f} / {i_peak:.0f} | |"
    )
    for line in lines:
        print(line, flush=True)
    Path(again).unlink()
    Path(document).unlink()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,200,400,800,10000")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pg", default=None)
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--legacy-max", type=int, default=1000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    pg_url = args.pg or (
        f"postgresql+psycopg://app:app@127.0.0.1:{os.environ['PGPORT']}/app_test"
        if os.environ.get("PGPORT")
        else None
    )
    backends = ([] if args.no_sqlite else ["SQLite"]) + (["PostgreSQL"] if pg_url else [])
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        for backend in backends:
            for size in sizes:
                url = f"sqlite:///{folder}/move-{size}.db" if backend == "SQLite" else str(pg_url)
                lines += run(backend, url, size, args.seed, args.legacy_max, folder)
    header = (
        "| database | matches | step | CPU s | wall s | memory MB (before / peak) | MB |\n"
        "|---|---:|---|---:|---:|---:|---:|"
    )
    report = header + "\n" + "\n".join(lines) + "\n"
    print("\n" + report)
    if args.out:
        Path(args.out).write_text(report)


if __name__ == "__main__":
    main()
