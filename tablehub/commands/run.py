"""``tablehub run``: the Pi service. Camera, tracker, session, buttons and web page in one process.

Started by systemd (``systemd/tablehub.service``, ``Type=notify``): it says READY once
the page is served, pings the watchdog from the frame loop, and stops cleanly on
SIGTERM. Without a Pi it runs too (mock pins, and whatever camera the settings name).
"""
from __future__ import annotations

import argparse
import logging
import threading

from ..hardware.cameras import make_camera
from ..hardware.sdnotify import Notifier
from ..setup_files import configured_lens
from ..store import Store
from ..table_setup import SetupScreens
from ._hub import (build_table, camera_size, game_recognizers, make_hub, open_game, open_panel, start_web,
                   stop_on_signals, table_mat)
from ._options import add_common, settings

NAME = "run"
HELP = "run the table hub: camera, tracker, buttons and the score page (the Pi service)"
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)
    parser.add_argument("--game", help="game to start when none is open (default from the settings)")
    parser.add_argument("--players", help="comma-separated player names for a new game")
    parser.add_argument("--colors", help="comma-separated player colours for a new game")


def run(args: argparse.Namespace) -> int:
    cfg = settings(args)
    notifier = Notifier()
    store = Store(cfg.db_path)
    holder: list[SetupScreens] = []
    hub = make_hub(cfg, store, args.table_pin, holder)
    open_game(hub, cfg)
    recognizers = game_recognizers(cfg, hub)
    unavailable = recognizers.available(hub.session.setup.game)  # loads it now (logged), not at the first read
    if unavailable:
        hub.set_status("table", unavailable)
    panel = open_panel(cfg)
    table = build_table(cfg, hub, lambda: make_camera(cfg.camera), panel, notifier, recognizers)
    holder.append(SetupScreens(hub, cfg, table.latest_frame, lambda game: table_mat(cfg, game),
                               lambda: configured_lens(cfg, camera_size(cfg))).register())
    web = start_web(hub, cfg)
    stop = threading.Event()
    stop_on_signals(stop)
    log.info("table hub up: page on port %d, PIN %s, database %s", web.port, hub.pin, cfg.db_path)
    notifier.ready(f"serving on port {web.port}")
    try:
        table.run(stop)
        while not stop.wait(1.0):  # a finite camera ended: keep serving the page (and the watchdog)
            table.ping()
    finally:
        notifier.stopping()
        web.stop()
        table.camera.close()
        if panel is not None:
            panel.close()
        hub.shutdown()
        store.close()
    return 0
