"""``tablehub demo``: the whole table hub on a simulated table (the README's main job).

The sim camera plays a recorded game (``--record``, default: a seeded Neues Land
game) at a human pace: hands reach over the table, then the table is still. The
tracker reads each turn, the demo's "player" presses NEXT on the mock buttons
(gpiozero's MockFactory), answers the phone when the camera is unsure, and enters
what only a phone can (draws, deliveries). The page is served meanwhile
(``--no-web`` to skip), and every recognised turn is printed. At the end the final
score is compared with ``tablehub score`` of the record.
"""
from __future__ import annotations

import argparse
import logging
import threading
import time

from ..games.base import TablehubError
from ..hardware.panel import Panel
from ..hardware.sdnotify import Notifier
from ..records import Record, load_record, replay
from ..table_setup import SetupScreens
from ..tracking.recognizer import RecognitionUnavailable, make_recognizer
from ..tracking.player import SimPlayer
from ..tracking.simtable import SimTable, demo_record
from ..venue import start_publishing
from .score import explain
from .run import add_common, build_table, open_hub, open_voice, settings, start_web, stop_on_signals, table_mat

NAME = "demo"
HELP = "play a recorded game on a simulated table: camera, tracker, mock buttons and the page"
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)
    parser.add_argument("--game", default="neuesland", choices=("neuesland", "suedsee"),
                        help="game to play when no --record is given (default neuesland)")
    parser.add_argument("--record", help="a game record (JSON) to play; default: a seeded random game")
    parser.add_argument("--seed", type=int, default=7, help="seed of the default game (default 7)")
    parser.add_argument("--players", type=int, default=2, dest="player_count", help="players in the default game (default 2)")
    parser.add_argument("--turns", type=int, help="stop after this many turns")
    parser.add_argument("--size", default="1280x720", help="simulated camera resolution (default 1280x720)")
    parser.add_argument("--no-web", action="store_true", help="do not serve the page")
    parser.add_argument("--exit", action="store_true", help="exit at the end instead of serving the page on")
    parser.add_argument("--voice", action="store_true", help="speak the turns with espeak-ng ([voice] settings; "
                        "docs/voice.md)")


def run(args: argparse.Namespace) -> int:
    if not args.pins:
        args.pins = "mock"
    if not args.camera:
        args.camera = "sim"
    cfg = settings(args)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise TablehubError(f"--size: expected WIDTHxHEIGHT such as 1280x720, got {args.size!r}") from None
    record = load_record(args.record) if args.record else demo_record(args.game, args.player_count, args.seed)
    sim = SimTable(record, size=(width, height)).limit(args.turns)
    played = [a for t in sim.turns for a in t.actions]
    expected = replay(Record(record.setup, played, record.source))

    def say(line: str) -> None:
        print(line, flush=True)

    holder: list[SetupScreens] = []
    hub, opened = open_hub(cfg, args.table_pin, holder)
    store = opened.store
    venue = start_publishing(cfg.venue, hub)  # None unless [venue] names a broker (docs/venue.md)
    session = hub.start(record.setup)
    say(f"demo: {record.source}: {len(sim.turns)} turns of {record.setup.game} for "
        f"{', '.join(record.setup.players)} (game {session.game_id} in {cfg.db_path})")
    try:
        recognizer = make_recognizer(record.setup.game, sim=sim)
    except RecognitionUnavailable as exc:
        say(f"demo: {exc}; turns will be entered as on the phone")
        recognizer = None
    panel = Panel(cfg.pins)
    panel.start()
    camera = sim.camera()
    table = build_table(cfg, hub, lambda: camera, panel, Notifier({}), recognizer)
    holder.append(SetupScreens(hub, cfg, table.latest_frame, lambda game: table_mat(cfg, game)))  # the preview
    if table.tracker is not None:
        table.tracker.subscribe(lambda kind, p: say(f"  {kind}: {p.describe() if kind == 'reading' else p.message}")
                                if kind in ("reading", "commit", "refused", "undo") else None)
    speaker = open_voice(cfg, hub, table) if args.voice else None
    web = None
    if not args.no_web:
        web = start_web(hub, cfg)
        say(f"demo: the page is on http://localhost:{web.port}/ (table PIN {hub.pin})")
    player = SimPlayer(hub, table.tracker, camera, sim.turns, panel.factory, cfg.pins.next, say)
    stop = threading.Event()
    stop_on_signals(stop)
    period = 1.0 / cfg.camera.fps if cfg.camera.fps > 0 else 0.0
    try:
        while not stop.is_set():
            t0 = time.monotonic()
            if not table.step():
                break
            player.after_frame()
            stop.wait(max(0.0, period - (time.monotonic() - t0)))
        if not stop.is_set():
            player.finish()
        if not session.game.finished:
            session.finish()
        say(explain(session.game))
        say(f"demo: {len(sim.turns)} turns: NEXT pressed {player.presses} times, {player.choices} unsure reads "
            f"answered on the phone, {player.corrections} turns corrected on the phone")
        same = session.game.scores() == expected.scores()
        say("demo: " + ("the final score equals `tablehub score` of the record" if same else
                        f"MISMATCH: the record scores {expected.scores()}"))
        if web is not None and not args.exit and not stop.is_set():
            say("demo: serving the page on; Ctrl-C to stop")
            stop.wait()
        return 0 if same else 1
    finally:
        if speaker is not None:
            speaker.drain(timeout=20.0)
            speaker.close()
        if web is not None:
            web.stop()
        panel.close()
        hub.shutdown()
        if venue is not None:
            venue.close()
        store.close()
