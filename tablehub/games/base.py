"""The contract every game engine keeps.

An engine is a pure object in the python-chess manner: it holds a position,
``validate(action)`` says why an action is refused (or ``None``), ``apply(action)``
changes the position or raises :class:`IllegalAction` naming the rule, and
``scores()``, ``resources()`` and ``score_log`` describe where the game stands.
Randomness (tile draws, dice) arrives as explicit actions: on a real table the
physical world draws, the engine only records.

Actions are small frozen dataclasses. Their ``repr`` can be pasted back, and
``to_dict``/``action_from_dict`` give the JSON shape used by records, the
SQLite log and the web API (``{"type": "place_tile", "tile": "ds017", ...}``).
"""
from __future__ import annotations

import copy
import dataclasses
import math
import types
import typing
import unicodedata
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping

from ..i18n import N_, T


class TablehubError(Exception):
    """Base of every error meant for a person at the table: one clear line.

    ``text`` is the message as given: a :class:`tablehub.i18n.Text` when it was written as one, so
    the page and the voice can render it in the reader's language (``str(exc)`` is its English)."""

    @property
    def text(self) -> str:
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


class IllegalAction(TablehubError, ValueError):
    """An action the rules refuse. ``rule`` is a short stable key, the message says why."""

    def __init__(self, message: str, rule: str = "illegal"):
        super().__init__(message)
        self.rule = rule


class ActionFormatError(TablehubError, ValueError):
    """An action that cannot even be read: unknown type, missing or ill-typed field."""


class SetupError(TablehubError, ValueError):
    """Bad players, colours or options for a game."""


# --------------------------------------------------------------------------- values in messages

#: the largest whole number an action field takes (coordinates, bids, counts are all far smaller)
INT_LIMIT = 1_000_000
#: the longest text an action field takes (tile ids, regions, names)
TEXT_LIMIT = 200
#: the longest player name (the page's name boxes hold this many)
MAX_NAME = 24
#: bidi formatting characters that reorder the text around them (LRE..RLO, LRI..PDI, marks)
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C))


def show(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for a one-line message: escapes control characters, never longer than about
    ``limit`` characters, and safe for any JSON value (a 5,000-digit number is not printed in full)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if abs(value) < 10 ** 18:
            return repr(value)
        return f"a {int(value.bit_length() * math.log10(2)) + 1}-digit number"
    if isinstance(value, float):
        if type(value) is not float:  # jsonfile.LongNumber: says how many digits it had
            return repr(value)
        return repr(value) if math.isfinite(value) or math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, str):
        text = repr(value[: limit + 1])
        return text if len(value) <= limit else text[: limit] + "...'"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(show(v, limit // 3) for v in value[:4]) + (", ..." if len(value) > 4 else "")
        return "[" + inner[:limit] + "]"
    if isinstance(value, Mapping):
        items = list(value.items())[:3]
        inner = ", ".join(f"{show(k, 20)}: {show(v, limit // 3)}" for k, v in items) + (", ..." if len(value) > 3 else "")
        return "{" + inner[:limit] + "}"
    return show(repr(value), limit)


def text_problem(text: str) -> str | None:
    """Why ``text`` may not be shown to people as it is (a control or bidi-override character), or ``None``."""
    for ch in text:
        code = "U+%04X" % ord(ch)
        if ch in BIDI_CONTROLS:
            return T("a bidi control character ({code}) that reorders the text around it", code=code)
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch == "\ufeff":
            return T("a control character ({code})", code=code)
    return None


def check_name(name: Any, where: str) -> str:
    """A player name as entered: 1 to :data:`MAX_NAME` characters, no leading or trailing space, no
    control (NUL, ESC, line breaks) or bidi-override characters. Refused, never silently changed:
    a name is how the log, the page and the buttons tell players apart."""
    if not isinstance(name, str):
        raise SetupError(T("{where}: expected a name (text), got {value}", where=where, value=show(name)))
    if not name.strip():
        raise SetupError(T("{where}: a name cannot be empty", where=where))
    if len(name) > MAX_NAME:
        raise SetupError(T("{where}: a name has at most {most} characters, got {length} ({value})", where=where,
                           most=MAX_NAME, length=len(name), value=show(name, 30)))
    why = text_problem(name)
    if why:
        raise SetupError(T("{where}: a name cannot contain {why}, got {value}", where=where, why=why,
                           value=show(name)))
    if name != name.strip():
        raise SetupError(T("{where}: a name cannot begin or end with a space, got {value}", where=where,
                           value=show(name)))
    return name


def check_players(players: Any, where: str = "") -> tuple[str, ...]:
    """Checked player names in turn order: each by :func:`check_name`, distinct (ignoring case).
    Messages: ``WHERE: players[2]: duplicate name 'Ana' (players[0] is 'Ana')``. How many players a
    game takes is the game's ``min_players``/``max_players``."""
    pre = f"{where}: " if where else ""
    if not isinstance(players, (list, tuple)) or isinstance(players, str):
        raise SetupError(T("{where}players: expected a list of names, got {value}", where=pre, value=show(players)))
    seen: dict[str, int] = {}
    for i, name in enumerate(players):
        check_name(name, f"{pre}players[{i}]")
        key = name.casefold()
        if key in seen:
            raise SetupError(T("{where}players[{i}]: duplicate name {name} (players[{j}] is {other}; names must be "
                               "distinct)", where=pre, i=i, name=show(name), j=seen[key],
                               other=show(players[seen[key]])))
        seen[key] = i
    return tuple(players)


# --------------------------------------------------------------------------- actions


#: what the hand-entry form calls a field that actions of several games share (core.po)
FIELD_LABELS: Mapping[str, str] = {"player": N_("player")}


@dataclass(frozen=True)
class Action:
    """Base of all actions. Subclasses set ``type`` (the JSON tag) as a ClassVar.

    The hand-entry form (web/present.py ``action_forms``) names an action by ``label`` and says
    what it does with ``help``, both English templates marked ``N_`` and rendered in the reader's
    language; ``field_labels`` names its fields (field name -> ``N_`` template; the base classes'
    and :data:`FIELD_LABELS` apply too). Unset, the form shows the type tag in words, the first
    line of the class docstring and the field names, in English."""

    type: ClassVar[str] = ""
    label: ClassVar[str | None] = None
    help: ClassVar[str | None] = None
    field_labels: ClassVar[Mapping[str, str]] = {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue  # optional field left out
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out


def _coerce(name: str, value: Any, hint: Any, where: str) -> Any:
    """Check (and lightly convert) one JSON value against a dataclass type hint."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        last: Exception | None = None
        for a in inner:
            try:
                return _coerce(name, value, a, where)
            except ActionFormatError as exc:  # try the next member of the union
                last = exc
        raise last or ActionFormatError(T("{where}: field '{name}' has the wrong type", where=where, name=name))
    if isinstance(value, (list, tuple, Mapping)) and _depth(value) > 8:
        raise ActionFormatError(T("{where}: field '{name}' is nested too deeply", where=where, name=name))
    if hint is Any:
        return value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ActionFormatError(T("{where}: field '{name}' must be a list, got {value}", where=where, name=name,
                                      value=show(value)))
        if len(value) > TEXT_LIMIT:
            raise ActionFormatError(T("{where}: field '{name}' must be a list of at most {most} items, got {count}",
                                      where=where, name=name, most=TEXT_LIMIT, count=len(value)))
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(name, v, args[0], where) for v in value)
        if len(args) != len(value):
            raise ActionFormatError(T("{where}: field '{name}' must have {count} items, got {value}", where=where,
                                      name=name, count=len(args), value=show(value)))
        return tuple(_coerce(name, v, a, where) for v, a in zip(value, args))
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            raise ActionFormatError(T("{where}: field '{name}' must be an object, got {value}", where=where, name=name,
                                      value=show(value)))
        if len(value) > TEXT_LIMIT:
            raise ActionFormatError(T("{where}: field '{name}' has more than {most} entries", where=where, name=name,
                                      most=TEXT_LIMIT))
        return dict(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise ActionFormatError(T("{where}: field '{name}' must be true or false, got {value}", where=where,
                                      name=name, value=show(value)))
        return value
    if hint is int:
        whole = (not isinstance(value, bool) and isinstance(value, (int, float))
                 and (isinstance(value, int) or (math.isfinite(value) and value.is_integer())))
        if not whole or abs(value) > INT_LIMIT:
            raise ActionFormatError(T("{where}: field '{name}' must be a whole number from {lo} to {hi}, got {value}",
                                      where=where, name=name, lo=-INT_LIMIT, hi=INT_LIMIT, value=show(value)))
        return int(value)
    if hint is str:
        if not isinstance(value, str):
            raise ActionFormatError(T("{where}: field '{name}' must be a string, got {value}", where=where, name=name,
                                      value=show(value)))
        if len(value) > TEXT_LIMIT:
            raise ActionFormatError(T("{where}: field '{name}' must be at most {most} characters, got {count}",
                                      where=where, name=name, most=TEXT_LIMIT, count=len(value)))
        return value
    return value


#: fields any action may carry besides its own (replay ignores them): who sent it, how sure, a remark
ANNOTATIONS: dict[str, Any] = {
    "source": lambda v: isinstance(v, str) and len(v) <= TEXT_LIMIT and text_problem(v) is None,
    "confidence": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "note": lambda v: isinstance(v, str) and len(v) <= TEXT_LIMIT and text_problem(v) is None,
}
ANNOTATION_HELP = {
    "source": N_("{where}: field '{name}' must be text of at most {most} characters without control characters, "
                 "got {value}"),
    "confidence": N_("{where}: field '{name}' must be a finite number, got {value}"),
    "note": N_("{where}: field '{name}' must be text of at most {most} characters without control characters, "
               "got {value}"),
}


def _depth(value: Any, limit: int = 9) -> int:
    """How deeply lists and objects nest in ``value`` (counting stops at ``limit``)."""
    if limit <= 0 or not isinstance(value, (list, tuple, Mapping)):
        return 0
    items = value.values() if isinstance(value, Mapping) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def action_from_dict(data: Mapping[str, Any], registry: Mapping[str, type[Action]], where: Any = None) -> Action:
    """Build an action from its JSON shape, with one-line errors naming the field (in the reader's
    language: ``where`` may be a :class:`~tablehub.i18n.Text`; by default "action")."""
    where = T("action") if where is None else where
    if not isinstance(data, Mapping):
        raise ActionFormatError(T("{where}: expected an object with a field 'type', got {value}", where=where,
                                  value=show(data)))
    kind = data.get("type")
    known = ", ".join(sorted(registry))
    if "type" not in data:
        raise ActionFormatError(T("{where}: missing field 'type' (expected one of: {known})", where=where, known=known))
    if not isinstance(kind, str):
        raise ActionFormatError(T("{where}: field 'type' must be a string naming the action (one of: {known}), "
                                  "got {value}", where=where, known=known, value=show(kind)))
    if kind not in registry:
        raise ActionFormatError(T("{where}: unknown action type {value} (expected one of: {known})", where=where,
                                  value=show(kind), known=known))
    cls = registry[kind]
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(data) - names - {"type"} - set(ANNOTATIONS)
    at = T("{where} ({kind})", where=where, kind=kind)
    if extra:  # first: a misspelt field is named as such, not as the missing one it meant
        raise ActionFormatError(T("{where}: unknown field(s) {fields}", where=at,
                                  fields=", ".join(sorted(show(k) for k in extra))))
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = _coerce(f.name, data[f.name], hints[f.name], at)
        elif (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING) or \
                f.metadata.get("required"):
            raise ActionFormatError(T("{where}: missing field '{name}'", where=at, name=f.name))
    for key, check in ANNOTATIONS.items():
        if key in data and not check(data[key]):
            raise ActionFormatError(T(ANNOTATION_HELP[key], where=at, name=key, most=TEXT_LIMIT,
                                      value=show(data[key])))
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ActionFormatError(T("{where}: {problem}", where=at, problem=exc.args[0] if exc.args else str(exc))) \
            from None


_NOT_SAID = ("type", "source", "confidence", "note")


def record_words(action: Mapping[str, Any]) -> str:
    """A sentence from an action's fields, for games (or actions) without words of their own.

    >>> record_words({"type": "place_tile", "tile": "ds017", "x": 1, "y": -2, "rotation": 90})
    'Place tile ds017 at (1, -2), turned 90°'
    >>> record_words({"type": "bid", "ship": "Arriba", "cards": [3, -1]})
    'Bid ship Arriba cards 3, -1'
    """
    data = {k: v for k, v in action.items() if k not in _NOT_SAID}
    kind = str(action.get("type", "action"))
    words = [kind.replace("_", " ").capitalize()]
    if "tile" in data:
        words.append(f"tile {data.pop('tile')}" if kind != "place_tile" else str(data.pop("tile")))
        if kind == "place_tile":
            words[0] = "Place tile"
    if "x" in data and "y" in data:
        words.append(f"at ({data.pop('x')}, {data.pop('y')})")
    if "rotation" in data:
        words[-1] += f", turned {data.pop('rotation')}°"
    for key, value in data.items():
        words.append(f"{key.replace('_', ' ')} {_field_text(value)}")
    return " ".join(words)


def record_code(action: Mapping[str, Any]) -> str:
    """An action's record fields in one short line (``"place_tile ds017 (1, -2) 90°"``).

    >>> record_code({"type": "place_figure", "region": "S:NE", "source": "camera"})
    'place_figure S:NE'
    """
    data = {k: v for k, v in action.items() if k not in _NOT_SAID}
    bits = [str(action.get("type", "action"))]
    for key in ("tile", "region"):
        if key in data:
            bits.append(str(data.pop(key)))
    if "x" in data and "y" in data:
        bits.append(f"({data.pop('x')}, {data.pop('y')})")
    if "rotation" in data:
        bits.append(f"{data.pop('rotation')}°")
    bits.extend(f"{k}={_field_text(v)}" for k, v in data.items())
    return " ".join(bits)


def _field_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


# --------------------------------------------------------------------------- setup and scoring


@dataclass(frozen=True)
class Setup:
    """What a game starts from: which game, who plays (in turn order), and options."""

    game: str
    players: tuple[str, ...]
    colors: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"game": self.game, "players": list(self.players), "options": dict(self.options)}
        if self.colors:
            d["colors"] = list(self.colors)
        return d


@dataclass(frozen=True)
class ScoreEvent:
    """One score change with the sentence a player can check."""

    player: str
    points: int
    reason: str
    kind: str = "score"  # "score" during play, "final" at the end evaluation
    turn: int = 0

    def __str__(self) -> str:
        sign = "+" if self.points >= 0 else ""
        return f"{self.player} {sign}{self.points}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def winners_of(scores: Mapping[str, int]) -> list[str]:
    """Every player with the most points, in the order given (ties are shared; RULINGS.md)."""
    if not scores:
        return []
    best = max(scores.values())
    return [p for p, points in scores.items() if points == best]


def verdict(winners: list[str]) -> str:
    """``"Ana wins"`` or ``"Ana and Ben share the win"`` (a Text)."""
    if len(winners) == 1:
        return T("{player} wins", player=winners[0])
    names: Any = winners[0] if winners else ""
    for name in winners[1:]:
        names = T("{first} and {last}", first=names, last=name)
    return T("{players} share the win", players=names)


@dataclass
class PositionResult:
    """The score of a position read off the table (no action log): per-player totals,
    the events behind them, and the explanation as lines of text."""

    scores: dict[str, int]
    events: list[ScoreEvent]
    lines: list[str]
    provisional: str | None = None

    def winners(self) -> list[str]:
        return winners_of(self.scores)


@dataclass(frozen=True)
class OptionSpec:
    """An engine option: its name, default, accepted values and a help line."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    kind: type = object
    what: str = ""  # for kind=str: what the text is, e.g. "a path to a tile catalog file"

    def check(self, value: Any, game: str) -> Any:
        if self.choices is not None and (not isinstance(value, (str, int, float, bool)) or value not in self.choices):
            raise SetupError(T("{game}: option '{option}' must be one of {choices}, got {value}", game=game,
                               option=self.name, choices=str(list(self.choices)), value=show(value)))
        if self.kind is bool and not isinstance(value, bool):
            raise SetupError(T("{game}: option '{option}' must be true or false, got {value}", game=game,
                               option=self.name, value=show(value)))
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > INT_LIMIT):
            raise SetupError(T("{game}: option '{option}' must be a whole number, got {value}", game=game,
                               option=self.name, value=show(value)))
        if self.kind is str and (not isinstance(value, str) or not value or len(value) > 4096 or "\0" in value):
            raise SetupError(T("{game}: option '{option}' must be {what}, got {value}", game=game, option=self.name,
                               what=self.what or T("text"), value=show(value)))
        return value


# --------------------------------------------------------------------------- where can it go? (hints)


def confirmed(game: "Game", candidates: Iterable[Action]) -> list[Action]:
    """The candidates ``game.validate`` accepts, in order, each once: the filter every hint goes
    through, so a hint is never a move the rules would refuse."""
    out: list[Action] = []
    seen: set[Action] = set()
    for action in candidates:
        if action not in seen and game.validate(action) is None:
            seen.add(action)
            out.append(action)
    return out


def no_hints(kind: str, note: str, piece: str | None = None) -> dict[str, Any]:
    """Hints with no place to show, and the line that says why (``"no ship is moving"``)."""
    return {"kind": kind, "piece": piece, "places": [], "note": note}


def hinted_actions(hints: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every action a hint stands for (each place lists its ``actions``), as record dicts."""
    return [a for place in hints.get("places") or [] for a in place.get("actions") or []]


# --------------------------------------------------------------------------- the engine contract


class Game:
    """Base class of every engine.

    Subclasses set ``name`` (the registry key, e.g. ``"neuesland"``), ``title``,
    ``min_players``/``max_players``, ``ACTIONS`` (type tag -> Action class),
    ``OPTIONS`` (tuple of :class:`OptionSpec`), and implement ``_validate``,
    ``_apply``, ``legal_actions``, ``resources`` and ``finish``.

    Bookkeeping kept here: ``players``, ``options``, ``score_log`` (every
    :class:`ScoreEvent`), ``turn`` (the number of the turn the last applied
    action belongs to; the session's undo-turn drops the trailing actions that
    share it), ``current`` (index of the player to act), ``finished``.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    ACTIONS: ClassVar[Mapping[str, type[Action]]] = {}
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    provisional: ClassVar[str | None] = None  # a line saying which component data is provisional

    def __init__(self, setup: Setup):
        if setup.game != self.name:
            raise SetupError(T("setup is for game {game}, not {this}", game=repr(setup.game), this=repr(self.name)))
        players = check_players(setup.players, self.name)
        if not (self.min_players <= len(players) <= self.max_players):
            raise SetupError(T("{game}: needs {least} to {most} players, got {got}", game=self.name,
                               least=self.min_players, most=self.max_players, got=len(players)))
        colors = setup.colors
        if not isinstance(colors, (list, tuple)) or not all(
                isinstance(c, str) and 0 < len(c) <= 20 and text_problem(c) is None for c in colors):
            raise SetupError(T("{game}: colours are colour names of 1 to 20 characters, got {value}", game=self.name,
                               value=show(colors)))
        if colors and len(colors) != len(players):
            raise SetupError(T("{game}: give one colour per player ({players}), got {got}", game=self.name,
                               players=len(players), got=len(colors)))
        if colors and len(set(colors)) != len(colors):
            raise SetupError(T("{game}: player colours must be distinct, got {value}", game=self.name,
                               value=show(list(colors))))
        if not isinstance(setup.options, Mapping):
            raise SetupError(T("{game}: options must be an object, got {value}", game=self.name,
                               value=show(setup.options)))
        known = {o.name: o for o in self.OPTIONS}
        options: dict[str, Any] = {o.name: o.default for o in self.OPTIONS}
        for key, value in dict(setup.options).items():
            if key not in known:
                names = ", ".join(sorted(known)) or T("none")
                raise SetupError(T("{game}: unknown option {option} (known: {names})", game=self.name,
                                   option=repr(key), names=names))
            options[key] = known[key].check(value, self.name)
        self.setup = setup
        self.players: tuple[str, ...] = players
        self.options: dict[str, Any] = options
        self.score_log: list[ScoreEvent] = []
        self.turn: int = 0
        self.current: int = 0
        self.finished: bool = False
        self.history: list[Action] = []

    # ---- the public surface -------------------------------------------------

    def parse_action(self, data: Mapping[str, Any], where: Any = None) -> Action:
        return action_from_dict(data, self.ACTIONS, where)

    def validate(self, action: Action) -> str | None:
        """``None`` when ``action`` is legal now, else the reason it is refused."""
        try:
            self._validate(action)
        except IllegalAction as exc:
            return exc.text
        return None

    def apply(self, action: Action) -> list[ScoreEvent]:
        """Apply a legal action; raise :class:`IllegalAction` (and change nothing) otherwise.

        Returns the score events the action caused.
        """
        if self.finished:
            raise IllegalAction(T("the game is over"), rule="game_over")
        if type(action) not in self.ACTIONS.values():
            raise IllegalAction(T("{action} is not an action of {game}", action=type(action).__name__, game=self.name),
                                rule="wrong_game")
        self._validate(action)
        before = len(self.score_log)
        self._apply(action)
        self.history.append(action)
        return self.score_log[before:]

    def scores(self) -> dict[str, int]:
        totals = {p: 0 for p in self.players}
        for ev in self.score_log:
            totals[ev.player] += ev.points
        return totals

    def winners(self) -> list[str]:
        """Every player with the most points (ties are shared)."""
        return winners_of(self.scores())

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def to_play(self) -> str:
        """Who acts next (tile games: who lays the next tile, once the current turn's step is done)."""
        return self.current_player

    def copy(self) -> "Game":
        return copy.deepcopy(self)

    def describe(self, action: Mapping[str, Any]) -> str | None:
        """``action`` (a record dict) in this game's words for the people at the table, or ``None``
        for the generic wording (:func:`record_words`). Table words name things by what a player
        sees (a tile by what is on it, a region by terrain and side, a place by what is next to
        it), never by ids; :meth:`code` gives the ids for whoever corrects a record. Called on
        the game as it is just before the action, or just after it (the page labels its history
        from the replay); an override must read only what the action cannot change."""
        return None

    def say(self, action: Mapping[str, Any]) -> str:
        """:meth:`describe`, or the generic wording when the game has no words of its own."""
        try:
            said = self.describe(action)
        except Exception:  # words are a courtesy: a record the game cannot word still gets its fields
            said = None
        return said or record_words(action)

    def cell_words(self, cell: tuple[int, int]) -> str:
        """Where a cell of the table is, in words (tile games: by the tiles around it)."""
        return T("at ({x}, {y})", x=cell[0], y=cell[1])

    def code(self, action: Mapping[str, Any]) -> str:
        """The action as its record fields (``"place_tile ds017 (1, -2) 90°"``): the small print
        under the table words, for whoever corrects a record."""
        return record_code(action)

    def award(self, player: str, points: int, reason: str, kind: str = "score") -> ScoreEvent:
        ev = ScoreEvent(player, points, reason, kind, self.turn)
        self.score_log.append(ev)
        return ev

    def summary(self) -> dict[str, Any]:
        """A JSON-able snapshot for pages and logs."""
        return {
            "game": self.name,
            "title": self.title,
            "players": list(self.players),
            "current": self.current_player,
            "turn": self.turn,
            "finished": self.finished,
            "scores": self.scores(),
            "resources": self.resources(),
            "provisional": self.provisional,
        }

    # ---- for subclasses -----------------------------------------------------

    def _validate(self, action: Action) -> None:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def legal_actions(self) -> Iterable[Action]:
        raise NotImplementedError

    def resources(self) -> dict[str, Any]:
        """``{"players": {name: {...}}, "table": {...}}``."""
        raise NotImplementedError

    def finish(self) -> list[ScoreEvent]:
        """End the game now and run the final evaluation (idempotent)."""
        raise NotImplementedError

    def hints(self, piece: str | None = None) -> dict[str, Any]:
        """Where the piece being placed may go now, for the board picture ("Where can it go?").

        ``{"kind": <the view's kind>, "piece": ..., "places": [...], "note": <a line or None>}``;
        every place carries ``actions``, the record dicts of the legal moves it stands for, and
        what its game's drawing needs (tile games: ``x``, ``y``, ``rotations``; Karibik: ``space``;
        Tahiti: ``cell``; Sunda: ``q``, ``r``, ``turns``). ``piece`` is the tile or piece to place
        where the game has a choice of them (tile games, Sunda). Engines derive their places from
        their own legal-action enumeration and keep only what :meth:`validate` accepts
        (:func:`confirmed`): a hint is never a move the rules refuse. An unknown ``piece`` raises
        :class:`IllegalAction`. Games without a board to hint on return no places."""
        return no_hints(self.view().get("kind", "none"), T("{game} has no board hints", game=self.title), piece)

    def view(self) -> dict[str, Any]:
        """A JSON-able description of the table for drawing (page board view, renderer).

        Tile games: ``{"kind": "tiles", "tiles": [...], "figures": [...], "last": {...}}``
        (see tablehub/games/tiles/board.py); fixed-board games describe their own.
        """
        return {"kind": "none"}
