"""Properties of the round engine, checked on generated input (hypothesis).

- A round's scores never depend on the order the hands are listed in.
- No input makes the match-file reader or the replay raise anything but RefereeError.
- Every card string the printer emits parses back to the same card.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from round_strategies import DECK, final_table_entry

from referee.cards import Card, Rank, Suit
from referee.errors import RefereeError
from referee.match import live_round, replay
from referee.matchfile import dump_match, read_match
from referee.notation import format_card, format_cards, parse_card, parse_cards
from referee.rulesets import RULESETS

NAMES = ["Budi", "Siti", "Andi", "Dewi", "Rina", "Eko"]
RULES = list(RULESETS)  # every registered ruleset: a new one is tested without editing


def outcome(document: Any) -> Any:
    """The replay's JSON, or the error's place and message."""
    try:
        return replay(document).to_json()
    except RefereeError as error:
        return error.to_json()


# -- a round's scores never depend on the order of the hands ----------------------------------


@st.composite
def final_table_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A final-table round of any ruleset, built from the answers its round form asks for."""
    rules = RULESETS[draw(st.sampled_from(RULES))]
    players = NAMES[: draw(st.integers(rules.min_players, min(rules.max_players, len(NAMES))))]
    entry = draw(final_table_entry(rules.id, players))
    return {"rules": rules.id, "players": players, "rounds": [entry]}


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(final_table_rounds(), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_the_order_hands_are_listed(
    document: dict[str, Any], rng: Any
) -> None:
    hands = document["rounds"][0]["hands"]
    names = list(hands)
    rng.shuffle(names)
    shuffled = json.loads(json.dumps(document))
    shuffled["rounds"][0]["hands"] = {name: hands[name] for name in names}
    assert outcome(shuffled) == outcome(document)


# -- nothing but RefereeError ----------------------------------------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(allow_nan=True)
    | st.sampled_from(["", "7S", "JK", "JK=7H", "10h", "Budi", "void", "stock", "XX", "♠"])
    | st.text(max_size=5)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["player", "melds", "cards", "onto", "x"]), inner, max_size=3
        )
    ),
    max_leaves=12,
)
LEGAL_MELDS = [
    ["7S", "8S", "9S"],
    ["4H", "4D", "4C"],
    ["JC", "QC", "KC"],
    ["2H", "3H", "4H", "5H"],
    ["AS", "2S", "3S"],
    ["QD", "KD", "AD"],
    ["9C", "9D", "9H", "9S"],
    ["5S", "6S", "JK=7S"],
]
CARD_LISTS = st.lists(st.sampled_from(DECK[:20] + ["JK", "JK=5H", "1S"]), max_size=5)
MELD_LISTS = st.sampled_from(LEGAL_MELDS) | CARD_LISTS
CLEAN_TURN_KEYS = {
    "melds": st.lists(MELD_LISTS, max_size=2),
    "layoffs": st.lists(
        st.fixed_dictionaries({"cards": CARD_LISTS, "onto": st.integers(1, 4)}), max_size=2
    ),
    "took_discard": CARD_LISTS,
    "discard": st.sampled_from(DECK[:20]),
    "out": st.booleans(),
    "played": CARD_LISTS,
    "table": st.lists(MELD_LISTS, max_size=3),
}
CLEAN_ROUND_KEYS = {
    "hands": st.dictionaries(st.sampled_from(NAMES[:3]), CARD_LISTS, max_size=3),
    "end": st.sampled_from(["void", "blocked", "stock", "draw"]),
    "out": st.sampled_from(NAMES[:3]),
    "at_once": st.booleans(),
    "knock": st.sampled_from(NAMES[:3]),
    "melds": st.dictionaries(st.sampled_from(NAMES[:3]), st.lists(MELD_LISTS, max_size=2)),
    "closer": st.sampled_from(NAMES[:3]),
    "closing_card": st.sampled_from(DECK[:20]),
}
CLEAN_ROUNDS = st.lists(
    st.fixed_dictionaries(
        {
            "turns": st.lists(
                st.fixed_dictionaries(
                    {"player": st.sampled_from(NAMES[:3])}, optional=CLEAN_TURN_KEYS
                ),
                max_size=4,
            )
        },
        optional=CLEAN_ROUND_KEYS,
    )
    | st.fixed_dictionaries({}, optional=CLEAN_ROUND_KEYS),
    max_size=3,
)


def _junk(keys: dict[str, Any]) -> dict[str, Any]:
    return {key: strategy | JSON_VALUES for key, strategy in keys.items()}


TURN_KEYS = _junk(CLEAN_TURN_KEYS) | {"player": st.sampled_from(NAMES[:3] + ["Rudi"]) | JSON_VALUES}
ROUND_KEYS = _junk(CLEAN_ROUND_KEYS) | {
    "turns": st.lists(st.fixed_dictionaries({}, optional=TURN_KEYS), max_size=4) | JSON_VALUES
}
ROUNDS = st.lists(st.fixed_dictionaries({}, optional=ROUND_KEYS), max_size=3)
PLAUSIBLE = st.fixed_dictionaries(
    {
        "rules": st.sampled_from(RULES),
        "players": st.sampled_from([NAMES[:2], NAMES[:3]]),
        "rounds": CLEAN_ROUNDS,
    },
    optional={"first_dealer": st.sampled_from(NAMES[:3]), "format": st.just("referee-match/1")},
)
ANYTHING = st.fixed_dictionaries(
    {},
    optional={
        "format": st.just("referee-match/1") | JSON_VALUES,
        "rules": st.sampled_from(RULES + ["bridge"]) | JSON_VALUES,
        "options": st.dictionaries(
            st.sampled_from(["target", "hands", "ace", "must_discard"]),
            st.sampled_from([1, 50, "high-low", True, 0, None]),
            max_size=2,
        )
        | JSON_VALUES,
        "players": st.lists(st.sampled_from(NAMES[:3]), max_size=4) | JSON_VALUES,
        "first_dealer": st.sampled_from(NAMES[:3]) | JSON_VALUES,
        "rounds": ROUNDS | CLEAN_ROUNDS | JSON_VALUES,
    },
)
DOCUMENTS = PLAUSIBLE | ANYTHING


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_replay_of_any_document_raises_only_referee_errors(document: dict[str, Any]) -> None:
    try:
        state = replay(document)
    except RefereeError as error:
        assert error.message and json.dumps(error.to_json())
    else:
        assert json.dumps(state.to_json())


@settings(max_examples=200)
@given(JSON_VALUES)
def test_any_json_value_is_refused_with_a_referee_error(value: Any) -> None:
    for source in (value, json.dumps(value)):
        try:
            read_match(source)
        except RefereeError:
            pass


@settings(max_examples=100)
@given(st.binary(max_size=40))
def test_any_bytes_are_refused_with_a_referee_error(data: bytes) -> None:
    try:
        read_match(data)
    except RefereeError:
        pass


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.fixed_dictionaries({}, optional=TURN_KEYS), max_size=4), st.sampled_from(RULES))
def test_live_round_raises_only_referee_errors(turns: list[Any], rules: str) -> None:
    ruleset = RULESETS[rules]
    players = NAMES[: max(ruleset.min_players, min(3, ruleset.max_players))]
    try:
        live = live_round({"rules": rules, "players": players}, turns)
    except RefereeError:
        return
    assert json.dumps(live.to_json())
    for card in DECK[:5]:
        live.melds_accepting(card)


# -- the printer's card strings parse back ---------------------------------------------------

NATURAL = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))
ANY_CARD = NATURAL | NATURAL.map(Card.joker) | st.just(Card.joker())


@given(ANY_CARD)
def test_every_printed_card_parses_back(card: Card) -> None:
    text = format_card(card)
    assert parse_card(text) == card and parse_card(text.lower()) == card
    assert text == text.upper() and "T" not in text.replace("JK", "")


@given(st.lists(ANY_CARD, max_size=8))
def test_printed_card_lists_parse_back(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_the_canonical_writer_reads_back_the_same_match(document: dict[str, Any]) -> None:
    try:
        match = read_match(document)
    except RefereeError:
        return
    dumped = dump_match(match)
    assert read_match(json.loads(json.dumps(dumped))) == match
    assert dump_match(read_match(dumped)) == dumped


@st.composite
def gin_knocks(draw: st.DrawFn) -> dict[str, Any]:
    cards = draw(st.permutations(DECK))[:20]
    knocker = draw(st.sampled_from(NAMES[:2]))
    hands = {"Budi": cards[:10], "Siti": cards[10:]}
    round_: dict[str, Any] = {"knock": knocker, "hands": hands}
    if draw(st.booleans()):
        own = hands[knocker]
        groups = draw(st.integers(0, 3))
        round_["melds"] = {knocker: [own[3 * i : 3 * i + 3] for i in range(groups)]}
    return {"rules": "gin", "players": NAMES[:2], "rounds": [round_]}


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(gin_knocks())
def test_gin_knocks_raise_only_referee_errors(document: dict[str, Any]) -> None:
    result = outcome(document)
    if "error" not in result:
        (round_,) = result["rounds"]
        assert round_["outcome"] in ("knock", "gin", "undercut")
        assert sum(round_["scores"].values()) == round_["scores"][round_["winner"]]
