"""The declared shape of every file the hub reads, as JSON Schema (draft 2020-12) files beside this module.

``check(data, "record", source, RecordError)`` validates parsed JSON (or TOML) against
``record.schema.json`` and raises the given :class:`~tablehub.games.base.TablehubError`
subclass with one line naming the file, the path to the bad field and what was expected::

    game.json: players[1]: expected a name of 1 to 24 characters ..., got 'A\\x1bna'
    game.json: position: unknown field 'boats' (expected: goods, ships)

A schema may give a subschema the key ``"x-expected"``: the words used for "expected ..."
when a value breaks that subschema. What a schema cannot say (duplicate names, a ship held
twice, player counts per game) the loaders check after it, in the same one-line form.

>>> check({"game": "tahiti", "players": ["Ana"], "actions": [], "extra": 1}, "record", "g.json")
Traceback (most recent call last):
...
tablehub.games.base.TablehubError: g.json: unknown field 'extra' (expected: about, actions, colors, game, note, options, players)
"""
from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..games.base import TablehubError, show
from ..i18n import N_, T, Text, Tn, chain

HERE = Path(__file__).resolve().parent
_TYPES = {"string": N_("a string"), "integer": N_("a whole number"), "number": N_("a number"),
          "object": N_("an object"), "array": N_("a list"), "boolean": N_("true or false"), "null": "null"}
#: the context of a schema's own "x-expected" words in the catalogs (tests/i18n extracts them from the .json)
EXPECTED = "schema"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def names() -> list[str]:
    """The declared formats: ``record``, ``position``, ``catalog``, ..."""
    return sorted(p.name[: -len(".schema.json")] for p in HERE.glob("*.schema.json"))


@functools.lru_cache(maxsize=None)
def schema(name: str) -> dict[str, Any]:
    """The schema ``NAME.schema.json`` (a dict)."""
    return json.loads((HERE / f"{name}.schema.json").read_text(encoding="utf-8"))


def resolved(name: str) -> dict[str, Any]:
    """Schema ``name`` with every ``$ref`` (``#/$defs/x`` or ``other.schema.json#/$defs/x``) replaced by
    what it points to. The schemas share definitions across files but never recurse, so inlining them
    works with any jsonschema release (Debian bookworm's 4.10 included) without a reference registry."""
    def walk(node: Any, home: str) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                file, _, pointer = ref.partition("#")
                target_home = file[: -len(".schema.json")] if file else home
                target: Any = schema(target_home)
                for part in filter(None, pointer.split("/")):
                    target = target[part]
                merged = {**walk(target, target_home), **{k: v for k, v in node.items() if k != "$ref"}}
                return merged
            return {k: walk(v, home) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v, home) for v in node]
        return node

    return walk(schema(name), name)


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    s = resolved(name)
    Draft202012Validator.check_schema(s)
    return Draft202012Validator(s)


def json_path(parts: Iterable[Any]) -> str:
    """``["players", 2]`` -> ``players[2]``; ``["position", "ships", "A"]`` -> ``position.ships.A``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and _IDENT.match(part):
            out += f".{part}" if out else part
        else:
            out += f"[{show(part)}]"
    return out


def toml_path(parts: Iterable[Any]) -> str:
    """``["web", "port"]`` -> ``[web] port``; ``["game", "players", 1]`` -> ``[game] players[1]``."""
    parts = list(parts)
    if not parts:
        return ""
    rest = json_path(parts[1:])
    head = parts[0] if isinstance(parts[0], str) and _IDENT.match(parts[0]) else show(parts[0])
    return f"[{head}]" + (f" {rest}" if rest else "")


def check(data: Any, name: str, source: str, error: type[TablehubError] = TablehubError,
          at: Sequence[Any] = (), toml: bool = False) -> Any:
    """Validate ``data`` against schema ``name``; return it unchanged or raise ``error`` (one line).

    ``at`` is the path of ``data`` inside its file (e.g. ``("position",)``), for the message.
    ``toml``: a settings file, whose paths read ``[web] port`` and whose fields are keys and sections.
    """
    render = toml_path if toml else json_path
    try:
        odd = _non_finite(data)
        if odd is not None:
            where, value = odd
            path = render([*at, *where])
            what = (T("expected a number of ordinary size, got {value}", value=show(value))
                    if type(value) is not float else T("expected a finite number, got {value}", value=show(value)))
            raise error(_where(source, path, what))
        err = min(_validator(name).iter_errors(data), key=_rank, default=None)
    except RecursionError:
        raise error(T("{source}: nested too deeply", source=source)) from None
    if err is None:
        return data
    path = render([*at, *err.absolute_path])
    what = describe(err, ("key" if path else "section") if toml else "field")
    raise error(_where(source, path, what))


def _where(source: str, path: str, what: Any) -> Text:
    return T("{source}: {path}: {what}", source=source, path=path, what=what) if path else \
        T("{source}: {what}", source=source, what=what)


def _non_finite(data: Any, path: tuple[Any, ...] = ()) -> tuple[tuple[Any, ...], float] | None:
    """The first NaN, Infinity or over-long number (``jsonfile.LongNumber``) in ``data``, with its path:
    JSON Schema's bounds let NaN through (every comparison with it is false)."""
    if isinstance(data, float):
        return None if math.isfinite(data) else (path, data)
    if isinstance(data, dict):
        items: Iterable[tuple[Any, Any]] = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return None
    for key, value in items:
        found = _non_finite(value, (*path, key))
        if found is not None:
            return found
    return None


#: which error to report when a value breaks several rules: the outermost first, and there a wrong
#: type, then a stray field (a Tahiti position in a Südsee file: its 'boats'), then a missing one
_ORDER = {"type": 0, "additionalProperties": 1, "required": 2}


def _rank(err: Any) -> tuple[int, int, str]:
    return len(err.absolute_path), _ORDER.get(err.validator, 3), str(list(err.absolute_path))


def _range(s: dict[str, Any], integer: bool) -> Text:
    """A number's bounds as a noun phrase: "a whole number from 0 to 20", "a number >= 1"."""
    lo, hi = s.get("minimum"), s.get("maximum")
    if lo is not None and hi is not None:
        return T("a whole number from {lo} to {hi}", lo=lo, hi=hi) if integer else \
            T("a number from {lo} to {hi}", lo=lo, hi=hi)
    if lo is not None:
        return T("a whole number >= {lo}", lo=lo) if integer else T("a number >= {lo}", lo=lo)
    if hi is not None:
        return T("a whole number <= {hi}", hi=hi) if integer else T("a number <= {hi}", hi=hi)
    return T("a whole number") if integer else T("a number")


def _items(n: int) -> Text:
    return Tn("{n} item", "{n} items", n)


def _unknown(noun: str, names: str, known: Any, n: int) -> Text:
    """A stray field (a key, a section in a settings file) with what is known there."""
    if noun == "key":
        return Tn("unknown key {names} (expected: {known})", "unknown keys {names} (expected: {known})", n,
                  names=names, known=known)
    if noun == "section":
        return Tn("unknown section {names} (expected: {known})", "unknown sections {names} (expected: {known})", n,
                  names=names, known=known)
    return Tn("unknown field {names} (expected: {known})", "unknown fields {names} (expected: {known})", n,
              names=names, known=known)


def describe(err: Any, noun: str = "field") -> Text:
    """What was expected and what came, in words, for one jsonschema error (a :class:`~tablehub.i18n.Text`: the
    settings' and files' errors read in the table's language). ``noun``: what a stray name is, ``field``, or a
    settings file's ``key`` or ``section``."""
    s, v, inst = err.schema if isinstance(err.schema, dict) else {}, err.validator, err.instance
    if v == "required":
        missing = [k for k in err.validator_value if isinstance(inst, dict) and k not in inst]
        return T("missing field {name}", name=show(missing[0] if missing else err.validator_value[0]))
    if v == "additionalProperties" and isinstance(inst, dict):
        known = set(s.get("properties", {}))
        extra = sorted(k for k in inst if k not in known)
        listed = ", ".join(show(k) for k in extra[:5]) + (", ..." if len(extra) > 5 else "")
        return _unknown(noun, listed, ", ".join(sorted(known)) or T("none"), len(extra))
    if v in ("minProperties", "maxProperties") and "x-expected" not in s:
        if v == "minProperties":
            return Tn("expected at least {n} field", "expected at least {n} fields", err.validator_value)
        return Tn("expected at most {n} field", "expected at most {n} fields", err.validator_value)
    got = show(inst)
    expected = s.get("x-expected")
    if isinstance(expected, str):
        return T("expected {what}, got {value}", what=Text(expected, context=EXPECTED), value=got)
    if v == "type":
        types = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        words = [T(_TYPES[t]) if t in _TYPES and t != "null" else t for t in types]
        return T("expected {what}, got {value}", what=chain(words, N_("{first} or {next}")), value=got)
    if v == "enum":
        return T("expected one of {values}, got {value}", values=", ".join(show(x) for x in err.validator_value),
                 value=got)
    if v == "const":
        return T("expected {what}, got {value}", what=show(err.validator_value), value=got)
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return T("expected {what}, got {value}", what=_range(s, s.get("type") == "integer"), value=got)
    if v in ("minItems", "maxItems"):
        lo, hi = s.get("minItems"), s.get("maxItems")
        if lo is not None and lo == hi:
            want = Tn("exactly {n} item", "exactly {n} items", lo)
        elif lo is not None and hi is not None:
            want = T("{lo} to {hi} items", lo=lo, hi=hi)
        elif lo is not None:
            want = Tn("at least {n} item", "at least {n} items", lo)
        else:
            want = Tn("at most {n} item", "at most {n} items", hi)
        return T("expected a list of {want}, got {count}", want=want, count=_items(len(inst)))
    if v in ("minLength", "maxLength"):
        lo, hi = s.get("minLength", 0), s.get("maxLength")
        want = T("{lo} to {hi} characters", lo=lo, hi=hi) if hi is not None else \
            Tn("at least {n} character", "at least {n} characters", lo)
        return T("expected a string of {want}, got {value}", want=want, value=got)
    if v == "uniqueItems":
        return T("expected distinct items")
    if v == "pattern":
        return T("expected text matching {pattern}, got {value}", pattern=err.validator_value, value=got)
    return T("not allowed here ({rule}), got {value}", rule=v, value=got)


def finite_int(value: Any) -> bool:
    """A whole JSON number that is not a bool (floats like 2.0 count), finite."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value) and value.is_integer()
