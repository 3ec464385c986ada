"""``tablehub venue``: the venue board. Subscribes to the café's broker and serves a page with
every table live, the finished games and the standings (docs/venue.md).

It needs no table's database and sends nothing to any table: it only listens.
"""
from __future__ import annotations

import argparse
import datetime
import logging
import os
import threading
from typing import Any

from ..config import ConfigError, VenueConfig, topic_name_error
from ..i18n import N_, T, Text, chain
from ..usage_i18n import say
from ..games.base import TablehubError
from ..venue.board import RULES, BoardListener, VenueBoard

NAME = "venue"
HELP = T("serve the venue board: every table of a café or tournament live, standings and CSV (MQTT)")
log = logging.getLogger(__name__)


def ranking_rules() -> Any:
    """The ranking rules, each with what it ranks by, in the reader's language."""
    said = [T("{rule}: {means}", rule=key, means=Text(means)) for key, (means, _) in RULES.items()]
    return chain(said, N_("{first}; {next}"))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--broker", required=True, help=T("host name or address of the venue's MQTT broker (Mosquitto)"))
    p.add_argument("--port", type=int, default=0, help=T("broker port (default 1883, or 8883 with --tls)"))
    p.add_argument("--venue", help=T("only this venue's tables (default: every venue on the broker)"))
    p.add_argument("--listen", default="0.0.0.0:8090", help=T("address:port of the page (default 0.0.0.0:8090)"))
    p.add_argument("--rule", choices=tuple(RULES), default="wins",
                   help=T("ranking rule of the standings: {rules}", rules=ranking_rules()))
    p.add_argument("--since", default="today",
                   help=T("games that count in the standings: 'today' (since midnight, default), 'all' "
                        "(every result the broker keeps), or a local time YYYY-MM-DD[THH:MM]"))
    p.add_argument("--username", default="", help=T("broker user (see mosquitto_passwd)"))
    p.add_argument("--password-file", default="",
                   help=T("file holding the broker password (default: $TABLEHUB_VENUE_PASSWORD)"))
    p.add_argument("--tls", action="store_true", help=T("connect with TLS"))
    p.add_argument("--ca-file", default="", help=T("with --tls: the CA that signed the broker's certificate"))
    p.add_argument("--title", default="", help=T("heading of the page (default: '<venue> tables')"))


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(T("--listen {value}: expected ADDRESS:PORT such as 0.0.0.0:8090", value=repr(text)))
    return host or "0.0.0.0", int(port)


def parse_since(text: str, now: datetime.datetime | None = None) -> float | None:
    """``today`` -> local midnight, ``all`` -> None, else a local date or date and time."""
    now = now or datetime.datetime.now()
    if text == "all":
        return None
    if text == "today":
        return now.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
    try:
        return datetime.datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise ConfigError(T("--since {value}: expected today, all, or YYYY-MM-DD[THH:MM]", value=repr(text))) from None


def settings_of(args: argparse.Namespace) -> VenueConfig:
    password = os.environ.get("TABLEHUB_VENUE_PASSWORD", "")
    if args.password_file:
        try:
            password = open(args.password_file, encoding="utf-8").read().strip()
        except OSError as exc:
            raise ConfigError(T("--password-file {path}: cannot read it ({why})", path=args.password_file,
                                why=exc.strerror)) from None
    if args.venue is not None and topic_name_error(args.venue):
        raise ConfigError(T("--venue {value}: {why}", value=repr(args.venue), why=topic_name_error(args.venue)))
    if not 0 <= args.port <= 65535:
        raise ConfigError(T("--port {port}: expected 1 to 65535", port=args.port))
    if args.ca_file and not os.path.isfile(args.ca_file):
        raise ConfigError(T("--ca-file {path}: no such file", path=args.ca_file))
    if password and not args.username:
        raise ConfigError(T("a broker password is given but no --username"))
    return VenueConfig(broker=args.broker, port=args.port, venue=args.venue or "board", table="board",
                       username=args.username, password=password, tls=args.tls or bool(args.ca_file),
                       ca_file=args.ca_file)


def run(args: argparse.Namespace) -> int:
    from web.venue import VenueServer, create_venue_app

    host, port = parse_listen(args.listen)
    settings = settings_of(args)
    board = VenueBoard(args.venue, since=parse_since(args.since))
    listener = BoardListener(settings, board).start()
    try:
        server = VenueServer(create_venue_app(board, args.rule, title=args.title), host, port)
    except OSError as exc:
        listener.close()
        raise TablehubError(T("--listen {value}: cannot serve there ({why})", value=args.listen, why=exc.strerror)) from None
    address = f"http://{host}:{server.port}/"
    broker = f"{settings.broker}:{settings.broker_port}"
    say(T("venue board: {address} (broker {broker}, venue {venue})", address=address, broker=broker, venue=args.venue)
        if args.venue else T("venue board: {address} (broker {broker}, every venue)", address=address, broker=broker),
        flush=True)
    if not listener.connected.wait(5.0):
        say(T("venue board: the broker {broker} does not answer yet; retrying in the background", broker=broker),
            flush=True)
    stop = threading.Event()
    from ._hub import stop_on_signals

    stop_on_signals(stop)
    try:
        while not stop.wait(1.0):
            pass
    finally:
        server.stop()
        listener.close()
    return 0
