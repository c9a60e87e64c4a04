"""Reading the QR codes the app draws, as a phone's camera would: with a real decoder (zxing-cpp).

The SVG and the terminal drawing are turned back into a picture of modules,
independently of the code that drew them, and decoded.
"""

from __future__ import annotations

import re

import zxingcpp
from PIL import Image

Modules = list[list[bool]]  # True: a dark module


def svg_modules(svg: str) -> Modules:
    """The dark modules of a segno SVG (one viewBox unit per module)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    drawn = re.search(r'<path[^>]*stroke="#000"[^>]*\sd="([^"]+)"', svg).group(1)
    dark = [[False] * size for _ in range(size)]
    x = y = 0.0
    for command, operands in re.findall(r"([MmHh])([^MmHh]*)", drawn):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", operands)]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:  # a horizontal run of dark modules on row y
            end = numbers[0] if command == "H" else x + numbers[0]
            for column in range(int(x), int(end)):
                dark[int(y)][column] = True
            x = end
    return dark


TERMINAL_BLOCKS = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}


def terminal_modules(lines: list[str]) -> Modules:
    """The modules of segno's compact terminal drawing: two rows a line, light drawn as a block."""
    dark: Modules = []
    for line in lines:
        pairs = [TERMINAL_BLOCKS[char] for char in line]
        dark.append([top for top, _ in pairs])
        dark.append([bottom for _, bottom in pairs])
    return dark


def picture(dark: Modules, scale: int = 4) -> Image.Image:
    height, width = len(dark), len(dark[0])
    image = Image.new("L", (width * scale, height * scale), 255)
    for row, cells in enumerate(dark):
        for column, is_dark in enumerate(cells):
            if is_dark:
                image.paste(
                    0, (column * scale, row * scale, (column + 1) * scale, (row + 1) * scale)
                )
    return image


def read_codes(image: Image.Image) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(image)]


def quiet_zone(dark: Modules, width: int = 4) -> bool:
    """Whether the code has ``width`` light modules all around it."""
    edges = dark[:width] + dark[-width:] + [row[:width] + row[-width:] for row in dark]
    return not any(any(row) for row in edges)
