"""The results card as a PNG, the picture a chat app previews (it shows no SVG), and the
results page that shares it or downloads it."""

from __future__ import annotations

import io

from PIL import Image

from .test_exports import SMALL, english, imported_table

SCALE = 2  # drawn at twice the SVG card's 600 px
GOLD = (0xFF, 0xF6, 0xD2)  # a winner's box
PAPER = (0xF6, 0xF4, 0xEE)


def test_the_results_card_as_a_png_with_the_winner_first(client):
    table = imported_table(client, SMALL)  # Budi 50 won, Siti 10
    english(client)
    answer = client.get(table + "m/1/card.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    picture = Image.open(io.BytesIO(answer.data))
    assert picture.format == "PNG"
    # 150 px of title and foot, 56 px a player, as the SVG card.
    assert picture.size == (600 * SCALE, (150 + 56 * 2) * SCALE)
    # The first line is the winner's (a gold box), the second one plain paper.
    assert picture.getpixel((300 * SCALE, 124 * SCALE)) == GOLD
    assert picture.getpixel((300 * SCALE, 180 * SCALE)) == PAPER
    download = client.get(table + "m/1/card.png?download=1")
    assert download.headers["Content-Disposition"] == 'attachment; filename="remi-1-results.png"'


def test_the_results_page_shows_the_png_and_offers_it(client):
    table = imported_table(client, SMALL)
    english(client)
    page = client.get(table + "m/1/results").text
    assert f'<img class="results-card" src="{table}m/1/card.png"' in page
    assert f'href="{table}m/1/card.png?download=1" download>Download the picture (PNG)' in page
    # The share button comes out only where the browser can share files (app.js).
    assert "data-share-picture=" in page and "Share the picture</button>" in page
