"""The `indian` ruleset in match play (RULES.md, section `indian`; MATCH_FORMAT.md, the round
keys cut, show, groups, finish, drops, wrong_shows, rejoin); every figure worked out by hand.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.cli import main as cli
from referee.errors import RefereeError
from referee.match import replay
from referee.matchfile import dump_match, read_match
from referee.rulesets import find_ruleset

SHOW = [["5S", "6S", "7S", "8S"], ["9H", "10H", "JH"], ["2D", "2C", "2H"], ["JD", "QD", "KD"]]
# With 3C cut: 5S 6S 7S pure, 2D 2C 2H set, JK QD KD impure; 4H 9H 10H 8C left: 31.
SITI_31 = ["5S", "6S", "7S", "9H", "10H", "JK", "2D", "2C", "2H", "KD", "QD", "8C", "4H"]


def match(
    rounds: list[dict[str, Any]],
    players: tuple[str, ...] = ("Budi", "Siti", "Andi"),
    **options: Any,
) -> dict[str, Any]:
    return {"rules": "indian", "options": options, "players": list(players), "rounds": rounds}


def points(**hands: int) -> dict[str, Any]:
    """A deal Budi won with a show not checked, the others' counts given as numbers."""
    return {"cut": "3C", "show": "Budi", "hands": hands}


def test_a_show_and_a_counted_hand_in_a_pool() -> None:
    state = replay(
        match(
            [
                {
                    "cut": "3C",
                    "show": "Budi",
                    "groups": {"Budi": SHOW},
                    "finish": "9C",
                    "hands": {"Siti": SITI_31, "Andi": 30},
                }
            ]
        )
    )
    assert state.rounds[0].scores == {"Budi": 0, "Siti": 31, "Andi": 30}
    assert state.rounds[0].outcome.value == "show"
    assert state.totals == {"Budi": 0, "Siti": 31, "Andi": 30}
    # one hand was given as a number
    assert len(state.rounds[0].unchecked) == 1


def test_drops_and_wrong_shows_leave_one_player_who_wins() -> None:
    state = replay(match([{"cut": "JK", "drops": {"Budi": "first"}, "wrong_shows": ["Siti"]}]))
    # first drop 20, wrong show 80 (the full count), Andi left in the deal with 0
    assert state.rounds[0].scores == {"Budi": 20, "Siti": 80, "Andi": 0}
    assert state.rounds[0].winners == ("Andi",)


def test_pool_201_drops_cost_25_and_50() -> None:
    state = replay(
        match([{"cut": "4D", "drops": {"Budi": "first", "Siti": "middle"}}], format="pool201")
    )
    assert state.rounds[0].scores == {"Budi": 25, "Siti": 50, "Andi": 0}


def test_a_player_out_of_the_pool_is_not_dealt_in_and_the_deal_skips_them() -> None:
    # deal 1 (Budi deals): Siti 80 + deal 2 (Siti deals): Siti 30 = 110, out at 101
    rounds = [points(Siti=80, Andi=10), points(Siti=30, Andi=10)]
    state = replay(match(rounds, rejoin=False))
    assert state.totals == {"Budi": 0, "Siti": 110, "Andi": 20}
    # the deal would pass from Siti to Andi anyway; after Andi it skips Siti: Budi
    rounds.append({"cut": "5C", "show": "Andi", "hands": {"Budi": 5}})
    rounds.append({"cut": "5C", "show": "Budi", "hands": {"Andi": 5}})
    state = replay(match(rounds, rejoin=False))
    # Budi's left is Siti, who is out: after Budi the deal goes to Andi
    assert [r.dealer for r in state.rounds] == ["Budi", "Siti", "Andi", "Budi"]
    assert state.rounds[2].scores == {"Budi": 5, "Andi": 0}
    assert state.next_dealer == "Andi"
    with pytest.raises(RefereeError, match="Siti is out of the pool"):
        replay(
            match(
                [*rounds, {"cut": "5C", "show": "Andi", "hands": {"Budi": 5, "Siti": 4}}],
                rejoin=False,
            )
        )


def test_the_last_player_left_in_the_pool_wins() -> None:
    # Siti reaches 101 in deal 2, Andi reaches 101 in deal 3: Budi is left
    rounds = [points(Siti=80, Andi=60), points(Siti=21, Andi=30), points(Andi=11)]
    state = replay(match(rounds, rejoin=False))
    assert state.totals == {"Budi": 0, "Siti": 101, "Andi": 101}
    assert (state.finished, state.winners) == (True, ("Budi",))
    with pytest.raises(RefereeError, match="already over"):
        replay(match([*rounds, points(Siti=2)], rejoin=False))


def test_a_rejoin_comes_back_with_the_highest_total_still_in_plus_one() -> None:
    # after two deals Budi 0, Siti 80 + 30 = 110 (out), Andi 10 + 50 = 60
    rounds = [points(Siti=80, Andi=10), points(Siti=30, Andi=50)]
    rejoin = {"rejoin": ["Siti"], **points(Siti=2, Andi=3)}
    state = replay(match([*rounds, rejoin]))
    # still in: Budi 0, Andi 60, none above 79: Siti comes back at 60 + 1 = 61, then +2
    assert state.rejoins[0].total == 61
    assert state.totals == {"Budi": 0, "Siti": 63, "Andi": 63}
    assert state.to_json()["rejoins"] == [{"before_round": 3, "player": "Siti", "total": 61}]
    # the deal moves on from deal 2's dealer (Siti) as if Siti were in: Andi deals deal 3
    assert state.rounds[2].dealer == "Andi"


@pytest.mark.parametrize(
    ("rounds", "words"),
    [
        # Andi is at 80, above 79: nobody comes back
        (
            [
                points(Siti=80, Andi=80),
                points(Siti=30, Andi=0),
                {"rejoin": ["Siti"], **points(Andi=2)},
            ],
            "Andi is still in with 80, above 79",
        ),
        # Siti went out in deal 2 and did not come back before deal 3: too late before deal 4
        (
            [
                points(Siti=80, Andi=0),
                points(Siti=30, Andi=0),
                points(Andi=2),
                {"rejoin": ["Siti"], **points(Andi=2)},
            ],
            "right after going out",
        ),
        # Budi is still in
        (
            [points(Siti=10, Andi=0), {"rejoin": ["Budi"], **points(Siti=2, Andi=0)}],
            "still in the pool",
        ),
    ],
)
def test_a_rejoin_refused(rounds: list[dict[str, Any]], words: str) -> None:
    with pytest.raises(RefereeError, match=words):
        replay(match(rounds))


def test_a_player_comes_back_once_per_match() -> None:
    first = [
        points(Siti=80, Andi=0),
        points(Siti=30, Andi=0),
        {"rejoin": ["Siti"], **points(Siti=50, Andi=0)},
    ]
    # back at 0 + 1 = 1, then 1 + 50 = 51; then 51 + 60 = 111: out again
    state = replay(match([*first, points(Siti=60, Andi=0)]))
    assert state.totals["Siti"] == 111
    with pytest.raises(RefereeError, match="once per match"):
        replay(match([*first, points(Siti=60, Andi=0), {"rejoin": ["Siti"], **points(Andi=2)}]))


def test_no_rejoin_outside_pools_or_when_switched_off() -> None:
    rounds = [
        points(Siti=80, Andi=0),
        points(Siti=30, Andi=0),
        {"rejoin": ["Siti"], **points(Andi=2)},
    ]
    with pytest.raises(RefereeError, match="without rejoining"):
        replay(match(rounds, rejoin=False))
    with pytest.raises(RefereeError, match="only into a pool"):
        replay(match(rounds, format="deals", deals=4))


def test_deals_pay_the_winner_and_a_tie_plays_one_more() -> None:
    # deal 1: Budi collects 20 + 30 = 50; deal 2: Siti collects 50 + 0; so Budi 50 - 50 = 0,
    # Siti -20 + 50 = 30, Andi -30 - 0 = -30: Siti leads alone after the 2 deals
    rounds = [
        points(Siti=20, Andi=30),
        {"cut": "3C", "show": "Siti", "hands": {"Budi": 50, "Andi": 0}},
    ]
    state = replay(match(rounds, format="deals"))
    assert state.totals == {"Budi": 0, "Siti": 30, "Andi": -30}
    assert (state.finished, state.winners) == (True, ("Siti",))
    tied = [
        points(Siti=10, Andi=0),
        {"cut": "3C", "show": "Siti", "hands": {"Budi": 10, "Andi": 0}},
    ]
    state = replay(match(tied, format="deals"))
    # Budi 10 - 10 = 0, Siti -10 + 10 = 0, Andi 0: all tied, one more deal
    assert state.totals == {"Budi": 0, "Siti": 0, "Andi": 0}
    assert not state.finished
    state = replay(match([*tied, points(Siti=5, Andi=5)], format="deals"))
    assert (state.finished, state.winners, state.totals["Budi"]) == (True, ("Budi",), 10)


def test_points_end_when_the_players_stop() -> None:
    doc = match([points(Siti=20, Andi=30)], format="points")
    assert not replay(doc).finished
    state = replay({**doc, "stopped": True})
    assert (state.finished, state.winners) == (True, ("Budi",))
    with pytest.raises(RefereeError, match="no fixed end"):
        replay({**match([], format="pool101"), "stopped": True})


def test_the_match_file_round_trips_the_deal_keys() -> None:
    doc = match(
        [
            {
                "cut": "3C",
                "show": "Budi",
                "groups": {"Budi": SHOW},
                "finish": "9C",
                "hands": {"Siti": SITI_31, "Andi": 30},
            },
            {"rejoin": ["Siti"], "cut": "JK", "drops": {"Budi": "middle"}, "wrong_shows": ["Andi"]},
        ]
    )
    dumped = dump_match(read_match(doc))
    assert dumped["rounds"][0]["groups"] == {"Budi": SHOW}
    assert dumped["rounds"][0]["finish"] == "9C"
    assert dumped["rounds"][1] == {
        "rejoin": ["Siti"],
        "cut": "JK",
        "drops": {"Budi": "middle"},
        "wrong_shows": ["Andi"],
    }


@pytest.mark.parametrize(
    ("deal", "words"),
    [
        ({"show": "Budi", "hands": {"Siti": 2, "Andi": 3}}, 'give "cut" for this round'),
        ({"cut": "3C", "show": "Budi", "hands": {"Siti": 81, "Andi": 2}}, "at most the full count"),
        ({"cut": "3C", "show": "Budi", "hands": {"Siti": 2}}, "give Andi's 13 cards"),
        (
            {
                "cut": "3C",
                "show": "Budi",
                "drops": {"Siti": "first"},
                "hands": {"Siti": 2, "Andi": 3},
            },
            "Siti dropped",
        ),
        ({"cut": "3C", "drops": {"Budi": "first"}}, "exactly one player is left"),
        (
            {"cut": "3C", "show": "Budi", "wrong_shows": ["Budi"], "hands": {"Siti": 2, "Andi": 3}},
            "cannot both show and show wrongly",
        ),
        (
            {
                "cut": "3C",
                "show": "Budi",
                "groups": {
                    "Budi": [
                        ["5S", "6S", "7C", "8S"],
                        ["9H", "10H", "7H"],
                        ["QH", "QC", "QS"],
                        ["2D", "2C", "2H"],
                    ]
                },
                "hands": {"Siti": 2, "Andi": 3},
            },
            "show is not valid",
        ),
        (
            {"cut": "3C", "show": "Budi", "hands": {"Siti": SITI_31[:12], "Andi": 2}},
            "Siti's hand: the hand must hold 13 cards, not 12",
        ),
        ({"cut": "3C", "end": "blocked"}, '"end" can only be "void"'),
    ],
)
def test_a_deal_refused(deal: dict[str, Any], words: str) -> None:
    with pytest.raises(RefereeError, match=words):
        replay(match([deal]))


def test_the_options() -> None:
    with pytest.raises(
        RefereeError,
        match=r"First drop \(first_drop: 50\) is at most Middle drop \(middle_drop: 40\)",
    ):
        replay(match([], first_drop=50, middle_drop=40))
    # RULES.md: option decks 1 only with 2 players; the reason is the deck, not the game
    with pytest.raises(RefereeError, match=r"Decks \(decks: 1\) is for at most 2 players, not 3"):
        replay(match([], decks=1))
    assert replay(match([], ("Budi", "Siti"), decks=1)).rules.copies(2) == 1
    with pytest.raises(RefereeError, match="cut"):
        replay(match([{"cut": "3C", "drops": {"Budi": "first", "Siti": "first"}}], wild=False))
    # without wild cards no cut is named; the full count caps the wrong show
    state = replay(match([{"wrong_shows": ["Budi", "Siti"]}], wild=False, full_count=60))
    assert state.rounds[0].scores == {"Budi": 60, "Siti": 60, "Andi": 0}


def test_a_void_deal_scores_nothing_and_keeps_the_dealer() -> None:
    state = replay(match([{"end": "void"}, points(Siti=2, Andi=3)]))
    assert [r.dealer for r in state.rounds] == ["Budi", "Budi"]


# --- the command line -----------------------------------------------------------------


def test_cli_show_valid_and_not(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli(["indian", "show", "5S 6S 7S 8S | 9H 10H JH | 2D 2C 2H | KD QD JD", "--cut", "7D"]) == 0
    )
    assert capsys.readouterr().out.startswith("valid show")
    code = cli(
        ["indian", "show", "5S 6S 7C 8S | 9H 10H 7H | QH QC QS | 2D 2C 2H", "--cut", "7D", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and not out["valid"]
    assert out["reasons"] == ["no pure sequence: 5S 6S 7C 8S uses the 7C as a joker"]


def test_cli_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["indian", "count", *SITI_31, "--cut", "3C", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["count"], sorted(out["ungrouped"])) == (31, ["10H", "4H", "8C", "9H"])
    assert cli(["indian", "count", "5S", "6S", "--cut", "3C"]) == 2
    assert "13 cards, not 2" in capsys.readouterr().err


@pytest.mark.parametrize(
    "options",
    [
        {"first_drop": 50, "middle_drop": 40},
        {"middle_drop": 90},  # above the full count, 80
        {"format": "pool201", "first_drop": 60},  # above pool201's middle drop, 50
        {"full_count": 30},  # below the middle drop, 40
    ],
)
def test_the_drops_order_is_checked_with_the_options_before_any_match(
    options: dict[str, Any],
) -> None:
    # RULES.md: first drop 20 < middle drop 40 < full count 80 (pool201: 25, 50); a set of
    # house rules that breaks the order can start no match, so check_options refuses it.
    with pytest.raises(RefereeError, match="is at most"):
        find_ruleset("indian").check_options(options)


@pytest.mark.parametrize("format_", ["deals", "points"])
def test_rejoin_is_refused_outside_a_pool(format_: str) -> None:
    # RULES.md: `rejoin` applies to pools only and is refused with `deals` or `points`.
    for rejoin in (True, False):
        with pytest.raises(RefereeError, match=r"only applies with Match \(format: pool101 or"):
            find_ruleset("indian").check_options({"format": format_, "rejoin": rejoin})
    assert find_ruleset("indian").check_options({"format": "pool201", "rejoin": False})


def test_a_count_of_one_is_refused() -> None:
    # RULES.md: a count given as points is 0 or 2 up to the full count (no card is worth 1).
    with pytest.raises(RefereeError, match="Siti's count is given as 1, but no hand counts that"):
        replay(match([points(Siti=1, Andi=2)]))
    assert replay(match([points(Siti=0, Andi=2)])).totals == {"Budi": 0, "Siti": 0, "Andi": 2}


def test_a_count_given_for_the_last_player_left_is_refused_in_true_words() -> None:
    # Budi dropped and Siti showed wrongly: Andi is the last left and wins with 0 (RULES.md),
    # so no hand of his is counted; he did not show.
    deal = {"cut": "3C", "drops": {"Budi": "first"}, "wrong_shows": ["Siti"], "hands": {"Andi": 5}}
    with pytest.raises(RefereeError, match="Andi is the last left in the deal and wins it: no"):
        replay(match([deal]))
