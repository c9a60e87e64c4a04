"""Where a round form's save spends its time, beside the API's save of the same round.

In one process (no server, no wrk: the Flask test client), on a database seeded as
``bench/load_bench.py`` seeds it: each match of ``--length`` rounds gets its next round
once through the round form (the phone's POST, with its CSRF token, session cookie and
one-time token) and, on other matches, once through the API: the CPU per save of each
way, then cProfile's view of the other half of the form's saves (``--top`` functions by
cumulative time, and what the form's view calls; ``--top 0``: none).

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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--length", type=int, default=20)
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="form-profile-"))
    url = args.database_url or f"sqlite:///{tmp / 'profile.db'}"
    matches = 2 * args.saves + 1
    edit_key, _view = seed(url, {args.length: range(1, 1 + matches)})

    from referee.web import create_app

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
    form_ids = range(3, 3 + args.saves)
    api_ids = range(3 + args.saves, min(3 + 2 * args.saves, matches + 1))
    started = time.process_time()
    for match_id in api_ids:
        by_api(match_id)
    api_ms = 1000 * (time.process_time() - started) / len(api_ids)
    started = time.process_time()
    for match_id in form_ids[: len(form_ids) // 2]:
        by_form(match_id, f"once{match_id:020d}")
    form_ms = 1000 * (time.process_time() - started) / (len(form_ids) // 2)
    print(f"{args.length}-round matches, CPU a save: API {api_ms:.2f} ms, form {form_ms:.2f} ms")
    if args.top:
        profile = cProfile.Profile()
        profile.enable()
        for match_id in form_ids[len(form_ids) // 2 :]:
            by_form(match_id, f"once{match_id:020d}")
        profile.disable()
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.print_callees(r"rounds.py:\d+\((new|_round_form)\)|plainsave.py|append_round")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
