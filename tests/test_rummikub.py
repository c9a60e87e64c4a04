"""Rummikub scenarios, each expectation worked out by hand from RULES.md (``rummikub``)."""

from __future__ import annotations

import pytest

from referee.errors import NotationError, RuleError
from referee.rulesets import find_ruleset
from referee.rulesets.rummikub import options_of
from referee.rummikub import (
    Game,
    GameScore,
    RummikubOptions,
    best_first_meld,
    check_turn,
    hint,
    put_back,
    score_game,
    standing,
    starter,
)
from referee.tile_sets import check_set
from referee.tiles import (
    RUMMIKUB_TILES,
    Colour,
    PieceSet,
    Tile,
    format_tiles,
    parse_tile,
    parse_tiles,
)


def reason(before: object, played: str, after: object, **kwargs: object) -> str:
    verdict = check_turn(before, played, after, **kwargs)  # type: ignore[arg-type]
    assert not verdict.legal
    return str(verdict.reason)


RUMMIKUB = find_ruleset("rummikub")


def preset(key: str) -> RummikubOptions:
    """The options of one of the ruleset's presets, as the referee reads them."""
    chosen = next(p for p in RUMMIKUB.presets if p.key == key)
    return options_of(RUMMIKUB.with_options(chosen.options))


# -- tiles ---------------------------------------------------------------------


def test_tiles_are_written_colour_then_number() -> None:
    assert parse_tile("r7") == Tile("R", 7)
    assert parse_tile("K13") == Tile("K", 13)
    assert parse_tile("y1") == Tile("O", 1)  # sets that print orange as yellow
    assert format_tiles(parse_tiles("b10, jk=o1 JK")) == "B10 JK=O1 JK"


def test_a_card_is_refused_in_words() -> None:
    with pytest.raises(
        NotationError, match="7H is a card; Rummikub is played with tiles such as R7"
    ):
        parse_tile("7H")


@pytest.mark.parametrize("token", ["R14", "R0", "G5", "R", "7"])
def test_a_bad_tile_names_the_token(token: str) -> None:
    with pytest.raises(NotationError, match=f'"{token}" is not a tile'):
        parse_tiles(f"R1 {token} R3")


def test_the_piece_set_is_declared_data() -> None:
    full = RUMMIKUB_TILES.full_set()
    assert len(full) == 106
    assert full.count(Tile("B", 13)) == 2 and full.count(Tile.joker()) == 2
    assert RUMMIKUB_TILES.count_problems(parse_tiles("R5 R5 R5"))[0].text == (
        "R5 is there 3 times, but the game has only 2"
    )
    assert RUMMIKUB_TILES.count_problems(parse_tiles("JK JK JK"))


# -- sets ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "kind"),
    [
        ("R7 B7 K7", "group"),
        ("R7 B7 K7 O7", "group"),
        ("R7 B7 JK=K7", "group"),
        ("R1 R2 R3", "run"),
        ("K11 K12 K13", "run"),
        ("B9 B8 B10 B7", "run"),
        ("R7 JK=R8 R9", "run"),
        ("JK=O1 JK=O2 O3", "run"),
        ("O5 JK=K5 JK=B5", "group"),
    ],
)
def test_legal_sets(tiles: str, kind: str) -> None:
    assert check_set(tiles).kind == kind


@pytest.mark.parametrize(
    ("tiles", "why"),
    [
        ("B7 B7 R7", "B7 twice in a group"),
        ("R7 B7 K7 O7 R7", "a group has at most 4 tiles, one of each colour; R7 B7 K7 O7 R7 has 5"),
        ("R7 B7", "a set needs at least 3 tiles; R7 B7 is only 2"),
        ("R12 R13 R1", "1 is only the lowest number and 13 only the highest: R12 R13 R1 is no run"),
        ("R7 R9 R10", "R8 is missing between R7 and R9"),
        ("R7 B8 K9", "R7 B8 K9 is neither a group nor a run"),
        ("R7 R7 R8 R9", "a run holds one tile of each number, but R7 is there twice"),
        ("R7 B7 JK=R7", "JK=R7 stands for R7, a colour the group already has"),
        ("R7 JK=B7 JK=B7", "two jokers in a group stand for two different colours"),
        (
            "R7 JK=B8 R9",
            "JK=B8 stands for B8, which does not fit with R7 R9; here it could stand for R8",
        ),
        ("R7 JK R9", "a joker on the table must name the tile it stands for"),
    ],
)
def test_illegal_sets_say_why(tiles: str, why: str) -> None:
    verdict = check_set(tiles)
    assert not verdict.legal
    assert str(verdict.reason).startswith(why)


# -- later turns: manipulation with tiles ------------------------------------------------


def test_a_run_extended_and_a_set_split_are_legal() -> None:
    assert check_turn(["R7 R8 R9"], "R10", ["R7 R8 R9 R10"]).legal
    assert check_turn(["R7 R8 R9 R10"], "K10 B10", ["R7 R8 R9", "R10 K10 B10"]).legal


def test_drawing_leaves_the_table_as_it_was() -> None:
    assert check_turn(["R7 R8 R9"], "", ["R9 R8 R7"]).legal
    assert reason(["R7 R8 R9 R10"], "", ["R7 R8 R9", "R10"]).startswith(
        "a turn that changes the table puts at least one tile from the rack on it"
    )


def test_no_tile_leaves_the_table() -> None:
    assert reason(["R7 R8 R9 R10"], "K5 B5 O5", ["R7 R8 R9", "K5 B5 O5"]) == (
        "R10 left the table: no tile may leave the table during a turn"
    )


def test_every_set_is_legal_at_the_end_of_the_turn() -> None:
    assert reason(["R7 R8 R9"], "B9", ["R7 R8", "R9 B9"]) == (
        "set 1 (R7 R8) is not legal: a set needs at least 3 tiles; R7 R8 is only 2"
    )


def test_a_tile_played_must_reach_the_table() -> None:
    assert reason(["R7 R8 R9"], "R10 B2", ["R7 R8 R9 R10"]).startswith(
        "B2 was played from the rack but is not on the table after the turn"
    )


def test_a_joker_is_freed_by_its_real_tile_and_used_again() -> None:
    before = ["R7 JK=R8 R9"]
    assert check_turn(before, "R8 K5 B5", ["R7 R8 R9", "K5 B5 JK=O5"]).legal


def test_a_freed_joker_never_goes_to_the_rack() -> None:
    assert reason(["R7 JK=R8 R9"], "R8", ["R7 R8 R9"]).startswith("JK left the table")


def test_a_joker_keeps_its_tile_until_the_real_one_comes() -> None:
    assert reason(["B6 B7 JK=B8"], "B5", ["JK=B4 B5 B6 B7"]) == (
        "a joker stood for B8 before the turn and no longer does, but no real B8 is on the "
        "table after it: a joker is freed only by the real tile it stands for"
    )


def test_a_joker_in_a_group_of_three_is_freed_by_either_missing_colour() -> None:
    # JK=K7 in R7 B7 may be read as O7: a real O7 frees it (RULES.md, Decision).
    assert check_turn(["R7 B7 JK=K7"], "O7 R4 R5", ["R7 B7 O7", "JK=R3 R4 R5"]).legal


def test_a_joker_in_a_group_of_four_is_freed_only_by_its_colour() -> None:
    verdict = check_turn(["R7 B7 O7 JK=K7"], "R4 R5", ["R7 B7 O7", "JK=R3 R4 R5"])
    assert str(verdict.reason).startswith("a joker stood for K7 before the turn")


def test_two_copies_at_most_and_two_jokers_at_most() -> None:
    verdict = check_turn(["R5 R6 R7", "R5 R6 R7"], "R5 R6 R7", ["R5 R6 R7"] * 3)
    assert "R5 is there 3 times, but the game has only 2" in str(verdict.reason)


# -- the initial meld ------------------------------------------------------------------


def test_the_initial_meld_refused_at_27() -> None:
    assert reason([], "R8 R9 R10", ["R8 R9 R10"], melded=False) == (
        "the initial meld makes 27 from your rack: 30 needed"
    )


def test_the_initial_meld_at_30_with_a_joker_counting_its_tile() -> None:
    verdict = check_turn([], "R9 R10 JK", ["R9 R10 JK=R11"], melded=False)
    assert verdict.legal and verdict.first_meld == 30


def test_the_initial_meld_adds_up_several_sets() -> None:
    verdict = check_turn([], "K1 B1 O1 R9 R10 R11", ["K1 B1 O1", "R9 R10 R11"], melded=False)
    assert verdict.legal and verdict.first_meld == 33


def test_a_joker_in_a_group_counts_the_groups_number() -> None:
    verdict = check_turn([], "K10 B10 JK", ["K10 B10 JK=R10"], melded=False)
    assert verdict.legal and verdict.first_meld == 30


def test_the_initial_meld_leaves_the_table_alone() -> None:
    before = ["K1 K2 K3"]
    after = ["K1 K2 K3 K4", "R10 R11 R12"]
    assert reason(before, "K4 R10 R11 R12", after, melded=False) == (
        "in the initial meld the sets already on the table stay exactly as they were, "
        "but K1 K2 K3 changed"
    )


def test_with_initial_turn_table_the_player_may_then_rearrange() -> None:
    options = RummikubOptions(initial_turn_table=True)
    before = ["K1 K2 K3"]
    assert check_turn(
        before, "K4 R10 R11 R12", ["K1 K2 K3 K4", "R10 R11 R12"], melded=False, options=options
    ).legal
    # the value comes only from sets made of rack tiles: K4 joined a table set
    assert reason(
        before, "K4 R7 R8 R9", ["K1 K2 K3 K4", "R7 R8 R9"], melded=False, options=options
    ) == ("the initial meld makes 24 from your rack: 30 needed")


def test_sabra_asks_50() -> None:
    sabra = preset("sabra")
    assert reason([], "K10 B10 O10", ["K10 B10 O10"], melded=False, options=sabra) == (
        "the initial meld makes 30 from your rack: 50 needed"
    )


def test_a_player_who_melded_plays_any_amount() -> None:
    assert check_turn([], "R1 R2 R3", ["R1 R2 R3"], melded=True).legal


# -- putting the table back, and the hint ------------------------------------------------


def test_a_bad_rearrangement_is_put_back_and_the_misfit_goes_back() -> None:
    found = put_back(["R7 R8 R9", "K5 B5 O5"], "R5 B9")
    assert [str(t) for t in found.back_to_rack] == ["B9"]
    assert sorted(sorted(map(str, s)) for s in found.layout.sets) == [
        ["B5", "K5", "O5", "R5"],
        ["R7", "R8", "R9"],
    ]


def test_a_table_that_was_wrong_says_what_cannot_be_placed() -> None:
    found = put_back(["R7 R8 R9", "B2 B3"], "")
    assert [str(t) for t in found.cannot_place] == ["B2", "B3"]


def test_put_back_keeps_a_bound_joker_on_its_tile() -> None:
    found = put_back(["R7 JK=R8 R9"], "B1 B2")  # the joker keeps R8: B1 B2 cannot use it
    assert [str(t) for t in found.back_to_rack] == ["B1", "B2"]
    freed = put_back(["R7 JK=R8 R9"], "R8 B1 B2")  # the real R8 frees it: B1 B2 JK
    assert freed.complete


def test_the_hint_finds_the_most_tiles() -> None:
    assert [str(t) for t in hint("R10 B3 K12 R6", ["R7 R8 R9"]).tiles] == ["R6", "R10"]


def test_the_hint_frees_a_joker_with_its_tile() -> None:
    found = hint("R8 K5 B5", ["R7 JK=R8 R9"])
    assert sorted(map(str, found.tiles)) == ["B5", "K5", "R8"]


def test_the_hint_before_the_initial_meld() -> None:
    found = hint("R10 R11 R12 B1 B2", [], melded=False)
    assert sorted(map(str, found.tiles)) == ["R10", "R11", "R12"] and found.first_meld == 33
    assert hint("R7 R8 R9", [], melded=False).tiles == ()


def test_the_best_first_meld_counts_a_joker_as_its_tile() -> None:
    # R10 R11 R12 JK=R13 is 46, K1 B1 O1 is 3; the joker among the ones would make only 37
    assert best_first_meld("R10 R11 R12 JK K1 B1 O1").score == 49


# -- a game turn by turn --------------------------------------------------------------


def test_a_game_draws_plays_and_ends_with_a_rack_emptied() -> None:
    game = Game(("Budi", "Siti"), starter="Siti")
    assert game.pool == 106 - 28
    with pytest.raises(RuleError, match="it is Siti's turn, not Budi's"):
        game.draw("Budi")
    with pytest.raises(RuleError, match="makes 24 from your rack: 30 needed"):
        game.play("Siti", "R7 R8 R9", ["R7 R8 R9"])
    assert game.table == () and game.racks["Siti"] == 14  # nothing changed
    game.draw("Siti")
    assert game.pool == 77 and game.racks["Siti"] == 15 and game.to_play == "Budi"
    game.play("Budi", "K10 B10 O10", ["K10 B10 O10"])
    with pytest.raises(RuleError, match="K10 B10 O10 changed"):  # Siti has not melded yet
        game.play("Siti", "R10", ["K10 B10 O10 R10"])
    game.racks["Siti"] = 3
    game.play("Siti", "R11 R12 R13", ["K10 B10 O10", "R11 R12 R13"])
    assert game.out == "Siti" and game.over


def test_with_the_pool_empty_a_round_of_passes_ends_the_game() -> None:
    game = Game(("Budi", "Siti", "Andi"))
    game.pool = 1
    game.draw("Budi")
    with pytest.raises(RuleError, match="the pool is empty"):
        game.draw("Siti")
    game.pass_turn("Siti")
    game.pass_turn("Andi")
    assert not game.over
    game.pass_turn("Budi")
    assert game.pool_end and game.over


def test_passing_needs_an_empty_pool() -> None:
    game = Game(("Budi", "Siti"))
    with pytest.raises(RuleError, match="draws a tile: the pool still has 78"):
        game.pass_turn("Budi")


def test_two_to_four_players() -> None:
    with pytest.raises(RuleError, match="2 to 4 players, not 5"):
        Game(("A", "B", "C", "D", "E"))


# -- scoring ---------------------------------------------------------------------------


PLAYERS = ("Budi", "Siti", "Andi")


def test_a_rack_emptied_takes_what_the_others_hold() -> None:
    game = score_game(PLAYERS, {"Budi": [], "Siti": "R5 JK", "Andi": "K13 B2"}, out="Budi")
    assert game.scores == {"Budi": 50, "Siti": -35, "Andi": -15}
    assert game.winners == ("Budi",)


def test_the_tournament_joker_is_worth_50() -> None:
    options = preset("tournament")
    game = score_game(PLAYERS, {"Siti": "R5 JK", "Andi": 15}, out="Budi", options=options)
    assert game.scores == {"Budi": 70, "Siti": -55, "Andi": -15}


def test_the_pool_empty_the_lowest_rack_wins_the_differences() -> None:
    game = score_game(PLAYERS, {"Budi": 10, "Siti": 25, "Andi": 40}, pool=True)
    assert game.scores == {"Budi": 45, "Siti": -15, "Andi": -30}


def test_tied_lowest_racks_each_score_as_sole_winner() -> None:
    game = score_game(
        PLAYERS, {"Budi": "R10", "Siti": "B4 K6", "Andi": "O13 O12 O11 JK"}, pool=True
    )
    # lowest 10 (Budi, Siti); Andi 66 pays 56 to each winner
    assert game.scores == {"Budi": 56, "Siti": 56, "Andi": -112}
    assert game.winners == ("Budi", "Siti")


@pytest.mark.parametrize(
    ("racks", "why"),
    [
        ({"Budi": "R1", "Siti": "R2", "Andi": "R3"}, "Budi went out, so their rack is empty"),
        ({"Siti": [], "Andi": "R3"}, "Siti's rack is empty, but only the player who went out"),
        ({"Siti": "R5 R5", "Andi": "R5"}, "among the racks: R5 is there 3 times"),
        ({"Siti": "R5"}, "give Andi's rack"),
        ({"Siti": -3, "Andi": 4}, "Siti's rack is worth a whole number of 0 or more"),
    ],
)
def test_final_racks_are_checked(racks: dict[str, object], why: str) -> None:
    with pytest.raises(RuleError, match=why):
        score_game(PLAYERS, racks, out="Budi")  # type: ignore[arg-type]


def test_no_rack_is_empty_when_the_pool_ran_out() -> None:
    with pytest.raises(RuleError, match="Budi's rack is empty"):
        score_game(PLAYERS, {"Budi": 0, "Siti": 3, "Andi": 4}, pool=True)


# -- the match end and the options -----------------------------------------------------


def won(scores: dict[str, int], *winners: str) -> GameScore:
    return GameScore(scores, winners, {})


TWO = ("Budi", "Siti")


def test_without_games_or_target_the_players_stop_the_match() -> None:
    games = [won({"Budi": 20, "Siti": -20}, "Budi")]
    assert not standing(TWO, games).over
    stopped = standing(TWO, games, stopped=True)
    assert stopped.over and stopped.winners == ("Budi",)


def test_a_fixed_number_of_games() -> None:
    options = RummikubOptions(games=2)
    games = [won({"Budi": 20, "Siti": -20}, "Budi"), won({"Budi": -20, "Siti": 20}, "Siti")]
    assert not standing(TWO, games[:1], options=options).over
    done = standing(TWO, games, options=options)
    assert done.over and done.winners == ("Budi", "Siti")  # a tie that remains is shared


def test_a_target_and_a_tie_at_the_top_plays_on() -> None:
    options = RummikubOptions(target=100)
    games = [won({"Budi": 100, "Siti": -100}, "Budi")]
    assert standing(TWO, games, options=options).winners == ("Budi",)
    three = ("Budi", "Siti", "Andi")
    tied = [won({"Budi": 60, "Siti": 60, "Andi": -120}, "Budi", "Siti")] * 2
    assert not standing(three, tied, options=options).over  # both at 120: one more game
    after = [*tied, won({"Budi": -30, "Siti": -10, "Andi": 40}, "Andi")]
    final = standing(three, after, options=options)
    assert final.over and final.winners == ("Siti",)  # 110 alone at the top


def test_games_won_then_points() -> None:
    options = RummikubOptions(games=3, standing="games_won")
    games = [
        won({"Budi": 10, "Siti": -10}, "Budi"),
        won({"Budi": 5, "Siti": -5}, "Budi"),
        won({"Budi": -90, "Siti": 90}, "Siti"),
    ]
    result = standing(TWO, games, options=options)
    assert result.totals == {"Budi": -75, "Siti": 75}
    assert result.games_won == {"Budi": 2, "Siti": 1}
    assert result.winners == ("Budi",)


def test_each_winner_of_a_pool_empty_game_counts_one() -> None:
    options = RummikubOptions(games=1, standing="games_won")
    result = standing(TWO, [won({"Budi": 0, "Siti": 0}, "Budi", "Siti")], options=options)
    assert result.games_won == {"Budi": 1, "Siti": 1} and result.winners == ("Budi", "Siti")


@pytest.mark.parametrize(
    ("values", "why"),
    [
        ({"games": 3, "target": 500}, r"Target \(target\) only applies with Games \(games: null\)"),
        ({"target": 500, "standing": "games_won"}, r"only applies with .*standing: points"),
        ({"initial_meld": 101}, r"\(initial_meld\) goes from 0 to 100, not 101"),
        ({"joker_value": 0}, r"\(joker_value\) goes from 1 to 50, not 0"),
        ({"target": 40}, r"\(target\) goes from 50 to 10000, not 40"),
        ({"games": 0}, r"\(games\) goes from 1 to 100"),
        ({"standing": "rounds"}, r"\(standing\) is one of points, games_won"),
        ({"initial_turn_table": "yes"}, r"\(initial_turn_table\) is true or false"),
    ],
)
def test_options_out_of_range_are_refused(values: dict[str, object], why: str) -> None:
    with pytest.raises(RuleError, match=why):
        RUMMIKUB.check_options(values)


def test_the_presets() -> None:
    assert preset("standard") == RummikubOptions(
        initial_meld=30, initial_turn_table=False, joker_value=30, games=None, target=None
    )
    assert preset("sabra").initial_meld == 50
    assert preset("tournament").joker_value == 50


def test_a_group_of_three_read_with_its_other_colour_is_the_same_set() -> None:
    # RULES.md, Decision: JK=K7 beside R7 B7 may be written JK=O7; the initial meld
    # leaves that set unchanged either way
    verdict = check_turn(
        ["R7 B7 JK=K7"], "R10 R11 R12", ["R7 B7 JK=O7", "R10 R11 R12"], melded=False
    )
    assert verdict.legal and verdict.first_meld == 33


def test_put_back_reads_a_group_of_three_joker_either_way() -> None:
    # the joker in R7 B7 JK=K7 is freed by an O7 as well as by a K7
    found = put_back(["R7 B7 JK=K7"], "O7 R4 R5")
    assert found.complete
    run, group = sorted((sorted(map(str, s)) for s in found.layout.sets), key=lambda s: "B7" in s)
    assert group == ["B7", "O7", "R7"]
    assert run in (["JK=R3", "R4", "R5"], ["JK=R6", "R4", "R5"])


def test_a_game_ends_only_once() -> None:
    game = Game(("Budi", "Siti"))
    game.racks["Budi"] = 3
    game.play("Budi", "R11 R12 R13", ["R11 R12 R13"])
    with pytest.raises(RuleError, match="the game is over: Budi emptied the rack"):
        game.draw("Siti")


def test_bad_input_is_refused_in_words() -> None:
    with pytest.raises(RuleError, match="R5 is there 3 times, but the game has only 2"):
        put_back(["R5 R6 R7", "R5 B5 K5"], "R5")
    with pytest.raises(NotationError, match="7H is a card"):
        check_turn([], "7H", ["7H"])
    with pytest.raises(RuleError, match="a table is a list of sets"):
        hint("R5", 7)  # type: ignore[arg-type]


def test_another_game_with_its_own_pieces_is_a_declaration() -> None:
    # Phase 10's numbered cards: 1-12 in red, blue, green, yellow, two of each
    phase10 = PieceSet(
        game="Phase 10",
        colours=tuple(Colour(letter, letter) for letter in "RBGY"),
        lowest=1,
        highest=12,
        copies=2,
        jokers=8,
    )
    assert parse_tile("g12", phase10) == Tile("G", 12)
    with pytest.raises(NotationError, match='"G13" is not a tile'):
        parse_tile("G13", phase10)
    with pytest.raises(NotationError, match="7H is a card; Phase 10 is played with tiles such"):
        parse_tile("7H", phase10)
    assert check_set("G10 G11 G12", phase10).kind == "run"
    assert not check_set("K5 B5 O5", RUMMIKUB_TILES).reason
    found = put_back([], "G10 G11 JK Y3 B3 R3", pieces=phase10)
    assert found.complete and len(found.layout.sets) == 2


def test_an_unknown_option_is_named() -> None:
    with pytest.raises(RuleError, match='rummikub has no option "initial"; its options are'):
        RUMMIKUB.check_options({"initial": 30})


def test_the_start_moves_one_seat_on_each_game() -> None:
    players = ("Budi", "Siti", "Andi")
    # first_dealer names the player before the first starter
    assert [starter(players, "Andi", game) for game in (1, 2, 3, 4)] == [
        "Budi",
        "Siti",
        "Andi",
        "Budi",
    ]
