"""Enrolling a printed board and its pieces from the phone's set-up screen (Karibik, Tahiti): the
steps of ``tablehub boardcam enrol-board / enrol-pieces / enrol-chests`` (docs/boardcam.md), on the
camera's newest frame, for the game on the table.

1. **The empty board.** The frame's board corners come from, in this order: four corners tapped on
   the preview (top-left, top-right, bottom-right, bottom-left as the board's print reads); the
   board already enrolled, found again by its art (enrolling it again in another light); the
   board's edge (:func:`vision.boards.find_board`, on a darker table). Written to the game's
   references folder (``[vision] refs``, default ``<data>/refs/<game>``).
2. **The pieces**, photo by photo as the game's adapter lists them (``board_moves.enrol_rounds``:
   Karibik's ships with a chest face up and one face down, then the ships laden; Tahiti's boats,
   sailboats and the disc, the disc's second face in a second photo): each piece on a space of its
   own, the spaces far apart (:func:`spread`), the same space for a piece in every photo.
3. **The chests' printed values** (a game whose adapter has ``chest_values``: Karibik), one face-up
   chest of each value.

Each step writes through :mod:`tablehub.commands.boardcam`'s functions (the command line's), so the
hub's running recognizer (:class:`tablehub.table_setup.GameRecognizers`) loads the new files by
their stamps, without a restart. A step that fails says why in one line and writes nothing: what
was enrolled before stays. The status line (topic ``enrolment``) says the next step; the preview
draws the board found and the spaces where the next photo's pieces go, numbered as in the line.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .config import Config
from .games.base import TablehubError
from .i18n import T, Text, comma, drawable, reason

#: the preview registers the board at most this often (seconds); between, it draws the last registration
PREVIEW_EVERY_S = 1.0
#: corners tapped on the preview, in this order
CORNER_WORDS = (T("top-left"), T("top-right"), T("bottom-right"), T("bottom-left"))


class BoardEnrolError(TablehubError):
    """A board enrolment step that cannot be done now; one line saying why and what to do."""


@dataclass(frozen=True)
class Spot:
    """One piece of an enrolment photo: its template's ``name`` and ``kind``, what it ``carries`` (a pearl,
    a chest), the words for the page (``said``), and the ``space`` it goes on."""

    name: str
    kind: str
    carries: Any
    said: Any
    space: int


def board_adapter(game: str) -> Any:
    from .tracking.boardcam import board_adapter as adapter

    return adapter(game)


def spread(board: Any, candidates: list[int], n: int) -> list[int]:
    """``n`` spaces of ``candidates`` far apart: the one nearest the board's top-left corner, then each next
    the farthest from those already chosen (the pieces of an enrolment photo must not touch)."""
    order = sorted(s for s in set(candidates) if s in board.centres)
    if len(order) < n:
        raise BoardEnrolError(T("the board has {have} spaces for the {n} pieces of this photo", have=len(order), n=n))
    xy = np.array([board.centres[s] for s in order], np.float64)
    first = int(np.argmin(xy.sum(axis=1)))
    chosen = [first]
    gap = np.linalg.norm(xy - xy[first], axis=1)  # each space's distance to the nearest chosen one
    while len(chosen) < n:
        nxt = int(np.argmax(gap))
        chosen.append(nxt)
        gap = np.minimum(gap, np.linalg.norm(xy - xy[nxt], axis=1))
    return [order[i] for i in chosen]


def piece_rounds(adapter: Any, board: Any) -> list[list[Spot]]:
    """The photos of step 2 (module docstring), each piece on its space."""
    rounds = adapter.enrol_rounds()
    where = getattr(adapter, "enrol_spaces", None)
    candidates = list(where(board) if where is not None else board.spaces)
    spaces = spread(board, candidates, len(rounds[0]))
    first = {name: s for (name, _, _, _), s in zip(rounds[0], spaces)}
    by_kind: dict[str, int] = {}
    for (_, kind, _, _), s in zip(rounds[0], spaces):
        by_kind.setdefault(kind, s)
    out = [[Spot(n, k, c, said, s) for (n, k, c, said), s in zip(rounds[0], spaces)]]
    for later in rounds[1:]:  # the same piece on the same space (a ship laden; the disc's other face)
        row = []
        for i, (n, k, c, said) in enumerate(later):
            s = first.get(n, by_kind.get(k.split(" ")[0], spaces[i % len(spaces)]))
            row.append(Spot(n, k, c, said, s))
        out.append(row)
    return out


def chest_spots(adapter: Any, board: Any) -> list[Spot]:
    """Step 3: one face-up chest of each value, on spaces far apart."""
    values = list(adapter.chest_values)
    return [Spot(str(v), "chest", v, f"{v:,}", s) for v, s in zip(values, spread(board, list(board.spaces),
                                                                                    len(values)))]


class BoardEnrolment:
    """The board steps of the page's enrolment screen (module docstring). ``frame()``: the newest camera
    frame or ``None``; ``lens()``: the camera's configured lens or ``None``."""

    def __init__(self, hub: Any, cfg: Config, frame: Callable[[], np.ndarray | None],
                 lens: Callable[[], Any] = lambda: None):
        self.hub, self.cfg = hub, cfg
        self._frame, self._lens = frame, lens
        self._lock = threading.RLock()
        self._registering = threading.Lock()
        self._taps: dict[str, list[tuple[float, float]]] = {}  # game -> corners tapped (fractions of the frame)
        self._registrar: tuple[tuple, Any] | None = None  # (refs stamp, (board, reference, registrar))
        self._seen: tuple[float, Any] = (0.0, None)  # (when, registration or the reason it failed) for the preview

    # ---- what is on the table

    def game(self) -> str | None:
        """The running game when its board is read by the camera (Karibik, Tahiti), else ``None``."""
        session = self.hub.session
        if session is None or board_adapter(session.setup.game) is None:
            return None
        return session.setup.game

    def _game(self) -> tuple[str, Any]:
        session = self.hub.session
        if session is None:
            raise BoardEnrolError(T("start or resume a game first: the set-up is per game"))
        game = session.setup.game
        adapter = board_adapter(game)
        if adapter is None:
            raise BoardEnrolError(T("{game} has no printed board the camera reads: its tiles are enrolled with "
                                    "Capture this batch", game=game))
        return game, adapter

    def _board_spec(self) -> str:
        spec = self.hub.session.setup.options.get("board") if self.hub.session is not None else None
        return spec if isinstance(spec, str) and spec else "provisional"

    def refs(self, game: str) -> Path:
        return self.cfg.refs_path(game)

    def _still(self) -> np.ndarray:
        frame = self._frame()
        if frame is None:
            raise BoardEnrolError(T("no camera frame yet: check the camera line on this screen"))
        return frame

    def _enrolled(self, game: str) -> tuple[Any, Any, Any] | None:
        """(board, reference, registrar) of ``game``'s enrolled empty board, or ``None``; kept while its files
        stay the same."""
        from .commands.boardcam import open_refs
        from .table_setup import _stamp
        from .tracking.boardcam import EMPTY, LENS, META

        folder = self.refs(game)
        if not (folder / META).is_file():
            return None
        key = (str(folder), _stamp([folder / META, folder / EMPTY, folder / LENS]))
        with self._lock:
            if self._registrar is None or self._registrar[0] != key:
                from vision import VisionError
                from vision.boardreg import BoardRegistrar

                try:
                    meta, board, ref, kept = open_refs(str(folder))
                except (TablehubError, VisionError):
                    return None
                if meta.get("game", "karibik") != game:
                    return None
                self._registrar = (key, (board, ref, BoardRegistrar(ref, kept if self._lens() is None else self._lens())))
            return self._registrar[1]

    def _kept_lens(self, game: str) -> Any:
        """The lens for this game's enrolment: the configured one, else the one kept with its references."""
        lens = self._lens()
        if lens is None:
            enrolled = self._enrolled(game)
            lens = enrolled[2].lens if enrolled is not None else None
        return lens

    def _board(self, game: str, adapter: Any) -> Any:
        """The board enrolled for ``game`` (its spaces), else the one the game is played on."""
        enrolled = self._enrolled(game)
        if enrolled is not None:
            return enrolled[0]
        try:
            return adapter.load(self._board_spec())
        except TablehubError as exc:
            raise BoardEnrolError(T("the board {spec}: {why}", spec=self._board_spec(), why=exc.text)) from None

    def progress(self, game: str, adapter: Any) -> tuple[str, int]:
        """The next step: ``("board", 0)``, ``("pieces", photo)``, ``("chests", 0)`` or ``("done", 0)``."""
        from vision.boardpieces import PieceBook

        from .tracking.boardcam import CHESTS, PIECES

        folder = self.refs(game)
        if self._enrolled(game) is None:
            return "board", 0
        try:
            have = {(t.name, t.kind) for t in PieceBook.load(folder / PIECES).templates} \
                if (folder / PIECES).is_file() else set()
        except TablehubError:
            have = set()
        for i, photo in enumerate(adapter.enrol_rounds()):
            if not all((name, kind) in have for name, kind, _, _ in photo):
                return "pieces", i
        if getattr(adapter, "chest_values", None) and not (folder / CHESTS).is_file():
            return "chests", 0
        return "done", 0

    # ---- the status line

    def say(self) -> None:
        """The enrolment screen's line for a board game: the next step."""
        try:
            game, adapter = self._game()
            self.hub.set_status("enrolment", self.next_step(game, adapter))
        except BoardEnrolError as exc:
            self.hub.set_status("enrolment", exc.text)

    def next_step(self, game: str, adapter: Any) -> Text:
        step, photo = self.progress(game, adapter)
        if step == "board":
            taps = self._taps.get(game, [])
            if 0 < len(taps) < 4:
                return T("step 1, the empty board: {n} of 4 corners tapped; tap the {corner} corner next",
                         n=len(taps), corner=CORNER_WORDS[len(taps)])
            if len(taps) == 4:
                return T("step 1, the empty board: four corners tapped; press Enrol the empty board")
            return T("step 1: lay the whole empty board in view and press Enrol the empty board (if its edge is not "
                     "found, first tap its four corners on the preview: top-left, top-right, bottom-right, "
                     "bottom-left as the board reads)")
        board = self._board(game, adapter)
        if step == "pieces":
            rounds = piece_rounds(adapter, board)
            return T("step 2, the pieces, photo {i} of {n}: put {layout}; then press Enrol the pieces",
                     i=photo + 1, n=len(rounds), layout=self._layout(board, rounds[photo]))
        if step == "chests":
            return T("step 3, the chests' values: put one chest face up of each value, {layout}; then press "
                     "Enrol the chest values", layout=self._layout(board, chest_spots(adapter, board)))
        return T("{game}'s board and pieces are enrolled: the table is read. Enrol again after moving the camera "
                 "or changing the light", game=game)

    @staticmethod
    def _layout(board: Any, spots: list[Spot]) -> Any:
        return comma([T("{i}: {piece} on {space}", i=i + 1, piece=s.said, space=space_said(board, s.space))
                      for i, s in enumerate(spots)])

    # ---- the buttons

    def tap(self, fx: float, fy: float) -> Text:
        """A corner tapped on the preview (fractions of the frame, 0 to 1); a fifth starts again."""
        game, _ = self._game()
        with self._lock:
            taps = self._taps.setdefault(game, [])
            if len(taps) >= 4:
                taps.clear()
            taps.append((float(fx), float(fy)))
            n = len(taps)
        self.say()
        if n < 4:
            return T("{corner} corner set; tap the {next} corner", corner=CORNER_WORDS[n - 1], next=CORNER_WORDS[n])
        return T("four corners set: press Enrol the empty board")

    def forget_corners(self) -> Text:
        game, _ = self._game()
        with self._lock:
            n = len(self._taps.pop(game, []))
        self.say()
        return T("forgot {n} tapped corner(s)", n=n)

    def enrol_board(self) -> Text:
        from vision import VisionError
        from vision.boardreg import BoardEdgeNotFound

        from .commands.boardcam import enrol_board, register_photo

        game, adapter = self._game()
        frame = self._still()
        taps = self._taps.get(game, [])
        folder = self.refs(game)
        lens = self._kept_lens(game)
        if 0 < len(taps) < 4:
            raise BoardEnrolError(T("{n} of 4 corners tapped: tap the {corner} corner, or Forget the corners",
                                    n=len(taps), corner=CORNER_WORDS[len(taps)]))
        h, w = frame.shape[:2]
        corners, how = None, T("its edge")
        if taps:
            corners, how = np.float64(taps) * [w, h], T("the corners tapped")
        elif self._enrolled(game) is not None:  # enrolled before: found again by its art
            try:
                _, board, _, reg = register_photo(folder, frame, lens)
                bw, bh = board.size
                corners = reg.to_image(np.float64([[0, 0], [bw, 0], [bw, bh], [0, bh]]))
                how = T("the board enrolled before")
            except TablehubError:
                corners = None
        try:
            out, ref = enrol_board(frame, folder, game, self._board_spec(), corners, lens)
        except BoardEdgeNotFound:
            raise BoardEnrolError(T("the board's edge was not found: tap its four corners on the preview "
                                    "(top-left, top-right, bottom-right, bottom-left as the board reads), then "
                                    "Enrol the empty board")) from None
        except (VisionError, TablehubError) as exc:
            raise BoardEnrolError(T("the empty board: {why}", why=reason(exc))) from None
        with self._lock:
            self._taps.pop(game, None)
            self._seen = (0.0, None)
        self.say()
        return T("empty board enrolled from {how}: {n} features, written to {folder}", how=how,
                 n=len(ref.points_mm), folder=str(out))

    def enrol_pieces(self) -> Text:
        from vision import VisionError

        from .commands.boardcam import PiecesNotFound, enrol_pieces_at

        game, adapter = self._game()
        frame = self._still()
        step, photo = self.progress(game, adapter)
        if step == "board":
            raise BoardEnrolError(T("enrol the empty board first (step 1)"))
        if step != "pieces":
            photo = 0  # all enrolled: this photo starts again
        board = self._board(game, adapter)
        spots = piece_rounds(adapter, board)[photo]
        try:
            book = enrol_pieces_at(frame, self.refs(game), [(s.name, s.kind, s.space) for s in spots],
                                   add=photo > 0, lens=self._kept_lens(game))
        except PiecesNotFound as exc:
            said = {(s.name, s.space): s.said for s in spots}
            raise BoardEnrolError(_not_found([T("{piece} on {space}", piece=said.get(m, m[0]),
                                                space=space_said(board, m[1])) for m in exc.missing])) from None
        except (VisionError, TablehubError) as exc:
            raise BoardEnrolError(T("the pieces: {why}", why=reason(exc))) from None
        self.say()
        return T("photo {i} of the pieces enrolled: {n} templates in {file}", i=photo + 1, n=len(book.templates),
                 file=str(self.refs(game) / "pieces.json"))

    def enrol_chests(self) -> Text:
        from vision import VisionError

        from .commands.boardcam import enrol_chests_at

        game, adapter = self._game()
        if not getattr(adapter, "chest_values", None):
            raise BoardEnrolError(T("{game} has no chest values to enrol", game=game))
        frame = self._still()
        if self._enrolled(game) is None:
            raise BoardEnrolError(T("enrol the empty board first (step 1)"))
        board = self._board(game, adapter)
        spots = chest_spots(adapter, board)
        try:
            values = enrol_chests_at(frame, self.refs(game), [(s.carries, s.space) for s in spots],
                                     lens=self._kept_lens(game))
        except (VisionError, TablehubError) as exc:
            raise BoardEnrolError(T("the chest values: {why}", why=reason(exc))) from None
        self.say()
        return T("{n} chest values enrolled: {values}", n=len(values.patches),
                 values=", ".join(str(v) for v in sorted(values.patches)))

    # ---- the preview

    def _registration(self, frame: np.ndarray, game: str) -> Any:
        """The board found in ``frame`` (at most every :data:`PREVIEW_EVERY_S`), or the reason it was not (a Text)."""
        enrolled = self._enrolled(game)
        if enrolled is None:
            return None
        with self._registering:  # one registration at a time (phones refresh together; the matcher is shared)
            now = time.monotonic()
            with self._lock:
                when, seen = self._seen
                if seen is not None and now - when < PREVIEW_EVERY_S:
                    return seen
            reg = enrolled[2].register(frame)
            seen = reg if reg is not None else T("board not found (covered, out of view, or too few matches)")
            with self._lock:
                self._seen = (time.monotonic(), seen)
            return seen

    def preview(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with the board step drawn: the board found (or why not), the corners tapped, and the
        numbered spaces of the next photo's pieces."""
        import cv2

        out = frame.copy()
        try:
            game, adapter = self._game()
        except BoardEnrolError as exc:
            _line(out, reason(exc), (0, 0, 255))
            return out
        h, w = frame.shape[:2]
        taps = self._taps.get(game, [])
        pts = [(int(round(x * w)), int(round(y * h))) for x, y in taps]
        for i, p in enumerate(pts):
            cv2.circle(out, p, 9, (0, 215, 255), 2, cv2.LINE_AA)
            cv2.putText(out, str(i + 1), (p[0] + 10, p[1] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 215, 255), 2,
                        cv2.LINE_AA)
        if len(pts) > 1:
            cv2.polylines(out, [np.int32(pts)], len(pts) == 4, (0, 215, 255), 2, cv2.LINE_AA)
        seen = self._registration(frame, game)
        if isinstance(seen, str):
            _line(out, seen, (0, 0, 255))
            return out
        if seen is None:
            if not taps:
                from vision.boards import find_board

                quad = find_board(frame)
                if quad is None:
                    _line(out, T("board edge not found: tap its four corners (TL, TR, BR, BL)"), (0, 0, 255))
                else:
                    cv2.polylines(out, [np.int32(quad.round())], True, (0, 200, 0), 2, cv2.LINE_AA)
                    _line(out, T("board edge found: Enrol the empty board"), (0, 200, 0))
            return out
        board = self._board(game, adapter)
        bw, bh = board.size
        _poly(out, seen, [(0, 0), (bw, 0), (bw, bh), (0, bh)], (0, 200, 0), 3)
        _line(out, T("board found ({inliers} of {matches} matches agree)", inliers=seen.inliers, matches=seen.matches),
              (0, 200, 0))
        step, photo = self.progress(game, adapter)
        spots = (piece_rounds(adapter, board)[photo] if step == "pieces"
                 else chest_spots(adapter, board) if step == "chests" else [])
        big = max(0.8, 1.4 * w / 1280.0)  # a phone shows the frame a quarter of its size: numbers it can read
        for i, s in enumerate(spots):  # the space outlined, its number and piece above it (the piece stays in view)
            poly = board.polygons.get(s.space)
            if poly is not None:
                _poly(out, seen, poly, (255, 255, 255), 2)
            cx = int(seen.to_image(np.float64([board.centres[s.space]]))[0][0])
            top = int(seen.to_image(np.float64(poly if poly is not None else [board.centres[s.space]]))[:, 1].min())
            number = str(i + 1)
            name = drawable(s.said)  # the piece as the page names it ("red boat with a green pearl"), in the reader's language
            (tw, th), _ = cv2.getTextSize(number, cv2.FONT_HERSHEY_SIMPLEX, big, 2)
            (nw, _), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, 0.45 * big, 1)
            x0, y0 = cx - (tw + 6 + nw) // 2, max(th + 4, top - 6)
            cv2.rectangle(out, (x0 - 4, y0 - th - 4), (x0 + tw + 6 + nw + 4, y0 + 5), (20, 20, 20), -1)
            cv2.putText(out, number, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, big, (0, 215, 255), 2, cv2.LINE_AA)
            cv2.putText(out, name, (x0 + tw + 6, y0), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * big, (255, 255, 255), 1,
                        cv2.LINE_AA)
        return out


def _not_found(pieces: list[Any]) -> Text:
    """The pieces not found where the photo's layout puts them (nothing enrolled)."""
    return T("not found where expected: {pieces}; put each on its space and press Enrol the pieces again (nothing "
             "was enrolled)", pieces=comma(pieces))


def space_said(board: Any, space: int) -> Any:
    """A space as the page names it (``space 12 (port of Tortuga)``, Tahiti's ``BE``)."""
    return board.space_name(space)


def _line(img: np.ndarray, text: Any, colour: tuple[int, int, int]) -> None:
    """One line on top of the preview, in the language it is drawn in (:func:`tablehub.i18n.drawn_in`)."""
    import cv2

    text = drawable(text)
    cv2.putText(img, text[:90], (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 5, cv2.LINE_AA)
    cv2.putText(img, text[:90], (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2, cv2.LINE_AA)


def _poly(img: np.ndarray, reg: Any, pts_mm: Any, colour: tuple[int, int, int], width: int) -> None:
    """A board outline (mm) drawn through the registration, its sides sampled (a lens bends them)."""
    import cv2

    pts = np.asarray(pts_mm, np.float64)
    dense = np.concatenate([np.linspace(a, b, 12, endpoint=False) for a, b in zip(pts, np.roll(pts, -1, axis=0))])
    cv2.polylines(img, [reg.to_image(dense).round().astype(np.int32)], True, colour, width, cv2.LINE_AA)
