"""Where a round form's save spends its time, beside the API's save of the same round.

In one process (no server, no wrk: the Flask test client), on a database seeded as
``bench/load_bench.py`` seeds it: each match of ``--length`` rounds gets its next round
once through the round form (the phone's POST, with its CSRF token, session cookie and
one-time token) and, on other matches, once through the API: the CPU per save of each
way, then cProfile's view of the other half of the form's saves (``--top`` functions by
cumulative time, what the form's view calls, and the own time of the API's and the
form's saves side by side by package; ``--top 0``: none).

    .venv/bin/python bench/form_profile.py [--length 20] [--saves 200]
        [--database-url postgresql+psycopg://...] [--top 40]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqlalchemy as sa  # noqa: E402
from load_bench import seed  # noqa: E402

FORM_BODY = {
    "ending": "out",
    "player": "Siti",
    "hand_0": "2C",
    "hand_1": "",
    "hand_2": "3D 4H",
    "action": "save",
}
API_BODY = {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}}


def cpu_ms(save: Callable[[int], None], match_ids: range) -> float:
    """CPU milliseconds per save of ``save`` into each of ``match_ids``."""
    started = time.process_time()
    for match_id in match_ids:
        save(match_id)
    return 1000 * (time.process_time() - started) / len(match_ids)


def profiled(save: Callable[[int], None], match_ids: range) -> pstats.Stats:
    profile = cProfile.Profile()
    profile.enable()
    for match_id in match_ids:
        save(match_id)
    profile.disable()
    return pstats.Stats(profile)


def by_package(stats: pstats.Stats) -> dict[str, float]:
    """Own time (seconds) by installed package, by module of the app, by standard module."""
    owned: dict[str, float] = defaultdict(float)
    for (path, _line, _name), (_calls, _primitive, own, _total, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "site-packages/" in path:
            where = path.split("site-packages/")[1].split("/")[0]
        elif "/referee/" in path:
            where = "referee/" + path.split("/referee/")[1]
        else:
            where = Path(path).name
        owned[where] += own
    return owned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--length", type=int, default=20)
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="form-profile-"))
    url = args.database_url or f"sqlite:///{tmp / 'profile.db'}"
    matches = 2 * args.saves + 2
    edit_key, _view = seed(url, {args.length: range(1, 1 + matches)})

    from referee.web import create_app
    from referee.web.store.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "profile", "BACKUPS": "off"})
    client = app.test_client()
    page = client.get(f"/t/{edit_key}/m/1/rounds/new")
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.text)
    assert token is not None, "no CSRF token on the round form"
    # As wrk sends it: the cookie of the form's page every time (the flash of one save is
    # not carried into the next).
    cookie = "; ".join(f"{c.key}={c.value}" for c in client._cookies.values())
    client = app.test_client(use_cookies=False)
    version = args.length + 1

    def by_form(match_id: int, once: str) -> None:
        body = FORM_BODY | {
            "csrf_token": token.group(1),
            "for_round": str(version),
            "match_version": str(version),
            "round_version": "",
            "once": once,
        }
        answer = client.post(
            f"/t/{edit_key}/m/{match_id}/rounds/new", data=body, headers={"Cookie": cookie}
        )
        assert answer.status_code == 302, answer.text[:2000]

    def by_api(match_id: int) -> None:
        answer = client.post(
            f"/api/v1/t/{edit_key}/m/{match_id}/rounds",
            json=API_BODY,
            headers={"If-Match": f'"m{match_id}v{version}"'},
        )
        assert answer.status_code == 201, answer.text[:2000]

    by_form(1, "warmupwarmupwarmupwarmup")  # the first request of each kind loads modules
    by_api(2)
    half = args.saves // 2
    form_ids = range(3, 3 + args.saves)
    api_ids = range(3 + args.saves, 3 + 2 * args.saves)
    api_ms = cpu_ms(by_api, api_ids[:half])
    form_ms = cpu_ms(lambda m: by_form(m, f"once{m:020d}"), form_ids[:half])
    print(f"{args.length}-round matches, CPU a save: API {api_ms:.2f} ms, form {form_ms:.2f} ms")
    if args.top:
        show_profiles(args.top, args.saves - half, by_api, by_form, api_ids[half:], form_ids[half:])
    with app.app_context():
        db.engine.dispose()
    if url.startswith("postgresql"):  # leave the database as empty as it was given
        with sa.create_engine(url).begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    shutil.rmtree(tmp, ignore_errors=True)


def show_profiles(
    top: int,
    saves: int,
    by_api: Callable[[int], None],
    by_form: Callable[[int, str], None],
    api_ids: range,
    form_ids: range,
) -> None:
    profiles = {
        "API": profiled(by_api, api_ids),
        "form": profiled(lambda m: by_form(m, f"once{m:020d}"), form_ids),
    }
    stats = profiles["form"]
    stats.sort_stats("cumulative").print_stats(top)
    stats.print_callees(r"rounds.py:\d+\((new|_round_form)\)|plainsave.py|append_round")
    print("Own time by package under cProfile (ms a save; cProfile's cost included):")
    owned = {name: by_package(found) for name, found in profiles.items()}
    packages = sorted(
        set(owned["API"]) | set(owned["form"]),
        key=lambda p: owned["API"].get(p, 0) - owned["form"].get(p, 0),
    )
    print(f"{'':44} {'API':>8} {'form':>8}")
    for package in packages[:top]:
        api_part, form_part = (1000 * owned[n].get(package, 0) / saves for n in ("API", "form"))
        print(f"{package:44} {api_part:8.3f} {form_part:8.3f}")
    totals = (1000 * sum(owned[n].values()) / saves for n in ("API", "form"))
    print(f"{'total':44} {next(totals):8.3f} {next(totals):8.3f}")


if __name__ == "__main__":
    main()
