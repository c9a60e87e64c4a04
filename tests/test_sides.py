"""A match played in sides: teams read from the match file, scored and ranked as sides.

Two toy partnership games, registered here only (no game of the registry plays in teams
yet).  Both: 2 to 4 players, with 4 players two teams of two partners sitting opposite;
one deck, 7 cards, the deal clockwise, first side to 100 wins.

* "Pair Rummy" scores as remi does, per player (the one who goes out takes every card left
  in the other hands); a team's score is its partners' scores added up.
* "Side Rummy" scores the sides itself: the side of the player who went out takes the
  cards left in the other side's hands (the partner's cards count nothing).

Cards count their face value, pictures 10, aces 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from referee.errors import MatchFileError
from referee.match import replay
from referee.matchfile import dump_match, read_match
from referee.rulesets import BLOCKED, OUT, VOID, RoundForm, Ruleset, Sides, registered_ruleset
from referee.scoring import Outcome, RoundEnding, RoundScore, hand_values, winner_takes_hands

PAIRS = Ruleset(
    id="pair-rummy",
    name="Pair Rummy",
    min_players=2,
    max_players=4,
    deal_sizes={2: 7, 3: 7, 4: 7},
    target=100,
    round_form=RoundForm((OUT, BLOCKED, VOID)),
    score_round=winner_takes_hands,
    sides=Sides(seated=(4,), size=2),
)


def side_takes_opponents_hands(rules: Ruleset, ending: RoundEnding) -> RoundScore:
    assert ending.ending.value == "out" and ending.player is not None
    values = hand_values(rules, ending)
    ours = next(name for name, members in ending.teams.items() if ending.player in members)
    points = sum(
        values[player]
        for name, members in ending.teams.items()
        if name != ours
        for player in members
    )
    scores = {name: points if name == ours else 0 for name in ending.teams}
    return RoundScore(Outcome.OUT, (ours,), scores, hand_values=values)


SIDES_SCORED = replace(
    PAIRS, id="side-rummy", name="Side Rummy", score_round=side_takes_opponents_hands
)


@pytest.fixture
def pairs() -> Iterator[Ruleset]:
    with registered_ruleset(PAIRS) as rules, registered_ruleset(SIDES_SCORED):
        yield rules


PLAYERS = ["Budi", "Siti", "Andi", "Dewi"]
TEAMS = {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}

# Dealt by Budi: Siti goes out; Budi KS QS = 20, Andi 5H = 5, Dewi 9C = 9.
ROUND_1 = {"out": "Siti", "hands": {"Budi": ["KS", "QS"], "Andi": ["5H"], "Dewi": ["9C"]}}
# Dealt by Siti: Andi goes out; Budi AS = 1, Siti KH QH JH = 30, Dewi 10D 2D = 12.
ROUND_2 = {
    "out": "Andi",
    "hands": {"Budi": ["AS"], "Siti": ["KH", "QH", "JH"], "Dewi": ["10D", "2D"]},
}
# Dealt by Andi: Dewi goes out; Budi KD QD JD 10C 9H 8H 7H = 64, Siti 3C = 3, Andi 4D = 4.
ROUND_3 = {
    "out": "Dewi",
    "hands": {
        "Budi": ["KD", "QD", "JD", "10C", "9H", "8H", "7H"],
        "Siti": ["3C"],
        "Andi": ["4D"],
    },
}


def match(rules: str = "pair-rummy", **changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": "referee-match/1",
        "rules": rules,
        "players": PLAYERS,
        "teams": TEAMS,
        "rounds": [ROUND_1, ROUND_2, ROUND_3],
    }
    document.update(changes)
    return {key: value for key, value in document.items() if value is not None}


def test_partners_scores_add_up_to_their_side(pairs: Ruleset) -> None:
    state = replay(match())
    # Siti takes 20 + 5 + 9 = 34 for Mereka; Andi 1 + 30 + 12 = 43 for Kita; Dewi takes
    # 64 + 3 + 4 = 71: Mereka 34 + 71 = 105 reaches 100.
    assert [dict(result.scores) for result in state.rounds] == [
        {"Kita": 0, "Mereka": 34},
        {"Kita": 43, "Mereka": 0},
        {"Kita": 0, "Mereka": 71},
    ]
    assert [result.winners for result in state.rounds] == [("Mereka",), ("Kita",), ("Mereka",)]
    assert [result.dealer for result in state.rounds] == ["Budi", "Siti", "Andi"]
    assert [result.went_out for result in state.rounds] == ["Siti", "Andi", "Dewi"]
    assert dict(state.totals) == {"Kita": 43, "Mereka": 105}
    assert state.finished and state.winners == ("Mereka",)
    assert dict(state.rounds_won) == {"Kita": 1, "Mereka": 2}


def test_standings_rank_the_sides_and_partners_share_the_place(pairs: Ruleset) -> None:
    state = replay(match())
    standings = state.standings()
    assert [(s.place, s.player, s.total, s.winner, s.members) for s in standings] == [
        (1, "Mereka", 105, True, ("Siti", "Dewi")),
        (2, "Kita", 43, False, ("Budi", "Andi")),
    ]
    assert state.places() == {"Siti": 1, "Dewi": 1, "Budi": 2, "Andi": 2}
    assert state.to_json()["standings"][0] == {
        "place": 1,
        "player": "Mereka",
        "total": 105,
        "winner": True,
        "members": ["Siti", "Dewi"],
    }
    assert [row.running for row in state.sheet_rows()][-1] == {"Kita": 43, "Mereka": 105}


def test_a_ruleset_may_score_the_sides_itself(pairs: Ruleset) -> None:
    state = replay(match("side-rummy"))
    # Mereka takes Kita's 20 + 5 = 25; Kita takes 30 + 12 = 42; Mereka 64 + 4 = 68: 93.
    assert [dict(result.scores) for result in state.rounds] == [
        {"Kita": 0, "Mereka": 25},
        {"Kita": 42, "Mereka": 0},
        {"Kita": 0, "Mereka": 68},
    ]
    assert dict(state.totals) == {"Kita": 42, "Mereka": 93}
    assert not state.finished and state.next_dealer == "Dewi"
    assert state.leaders == ("Mereka",)
    assert [(s.place, s.player, s.winner) for s in state.standings()] == [
        (1, "Mereka", False),
        (2, "Kita", False),
    ]


def test_with_fewer_players_each_player_is_a_side(pairs: Ruleset) -> None:
    state = replay(
        {
            "rules": "pair-rummy",
            "players": ["Budi", "Siti", "Andi"],
            "rounds": [{"out": "Siti", "hands": {"Budi": ["KS"], "Andi": ["5H"]}}],
        }
    )
    assert dict(state.totals) == {"Budi": 0, "Siti": 15, "Andi": 0}
    assert [(s.place, s.player, s.members) for s in state.standings()] == [
        (1, "Siti", ("Siti",)),
        (2, "Budi", ("Budi",)),
        (2, "Andi", ("Andi",)),
    ]
    assert "members" not in state.to_json()["standings"][0]
    assert state.places() == {"Siti": 1, "Budi": 2, "Andi": 2}


def test_teams_are_written_back(pairs: Ruleset) -> None:
    written = dump_match(read_match(match()))
    assert written["teams"] == TEAMS
    assert read_match(written).header.teams == read_match(match()).header.teams


def test_a_game_alone_is_unchanged() -> None:
    state = replay(
        {
            "rules": "remi",
            "players": ["Budi", "Siti"],
            "rounds": [ROUND_1 | {"hands": {"Budi": ["KS", "QS"]}}],
        }
    )
    assert dict(state.totals) == {"Budi": 0, "Siti": 20}
    assert state.sides[0].members == ("Budi",)
    assert state.places() == {"Siti": 1, "Budi": 2}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"teams": None},
            'pair-rummy with 4 players is played by teams of 2 partners: give "teams"',
        ),
        ({"teams": ["Budi", "Andi"]}, '"teams" must give each team\'s name and its players'),
        (
            {"teams": {"Kita": ["Budi", "Andi"], " ": ["Siti", "Dewi"]}},
            "a team's name cannot be empty",
        ),
        (
            {"teams": {"Kita": ["Budi", "Andi"], "kita ": ["Siti", "Dewi"]}},
            "two teams are named kita ",
        ),
        (
            {"teams": {"Budi": ["Budi", "Andi"], "Mereka": ["Siti", "Dewi"]}},
            "the team Budi has the name of a player",
        ),
        (
            {"teams": {"Kita": ["Budi", "Andi", "Siti"], "Mereka": ["Dewi"]}},
            "the team Kita has 3 players: each team is 2 partners",
        ),
        (
            {"teams": {"Kita": ["Budi", "Andi"], "Mereka": ["Siti", "Budi"]}},
            "Budi is in two teams, Kita and Mereka",
        ),
        ({"teams": {"Kita": ["Budi", "Ani"], "Mereka": ["Siti", "Dewi"]}}, '"Ani" is not a player'),
        (
            {"players": ["Budi", "Andi", "Siti", "Dewi"]},
            "seat the players as Budi, Siti, Andi, Dewi, not Budi, Andi, Siti, Dewi",
        ),
        (
            {"seating_changes": [{"before_round": 2, "players": ["Budi", "Siti", "Andi"]}]},
            "a match played in teams keeps its seating",
        ),
    ],
)
def test_teams_are_checked(pairs: Ruleset, changes: dict[str, Any], message: str) -> None:
    with pytest.raises(MatchFileError) as raised:
        read_match(match(**changes))
    assert message in str(raised.value)


def test_teams_only_where_the_game_plays_in_teams(pairs: Ruleset) -> None:
    with pytest.raises(MatchFileError, match='remi is not played in teams: leave out "teams"'):
        read_match(match("remi", rounds=[]))
    three = match(players=["Budi", "Siti", "Andi"], rounds=[])
    with pytest.raises(MatchFileError, match="with 3 players is played without teams"):
        read_match(three)
