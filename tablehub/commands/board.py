"""``tablehub board trace PHOTO --game karibik``: propose a fixed board's spaces from a photo.

OpenCV (vision/boards.py) finds the board's edge, straightens it, and proposes the printed
spaces and which touch; the command writes them as a draft board file (the game's format) and
a picture of the proposal drawn over the straightened photo. The owner then marks the ports,
hideouts and skull spaces in the file, or does the whole thing on the phone: Set-up -> Your
board -> Trace the Karibik board (``/trace/karibik``: the same tracing from the table's camera or
an uploaded photo, corrected by taps, saved into the data folder; docs/karibik.md). Tahiti's
track order is recorded on the same screen (``/trace/tahiti``, docs/tahiti.md).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from ..games import game_class
from ..games.base import SetupError, TablehubError
from ..i18n import T, join
from ..usage_i18n import bad_value, say

NAME = "board"
HELP = T("trace a fixed board (Karibik) from a photo of the empty board into a draft board file")
DESCRIPTION = T("{help}. The photo should show the whole board, flat, on a darker table. The draft lists the "
               "spaces and their adjacency; fill in towns, hideouts, skulls and piles (docs/karibik.md).", help=HELP)
TRACEABLE = ("karibik",)


def _size(text: str) -> tuple[float, float]:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)\s*", text)
    if not m:
        raise bad_value(T("expected WIDTHxHEIGHT in mm, e.g. {example}, got {value}", example="600x420", value=repr(text)))
    return float(m.group(1)), float(m.group(2))


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="board_command", metavar="trace", required=True)
    t = sub.add_parser("trace", help=T("propose the spaces and adjacency of an empty board from one photo"))
    t.add_argument("photo", help=T("photo of the empty board (JPEG or PNG)"))
    t.add_argument("--game", default="karibik", help=T("the board's game (karibik)"))
    t.add_argument("--size", type=_size, default=(600.0, 420.0), metavar="WxH",
                   help=T("the board's size in mm (default 600x420)"))
    t.add_argument("--out", default="board.json", help=T("the draft board file to write (default board.json)"))
    t.add_argument("--overlay", help=T("also write the proposal drawn over the straightened photo (PNG)"))
    t.add_argument("--sea-hue", type=int, nargs=2, default=(85, 135), metavar=("LOW", "HIGH"),
                   help=T("the printed sea's OpenCV hue range, 0-180 (default 85 135: blues)"))


def run(args) -> int:
    cls = game_class(args.game)
    if cls.name not in TRACEABLE:
        raise SetupError(T("board trace: only {games} boards are traced, not {game}", games=join(list(TRACEABLE)), game=cls.name))
    import cv2

    from vision.boards import draw_trace, trace_board

    from ..games.karibik.board import draft_board

    photo = cv2.imread(str(args.photo), cv2.IMREAD_COLOR)
    if photo is None:
        raise TablehubError(T("{path}: cannot read the photo (a JPEG or PNG file)", path=str(args.photo)))
    traced = trace_board(photo, args.size, sea_hue=tuple(args.sea_hue))
    draft = draft_board(args.size, traced.polygons, traced.centres, traced.adjacency)
    Path(args.out).write_text(json.dumps(draft, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    edge = T("board edge found") if traced.found_edge else T("board edge NOT found: the whole photo was taken as the board")
    say(T("{spaces} spaces, {pairs} adjacent pairs ({edge}); draft written to {path}", spaces=len(traced.polygons),
          pairs=len(traced.adjacency), edge=edge, path=args.out))
    if args.overlay:
        id_at = {tuple(sp["center"]): sp["id"] for sp in draft["spaces"]}
        names = [str(id_at[tuple(c)]) for c in traced.centres]  # the draft's space ids
        cv2.imwrite(str(args.overlay), draw_trace(traced, names=names))
        say(T("overlay written to {path}", path=args.overlay), file=sys.stderr)
    say(T("next: mark the 16 towns, 12 hideouts, 6 skulls and 5 piles in the file (docs/karibik.md)"))
    return 0
