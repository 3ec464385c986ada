"""The ``tablehub`` command.

Each subcommand lives in its own module under ``tablehub/commands/`` and
exposes ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
Modules are found automatically, so a new command is one new file.
A :class:`~tablehub.games.base.TablehubError` (a user's mistake) ends the
command with one line on stderr and exit status 2, never a traceback, in the table's language
(:func:`error_language`: the settings' ``[voice] language``, else the shell's ``LANG``, else English).
"""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from typing import Mapping, Sequence

# One BLAS thread: the recogniser makes many small matrix products, and a multi-threaded
# OpenBLAS busy-waits between them (an incremental read went from 15 to ~40 ms of CPU).
# Set before NumPy is first imported by a command; an explicit setting wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from . import __version__, commands
from .games.base import TablehubError
from .i18n import DEFAULT_LANGUAGE, T, environment_language, translate
from .usage_i18n import argparse_language, console_in, localise_help, parse_language


def _command_modules():
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        yield importlib.import_module(f"{commands.__name__}.{info.name}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablehub",
        description=T("Table hub for island and sea board games: score records, recognise the table, run the hub."))
    parser.add_argument("--version", action="version", version=f"tablehub {__version__}",
                        help=T("show the version and exit"))
    parser.add_argument("-v", "--verbose", action="count", default=0, help=T("more log output (-vv for debug)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return localise_help(parser, parse_language())  # the help texts in the language argparse speaks


def _user_errors() -> tuple[type[BaseException], ...]:
    """Errors that are a person's mistake (bad file, missing markers...): one line, no traceback."""
    errors: list[type[BaseException]] = [TablehubError]
    try:
        from vision import VisionError  # vision is optional at this layer
        errors.append(VisionError)
    except ImportError:
        pass
    return tuple(errors)


def error_language(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> str:
    """The language a command's one-line error is written in: the table's (the settings file's ``[voice]
    language``, ``--config`` or the usual places), else the owner's shell's (``LANG``...), else English."""
    from .config import table_language

    env = os.environ if environ is None else environ
    config = getattr(args, "config", "")
    table = table_language(config if isinstance(config, (str, os.PathLike)) else "", env)
    return table or environment_language(env) or DEFAULT_LANGUAGE


def usage_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language argparse's own errors and help are written in, before the arguments are parsed: as
    :func:`error_language`, with the ``--config`` the command line names, if any.

    >>> usage_language(["run", "--config", "/no/such.toml"], {"LANG": "fr_FR.UTF-8"})
    'fr'
    """
    config: str = ""
    for i, arg in enumerate(argv):
        if arg == "--config" and i + 1 < len(argv):
            config = argv[i + 1]
        elif arg.startswith("--config="):
            config = arg.partition("=")[2]
    return error_language(argparse.Namespace(config=config), environ)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    with argparse_language(usage_language(argv)):  # argparse words its headings when the parser is built
        parser = build_parser()
        args = parser.parse_args(argv)
    logging.basicConfig(level=[logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)],
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if not getattr(args, "_run", None):
        with argparse_language(usage_language(argv)):
            parser.print_help()
        return 1
    try:
        with console_in(error_language(args)):  # the command's progress lines and reports (usage_i18n.say)
            return int(args._run(args) or 0)
    except _user_errors() as exc:
        text = exc.text if isinstance(exc, TablehubError) else (exc.args[0] if exc.args else str(exc))
        print(f"tablehub {args.command}: {translate(text, error_language(args))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
