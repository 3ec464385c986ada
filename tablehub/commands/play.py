"""``tablehub play``: play a seeded random game (or replay a record) and print the explained score."""
from __future__ import annotations

import importlib
import json
import sys

from ..games import GAMES, PLAYOUTS, game_class
from ..i18n import T, join
from ..usage_i18n import console_language, say
from ..games.tiles.game import TileGame
from ..games.tiles.playout import random_game
from ..records import load_record, record_of, replay
from ..explain import explain

NAME = "play"
HELP = T("play a seeded random game (tile games, Karibik, Sunda to Sahul) or replay a record, and print every score, explained")


def add_arguments(p) -> None:
    p.add_argument("--game", default="neuesland", help=T("neuesland (default), suedsee, karibik or sunda"))
    p.add_argument("--players", type=int, default=3, help=T("number of players (default 3)"))
    p.add_argument("--seed", type=int, default=1, help=T("random seed (default 1)"))
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=T("engine option, e.g. expert=true (JSON values)"))
    p.add_argument("--record", help=T("replay this record instead of a random game"))
    p.add_argument("--save", metavar="FILE", help=T("write the game played as a record (JSON)"))
    p.add_argument("--board", action="store_true", help=T("also print the final board as text"))


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            from ..games.base import SetupError
            raise SetupError(T("--option {value}: expected KEY=VALUE", value=repr(pair)))
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def run(args) -> int:
    if args.record:
        game = replay(load_record(args.record))
    else:
        cls = game_class(args.game)
        if cls.name in PLAYOUTS:
            module, _, func = PLAYOUTS[cls.name].partition(":")
            game = getattr(importlib.import_module(module), func)(args.players, args.seed, _options(args.option))
        elif not issubclass(cls, TileGame):
            from ..games.base import SetupError
            tile_games = [g for g in GAMES if issubclass(game_class(g), TileGame)] + sorted(PLAYOUTS)
            raise SetupError(T("random play covers {games}; for {game} use a record", games=join(list(tile_games)),
                               game=cls.name))
        else:
            game = random_game(cls.name, args.players, args.seed, _options(args.option))
    if args.board and isinstance(game, TileGame):
        print(game.board.ascii())
        print()
    print(explain(game, console_language()))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            json.dump(record_of(game).to_dict(), fh, indent=1)
        say(T("record written to {path}", path=args.save), file=sys.stderr)
    return 0
