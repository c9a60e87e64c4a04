"""Small steps shared by the web tests: a table, a match, a round; reading pages back."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from werkzeug.test import TestResponse


def text(response: TestResponse) -> str:
    return html.unescape(response.get_data(as_text=True))


def errors(response: TestResponse) -> list[str]:
    """Every error message shown on a page (next to a field or at the top of a form)."""
    body = response.get_data(as_text=True)
    return [html.unescape(m) for m in re.findall(r'class="error[^"]*"[^>]*>([^<]+)<', body)]


def json_marks(body: str) -> list[list[str]]:
    """Each JSON mistake's line as shown on a page, and the line with the mark under it."""
    found = re.findall(r'<pre class="json-mark">(.*?)</pre>', body, flags=re.S)
    return [html.unescape(block).split("\n") for block in found]


def totals(response: TestResponse) -> list[int]:
    body = response.get_data(as_text=True)
    return [int(value) for value in re.findall(r'class="total-points"[^>]*>(-?\d+)<', body)]


def new_table(client: Any, players: str = "Budi, Siti, Andi", name: str = "Meja") -> str:
    """Create a table with players; return its edit URL (``/t/<key>/``)."""
    response = client.submit("/tables", {"name": name})
    assert response.status_code == 302, errors(response)
    url = response.headers["Location"]
    if players:
        response = client.submit(url + "players", {"names": players})
        assert response.status_code == 302, errors(response)
    return url


def view_url(client: Any, table_url: str) -> str:
    found = re.search(r'value="http://localhost(/v/[^"]+/)"', client.get(table_url).text)
    assert found
    return found.group(1)


def new_match(
    client: Any,
    table_url: str,
    rules: str,
    players: list[str],
    dealer: str | None = None,
    **fields: Any,
) -> str:
    """Start a match; return its scoreboard URL (``/t/<key>/m/<id>/``)."""
    data = {f"seat_{i}": name for i, name in enumerate(players)}
    data["first_dealer"] = dealer or players[0]
    data.update({key: str(value) for key, value in fields.items()})
    response = client.submit(f"{table_url}new/{rules}", data)
    assert response.status_code == 302, errors(response)
    return response.headers["Location"]


def new_api_match(post: Callable[[str, Any], Any]) -> tuple[str, str]:
    """A table of Budi and Siti and a remi match at it, through the API (``post(path, body)``
    gives the answer's JSON): the match's path and its ETag."""
    keys = post("/api/v1/tables", {"name": "Meja", "players": ["Budi", "Siti"]})
    made = post(
        f"/api/v1/t/{keys['edit_key']}/matches",
        {"rules": "remi", "players": ["Budi", "Siti"], "first_dealer": "Budi"},
    )
    return f"/api/v1/t/{keys['edit_key']}/m/{made['id']}", made["etag"]


def round_data(players: list[str], hands: dict[str, str], **fields: Any) -> dict[str, str]:
    data = {f"hand_{i}": hands.get(name, "") for i, name in enumerate(players)}
    data.update({key: str(value) for key, value in fields.items()})
    data.setdefault("action", "save")
    return data


def save_round(
    client: Any, match_url: str, players: list[str], hands: dict[str, str], **fields: Any
) -> TestResponse:
    return client.submit(match_url + "rounds/new", round_data(players, hands, **fields))


def to_english(client: Any) -> None:
    """The pages in English from now on, for this client (Indonesian is the default)."""
    client.submit("/language", {"lang": "en", "next": "/"})


def field_errors(response: TestResponse) -> dict[str, list[str]]:
    """{field id: its error messages}: every error shown next to a field, by field."""
    body = response.get_data(as_text=True)
    found: dict[str, list[str]] = {}
    for part in body.split('<div class="field')[1:]:
        label = re.search(r'<label for="([^"]+)"', part)
        messages = re.findall(
            r'class="error[^"]*"[^>]*>([^<]+)<', part.split('<div class="field')[0]
        )
        if label and messages:
            found[label.group(1)] = messages
    return found


def stored_count(app: Any, model: Any) -> int:
    """How many rows of ``model`` the app's database holds."""
    import sqlalchemy as sa

    from referee.web.store.extensions import db

    with app.app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(model)))


class RandomWrites:
    """A remi match (to 1,000) of three of a table's four players, written at random through
    the API as phones would: saves, corrections, voids, the last round removed, a player
    joining or leaving; it follows the match's version, rounds and seats from each answer."""

    EVERYONE = ("Budi", "Siti", "Andi", "Dewi")
    CARDS = ("2C", "3D", "4H", "5S", "9C", "10D", "JH", "QS", "KC", "AH")
    KINDS = ("save", "correct", "void", "remove", "seat")

    def __init__(self, client: Any) -> None:
        self.client = client
        keys = client.post(
            "/api/v1/tables", json={"name": "Meja", "players": list(self.EVERYONE)}
        ).get_json()
        made = client.post(
            f"/api/v1/t/{keys['edit_key']}/matches",
            json={
                "rules": "remi",
                "players": list(self.EVERYONE[:3]),
                "first_dealer": "Budi",
                "options": {"target": 1000},
            },
        ).get_json()
        self.match_id = made["id"]
        self.url = f"/api/v1/t/{keys['edit_key']}/m/{made['id']}"
        self.etag = f'"{made["etag"]}"'
        self.seated = list(self.EVERYONE[:3])
        self.rounds = 0

    def some_round(self, chance: Any) -> dict[str, Any]:
        """Someone seated goes out; the others hold two cards each."""
        out = chance.choice(self.seated)
        cards = chance.sample(self.CARDS, 2 * len(self.seated))
        hands = {n: cards[2 * i : 2 * i + 2] for i, n in enumerate(self.seated) if n != out}
        return {"out": out, "hands": hands}

    def write(self, what: str, chance: Any) -> str | None:
        """One write of kind ``what`` (a save while there is no round yet): the kind written,
        or None when the app refused it (a correction that ends the match early, a seating
        the game does not take: 409 or 422, never anything else)."""
        client, url, named = self.client, self.url, {"If-Match": self.etag}
        if what != "save" and self.rounds == 0:
            what = "save"
        if what == "save":
            answer = client.post(f"{url}/rounds", json=self.some_round(chance), headers=named)
        elif what == "correct":
            number = chance.randint(1, self.rounds)
            answer = client.put(
                f"{url}/rounds/{number}", json=self.some_round(chance), headers=named
            )
        elif what == "void":
            number = chance.randint(1, self.rounds)
            answer = client.post(f"{url}/rounds/{number}/void", headers=named)
        elif what == "remove":
            answer = client.delete(f"{url}/rounds/{self.rounds}", headers=named)
        else:
            others = [name for name in self.EVERYONE if name not in self.seated]
            if others and chance.random() < 0.6:
                wanted = [*self.seated, chance.choice(others)]  # a newcomer takes a free seat
            else:
                wanted = [name for name in self.seated if name != chance.choice(self.seated)]
            answer = client.put(f"{url}/seating", json={"players": wanted}, headers=named)
        if answer.status_code not in (200, 201):
            assert answer.status_code in (409, 422), answer.get_json()
            return None
        body = answer.get_json()
        self.etag, self.rounds = f'"{body["etag"]}"', len(body["rounds"])
        self.seated = list(body.get("players") or self.seated)
        return what
