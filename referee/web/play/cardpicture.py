"""The results card as a PNG: the picture a chat app previews (WhatsApp shows no SVG).

Drawn with Pillow from what the SVG card shows (templates/matches/card.svg): the title and
subtitle on a green band, one line per player in the order given, the winners marked with
a star and a gold box, the brand at the foot.  The font is Pillow's own (FreeType, in every
Pillow wheel), so the picture is the same on every host.  Drawn at twice the SVG's size:
sharp on a phone's screen.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from referee.web.play.exports import Standing

SCALE = 2
WIDTH = 600
ROW = 56
BACKGROUND = "#f6f4ee"
BAND = "#1b6b3a"
INK = "#1d1d1b"
MUTED = "#6b6a64"
WINNER_FILL = "#fff6d2"
WINNER_LINE = "#f3c623"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: float) -> Font:
    return ImageFont.load_default(size * SCALE)


def _fitted(draw: ImageDraw.ImageDraw, text: str, size: float, room: float) -> tuple[str, Font]:
    """The text in the largest font up to ``size`` (down to two thirds of it) that fits
    ``room``; cut with an ellipsis only when even that is too wide."""
    smallest = size * 2 / 3
    while size > smallest and draw.textlength(text, font=_font(size)) > room * SCALE:
        size -= 1
    font = _font(size)
    if draw.textlength(text, font=font) <= room * SCALE:
        return text, font
    while text and draw.textlength(text + "…", font=font) > room * SCALE:
        text = text[:-1]
    return text + "…", font


def _star(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float) -> None:
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(((x + r * math.cos(angle)) * SCALE, (y + r * math.sin(angle)) * SCALE))
    draw.polygon(points, fill=WINNER_LINE, outline="#b08a00")


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return (x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE)


def results_png(title: str, subtitle: str, standings: Sequence[Standing], brand: str) -> bytes:
    """The card as PNG bytes, the players in the order of ``standings``."""
    height = 150 + ROW * len(standings)
    picture = Image.new("RGB", (WIDTH * SCALE, height * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(picture)
    draw.rectangle(_box(0, 0, WIDTH, 96), fill=BAND)
    text, font = _fitted(draw, title, 26, WIDTH - 56)
    draw.text((28 * SCALE, 44 * SCALE), text, font=font, fill="#ffffff", anchor="ls")
    text, font = _fitted(draw, subtitle, 18, WIDTH - 56)
    draw.text((28 * SCALE, 76 * SCALE), text, font=font, fill="#d8efe0", anchor="ls")
    for index, standing in enumerate(standings):
        top = 120 + ROW * index
        base = (top + 32) * SCALE
        if standing.winner:
            draw.rounded_rectangle(
                _box(16, top, WIDTH - 16, top + ROW - 8),
                radius=10 * SCALE,
                fill=WINNER_FILL,
                outline=WINNER_LINE,
                width=2 * SCALE,
            )
            _star(draw, 46, top + 24, 12)
        else:
            draw.text(
                (36 * SCALE, base), str(standing.place), font=_font(22), fill=MUTED, anchor="ls"
            )
        total = str(standing.total)
        total_font = _font(26)
        total_width = draw.textlength(total, font=total_font) / SCALE
        draw.text(((WIDTH - 36) * SCALE, base), total, font=total_font, fill=INK, anchor="rs")
        name = standing.name + (f" · {standing.note}" if standing.note else "")
        text, font = _fitted(draw, name, 24, WIDTH - 36 - 80 - total_width - 16)
        draw.text(
            (80 * SCALE, base),
            text,
            font=font,
            fill=INK,
            anchor="ls",
            stroke_width=1 if standing.winner else 0,
            stroke_fill=INK,
        )
    text, font = _fitted(draw, brand, 14, WIDTH / 2)
    draw.text(
        ((WIDTH - 28) * SCALE, (height - 14) * SCALE), text, font=font, fill=MUTED, anchor="rs"
    )
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()
