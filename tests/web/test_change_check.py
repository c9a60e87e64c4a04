"""The change check (``.../m/<id>/version``), answered in front of the app when nothing changed:
after every kind of write it still says 200 with the new ETag to a phone that saw the old
one and 304 to one that saw the new one, through the page's path and the API's, and never
answers for a key that does not open the match.  On SQLite and PostgreSQL."""

from __future__ import annotations

from .test_api import new_match, new_table

API = "/api/v1"


def check_urls(table, match_id):
    """Every path of the check for one match: the API's and the pages', each key."""
    return [
        f"{API}/t/{table['edit_key']}/m/{match_id}/version",
        f"{API}/v/{table['view_key']}/m/{match_id}/version",
        f"/t/{table['edit_key']}/m/{match_id}/version",
        f"/v/{table['view_key']}/m/{match_id}/version",
    ]


def assert_check_says(api, table, match_id, seen, current):
    """A phone that saw ``seen`` hears of the change; one that saw ``current`` does not."""
    version = int(current.rsplit("v", 1)[1])
    for url in check_urls(table, match_id):
        changed = api.get(url, headers={"If-None-Match": f'"{seen}"'})
        assert changed.status_code == 200, url
        assert changed.headers["ETag"] == f'"{current}"'
        assert changed.get_json() == {"version": version}
        same = api.get(url, headers={"If-None-Match": f'"{current}"'})
        assert same.status_code == 304, url
        assert same.headers["ETag"] == f'"{current}"'
        assert same.headers["Cache-Control"] == "no-cache"
        assert same.data == b"" and "Set-Cookie" not in same.headers
    bearer = api.get(
        f"{API}/table/m/{match_id}/version",
        headers={"Authorization": f"Bearer {table['view_key']}", "If-None-Match": f'"{current}"'},
    )
    assert bearer.status_code == 304 and bearer.headers["ETag"] == f'"{current}"'


def test_every_kind_of_write_moves_what_the_check_answers(api):
    table = new_table(api)
    url, board = new_match(api, table, players=("Budi", "Siti", "Andi"))
    seen = board["etag"]
    assert_check_says(api, table, board["id"], "m0v0", seen)

    def write(method, path, **kwargs):
        nonlocal seen
        response = api.open(url + path, method=method, headers={"If-Match": f'"{seen}"'}, **kwargs)
        assert response.status_code in (200, 201), response.get_json()
        answer = response.get_json()
        assert answer["etag"] != seen
        assert_check_says(api, table, board["id"], seen, answer["etag"])
        seen = answer["etag"]

    write("POST", "/rounds", json={"out": "Siti", "hands": {"Budi": ["QS"], "Andi": ["2C"]}})
    write("POST", "/rounds", json={"out": "Budi", "hands": {"Siti": ["5H"], "Andi": ["3D"]}})
    write("PUT", "/rounds/1", json={"out": "Siti", "hands": {"Budi": ["3H"], "Andi": ["2C"]}})
    write("POST", "/rounds/1/void")
    write("POST", "/rounds/1/restore")
    write("DELETE", "/rounds/2")
    turn = {"player": "Budi", "melds": [["7S", "8S", "9S"]], "discard": "2C"}
    write("POST", "/live/turns", json=turn)
    write("POST", "/live/turns", json={"player": "Siti", "discard": "3C"})
    write("DELETE", "/live/turns/2")
    write("DELETE", "/live")
    write("POST", "/live/turns", json=turn)
    write("POST", "/live/end", json={"end": "blocked"})


def test_a_current_etag_opens_nothing_without_the_right_key(api):
    table, other = new_table(api), new_table(api)
    _url, board = new_match(api, table)
    current = {"If-None-Match": f'"{board["etag"]}"'}
    match = board["id"]
    for url in (
        f"{API}/t/{other['edit_key']}/m/{match}/version",  # another table's key
        f"/v/{other['view_key']}/m/{match}/version",
        f"{API}/t/{table['view_key']}/m/{match}/version",  # the view key as an edit key
        f"/v/{table['edit_key']}/m/{match}/version",  # and the other way round
        f"{API}/v/{table['view_key']}/m/{match + 1}/version",  # no such match
        f"{API}/v/{table['view_key']}/m/{2**31}/version",  # beyond any id
    ):
        for headers in (current, {"If-None-Match": "*"}):
            assert api.get(url, headers=headers).status_code == 404, url
    assert api.get(f"{API}/table/m/{match}/version", headers=current).status_code == 404


def test_only_an_etag_that_is_current_is_not_modified(api):
    table = new_table(api)
    _url, board = new_match(api, table)
    url = f"{API}/v/{table['view_key']}/m/{board['id']}/version"
    current = board["etag"]
    for asked, status in (
        (f'"{current}"', 304),
        (f'W/"{current}"', 304),  # weak comparison, as for any GET
        (f'"m1v9", "{current}"', 304),
        ("*", 304),
        (f'"{current}0"', 200),
        ("", 200),
    ):
        assert api.get(url, headers={"If-None-Match": asked}).status_code == status, asked
    head = api.head(url, headers={"If-None-Match": f'"{current}"'})
    assert head.status_code == 304
    with_query = api.get(url + "?x=1", headers={"If-None-Match": f'"{current}"'})
    assert with_query.status_code == 304  # the app's own view answers it the same way
