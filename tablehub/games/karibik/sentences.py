"""Karibik's own scenario sentences (see :mod:`tablehub.scenario`): where ships are, what they
carry, which chests lie face up or are safeguarded, a ship's allowance and reachable spaces.

    "Arriba is on space 25"            "Arriba carries the chest of Tortuga"
    "Arriba carries no chest"          "the chest of Tortuga lies face up in Havana"
    "the chest of Tortuga is safeguarded"
    "Evita may move 2 spaces"          "Evita can reach 7 spaces"
    "space 41 is reachable"            "space 41 is not reachable"
    "Bravo is being resolved"          "the game is over"         "the game goes on"
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ...i18n import T, Tc, Tn

Check = Callable[[Any, re.Match], "str | None"]


def _ship(game: Any, name: str) -> str:
    from .engine import SHIPS

    if name not in SHIPS:
        raise AssertionError(T("no ship {ship} (the ships are {ships})", ship=repr(name), ships=", ".join(SHIPS)))
    return name


def _on(game: Any, m: re.Match) -> str | None:
    ship, space = _ship(game, m["ship"]), int(m["n"])
    got = game.ship_at.get(ship)
    return None if got == space else T("{ship} is on space {space}", ship=ship, space=got)


def _carries(game: Any, m: re.Match) -> str | None:
    ship = _ship(game, m["ship"])
    got = game.hold[ship]
    want = None if m["town"] is None else m["town"]
    if got == want:
        return None
    return T("{ship} carries no chest", ship=ship) if got is None else T("{ship} carries the chest of {town}",
                                                                          ship=ship, town=got)


def _face_up(game: Any, m: re.Match) -> str | None:
    chest, town = m["chest"], m["town"] or m["chest"]
    where = [t for t, cs in game.face_up.items() if chest in cs]
    if where == [town]:
        return None
    if not where:
        return T("the chest of {chest} lies face up in no town", chest=chest)
    return T("the chest of {chest} lies face up in {towns}", chest=chest, towns=str(where))


def _secured(game: Any, m: re.Match) -> str | None:
    if m["chest"] in game.secured:
        return None
    if not game.secured:
        return T("the safeguarded chests are none")
    return T("the safeguarded chests are {chests}", chests=str(game.secured))


def _may_move(game: Any, m: re.Match) -> str | None:
    ship, n = _ship(game, m["ship"]), int(m["n"])
    if game.phase != "move" or game.ship != ship:
        return T("{ship} is not moving (waiting for {waiting})", ship=ship, waiting=game.waiting_for())
    return None if game.allowance == n else Tn("{ship} may move {n} space ({because})",
                                               "{ship} may move {n} spaces ({because})", game.allowance, ship=ship,
                                               because=game.because)


def _can_reach(game: Any, m: re.Match) -> str | None:
    ship, n = _ship(game, m["ship"]), int(m["n"])
    if game.phase != "move" or game.ship != ship:
        return T("{ship} is not moving (waiting for {waiting})", ship=ship, waiting=game.waiting_for())
    got = sorted(s for s, d in game.reachable().items() if d > 0)
    if len(got) == n:
        return None
    return Tn("{ship} can reach {n} space: {spaces}", "{ship} can reach {n} spaces: {spaces}", len(got), ship=ship,
              spaces=str(got))


def _reachable(game: Any, m: re.Match) -> str | None:
    space, want = int(m["n"]), m["not"] is None
    got = any(s == space and d > 0 for s, d in game.reachable().items())
    if got == want:
        return None
    return T("space {space} is reachable", space=space) if got else T("space {space} is not reachable", space=space)


def _resolving(game: Any, m: re.Match) -> str | None:
    ship = _ship(game, m["ship"])
    ok = game.phase in ("cards", "seventh", "move") and game.ship == ship
    return None if ok else Tc("karibik", "waiting for {waiting}", waiting=game.waiting_for())


def _over(game: Any, m: re.Match) -> str | None:
    want = m["state"] == "is over"
    if game.finished == want:
        return None
    return T("the game is over") if game.finished else Tc("karibik", "the game goes on")


SENTENCES: list[tuple[re.Pattern[str], Check]] = [
    (re.compile(r"^(?P<ship>[A-Z][a-z]+) is on space (?P<n>\d+)\.?$"), _on),
    (re.compile(r"^(?P<ship>[A-Z][a-z]+) carries (?:no chest|the chest of (?P<town>.+?))\.?$"), _carries),
    (re.compile(r"^the chest of (?P<chest>.+?) lies face up(?: in (?P<town>.+?))?\.?$"), _face_up),
    (re.compile(r"^the chest of (?P<chest>.+?) is safeguarded\.?$"), _secured),
    (re.compile(r"^(?P<ship>[A-Z][a-z]+) may move (?P<n>\d+) spaces?\.?$"), _may_move),
    (re.compile(r"^(?P<ship>[A-Z][a-z]+) can reach (?P<n>\d+) spaces?\.?$"), _can_reach),
    (re.compile(r"^space (?P<n>\d+) is (?P<not>not )?reachable\.?$"), _reachable),
    (re.compile(r"^(?P<ship>[A-Z][a-z]+) is being resolved\.?$"), _resolving),
    (re.compile(r"^the game (?P<state>is over|goes on)\.?$"), _over),
]
