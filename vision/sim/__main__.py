"""``python -m vision.sim``: render sample tables, time the renderer, measure rectification error.

Examples::

    python -m vision.sim --out /tmp/table.png                      # one default-preset frame
    python -m vision.sim --preset hard --hands 2 --out /tmp/hard.png
    python -m vision.sim --art ../shared/data/neues_land/scans --out /tmp/scans.png
    python -m vision.sim --measure 8                               # timing + error for every preset

``--measure N`` renders N frames per nuisance preset (a 35-tile table with figures,
no hands and two hands) and prints the median render time and how far 400 random
play-area points land from the truth after :class:`~vision.rectify.Rectifier`
(without and with the true lens calibration).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from ..geometry import TileGeometry
from ..mat import Mat
from ..rectify import Rectifier
from . import NUISANCE, PLAYER_COLOURS, DrawnArt, ScanArt, Scene, SceneFigure, SceneTile, render

DEFAULT_CATALOG = Path(__file__).resolve().parents[2] / "tablehub" / "games" / "neuesland" / "tiles.json"


def sample_scene(geo: TileGeometry, mat: Mat, hands: int = 0, seed: int = 0) -> Scene:
    """A 7 x 5 patch of tiles with a figure on every fourth tile."""
    rng = np.random.default_rng(seed)
    ids = geo.tile_ids
    tiles = []
    for i, (x, y) in enumerate((x, y) for y in range(-2, 3) for x in range(-3, 4)):
        tiles.append(SceneTile(x, y, ids[i % len(ids)], int(rng.choice([0, 90, 180, 270])),
                               (float(rng.normal(0, 0.5)), float(rng.normal(0, 0.5))), float(rng.normal(0, 0.8))))
    colours = list(PLAYER_COLOURS)[:5]
    figures = []
    for k, t in enumerate(tiles[::4]):
        regions = geo.regions(t.tile)
        figures.append(SceneFigure(t.x, t.y, colours[k % 5], regions[int(rng.integers(len(regions)))][0]))
    return Scene(mat=mat, tiles=tiles, figures=figures, hands=hands)


def measure(geo: TileGeometry, art, mat: Mat, frames: int, size: tuple[int, int]) -> None:
    pts_rng = np.random.default_rng(5)
    x, y, w, h = mat.play_rect_mm
    pts = np.column_stack([pts_rng.uniform(x, x + w, 400), pts_rng.uniform(y, y + h, 400)])
    for preset in NUISANCE:
        for hands in (0, 2):
            scene = sample_scene(geo, mat, hands)
            render(scene, art, preset, np.random.default_rng(999), size)  # warm the caches
            times, plain, lensed = [], [], []
            for seed in range(frames):
                t0 = time.perf_counter()
                image, truth = render(scene, art, preset, np.random.default_rng(seed), size)
                times.append(time.perf_counter() - t0)
                if hands:
                    continue
                for lens, out in ((None, plain), (truth.lens(), lensed)):
                    rect = Rectifier(mat, lens=lens)
                    loc = rect.locate(image)
                    out.append(np.linalg.norm(rect.image_to_mat(truth.mat_to_image(pts), loc) - pts, axis=1))
            line = f"{preset:8s} hands={hands}: render {1000 * np.median(times):5.0f} ms median"
            if plain:
                e, el = np.concatenate(plain), np.concatenate(lensed)
                line += (f" | rectified error, no lens: mean {e.mean():.2f} max {e.max():.2f} mm"
                         f" | lens known: mean {el.mean():.2f} max {el.max():.2f} mm")
            print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.sim", description=__doc__.splitlines()[0])
    p.add_argument("--catalog", default=str(DEFAULT_CATALOG), help="tile catalog JSON (default: Neues Land)")
    p.add_argument("--art", help="folder of tile scans (<tile id>.png); default: tiles drawn from the catalog")
    p.add_argument("--preset", default="default", choices=sorted(NUISANCE))
    p.add_argument("--hands", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", default="1920x1080", help="WIDTHxHEIGHT")
    p.add_argument("--out", help="write the frame here (PNG/JPEG)")
    p.add_argument("--measure", type=int, metavar="N", help="time N frames per preset and measure rectification")
    args = p.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x"))
    geo = TileGeometry(args.catalog)
    art = ScanArt(args.art) if args.art else DrawnArt(geo)
    mat = Mat.default()
    if args.measure:
        measure(geo, art, mat, args.measure, size)  # type: ignore[arg-type]
        return 0
    t0 = time.perf_counter()
    image, truth = render(sample_scene(geo, mat, args.hands, args.seed), art, args.preset,
                          np.random.default_rng(args.seed), size, geometry=geo)  # type: ignore[arg-type]
    print(f"rendered {size[0]}x{size[1]} in {1000 * (time.perf_counter() - t0):.0f} ms (first frame fills caches); "
          f"{len(truth.tiles)} tiles, {len(truth.figures)} figures, markers hidden: {truth.markers_hidden or 'none'}")
    if args.out:
        cv2.imwrite(args.out, image)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
