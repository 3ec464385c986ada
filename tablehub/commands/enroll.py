"""``tablehub enroll``: learn what the tiles of a set look like to this camera (and the player colours).

    tablehub enroll --game neuesland --mat mat/mat.json --out refs/neuesland PHOTO [PHOTO ...]
    tablehub enroll --game neuesland --scans ../shared/data/neues_land/scans --out refs/neuesland
    tablehub enroll --game neuesland --out refs/neuesland --colours FIGURES.jpg --names red,blue,green

Photos: the tiles laid on the mat in catalog order, row by row from the top-left corner
of the play area, north up, one per enrolment cell (tile size + --gap-mm); photo k
holds batch k when the set needs several batches (--batches to say otherwise).
The folder gets index.json + refs.npz (+ mat.json, colours.json). See docs/vision.md.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

from ..games.base import TablehubError
from ..i18n import T, reason
from ..usage_i18n import say
from ..setup_files import catalog_file, keep_lens

NAME = "enroll"
HELP = T("learn the tiles' appearance from photos of the laid-out set or from scans; calibrate player colours")
DESCRIPTION = T("{help}. Writes a reference folder (index.json + refs.npz, per set and per camera) used by "
               "'tablehub recognize' and 'tablehub run'. The tile layout for photos is in docs/vision.md.", help=HELP)


class EnrollError(TablehubError):
    pass


def add_arguments(p) -> None:
    p.add_argument("photos", nargs="*", help=T("photos of the laid-out tiles (batch 0, 1, ... in order)"))
    p.add_argument("--game", required=True, help=T("tile game: neuesland or suedsee"))
    p.add_argument("--out", required=True, help=T("reference folder to write (e.g. refs/neuesland)"))
    p.add_argument("--mat", help=T("mat file from 'tablehub markers' (default: the default mat)"))
    p.add_argument("--scans", help=T("folder of tile scans named <tile id>.png instead of photos"))
    p.add_argument("--batches", help=T("batch number of each photo, comma-separated (default 0,1,2,...)"))
    p.add_argument("--gap-mm", type=float, default=10.0, help=T("gap between laid-out tiles (default 10)"))
    p.add_argument("--lens", metavar="FILE", help=T("lens calibration from 'tablehub lens calibrate' (default: the "
                   "configured camera's lens file if there is one; 'none': no lens); kept as lens.json in --out"))
    p.add_argument("--config", default="", help=T("settings file, for the camera's lens file (default: "
                   "$TABLEHUB_CONFIG or /etc/tablehub/tablehub.toml if present)"))
    p.add_argument("--camera", default="camera", help=T("name of this camera, stored in the index (default camera)"))
    p.add_argument("--colours", metavar="PHOTO", help=T("photo of one figure per colour in a row on the bare mat"))
    p.add_argument("--names", default="red,blue,green,yellow,black",
                   help=T("colours of those figures, left to right (default red,blue,green,yellow,black)"))
    p.add_argument("--layout", action="store_true", help=T("print where each tile goes (for photos) and stop"))


def run(args) -> int:
    from vision import VisionError
    from vision.enroll import EnrolLayout, calibrate_from_frame, read_image, refs_from_frames, refs_from_scans
    from vision.mat import Mat
    from vision.rectify import Rectifier
    from vision.tiles import CatalogInfo

    from ..config import load_config
    from ..setup_files import lens_for

    catalog_path = catalog_file(args.game)
    out = Path(args.out)
    try:
        catalog = CatalogInfo.load(catalog_path)
        mat = Mat.load(args.mat) if args.mat else Mat.default()
        lens = lens_for(load_config(args.config), args.lens)
        layout = EnrolLayout(mat, args.gap_mm)
        if args.layout:
            _print_layout(catalog, layout)
            return 0
        if not args.scans and not args.photos and not args.colours:
            raise EnrollError(T("give photos of the laid-out tiles, --scans DIR, or --colours PHOTO "
                                "(see 'tablehub enroll --layout' for where the tiles go)"))
        refs = None
        if args.scans:
            refs = refs_from_scans(args.scans, catalog, camera=args.camera)
        elif args.photos:
            batches = [int(b) for b in args.batches.split(",")] if args.batches else list(range(len(args.photos)))
            frames, mappings = [], []
            for photo in args.photos:
                frame = read_image(photo)
                rect = Rectifier(mat, lens=lens)
                try:
                    loc = rect.locate(frame)
                except VisionError as exc:
                    raise EnrollError(T("{path}: {why}", path=str(photo), why=reason(exc))) from None
                size = (frame.shape[1], frame.shape[0])
                frames.append(frame)
                mappings.append(lambda pts, rect=rect, loc=loc, size=size: rect.mat_to_image(pts, loc, size))
            refs = refs_from_frames(frames, mappings, catalog, mat, batches, args.gap_mm, camera=args.camera)
        if refs is not None:
            refs.save(out)
            if args.photos:
                # the photos were taken on this mat: recognize reads it from here when given no --mat. Scans (and
                # a colour photo alone) do not depend on a mat: a --mat given with them is not copied, so that
                # recognize does not silently take it later (a stale mat.json from photos stays as it was)
                mat.save(out / "mat.json")
            keep_lens(out, lens)
            say(T("enrolled {n} tile types of {game} into {folder} ({source})", n=len(refs.tile_ids), game=args.game,
                  folder=str(out), source=refs.source))
        if args.colours:
            names = [n.strip() for n in args.names.split(",") if n.strip()]
            frame = read_image(args.colours)
            colours = calibrate_from_frame(frame, Rectifier(mat, px_per_mm=2.0, lens=lens), names)
            colours.save(out / "colours.json")
            say(T("calibrated {n} player colours into {path}: {colours}", n=len(names), path=str(out / "colours.json"),
                  colours=", ".join(names)))
    except VisionError as exc:
        raise EnrollError(reason(exc)) from None
    return 0


def _print_layout(catalog, layout) -> None:
    n = len(catalog.tile_ids)
    batches = math.ceil(n / layout.capacity)
    say(T("{n} tiles in {batches} batch(es) of up to {capacity} ({columns} per row, {gap} mm apart), north up, "
          "from the play area's top-left corner:", n=n, batches=batches, capacity=layout.capacity,
          columns=layout.columns, gap=format(layout.gap_mm, "g")))
    for b in range(batches):
        ids = catalog.tile_ids[b * layout.capacity:(b + 1) * layout.capacity]
        say(T("photo {b}:", b=b))
        for r in range(0, len(ids), layout.columns):
            print("  " + " ".join(ids[r:r + layout.columns]))
    sys.stdout.flush()
