"""Every round of the score sheet page, read back from its HTML: its row on the sheet (the
outcome and who won, the dealer, its links, each player's score and running total) and the
round as entered below it (the referee's notes, the turns, the table, the hands).

The page works these out once per page (show/sheetpage.py, show/entered.py, one url_for per
kind of link); the expectations here are derived by hand from RULES.md, the engine's
message templates and the Indonesian catalogue, for final tables, a round played turn by
turn, gin, rummy500's table and hand points, hands given as points, void rounds and
corrections, through the edit link and the view link."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import partial
from html.parser import HTMLParser
from typing import Any

from . import history_fixture
from .helpers import errors, to_english, view_url

# -- reading a page ----------------------------------------------------------------------------

VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def text(self) -> str:
        """The words inside, one space between the pieces of text (a card is a piece)."""
        return " ".join(" ".join(self._pieces()).split())

    def _pieces(self) -> list[str]:
        pieces: list[str] = []
        for child in self.children:
            pieces += [child] if isinstance(child, str) else child._pieces()
        return pieces

    def all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                    found.append(child)
                found += child.all(tag, cls)
        return found

    def one(self, tag: str | None = None, cls: str | None = None) -> Node | None:
        found = self.all(tag, cls)
        assert len(found) <= 1, (tag, cls, len(found))
        return found[0] if found else None


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("document", {})
        self.open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.open[-1].children.append(node)
        if tag not in VOID_TAGS:
            self.open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def tree(html: str) -> Node:
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return parser.root


@dataclass
class Row:
    """A round's row on the sheet."""

    kind: str  # its classes after "round": the outcome, "voided"
    outcome: str
    dealer: str
    links: list[tuple[str, str]]  # (words, address)
    cells: list[str]  # per player: score, table and hand points if any, running total
    not_checked: str | None = None  # the title of "hands as points, not checked"


@dataclass
class Entry:
    """A round as entered, below the sheet."""

    summary: str
    notes: list[str]
    unchecked: list[str]
    headings: list[str]
    items: list[str]  # each turn, meld on the table and hand


def rows(page: str) -> dict[int, Row]:
    found = {}
    for body in tree(page).all("tbody", "round"):
        if "deleted" in body.classes:  # a deleted round's row: deleted_row()
            continue
        number = int(re.fullmatch(r"sheet/r(\d+)", body.attrs["data-part"]).group(1))
        checked = body.one(cls="points-entered")
        found[number] = Row(
            kind=" ".join(body.classes[1:]),
            outcome=body.one(cls="outcome").text(),
            dealer=body.one(cls="dealt").text(),
            links=[(a.text(), a.attrs["href"]) for a in body.one(cls="row-actions").all("a")],
            cells=[td.text() for td in body.one("tr", "round-scores").all("td")],
            not_checked=checked.attrs["title"].strip() if checked else None,
        )
    return found


def entries(page: str) -> dict[int, Entry]:
    found = {}
    for details in tree(page).all("details", "entry"):
        number = int(details.attrs["id"].removeprefix("round-"))
        notes = details.all("p", "note")
        found[number] = Entry(
            summary=details.one("summary").text(),
            notes=[p.text() for p in notes if "unchecked" not in p.classes],
            unchecked=[p.text() for p in notes if "unchecked" in p.classes],
            headings=[h3.text() for h3 in details.all("h3")],
            items=[li.text() for li in details.all("li")],
        )
    return found


def deleted_row(page: str) -> Node | None:
    return tree(page).one("tbody", "deleted")


# -- the matches ---------------------------------------------------------------------------------

EVERYONE = ["Budi", "Siti", "Andi"]

# remi, rounds entered by their final table (RULES.md, remi: A = 1, 2-10 face value, J Q K =
# 10; the winner takes the points left in the other hands; x2 all at once; a void round
# scores 0 and changes no dealer; 3 players are dealt 7 cards).
FINAL_TABLES = history_fixture.match(
    "remi",
    EVERYONE,
    [
        # Budi deals. Siti out: Budi 2C = 2, Andi 3D 4H = 7: Siti 9.
        {"out": "Siti", "hands": {"Budi": ["2C"], "Andi": ["3D", "4H"]}},
        # Siti deals. Andi out all at once: Budi KH 10 + Siti 5C 5 = 15, doubled: Andi 30.
        {"out": "Andi", "at_once": True, "hands": {"Budi": ["KH"], "Siti": ["5C"]}},
        # Andi deals; void: 0 each, and Andi deals again.
        {"end": "void"},
        # Andi deals. Budi out: Siti's hand given as 12 points, Andi 5S = 5: Budi 17.
        {"out": "Budi", "hands": {"Siti": 12, "Andi": ["5S"]}},
    ],
)

# RULES.md's scenario remi-out-normal: Siti melds A-2-3 of hearts, Andi 9s; Budi and Andi
# lay off 4H and 5H onto the run (meld 1), Siti 9H onto the set (meld 2); Siti melds J-Q-K
# of diamonds and discards 4C, her last card. Budi QC 7D 6H 10S 3C AD = 37, Andi KS 8C 2D
# = 20: Siti 57.
TURN_BY_TURN = history_fixture.match(
    "remi",
    EVERYONE,
    [
        {
            "turns": [
                {"player": "Siti", "melds": [["AH", "2H", "3H"]]},
                {"player": "Andi", "melds": [["9C", "9D", "9S"]]},
                {"player": "Budi", "layoffs": [{"cards": ["4H"], "onto": 1}]},
                {"player": "Siti", "layoffs": [{"cards": ["9H"], "onto": 2}]},
                {"player": "Andi", "layoffs": [{"cards": ["5H"], "onto": 1}]},
                {"player": "Siti", "melds": [["JD", "QD", "KD"]], "discard": "4C", "out": True},
            ],
            "hands": {"Budi": ["QC", "7D", "6H", "10S", "3C", "AD"], "Andi": ["KS", "8C", "2D"]},
        }
    ],
)

# Gin: Budi knocks with AC (1) left over 3-4-5 of hearts, three 9s and J-Q-K of diamonds;
# Siti keeps 2-3-4 of spades and three 7s, deadwood KH QS 8D 6C = 34, nothing to lay off:
# Budi scores 34 - 1 = 33.
GIN = history_fixture.match(
    "gin",
    ["Budi", "Siti"],
    [
        {
            "knock": "Budi",
            "hands": {
                "Budi": ["3H", "4H", "5H", "9S", "9D", "9C", "JD", "QD", "KD", "AC"],
                "Siti": ["2S", "3S", "4S", "7H", "7C", "7S", "KH", "QS", "8D", "6C"],
            },
        }
    ],
)

# rummy500: each scores the cards they put on the table minus their hand (an ace 1 low in
# A-2-3, 15 high in Q-K-A and in hand). Budi A 2 3 of hearts 6 + 5H laid off 5 = 11, no
# hand; Siti 5S 5D 5C 15 + 4H laid off 4 = 19, hand 6C 9S 15: 4; Andi Q K A of diamonds 35,
# hand AS 15: 20.
TABLE_AND_HAND = history_fixture.match(
    "rummy500",
    EVERYONE,
    [
        {
            "table": [
                {"by": "Budi", "cards": ["AH", "2H", "3H"], "layoffs": {"Siti": ["4H"]}},
                {"by": "Siti", "cards": ["5S", "5D", "5C"], "layoffs": {"Budi": ["5H"]}},
                {"by": "Andi", "cards": ["QD", "KD", "AD"]},
            ],
            "out": "Budi",
            "hands": {"Siti": ["6C", "9S"], "Andi": ["AS"]},
        }
    ],
)


@dataclass
class Links:
    """A match's score sheet through the edit link and through the view link."""

    edit: str  # /t/<edit key>/m/<id>/
    view: str  # /v/<view key>/m/<id>/


def imported(client: Any, document: dict[str, Any]) -> Links:
    table = {"format": "referee-table/1", "name": "Meja", "players": [], "matches": [document]}
    response = client.submit("/tables/import", {"document": json.dumps(table)})
    assert response.status_code == 302, errors(response)
    table_url = response.headers["Location"]
    (match_id,) = set(re.findall(r"/m/(\d+)/", client.get(table_url).text))
    return Links(f"{table_url}m/{match_id}/", f"{view_url(client, table_url)}m/{match_id}/")


def page(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


ENGLISH_LINKS = ("view", "edit")


def round_links(url: str, number: int, *, edit: bool, words: tuple[str, str]) -> list:
    """The links of a round's row: view it, and correct it through the edit link."""
    shown = [(words[0], f"{url}rounds/{number}")]
    return shown + [(words[1], f"{url}rounds/{number}/edit")] if edit else shown


# -- the tests -----------------------------------------------------------------------------------

NOT_CHECKED = (
    "Siti's hand was given as 12 points, not as cards: the referee could not check which cards"
    " they are (a card also in another hand or on the table) nor that the hand holds no more"
    " than the 7 cards dealt"
)
WORDS = ("lihat", "ubah")  # view, edit


def test_final_tables_through_either_link_in_english(client):
    to_english(client)
    match = imported(client, FINAL_TABLES)
    for url, edit in ((match.edit, True), (match.view, False)):
        shown = page(client, url)

        links = partial(round_links, url, edit=edit, words=ENGLISH_LINKS)

        assert rows(shown) == {
            1: Row("out", "went out: Siti", "· dealer Budi", links(1), ["0 0", "9 9", "0 0"]),
            2: Row(
                "at_once",
                "went out at once ×2: Andi",
                "· dealer Siti",
                links(2),
                ["0 0", "0 9", "30 30"],
            ),
            3: Row("void voided", "void", "· dealer Andi", links(3), ["0 0", "0 9", "0 30"]),
            4: Row(
                "out",
                "went out: Budi",
                "· dealer Andi",
                links(4),
                ["17 17", "0 9", "0 30"],
                not_checked=NOT_CHECKED,
            ),
        }
        assert entries(shown) == {
            1: Entry(
                "1 · went out: Siti",
                ["Siti went out and takes the 9 points left in the other hands"],
                [],
                ["Hands"],
                ["Budi: 2♣", "Andi: 3♦ 4♥"],
            ),
            2: Entry(
                "2 · went out at once ×2: Andi",
                [
                    "Andi went out all at once: the 15 points left in the other hands count"
                    " double, 30"
                ],
                [],
                ["Hands"],
                ["Budi: K♥", "Siti: 5♣"],
            ),
            3: Entry("3 · void", ["the round was voided: everyone scores 0"], [], [], []),
            4: Entry(
                "4 · went out: Budi",
                ["Budi went out and takes the 17 points left in the other hands"],
                [NOT_CHECKED],
                ["Hands"],
                ["Siti: 12 points", "Andi: 5♠"],
            ),
        }


def test_final_tables_in_indonesian(client):
    match = imported(client, FINAL_TABLES)
    shown = page(client, match.edit)
    found = rows(shown)
    assert [(row.outcome, row.dealer, row.links) for row in found.values()] == [
        (outcome, f"· pembagi {dealer}", round_links(match.edit, n, edit=True, words=WORDS))
        for n, outcome, dealer in (
            (1, "habis: Siti", "Budi"),
            (2, "habis sekaligus ×2: Andi", "Siti"),
            (3, "batal", "Andi"),
            (4, "habis: Budi", "Andi"),
        )
    ]
    assert found[4].not_checked == (
        "tangan Siti dicatat sebagai 12 poin, bukan kartu: wasit tidak dapat memeriksa kartu apa"
        " saja itu (kartu yang juga ada di tangan lain atau di meja) ataupun bahwa tangan itu"
        " berisi tidak lebih dari 7 kartu yang dibagikan"
    )
    said = entries(shown)
    assert said[1].notes == ["Siti habis dan mendapat 9 poin yang tersisa di tangan pemain lain"]
    assert said[2].notes == [
        "Andi habis sekaligus: 15 poin di tangan pemain lain dihitung dua kali lipat, 30"
    ]
    assert said[3].notes == ["babak dibatalkan: semua mendapat 0"]
    assert said[4].headings == ["Tangan"]
    assert said[4].items == ["Siti: 12 poin", "Andi: 5♠"]


def test_corrections_void_and_delete_show_on_their_rows(client):
    to_english(client)
    match = imported(client, FINAL_TABLES)
    response = client.submit(match.edit + "rounds/1/void", {})
    assert response.status_code == 302, errors(response)
    # Round 2 corrected: Andi did not go out all at once, 15.
    corrected = {"out": "Andi", "hands": {"Budi": ["KH"], "Siti": ["5C"]}}
    response = client.submit(match.edit + "rounds/2/json", {"entry": json.dumps(corrected)})
    assert response.status_code == 302, errors(response)
    response = client.submit(match.edit + "rounds/undo")  # the last round, 4
    assert response.status_code == 302, errors(response)
    # Round 1 is void now: it scores 0 and Budi deals round 2 as well; Siti deals after him
    # (round 3, void again: she deals the next one too).
    for url, edit in ((match.edit, True), (match.view, False)):
        shown = page(client, url)

        links = partial(round_links, url, edit=edit, words=ENGLISH_LINKS)

        assert rows(shown) == {
            1: Row("void voided", "void", "· dealer Budi", links(1), ["0 0", "0 0", "0 0"]),
            2: Row("out", "went out: Andi", "· dealer Budi", links(2), ["0 0", "0 0", "15 15"]),
            3: Row("void voided", "void", "· dealer Siti", links(3), ["0 0", "0 0", "0 15"]),
        }
        said = entries(shown)
        assert said[1] == Entry("1 · void", ["the round was voided: everyone scores 0"], [], [], [])
        assert said[2] == Entry(
            "2 · went out: Andi",
            ["Andi went out and takes the 15 points left in the other hands"],
            [],
            ["Hands"],
            ["Budi: K♥", "Siti: 5♣"],
        )
        deleted = deleted_row(shown)
        assert deleted is not None
        assert deleted.one(cls="round-no").text() == "4"
        assert deleted.one(cls="outcome").text() == "deleted"
        actions = deleted.one(cls="row-actions")
        assert [(a.text(), a.attrs["href"]) for a in actions.all("a")] == [
            ("view", f"{url}rounds/4")
        ]
        restore = [form.attrs["action"] for form in actions.all("form")]
        assert restore == ([f"{url}rounds/4/undelete"] if edit else [])


def test_a_round_played_turn_by_turn(client):
    match = imported(client, TURN_BY_TURN)
    indonesian = entries(page(client, match.view))[1]
    assert indonesian.items[:6] == [
        "Siti rangkaian A♥ 2♥ 3♥",
        "Andi rangkaian 9♣ 9♦ 9♠",
        "Budi numpang 4♥ → 1",
        "Siti numpang 9♥ → 2",
        "Andi numpang 5♥ → 1",
        "Siti rangkaian J♦ Q♦ K♦ buang 4♣ habis",
    ]
    to_english(client)
    for url in (match.edit, match.view):
        shown = page(client, url)
        assert [(row.outcome, row.dealer, row.cells) for row in rows(shown).values()] == [
            ("went out: Siti", "· dealer Budi", ["0 0", "57 57", "0 0"])
        ]
        assert entries(shown) == {
            1: Entry(
                "1 · went out: Siti",
                ["Siti went out and takes the 57 points left in the other hands"],
                [],
                ["Hands"],
                [
                    "Siti meld A♥ 2♥ 3♥",
                    "Andi meld 9♣ 9♦ 9♠",
                    "Budi lay-off 4♥ → 1",
                    "Siti lay-off 9♥ → 2",
                    "Andi lay-off 5♥ → 1",
                    "Siti meld J♦ Q♦ K♦ discard 4♣ out",
                    "Budi: Q♣ 7♦ 6♥ 10♠ 3♣ A♦",
                    "Andi: K♠ 8♣ 2♦",
                ],
            )
        }
    # The round's own page shows it the same way, with a correction for each turn through
    # the edit link.
    turns = tree(page(client, match.edit + "rounds/1")).one("ol", "turns")
    assert [li.text() for li in turns.all("li")][::5] == [
        "Siti meld A♥ 2♥ 3♥ correct",
        "Siti meld J♦ Q♦ K♦ discard 4♣ out correct",
    ]
    assert [a.attrs["href"] for a in turns.all("a")] == [
        f"{match.edit}rounds/1/turns/{number}" for number in range(1, 7)
    ]
    turns = tree(page(client, match.view + "rounds/1")).one("ol", "turns")
    assert turns.all("a") == []
    assert [li.text() for li in turns.all("li")][2] == "Budi lay-off 4♥ → 1"


def test_gin_knock(client):
    to_english(client)
    match = imported(client, GIN)
    shown = page(client, match.view)
    assert rows(shown) == {
        1: Row(
            "knock",
            "knock: Budi",
            "· dealer Budi",
            [("view", f"{match.view}rounds/1")],
            ["33 33", "0 0"],
        )
    }
    assert entries(shown) == {
        1: Entry(
            "1 · knock: Budi",
            [],
            [],
            ["Hands"],
            [
                "Budi: 3♥ 4♥ 5♥ 9♠ 9♦ 9♣ J♦ Q♦ K♦ A♣",
                "Siti: 2♠ 3♠ 4♠ 7♥ 7♣ 7♠ K♥ Q♠ 8♦ 6♣",
            ],
        )
    }


def test_table_and_hand_points_of_each_player(client):
    match = imported(client, TABLE_AND_HAND)
    assert rows(page(client, match.edit))[1].cells == [
        "11 meja +11, tangan 0 11",
        "4 meja +19, tangan −15 4",
        "20 meja +35, tangan −15 20",
    ]
    to_english(client)
    shown = page(client, match.edit)
    assert rows(shown) == {
        1: Row(
            "out",
            "went out: Budi",
            "· dealer Budi",
            round_links(match.edit, 1, edit=True, words=("view", "edit")),
            ["11 table +11, hand 0 11", "4 table +19, hand −15 4", "20 table +35, hand −15 20"],
        )
    }
    assert entries(shown) == {
        1: Entry(
            "1 · went out: Budi",
            [
                "Budi: table 11 minus hand 0 = 11",
                "Siti: table 19 minus hand 15 = 4",
                "Andi: table 35 minus hand 15 = 20",
            ],
            [],
            ["The table", "Hands"],
            [
                "Budi: A♥ 2♥ 3♥ · Siti laid off 4♥",
                "Siti: 5♠ 5♦ 5♣ · Budi laid off 5♥",
                "Andi: Q♦ K♦ A♦",
                "Siti: 6♣ 9♠",
                "Andi: A♠",
            ],
        )
    }
