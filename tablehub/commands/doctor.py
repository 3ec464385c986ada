"""``tablehub doctor``: check the camera, the mat markers, GPIO, numpy's ABI, disk, the game log and the service;
print fixes."""
from __future__ import annotations

import argparse
import json

from typing import Any, Callable

from ..config import Config, load_config
from ..games.base import TablehubError
from ..i18n import N_, T, Tc, chain, reason
from ..usage_i18n import said, say
from ..hardware.checks import Check, run_checks

NAME = "doctor"
HELP = T("check camera, lens file, markers in view, GPIO, numpy/OpenCV/picamera2 compatibility, disk, "
        "that every saved game's log replays, and the service")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default="", help=T("settings file (default: $TABLEHUB_CONFIG or "
                        "/etc/tablehub/tablehub.toml if present)"))
    parser.add_argument("--data", help=T("the data folder to check (game database, lens file); the service's is "
                        "/var/lib/tablehub (default: $TABLEHUB_DATA, ./var in a checkout, else $XDG_DATA_HOME/tablehub)"))
    parser.add_argument("--no-camera", action="store_true", help=T("skip the camera and marker checks"))
    parser.add_argument("--json", action="store_true", help=T("print the results as JSON"))


def check_lens(cfg: Config) -> Check:
    """Whether the camera has a lens file, whether it reads, fits the camera's frames, and how good it is."""
    try:
        from vision import VisionError

        from ..setup_files import configured_lens, describe, lens_path
    except ImportError as exc:
        return Check("lens", "skip", T("vision is not installed ({why})", why=str(exc)))
    path = lens_path(cfg)
    redo = T("run 'tablehub lens calibrate' again (docs/vision-setup.md)")
    try:
        lens = configured_lens(cfg)
        if lens is None:
            return Check("lens", "skip", T("no lens file ({path}): fine for standard lenses; wide ones: "
                                           "'tablehub lens calibrate'", path=str(path)))
        configured_lens(cfg, (cfg.camera.width, cfg.camera.height))  # it must fit the camera's frames
    except (VisionError, TablehubError) as exc:
        return Check("lens", "fail", reason(exc), T("{redo}, or remove the file to run without it", redo=redo))
    if lens.rms_px > 1.0:
        return Check("lens", "warn", f"{path}: {describe(lens)}",
                     T("sharp photos of a flat board give under 1 px: {redo}", redo=redo))
    return Check("lens", "ok", f"{path}: {describe(lens)}")


def sim_frame(cfg: Config) -> Callable[[], Any] | None:
    """For the sim camera: a reader of one rendered frame of a demo table (mat, markers, the start tile)
    at the camera's size, so the marker check has something to look at; ``None`` for real cameras."""
    from ..hardware.cameras import CameraError, resolve_source

    if resolve_source(cfg.camera) != "sim":
        return None

    def read() -> Any:
        try:
            from ..tracking.simtable import SimTable, demo_record

            sim = SimTable(demo_record("neuesland"), size=(cfg.camera.width, cfg.camera.height)).limit(1)
            with sim.camera() as camera:
                return camera.read()
        except ImportError as exc:
            raise CameraError(T("the sim camera cannot render: {why}", why=str(exc))) from None
    return read


def check_logs(cfg: Config) -> Check:
    """Whether every saved game's log still replays (SQLite's own check cannot see an edited row
    or a catalog changed under a saved game); the fix is the exact repair command."""
    from ..store import Store
    from ..session import Broken
    from ..recovery import fix_command, game_status

    db = cfg.db_path
    if not db.is_file() or db.stat().st_size == 0:
        return Check("game log", "skip", T("no saved games in {path}", path=str(db)))
    try:
        store = Store.copy_in_memory(db)
    except TablehubError as exc:
        return Check("game log", "fail", reason(exc), T("the hub sets a damaged file aside and salvages what reads at "
                                                        "its next start: `sudo systemctl restart tablehub`"))
    problems, fixes, count = [], [], 0
    for row in store.games():
        count += 1
        _, status = game_status(store, row)
        if isinstance(status, Broken):
            problems.append(T("game {id} no longer replays at action {seq}: {why}", id=row.id, seq=status.seq,
                              why=status.reason))
            fixes.append(T("`{fix}` (export first: `tablehub games export {id} --all --out game{id}-log.json --data "
                           "{data}`)", fix=fix_command(row.id, db, cfg.data_dir), id=row.id, data=str(cfg.data_dir)))
        elif isinstance(status, str):
            problems.append(T("game {id} {why}", id=row.id, why=status))
            fixes.append(T("`tablehub games export {id} --data {data}` keeps its actions as a record", id=row.id,
                           data=str(cfg.data_dir)))
    store.close()
    if problems:
        return Check("game log", "fail", chain(problems, N_("{first}; {next}")), chain(fixes, N_("{first}; {next}")))
    return Check("game log", "ok", T("all {n} saved game(s) replay", n=count))


#: each check's name as said (``--json`` keeps the names)
CHECK_NAMES = {"numpy ABI": Tc("doctor check", "numpy ABI"), "camera": Tc("doctor check", "camera"),
               "markers": Tc("doctor check", "markers"), "lens": Tc("doctor check", "lens"),
               "gpio": Tc("doctor check", "gpio"), "lgpio": Tc("doctor check", "lgpio"),
               "groups": Tc("doctor check", "groups"), "disk": Tc("doctor check", "disk"),
               "game log": Tc("doctor check", "game log"), "service": Tc("doctor check", "service"),
               "boot config": Tc("doctor check", "boot config")}


def line(check: Check) -> str:
    """A check's line (``Check.line``) in the console's language: its name, its finding and its fix (the status
    word stays: OK, WARN, FAIL, SKIP)."""
    head = f"{check.status.upper():4} {said(CHECK_NAMES.get(check.name, check.name))}: {said(check.found)}"
    if check.fix and check.status in ("warn", "fail"):
        return head + "\n     " + said(T("fix: {fix}", fix=check.fix))
    return head


def run(args: argparse.Namespace) -> int:
    cfg = load_config(args.config, overrides={"data_dir": args.data} if args.data else None)
    checks = run_checks(cfg, camera=not args.no_camera, read_frame=sim_frame(cfg),
                        what="the sim camera (a rendered demo table; no Pi camera found)")
    after_markers = next((i + 1 for i, c in enumerate(checks) if c.name == "markers"), 1)
    checks.insert(after_markers, check_lens(cfg))
    after_disk = next((i + 1 for i, c in enumerate(checks) if c.name == "disk"), len(checks))
    checks.insert(after_disk, check_logs(cfg))
    if args.json:
        print(json.dumps([c.__dict__ for c in checks], indent=1))
    else:
        say(T("tablehub doctor (settings: {source}, data: {data})", source=said(cfg.source), data=str(cfg.data_dir)))
        for c in checks:
            say(line(c))
    failed = [c for c in checks if c.status == "fail"]
    if not args.json:
        say(T("all good") if not failed else T("{n} problem(s) to fix", n=len(failed)))
    return 1 if failed else 0
