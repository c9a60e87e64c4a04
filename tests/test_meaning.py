"""A match is known by what it means, not by how its document is written
(:func:`referee.matchfile.meaning`, the import fingerprint's source): any rewriting that keeps
the meaning keeps it, and a changed card changes it.  Property tests over the scenario files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.matchfile import dump_match, meaning, read_match
from referee.rulesets import find_ruleset

SCENARIOS = Path(__file__).parent / "scenarios"


def readable(path: Path) -> dict[str, Any] | None:
    try:
        document = json.loads(path.read_text())
        read_match(document)
    except (RefereeError, ValueError):
        return None
    return document


DOCUMENTS = [
    found
    for path in sorted(SCENARIOS.glob("*.json"))
    if not path.name.endswith(".expected.json") and (found := readable(path)) is not None
]
# A card as a player may type it: any case, a ten as T or 10.
SPELLINGS = {"10": ("10", "T", "t"), **{rank: (rank, rank.lower()) for rank in "AJQK"}}


def meaning_of(document: Any) -> dict[str, Any]:
    return meaning(dump_match(read_match(document)))


def respelt(card: Any, draw: Any) -> Any:
    if not isinstance(card, str) or len(card) < 2 or card.upper() in ("JK", "JOKER"):
        return card
    rank, suit = card[:-1], card[-1]
    spelling = draw(st.sampled_from(SPELLINGS.get(rank.upper(), (rank,))))
    return spelling + draw(st.sampled_from((suit.upper(), suit.lower())))


def shuffled(mapping: dict[str, Any], draw: Any) -> dict[str, Any]:
    keys = draw(st.permutations(list(mapping)))
    return {key: mapping[key] for key in keys}


@st.composite
def rewritten(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A scenario's document and the same match written another way."""
    document = draw(st.sampled_from(DOCUMENTS))
    again = json.loads(json.dumps(document))
    rules = find_ruleset(document["rules"], document.get("options") or {})
    written = dict(again.get("options") or {})
    for name, value in rules.settings.items():  # some defaults written out
        if name not in written and draw(st.booleans()):
            written[name] = value
    again["options"] = shuffled(written, draw)
    if draw(st.booleans()):
        again.setdefault("first_dealer", again["players"][0])
    rounds = []
    for entry in again.get("rounds") or []:
        entry = dict(entry)
        shared_keys = rules.round_reader is None  # a game of its own notation has no at_once
        if shared_keys and entry.get("out") and "at_once" not in entry and "turns" not in entry:
            if draw(st.booleans()):
                entry["at_once"] = False
        hands = entry.get("hands")
        if isinstance(hands, dict):
            entry["hands"] = shuffled(
                {
                    player: [respelt(card, draw) for card in draw(st.permutations(cards))]
                    if isinstance(cards, list)
                    else cards
                    for player, cards in hands.items()
                },
                draw,
            )
        rounds.append(shuffled(entry, draw))
    again["rounds"] = rounds
    return document, shuffled(again, draw)


@given(rewritten())
def test_a_match_written_another_way_means_the_same(pair):
    document, again = pair
    assert meaning_of(again) == meaning_of(document)


@given(st.sampled_from(DOCUMENTS), st.data())
def test_another_card_in_a_hand_is_another_match(document, data):
    hands = [
        (number, player)
        for number, entry in enumerate(document.get("rounds") or [])
        for player, cards in (entry.get("hands") or {}).items()
        if isinstance(cards, list) and cards
    ]
    if not hands:
        return
    number, player = data.draw(st.sampled_from(hands))
    changed = json.loads(json.dumps(document))
    cards = changed["rounds"][number]["hands"][player]
    held = {card.upper() for card in cards}
    other = next(c for c in ("2C", "3D", "4H", "5S", "6C", "7D") if c not in held)
    cards[data.draw(st.integers(0, len(cards) - 1))] = other
    try:
        read_match(changed)
    except RefereeError:
        return  # not a match any more: nothing to recognise
    assert meaning_of(changed) != meaning_of(document)


def test_the_four_rewritings_of_a_match_are_one_match():
    """Cards of a hand in another order, ``at_once: false``, a default option written out,
    and all three at once (the variants an import did not recognise)."""
    base = {
        "rules": "remi",
        "players": ["Budi", "Siti", "Andi"],
        "rounds": [{"out": "Siti", "hands": {"Budi": ["10H", "QS", "2C"], "Andi": ["KD"]}}],
    }
    order = {
        **base,
        "rounds": [{"out": "Siti", "hands": {"Budi": ["QS", "2C", "10H"], "Andi": ["KD"]}}],
    }
    at_once = {**base, "rounds": [{**base["rounds"][0], "at_once": False}]}
    default = {**base, "options": {"target": 100}}
    every = {
        **order,
        "options": {"target": 100},
        "rounds": [{**order["rounds"][0], "at_once": False}],
    }
    assert find_ruleset("remi").settings.get("target") == 100
    expected = meaning_of(base)
    assert [meaning_of(d) for d in (order, at_once, default, every)] == [expected] * 4
