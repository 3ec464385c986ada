"""Rule scenarios: a record whose expectations read as sentences.

A scenario is a JSON file::

    {"about": "Seed 001: a complete plain of 5 tiles scores 10",
     "game": "neuesland", "players": ["Ana", "Ben"], "options": {},
     "actions": [
        {"type": "place_tile", "tile": "ds004", "x": 0, "y": -1, "rotation": 0},
        {"type": "place_figure", "region": "G:NSW"},
        {"type": "place_tile", "tile": "ds040", "x": 1, "y": 0, "rotation": 0,
         "refused": "edge_mismatch"},
        {"type": "finish"}
     ],
     "expect": ["Ana scored 10 for a complete plain of 5 tiles", "Ana has 10 points"]}

An action with ``"refused": RULE`` must be refused with that rule key (and
change nothing); ``{"type": "finish"}`` runs the final evaluation. Sentences
(see :data:`SENTENCES`) are checked after the last action; a sentence may also
be given inline as ``{"type": "expect", "that": "..."}`` to check mid-game.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

from .games import new_game
from .games.base import Game, IllegalAction, Setup, TablehubError


class ScenarioFailure(AssertionError):
    pass


def _player(game: Game, name: str) -> str:
    if name not in game.players:
        raise ScenarioFailure(f"no player {name!r} in this scenario ({', '.join(game.players)})")
    return name


def _has_points(game: Game, m: re.Match) -> str | None:
    p, n = _player(game, m["p"]), int(m["n"])
    got = game.scores()[p]
    return None if got == n else f"{p} has {got} points, not {n}"


def _scored(game: Game, m: re.Match) -> str | None:
    p, n, what = _player(game, m["p"]), int(m["n"]), m["what"].strip()
    for ev in game.score_log:
        if ev.player == p and ev.points == n and what.lower() in ev.reason.lower():
            return None
    mine = [str(e) for e in game.score_log if e.player == p] or ["nothing"]
    return f"{p} did not score {n} for {what!r}; {p}'s score events: {'; '.join(mine)}"


def _scored_nothing(game: Game, m: re.Match) -> str | None:
    p = _player(game, m["p"])
    evs = [str(e) for e in game.score_log if e.player == p and e.points]
    return None if not evs else f"{p} scored: {'; '.join(evs)}"


def _resource(game: Game, m: re.Match) -> str | None:
    p, n, key = _player(game, m["p"]), int(m["n"]), m["key"].strip().replace(" ", "_")
    res = game.resources()["players"][p]
    if key not in res:
        raise ScenarioFailure(f"resources of {p} have no {key!r} (they have {', '.join(res)})")
    return None if res[key] == n else f"{p} has {res[key]} {key}, not {n}"


def _table(game: Game, m: re.Match) -> str | None:
    n, key = int(m["n"]), m["key"].strip().replace(" ", "_")
    res = game.resources()["table"]
    if key not in res:
        raise ScenarioFailure(f"the table has no {key!r} (it has {', '.join(res)})")
    return None if res[key] == n else f"the table has {res[key]} {key}, not {n}"


def _to_play(game: Game, m: re.Match) -> str | None:
    p = _player(game, m["p"])
    nxt = game.to_play
    return None if nxt == p else f"{nxt} is to play, not {p}"


def _legal_count(game: Game, m: re.Match) -> str | None:
    n, tile = int(m["n"]), m["tile"]
    got = len(game.legal_placements(tile))  # type: ignore[attr-defined]
    return None if got == n else f"{tile} has {got} legal placements, not {n}"


def _wins(game: Game, m: re.Match) -> str | None:
    names = [x.strip() for x in re.split(r",| and ", m["ps"]) if x.strip()]
    got = game.winners()
    return None if sorted(got) == sorted(names) else f"the winners are {', '.join(got)}"


SENTENCES: list[tuple[re.Pattern[str], Callable[[Game, re.Match], str | None]]] = [
    (re.compile(r"^(?P<p>\S+) has (?P<n>-?\d+) points?\.?$"), _has_points),
    (re.compile(r"^(?P<p>\S+) scored (?P<n>-?\d+) for (?P<what>.+?)\.?$"), _scored),
    (re.compile(r"^(?P<p>\S+) scored nothing\.?$"), _scored_nothing),
    (re.compile(r"^(?P<p>\S+) has (?P<n>\d+) (?P<key>[a-z_ ]+?)\.?$"), _resource),
    (re.compile(r"^the table has (?P<n>\d+) (?P<key>[a-z_ ]+?)\.?$"), _table),
    (re.compile(r"^(?P<p>\S+) is to play\.?$"), _to_play),
    (re.compile(r"^(?P<tile>\S+) has (?P<n>\d+) legal placements?\.?$"), _legal_count),
    (re.compile(r"^(?P<ps>.+?) (wins|share the win)\.?$"), _wins),
]


def check_sentence(game: Game, sentence: str) -> str | None:
    """``None`` when the sentence holds, else what is true instead. A game may add its own
    sentences (``SENTENCES`` on the engine class, same shape); they are tried first."""
    for pattern, fn in [*getattr(game, "SENTENCES", ()), *SENTENCES]:
        m = pattern.match(sentence.strip())
        if m:
            return fn(game, m)
    raise ScenarioFailure(f"cannot read the sentence {sentence!r}")


def run_scenario(data: dict[str, Any], source: str = "<scenario>") -> Game:
    """Play a scenario; raise :class:`ScenarioFailure` listing every expectation that fails."""
    setup = Setup(data["game"], tuple(data["players"]), tuple(data.get("colors", ())), data.get("options", {}))
    game = new_game(setup)
    problems: list[str] = []
    for i, raw in enumerate(data["actions"]):
        raw = dict(raw)
        kind = raw.get("type")
        if kind == "finish":
            game.finish()
            continue
        if kind == "expect":
            why = check_sentence(game, raw["that"])
            if why:
                problems.append(f"after action {i - 1}: expected {raw['that']!r}, but {why}")
            continue
        refused = raw.pop("refused", None)
        try:
            action = game.parse_action(raw, where=f"action {i}")
            before = (game.scores(), game.resources(), len(game.history))
            game.apply(action)
        except IllegalAction as exc:
            if refused is None:
                raise ScenarioFailure(f"{source}: action {i} was refused: {exc}") from None
            if exc.rule != refused:
                problems.append(f"action {i} was refused for {exc.rule!r} ({exc}), expected {refused!r}")
            if (game.scores(), game.resources(), len(game.history)) != before:
                problems.append(f"refused action {i} changed the game")
            continue
        except TablehubError as exc:
            raise ScenarioFailure(f"{source}: action {i}: {exc}") from None
        if refused is not None:
            problems.append(f"action {i} was accepted, expected a refusal for {refused!r}")
    for sentence in data.get("expect", []):
        why = check_sentence(game, sentence)
        if why:
            problems.append(f"expected {sentence!r}, but {why}")
    if problems:
        raise ScenarioFailure(f"{source}: " + "; ".join(problems))
    return game


def load_scenario(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))
