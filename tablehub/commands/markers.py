"""``tablehub markers``: print the play mat (ArUco markers) and write its mat file.

Writes into ``--out`` (default ``mat/``): ``mat.json`` (where the markers are, read by
``tablehub run`` / ``recognize`` / ``enroll``) and one PNG per printed page, at true size
with the DPI recorded in the file. See docs/vision-setup.md for the set-up.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..i18n import T
from ..usage_i18n import bad_value, say

NAME = "markers"
HELP = T("write the printable play mat (ArUco markers) and its mat.json")
DESCRIPTION = T("{help}. Pages are PNGs at true size (DPI in the file): print at 100 % scale. "
               "--layout full tiles the whole mat (markers, play-area outline, cell ticks) over several "
               "pages to tape together; --layout corners prints only the four marker cards, to stick on a "
               "table or cloth at the positions written on them. The lens calibration board is 'tablehub lens board'.", help=HELP)


def _size(text: str) -> tuple[float, float]:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)\s*", text)
    if not m:
        raise bad_value(T("expected WIDTHxHEIGHT in mm, e.g. {example}, got {value}", example="600x600", value=repr(text)))
    return float(m.group(1)), float(m.group(2))


def add_arguments(p) -> None:
    p.add_argument("--out", default="mat", help=T("folder for mat.json and the page PNGs (default: mat)"))
    p.add_argument("--mat", help=T("an existing mat.json to print again (ignores the size options)"))
    p.add_argument("--play", type=_size, default=(600.0, 600.0), metavar="WxH",
                   help=T("play area in mm (default 600x600: 13 x 13 cells of 45 mm)"))
    p.add_argument("--marker-mm", type=float, default=40.0, help=T("marker side in mm (default 40)"))
    p.add_argument("--tile-mm", type=float, default=45.0, help=T("tile size (grid pitch) in mm (default 45)"))
    p.add_argument("--paper", default="A4", choices=["A4", "A3", "letter"], help=T("paper size (default A4)"))
    p.add_argument("--dpi", type=float, default=300.0, help=T("print resolution (default 300)"))
    p.add_argument("--layout", default="full", choices=["full", "corners"],
                   help=T("full: the whole mat over several pages; corners: only the four marker cards"))


def run(args) -> int:
    from vision.markers import sheet_pages, write_png_with_dpi
    from vision.mat import Mat

    out = Path(args.out)
    if args.mat:
        mat = Mat.load(args.mat)
    else:
        mat = Mat.around(args.play[0], args.play[1], marker_mm=args.marker_mm, tile_mm=args.tile_mm,
                         name="default" if args.play == (600.0, 600.0) else "custom")
    out.mkdir(parents=True, exist_ok=True)
    mat_file = mat.save(out / "mat.json")
    pages = sheet_pages(mat, paper=args.paper, dpi=args.dpi, layout=args.layout)
    written = []
    for i, page in enumerate(pages, 1):
        written.append(write_png_with_dpi(out / f"page-{i:02d}.png", page.image, page.dpi))
    cols, rows = mat.cells
    say(T("mat {name}: {width} x {height} mm, play area {play_width} x {play_height} mm ({cols} x {rows} cells of "
          "{tile} mm), markers {ids} ({dictionary}, {marker} mm)", name=mat.name, width=format(mat.width_mm, "g"),
          height=format(mat.height_mm, "g"), play_width=format(mat.play_width_mm, "g"),
          play_height=format(mat.play_height_mm, "g"), cols=cols, rows=rows, tile=format(mat.tile_mm, "g"),
          ids=", ".join(str(i) for i in mat.marker_ids), dictionary=mat.dictionary,
          marker=format(mat.marker_mm, "g")))
    say(T("wrote {path}", path=str(mat_file)))
    pages_said = written[0].name + (" .. " + written[-1].name if len(written) > 1 else "")
    say(T("wrote {n} {paper} page(s) at {dpi} dpi: {pages}  (print at 100 %, no scaling)", n=len(written),
          paper=args.paper, dpi=format(args.dpi, "g"), pages=pages_said))
    return 0
