"""Two phones at once, with real concurrent requests (gunicorn, three workers, SQLite and
PostgreSQL; see ``realserver.py``): a live turn from a stale page is checked on the round as
it is now, and the same deal entered on two phones is saved once.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

from .conftest import DATABASE_KINDS as KINDS
from .realserver import at_once, served_database
from .test_races import make_match, make_table, stored_rounds

TRIALS = 4
TWO = ["Budi", "Siti"]


@pytest.fixture(scope="module", params=KINDS)
def served(request, tmp_path_factory):
    with served_database(request.param, tmp_path_factory.mktemp("samedeal")) as both:
        yield both


def statuses(responses):
    found = {r.status_code for r in responses}
    assert 500 not in found, [r.text[:400] for r in responses if r.status_code >= 500]
    return sorted(r.status_code for r in responses)


# -- case 3: live turns from a stale page -------------------------------------------------


def test_two_players_turns_typed_at_once_are_both_saved_in_either_order(phones, engine):
    """Two players, Budi dealing: Siti leads, then Budi, then Siti.  Both turns are typed on
    pages that show no turn; whichever lands second is the other player's turn on the round
    as the first left it, so both are saved, none refused for a stale page."""
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        turn = match + "live/turn"
        form_a, form_b = a.form(turn), b.form(turn)
        siti = {**form_a, "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        budi = {**form_b, "player": "Budi", "melds": "2H 3H 4H", "action": "save"}
        responses = at_once(partial(a.post, turn, siti), partial(b.post, turn, budi))
        assert statuses(responses) == [302, 302]
        [(_n, entry, complete)] = stored_rounds(engine, match)
        assert not complete
        assert sorted(t["player"] for t in entry["turns"]) == ["Budi", "Siti"]
        assert sorted(t["melds"][0][0] for t in entry["turns"]) == ["2H", "7S"]


def test_the_same_turn_typed_on_two_phones_at_once_is_saved_once(phones, engine):
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        turn = match + "live/turn"
        form_a, form_b = a.form(turn), b.form(turn)
        one = {**form_a, "player": "Siti", "melds": "7S 8S 9S", "action": "save"}
        other = {**form_b, "player": "Siti", "melds": "7S 8S 9S", "discard": "2C"}
        responses = at_once(
            partial(a.post, turn, one), partial(b.post, turn, {**other, "action": "save"})
        )
        assert statuses(responses) == [302, 409]
        [(_n, entry, _c)] = stored_rounds(engine, match)
        assert [t["player"] for t in entry["turns"]] == ["Siti"]


# -- case 2: the same deal on two phones --------------------------------------------------


def quick(hands, **fields):
    """Remi, Budi out: the other hands as typed (Siti's is hand_1)."""
    return {"hand_0": "", "hand_1": hands, "ending": "out", "player": "Budi", **fields}


def seen_version(response):
    found = re.search(r'name="seen_version" value="(\d+)" form="round-form"', response.text)
    assert found, response.text[:600]
    return found.group(1)


def test_the_same_deal_saved_on_two_phones_at_once_is_saved_once(phones, engine):
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        new = match + "rounds/new"
        form_a, form_b = a.form(new), b.form(new)
        responses = at_once(
            partial(a.post, new, {**form_a, **quick("KH", action="save")}),
            partial(b.post, new, {**form_b, **quick("KH", action="save")}),
        )
        assert statuses(responses) == [302, 409]
        loser = next(r for r in responses if r.status_code == 409)
        assert 'name="for_round" type="hidden" value="1"' in loser.text  # not relabelled 2
        seen_version(loser)  # the choice is offered
        assert [n for n, _e, _c in stored_rounds(engine, match)] == [1]


def test_keep_mine_racing_the_next_round_one_wins_and_nothing_is_doubled(phones, engine):
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        new = match + "rounds/new"
        typed = b.form(new)  # b opens round 1 ...
        assert a.post(new, {**a.form(new), **quick("KH", action="save")}).status_code == 302
        conflict = b.post(new, {**typed, **quick("QH", action="save")})  # ... saves it late
        assert conflict.status_code == 409
        mine = {**typed, **quick("QH", action="keep_mine"), "seen_version": seen_version(conflict)}
        next_round = {**a.form(new), **quick("2C", action="save")}  # a enters round 2
        responses = at_once(partial(b.post, new, mine), partial(a.post, new, next_round))
        assert statuses(responses) == [302, 409]
        rounds = stored_rounds(engine, match)
        if responses[0].status_code == 302:  # keep mine first: round 2's form is stale
            assert [(n, e["hands"]) for n, e, _c in rounds] == [(1, {"Siti": ["QH"]})]
        else:  # round 2 first: the choice named the match before it, offered again
            assert [(n, e["hands"]) for n, e, _c in rounds] == [
                (1, {"Siti": ["KH"]}),
                (2, {"Siti": ["2C"]}),
            ]


def test_save_as_the_next_round_tapped_twice_saves_one_round(phones, engine):
    a, b = phones
    table = make_table(a, TWO)
    for _ in range(TRIALS):
        match = make_match(a, table, TWO)
        new = match + "rounds/new"
        typed = b.form(new)
        assert a.post(new, {**a.form(new), **quick("KH", action="save")}).status_code == 302
        conflict = b.post(new, {**typed, **quick("2C 3C", action="save")})
        chosen = {
            **typed,
            **quick("2C 3C", action="save_as_next"),
            "seen_version": seen_version(conflict),
        }
        responses = at_once(partial(b.post, new, chosen), partial(b.post, new, chosen))
        assert statuses(responses) == [302, 302]  # the second is answered by the first's receipt
        rounds = stored_rounds(engine, match)
        assert [(n, e["hands"]) for n, e, _c in rounds] == [
            (1, {"Siti": ["KH"]}),
            (2, {"Siti": ["2C", "3C"]}),
        ]
