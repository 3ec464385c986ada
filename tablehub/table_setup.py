"""The table's vision set-up while the hub runs: which recognizer reads the table, and the
page's calibration and enrolment screens.

On a Pi the service holds the camera, so a person sets the table up from the phone:

- :class:`GameRecognizers` gives the tracker the recognizer of whatever game is on the
  table (a game started from the page may be another than the one the hub started with).
  It loads the references of that game when first needed and again whenever they change
  on disk (an enrolment from the page, or ``tablehub enroll`` run beside the service), so
  recognition turns on without a restart. Until there are references, reading the table
  fails with one line saying how to enrol; every game stays playable from the phone.
- :class:`SetupScreens` puts buttons on the page's calibration screen (check the markers;
  calibrate the player colours from figures laid in a row) and enrolment screen (capture
  each batch of tiles laid out as :class:`vision.enroll.EnrolLayout` says, build the
  references, start over), and draws the camera preview with what goes where: the play
  area and the colour spots, or the next batch's tile ids in their boxes. For a game on a
  printed board (Karibik, Tahiti) the enrolment screen's steps are the board's
  (:class:`tablehub.board_enrolment.BoardEnrolment`: the empty board, the pieces, the chests'
  values), on the same screen with their own buttons.

Captured enrolment photos are kept in ``<data>/enrolment/<game>/`` (they survive a
restart); references go to ``[vision] refs`` (default ``<data>/refs/<game>``).
"""
from __future__ import annotations

import logging
import math
import threading
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .config import Config
from .games.base import TablehubError
from .i18n import T, comma, drawable, reason
from .tracking.recognizer import RecognitionUnavailable

log = logging.getLogger(__name__)

Loader = Callable[[str], Callable[[np.ndarray], Any]]


class SetupError(TablehubError):
    """A set-up step that cannot be done now (no frame, markers not seen, batches missing)."""


def _stamp(paths: list[Path]) -> tuple[float | None, ...]:
    """What changes when a file of a reference set is written again."""
    out = []
    for p in paths:
        try:
            out.append(p.stat().st_mtime)
        except OSError:
            out.append(None)
    return tuple(out)


class GameRecognizers:
    """``frame -> observation`` for the game being played, for the tracker.

    ``load(game)`` builds a recognizer or raises :class:`RecognitionUnavailable` (the reason is
    what the tracker shows); ``files(game)`` lists the files whose change means "load again".
    A failure is remembered until one of those files changes, so a table without references
    costs nothing per frame.
    """

    def __init__(self, load: Loader, game: Callable[[], tuple[int, str] | None],
                 files: Callable[[str], list[Path]]):
        self._load, self._game, self._files = load, game, files
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[tuple, Any]] = {}  # game -> (stamp, recognizer or exception)
        self._game_id: int | None = None

    def _cached(self, game: str) -> Any:
        """``game``'s recognizer, or the :class:`RecognitionUnavailable` saying why not; loaded again (and
        logged once) when one of its files changed. Call with the lock held."""
        stamp = _stamp(self._files(game))
        cached = self._cache.get(game)
        if cached is None or cached[0] != stamp:
            try:
                cached = (stamp, self._load(game))
                log.info("table recognition for %s is on", game)
            except RecognitionUnavailable as exc:
                cached = (stamp, exc)
                log.warning("%s", exc)
            self._cache[game] = cached
        return cached[1]

    def current(self) -> Any:
        """The recognizer for the game on the table; raises :class:`RecognitionUnavailable`."""
        now = self._game()
        if now is None:
            raise RecognitionUnavailable(T("no game is running"))
        game_id, game = now
        with self._lock:
            rec = self._cached(game)
            if game_id != self._game_id and hasattr(rec, "reset"):
                rec.reset()  # another game (of the same set, or after another set): nothing seen before counts
            self._game_id = game_id
        if isinstance(rec, Exception):
            raise rec
        return rec

    def __call__(self, frame: np.ndarray) -> Any:
        return self.current()(frame)

    # what the tracker asks of a recognizer besides reading a frame, passed on to the current one

    def confidence(self, best: float, second: float) -> float:
        """The current recognizer's calibration of a read's confidence (see ``tracking.interpret``)."""
        return self.current().confidence(best, second)

    def region_at(self, tile: str, rotation: int, u: float, v: float) -> str | None:
        """The region under a point of a laid tile (the tracker names a figure's region on the logged tile)."""
        return self.current().region_at(tile, rotation, u, v)

    def follow(self, known: dict) -> None:
        """The tiles the log holds, before a read (a recognizer that cannot read yet has no use for them)."""
        self._pass_on("follow", known)

    def use_game(self, game: Any) -> None:
        """The running game, before a read (a recognizer that reads with the game's own pieces: Sunda's set)."""
        self._pass_on("use_game", game)

    def _pass_on(self, hook: str, *args: Any) -> None:
        """Call the current recognizer's ``hook`` if it has one (and there is a recognizer)."""
        try:
            rec = self.current()
        except RecognitionUnavailable:
            return
        fn = getattr(rec, hook, None)
        if fn is not None:
            fn(*args)

    def available(self, game: str) -> str | None:
        """``None`` when ``game``'s table can be read, else why not (for the page); what it loads is kept."""
        with self._lock:
            rec = self._cached(game)
        return str(rec) if isinstance(rec, Exception) else None


class SetupScreens:
    """The calibration and enrolment screens of the page, driven by the running camera.

    ``frame()`` returns the newest camera frame (or ``None``); ``mat()`` the mat in use.
    """

    GAP_MM = 10.0

    def __init__(self, hub: Any, cfg: Config, frame: Callable[[], np.ndarray | None], mat: Callable[[str], Any],
                 lens: Callable[[], Any] = lambda: None):
        self.hub, self.cfg = hub, cfg
        self._frame, self._mat, self._lens = frame, mat, lens
        # the preview locates the mat in every frame it draws (4 a second per phone): one rectifier kept
        # while the mat and lens stay the same, so it searches for the markers where they were last seen
        self._kept: tuple[tuple, Any] | None = None
        self._locating = threading.Lock()
        from .board_enrolment import BoardEnrolment

        self.boards = BoardEnrolment(hub, cfg, frame, lens)  # a printed board's steps (Karibik, Tahiti)

    # ---- wiring

    def register(self) -> "SetupScreens":
        from .games import GAMES
        from .tracking.boardcam import board_adapter

        add = self.hub.register_command
        boards = tuple(g for g in GAMES if board_adapter(g) is not None)  # printed boards: their own steps
        tiles = tuple(g for g in GAMES if g not in boards)
        add("check_markers", T("Check the markers"), self.check_markers, screen="calibration",
            help=T("find the four mat markers in the camera's view and say how well they fit"))
        add("calibrate_colours", T("Calibrate colours"), self.calibrate_colours, screen="calibration",
            help=T("one figure per player colour in a row across the middle of the bare mat, in the order of "
                   "the players; the preview shows the spots"))
        add("enrol_capture", T("Capture this batch"), self.capture, screen="enrolment",
            help=T("tiles: lay the tiles the preview shows, north up, in their boxes; then capture"), games=tiles)
        add("enrol_build", T("Build the references"), self.build, screen="enrolment",
            help=T("tiles: learn every tile's look from the captured batches; recognition turns on"), games=tiles)
        add("enrol_reset", T("Start over"), self.reset, screen="enrolment",
            help=T("tiles: forget the captured batches"), games=tiles)
        b = self.boards  # a printed board (Karibik, Tahiti): docs/boardcam.md "From the phone"
        add("board_enrol_board", T("Enrol the empty board"), b.enrol_board, screen="enrolment",
            help=T("printed board, step 1: the whole empty board in view; its corners tapped on the preview when "
                   "its edge is not found"), games=boards)
        add("board_forget_corners", T("Forget the corners"), b.forget_corners, screen="enrolment",
            help=T("printed board: forget the corners tapped on the preview"), games=boards)
        add("board_enrol_pieces", T("Enrol the pieces"), b.enrol_pieces, screen="enrolment",
            help=T("printed board, step 2: each piece on the space the preview and the line show; then press"),
            games=boards)
        add("board_enrol_chests", T("Enrol the chest values"), b.enrol_chests, screen="enrolment",
            help=T("Karibik, step 3: one chest face up of each value on the spaces shown; then press"),
            games=tuple(g for g in boards if getattr(board_adapter(g), "chest_values", None)))
        self.hub.board_enrolment = b  # the preview's corner taps (web/views/boardenrol.py)
        self._say_next_batch()
        return self

    # ---- helpers

    def _game(self) -> str:
        session = self.hub.session
        if session is None:
            raise SetupError(T("start or resume a game first: the set-up is per game"))
        return session.setup.game

    def _names(self) -> list[str]:
        from vision.enroll import CALIBRATION_COLOURS

        session = self.hub.session
        colours = list(session.setup.colors) if session is not None else []
        return colours or list(CALIBRATION_COLOURS)

    def _still(self) -> np.ndarray:
        frame = self._frame()
        if frame is None:
            raise SetupError(T("no camera frame yet: check the camera line on this screen"))
        return frame

    def _rectifier(self, game: str, **kw: Any) -> Any:
        from vision.rectify import Rectifier

        return Rectifier(self._mat(game), lens=self._lens(), **kw)

    def _tracking_rectifier(self, game: str) -> Any:
        """The rectifier kept for ``game``'s mat and the camera's lens (a new one when either changed)."""
        from vision.rectify import Rectifier

        mat, lens = self._mat(game), self._lens()
        key = (game, repr(mat.to_dict()), None if lens is None else repr(lens.to_dict()))
        if self._kept is None or self._kept[0] != key:
            self._kept = (key, Rectifier(mat, lens=lens))
        return self._kept[1]

    def _catalog(self, game: str) -> Any:
        from vision.tiles import CatalogInfo

        from .setup_files import catalog_file

        return CatalogInfo.load(catalog_file(game))  # a game without tiles: one line naming the tile games

    def _layout(self, game: str) -> Any:
        from vision.enroll import EnrolLayout

        return EnrolLayout(self._mat(game), self.GAP_MM)

    def batches_needed(self, game: str) -> int:
        return math.ceil(len(self._catalog(game).tile_ids) / self._layout(game).capacity)

    def photo_dir(self, game: str) -> Path:
        return Path(self.cfg.data_dir) / "enrolment" / game

    def captured(self, game: str) -> list[Path]:
        return sorted(self.photo_dir(game).glob("batch-*.png"))

    def _locate(self, frame: np.ndarray, game: str) -> tuple[Any, Any]:
        from vision import VisionError

        with self._locating:
            rect = self._tracking_rectifier(game)
            try:
                return rect, rect.locate(frame)
            except VisionError as exc:
                raise SetupError(str(exc)) from None

    # ---- calibration screen

    def check_markers(self) -> str:
        game = self._game()
        _, loc = self._locate(self._still(), game)
        seen = ", ".join(str(m) for m in loc.seen)
        fit = f"{loc.residual_mm:.1f}"
        if loc.missing:
            line = T("markers {seen} seen, {hidden} hidden; fit within {mm} mm", seen=seen,
                     hidden=", ".join(str(m) for m in loc.missing), mm=fit)
        else:
            line = T("markers {seen} seen; fit within {mm} mm", seen=seen, mm=fit)
        self.hub.set_status("calibration", line)
        return line

    def calibrate_colours(self) -> str:
        from vision import VisionError
        from vision.enroll import calibrate_from_frame

        game = self._game()
        names = self._names()
        frame = self._still()
        try:
            colours = calibrate_from_frame(frame, self._rectifier(game, px_per_mm=2.0), names)
        except VisionError as exc:
            raise SetupError(T("colour calibration: {why}", why=str(exc))) from None
        out = self.cfg.refs_path(game)
        out.mkdir(parents=True, exist_ok=True)
        colours.save(out / "colours.json")
        line = T("calibrated {colours} into {file}", colours=comma(names), file=str(out / "colours.json"))
        self.hub.set_status("calibration", line)
        return line

    # ---- enrolment screen

    def _say_next_batch(self) -> None:
        session = self.hub.session
        if session is None:
            return
        game = session.setup.game
        if self.boards.game() is not None:  # a printed board: its own steps
            self.boards.say()
            return
        try:
            need, have = self.batches_needed(game), len(self.captured(game))
        except TablehubError as exc:  # no catalog for this game: nothing to enrol
            self.hub.set_status("enrolment", T("nothing to enrol: {why}", why=exc.text))
            return
        if have >= need:
            self.hub.set_status("enrolment", T("all {n} batch(es) captured: press Build the references", n=need))
        else:
            layout = self._layout(game)
            ids = self._catalog(game).tile_ids[have * layout.capacity:(have + 1) * layout.capacity]
            self.hub.set_status("enrolment", T("batch {i} of {n}: lay {first} .. {last} ({count} tiles, {columns} per "
                                               "row, north up) in the boxes the preview shows, then Capture this "
                                               "batch", i=have + 1, n=need, first=ids[0], last=ids[-1], count=len(ids),
                                               columns=layout.columns))

    def capture(self) -> str:
        import cv2

        game = self._game()
        need, have = self.batches_needed(game), len(self.captured(game))
        if have >= need:
            raise SetupError(T("all {n} batch(es) are captured: Build the references, or Start over", n=need))
        frame = self._still()
        self._locate(frame, game)  # refuse a photo without the mat
        folder = self.photo_dir(game)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"batch-{have:02d}.png"
        if not cv2.imwrite(str(path), frame):
            raise SetupError(T("{path}: could not write the photo (disk full or read-only?)", path=str(path)))
        self._say_next_batch()
        return T("captured batch {i} of {n} ({path})", i=have + 1, n=need, path=str(path))

    def build(self) -> str:
        from vision import VisionError
        from vision.enroll import read_image, refs_from_frames

        from .setup_files import keep_lens

        game = self._game()
        photos = self.captured(game)
        need = self.batches_needed(game)
        if len(photos) < need:
            raise SetupError(T("{have} of {n} batch(es) captured: capture the rest first", have=len(photos), n=need))
        mat = self._mat(game)
        frames, mappings = [], []
        for photo in photos:
            frame = read_image(photo)
            rect, loc = self._locate(frame, game)
            size = (frame.shape[1], frame.shape[0])
            frames.append(frame)
            mappings.append(lambda pts, rect=rect, loc=loc, size=size: rect.mat_to_image(pts, loc, size))
        try:
            refs = refs_from_frames(frames, mappings, self._catalog(game), mat, list(range(len(photos))),
                                    self.GAP_MM, camera=self.cfg.camera.source)
        except VisionError as exc:
            raise SetupError(T("enrolment: {why}", why=str(exc))) from None
        out = self.cfg.refs_path(game)
        out.mkdir(parents=True, exist_ok=True)
        mat.save(out / "mat.json")
        keep_lens(out, self._lens())
        refs.save(out)  # index.json last: the recognizer reloads when it changes
        line = T("enrolled {n} tile types of {game} into {folder}: the table is read from now on",
                 n=len(refs.tile_ids), game=game, folder=str(out))
        self.hub.set_status("enrolment", line)
        return line

    def reset(self) -> str:
        game = self._game()
        photos = self.captured(game)
        for p in photos:
            p.unlink()
        self._say_next_batch()
        return T("forgot {n} captured batch(es)", n=len(photos))

    # ---- preview

    def preview(self, overlay: str) -> np.ndarray | None:
        """The newest frame with what the screen needs drawn on it (``live``: as it is)."""
        if overlay == "enrolment":
            self._say_next_batch()  # the game on the table may have changed since the last line
        frame = self._frame()
        if frame is None or overlay == "live" or self.hub.session is None:
            return frame
        import cv2

        game = self.hub.session.setup.game
        if overlay == "enrolment" and self.boards.game() is not None:  # a printed board: the board's steps
            return self.boards.preview(frame)
        out = frame.copy()
        try:
            rect, loc = self._locate(frame, game)
        except SetupError as exc:
            cv2.putText(out, drawable(reason(exc))[:90], (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 255), 2,
                        cv2.LINE_AA)  # in the reader's language (tablehub.i18n.drawn_in)
            return out
        size = (frame.shape[1], frame.shape[0])

        def draw_box(cx: float, cy: float, half: float, label: str, colour: tuple[int, int, int],
                     half_y: float | None = None) -> None:
            hy = half if half_y is None else half_y
            sq = np.array([[cx - half, cy - hy], [cx + half, cy - hy], [cx + half, cy + hy],
                           [cx - half, cy + hy]], np.float64)
            pts = rect.mat_to_image(sq, loc, size).round().astype(np.int32)
            cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
            if label:
                x, y = pts.min(axis=0)
                cv2.putText(out, label, (int(x) + 3, int(y) + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1,
                            cv2.LINE_AA)

        mat = rect.mat
        x, y, w, h = mat.play_rect_mm
        draw_box(x + w / 2, y + h / 2, w / 2, "", (0, 215, 255), half_y=h / 2)  # the play area
        if overlay == "calibration":
            cx, cy = mat.play_centre_mm
            names = self._names()
            first = -(len(names) // 2)
            for i, name in enumerate(names):
                draw_box(cx + (first + i) * mat.tile_mm, cy, mat.tile_mm / 3, name, (255, 255, 255))
        elif overlay == "enrolment":
            try:
                layout, ids = self._layout(game), self._catalog(game).tile_ids
            except TablehubError:  # a game without tiles
                return out
            have = len(self.captured(game))
            for i, tid in enumerate(ids[have * layout.capacity:(have + 1) * layout.capacity]):
                cx, cy = layout.centre_mm(i)
                draw_box(cx, cy, mat.tile_mm / 2, tid, (255, 255, 255))
        return out
