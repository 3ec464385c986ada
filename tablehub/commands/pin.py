"""``tablehub pin``: show the table PIN, choose a new one, or lift a PIN lockout.

The PIN lives in the data folder (file ``pin``, mode 0600), so it survives restarts and
phones stay unlocked. Run beside the service (as its user) it changes what the running
hub accepts at once: a new PIN locks every phone again; ``--lift`` ends a lockout after
too many wrong PINs (holding NEXT and CHECK together for 5 s on the table does the same).

    sudo -u tablehub tablehub pin --data /var/lib/tablehub          # show it
    sudo -u tablehub tablehub pin --data /var/lib/tablehub --new    # a new random PIN
    sudo -u tablehub tablehub pin --data /var/lib/tablehub --lift   # lift a lockout
"""
from __future__ import annotations

import argparse

from ..access import DEFAULT_DIGITS, MAX_DIGITS, MIN_DIGITS, PinKeeper, grouped
from ..i18n import T
from ..usage_i18n import say
from ..games.base import TablehubError
from ._options import add_settings, settings

NAME = "pin"
HELP = T("show the table PIN, choose a new one (--new, --set), or lift a PIN lockout (--lift)")
DESCRIPTION = T("Show the table PIN, choose a new one, or lift a PIN lockout. The PIN lives in the data folder (file "
                "'pin', mode 0600), so it survives restarts and phones stay unlocked. Run beside the service (as its "
                "user) it changes what the running hub accepts at once: a new PIN locks every phone again; --lift "
                "ends a lockout after too many wrong PINs (holding NEXT and CHECK together for 5 s on the table does "
                "the same).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_settings(parser)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--new", action="store_true", help=T("make a new random PIN (phones must enter it again)"))
    what.add_argument("--set", metavar="DIGITS", help=T("use this PIN ({least} to {most} digits)", least=MIN_DIGITS, most=MAX_DIGITS))
    parser.add_argument("--digits", type=int, default=DEFAULT_DIGITS,
                        help=T("digits of a new random PIN (default {digits})", digits=DEFAULT_DIGITS))
    parser.add_argument("--lift", action="store_true", help=T("lift a lockout after too many wrong PINs"))


def run(args: argparse.Namespace) -> int:
    if not MIN_DIGITS <= args.digits <= MAX_DIGITS:
        raise TablehubError(T("--digits: a PIN has {least} to {most} digits, got {value}", least=MIN_DIGITS,
                              most=MAX_DIGITS, value=args.digits))
    cfg = settings(args)
    keeper = PinKeeper(cfg.data_dir)
    if args.set is not None:
        keeper.set_pin(args.set)
    elif args.new:
        keeper.rotate(args.digits)
    if args.lift:
        had = keeper.status()["failures"]
        was = keeper.lift("the console (tablehub pin --lift)")
        say(T("PIN entry unlocked") if was else
            T("PIN entry was not locked ({n} wrong PINs forgotten)", n=had) if had else T("PIN entry was not locked"))
    state = keeper.status()
    # a command-line tool's output, not library logging
    say(T("table PIN: {pin} (new: every phone must enter it again)", pin=grouped(keeper.pin))
        if args.new or args.set is not None else T("table PIN: {pin}", pin=grouped(keeper.pin)))
    if state["locked"]:
        say(T("PIN entry is LOCKED after {n} wrong PINs: lift it with `tablehub pin --lift` or by holding NEXT and "
              "CHECK together for 5 s", n=state["failures"]))
    elif state["failures"]:
        say(T("{n} wrong PINs since the last right one", n=state["failures"]))
    say(T("kept in {folder}", folder=str(keeper.folder)))
    return 0
