"""A table of eight matches across the five rulesets, for the history tests.

Every figure the tests expect is worked out by hand in ``test_statistics.py``
from RULES.md, round by round, in the comments beside each round here.  Card
values: remi and rummy A=1, 2-10 face, J Q K=10; remi-indonesia 2-10=5,
J Q K=10, A=15; manipulation A=1, 2-10 face, J Q K=10, joker 25; gin deadwood
A=1, 2-9 face, 10 J Q K=10.
"""

from __future__ import annotations

from typing import Any


def at(day: str, clock: str = "20:00") -> str:
    return f"2026-{day}T{clock}:00+00:00"


def match(rules: str, players: list[str], rounds: list[Any], options: Any = None) -> dict:
    return {
        "format": "referee-match/1",
        "rules": rules,
        "options": options or {},
        "players": players,
        "first_dealer": players[0],
        "rounds": rounds,
    }


# M1 remi, target 50, Budi Siti Andi (January).
M1 = match(
    "remi",
    ["Budi", "Siti", "Andi"],
    [
        # R1 Budi out; Siti holds KH QH = 20, Andi 2C = 2: Budi 22.
        {"out": "Budi", "at_once": False, "hands": {"Siti": ["KH", "QH"], "Andi": ["2C"]}},
        # R2 Siti out all at once; Budi 5C = 5, Andi 3D 4D = 7: 12 doubled, Siti 24.
        {"out": "Siti", "at_once": True, "hands": {"Budi": ["5C"], "Andi": ["3D", "4D"]}},
        # R3 void: nobody scores, not a round played.
        {"end": "void"},
        # R4 Budi out; Siti 9S KS QS = 29, Andi AS = 1: Budi 30, total 22 + 30 = 52 >= 50:
        # Budi wins (22 after R2 was below 50).
        {"out": "Budi", "at_once": False, "hands": {"Siti": ["9S", "KS", "QS"], "Andi": ["AS"]}},
    ],
    {"target": 50},
) | {
    "started": at("01-10", "19:00"),
    "played": [at("01-10"), at("01-10", "20:30"), at("01-11"), at("01-11", "21:00")],
}

# M2 rummy, 2 hands, Budi Siti (February).
M2 = match(
    "rummy",
    ["Budi", "Siti"],
    [
        # R1 Siti goes rummy; Budi KS QS JS 10S = 40, doubled: Siti 80.
        {"out": "Siti", "at_once": True, "hands": {"Budi": ["KS", "QS", "JS", "10S"]}},
        # R2 Budi out; Siti AH 2H = 3: Budi 3.  After 2 hands Siti 80, Budi 3: Siti wins.
        {"out": "Budi", "at_once": False, "hands": {"Siti": ["AH", "2H"]}},
    ],
    {"hands": 2},
) | {"started": at("02-07", "19:00"), "played": [at("02-07"), at("02-07", "20:30")]}

# M3 remi-indonesia, target 500, Budi Siti Andi (March): still going.
M3 = match(
    "remi-indonesia",
    ["Budi", "Siti", "Andi"],
    [
        # R1 Budi closes with 5C: melds 2H 3H 4H (15) + JS QS KS (30) = 45, bonus 10 x 5 = 50:
        # Budi 95.  Siti melds 7D 8D 9D (15) minus hand KC AD (10 + 15): -10.  Andi hand
        # 2S 3C 4S (15): -15.
        {
            "melds": {
                "Budi": [["2H", "3H", "4H"], ["JS", "QS", "KS"]],
                "Siti": [["7D", "8D", "9D"]],
            },
            "closer": "Budi",
            "closing_card": "5C",
            "hands": {"Siti": ["KC", "AD"], "Andi": ["2S", "3C", "4S"]},
        },
        # R2 Siti closes with AC: melds 5S 6S 7S (15) + 10H 10D 10S (15) = 30, bonus 10 x 15 =
        # 150: Siti 180.  Budi hand KD QD: -20.  Andi melds 8C 9C 10C (15) minus AH (15): 0.
        {
            "melds": {
                "Siti": [["5S", "6S", "7S"], ["10H", "10D", "10S"]],
                "Andi": [["8C", "9C", "10C"]],
            },
            "closer": "Siti",
            "closing_card": "AC",
            "hands": {"Budi": ["KD", "QD"], "Andi": ["AH"]},
        },
        # Totals Budi 75, Siti 170, Andi -15: below 500, the match goes on.
    ],
) | {"started": at("03-14", "19:00"), "played": [at("03-14"), at("03-14", "20:30")]}

# M4 manipulation, target 50, Siti Dewi (April).
M4 = match(
    "manipulation",
    ["Siti", "Dewi"],
    [
        # R1 Siti knocks with 2C 3C = 5; Dewi KH QH JH 10D 5D = 45: Siti lowest, scores
        # 45 - 5 = 40 (below 50).
        {
            "knock": "Siti",
            "hands": {"Siti": ["2C", "3C"], "Dewi": ["KH", "QH", "JH", "10D", "5D"]},
        },
        # R2 Dewi knocks with 4S = 4; Siti AC 2D = 3 is lower: an undercut, Siti scores
        # 4 - 3 + 10 = 11.  Siti 51 >= 50: the match ends, Siti +100 = 151; Dewi won no round.
        {"knock": "Dewi", "hands": {"Dewi": ["4S"], "Siti": ["AC", "2D"]}},
    ],
    {"target": 50},
) | {"started": at("04-11", "19:00"), "played": [at("04-11"), at("04-11", "20:30")]}

# M5 gin, target 100, Budi Andi (May).
M5 = match(
    "gin",
    ["Budi", "Andi"],
    [
        # R1 Budi gin: AS 2S 3S, 4H 5H 6H, 7D 8D 9D 10D.  Andi has no meld: 1+1+2+3+4+5+6+7+8+9
        # = 46, and nobody lays off on gin: Budi 46 + 25 = 71.
        {
            "knock": "Budi",
            "hands": {
                "Budi": ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "10D"],
                "Andi": ["AC", "AD", "2H", "3D", "4C", "5S", "6C", "7H", "8S", "9H"],
            },
        },
        # R2 Budi knocks with 8C = 8 (AS 2S 3S, 4H 5H 6H, 7D 8D 9D); Andi JH QH KH, 10S JS QS,
        # 5C 5D 5S keeps 2C = 2 (it fits none of Budi's melds): undercut, Andi 8 - 2 + 25 = 31.
        {
            "knock": "Budi",
            "hands": {
                "Budi": ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "8C"],
                "Andi": ["JH", "QH", "KH", "10S", "JS", "QS", "5C", "5D", "5S", "2C"],
            },
        },
        # R3 Andi knocks with 2C = 2 (AS 2S 3S, 4H 5H 6H, 7D 8D 9D); Budi KC KD QH JS 9C 7C 5C
        # 3C 10H 6S has no meld and nothing to lay off: 80.  Andi 80 - 2 = 78, total 109 >= 100.
        {
            "knock": "Andi",
            "hands": {
                "Andi": ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "2C"],
                "Budi": ["KC", "KD", "QH", "JS", "9C", "7C", "5C", "3C", "10H", "6S"],
            },
        },
    ],
) | {
    "started": at("05-09", "19:00"),
    "played": [at("05-09"), at("05-09", "20:30"), at("05-09", "21:00")],
}

# M6 remi, target 50, Budi Siti (June).
M6 = match(
    "remi",
    ["Budi", "Siti"],
    [
        # R1 Budi out; Siti KH QH JH 10H KS = 50: Budi 50 >= 50 wins.
        {"out": "Budi", "at_once": False, "hands": {"Siti": ["KH", "QH", "JH", "10H", "KS"]}},
    ],
    {"target": 50},
) | {"started": at("06-13", "19:00"), "played": [at("06-13")]}

# M7 remi, Siti Andi (July): one void round only, so it does not count yet.
M7 = match("remi", ["Siti", "Andi"], [{"end": "void"}]) | {
    "started": at("07-11", "19:00"),
    "played": [at("07-11")],
}

# M8 gin, Dewi Budi (August): set up, never played.
M8 = match("gin", ["Dewi", "Budi"], []) | {"started": at("08-08", "19:00"), "played": []}

MATCHES = [M1, M2, M3, M4, M5, M6, M7, M8]
TABLE = {
    "format": "referee-table/1",
    "name": "Meja Jumat",
    "players": ["Andi", "Budi", "Dewi", "Siti"],
    "matches": MATCHES,
}
