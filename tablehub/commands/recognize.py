"""``tablehub recognize IMAGE --game neuesland --mat MAT [--refs DIR]``: what the camera sees, as JSON.

Prints the tiles (x, y, tile id, rotation, confidence, runners-up) and the figures
(x, y, colour, region) found in one photo of the table, in the record conventions:
x grows east, y south, the start tile at (0, 0), rotation in clockwise degrees.
See docs/vision.md.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..i18n import T
from ..photo import RecognizeError, load_frame, load_recognizer, observe, refs_folder

NAME = "recognize"
HELP = T("recognise the tiles and figures in a photo of the table and print them as JSON")
DESCRIPTION = T("{help}. Needs the reference folder made by 'tablehub enroll' (--refs) and the mat file made by "
               "'tablehub markers' (--mat). A photo without the mat's markers, a blank or overexposed frame, "
               "ends with one line saying what to fix; tiles not in the set come out with a low confidence.", help=HELP)

__all__ = ["RecognizeError"]


def add_arguments(p) -> None:
    p.add_argument("image", help=T("photo of the table (PNG or JPEG)"))
    p.add_argument("--game", required=True, help=T("tile game: neuesland or suedsee"))
    p.add_argument("--mat", help=T("mat file from 'tablehub markers' (default: mat.json in --refs, else the default mat)"))
    p.add_argument("--refs", default=None, help=T("reference folder from 'tablehub enroll' (default: refs/GAME)"))
    p.add_argument("--colours", help=T("player colour file (default: colours.json in --refs)"))
    p.add_argument("--lens", metavar="FILE", help=T("lens calibration from 'tablehub lens calibrate' (default: the "
                   "configured camera's lens file if there is one, else lens.json in --refs; 'none': no lens)"))
    p.add_argument("--config", default="", help=T("settings file, for the camera's lens file (default: "
                   "$TABLEHUB_CONFIG or /etc/tablehub/tablehub.toml if present)"))
    p.add_argument("--compact", action="store_true", help=T("one-line JSON"))


def run(args) -> int:
    from ..config import load_config
    from ..setup_files import reading_lens

    lens = reading_lens(load_config(args.config), args.lens)
    refs = refs_folder(args.game, args.refs)
    path = Path(args.image)
    frame = load_frame(path)
    rec = load_recognizer(args.game, refs, mat=args.mat, colours=args.colours, lens=lens)
    obs = observe(rec, frame, str(path))
    out = obs.to_dict()
    out = {"image": str(path), "game": args.game, **out}
    json.dump(out, sys.stdout, indent=None if args.compact else 1)
    sys.stdout.write("\n")
    return 0
