"""Südsee ship tokens: what each ship asks for, what it is worth, and how a delivery pays it.

A ships file (format ``tablehub-ships/1``, see docs/suedsee.md) lists every ship
token with its ``value`` (points at the end) and its ``requirement``, one of:

- ``{"exact": {"shell": 2, "fish": 1, "banana": 1}}``: exactly those goods;
- ``{"any": 6}``: 6 goods of the player's choice;
- ``{"same": 4}``: 4 goods, all of one kind;
- ``{"kinds": [3, 1]}``: 3 of one kind and 1 of another (each number a different kind).

>>> r = Requirement.from_json({"kinds": [3, 1]}, "example")
>>> r.describe()
'3 goods of one kind + 1 of another'
>>> r.problem({"shell": 3, "banana": 1}) is None
True
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ... import schemas
from ...i18n import N_, T, Text, Tn
from ...jsonfile import read_json
from ..base import TablehubError

KINDS = ("shell", "banana", "fish")
PLURAL = {"shell": "shells", "banana": "bananas", "fish": "fish"}
FORMAT = "tablehub-ships/1"
#: the groups of a "kinds" requirement: the first, the second and the third kind
_GROUP_TEXT = (N_("{count} goods of one kind"), N_("{count} of another"), N_("{count} of a third"))


class ShipsError(TablehubError):
    """A ships file that breaks the format; the message names the file and the ship."""


def good_count(kind: str, n: int) -> Text:
    """``good_count("shell", 2)`` -> ``'2 shells'``."""
    if kind == "shell":
        return Tn("{n} shell", "{n} shells", n)
    if kind == "banana":
        return Tn("{n} banana", "{n} bananas", n)
    return Tn("{n} fish", "{n} fish", n)


def uncovered_fish(n: int) -> Text:
    """``'3 uncovered fish'``: the fish of a sea that no fishing boat token covers."""
    return Tn("{n} uncovered fish", "{n} uncovered fish", n)


def plus(parts: list[Any]) -> Text:
    """``[a, b, c]`` -> ``"a + b + c"`` (a Text)."""
    out: Any = parts[0]
    for part in parts[1:]:
        out = T("{first} + {next}", first=out, next=part)
    return out if isinstance(out, Text) else T("{item}", item=out)


def goods_text(goods: Mapping[str, int]) -> Text:
    """``{"shell": 2, "fish": 1}`` -> ``'2 shells + 1 fish'`` (kinds in the order shell, banana, fish)."""
    parts = [good_count(k, goods[k]) for k in KINDS if goods.get(k)]
    return plus(parts) if parts else T("no goods")


@dataclass(frozen=True)
class Requirement:
    """What a ship asks for. ``kind`` is ``exact``, ``any``, ``same`` or ``kinds``."""

    kind: str
    exact: tuple[tuple[str, int], ...] = ()
    count: int = 0
    groups: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, data: Any, where: str) -> "Requirement":
        if not isinstance(data, dict) or len(data) != 1:
            raise ShipsError(T("{where}: 'requirement' is one of {forms}; got {value}", where=where,
                               forms='{"exact": {...}}, {"any": N}, {"same": N}, {"kinds": [N, M]}', value=repr(data)))
        (kind, value), = data.items()
        if kind == "exact":
            if not isinstance(value, dict) or not value or not all(
                    k in KINDS and _positive(n) for k, n in value.items()):
                raise ShipsError(T("{where}: 'exact' maps goods ({kinds}) to counts >= 1, got {value}", where=where,
                                   kinds=", ".join(KINDS), value=repr(value)))
            return cls("exact", exact=tuple((k, int(value[k])) for k in KINDS if k in value))
        if kind in ("any", "same"):
            if not _positive(value):
                raise ShipsError(T("{where}: {kind} takes a whole number >= 1, got {value}", where=where, kind=repr(kind),
                                   value=repr(value)))
            return cls(kind, count=int(value)) if kind == "any" else cls("kinds", groups=(int(value),))
        if kind == "kinds":
            if (not isinstance(value, list) or not 1 <= len(value) <= len(KINDS)
                    or not all(_positive(n) for n in value)):
                raise ShipsError(T("{where}: 'kinds' is a list of 1 to {most} counts >= 1 (each a different kind), got "
                                   "{value}", where=where, most=len(KINDS), value=repr(value)))
            return cls("kinds", groups=tuple(sorted((int(n) for n in value), reverse=True)))
        raise ShipsError(T("{where}: unknown requirement {kind} (expected exact, any, same or kinds)", where=where,
                           kind=repr(kind)))

    @property
    def total(self) -> int:
        if self.kind == "exact":
            return sum(n for _, n in self.exact)
        return self.count if self.kind == "any" else sum(self.groups)

    @property
    def fixed(self) -> dict[str, int] | None:
        """The goods paid when the requirement leaves no choice."""
        return dict(self.exact) if self.kind == "exact" else None

    def describe(self) -> Text:
        if self.kind == "exact":
            return goods_text(dict(self.exact))
        if self.kind == "any":
            return T("{count} goods of the player's choice", count=self.count)
        if len(self.groups) == 1:
            return T("{count} goods of one kind", count=self.groups[0])
        parts = [T(_GROUP_TEXT[min(i, 2)], count=n) for i, n in enumerate(self.groups)]
        return plus(parts)

    def problem(self, paid: Mapping[str, int]) -> str | None:
        """Why ``paid`` does not meet this requirement (holdings aside), or ``None``."""
        paid = {k: n for k, n in paid.items() if n}
        if self.kind == "exact":
            return None if paid == dict(self.exact) else T("it asks for exactly {goods}", goods=self.describe())
        if sum(paid.values()) != self.total:
            return T("it asks for {count} goods ({goods}), not {paid}", count=self.total, goods=self.describe(),
                     paid=sum(paid.values()))
        if self.kind == "any":
            return None
        if sorted(paid.values(), reverse=True) != list(self.groups):
            return T("it asks for {goods}", goods=self.describe())
        return None

    def payments(self, holdings: Mapping[str, int]) -> list[dict[str, int]]:
        """Every way a player holding ``holdings`` can pay, in a stable order."""
        return [dict(p) for p in _payments(self, tuple(holdings.get(k, 0) for k in KINDS))]

    def _payments(self, have: tuple[int, ...]) -> list[dict[str, int]]:
        holdings = dict(zip(KINDS, have))
        out: list[dict[str, int]] = []
        if self.kind == "exact":
            need = dict(self.exact)
            if all(holdings.get(k, 0) >= n for k, n in need.items()):
                out.append(need)
        elif self.kind == "any":
            for a in range(min(self.count, holdings.get("shell", 0)) + 1):
                for b in range(min(self.count - a, holdings.get("banana", 0)) + 1):
                    c = self.count - a - b
                    if c <= holdings.get("fish", 0):
                        out.append({k: n for k, n in zip(KINDS, (a, b, c)) if n})
        else:
            seen = set()
            for kinds in itertools.permutations(KINDS, len(self.groups)):
                pay = dict(zip(kinds, self.groups))
                key = tuple(sorted(pay.items()))
                if key not in seen and all(holdings.get(k, 0) >= n for k, n in pay.items()):
                    seen.add(key)
                    out.append({k: pay[k] for k in KINDS if k in pay})
        return out

    def to_json(self) -> dict[str, Any]:
        if self.kind == "exact":
            return {"exact": dict(self.exact)}
        if self.kind == "any":
            return {"any": self.count}
        return {"same": self.groups[0]} if len(self.groups) == 1 else {"kinds": list(self.groups)}


def _positive(n: Any) -> bool:
    return isinstance(n, (int, float)) and not isinstance(n, bool) and n >= 1 and float(n).is_integer()


@functools.lru_cache(maxsize=4096)
def _payments(req: Requirement, have: tuple[int, ...]) -> tuple[dict[str, int], ...]:
    """Memo of :meth:`Requirement.payments`: goods change rarely, the question comes every turn."""
    return tuple(req._payments(have))


@dataclass(frozen=True)
class Ship:
    id: str
    value: int
    requirement: Requirement
    note: str = ""

    def describe(self) -> Text:
        return T("ship {ship} ({goods}; {points} points)", ship=self.id, goods=self.requirement.describe(),
                 points=self.value)


@dataclass(frozen=True)
class ShipSet:
    path: str
    set_name: str
    provisional: bool
    ships: dict[str, Ship]

    def ship(self, ship_id: str) -> Ship:
        return self.ships[ship_id]


def build_ships(data: Any, path: str = "<ships>") -> ShipSet:
    """Check a ships file against ``tablehub/schemas/ships.schema.json``, then that ids are distinct."""
    schemas.check(data, "ships", path, ShipsError)
    ships: dict[str, Ship] = {}
    for i, row in enumerate(data["ships"]):
        where = f"{path}: ships[{i}] ({row['id']})"
        if row["id"] in ships:
            raise ShipsError(T("{where}: duplicate ship id {ship}", where=where, ship=repr(row["id"])))
        req = Requirement.from_json(row["requirement"], where)
        ships[row["id"]] = Ship(row["id"], int(row["value"]), req, str(row.get("note", "")))
    return ShipSet(path, str(data.get("set", "")), bool(data.get("provisional", False)), ships)


_CACHE: dict[str, ShipSet] = {}


def load_ships(path: str | Path) -> ShipSet:
    """Load (once per file) and check a ships file; one-line :class:`ShipsError` on any problem."""
    key = str(Path(path).expanduser().resolve())
    if key not in _CACHE:
        data, source = read_json(path, ShipsError, "ships file")
        _CACHE[key] = build_ships(data, source)
    return _CACHE[key]
