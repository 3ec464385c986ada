"""``tablehub boardcam``: the camera on a printed board (Karibik, Tahiti): enrol the empty board and the
pieces, then read a frame (docs/vision.md, "Printed boards").

    tablehub boardcam enrol-board PHOTO --out DIR [--game karibik|tahiti] [--board grid|FILE] [--corners X,Y,...] [--lens lens.json]
    tablehub boardcam enrol-pieces PHOTO --refs DIR --at "Arriba=12,Bravo=13,chest up=14"
    tablehub boardcam enrol-pieces PHOTO --refs DIR --at "red boat=BB,red sailboat=BE,disc $=DD"   (Tahiti: cells by name)
    tablehub boardcam enrol-pieces PHOTO --refs DIR --add --at "Arriba=12,Bravo=13,..."   (more templates: ships laden)
    tablehub boardcam enrol-chests PHOTO --refs DIR --at "4000=12,5000=13,6000=14,7000=15,8000=16"   (Karibik)
    tablehub boardcam read FRAME --refs DIR

The enrolled folder holds ``boardcam.json`` (the board, its size, the canvas scale, the lens),
``empty.png`` (the empty board straightened to board millimetres) and, after enrol-pieces,
``pieces.json`` (one colour template per piece) and, after enrol-chests, ``chests.json`` (the chests'
printed values: the lid's colour and each value's print; ``vision.chests``).

The enrolment steps are functions (:func:`enrol_board`, :func:`enrol_pieces_at`, :func:`enrol_chests_at`) the
phone's set-up screen calls too (``tablehub.board_enrolment``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..games.base import SetupError, TablehubError
from ..i18n import T, Tc, comma, renamed
from ..usage_i18n import said, say
from ..tracking.boardcam import CHESTS, EMPTY, LENS, PIECES, PPM, read_meta, write_refs

NAME = "boardcam"
HELP = T("the camera on a printed board (Karibik, Tahiti): enrol the empty board and the pieces, read a frame")
DESCRIPTION = T("{help}. See docs/boardcam.md.", help=HELP)


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="boardcam_command", metavar="enrol-board|enrol-pieces|enrol-chests|read",
                           required=True)
    e = sub.add_parser("enrol-board", help=T("enrol the empty board from one photo taken by the table's camera"))
    e.add_argument("photo", help=T("photo of the whole empty board (JPEG or PNG)"))
    e.add_argument("--out", required=True, help=T("folder to write the enrolment to"))
    e.add_argument("--game", default="karibik", choices=("karibik", "tahiti"), help=T("the game (default karibik)"))
    e.add_argument("--board", default="provisional",
                   help=T("the board: 'provisional', 'grid' (Karibik) or a board JSON file (default provisional)"))
    e.add_argument("--corners", help=T("the board's corners in the photo, TL TR BR BL: 'x,y,x,y,x,y,x,y' "
                                     "(default: found from the board's edge)"))
    e.add_argument("--lens", help=T("the camera's lens calibration (tablehub lens), copied into the folder"))
    q = sub.add_parser("enrol-pieces", help=T("enrol each piece once from a photo with every piece on a known space"))
    q.add_argument("photo")
    q.add_argument("--refs", required=True, help=T("the folder written by enrol-board"))
    q.add_argument("--at", required=True,
                   help=T("NAME=SPACE pairs, comma-separated: 'Arriba=12,Bravo=13,...,chest up=20,chest down=21'"))
    q.add_argument("--add", action="store_true",
                   help=T("add these templates to the enrolled ones: each ship carrying a chest (kind 'ship laden')"))
    c = sub.add_parser("enrol-chests", help=T("enrol the chests' printed values: one face-up chest of each value"))
    c.add_argument("photo")
    c.add_argument("--refs", required=True, help=T("the folder written by enrol-board"))
    c.add_argument("--at", required=True, help=T("VALUE=SPACE pairs, comma-separated: '4000=12,5000=13,...'"))
    r = sub.add_parser("read", help=T("read one frame: every piece and its space"))
    r.add_argument("frame")
    r.add_argument("--refs", required=True, help=T("the folder written by enrol-board and enrol-pieces"))


#: Karibik's enrolled chests as said (the ships' names stay)
KARIBIK_PIECES = {"chest up": Tc("karibik piece", "chest up"), "chest down": Tc("karibik piece", "chest down")}


def piece_words(game: str) -> dict[str, Any]:
    """Each enrolled piece name of ``game``'s camera (``red boat``, ``chest up``) as said in the console's language,
    the English being the name itself; a name the owner chose is kept as written."""
    if game == "tahiti":
        from ..games.tahiti.camera import TahitiBoardMoves, piece_said

        return {name: piece_said(name) for name, _ in TahitiBoardMoves.camera_looks()}
    return dict(KARIBIK_PIECES)


def _read_image(path: str):
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise TablehubError(T("{path}: cannot read the picture (a JPEG or PNG file)", path=str(path)))
    return img


def _board(spec: str, game: str):
    """The printed board ``spec`` names, loaded by ``game``'s camera adapter."""
    from ..tracking.boardcam import board_adapter

    return board_adapter(game).load(spec)


def _space(board, text: str) -> int | None:
    """A space given on the command line: its number, or (Tahiti) a map cell's name."""
    named = getattr(board, "space_of", None)
    if named is not None and named(text.strip()) is not None:
        return named(text.strip())
    try:
        sid = int(text)
    except ValueError:
        return None
    return sid if sid in board.centres else None


def _kind(name: str) -> str:
    low = name.lower()
    for kind in ("chest", "disc", "sailboat", "boat"):
        if low.startswith(kind) or low.endswith(kind):
            return kind
    return "ship"


def _lens(path: str | None):
    if not path:
        return None
    from vision.calibrate import LensCalibration

    return LensCalibration.load(path)


def parse_corners(text: str) -> Any:
    """``--corners``: 8 numbers ``x,y,x,y,x,y,x,y`` (TL TR BR BL) -> a 4x2 array; one line when not that."""
    import numpy as np

    try:
        vals = [float(v) for v in text.split(",")]
    except ValueError:
        vals = []
    if len(vals) != 8:
        raise SetupError(T("--corners: expected 8 numbers 'x,y,x,y,x,y,x,y' (TL TR BR BL), got {value}", value=repr(text)))
    return np.float64(vals).reshape(4, 2)


def enrol_board(photo: Any, out: str | Path, game: str = "karibik", board_spec: str = "provisional",
                corners: Any = None, lens: Any = None, lens_file: str | None = None) -> tuple[Path, Any]:
    """Enrol the empty board from ``photo`` into ``out`` (``boardcam.json``, ``empty.png``, the lens): ``corners``
    (TL TR BR BL, pixels as seen) map it to board mm, else the board's edge is looked for. Returns the folder and
    the :class:`vision.boardreg.BoardReference`. Nothing is written when it fails (one-line errors)."""
    from vision.boardreg import BoardReference

    board = _board(board_spec, game)
    ref = BoardReference.from_photo(photo, board.size, PPM, corners_px=corners, lens=lens)
    spec = board_spec if board_spec in ("provisional", "grid") else str(Path(board_spec).resolve())
    folder = write_refs(out, spec, board, ref, lens_file=lens_file, lens=None if lens_file else lens, game=game)
    return folder, ref


def register_photo(refs: str | Path, frame: Any, lens: Any = None) -> tuple[dict, Any, Any, Any]:
    """The board of the references in ``refs`` found in ``frame``: (meta, board, reference, registration);
    ``lens``: the camera's lens (default the one kept with the references). One line when it is not found."""
    from vision.boardreg import BoardRegistrar

    meta, board, ref, kept = open_refs(str(refs))
    reg = BoardRegistrar(ref, lens if lens is not None else kept).register(frame)
    if reg is None:
        raise TablehubError(T("the board is not found in the picture (covered, out of view, or another board?)"))
    return meta, board, ref, reg


class PiecesNotFound(TablehubError):
    """Pieces not found where the enrolment says they stand (``missing``: (name, space) each)."""

    def __init__(self, missing: list[tuple[str, int]], board: Any):
        self.missing = missing
        said = ", ".join(f"{name} ({_space_said(board, space)})" for name, space in missing)
        super().__init__(f"{len(missing)} piece(s) not found where expected: {said}; put each on its space and "
                         "take the photo again (nothing was enrolled)")


def _space_said(board: Any, space: int) -> str:
    if hasattr(board, "space_of"):  # Tahiti: the cell's or track space's name
        return str(board.space_name(space)).split(" (")[0]
    return f"space {space}"


def enrol_pieces_at(frame: Any, refs: str | Path, spots: list[tuple[str, str, int]], add: bool = False,
                    lens: Any = None) -> Any:
    """Enrol the pieces of ``spots`` ((template name, kind, space) each) from ``frame`` into ``refs``'s
    ``pieces.json`` (``add``: added to the enrolled templates). Every piece not found near its space is named
    (:class:`PiecesNotFound`) and nothing is written. Returns the book saved."""
    from vision import VisionError
    from vision.boardpieces import PieceBook, enrol_pieces

    folder = Path(refs)
    if add and not (folder / PIECES).is_file():
        raise SetupError(T("--add: no pieces enrolled yet in {folder} (run enrol-pieces without --add first)", folder=str(folder)))
    _, board, ref, reg = register_photo(folder, frame, lens)
    canvas = reg.canvas(frame, ref.ppm, ref.size_mm)
    where = [(name, kind, *board.centres[space]) for name, kind, space in spots]
    try:
        book = enrol_pieces(canvas, ref.canvas, ref.ppm, where)
    except VisionError:
        missing = []
        for (name, kind, space), spot in zip(spots, where):  # which ones: each looked for on its own
            try:
                enrol_pieces(canvas, ref.canvas, ref.ppm, [spot])
            except VisionError:
                missing.append((name, space))
        if not missing:
            raise
        raise PiecesNotFound(missing, board) from None
    if add:
        book = PieceBook(PieceBook.load(folder / PIECES).templates + book.templates)
    book.save(folder / PIECES)
    return book


def enrol_chests_at(frame: Any, refs: str | Path, spots: list[tuple[int, int]], lens: Any = None) -> Any:
    """Enrol the chests' printed values from ``frame``: ``spots`` (value, space) each, one face-up chest of each
    value; written to ``refs``'s ``chests.json``. Returns the :class:`vision.chests.ValueBook` saved."""
    from vision.chests import enrol_values

    folder = Path(refs)
    _, board, ref, reg = register_photo(folder, frame, lens)
    values = enrol_values(frame, reg.to_image, ref.canvas, ref.ppm, [(v, *board.centres[s]) for v, s in spots])
    values.save(folder / CHESTS)
    return values


def _spots(board: Any, meta: dict, at: str, what: str) -> list[tuple[str, int]]:
    """``--at`` as (NAME or VALUE, space) pairs; one line naming the pair that is not one."""
    out = []
    for item in at.split(","):
        name, _, space = item.partition("=")
        sid = _space(board, space)
        if sid is None or not name.strip():
            raise SetupError(T("--at: {item} must be {what}=SPACE with a space of the board {board} (its number, or a "
                               "Tahiti map cell such as BE)", item=repr(item.strip()), what=what, board=meta["board"]))
        out.append((name.strip(), sid))
    return out


def open_refs(refs: str) -> tuple[dict, Any, Any, Any]:
    """The references in ``refs``: (meta, board, :class:`vision.boardreg.BoardReference`, the lens kept or ``None``)."""
    import cv2

    from vision.boardreg import BoardReference

    folder = Path(refs)
    meta = read_meta(folder)
    empty = cv2.imread(str(folder / EMPTY), cv2.IMREAD_COLOR)
    if empty is None:
        raise TablehubError(T("{path}: missing or unreadable (enrol the board again)", path=str(folder / EMPTY)))
    board = _board(meta["board"], meta.get("game", "karibik"))
    lens = _lens(str(folder / LENS)) if meta.get("lens") else None
    return meta, board, BoardReference.from_canvas(empty, float(meta["ppm"])), lens


def run(args) -> int:
    from vision.boardpieces import PieceBook, SpaceMap, find_pieces

    if args.boardcam_command == "enrol-board":
        photo = _read_image(args.photo)
        corners = parse_corners(args.corners) if args.corners else None
        out, ref = enrol_board(photo, args.out, args.game, args.board, corners, _lens(args.lens), args.lens)
        say(T("empty board enrolled: {n} features; written to {folder}/", n=len(ref.points_mm), folder=str(out)))
        example = "Arriba=12" if args.game == "karibik" else "red boat=BB"
        say(T("next: put each piece on a space, photograph it, and run: tablehub boardcam enrol-pieces PHOTO --refs "
              "{folder} --at '{example},...'", folder=str(out), example=example))
        return 0

    meta = read_meta(args.refs)
    board = _board(meta["board"], meta.get("game", "karibik"))
    frame = _read_image(args.photo if args.boardcam_command in ("enrol-pieces", "enrol-chests") else args.frame)
    if args.boardcam_command == "enrol-pieces":
        spots = []
        for name, sid in _spots(board, meta, args.at, "NAME"):
            kind = _kind(name)
            if args.add and kind == "ship":  # more templates of a ship: carrying a chest (Karibik)
                kind = "ship laden"
            spots.append((name, kind, sid))
        book = enrol_pieces_at(frame, args.refs, spots, add=args.add)
        say(T("{n} pieces enrolled: {names}; written to {path}", n=len(book.templates), names=", ".join(book.names()),
              path=str(Path(args.refs) / PIECES)))
        return 0
    if args.boardcam_command == "enrol-chests":
        spots = []
        for value, sid in _spots(board, meta, args.at, "VALUE"):
            try:
                v = int(value)
            except ValueError:
                v = 0
            if v <= 0:
                raise SetupError(T("--at: {value} must be VALUE=SPACE: the value printed on a chest (e.g. 4000) and a "
                                   "space of the board {board}", value=repr(value), board=meta["board"]))
            spots.append((v, sid))
        values = enrol_chests_at(frame, args.refs, spots)
        say(T("{n} chest values enrolled: {values}; written to {path}", n=len(values.patches),
              values=", ".join(str(v) for v in sorted(values.patches)), path=str(Path(args.refs) / CHESTS)))
        return 0
    _, board, ref, reg = register_photo(args.refs, frame)
    canvas = reg.canvas(frame, ref.ppm, ref.size_mm)
    book = PieceBook.load(Path(args.refs) / PIECES)
    spaces = SpaceMap({s: board.polygons[s] for s in board.spaces if s in board.polygons}, board.size, ref.ppm)
    seen = find_pieces(canvas, ref.canvas, ref.ppm, book, spaces)
    names = piece_words(meta.get("game", "karibik"))
    say(T("board registered ({inliers} of {matches} matches agree); {n} pieces", inliers=reg.inliers,
          matches=reg.matches, n=len(seen)))
    for p in sorted(seen, key=lambda p: (p.name is None, p.name or "", p.x_mm)):
        where: Any = T("space {space}", space=p.space) if p.space is not None else T("space ?")
        if p.space is not None and hasattr(board, "space_of"):  # Tahiti: the cell's or track space's name
            where = board.space_name(p.space).split(" (")[0]
        at = said(T("at ({x}, {y}) mm", x=format(p.x_mm, ".0f"), y=format(p.y_mm, ".0f")))
        name = said(names.get(p.name, p.name or "?"))
        line = f"  {name:<12} {said(where):<10} {at}"
        say(line + "  " + said(T("unsure: {what}", what=renamed(p.unsure, names))) if p.unsure else line)
    if (Path(args.refs) / CHESTS).is_file():
        from vision.chests import ValueBook, chests_seen

        ships = {t.name for t in book.templates if t.kind.startswith("ship")}
        got = chests_seen(frame, reg.to_image, ref.canvas, ref.ppm, ValueBook.load(Path(args.refs) / CHESTS), seen,
                          ships)
        for space, lying in sorted(got.spaces.items()):
            faces = comma([T("face down") if face == "down" else T("{value} face up", value=value if value else "?")
                           for face, value in lying])
            say("  " + said(T("chests on space {space}: {chests}", space=space, chests=faces)))
        for ship, value in sorted(got.aboard.items()):
            load = T("nothing") if value == 0 else str(value) if value else T("a chest (value ?)")
            say("  " + said(T("{ship} carries {load}", ship=ship, load=load)))
        for line in got.unsure:
            say("  " + said(T("unsure: {what}", what=renamed(line, names))))
    return 0
