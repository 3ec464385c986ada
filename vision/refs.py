"""Reference appearance store: what every tile type of a set looks like to one camera.

A :class:`ReferenceSet` holds one small top-down colour image per tile type, in the
tile's own frame (rotation 0, north up), ``tile_px`` pixels square. It is learnt by
enrolment (:mod:`vision.enroll`) from the camera or from a folder of scans, and stored
per set and per camera as a folder::

    refs/neuesland-pi-camera/
        index.json      {"format": "tablehub-vision-refs/1", "game": ..., "tiles": [...], ...}
        refs.npz        images: uint8 array (tiles, tile_px, tile_px, 3), BGR

The classifier (:mod:`vision.tiles`) derives everything else (rotations, small
normalised patches, edge colours) from these images when it is built.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablehub.i18n import T  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError

log = logging.getLogger(__name__)

FORMAT = "tablehub-vision-refs/1"
TILE_PX = 48
"""Side of a stored reference image in pixels (about 1 px per mm for 45 mm tiles)."""


class RefsError(VisionError):
    """A reference folder that cannot be read or does not fit; the message is one line."""


@dataclass
class ReferenceSet:
    """One reference image per tile type, in the tile's own frame (rotation 0)."""

    game: str
    tile_ids: list[str]
    images: np.ndarray
    camera: str = "scans"
    source: str = ""
    counts: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        imgs = np.asarray(self.images)
        if imgs.ndim != 4 or imgs.shape[3] != 3 or imgs.shape[1] != imgs.shape[2]:
            raise RefsError(T("reference images must be (tiles, px, px, 3), got {shape}", shape=str(imgs.shape)))
        if len(self.tile_ids) != imgs.shape[0]:
            raise RefsError(T("{ids} tile ids for {images} reference images", ids=len(self.tile_ids), images=imgs.shape[0]))
        if len(set(self.tile_ids)) != len(self.tile_ids):
            raise RefsError(T("reference tile ids must be unique"))
        self.images = imgs.astype(np.uint8, copy=False)
        if not self.counts:
            self.counts = [1] * len(self.tile_ids)

    @property
    def tile_px(self) -> int:
        return int(self.images.shape[1])

    def index_of(self, tile_id: str) -> int:
        try:
            return self.tile_ids.index(tile_id)
        except ValueError:
            raise RefsError(T("tile {tile} has no reference image", tile=repr(tile_id))) from None

    def image(self, tile_id: str, rotation: int = 0) -> np.ndarray:
        """The reference of ``tile_id`` turned clockwise by ``rotation`` degrees (a multiple of 90)."""
        return np.ascontiguousarray(np.rot90(self.images[self.index_of(tile_id)], -(rotation // 90) % 4))

    # ------------------------------------------------------------------ storage

    def save(self, folder: str | Path) -> Path:
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        index = {
            "format": FORMAT,
            "game": self.game,
            "camera": self.camera,
            "source": self.source,
            "tile_px": self.tile_px,
            "tiles": self.tile_ids,
            "counts": self.counts,
            "meta": self.meta,
        }
        np.savez_compressed(out / "refs.npz", images=self.images)
        (out / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
        log.info("saved %d references to %s", len(self.tile_ids), out)
        return out

    @classmethod
    def load(cls, folder: str | Path) -> "ReferenceSet":
        root = Path(folder)
        index_path = root / "index.json"
        if not index_path.is_file():
            raise RefsError(T("{root}: no index.json (is this a reference folder made by 'tablehub enroll'?)", root=str(root)))
        try:
            index = json.loads(index_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RefsError(T("{path}: not readable JSON ({why})", path=str(index_path), why=str(exc))) from None
        if index.get("format") != FORMAT:
            raise RefsError(T("{path}: format is {value}, expected {expected}", path=str(index_path), value=repr(index.get("format")),
                               expected=repr(FORMAT)))
        try:
            with np.load(root / "refs.npz") as data:
                images = data["images"]
        except (OSError, KeyError, ValueError) as exc:
            raise RefsError(T("{path}: cannot read the reference images ({why})", path=str(root / "refs.npz"), why=str(exc))) from None
        try:
            return cls(game=str(index.get("game", "")), tile_ids=list(index["tiles"]), images=images,
                       camera=str(index.get("camera", "")), source=str(index.get("source", "")),
                       counts=list(index.get("counts") or []), meta=dict(index.get("meta") or {}))
        except KeyError as exc:
            raise RefsError(T("{path}: missing field {field}", path=str(index_path), field=str(exc))) from None
