"""Game state turned into what the page shows: players with colours, resources, history, results.

Pure functions of a session; no Flask here.

>>> describe_action({"type": "place_tile", "tile": "ds017", "x": 1, "y": -2, "rotation": 90})
'Place tile ds017 at (1, -2), turned 90°'
>>> colour_css("red"), colour_css("#123456"), colour_css("teal")
('#d55e00', '#123456', 'teal')
"""
from __future__ import annotations

import dataclasses
import re
import typing
from typing import Any, Mapping

from tablehub.games.base import FIELD_LABELS, record_code, record_words
from tablehub.i18n import T
from tablehub.session import Session

#: Player colour names -> CSS colours. Shades from the Okabe-Ito palette where one fits, so that
#: the common table colours stay apart for colour-blind players; the page always prints the name too.
COLOURS: dict[str, str] = {
    "red": "#d55e00", "blue": "#0072b2", "yellow": "#f0e442", "green": "#009e73", "black": "#222222",
    "white": "#f4f4f4", "orange": "#e69f00", "purple": "#a05aa0", "pink": "#cc79a7", "grey": "#8c8c8c",
    "gray": "#8c8c8c", "brown": "#8b5a2b", "sky": "#56b4e9",
}

#: Offered on the set-up page, in this order.
SETUP_COLOURS = ("red", "blue", "yellow", "green", "black", "white", "orange", "purple", "pink", "grey")

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
_NAME = re.compile(r"^[a-zA-Z]{1,20}$")


def colour_css(name: str) -> str:
    """A CSS colour for a player colour name (names CSS knows pass through; anything else is grey)."""
    key = str(name).strip().lower()
    if key in COLOURS:
        return COLOURS[key]
    if _HEX.match(key) or _NAME.match(key):
        return key
    return COLOURS["grey"]


def player_colours(players: tuple[str, ...], colours: tuple[str, ...]) -> list[str]:
    """The colour name of each player: the set-up's, or table colours in order."""
    if colours and len(colours) == len(players):
        return [str(c) for c in colours]
    return list(SETUP_COLOURS[: len(players)])


def describe_action(action: Mapping[str, Any], game: Any = None) -> str:
    """A short sentence for an action dict, for the history and the suggestion buttons: the
    game's table words when ``game`` (as it is just before or after the action) has them
    (:meth:`tablehub.games.base.Game.describe`), else a generic one from the fields."""
    if game is not None:
        return game.say(action)
    return record_words(action)


def action_code(action: Mapping[str, Any], game: Any = None) -> str:
    """The action's record fields in one line, printed small under its words (ids for whoever
    corrects a record)."""
    return game.code(action) if game is not None else record_code(action)


def action_forms(game: Any) -> list[dict[str, Any]]:
    """The fields of every action type of a game, for the hand-entry form.

    Field kinds: ``int``, ``str``, ``bool``, ``list`` and ``object`` (entered as JSON),
    with ``optional`` and ``default``; a field named ``player`` lists the players.
    ``label``, ``help`` and each field's ``label`` are :class:`~tablehub.i18n.Text` where the action
    class names them (:class:`~tablehub.games.base.Action`'s ``label``, ``help``, ``field_labels``),
    so the page's JSON renders them in the reader's language; ``name`` stays the field's JSON key.
    """
    forms = []
    for kind, cls in game.ACTIONS.items():
        hints = typing.get_type_hints(cls)
        names = field_labels(cls)
        fields = []
        for f in dataclasses.fields(cls):
            hint = hints.get(f.name, Any)
            optional = type(None) in typing.get_args(hint)
            base = [a for a in typing.get_args(hint) if a is not type(None)] if optional else [hint]
            fkind = _field_kind(base[0] if base else hint)
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            default = f.default if f.default is not dataclasses.MISSING else None
            if isinstance(default, tuple):
                default = list(default)
            label = T(names[f.name]) if f.name in names else f.name.replace("_", " ")
            field = {"name": f.name, "label": label, "kind": fkind, "optional": optional or has_default,
                     "default": default}
            if f.name == "player" or f.name.endswith("_player"):
                field["choices"] = list(game.players)
            fields.append(field)
        forms.append({"type": kind, "label": action_label(cls, kind), "help": action_help(cls), "fields": fields})
    return forms


def action_label(cls: type, kind: str) -> str:
    """What the form calls an action type: its class's ``label`` (a Text), else the tag in words."""
    label = getattr(cls, "label", None)
    return T(label) if label else kind.replace("_", " ").capitalize()


def action_help(cls: type) -> str:
    """The form's help line for an action type: its class's ``help`` (a Text), else the first line
    of its docstring."""
    help_ = getattr(cls, "help", None)
    if help_:
        return T(help_)
    return (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""


def field_labels(cls: type) -> dict[str, str]:
    """Field name -> label template for an action class: the core's shared names
    (:data:`tablehub.games.base.FIELD_LABELS`), then each base class's ``field_labels``, the
    class's own last."""
    out = dict(FIELD_LABELS)
    for klass in reversed(cls.__mro__):
        out.update(vars(klass).get("field_labels") or {})
    return out


def _field_kind(hint: Any) -> str:
    origin = typing.get_origin(hint) or hint
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if hint is float:
        return "float"
    if hint is str:
        return "str"
    if origin in (tuple, list):
        return "list"
    if origin is dict:
        return "object"
    return "json"


def game_snapshot(session: Session, history: list[dict[str, Any]], finals: list[dict[str, Any]],
                  ended: float | None) -> dict[str, Any]:
    """The page's view of one game. Call with ``session.lock`` held."""
    game = session.game
    summary = game.summary()
    resources = summary.get("resources") or {}
    per_player = resources.get("players", {}) if isinstance(resources, dict) else {}
    table = resources.get("table", {}) if isinstance(resources, dict) else {}
    colours = player_colours(game.players, tuple(session.setup.colors))
    scores = summary["scores"]
    players = []
    for i, name in enumerate(game.players):
        players.append({
            "name": name, "colour": colours[i], "css": colour_css(colours[i]), "score": scores.get(name, 0),
            "current": (not game.finished) and name == summary["current"], "resources": per_player.get(name, {}),
        })
    snap: dict[str, Any] = {
        "id": session.game_id,
        "name": game.name,
        "title": summary.get("title") or game.name,
        "players": players,
        "current": None if game.finished else summary["current"],
        "turn": summary["turn"],
        "finished": game.finished,
        "ended": ended,
        "provisional": summary.get("provisional"),
        "table": table,
        "options": dict(game.options),
        "history": list(history),
        "finals": list(finals),
        "actions": len(session.rows),
        "view_kind": _view_kind(game),
    }
    if game.finished:
        snap["results"] = results(game)
    return snap


def _view_kind(game: Any) -> str:
    try:
        return str(game.view().get("kind", "none"))
    except Exception:  # a view is a drawing aid; never let it break the scoreboard
        return "none"


def results(game: Any) -> list[dict[str, Any]]:
    """Final standings, best first, every point explained; tied players share a rank."""
    scores = game.scores()
    explained: dict[str, dict[str, list[dict[str, Any]]]] = {p: {"play": [], "final": []} for p in game.players}
    for ev in game.score_log:
        explained[ev.player]["final" if ev.kind == "final" else "play"].append(ev.to_dict())
    order = sorted(game.players, key=lambda p: -scores[p])
    out = []
    for p in order:
        rank = 1 + sum(1 for q in game.players if scores[q] > scores[p])
        play = explained[p]["play"]
        final = explained[p]["final"]
        out.append({"player": p, "score": scores[p], "rank": rank, "winner": rank == 1,
                    "during_play": sum(e["points"] for e in play), "at_end": sum(e["points"] for e in final),
                    "events": play + final})
    return out
