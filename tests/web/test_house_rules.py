"""House rules in the app: the setup's options made from the ruleset's declaration, the engine's
refusals shown next to the form, Oklahoma rounds through the forms and the API, the House
rules card, the rules pages' numbers, the table's saved sets, the tools and the statistics.

Scores are derived by hand from RULES.md (gin; House rules):

The knock used below: Budi knocks holding 7C 8C 9C, 2S 2H 2D, 5H 6H 7H and AS (deadwood
AS = 1).  Siti holds 6C 10C 4D 5D KS KH QC JD 3S 9H: no meld of her own; she lays off 6C and
10C on 7C 8C 9C, leaving 4 + 5 + 10 + 10 + 10 + 10 + 3 + 9 = 61.  The knock scores
61 - 1 = 60 for Budi.  Oklahoma with the upcard 5S: the knock limit is 5 (1 <= 5, the knock
stands) and a spade doubles the round: 120.  With the upcard AS only gin may end the round:
Budi's knock (deadwood 1) is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from test_sixth_ruleset import TOY

from referee.rulesets import RULESETS, registered_ruleset
from referee.rulesets.options import OptionType, RoundInput
from referee.web.store.extensions import db
from referee.web.store.models import HouseRules, Match

from .helpers import errors, new_match, new_table, save_round, text, to_english, view_url
from .pageform import PageForm

TWO = ["Budi", "Siti"]
KNOCKER = "7C 8C 9C 2S 2H 2D 5H 6H 7H AS"
DEFENDER = "6C 10C 4D 5D KS KH QC JD 3S 9H"


@pytest.fixture
def english(client):
    to_english(client)
    return client


def export(client, match_url):
    return json.loads(client.get(match_url + "export").data)


def match_count(app) -> int:
    with app.app_context():
        return db.session.query(Match).count()


# -- 1. the setup's options ------------------------------------------------------------------


def test_the_setup_asks_every_option_the_ruleset_declares(english):
    table = new_table(english, "Budi, Siti")
    page = english.get(table + "new/gin").text
    usual = ["oklahoma", "knock_limit", "gin_bonus", "undercut_bonus"]
    more = ["spades_double", "big_gin_bonus", "box_bonus", "game_bonus", "shutout"]
    details = page.index('class="more-options"')
    for name in usual:
        assert page.index(f'name="{name}"') < details, name
    for name in more:
        assert page.index(f'name="{name}"') > details, name
    # Each with its label and explanation (the engine's texts).
    assert "Gin bonus" in page or "gin bonus" in page.lower()
    gin = RULESETS["gin"]
    assert text(english.get(table + "new/gin")).count(gin.declared("gin_bonus").explanation) == 1
    # A number field carries its range.
    field = re.search(r'<input[^>]*name="gin_bonus"[^>]*>', page)
    assert field and 'min="0"' in field[0] and 'max="100"' in field[0]
    # The presets, one tap each.
    for preset in gin.presets:
        assert f'name="preset" value="{preset.key}"' in page


def test_a_match_keeps_the_options_that_differ_from_the_standard_rules(english):
    table = new_table(english, "Budi, Siti")
    match = new_match(
        english, table, "gin", TWO, target=100, gin_bonus=20, undercut_bonus=10, knock_limit=10
    )
    # knock_limit 10 is the standard rules' value: not written out.
    assert export(english, match)["options"] == {
        "target": 100,
        "gin_bonus": 20,
        "undercut_bonus": 10,
    }


def test_a_refused_combination_shows_the_engines_words_and_saves_nothing(app, english):
    table = new_table(english, "Budi, Siti")
    before = match_count(app)
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"}
    response = english.submit(table + "new/gin", data | {"oklahoma": "y", "knock_limit": "7"})
    assert response.status_code == 400
    assert any("cannot be used with" in message for message in errors(response))
    assert 'value="7"' in response.text  # what was typed is kept
    assert match_count(app) == before


def test_an_option_out_of_its_range_is_refused_next_to_it(app, english):
    table = new_table(english, "Budi, Siti")
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"}
    response = english.submit(table + "new/gin", data | {"gin_bonus": "101"})
    assert response.status_code == 400
    assert "Enter a number from 0 to 100." in errors(response)
    assert match_count(app) == 0


def test_a_preset_fills_the_form_in_one_tap_and_saves_nothing(app, english):
    table = new_table(english, "Budi, Siti")
    data = {"seat_0": "Siti", "seat_1": "Budi", "first_dealer": "Siti", "target": "100"}
    response = english.submit(table + "new/gin", data | {"preset": "oklahoma"})
    assert response.status_code == 200
    page = response.text
    assert re.search(
        r'<input[^>]*checked[^>]*name="oklahoma"|<input[^>]*name="oklahoma"[^>]*checked', page
    )
    # Oklahoma's target is 150 (RULES.md): gin offers 50 and 100, so it is the other target.
    assert re.search(r'name="custom_target"[^>]*value="150"', page)
    assert re.search(r'<option selected value="Siti">|<option[^>]*value="Siti"[^>]*selected', page)
    assert match_count(app) == 0


# -- the API ------------------------------------------------------------------------------------


def api_table(api_client) -> str:
    made = api_client.post("/api/v1/tables", json={"name": "Meja", "players": TWO})
    assert made.status_code == 201
    return made.json["edit_key"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"trumps": 3}, 'has no option "trumps"'),
        ({"gin_bonus": 101}, "goes from 0 to 100, not 101"),
        ({"gin_bonus": "20"}, "is a whole number from 0 to 100"),
        ({"shutout": 1}, "is true or false"),
        ({"oklahoma": True, "knock_limit": 7}, "cannot be used with"),
        ({"spades_double": False}, "only applies with"),
    ],
)
def test_the_api_refuses_options_the_ruleset_does_not_take(client, options, words):
    key = api_table(client)
    answer = client.post(
        f"/api/v1/t/{key}/matches",
        json={"rules": "gin", "players": TWO, "first_dealer": "Budi", "options": options},
        headers={"Accept-Language": "en"},
    )
    assert answer.status_code == 400
    assert words in answer.json["error"]["message"]
    assert client.get(f"/api/v1/t/{key}/matches").json["matches"] == []


def test_a_ruleset_registered_later_works_in_the_api_and_the_checker(client):
    with registered_ruleset(TOY):
        key = api_table(client)
        made = client.post(
            f"/api/v1/t/{key}/matches",
            json={
                "rules": "toy",
                "players": TWO,
                "first_dealer": "Budi",
                "options": {"target": 30},
            },
        )
        assert made.status_code == 201, made.json
        assert '<option value="toy">' in client.get("/check").text
        checked = client.post(
            "/api/v1/tools/meld", json={"rules": "toy", "cards": ["7S", "8S", "9S"]}
        )
        assert checked.status_code == 200 and checked.json["legal"] is True
    assert (
        client.post("/api/v1/tools/meld", json={"rules": "toy", "cards": ["7S"]}).status_code == 400
    )


# -- 2. Oklahoma rounds ---------------------------------------------------------------------------


def oklahoma_match(client) -> str:
    table = new_table(client, "Budi, Siti")
    # A browser sends the spades rule's box ticked, as the form shows it (its default).
    return new_match(
        client,
        table,
        "gin",
        TWO,
        target="custom",
        custom_target=150,
        oklahoma="y",
        spades_double="y",
    )


def test_an_oklahoma_round_by_the_quick_form_doubles_with_a_spade_upcard(english):
    match = oklahoma_match(english)
    form = english.get(match + "rounds/new").text
    assert 'name="upcard"' in form
    hands = {"Budi": KNOCKER, "Siti": DEFENDER}
    missing = save_round(english, match, TWO, hands, ending="knock", player="Budi")
    assert missing.status_code == 400
    assert "Upcard: this round needs it." in errors(missing)
    saved = save_round(english, match, TWO, hands, ending="knock", player="Budi", upcard="5S")
    assert saved.status_code == 302, errors(saved)
    assert export(english, match)["rounds"][0]["upcard"] == "5S"
    page = text(english.get(match))
    assert re.findall(r'class="total-points"[^>]*>(\d+)<', english.get(match).text) == ["120", "0"]
    assert "Oklahoma" in page  # the House rules card


def test_an_ace_upcard_refuses_a_knock_in_the_quick_form(app, english):
    match = oklahoma_match(english)
    hands = {"Budi": KNOCKER, "Siti": DEFENDER}
    refused = save_round(english, match, TWO, hands, ending="knock", player="Budi", upcard="AS")
    assert refused.status_code == 400
    assert any("only gin ends the round" in message for message in errors(refused))
    assert export(english, match)["rounds"] == []


def test_oklahoma_rounds_through_the_api(client):
    key = api_table(client)
    made = client.post(
        f"/api/v1/t/{key}/matches",
        json={
            "rules": "gin",
            "players": TWO,
            "first_dealer": "Budi",
            "options": {"oklahoma": True},
        },
    ).json
    path, etag = f"/api/v1/t/{key}/m/{made['id']}", made["etag"]
    hands = {"Budi": KNOCKER.split(), "Siti": DEFENDER.split()}
    refused = client.post(
        path + "/rounds",
        json={"knock": "Budi", "upcard": "AS", "hands": hands},
        headers={"If-Match": f'"{etag}"', "Accept-Language": "en"},
    )
    assert refused.status_code == 422 and "only gin" in refused.json["error"]["message"]
    saved = client.post(
        path + "/rounds",
        json={"knock": "Budi", "upcard": "5S", "hands": hands},
        headers={"If-Match": f'"{etag}"'},
    )
    assert saved.status_code == 201, saved.json
    board = client.get(path).json
    assert board["totals"] == {"Budi": 120, "Siti": 0} and board["target"] == 150


CUT = RoundInput("cut", "card", "Cut card", "The card cut before the deal.")


def test_a_new_round_input_is_asked_by_the_live_end_form_from_its_declaration(english):
    """A toy ruleset that declares one more per-round input: the live round asks it."""
    cutting = replace(TOY, id="cutting", name="Cutting Rummy", round_inputs=(CUT,))
    with registered_ruleset(cutting):
        match = new_match(
            english, new_table(english, "Ana, Ben"), "cutting", ["Ana", "Ben"], dealer="Ana"
        )
        turn = {"player": "Ben", "melds": "7S 8S 9S", "discard": "QD", "action": "save"}
        assert english.submit(match + "live/turn", turn).status_code == 302
        ending = english.get(match + "live/end").text
        assert 'name="cut"' in ending and "Cut card" in ending
        refused = english.submit(match + "live/end", {"ending": "blocked"})
        assert refused.status_code == 400 and "Cut card: this round needs it." in errors(refused)
        saved = english.submit(match + "live/end", {"ending": "blocked", "cut": "4H"})
        assert saved.status_code == 302, errors(saved)
        assert export(english, match)["rounds"][0]["cut"] == "4H"


# -- 4. what the players see ---------------------------------------------------------------------


def test_the_house_rules_card_on_the_scoreboard_and_the_view_link(english):
    table = new_table(english, "Budi, Siti")
    match = new_match(english, table, "gin", TWO, target=100, gin_bonus=20, undercut_bonus=10)
    for url in (match, match.replace(table, view_url(english, table))):
        page = text(english.get(url))
        card = page.split('class="house-rules-card"')[1].split("</section>")[0]
        assert "Gin pays 20" in card and "An undercut pays 10" in card
        assert "Knock at" not in card  # the standard knock limit is no house rule
    standard = new_match(english, table, "gin", TWO, target=100)
    assert "house-rules-card" not in english.get(standard).text


def test_the_rules_page_of_a_match_shows_the_values_in_force(english):
    table = new_table(english, "Budi, Siti")
    match = new_match(english, table, "gin", TWO, target=100, gin_bonus=20, knock_limit=7)
    assert f"{match}rules" in english.get(match).text
    page = text(english.get(match + "rules"))
    assert "whose deadwood is 7 or less may knock" in page
    assert "whole deadwood plus 20" in page and "difference plus 25" in page
    english.submit("/language", {"lang": "id", "next": "/"})
    assert "poin sisanya 7 atau kurang boleh ketuk" in text(english.get(match + "rules"))


def sentinel_ruleset(rules_id: str):
    """The ruleset with every number option's default moved to an unusual value (within its
    range), and each numeric choice to a value that is not its default."""
    rules = RULESETS[rules_id]
    table, moved = [], {}
    for index, option in enumerate(rules.option_table):
        value = option.default
        if option.type is OptionType.NUMBER and option.default is not None:
            value = min(option.maximum, max(option.minimum, 37 + 4 * index))
        elif option.type is OptionType.CHOICE and all(
            isinstance(choice, int) for choice in option.choices
        ):
            value = next(choice for choice in option.choices if choice != option.default)
        if value != option.default:
            moved[option.name] = value
        table.append(replace(option, default=value, default_when=()))
    return replace(rules, option_table=tuple(table)), moved


# The numbers each rules page says that are option values (the others are the rules' data:
# deal sizes, card values, turn counts).
STANDARD_ONLY = {"gin": ["25", "100"], "manipulation": ["150"], "remi-indonesia": ["500"]}


@pytest.mark.parametrize("rules_id", ["remi", "rummy", "remi-indonesia", "manipulation", "gin"])
@pytest.mark.parametrize("lang", ["en", "id"])
def test_the_rules_pages_take_their_numbers_from_the_data(client, monkeypatch, rules_id, lang):
    client.submit("/language", {"lang": lang, "next": "/"})
    standard = client.get(f"/rules/{rules_id}").text
    rules, moved = sentinel_ruleset(rules_id)
    monkeypatch.setitem(RULESETS, rules_id, rules)
    page = client.get(f"/rules/{rules_id}").text
    # The rules as written (the one-line description above them is the ruleset's own text).
    article = page.split('<article class="rules">')[1].split("</article>")[0]
    article = re.sub(r'<p class="lead">.*?</p>', "", article, flags=re.S)
    for name, value in moved.items():
        if (
            name in ("hands", "big_gin_bonus", "box_bonus", "game_bonus")
            and rules_id != "manipulation"
        ):
            continue  # said only when they are not 0 / given: checked below for gin
        assert re.search(rf"\b{value}\b", article), (name, value)
    for number in STANDARD_ONLY.get(rules_id, []):
        assert not re.search(rf"\b{number}\b", article), number  # no number left behind
    assert standard != page


def test_gin_pages_say_the_end_of_match_bonuses_when_they_are_given(client, monkeypatch):
    rules, moved = sentinel_ruleset("gin")
    monkeypatch.setitem(RULESETS, "gin", rules)
    for lang in ("en", "id"):
        client.submit("/language", {"lang": lang, "next": "/"})
        page = client.get("/rules/gin").text
        for name in ("big_gin_bonus", "box_bonus", "game_bonus"):
            assert re.search(rf"\b{moved[name]}\b", page), name


# -- 3. the table's own house rules ---------------------------------------------------------------


def test_a_table_keeps_its_house_rules_and_starts_a_match_from_them(app, english):
    table = new_table(english, "Budi, Siti")
    assert f"{table}house-rules/new/gin" in english.get(table).text
    form = english.get(table + "house-rules/new/gin").text
    assert 'name="target"' in form and 'name="gin_bonus"' in form
    saved = english.submit(
        table + "house-rules/new/gin",
        {
            "name": "Oma",
            "target": "100",
            "gin_bonus": "20",
            "undercut_bonus": "10",
            "knock_limit": "10",
        },
    )
    assert saved.status_code == 302, errors(saved)
    with app.app_context():
        kept = db.session.query(HouseRules).one()
        assert (kept.name, kept.rules, kept.options) == (
            "Oma",
            "gin",
            {"gin_bonus": 20, "undercut_bonus": 10},
        )
        set_id = kept.id
    listed = text(english.get(table))
    assert "Oma" in listed and "Gin pays 20; An undercut pays 10" in listed
    assert f"{table}house-rules/{set_id}" in english.get(table).text
    view = text(english.get(view_url(english, table)))
    assert "Oma" in view and "house-rules/" not in view  # no edit link on the view link

    setup = english.get(f"{table}new/gin?house_rules={set_id}").text
    assert re.search(r'name="gin_bonus"[^>]*value="20"', setup)
    match = new_match(english, table, "gin", TWO, target=100, gin_bonus=20, undercut_bonus=10)
    assert export(english, match)["options"] == {
        "target": 100,
        "gin_bonus": 20,
        "undercut_bonus": 10,
    }
    # Rematch keeps the options.
    rematch = english.submit(match + "rematch", {})
    assert rematch.status_code == 302
    assert (
        export(english, rematch.headers["Location"])["options"] == export(english, match)["options"]
    )


def make_set(client, table, **fields) -> int:
    data = {
        "name": "Oma",
        "target": "100",
        "knock_limit": "10",
        "gin_bonus": "25",
        "undercut_bonus": "25",
    }
    response = client.submit(table + "house-rules/new/gin", data | fields)
    assert response.status_code == 302, errors(response)
    found = re.search(r"house-rules/(\d+)\"", client.get(table).text)
    assert found
    return int(found[1])


def test_a_refused_set_shows_the_engines_words_and_saves_nothing(app, english):
    table = new_table(english, "Budi, Siti")
    response = english.submit(
        table + "house-rules/new/gin",
        {
            "name": "Oma",
            "target": "100",
            "oklahoma": "y",
            "knock_limit": "7",
            "gin_bonus": "25",
            "undercut_bonus": "25",
        },
    )
    assert response.status_code == 400
    assert any("cannot be used with" in message for message in errors(response))
    with app.app_context():
        assert db.session.query(HouseRules).count() == 0


def test_a_stale_edit_or_delete_is_a_conflict_that_keeps_the_entry(app, english):
    table = new_table(english, "Budi, Siti")
    set_id = make_set(english, table, gin_bonus="20")
    url = f"{table}house-rules/{set_id}"
    page = english.get(url).text
    version = re.search(r'name="version"[^>]*value="(\d+)"', page)[1]
    base = {
        "name": "Oma",
        "target": "100",
        "knock_limit": "10",
        "undercut_bonus": "25",
        "version": version,
    }
    first = english.submit(url, base | {"gin_bonus": "15"})
    assert first.status_code == 302, errors(first)
    stale = english.submit(url, base | {"gin_bonus": "30"})
    assert stale.status_code == 409
    assert re.search(r'name="gin_bonus"[^>]*value="30"', stale.text)  # kept as typed
    deleted = english.submit(url + "/delete", {"version": version})
    assert deleted.status_code == 409
    with app.app_context():
        assert db.session.get(HouseRules, set_id).options == {"gin_bonus": 15}
    current = re.search(r'name="version"[^>]*value="(\d+)"', stale.text)[1]
    again = english.submit(url + "/delete", {"version": current})
    assert again.status_code == 302
    with app.app_context():
        assert db.session.get(HouseRules, set_id) is None


# -- 5. the tools ------------------------------------------------------------------------------


def test_the_gin_analyser_takes_the_match_house_rules(english):
    options = json.dumps({"knock_limit": 5})
    page = english.get("/gin?options=" + options).text
    assert "Knock at 5 or less" in text(english.get("/gin?options=" + options))
    # Deadwood 7: a knock under the standard 10, not under the house rules' 5.
    hand = "7C 8C 9C 2S 2H 2D 5H 6H 7H 7S"
    analysed = english.submit("/gin", {"cards": hand, "options": options})
    assert "You may not knock yet (deadwood over 5)." in text(analysed)
    standard = english.submit("/gin", {"cards": hand})
    assert "You may knock (deadwood 10 or less)." in text(standard)
    assert page


def test_the_checker_takes_the_match_house_rules(english):
    table = new_table(english, "Budi, Siti")
    match = new_match(english, table, "rummy", TWO, target=150, ace="high-low")
    link = re.search(r'href="(/check\?[^"]+)"', english.get(match).text)
    assert link
    opened = english.get(link[1].replace("&amp;", "&"))
    assert "Aces are high or low" in text(opened)
    options = re.search(r'name="options"[^>]*value="([^"]*)"', opened.text)
    checked = english.submit(
        "/check",
        {
            "rules": "rummy",
            "options": json.loads(json.dumps(options[1].replace("&#34;", '"'))),
            "options_for": "rummy",
            "ace": "low",
            "cards": "QS KS AS",
        },
    )
    assert "Legal" in text(checked)


# -- 6. history ----------------------------------------------------------------------------------


def test_the_match_list_badge_and_the_statistics_by_house_rules(english):
    table = new_table(english, "Budi, Siti")
    set_id = make_set(english, table, gin_bonus="20")
    hands = {"Budi": KNOCKER, "Siti": DEFENDER}
    standard = new_match(english, table, "gin", TWO, target=100)
    assert (
        save_round(english, standard, TWO, hands, ending="knock", player="Budi").status_code == 302
    )
    house = new_match(english, table, "gin", TWO, target=100, gin_bonus=20)
    assert (
        save_round(
            english, house, TWO, {"Budi": DEFENDER, "Siti": KNOCKER}, ending="knock", player="Siti"
        ).status_code
        == 302
    )
    listing = english.get(table).text
    badges = re.findall(
        r'href="[^"]*/m/(\d+)/"[^<]*</a>\s*(<span class="badge house-rules">)?', listing
    )
    marked = {match_id: bool(badge) for match_id, badge in badges}
    assert marked[house.rstrip("/").rsplit("/", 1)[1]] is True
    assert marked[standard.rstrip("/").rsplit("/", 1)[1]] is False

    def rounds_won(choice: str) -> dict[str, int]:
        """Each player's "Rounds won" (the fifth cell after the name) in the gin table."""
        page = english.get(f"{table}stats?house_rules={choice}").text
        found = {}
        for name in TWO:
            row = re.search(rf'<tr data-player="{name}">(.*?)</tr>', page, re.S)
            cells = [
                re.sub(r"<[^>]+>", "", cell).strip()
                for cell in re.findall(r"<td>(.*?)</td>", row[1])
            ]
            found[name] = int(cells[4])
        return found

    # Budi won the standard match's round (his knock, 60), Siti the house-rules one's.
    assert rounds_won("standard") == {"Budi": 1, "Siti": 0}
    assert rounds_won(str(set_id)) == {"Budi": 0, "Siti": 1}
    assert rounds_won("") == {"Budi": 1, "Siti": 1}


def test_going_out_all_at_once_says_the_factor_of_the_house_rule(english):
    # RULES.md (remi, option at_once): going out all at once multiplies the round's score by
    # the option's value.  Budi goes out at once; Siti holds 10H 5C = 15: 15 x 3 = 45.
    table = new_table(english, "Budi, Siti")
    match = new_match(english, table, "remi", TWO, target=100, at_once=3)
    form = text(english.get(match + "rounds/new"))
    assert "All at once (nothing melded or laid off before): ×3" in form
    assert "×2" not in form
    hands = {"Budi": "", "Siti": "10H 5C"}
    checked = save_round(
        english, match, TWO, hands, ending="out", player="Budi", at_once="y", action="check"
    )
    assert checked.status_code == 200, errors(checked)
    assert "went out at once ×3" in text(checked) and "×2" not in text(checked)
    saved = save_round(english, match, TWO, hands, ending="out", player="Budi", at_once="y")
    assert saved.status_code == 302, errors(saved)
    assert export(english, match)["rounds"][0]["at_once"] is True
    shown = text(english.get(match + "rounds/1"))
    assert "went out at once ×3" in shown and "×2" not in shown
    assert "count 3 times, 45" in shown


def test_a_set_of_house_rules_no_match_can_use_is_refused_and_not_saved(app, english):
    # RULES.md (indian): a first drop costs less than a middle drop, which costs less than
    # the full count; a set with a first drop of 50 and a middle drop of 40 starts no match.
    table = new_table(english, "Budi, Siti")
    form = english.get(table + "house-rules/new/indian").text
    assert 'name="first_drop"' in form and 'name="middle_drop"' in form
    response = english.submit(
        table + "house-rules/new/indian",
        {
            "name": "Naik",
            "format": "pool101",
            "wild": "y",
            "rejoin": "y",
            "first_drop": "50",
            "middle_drop": "40",
            "full_count": "80",
        },
    )
    assert response.status_code == 400
    assert any(
        "First drop (first_drop: 50) is at most Middle drop (middle_drop: 40)" in message
        for message in errors(response)
    ), errors(response)
    with app.app_context():
        assert db.session.query(HouseRules).count() == 0


def test_a_preset_tapped_on_a_filled_form_shows_its_own_target_and_values(app, english):
    # A browser posts every box with the tap, the empty "other target" too; the preset's
    # values are what the form shows again (gin with oklahoma: target 150, RULES.md).
    table = new_table(english, "Budi, Siti")
    data = {"seat_0": "Budi", "seat_1": "Siti", "first_dealer": "Budi", "target": "100"}
    posted = data | {"custom_target": "", "gin_bonus": "30", "preset": "oklahoma"}
    page = english.submit(table + "new/gin", posted).text
    assert re.search(r'name="custom_target"[^>]*value="150"', page)
    assert re.search(r'name="gin_bonus"[^>]*value="25"', page)
    assert match_count(app) == 0


# -- 6. a default that another option changes ---------------------------------------------------
# Gin's box bonus is 0, and 20 with Hollywood scoring (RULES.md, gin: option `scoring`).


def test_a_setup_form_filled_with_hollywood_keeps_a_bonus_set_back_to_gins_plain_value(english):
    table = new_table(english, "Budi, Siti")
    setup = english.get(f"{table}new/gin?preset=hollywood").text
    assert re.search(r'name="box_bonus"[^>]*value="20"', setup)  # Hollywood's, as shown
    posted = PageForm(setup, action=f"{table}new/gin").fields | {"box_bonus": "0"}
    for seat, name in enumerate(TWO):
        posted[f"seat_{seat}"] = name
    posted.pop("preset", None)
    response = english.post(f"{table}new/gin", data=posted)
    assert response.status_code == 302, errors(response)
    options = export(english, response.headers["Location"])["options"]
    assert options["scoring"] == "hollywood" and options["box_bonus"] == 0


def test_a_saved_hollywood_set_shows_its_bonuses_and_keeps_one_set_back_to_plain(app, english):
    table = new_table(english, "Budi, Siti")
    # A new set's form shows gin's plain bonuses; Hollywood chosen and the bonuses left as
    # they were shown, Hollywood's apply (nothing more is written out).
    set_id = make_set(english, table, scoring="hollywood", box_bonus="0", game_bonus="0")
    with app.app_context():
        assert db.session.get(HouseRules, set_id).options == {"scoring": "hollywood"}
    url = f"{table}house-rules/{set_id}"
    page = english.get(url).text
    assert re.search(r'name="box_bonus"[^>]*value="20"', page)
    assert re.search(r'name="game_bonus"[^>]*value="100"', page)
    response = english.post(url, data=PageForm(page, action=url).fields | {"box_bonus": "0"})
    assert response.status_code == 302, errors(response)
    with app.app_context():
        kept = db.session.get(HouseRules, set_id).options
    assert kept == {"scoring": "hollywood", "box_bonus": 0}
