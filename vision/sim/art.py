"""Tile art for the renderer: reference scans, or tiles drawn from region geometry.

A :class:`TileArt` gives the picture of a tile type, unrotated (its own N side up),
as a square BGR image of the size asked for. The renderer turns it.
"""
from __future__ import annotations

import math
import zlib
from pathlib import Path
from typing import Mapping, Protocol

import cv2
import numpy as np

from .. import VisionError
from ..geometry import TileGeometry
from ..pieces import DEFAULT_COLOURS_BGR

#: player colours by name (BGR), as painted wooden figures look under white light: the same
#: table the figure finder starts from before calibration
PLAYER_COLOURS: dict[str, tuple[int, int, int]] = DEFAULT_COLOURS_BGR


class TileArt(Protocol):
    def image(self, tile_id: str, size_px: int) -> np.ndarray:
        """The tile's picture, unrotated, ``(size_px, size_px, 3)`` uint8 BGR."""


class ScanArt:
    """Tile pictures from a folder of reference images named ``<tile id>.png`` (or .jpg)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise VisionError(f"{self.folder}: no such folder of tile images")
        self._raw: dict[str, np.ndarray] = {}
        self._sized: dict[tuple[str, int], np.ndarray] = {}

    def _load(self, tile_id: str) -> np.ndarray:
        img = self._raw.get(tile_id)
        if img is None:
            for ext in (".png", ".jpg", ".jpeg"):
                path = self.folder / f"{tile_id}{ext}"
                if path.is_file():
                    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
                    break
            if img is None:
                raise VisionError(f"{self.folder}: no image for tile {tile_id!r} ({tile_id}.png)")
            if img.ndim == 2:
                img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
            elif img.shape[2] == 4:
                a = img[:, :, 3:4].astype(np.float32) / 255
                img = (img[:, :, :3] * a + 235 * (1 - a)).astype(np.uint8)
            self._raw[tile_id] = img
        return img

    def image(self, tile_id: str, size_px: int) -> np.ndarray:
        key = (tile_id, int(size_px))
        out = self._sized.get(key)
        if out is None:
            raw = self._load(tile_id)
            interp = cv2.INTER_AREA if size_px < raw.shape[0] else cv2.INTER_CUBIC
            out = cv2.resize(raw, (int(size_px), int(size_px)), interpolation=interp)
            self._sized[key] = out
        return out


# --------------------------------------------------------------------------- drawn art

#: base colour (BGR) and texture strength of terrains, looked up by the catalog's terrain *name*
TERRAIN_LOOK: dict[str, tuple[tuple[int, int, int], float]] = {
    "plain": ((70, 168, 128), 0.10),
    "meadow": ((70, 168, 128), 0.10),
    "mountain": ((175, 192, 200), 0.16),
    "sea": ((190, 160, 95), 0.06),
    "water": ((190, 160, 95), 0.06),
    "island": ((120, 190, 205), 0.09),
    "bridge": ((60, 105, 150), 0.12),
    "market": ((115, 150, 205), 0.08),
}


def _fallback_colour(letter: str) -> tuple[int, int, int]:
    h = zlib.crc32(letter.encode())
    return (60 + h % 150, 60 + (h >> 8) % 150, 60 + (h >> 16) % 150)


class DrawnArt:
    """Tiles drawn from region geometry: terrain colour and texture per region, coast lines,
    and small glyphs for what regions carry (goods symbols, boats, markets, towns).

    ``palette`` maps terrain letters to BGR colours and overrides the look chosen from
    the catalog's terrain names.
    """

    def __init__(self, geometry: TileGeometry, palette: Mapping[str, tuple[int, int, int]] | None = None,
                 seed: int = 7):
        self.geometry = geometry
        self.palette = dict(palette or {})
        self.seed = seed
        self._cache: dict[tuple[str, int], np.ndarray] = {}
        self._textures: dict[tuple[str, int], np.ndarray] = {}

    def terrain_colour(self, letter: str) -> tuple[tuple[int, int, int], float]:
        if letter in self.palette:
            return tuple(self.palette[letter]), 0.1  # type: ignore[return-value]
        name = str(self.geometry.terrains.get(letter, "")).lower()
        for key, look in TERRAIN_LOOK.items():
            if key in name:
                return look
        return _fallback_colour(letter), 0.1

    def _texture(self, letter: str, size: int) -> np.ndarray:
        key = (letter, size)
        tex = self._textures.get(key)
        if tex is None:
            rng = np.random.default_rng(self.seed + zlib.crc32(letter.encode()) % 1000)
            coarse = cv2.resize(rng.standard_normal((max(size // 8, 2),) * 2).astype(np.float32), (size, size),
                                interpolation=cv2.INTER_CUBIC)
            fine = rng.standard_normal((size, size)).astype(np.float32)
            name = str(self.geometry.terrains.get(letter, "")).lower()
            if "sea" in name or "water" in name:  # ripples: stretched noise
                fine = cv2.GaussianBlur(fine, (0, 0), sigmaX=max(size / 40, 0.8), sigmaY=max(size / 200, 0.3))
                fine /= max(float(fine.std()), 1e-6)
            tex = 0.6 * coarse / max(float(coarse.std()), 1e-6) + 0.4 * fine
            self._textures[key] = tex
        return tex

    def image(self, tile_id: str, size_px: int) -> np.ndarray:
        key = (tile_id, int(size_px))
        out = self._cache.get(key)
        if out is None:
            out = self._draw(tile_id, int(size_px))
            self._cache[key] = out
        return out

    def _draw(self, tile_id: str, size: int) -> np.ndarray:
        geo = self.geometry
        regions = geo.regions(tile_id)
        labels = geo.region_labels(tile_id, size, 0)
        img = np.zeros((size, size, 3), np.float32)
        for r, (_rid, letter) in enumerate(regions):
            colour, strength = self.terrain_colour(letter)
            tex = self._texture(letter, size)
            mask = labels == r
            shade = 1.0 + strength * tex[mask]
            img[mask] = np.asarray(colour, np.float32)[None, :] * shade[:, None]
        # borders between different terrains: a darker line; coasts get a light foam line
        terrain_of = np.array([t for _, t in regions])
        tmap = np.searchsorted(np.unique(terrain_of), terrain_of)[labels].astype(np.uint8)
        k = max(1, size // 60)
        edge = cv2.morphologyEx(tmap, cv2.MORPH_GRADIENT, np.ones((2 * k + 1, 2 * k + 1), np.uint8)) > 0
        img[edge] *= 0.72
        img = cv2.GaussianBlur(img, (0, 0), max(size / 300, 0.5))
        img = np.clip(img, 0, 255).astype(np.uint8)
        self._glyphs(img, tile_id, size)
        # printed card edge: a thin darker rim
        cv2.rectangle(img, (0, 0), (size - 1, size - 1), (90, 100, 105), max(1, size // 90))
        return img

    def _glyphs(self, img: np.ndarray, tile_id: str, size: int) -> None:
        geo = self.geometry
        tile = geo.tile(tile_id)
        s = size / 100.0
        for r, (rid, letter) in enumerate(geo.regions(tile_id)):
            info = geo.region_info(tile_id, rid)
            u, v = geo.anchor(tile_id, rid, 0)
            cx, cy = u * size, v * size
            name = str(geo.terrains.get(letter, "")).lower()
            if "market" in name:
                _draw_market(img, cx, cy, s)
            symbols = info.get("symbols") or {}
            if isinstance(symbols, Mapping):
                items = [str(k) for k, n in symbols.items() for _ in range(int(n) if isinstance(n, int) else 1)]
                for j, sym in enumerate(items):
                    a = 2 * math.pi * j / max(len(items), 1) + 0.6
                    rad = 9 * s if len(items) > 1 else 0
                    _draw_symbol(img, sym, cx + rad * math.cos(a), cy + 4 * s + rad * math.sin(a), s)
            if info.get("boat"):
                _draw_boat(img, cx + 6 * s, cy - 8 * s, s)
        for town in tile.get("towns", []) or []:
            land = town.get("land") if isinstance(town, Mapping) else None
            if land is None:
                continue
            try:
                u, v = geo.anchor(tile_id, land, 0)
            except VisionError:
                continue
            _draw_town(img, u * size, v * size - 6 * s, s)


def _pt(x: float, y: float) -> tuple[int, int]:
    return (int(round(x * 16)), int(round(y * 16)))


def _draw_symbol(img: np.ndarray, name: str, x: float, y: float, s: float) -> None:
    """A small goods glyph: shapes and colours keyed by the symbol's name."""
    r = 4.5 * s
    h = zlib.crc32(name.encode())
    colour = [(40, 40, 200), (230, 230, 230), (30, 150, 220), (90, 60, 30), (150, 60, 160)][h % 5]
    kind = (h >> 4) % 4
    if "shell" in name:
        kind, colour = 0, (200, 215, 240)
    elif "fish" in name:
        kind, colour = 1, (150, 120, 60)
    elif "pearl" in name:
        kind, colour = 2, (245, 245, 245)
    cv2.circle(img, _pt(x + 0.8 * s, y + 0.8 * s), int(r * 16), (40, 40, 40), -1, cv2.LINE_AA, 4)  # shadow
    if kind == 0:  # fan (shell)
        pts = np.array([_pt(x + r * math.cos(a), y + r * math.sin(a)) for a in np.linspace(math.pi, 2 * math.pi, 7)]
                       + [_pt(x, y + r * 0.6)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)
    elif kind == 1:  # fish: ellipse + tail
        cv2.ellipse(img, _pt(x, y), (int(r * 16), int(r * 0.55 * 16)), 0, 0, 360, colour, -1, cv2.LINE_AA, 4)
        tail = np.array([_pt(x + r * 0.8, y), _pt(x + r * 1.5, y - r * 0.6), _pt(x + r * 1.5, y + r * 0.6)], np.int32)
        cv2.fillPoly(img, [tail], colour, cv2.LINE_AA, 4)
    elif kind == 2:  # pearl: disc with highlight
        cv2.circle(img, _pt(x, y), int(r * 0.8 * 16), colour, -1, cv2.LINE_AA, 4)
        cv2.circle(img, _pt(x - r * 0.3, y - r * 0.3), int(r * 0.25 * 16), (255, 255, 255), -1, cv2.LINE_AA, 4)
    else:  # generic: diamond
        pts = np.array([_pt(x, y - r), _pt(x + r, y), _pt(x, y + r), _pt(x - r, y)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)


def _draw_boat(img: np.ndarray, x: float, y: float, s: float) -> None:
    hull = np.array([_pt(x - 7 * s, y), _pt(x + 7 * s, y), _pt(x + 4.5 * s, y + 3.5 * s), _pt(x - 4.5 * s, y + 3.5 * s)],
                    np.int32)
    cv2.fillPoly(img, [hull], (30, 60, 110), cv2.LINE_AA, 4)
    sail = np.array([_pt(x, y - 1 * s), _pt(x, y - 11 * s), _pt(x + 6 * s, y - 1 * s)], np.int32)
    cv2.fillPoly(img, [sail], (225, 240, 245), cv2.LINE_AA, 4)
    cv2.line(img, _pt(x, y), _pt(x, y - 11 * s), (30, 40, 60), max(1, int(s)), cv2.LINE_AA, 4)


def _draw_market(img: np.ndarray, x: float, y: float, s: float) -> None:
    w = 9 * s
    cv2.rectangle(img, _pt(x - w, y - 2 * s), _pt(x + w, y + 7 * s), (60, 90, 140), -1, cv2.LINE_AA, 4)
    for i in range(4):  # striped awning
        x0 = x - w + i * w / 2
        colour = (40, 40, 190) if i % 2 == 0 else (235, 235, 235)
        cv2.rectangle(img, _pt(x0, y - 7 * s), _pt(x0 + w / 2, y - 2 * s), colour, -1, cv2.LINE_AA, 4)


def _draw_town(img: np.ndarray, x: float, y: float, s: float) -> None:
    body = (60, 140, 215)
    cv2.rectangle(img, _pt(x - 8 * s, y - 3 * s), _pt(x + 8 * s, y + 6 * s), body, -1, cv2.LINE_AA, 4)
    for dx in (-8, 2):
        cv2.rectangle(img, _pt(x + dx * s, y - 9 * s), _pt(x + (dx + 6) * s, y - 3 * s), body, -1, cv2.LINE_AA, 4)
        roof = np.array([_pt(x + dx * s, y - 9 * s), _pt(x + (dx + 6) * s, y - 9 * s), _pt(x + (dx + 3) * s, y - 14 * s)],
                        np.int32)
        cv2.fillPoly(img, [roof], (40, 40, 170), cv2.LINE_AA, 4)
    cv2.rectangle(img, _pt(x - 1.5 * s, y + 1 * s), _pt(x + 1.5 * s, y + 6 * s), (40, 60, 90), -1, cv2.LINE_AA, 4)
