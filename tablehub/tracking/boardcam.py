"""The board camera for the live tracker: a printed board's enrolled references -> a recognizer
(``frame -> BoardSeen``), for any game whose engine has a ``board_moves`` adapter.

The references are a folder, as ``tablehub boardcam`` writes it (docs/boardcam.md) and as the
tile games' references are kept (``[vision] refs``, default ``<data>/refs/<game>``):

- ``boardcam.json``: the format, the game (``karibik`` when absent), the board (``provisional``, ``grid`` or a board file: loaded by
  the engine's adapter, ``board_moves.load``), its name and size, the canvas scale, whether a
  lens file is kept;
- ``empty.png``: the empty board, straight, at ``ppm`` px/mm;
- ``pieces.json``: one colour template per piece (``vision.boardpieces.PieceBook``);
- ``lens.json`` (optional): the camera's lens calibration;
- ``chests.json`` (optional, Karibik): the chests' printed values (``vision.chests.ValueBook``); with it
  the recognizer also reads the chests (``BoardSeen.extras["chests"]``).

:class:`BoardRecognizer` keeps the board registered from frame to frame (``vision.boardreg.BoardTracker``:
a bumped board is registered again and said so), finds the pieces on the spaces
(``vision.boardpieces.find_pieces``) and reports, per enrolled piece, the space it stands on, or
``None`` when it is not sure (unsure which piece, on a line between spaces, seen twice, not seen), with
where it may stand when the camera can say (``guesses``: the space of a piece named with too small a
margin, touching another; the spaces a piece stands between); and every piece it found by its look
(``found``: for pieces that look alike, Tahiti's boats, named against the game by the tracker).
Vision imports are lazy: a build without OpenCV still runs, played from the phone.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..games import game_class
from ..games.base import TablehubError
from ..jsonfile import read_folder_meta
from ..i18n import T, reason
from .boardmoves import BoardSeen, Sighting
from .recognizer import RecognitionUnavailable

FORMAT = "tablehub-boardcam/1"
PPM = 2.0
META, EMPTY, PIECES, LENS = "boardcam.json", "empty.png", "pieces.json", "lens.json"
CHESTS = "chests.json"
#: the files of a board's references (a change to any of them means: load them again)
FILES = (META, EMPTY, PIECES, LENS, CHESTS)


class BoardRefsError(TablehubError):
    """A references folder that cannot be used; one line naming the file and what to do."""


def board_adapter(game: str) -> Any:
    """The ``board_moves`` adapter of the engine named ``game`` (``None`` for games without a printed board
    the camera reads)."""
    try:
        return getattr(game_class(game), "board_moves", None)
    except TablehubError:
        return None


def write_refs(folder: str | Path, board_spec: str, board: Any, reference: Any, lens_file: str | Path | None = None,
               lens: Any = None, game: str = "karibik") -> Path:
    """Write ``boardcam.json`` and ``empty.png`` (and ``lens.json``: copied from ``lens_file`` or saved from
    ``lens``) into ``folder``; returns the folder."""
    import shutil

    import cv2

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out / EMPTY), reference.canvas):
        raise BoardRefsError(T("{path}: could not write the picture (disk full or read-only?)", path=str(out / EMPTY)))
    if lens_file:
        shutil.copyfile(lens_file, out / LENS)
    elif lens is not None:
        lens.save(out / LENS)
    meta = {"format": FORMAT, "game": game, "board": board_spec, "name": board.name, "size_mm": list(board.size),
            "ppm": reference.ppm, "lens": bool(lens_file or lens is not None)}
    (out / META).write_text(json.dumps(meta, indent=1) + "\n")
    return out


def read_meta(folder: str | Path) -> dict[str, Any]:
    """``boardcam.json`` of ``folder``, checked (one-line errors naming the file)."""
    meta = read_folder_meta(folder, META, FORMAT, BoardRefsError, T("run 'tablehub boardcam enrol-board' first"))
    path = Path(folder) / META
    for key in ("board", "ppm"):
        if key not in meta:
            raise BoardRefsError(T("{path}: '{key}' is missing (enrol the board again)", path=str(path), key=key))
    return meta


class BoardRecognizer:
    """``frame -> BoardSeen`` against one enrolled board (module docstring)."""

    def __init__(self, reference: Any, book: Any, spaces: Any, board_name: str | None = None, lens: Any = None,
                 values: Any = None):
        from vision.boardreg import BoardRegistrar, BoardTracker
        from vision.boardwatch import BoardWatch

        self.reference, self.book, self.spaces, self.board_name = reference, book, spaces, board_name
        self.values = values  # the chests' printed values (vision.chests.ValueBook), when enrolled
        self._chests: Any = None  # the chests last read (read again only when the watch re-read the board)
        self._chest_watch: Any = None  # vision.chests.ChestWatch: only the chests whose windows changed are read
        self.tracker = BoardTracker(BoardRegistrar(reference, lens))
        # a full read when the board moved or the light changed, else only the spaces whose pixels changed
        # the ships (Karibik) and sailboats (Tahiti: one a colour) are pieces there is one of: each named at most once
        self.watch = BoardWatch(self.tracker, book, spaces,
                                once={t.name for t in book.templates if t.kind.split()[0] in ("ship", "sailboat")})

    def __call__(self, frame: np.ndarray) -> BoardSeen:
        from vision import VisionError

        reading = self.watch.read(frame)
        if self.watch.last is None:
            raise VisionError(reading.note or T("the board is not found"))
        seen = reading.pieces
        pieces: dict[str, int | None] = {}
        guesses: dict[str, tuple[int, ...]] = {}
        for name in self.book.names():
            hits = [p for p in seen if p.name == name]
            pieces[name] = hits[0].space if len(hits) == 1 else None
            if pieces[name] is not None:
                continue
            # not sure: named with too small a margin (touching another piece), or where spaces meet
            maybe = hits if hits else [p for p in seen if p.name is None and p.candidates[:1] == (name,)]
            if len(maybe) == 1:
                q = maybe[0]
                spaces = (q.space,) if q.space is not None else tuple(c for c in q.candidates if isinstance(c, int))
                if spaces:
                    guesses[name] = spaces
        found = [Sighting(p.name, p.space, (p.space,) if p.space is not None else
                          tuple(c for c in p.candidates if isinstance(c, int)),
                          tuple(c for c in p.candidates if isinstance(c, str))) for p in seen]
        extras: dict[str, Any] = {}
        if self.values is not None:  # the chests (vision.chests): on the spaces and aboard the ships
            from vision.chests import chests_seen

            ref = self.reference
            ships = {t.name for t in self.book.templates if t.kind.startswith("ship")}
            if reading.full or reading.reread_mm2 > 0 or self._chests is None:  # else nothing on the board changed
                if self._chest_watch is None:
                    from vision.chests import ChestWatch

                    self._chest_watch = ChestWatch()
                self._chests = chests_seen(frame, self.watch.last.registration.to_image, ref.canvas, ref.ppm,
                                           self.values, seen, ships, self._chest_watch)
            extras["chests"] = self._chests
        return BoardSeen(pieces, [reading.note] if reading.note else [], self.board_name, guesses, found, extras)

    def reset(self) -> None:
        """Another game: register the board afresh."""
        self.tracker.current = None
        self.tracker.board_from_mat = None
        self.watch.reset()
        self._chests = None
        if self._chest_watch is not None:
            self._chest_watch.reset()


def load_recognizer(game: str, folder: str | Path, lens: Any = None) -> BoardRecognizer:
    """``game``'s board recognizer from the references in ``folder`` (``lens``: the camera's lens file, else
    the one kept with the references). Raises :class:`RecognitionUnavailable` saying what is missing."""
    adapter = board_adapter(game)
    if adapter is None:
        raise RecognitionUnavailable(T("table recognition is off: the camera does not read {game}'s board", game=game))
    folder = Path(folder)
    try:
        import cv2

        from vision import VisionError
        from vision.boardpieces import PieceBook, SpaceMap
        from vision.boardreg import BoardReference
        from vision.calibrate import LensCalibration
    except ImportError as exc:
        raise RecognitionUnavailable(T("table recognition is not in this build ({why}); play from the phone",
                                       why=str(exc))) from None
    if not (folder / META).is_file():
        raise RecognitionUnavailable(T(
            "table recognition is off: no board references in {folder}; enrol the empty board and the pieces "
            "('tablehub boardcam enrol-board PHOTO --out {folder}', then 'enrol-pieces')", folder=str(folder)))
    if not (folder / PIECES).is_file():
        raise RecognitionUnavailable(T("table recognition is off: the pieces are not enrolled in {folder} "
                                       "('tablehub boardcam enrol-pieces PHOTO --refs {folder} --at ...')",
                                       folder=str(folder)))
    try:
        meta = read_meta(folder)
        if meta.get("game", "karibik") != game:
            raise BoardRefsError(T("{path}: these references are of a {theirs} board, not {game}'s (enrol this game's "
                                   "board)", path=str(folder / META), theirs=meta.get("game"), game=game))
        board = adapter.load(meta["board"])
        empty = cv2.imread(str(folder / EMPTY), cv2.IMREAD_COLOR)
        if empty is None:
            raise BoardRefsError(T("{path}: missing or unreadable (enrol the board again)", path=str(folder / EMPTY)))
        reference = BoardReference.from_canvas(empty, float(meta["ppm"]))
        if lens is None and meta.get("lens"):
            lens = LensCalibration.load(folder / LENS)
        book = PieceBook.load(folder / PIECES)
        spaces = SpaceMap({s: board.polygons[s] for s in board.spaces if s in board.polygons}, board.size,
                          reference.ppm)
        values = None
        if (folder / CHESTS).is_file():
            from vision.chests import ValueBook

            values = ValueBook.load(folder / CHESTS)
    except (TablehubError, VisionError) as exc:
        raise RecognitionUnavailable(T("table recognition is off: {why}",
                                       why=reason(exc))) from None
    return BoardRecognizer(reference, book, spaces, board.name, lens, values)
