"""The three-way merge of two phones' edits of the same round (referee.web.play.merging)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.web.play.merging import merge, same

FIELDS = ["ending", "player", "hand_0", "hand_1", "hand_2", "at_once"]
VALUES = st.one_of(st.sampled_from(["", "KS", "KS 2D", "3H 4H", "out", "Réni"]), st.booleans())


@st.composite
def two_edits(draw):
    """A round's form as loaded, and two phones' edits of some of its fields."""
    base = {name: draw(VALUES) for name in FIELDS}
    mine_edits = draw(st.dictionaries(st.sampled_from(FIELDS), VALUES))
    their_edits = draw(st.dictionaries(st.sampled_from(FIELDS), VALUES))
    return base, {**base, **mine_edits}, {**base, **their_edits}


@settings(max_examples=150)
@given(two_edits())
def test_every_change_of_either_phone_is_kept_or_offered_as_a_choice(edits):
    base, mine, theirs = edits
    merged = merge(base, mine, theirs)
    for name in FIELDS:
        mine_moved, their_moved = (
            not same(base[name], mine[name]),
            not same(base[name], theirs[name]),
        )
        if name in merged.contests:
            contest = merged.contests[name]
            assert mine_moved and their_moved and not same(mine[name], theirs[name])
            assert (contest.mine, contest.theirs) == (mine[name], theirs[name])
            assert name not in merged.values  # never silently taken from either side
        elif mine_moved:
            assert same(merged.values[name], mine[name])
        elif their_moved:
            assert same(merged.values[name], theirs[name])  # never reverted to the base
        else:
            assert same(merged.values[name], base[name])
    assert merged.settled({}) is None or not merged.contests


def test_the_issue_case_both_corrections_stand():
    """Phone 1 changed Réni's hand to KS 2D and saved; phone 3 changed Siti's on the old form."""
    base = {"ending": "out", "player": "Budi", "hand_0": "", "hand_1": "KS", "hand_2": "9C"}
    theirs = {**base, "hand_1": "KS 2D"}
    mine = {**base, "hand_2": "3H 4H"}
    merged = merge(base, mine, theirs)
    assert merged.values == {**base, "hand_1": "KS 2D", "hand_2": "3H 4H"}
    assert (merged.mine_changed, merged.theirs_changed, merged.contests) == (
        ("hand_2",),
        ("hand_1",),
        {},
    )


def test_both_changed_the_same_hand_differently_is_a_choice_settled_by_a_person():
    base, mine, theirs = {"hand_1": "KS"}, {"hand_1": "QH"}, {"hand_1": "KS 2D"}
    merged = merge(base, mine, theirs)
    assert list(merged.contests) == ["hand_1"]
    assert merged.settled({}) is None
    assert merged.settled({"hand_1": "theirs"}) == {"hand_1": "KS 2D"}
    assert merged.settled({"hand_1": "mine"}) == {"hand_1": "QH"}


def test_the_same_change_on_both_phones_is_no_choice():
    merged = merge({"hand_1": "KS"}, {"hand_1": "QH"}, {"hand_1": "QH"})
    assert (merged.values, merged.contests) == ({"hand_1": "QH"}, {})


def test_without_a_base_every_difference_is_a_choice_and_an_empty_box_is_no_difference():
    merged = merge(None, {"a": "KS", "b": "", "c": "2D"}, {"a": "KS 2D", "b": None, "c": "2D"})
    assert list(merged.contests) == ["a"]
    assert merged.values == {"b": None, "c": "2D"}


def test_a_field_only_one_side_has_counts_as_empty_on_the_other():
    """A final table grown by one phone: its new meld row is new on that side only."""
    merged = merge(
        {"table_cards_0": "7S 8S 9S"},
        {"table_cards_0": "7S 8S 9S"},
        {
            "table_cards_0": "7S 8S 9S",
            "table_cards_1": "QH QD QC",
        },
    )
    assert merged.values == {"table_cards_0": "7S 8S 9S", "table_cards_1": "QH QD QC"}
    assert merged.theirs_changed == ("table_cards_1",)
