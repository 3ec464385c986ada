"""The table hub put together, for ``tablehub run`` (the Pi service) and ``tablehub demo`` (the same on
a simulated table): the page's hub, the live table (camera, tracker, buttons), the recognizers of
the game on the table. Not a command (the CLI skips modules whose name starts with "_"); it lives
beside the commands because it starts the page (``web``), which the core never imports.
"""
from __future__ import annotations

import logging
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from ..config import Config
from ..games.base import Setup, TablehubError
from ..hardware.cameras import Camera, SupervisedCamera
from ..hardware.panel import Panel, PanelError
from ..hardware.sdnotify import Notifier
from ..setup_files import configured_lens, lens_path
from ..store import Store
from ..table_setup import GameRecognizers, SetupScreens
from ..tracking.live import LiveTable
from ..tracking.recognizer import RecognitionUnavailable, make_recognizer
from ..tracking.tracker import Tracker

log = logging.getLogger(__name__)


def make_hub(cfg: Config, store: Store, pin: str | None, screens: "list[SetupScreens]") -> Any:
    """The page's hub; its camera preview is drawn by the set-up screens (``screens[0]``, set once built)."""
    from web.hub import Hub

    def preview(overlay: str) -> bytes | None:
        frame = screens[0].preview(overlay) if screens else None
        if frame is None:
            return None
        import cv2

        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return buf.tobytes() if ok else None

    return Hub(store, pin=pin, camera_preview=preview, port=cfg.web.port)


def open_game(hub: Any, cfg: Config) -> None:
    """Resume the latest unfinished game, or start the configured one."""
    if hub.store.latest_open_game() is not None:
        session = hub.resume()
        log.info("resumed game %d (%s), turn %d", session.game_id, session.setup.game, session.game.turn)
    else:
        setup = Setup(cfg.game.name, tuple(cfg.game.players), tuple(cfg.game.colors))
        session = hub.start(setup)
        log.info("started game %d (%s) for %s", session.game_id, setup.game, ", ".join(setup.players))


def start_web(hub: Any, cfg: Config) -> Any:
    """The page in a background thread (waitress via web.server.BackgroundServer; ``.stop()`` ends it)."""
    from web.server import BackgroundServer

    return BackgroundServer(hub, cfg.web.host, cfg.web.port, threads=cfg.web.threads)


def table_recognizer(cfg: Config, game: str) -> Callable:
    """The live recognizer: the references enrolled for ``game`` (``[vision] refs``), seen through the camera's
    lens file when there is one (``[camera] lens``, else ``lens-<camera>.json`` in the data folder).

    Raises :class:`RecognitionUnavailable` saying what is missing or unreadable (the hub
    then runs without recognition: every game stays playable from the phone).
    """
    refs = cfg.refs_path(game)
    if not (refs / "index.json").is_file():
        raise RecognitionUnavailable(f"table recognition is off: no references in {refs}; enrol the set "
                                     f"('tablehub enroll --game {game} --out {refs} ...') or set [vision] refs")
    from vision import VisionError

    try:
        lens = configured_lens(cfg, camera_size(cfg))  # None: the lens.json enrolled with the references, if any
    except (TablehubError, VisionError) as exc:  # missing where named, unreadable, made for other frames
        raise RecognitionUnavailable(f"table recognition is off: {exc}") from None
    return make_recognizer(game, references=str(refs), lens=lens)


def camera_size(cfg: Config) -> tuple[int, int] | None:
    """The frame size the configured camera delivers (``None`` for recordings: any size)."""
    return None if cfg.camera.source == "replay" else (cfg.camera.width, cfg.camera.height)


def recognition_files(cfg: Config, game: str, camera_lens: Path) -> list[Path]:
    """The files whose change turns ``game``'s recognition on again (or off): its references, colours,
    mat and lens, and the camera's lens file ``camera_lens`` (:func:`~.lens.lens_path`, resolved once:
    the source "auto" names the camera found, whose file ``tablehub lens calibrate`` writes)."""
    refs = cfg.refs_path(game)
    return [refs / "index.json", refs / "colours.json", refs / "mat.json", refs / "lens.json", camera_lens]


def game_recognizers(cfg: Config, hub: Any) -> GameRecognizers:
    """The recognizer of whichever game is on the table, (re)loaded from its references on disk."""
    def playing() -> tuple[int, str] | None:
        session = hub.session
        return None if session is None else (session.game_id, session.setup.game)

    camera_lens = lens_path(cfg)
    return GameRecognizers(lambda game: table_recognizer(cfg, game), playing,
                           lambda game: recognition_files(cfg, game, camera_lens))


def table_mat(cfg: Config, game: str) -> Any:
    """The mat for enrolling and calibrating from the page: ``[vision] mat``, else the mat enrolled with
    ``game``'s references, else the default mat."""
    from vision.mat import Mat

    enrolled = cfg.refs_path(game) / "mat.json"
    path = Path(cfg.vision.mat) if cfg.vision.mat else enrolled if enrolled.is_file() else None
    try:
        return Mat.load(path) if path is not None else Mat.default()
    except TablehubError as exc:
        raise TablehubError(f"[vision] mat: {exc}") from None


def build_table(cfg: Config, hub: Any, camera_factory: Callable[[], Camera], panel: Panel | None,
                notifier: Notifier, recognizer: Callable | None) -> LiveTable:
    camera = SupervisedCamera(camera_factory, retry_s=cfg.camera.retry_s)
    tracker = None
    if recognizer is not None:
        t = cfg.tracking
        tracker = Tracker(lambda: hub.session, recognizer, quiet_frames=t.quiet_frames,
                          motion_threshold=t.motion_threshold, motion_fraction=t.motion_fraction,
                          confident=t.confident, margin=t.margin)
    return LiveTable(camera, tracker, hub, panel, notifier, fps=cfg.camera.fps)


def open_panel(cfg: Config, factory: Any = None) -> Panel | None:
    try:
        return Panel(cfg.pins, factory=factory).start()
    except PanelError as exc:
        log.warning("buttons and lights are off: %s", exc)
        return None


def stop_on_signals(stop: threading.Event) -> None:
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
