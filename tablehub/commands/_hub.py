"""Putting a running table hub together, for ``tablehub run`` and ``tablehub demo``: the game
database and the hub (PIN, notices, the game on the table), the web server, the camera table
with its tracker and recognizers, the buttons, the voice, and a clean stop on a signal.

A helper module below the commands (the CLI skips ``_`` modules): command modules import it,
never each other.
"""
from __future__ import annotations

import logging
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from ..config import Config
from ..games.base import Setup, TablehubError
from ..i18n import T, reason
from ..hardware.cameras import Camera, SupervisedCamera
from ..hardware.panel import Panel, PanelError
from ..hardware.sdnotify import Notifier
from ..photo import photo_scorer
from ..recovery import Opened, open_store
from ..setup_files import configured_lens, lens_path
from ..store import Store
from ..table_setup import GameRecognizers, SetupScreens
from ..tracking.boardcam import FILES as BOARD_FILES, board_adapter, load_recognizer as load_board_recognizer
from ..tracking.live import LiveTable
from ..tracking.recognizer import RecognitionUnavailable, make_recognizer
from ..tracking.sundarefs import FILES as SUNDA_FILES, load_recognizer as load_sunda_recognizer
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

    return Hub(store, camera_preview=preview, port=cfg.web.port, access=pin_keeper(cfg, pin),
               hostnames=("tablehub.local", *cfg.web.hosts))


def pin_keeper(cfg: Config, pin: str | None) -> Any:
    """The PIN, the cookie key and the guessing brake, kept in the data folder (``tablehub pin``);
    in memory only when the folder cannot hold them (the hub still comes up)."""
    from ..access import PinError, PinKeeper, check_pin_format

    if pin is not None:
        pin = check_pin_format(pin)  # a bad --table-pin is one line
    try:
        return PinKeeper(cfg.data_dir, pin)
    except PinError as exc:
        log.warning("%s: the PIN is kept in memory only until the data folder is fixed", exc)
        return PinKeeper(pin=pin)


def lift_on_hold(panel: Panel | None, hub: Any) -> None:
    """Holding NEXT and CHECK together lifts a PIN lockout (one chirp when there was one)."""
    if panel is None:
        return

    def lift() -> None:
        if hub.lift_pin_lockout("the NEXT+CHECK hold on the table"):
            panel.beep("ok")

    panel.on("both", "hold", lift)


#: notices about saving (not about a game that was lost): the configured game still starts, in memory
SAVING_NOTICES = ("not-saving", "saving")


def open_hub(cfg: Config, pin: str | None, screens: "list[SetupScreens]") -> tuple[Any, Opened]:
    """The hub on the game database, whatever state the file or its folder is in: a damaged file is
    set aside and salvaged, an unwritable folder runs from memory; each with a notice on the page
    (:func:`tablehub.recovery.open_store`)."""
    opened = open_store(cfg.db_path)
    hub = make_hub(cfg, opened.store, pin, screens)
    camera_lens = lens_path(cfg)   # resolved once, as for the live recognizer (game_recognizers)
    hub.photo_scorer = photo_scorer(cfg.refs_path, lambda: camera_lens)  # the page's photo upload (docs/web.md)
    for n in opened.notices:
        hub.notice(n.key, n.level, n.title, n.text, n.kept, n.choices)
    return hub, opened


def open_game(hub: Any, cfg: Config) -> None:
    """Put back the game that was on the table (a game whose log stops replaying opens up to its last
    good action, with a notice asking what to do); on a table left empty with nothing to report, start
    the configured game. Never raises: whatever goes wrong is a notice on the page."""
    session = hub.restore()
    if session is not None:
        log.info("resumed game %d (%s), turn %d", session.game_id, session.setup.game, session.game.turn)
        return
    if any(n["id"] not in SAVING_NOTICES for n in hub.notices()):  # a damaged file, a game that cannot open:
        log.warning("no game on the table: the page says why and offers to start one")  # the owner decides
        return
    setup = Setup(cfg.game.name, tuple(cfg.game.players), tuple(cfg.game.colors))
    try:
        session = hub.start(setup)
    except TablehubError as exc:
        log.error("the configured game does not start: %s", exc)
        hub.notice("config-game", "warn", "The configured game did not start",
                   f"{exc}. Start a game below (or fix [game] in the settings).")
        return
    log.info("started game %d (%s) for %s", session.game_id, setup.game, ", ".join(setup.players))


def start_web(hub: Any, cfg: Config) -> Any:
    """The page in a background thread (waitress via web.server.BackgroundServer; ``.stop()`` ends it)."""
    from web.server import BackgroundServer

    return BackgroundServer(hub, cfg.web.host, cfg.web.port, threads=cfg.web.threads)


def table_recognizer(cfg: Config, game: str) -> Callable:
    """The live recognizer: the references enrolled for ``game`` (``[vision] refs``), seen through the camera's
    lens file when there is one (``[camera] lens``, else ``lens-<camera>.json`` in the data folder).

    A game with a printed board the camera reads (its engine's ``board_moves``: Karibik) gets the board
    camera (:func:`~tablehub.tracking.boardcam.load_recognizer`) from the board's references in the same
    folder (``tablehub boardcam enrol-board --out <data>/refs/<game>``, docs/boardcam.md). A game laid out freely
    (its engine's ``layout_moves``: Sunda to Sahul) gets its reader from the colours enrolled there
    (``tablehub sundacam enrol PHOTO --out <data>/refs/<game>``, docs/sunda.md).

    Raises :class:`RecognitionUnavailable` saying what is missing or unreadable (the hub
    then runs without recognition: every game stays playable from the phone).
    """
    refs = cfg.refs_path(game)
    if board_adapter(game) is not None:
        return _board_recognizer(cfg, game, refs)
    if layout_adapter(game) is not None:
        return _layout_recognizer(cfg, game, refs)
    if not (refs / "index.json").is_file():
        raise RecognitionUnavailable(T("table recognition is off: no references in {refs}; enrol the set "
                                       "('tablehub enroll --game {game} --out {refs} ...') or set [vision] refs",
                                       refs=str(refs), game=game))
    from vision import VisionError

    try:
        lens = configured_lens(cfg, camera_size(cfg))  # None: the lens.json enrolled with the references, if any
    except (TablehubError, VisionError) as exc:  # missing where named, unreadable, made for other frames
        raise RecognitionUnavailable(T("table recognition is off: {why}", why=reason(exc))) from None
    return make_recognizer(game, references=str(refs), lens=lens)


def _board_recognizer(cfg: Config, game: str, refs: Path) -> Callable:
    from vision import VisionError

    try:
        lens = configured_lens(cfg, camera_size(cfg))  # None: the lens.json kept with the references, if any
    except (TablehubError, VisionError) as exc:
        raise RecognitionUnavailable(T("table recognition is off: {why}", why=reason(exc))) from None
    return load_board_recognizer(game, refs, lens=lens)


def _layout_recognizer(cfg: Config, game: str, refs: Path) -> Callable:
    from vision import VisionError

    try:
        lens = configured_lens(cfg, camera_size(cfg))  # None: the lens.json kept with the references, if any
        mat = table_mat(cfg, game) if cfg.vision.mat else None  # None: the mat.json kept with them, else the default
    except (TablehubError, VisionError) as exc:
        raise RecognitionUnavailable(T("table recognition is off: {why}", why=reason(exc))) from None
    return load_sunda_recognizer(refs, lens=lens, mat=mat)


def layout_adapter(game: str) -> Any:
    """The ``layout_moves`` adapter of the engine named ``game`` (``None`` for games not laid out freely)."""
    from ..games import game_class

    try:
        return getattr(game_class(game), "layout_moves", None)
    except TablehubError:
        return None


def camera_size(cfg: Config) -> tuple[int, int] | None:
    """The frame size the configured camera delivers (``None`` for recordings: any size)."""
    return None if cfg.camera.source == "replay" else (cfg.camera.width, cfg.camera.height)


def recognition_files(cfg: Config, game: str, camera_lens: Path) -> list[Path]:
    """The files whose change turns ``game``'s recognition on again (or off): its references, colours,
    mat and lens, and the camera's lens file ``camera_lens`` (:func:`~.lens.lens_path`, resolved once:
    the source "auto" names the camera found, whose file ``tablehub lens calibrate`` writes)."""
    refs = cfg.refs_path(game)
    if board_adapter(game) is not None:  # a printed board's references (tablehub boardcam)
        return [refs / name for name in BOARD_FILES] + [camera_lens]
    if layout_adapter(game) is not None:  # a laid-out table's colours (tablehub sundacam)
        return [refs / name for name in SUNDA_FILES] + [camera_lens]
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
        raise TablehubError(T("[vision] mat: {why}", why=reason(exc))) from None


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


def open_voice(cfg: Config, hub: Any, table: LiveTable) -> Any:
    """Spoken announcements (docs/voice.md): the session's events and the tracker's illegal placements,
    settings on the page (``/voice``, saved in ``<data>/voice.json``). Without espeak-ng: one log line."""
    from web.views.voice import attach

    from ..voice import start_voice

    speaker = start_voice(cfg.voice, Path(cfg.data_dir) / "voice.json").follow(lambda: hub.session)
    if table.tracker is not None:
        table.tracker.subscribe(speaker.on_tracker)
    attach(hub, speaker)
    return speaker


def open_boards(cfg: Config, hub: Any, frame: Callable[[], Any]) -> Any:
    """The page's board screens (the owner's Karibik board traced from the camera's newest ``frame`` or
    a photo, Tahiti's track order), keeping their drafts and saved boards in ``<data>/boards``."""
    from web.views.boards import attach

    from ..board_setup import BoardSetup

    setup = BoardSetup(cfg.data_dir, frame)
    attach(hub, setup)
    return setup


def stop_on_signals(stop: threading.Event) -> None:
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
