"""The game engines, by registry name.

``new_game(setup)`` builds the engine a :class:`~tablehub.games.base.Setup` names.
Engines are imported lazily so that loading one game never loads the others.
"""
from __future__ import annotations

import importlib

from ..i18n import T
from .base import Game, SetupError, Setup

#: registry name -> "module:Class"
GAMES: dict[str, str] = {
    "neuesland": "tablehub.games.neuesland.engine:NeuesLand",
    "suedsee": "tablehub.games.suedsee.engine:Suedsee",
    "tahiti": "tablehub.games.tahiti.engine:Tahiti",
    "karibik": "tablehub.games.karibik.engine:Karibik",
    "sunda": "tablehub.games.sunda.engine:Sunda",
}

ALIASES = {"neues_land": "neuesland", "discovery": "neuesland", "südsee": "suedsee", "south_seas": "suedsee",
           "caribbean": "karibik", "caraibes": "karibik", "caraïbes": "karibik",
           "sunda_to_sahul": "sunda", "sunda-to-sahul": "sunda", "sahul": "sunda"}

#: seeded random playouts of the games that are not tile games (the tile games share
#: ``tiles.playout``): registry name -> "module:function(players, seed, options)"
PLAYOUTS: dict[str, str] = {
    "karibik": "tablehub.games.karibik.playout:random_game",
    "sunda": "tablehub.games.sunda.playout:random_game",
    "tahiti": "tablehub.games.tahiti.playout:seeded_game",
}


def game_class(name: str) -> type[Game]:
    key = ALIASES.get(str(name).lower(), str(name).lower())
    if key not in GAMES:
        raise SetupError(T("unknown game {name} (expected one of: {known})", name=repr(name),
                           known=", ".join(sorted(GAMES))))
    module, _, cls = GAMES[key].partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise SetupError(T("game {name} is not available in this build ({module} missing)", name=repr(key),
                           module=exc.name)) from None
    return getattr(mod, cls)


def new_game(setup: Setup) -> Game:
    cls = game_class(setup.game)
    if setup.game != cls.name:
        setup = Setup(cls.name, setup.players, setup.colors, setup.options)
    return cls(setup)
