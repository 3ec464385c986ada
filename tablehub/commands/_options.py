"""Options that several commands share (``run``, ``demo``, ``lens``, ``games``): the settings file,
the camera, the pins, the page, and the :class:`~tablehub.config.Config` they give. Not a command
(the CLI skips modules whose name starts with "_"), so commands need not import each other for it.
"""
from __future__ import annotations

import argparse
from typing import Any

from ..config import CameraConfig, Config, ConfigError, host_problem, load_config
from ..i18n import T
from ..games.base import show


def add_settings(parser: argparse.ArgumentParser) -> None:
    """The settings file, the camera's device or recording, the data folder (shared with ``tablehub lens``)."""
    parser.add_argument("--config", default="", help=T("settings file (default: $TABLEHUB_CONFIG or "
                        "/etc/tablehub/tablehub.toml if present)"))
    parser.add_argument("--camera-path", help=T("replay: folder of images or video; opencv: device"))
    parser.add_argument("--data", help=T("folder of the game database, references and lens file (default: ./var "
                        "in a checkout, else $XDG_DATA_HOME/tablehub)"))


def add_common(parser: argparse.ArgumentParser) -> None:
    add_settings(parser)
    parser.add_argument("--camera", choices=("picamera2", "opencv", "replay", "sim", "auto"),
                        help=T("camera source (default: settings, then $TABLEHUB_CAMERA)"))
    parser.add_argument("--pins", choices=("auto", "mock", "lgpio", "rpigpio"), help=T("GPIO pin factory"))
    parser.add_argument("--host", help=T("address to serve the page on (default 0.0.0.0)"))
    parser.add_argument("--port", type=int, help=T("port of the page (default 8080; 80 on the Pi)"))
    parser.add_argument("--table-pin", help=T("4-12 digit PIN that unlocks changes on the page (default: the one kept "
                        "in the data folder, else 8 random digits; `tablehub pin` shows it)"))
    parser.add_argument("--fps", type=float, help=T("frames per second the tracker looks at (default: [camera] fps "
                        "in the settings, {fps})", fps=format(CameraConfig.fps, "g")))


def check_options(args: argparse.Namespace) -> None:
    """One line naming the option for a port or host nobody can serve on (``--port 99999`` would be
    served on 34463 by the socket layer, ``--host 256.1.1.1`` failed deep in the server)."""
    port = getattr(args, "port", None)
    if port is not None and not 0 <= port <= 65535:
        raise ConfigError(T("--port {port}: expected a TCP port from 1 to 65535 (0: any free port)", port=port))
    host = getattr(args, "host", None)
    if host is not None and host_problem(host):
        raise ConfigError(T("--host {host}: {why}", host=show(host), why=host_problem(host)))


def settings(args: argparse.Namespace) -> Config:
    """The settings with this command's options on top (commands offer a subset of :func:`add_common`'s)."""
    check_options(args)
    over: dict[str, dict[str, Any]] = {"camera": {}, "pins": {}, "web": {}, "game": {}}
    if getattr(args, "camera", None):
        over["camera"]["source"] = args.camera
    if getattr(args, "camera_path", None):
        over["camera"]["path"] = args.camera_path
    if getattr(args, "fps", None):
        over["camera"]["fps"] = args.fps
    if getattr(args, "pins", None):
        over["pins"]["backend"] = args.pins
    if getattr(args, "host", None):
        over["web"]["host"] = args.host
    if getattr(args, "port", None) is not None:
        over["web"]["port"] = args.port
    if getattr(args, "game", None):
        over["game"]["name"] = args.game
    if getattr(args, "players", None):
        over["game"]["players"] = [p.strip() for p in args.players.split(",") if p.strip()]
    if getattr(args, "colors", None):
        over["game"]["colors"] = [c.strip() for c in args.colors.split(",") if c.strip()]
    overrides: dict[str, Any] = {k: v for k, v in over.items() if v}
    if getattr(args, "data", None):
        overrides["data_dir"] = args.data
    return load_config(getattr(args, "config", ""), overrides=overrides)
