"""``tablehub demo``: the whole table hub on a simulated table (the README's main job).

The sim camera plays a game (default: a seeded random Neues Land game; ``--record``
plays a recorded one) at a human pace: hands reach over the table, then the table is
still. The tracker reads each turn, the demo's "player" presses NEXT on the mock
buttons (gpiozero's MockFactory), answers the phone when the camera is unsure, and
enters what only a phone can (draws, deliveries). The page is served meanwhile
(``--no-web`` to skip): its address on the local network, the table PIN and a QR code
are printed at the start and again when the game is over; ``-v`` prints every reading.
At the end the final score is compared with ``tablehub score`` of the record.

Demo games go to their own database, ``demo.sqlite`` in the data folder, emptied at
each start, so they never appear among the table's saved games (``games.sqlite``).
Ctrl-C (or SIGTERM) during the game ends the demo with "demo interrupted" and exit
status 130, the shell's convention for an interrupted command; no final scoring.
"""
from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..games.base import TablehubError
from ..i18n import N_, T, Tn, chain, reason
from ..usage_i18n import console_language, said
from ..hardware.panel import Panel
from ..hardware.sdnotify import Notifier
from ..records import Record, load_record, replay
from ..store import Store
from ..table_setup import SetupScreens
from ..tracking.recognizer import RecognitionUnavailable, make_recognizer
from ..tracking.player import SimPlayer
from ..tracking.simtable import demo_record, table_for
from ..lan import page_urls
from ..venue import start_publishing
from ..explain import explain
from ._options import add_common, settings
from ._hub import build_table, make_hub, open_boards, open_voice, start_web, stop_on_signals, table_mat

NAME = "demo"
HELP = T("play a game on a simulated table (a seeded random one, or --record): camera, tracker, "
        "mock buttons and the page")
DEMO_DB = "demo.sqlite"  # in the data folder, beside the table's games.sqlite
INTERRUPTED = 130        # exit status of a demo stopped by Ctrl-C (128 + SIGINT, as the shell does)
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)
    parser.add_argument("--game", default="neuesland",
                        choices=("neuesland", "suedsee", "karibik", "tahiti", "sunda"),
                        help=T("game to play when no --record is given (default neuesland; karibik, tahiti: the "
                             "camera on the printed board, docs/boardcam.md; sunda: the camera on freely laid "
                             "pieces, docs/sunda.md)"))
    parser.add_argument("--record", help=T("a game record (JSON) to play; default: a seeded random game"))
    parser.add_argument("--seed", type=int, default=7, help=T("seed of the default game (default 7)"))
    parser.add_argument("--players", type=int, default=2, dest="player_count", help=T("players in the default game (default 2)"))
    parser.add_argument("--turns", type=int, help=T("stop after this many turns (on a printed board: NEXT steps)"))
    parser.add_argument("--size", default="1280x720", help=T("simulated camera resolution (default 1280x720)"))
    parser.add_argument("--no-web", action="store_true", help=T("do not serve the page"))
    parser.add_argument("--exit", action="store_true", help=T("exit at the end instead of serving the page on"))
    parser.add_argument("-v", "--verbose", action="store_true", dest="chatter",
                        help=T("print every reading, commit and phone entry"))
    parser.add_argument("--voice", action="store_true", help=T("speak the turns with espeak-ng ([voice] settings; "
                        "docs/voice.md)"))


def demo_store(data_dir: str | Path) -> Store:
    """The demo's own database (``demo.sqlite`` in the data folder), emptied: demo games never mix
    with the table's saved games, and the demo's page lists only the game being played."""
    path = Path(data_dir) / DEMO_DB
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)
    return Store(path)


def print_join(port: int, bind: str, pin: str, out=None) -> None:
    """Where phones open the page: its addresses, the table PIN and a QR code of the first address."""
    import segno

    out = out or sys.stdout
    urls = page_urls(port, bind)
    addresses = chain(urls, N_("{first}  or  {next}"))
    print(said(T("demo: open {urls} on a phone (table PIN {pin})", urls=addresses, pin=pin)), file=out)
    if urls[0].startswith("http://localhost"):
        print(said(T("demo: no network address here: only this machine can open the page")), file=out)
    segno.make(urls[0]).terminal(out=out, compact=True)
    out.flush()


def plural(n: int, noun: str) -> Any:
    """``1 turn``, ``2 turns`` (``noun``: turn, step, time, unsure read), in the console's language."""
    if noun == "step":
        return Tn("{n} step", "{n} steps", n)
    if noun == "time":
        return Tn("{n} time", "{n} times", n)
    if noun == "unsure read":
        return Tn("{n} unsure read", "{n} unsure reads", n)
    return Tn("{n} turn", "{n} turns", n)


def turns_done(turns: list, logged: int) -> int:
    """How many of the script's turns the log holds completely."""
    done = total = 0
    for turn in turns:
        total += len(turn.actions)
        if total > logged:
            break
        done += 1
    return done


def run(args: argparse.Namespace) -> int:
    if not args.pins:
        args.pins = "mock"
    if not args.camera:
        args.camera = "sim"
    cfg = settings(args)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise TablehubError(T("--size: expected WIDTHxHEIGHT such as 1280x720, got {value}", value=repr(args.size))) from None
    record = load_record(args.record) if args.record else demo_record(args.game, args.player_count, args.seed)
    sim = table_for(record, size=(width, height)).limit(args.turns)
    # a printed board (or a laid-out table: Sunda): the script's turns are NEXT steps, its recognizer its own
    board = getattr(sim, "board", None) is not None or getattr(sim, "stepwise", False)
    unit = "step" if board else "turn"
    played = [a for t in sim.turns for a in t.actions]
    expected = replay(Record(record.setup, played, record.source))

    def say(line: Any) -> None:
        print(said(line), flush=True)

    def chatter(line: str) -> None:
        if args.chatter:
            say(line)

    store = demo_store(cfg.data_dir)
    holder: list[SetupScreens] = []
    hub = make_hub(cfg, store, args.table_pin, holder)  # a fresh demo.sqlite: nothing to recover
    venue = start_publishing(cfg.venue, hub)  # None unless [venue] names a broker (docs/venue.md)
    session = hub.start(record.setup)
    say(T("demo: {source}: {count} of {game} for {players} (demo database {path})", source=record.source,
          count=plural(len(sim.turns), unit), game=record.setup.game, players=", ".join(record.setup.players),
          path=str(store.path)))
    try:
        if board:  # enrolled as its owner would, into the data folder, and loaded as the hub loads references
            recognizer = sim.recognizer(Path(cfg.data_dir) / "demo-refs" / record.setup.game)
        else:
            recognizer = make_recognizer(record.setup.game, sim=sim)
    except RecognitionUnavailable as exc:
        say(T("demo: {why}; turns will be entered as on the phone", why=reason(exc)))
        recognizer = None
    panel = Panel(cfg.pins)
    panel.start()
    camera = sim.camera()
    table = build_table(cfg, hub, lambda: camera, panel, Notifier({}), recognizer)
    holder.append(SetupScreens(hub, cfg, table.latest_frame, lambda game: table_mat(cfg, game)))  # the preview
    if table.tracker is not None:
        table.tracker.subscribe(lambda kind, p: chatter(f"  {kind}: {p.describe() if kind == 'reading' else p.message}")
                                if kind in ("reading", "commit", "refused", "undo") else None)
    speaker = open_voice(cfg, hub, table) if args.voice else None
    open_boards(cfg, hub, table.latest_frame)  # the board screens (docs/karibik.md)
    web = None
    if not args.no_web:
        web = start_web(hub, cfg)
        print_join(web.port, cfg.web.host, hub.pin)
    if not args.chatter:
        say(T("demo: playing (-v prints every reading)"))
    player = SimPlayer(hub, table.tracker, camera, sim.turns, panel.factory, cfg.pins.next, chatter)
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
        if stop.is_set():
            say(T("demo interrupted: {done} of {count} played", done=turns_done(sim.turns, len(session.rows)),
                  count=plural(len(sim.turns), unit)))
            return INTERRUPTED
        if not session.game.finished:
            session.finish()
        say(explain(session.game, console_language()))
        say(T("demo: {count}: NEXT pressed {presses}, {choices} answered on the phone, {corrections} corrected on "
              "the phone", count=plural(len(sim.turns), unit), presses=plural(player.presses, "time"),
              choices=plural(player.choices, "unsure read"), corrections=plural(player.corrections, unit)))
        same = session.game.scores() == expected.scores()
        say(T("demo: the final score equals `tablehub score` of the record") if same else
            T("demo: MISMATCH: the record scores {scores}", scores=str(expected.scores())))
        if web is not None and not args.exit and not stop.is_set():
            print_join(web.port, cfg.web.host, hub.pin)
            say(T("demo: serving the page on; Ctrl-C to stop"))
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
