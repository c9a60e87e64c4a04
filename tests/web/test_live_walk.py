"""No 500 anywhere in a live round's life: for every registered ruleset, on both databases,
every action of the API and of the pages is tried at each point of the round from its empty
start (no turn yet, one turn, that turn taken back, that turn corrected).  Each answer is the
app's own (a page, a refusal, a conflict), never an error of the server."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from referee.rulesets import RULESETS

from .conftest import Client
from .test_api import API

PLAYERS = ["Budi", "Siti", "Andi", "Dewi"]
# Each is sent to a fresh match at each point of its round: what one action leaves must not
# decide what the next one finds.
API_ACTIONS: list[tuple[str, str, Any]] = [
    ("get", "/live", None),
    ("post", "/live/end", {}),
    ("post", "/live/end", {"end": "void"}),
    ("post", "/live/end", {"end": "blocked", "hands": {}}),
    ("post", "/live/end", {"hands": {"Budi": ["2C"], "Siti": []}}),
    ("delete", "/live", None),
    ("delete", "/live/turns/1", None),
    ("put", "/live/turns/1", "TURN"),
    ("post", "/live/turns", "TURN"),
]
PAGE_ENDINGS = ["void", "out", ""]
POINTS = ["empty", "one turn", "taken back", "corrected"]


def points_of(rules_id: str) -> list[str]:
    """A game whose rounds are entered whole has no turns: only its empty start."""
    return POINTS if RULESETS[rules_id].turn_style.name != "NONE" else POINTS[:1]


@pytest.fixture
def phone(api_app: Flask) -> Client:
    api_app.test_client_class = Client
    return api_app.test_client()  # type: ignore[return-value]


def players_of(rules_id: str) -> list[str]:
    return PLAYERS[: max(RULESETS[rules_id].min_players, 2)]


def new_table(api: Any, rules_id: str) -> str:
    """A table of the ruleset's players (its edit key): each round is a match of its own there."""
    players = players_of(rules_id)
    return api.post(f"{API}/tables", json={"name": "Meja", "players": players}).get_json()[
        "edit_key"
    ]


def new_round(api: Any, key: str, rules_id: str, point: str) -> tuple[str, str]:
    """A new match of ``rules_id`` at table ``key`` whose live round is at ``point``: its API
    path and page path."""
    players = players_of(rules_id)
    made = api.post(
        f"{API}/t/{key}/matches",
        json={"rules": rules_id, "players": players, "first_dealer": players[0]},
    )
    assert made.status_code == 201, made.get_json()
    match_id = made.get_json()["id"]
    url = f"{API}/t/{key}/m/{match_id}"
    if point != "empty" and first_turn(api, url, rules_id) is not None:
        if point in ("taken back", "corrected"):
            method = api.delete if point == "taken back" else api.put
            turn = first_turn_body(api, url, rules_id, before_turn=True)
            answer = method(f"{url}/live/turns/1", json=turn, headers=current(api, url))
            assert answer.status_code == 200, answer.get_json()
    return url, f"/t/{key}/m/{match_id}"


def current(api: Any, url: str) -> dict[str, str]:
    return {"If-Match": f'"{api.get(url).get_json()["etag"]}"'}


def first_turn_body(
    api: Any, url: str, rules_id: str, before_turn: bool = False
) -> dict[str, Any] | None:
    live = api.get(f"{url}/live")
    if live.status_code != 200:
        return None  # a game whose rounds are entered whole
    found = live.get_json()
    player = found["turns"][0]["player"] if before_turn and found["turns"] else found["next_player"]
    if player is None:
        return None
    turn: dict[str, Any] = {"player": player}
    if RULESETS[rules_id].turn_style.name == "TABLE":
        turn["played"] = []
    return turn


def first_turn(api: Any, url: str, rules_id: str) -> Any:
    turn = first_turn_body(api, url, rules_id)
    if turn is None:
        return None
    answer = api.post(f"{url}/live/turns", json=turn, headers=current(api, url))
    assert answer.status_code == 201, answer.get_json()
    return answer


def answered(response: Any, what: str) -> None:
    assert response.status_code < 500, (what, response.status_code, response.get_data()[:400])


class Rounds:
    """The round at a point of its life, made again (a new match at the same table) only once
    an action changed it."""

    def __init__(self, api: Any, rules_id: str, point: str) -> None:
        self.api, self.rules_id, self.point = api, rules_id, point
        self.key = new_table(api, rules_id)
        self.url, self.page = new_round(api, self.key, rules_id, point)
        self.made = current(api, self.url)

    def fresh(self) -> tuple[str, str, dict[str, str]]:
        """The round's API path, page path and ``If-Match`` header as it stands now."""
        if current(self.api, self.url) != self.made:
            self.url, self.page = new_round(self.api, self.key, self.rules_id, self.point)
            self.made = current(self.api, self.url)
        return self.url, self.page, self.made


@pytest.mark.parametrize("rules_id", sorted(RULESETS))
def test_every_api_action_at_every_point_of_a_live_round(api, rules_id):
    for point in points_of(rules_id):
        rounds = Rounds(api, rules_id, point)
        for method, path, body in API_ACTIONS:
            url, _page, headers = rounds.fresh()
            if body == "TURN":
                body = first_turn_body(api, url, rules_id) or {"player": "Budi"}
            call = getattr(api, method)
            kwargs: dict[str, Any] = {"headers": headers}
            if body is not None:
                kwargs["json"] = body
            answered(call(url + path, **kwargs), f"{rules_id} {point}: {method} {path} {body}")


@pytest.mark.parametrize("rules_id", sorted(RULESETS))
def test_every_page_action_at_every_point_of_a_live_round(api, phone, rules_id):
    for point in points_of(rules_id):
        rounds = Rounds(api, rules_id, point)
        url, page, _headers = rounds.fresh()
        for path in ("/live", "/live/end", "/rounds/1/turns/1", "/rounds/new"):
            answered(phone.get(page + path), f"{rules_id} {point}: GET {path}")
        actions: list[tuple[str, dict[str, str]]] = [
            ("/live/end", {"ending": ending, "player": "Budi", "action": "save"})
            for ending in PAGE_ENDINGS
        ]
        actions += [("/live/discard", {}), ("/live/undo", {}), ("/live/turn", {"player": "Siti"})]
        actions += [("/rounds/1/turns/1", {"player": "Siti", "action": "save"})]
        for path, data in actions:
            url, page, _headers = rounds.fresh()
            answered(phone.submit(page + path, data), f"{rules_id} {point}: POST {path} {data}")
