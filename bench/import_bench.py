"""Importing a table (``/tables/import``): the time grows with the number of matches, linearly.

A ``referee-table/1`` document of ``n`` remi matches (three players, ``--rounds`` legal
rounds each, as the export writes them) is posted through the Flask test client to a
fresh SQLite database, for each size of ``--sizes``; ``--repeat`` times each, the best
time kept.  The import replays every match once to check it, stores it, and recounts each
match's summary once (the unit of work, at the commit).  Target: 800 matches take no
more than 9 times as long as 100 (8 times the work).

    .venv/bin/python bench/import_bench.py [--sizes 100,800] [--rounds 5] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Budi", "Siti", "Andi"]
TARGET = 9.0


def quiet_round(number: int) -> dict:
    """Round ``number``: someone goes out, the others hold a few cards (as load_bench)."""
    out = PLAYERS[number % 3]
    others = [name for name in PLAYERS if name != out]
    return {"out": out, "hands": {others[0]: ["2C"], others[1]: ["3D", "4H"]}}


def document(matches: int, rounds: int) -> str:
    entries = [quiet_round(n) for n in range(1, rounds + 1)]
    played = [f"2026-01-01T20:{n:02d}:00+00:00" for n in range(rounds)]
    match = {
        "format": "referee-match/1",
        "rules": "remi",
        "options": {"target": 10000},
        "players": PLAYERS,
        "first_dealer": "Budi",
        "rounds": entries,
        "started": "2026-01-01T20:00:00+00:00",
        "played": played,
    }
    return json.dumps(
        {
            "format": "referee-table/1",
            "name": "Bench",
            "players": PLAYERS,
            "matches": [match] * matches,
        }
    )


def import_once(text: str) -> float:
    from flask_migrate import upgrade

    from referee.web import MIGRATIONS, create_app

    with tempfile.TemporaryDirectory(prefix="import-bench-") as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "TESTING": True,
                "RATELIMIT_ENABLED": False,
                "BACKUPS": "off",
            }
        )
        with app.app_context():
            upgrade(directory=str(MIGRATIONS))
        client = app.test_client()
        home = client.get("/").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', home)
        if token is None:
            raise SystemExit("no CSRF token on the home page")
        # The bench's matches are alike: imported as copies, as the import offers.
        form = {
            "document": text,
            "copies": "y",
            "once": secrets.token_urlsafe(18),
            "csrf_token": token[1],
        }
        started = time.perf_counter()
        answer = client.post("/tables/import", data=form)
        elapsed = time.perf_counter() - started
        if answer.status_code != 302:
            raise SystemExit(f"the import was refused: {answer.status_code}")
        from referee.web.store.extensions import db

        with app.app_context():
            db.engine.dispose()
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,800")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    import logging

    logging.getLogger("alembic").setLevel(logging.WARNING)
    sizes = [int(size) for size in args.sizes.split(",")]
    best = {}
    for size in sizes:
        text = document(size, args.rounds)
        best[size] = min(import_once(text) for _ in range(args.repeat))
        print(f"{size:6d} matches: {best[size]:7.2f} s ({best[size] / size * 1000:.1f} ms a match)")
    first, last = sizes[0], sizes[-1]
    ratio = best[last] / best[first]
    verdict = "met" if ratio <= TARGET * last / first / 8 else "MISSED"
    print(
        f"{last} / {first}: {ratio:.1f}x (target at most {TARGET * last / first / 8:.0f}x) {verdict}"
    )


if __name__ == "__main__":
    main()
