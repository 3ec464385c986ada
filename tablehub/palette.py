"""The colours of the table, shared by everything that draws it.

One palette for the page's board picture (``web.board_svg``) and the synthetic table
(``vision/sim/art.py``'s ``TERRAIN_LOOK``, which keeps its own copy because ``vision``
imports nothing of ``tablehub``; ``tests/web/test_board_svg.py`` checks that the two
agree). Terrains are looked up by the catalog's terrain *name*, so a new game with a
"sea" gets the sea's colour. Colours are as the printed tiles look: mountains grey,
plains green, seas blue.

>>> terrain_rgb("mountain"), terrain_hex("Sea")
((200, 192, 175), '#5fa0be')
"""
from __future__ import annotations

import zlib

#: terrain name -> RGB, as the tiles look under white light
TERRAIN_RGB: dict[str, tuple[int, int, int]] = {
    "plain": (128, 168, 70),
    "meadow": (128, 168, 70),
    "mountain": (200, 192, 175),
    "sea": (95, 160, 190),
    "water": (95, 160, 190),
    "island": (205, 190, 120),
    "bridge": (150, 105, 60),
    "market": (205, 150, 115),
}

#: what the page draws on the tiles (towns, goods, boats), RGB
MARK_RGB: dict[str, tuple[int, int, int]] = {
    "town": (196, 60, 48),
    "roof": (120, 30, 24),
    "boat": (120, 72, 36),
    "sail": (248, 244, 232),
    "shell": (246, 214, 200),
    "banana": (245, 205, 40),
    "fish": (40, 70, 110),
}


def hex_of(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def terrain_rgb(name: str) -> tuple[int, int, int] | None:
    """The colour of a terrain by name (``"Mountain"``, ``"sea"``), or ``None`` when unknown."""
    key = str(name).strip().lower()
    if key in TERRAIN_RGB:
        return TERRAIN_RGB[key]
    for known, rgb in TERRAIN_RGB.items():
        if known in key:
            return rgb
    return None


def terrain_hex(name: str) -> str:
    """``"#rrggbb"`` for a terrain name; an unknown terrain gets a steady colour of its own."""
    rgb = terrain_rgb(name)
    if rgb is None:
        h = zlib.crc32(str(name).lower().encode())
        rgb = (90 + h % 130, 90 + (h >> 8) % 130, 90 + (h >> 16) % 130)
    return hex_of(rgb)


def mark_hex(name: str) -> str:
    """``"#rrggbb"`` for a mark (town, a good's name, boat); unknown goods get a steady colour."""
    rgb = MARK_RGB.get(str(name).lower())
    if rgb is None:
        h = zlib.crc32(str(name).lower().encode())
        rgb = (60 + h % 160, 60 + (h >> 8) % 160, 60 + (h >> 16) % 160)
    return hex_of(rgb)
