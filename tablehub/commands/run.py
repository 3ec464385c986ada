"""``tablehub run``: the Pi service. Camera, tracker, session, buttons and web page in one process.

Started by systemd (``systemd/tablehub.service``, ``Type=notify``): it says READY once
the page is served, pings the watchdog from the frame loop, and stops cleanly on
SIGTERM. Without a Pi it runs too (mock pins, and whatever camera the settings name).
"""
from __future__ import annotations

import argparse
import logging
import threading

from ..access import grouped
from ..config import ensure_data_dir
from ..i18n import T
from ..hardware.cameras import make_camera
from ..hardware.sdnotify import Notifier
from ..setup_files import configured_lens
from ..table_setup import SetupScreens
from ..venue import start_publishing
from ._hub import (build_table, camera_size, game_recognizers, lift_on_hold, open_boards, open_game, open_hub,
                   open_panel, open_voice, start_web, stop_on_signals, table_mat)
from ._options import add_common, settings

NAME = "run"
HELP = T("run the table hub: camera, tracker, buttons and the score page (the Pi service)")
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)
    parser.add_argument("--game", help=T("game to start when none is open (default from the settings)"))
    parser.add_argument("--players", help=T("comma-separated player names for a new game"))
    parser.add_argument("--colors", help=T("comma-separated player colours for a new game"))


def run(args: argparse.Namespace) -> int:
    cfg = settings(args)
    ensure_data_dir(cfg, "--data" if getattr(args, "data", None) else "data folder")
    notifier = Notifier()
    holder: list[SetupScreens] = []
    hub, opened = open_hub(cfg, args.table_pin, holder)
    store = opened.store
    venue = start_publishing(cfg.venue, hub)  # None unless [venue] names a broker (docs/venue.md)
    open_game(hub, cfg)
    recognizers = game_recognizers(cfg, hub)
    if hub.session is not None:
        unavailable = recognizers.available(hub.session.setup.game)  # loads it now (logged), not at the first read
        if unavailable:
            hub.set_status("table", unavailable)
    panel = open_panel(cfg)
    lift_on_hold(panel, hub)
    table = build_table(cfg, hub, lambda: make_camera(cfg.camera), panel, notifier, recognizers)
    holder.append(SetupScreens(hub, cfg, table.latest_frame, lambda game: table_mat(cfg, game),
                               lambda: configured_lens(cfg, camera_size(cfg))).register())
    speaker = open_voice(cfg, hub, table)
    open_boards(cfg, hub, table.latest_frame)  # the board screens: Karibik traced, Tahiti's track (docs/karibik.md)
    web = start_web(hub, cfg)
    stop = threading.Event()
    stop_on_signals(stop)
    log.info("table hub up: page on port %d, PIN %s (`tablehub pin` shows it), database %s%s", web.port,
             grouped(hub.pin), cfg.db_path, "" if opened.saving else " (NOT SAVING: see the page)")
    notifier.ready(f"serving on port {web.port}")
    try:
        table.run(stop)
        while not stop.wait(1.0):  # a finite camera ended: keep serving the page (and the watchdog)
            table.ping()
    finally:
        notifier.stopping()
        web.stop()
        speaker.close()
        table.camera.close()
        if panel is not None:
            panel.close()
        hub.shutdown()
        if venue is not None:
            venue.close()
        store.close()
    return 0
