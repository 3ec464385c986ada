"""The owner's own board, set up from the phone: a Karibik board traced from a photo and
corrected by hand, Tahiti's track order recorded space by space (the "Trace the board"
screen, docs/karibik.md and docs/tahiti.md).

:class:`BoardSetup` keeps everything in ``<data>/boards/`` so a phone that reloads (or a hub
that restarts) loses nothing:

- ``karibik-photo.jpg``: the photo straightened to the board (what the corrections are drawn over);
- ``karibik-draft.json`` / ``tahiti-draft.json``: the draft being corrected (server-side state);
- ``karibik.json`` / ``tahiti.json``: the saved board files, in the format the engines load
  (checked by the same loaders before they are written);
- ``use.json``: which saved boards new games started from the page play on.

The photo comes from the table's camera (the newest frame: the service holds the camera) or is
uploaded from the phone in pieces small enough for the page's request cap (:meth:`upload`).
"""
from __future__ import annotations

import base64
import binascii
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from .games.base import TablehubError
from .i18n import T, reason

GAMES = ("karibik", "tahiti")
#: a piece of an uploaded photo (bytes before base64): with base64 it fits the page's 64 KiB request cap
UPLOAD_PART = 40 * 1024
#: the largest photo taken in pieces (bytes)
MAX_PHOTO = 8 * 1024 * 1024
#: a longer photo side is scaled down to this before tracing (pixels)
MAX_SIDE = 2400
#: the board sizes accepted (mm, each side)
SIZE_RANGE = (100.0, 2000.0)
DEFAULT_SIZE = (600.0, 420.0)
MAX_BOARD_NAME = 60


class BoardSetupError(TablehubError):
    """A board set-up step that cannot be done: one line naming the field or what is missing."""


def _write(path: Path, data: bytes) -> None:
    """Write atomically (a cut-off write leaves the old file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise BoardSetupError(T("{path}: could not write ({why})", path=str(path),
                                why=exc.strerror or str(exc))) from None


def _json(data: Any) -> bytes:
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def parse_size(value: Any, field: str = "size_mm") -> tuple[float, float]:
    """A board size ``[width, height]`` in mm; one line naming ``field`` when it is not one."""
    lo, hi = SIZE_RANGE
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            or not all(lo <= v <= hi for v in value)):
        raise BoardSetupError(T("'{field}' must be the board's [width, height] in mm, each {lo} to {hi}, got {value}",
                                field=field, lo=format(lo, "g"), hi=format(hi, "g"), value=str(value)[:60]))
    return float(value[0]), float(value[1])


class BoardSetup:
    """The board screens' state and actions (module docstring). ``frame()``: the newest camera
    frame, or ``None`` (no camera, or none yet)."""

    def __init__(self, data_dir: str | Path, frame: Callable[[], np.ndarray | None] = lambda: None):
        self.folder = Path(data_dir) / "boards"
        self._frame = frame
        self._lock = threading.RLock()
        self._upload: dict[str, Any] | None = None

    # ---- files

    def draft_path(self, game: str) -> Path:
        return self.folder / f"{self._game(game)}-draft.json"

    def saved_path(self, game: str) -> Path:
        return self.folder / f"{self._game(game)}.json"

    def photo_path(self, game: str) -> Path | None:
        path = self.folder / f"{self._game(game)}-photo.jpg"
        return path if path.is_file() else None

    @staticmethod
    def _game(game: str) -> str:
        if game not in GAMES:
            raise BoardSetupError(T("boards are set up for {games}, not {game}", games=", ".join(GAMES),
                                    game=repr(str(game)[:30])))
        return game

    def _read(self, path: Path) -> Any:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise BoardSetupError(T("{path}: unreadable ({why}); start over on the board screen", path=str(path),
                                    why=str(exc))) from None

    def draft(self, game: str) -> dict[str, Any] | None:
        """The draft being corrected (``None`` before a trace, for Karibik; Tahiti starts empty)."""
        data = self._read(self.draft_path(game))
        if data is None and game == "tahiti":
            from .games.tahiti.draft import new_draft

            return new_draft()
        return data

    def _uses(self) -> dict[str, bool]:
        data = self._read(self.folder / "use.json")
        return {g: bool(data.get(g)) for g in GAMES} if isinstance(data, dict) else {g: False for g in GAMES}

    # ---- what the page shows

    def state(self, game: str) -> dict[str, Any]:
        draft = self.draft(game)
        module = self._module(game)
        saved = self.saved_path(game)
        out: dict[str, Any] = {"game": game, "draft": draft is not None, "use": self._uses()[game],
                               "photo": self.photo_path(game) is not None, "camera": self._frame() is not None,
                               "saved": None}
        if saved.is_file():
            data = self._read(saved)
            out["saved"] = {"path": str(saved), "name": data.get("name") if isinstance(data, dict) else None,
                            "when": time.strftime("%Y-%m-%d %H:%M", time.localtime(saved.stat().st_mtime))}
        if draft is not None:
            out["problem"] = module.problem(draft)
            if game == "karibik":
                out["progress"] = module.progress(draft)
                out["size_mm"] = draft["size_mm"]
                out["colours"] = draft["colours"]
            else:
                out["counts"] = module.counts(draft)
                out["track"] = draft["track"]
        return out

    @staticmethod
    def _module(game: str) -> Any:
        if game == "karibik":
            from .games.karibik import draft as module
        else:
            from .games.tahiti import draft as module
        return module

    # ---- Karibik: the photo and the trace

    def trace_frame(self, size_mm: Any) -> str:
        """Trace the board from the newest camera frame."""
        size = parse_size(size_mm)
        frame = self._frame()
        if frame is None:
            raise BoardSetupError(T("no camera frame: this hub has no camera or it has not delivered one yet; "
                                    "upload a photo instead"))
        return self.trace_image(frame, size)

    def upload(self, part: Any, parts: Any, data: Any, size_mm: Any = None) -> str:
        """One piece of a photo sent from the phone (``part`` 0 .. ``parts`` - 1, in order, each at
        most :data:`UPLOAD_PART` bytes as base64); the last one traces the photo."""
        if not isinstance(parts, int) or isinstance(parts, bool) or not 1 <= parts <= MAX_PHOTO // UPLOAD_PART:
            raise BoardSetupError(T("'parts' must be the number of pieces, 1 to {most}, got {value}",
                                    most=MAX_PHOTO // UPLOAD_PART, value=str(parts)[:30]))
        if not isinstance(part, int) or isinstance(part, bool) or not 0 <= part < parts:
            raise BoardSetupError(T("'part' must be the piece's number, 0 to {most}, got {value}", most=parts - 1,
                                    value=str(part)[:30]))
        if not isinstance(data, str) or len(data) > 4 * (UPLOAD_PART // 3 + 1):
            raise BoardSetupError(T("'data' must be the piece as base64 text, at most {most} bytes", most=UPLOAD_PART))
        try:
            piece = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise BoardSetupError(T("'data' is not base64 text")) from None
        size = parse_size(size_mm) if part == parts - 1 else None
        with self._lock:
            if part == 0:
                self._upload = {"parts": parts, "next": 0, "bytes": bytearray()}
            up = self._upload
            if up is None or up["parts"] != parts or up["next"] != part:
                expected = "0" if up is None else str(up["next"])
                self._upload = None
                raise BoardSetupError(T("'part': piece {part} came out of order (expected {expected}); send the photo "
                                        "again from piece 0", part=part, expected=expected))
            up["bytes"] += piece
            up["next"] += 1
            if part < parts - 1:
                return f"piece {part + 1} of {parts} received"
            raw, self._upload = bytes(up["bytes"]), None
        return self.trace_bytes(raw, size)

    def trace_bytes(self, raw: bytes, size_mm: Any) -> str:
        import cv2

        image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR) if raw else None
        if image is None:
            raise BoardSetupError(T("the photo is not a JPEG or PNG picture"))
        return self.trace_image(image, parse_size(list(size_mm)) if size_mm is not None else DEFAULT_SIZE)

    def trace_image(self, image: np.ndarray, size_mm: tuple[float, float]) -> str:
        """Trace ``image`` and start a new draft from it (the old draft is replaced; the saved board stays)."""
        import cv2

        from vision import VisionError
        from vision.boards import trace_board

        from .games.karibik.board import draft_board

        h, w = image.shape[:2]
        if max(h, w) > MAX_SIDE:
            scale = MAX_SIDE / max(h, w)
            image = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
        try:
            traced = trace_board(image, size_mm)
        except VisionError as exc:
            raise BoardSetupError(reason(exc)) from None
        draft = draft_board(size_mm, traced.polygons, traced.centres, traced.adjacency)
        ok, jpeg = cv2.imencode(".jpg", traced.canvas, [cv2.IMWRITE_JPEG_QUALITY, 85])
        with self._lock:
            _write(self.folder / "karibik-photo.jpg", jpeg.tobytes())
            _write(self.draft_path("karibik"), _json(draft))
        if traced.found_edge:
            return T("{spaces} spaces and {pairs} adjacent pairs proposed", spaces=len(draft["spaces"]),
                     pairs=len(draft["adjacency"]))
        return T("{spaces} spaces and {pairs} adjacent pairs proposed (board edge NOT found: the whole photo was "
                 "taken as the board)", spaces=len(draft["spaces"]), pairs=len(draft["adjacency"]))

    def start_draft(self, game: str, draft: Mapping[str, Any], photo: bytes | None = None) -> None:
        """Begin correcting ``draft`` (a traced draft made elsewhere, e.g. by ``tablehub board trace``)."""
        with self._lock:
            if photo is not None:
                _write(self.folder / f"{self._game(game)}-photo.jpg", photo)
            _write(self.draft_path(game), _json(dict(draft)))

    # ---- corrections, saving

    def edit(self, game: str, request: Any) -> str:
        """One correction (:func:`tablehub.games.karibik.draft.apply`, :func:`tablehub.games.tahiti.draft.apply`)."""
        module = self._module(self._game(game))
        with self._lock:
            draft = self.draft(game)
            if draft is None:
                raise BoardSetupError(T("no traced board yet: take or upload a photo of the empty board first"))
            new, message = module.apply(draft, request)
            _write(self.draft_path(game), _json(new))
        return message

    def save(self, game: str, name: Any = None, use: bool = True) -> str:
        """Write the board file when the loader accepts it (else its one line) and, with ``use``,
        play new games of ``game`` started from the page on it."""
        if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > MAX_BOARD_NAME
                                 or not name.isprintable()):
            raise BoardSetupError(T("'name' must be the board's name, 1 to {most} characters, got {value}",
                                    most=MAX_BOARD_NAME, value=repr(str(name)[:30])))
        module = self._module(self._game(game))
        with self._lock:
            draft = self.draft(game)
            if draft is None:
                raise BoardSetupError(T("no traced board yet: take or upload a photo of the empty board first"))
            problem = module.problem(draft)
            if problem:
                raise BoardSetupError(T("not saved: {problem}", problem=problem))
            board = module.finished(draft, name.strip() if isinstance(name, str) else None)
            path = self.saved_path(game)
            _write(path, _json(board))
            if use:
                self.use(game, True)
        playing = f"; new {game} games started from the page play on it" if use else ""
        return f"saved as {path.name} in the data folder's boards/{playing}"

    def use(self, game: str, on: Any) -> str:
        if not isinstance(on, bool):
            raise BoardSetupError(T("'use' must be true or false, got {value}", value=str(on)[:30]))
        self._game(game)
        if on and not self.saved_path(game).is_file():
            raise BoardSetupError(T("no saved {game} board yet: save one first", game=game))
        with self._lock:
            uses = self._uses()
            uses[game] = on
            _write(self.folder / "use.json", _json(uses))
        return f"new {game} games play on {'the saved board' if on else 'the packaged board'}"

    def reset(self, game: str) -> str:
        """Forget the draft (the saved board stays)."""
        with self._lock:
            self.draft_path(game).unlink(missing_ok=True)
            if game == "karibik":
                (self.folder / "karibik-photo.jpg").unlink(missing_ok=True)
        kept = " (the saved board stays)" if self.saved_path(game).is_file() else ""
        return f"the {game} draft is forgotten{kept}"

    def board_option(self, game: str) -> dict[str, Any] | None:
        """The saved board as the game option ``board`` (the object itself, so the game's record
        stays self-contained) when new games of ``game`` play on it, else ``None``."""
        if game not in GAMES or not self._uses()[game]:
            return None
        data = self._read(self.saved_path(game))
        return data if isinstance(data, dict) else None

    def saved_board(self, game: str) -> Any:
        """The saved board, loaded by the engine's own loader (``None`` when none is saved)."""
        path = self.saved_path(game)
        if not path.is_file():
            return None
        if game == "karibik":
            from .games.karibik.board import load_board
        else:
            from .games.tahiti.board import load_board
        return load_board(str(path))
