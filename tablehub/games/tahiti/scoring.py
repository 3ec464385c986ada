"""Scoring the pearl banks on the Tahiti map, for a finished game or a position read off the table.

A bank is a group of same-colour pearls joined by sides (a corner is not enough).
Its value is its number of pearls times the number of distinct empty cells that
touch it by a side or a corner; Tahiti is not an empty cell. The player(s) with
the most boats in the bank score the value; every other player with a boat in it
scores half, rounded down. A player's total is their vault plus their bank points
(cash outside the vault does not count).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ... import schemas
from ...i18n import T, Tc, Text, Tn, comma
from ..base import PositionResult, ScoreEvent, TablehubError, verdict, winners_of
from .board import PEARLS, PEARLS_PER_COLOUR, TAHITI, Cell, all_cells, all_neighbours, cell_name, parse_cell, \
    side_neighbours
from .words import bank_title, the_bank

BOATS_PER_PLAYER = 15


class PositionError(TablehubError, ValueError):
    """A Tahiti position that cannot be scored: one line naming the field."""


@dataclass(frozen=True)
class MapBoat:
    """A boat on a map cell: whose it is and the colour of its pearl."""

    owner: str
    pearl: str


@dataclass(frozen=True)
class Bank:
    pearl: str
    cells: tuple[Cell, ...]
    empties: tuple[Cell, ...]
    boats: tuple[tuple[str, int], ...]  # (owner, boats in the bank), most first, then by turn order

    @property
    def value(self) -> int:
        return len(self.cells) * len(self.empties)

    @property
    def where(self) -> str:
        return " ".join(cell_name(c) for c in self.cells)

    def label(self) -> Text:
        """``"the green bank at AB AC"``."""
        return the_bank(self.pearl, self.where)

    def title(self) -> Text:
        """``"Green bank at AB AC"``."""
        return bank_title(self.pearl, self.where)

    def formula(self) -> Text:
        pearls = Tn("{n} pearl", "{n} pearls", len(self.cells))
        empties = Tn("{n} empty cell", "{n} empty cells", len(self.empties))
        return T("{pearls} x {empties} = {value}", pearls=pearls, empties=empties, value=self.value)

    def shares(self) -> list["BankShare"]:
        """Who scores what from this bank, most boats first."""
        most = max(n for _, n in self.boats)
        leaders = [p for p, n in self.boats if n == most]
        total = len(self.cells)
        out = []
        for player, n in self.boats:
            if n == most:
                others = [p for p in leaders if p != player]
                if others:
                    reason = T("most boats ({boats} of {total}, tied with {others}) in {bank}: {formula}", boats=n,
                               total=total, others=", ".join(others), bank=self.label(), formula=self.formula())
                else:
                    reason = T("most boats ({boats} of {total}) in {bank}: {formula}", boats=n, total=total,
                               bank=self.label(), formula=self.formula())
                out.append(BankShare(player, n, True, self.value, reason))
            else:
                half = self.value // 2
                out.append(BankShare(player, n, False, half,
                                     T("{boats} of {total} boats in {bank}: half of {value}, rounded down = {half}",
                                       boats=n, total=total, bank=self.label(), value=self.value, half=half)))
        return out


@dataclass(frozen=True)
class BankShare:
    player: str
    boats: int
    most: bool
    points: int
    reason: Text


def find_banks(cells: Mapping[Cell, MapBoat], players: Iterable[str] = ()) -> list[Bank]:
    """Every bank on the map, in reading order of its first cell.

    ``players`` gives the order in which tied owners are listed (turn order)."""
    order = {p: i for i, p in enumerate(players)}
    seen: set[Cell] = set()
    banks = []
    for start in all_cells():
        if start not in cells or start in seen:
            continue
        colour = cells[start].pearl
        group, stack = [], [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            group.append(cell)
            for n in side_neighbours(cell):
                if n not in seen and n in cells and cells[n].pearl == colour:
                    seen.add(n)
                    stack.append(n)
        empties = {n for c in group for n in all_neighbours(c) if n not in cells and n != TAHITI}
        counts: dict[str, int] = {}
        for c in group:
            counts[cells[c].owner] = counts.get(cells[c].owner, 0) + 1
        boats = sorted(counts.items(), key=lambda kv: (-kv[1], order.get(kv[0], len(order)), kv[0]))
        banks.append(Bank(colour, tuple(sorted(group)), tuple(sorted(empties)), tuple(boats)))
    return banks


def vault_reason(amount: int) -> Text:
    return Tn("vault: {n} $ saved = {n} point", "vault: {n} $ saved = {n} points", amount)


def explain(banks: list[Bank], vaults: Mapping[str, int],
            players: Iterable[str]) -> tuple[list[ScoreEvent], list[Text]]:
    """The final score events (kind ``"final"``) and the explanation, bank by bank, then totals."""
    players = list(players)
    events: list[ScoreEvent] = []
    lines: list[Text] = []
    for bank in banks:
        empty = " ".join(cell_name(c) for c in bank.empties)
        lines.append(T("{bank}: {formula} (empty: {cells})", bank=bank.title(), formula=bank.formula(),
                       cells=empty or Tc("tahiti", "none")))
        parts = []
        for share in bank.shares():
            boats = Tn("{n} boat", "{n} boats", share.boats)
            parts.append(T("{player} {points} ({boats}, most)", player=share.player, points=share.points, boats=boats)
                         if share.most else
                         T("{player} {points} ({boats}, half)", player=share.player, points=share.points, boats=boats))
            if share.points:
                events.append(ScoreEvent(share.player, share.points, share.reason, "final"))
        lines.append(T("  {parts}", parts=comma(parts)))
    if not banks:
        lines.append(T("No pearl on the map."))
    for p in players:
        events.append(ScoreEvent(p, vaults.get(p, 0), vault_reason(vaults.get(p, 0)), "final"))
    lines.append(T("Vaults: {vaults}", vaults=", ".join(f"{p} {vaults.get(p, 0)} $" for p in players)))
    totals = {p: 0 for p in players}
    for ev in events:
        totals[ev.player] += ev.points
    lines.append(T("Totals: {totals} ({verdict})", totals=", ".join(f"{p} {totals[p]}" for p in players),
                   verdict=verdict(winners_of(totals))))
    return events, lines


# --------------------------------------------------------------------------- positions read off the table


def _players_of(data: Mapping[str, Any], position: Mapping[str, Any], where: str) -> list[str]:
    players = data.get("players")
    if players is None:
        found: list[str] = []
        for boat in position.get("boats") or []:
            if isinstance(boat, Mapping) and isinstance(boat.get("owner"), str) and boat["owner"] not in found:
                found.append(boat["owner"])
        for name in position.get("vaults") or {}:
            if name not in found:
                found.append(name)
        if not found:
            raise PositionError(T("{where}: give 'players' (the names, in turn order)", where=where))
        return found
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players):
        raise PositionError(T("{where}: 'players' must be a list of player names", where=where))
    if len(set(players)) != len(players):
        raise PositionError(T("{where}: player names must be distinct, got {players}", where=where, players=players))
    return list(players)


def read_position(data: Mapping[str, Any], source: str) -> tuple[list[str], dict[Cell, MapBoat], dict[str, int]]:
    """Check a position (see docs/tahiti.md) and return players, map and vaults."""
    if not isinstance(data, Mapping):
        raise PositionError(T("{source}: a Tahiti position is a JSON object with 'boats' and 'vaults'", source=source))
    position = data.get("position", data)
    if not isinstance(position, Mapping):
        raise PositionError(T("{source}: 'position' must be an object with 'boats' and 'vaults'", source=source))
    if "position" in data:
        schemas.check(position, "tahiti-position", source, PositionError, at=("position",))
    players = _players_of(data, position, source)
    boats = position.get("boats", [])
    if not isinstance(boats, list):
        raise PositionError(T("{source}: position.boats must be a list of {example}", source=source,
                              example='{"cell", "owner", "pearl"}'))
    cells: dict[Cell, MapBoat] = {}
    per_player = {p: 0 for p in players}
    per_colour = {c: 0 for c in PEARLS}
    for i, boat in enumerate(boats):
        where = f"{source}: position.boats[{i}]"
        if not isinstance(boat, Mapping):
            raise PositionError(T("{where}: expected an object like {example}", where=where,
                                  example='{"cell": "BE", "owner": ..., "pearl": "white"}'))
        extra = set(boat) - {"cell", "owner", "pearl"}
        if extra:
            raise PositionError(T("{where}: unknown field(s) {fields}", where=where, fields=", ".join(sorted(extra))))
        cell = parse_cell(boat.get("cell"))
        if cell is None:
            raise PositionError(T("{where}: cell must be a row letter then a column letter (A-F, or M for the middle "
                                  "line), like \"BE\"; got {cell}", where=where, cell=repr(boat.get("cell"))))
        if cell == TAHITI:
            raise PositionError(T("{where}: MM is the island of Tahiti, no boat can sit there", where=where))
        if cell in cells:
            raise PositionError(T("{where}: cell {cell} already holds a boat", where=where, cell=cell_name(cell)))
        owner = boat.get("owner")
        if owner not in per_player:
            raise PositionError(T("{where}: owner must be one of {players}, got {owner}", where=where,
                                  players=", ".join(players), owner=repr(owner)))
        pearl = boat.get("pearl")
        if pearl not in per_colour:
            raise PositionError(T("{where}: pearl must be one of {pearls}, got {pearl}", where=where,
                                  pearls=", ".join(PEARLS), pearl=repr(pearl)))
        per_player[owner] += 1
        per_colour[pearl] += 1
        if per_player[owner] > BOATS_PER_PLAYER:
            raise PositionError(T("{where}: {owner} has only {boats} boats", where=where, owner=owner,
                                  boats=BOATS_PER_PLAYER))
        if per_colour[pearl] > PEARLS_PER_COLOUR:
            said = dict(where=where, count=PEARLS_PER_COLOUR)
            raise PositionError({"green": T("{where}: there are only {count} green pearls", **said),
                                 "white": T("{where}: there are only {count} white pearls", **said),
                                 "black": T("{where}: there are only {count} black pearls", **said),
                                 "blue": T("{where}: there are only {count} blue pearls", **said)}[pearl])
        cells[cell] = MapBoat(owner, pearl)
    vaults_in = position.get("vaults", {})
    if not isinstance(vaults_in, Mapping):
        raise PositionError(T("{source}: position.vaults must map player names to the dollars in their vault",
                              source=source))
    vaults = {p: 0 for p in players}
    for name, amount in vaults_in.items():
        if name not in vaults:
            raise PositionError(T("{source}: position.vaults: unknown player {name} (players: {players})",
                                  source=source, name=repr(name), players=", ".join(players)))
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise PositionError(T("{source}: position.vaults.{name} must be a whole number of dollars >= 0, got "
                                  "{amount}", source=source, name=name, amount=repr(amount)))
        vaults[name] = amount
    extra = set(position) - {"boats", "vaults"}
    if extra and "position" in data:
        raise PositionError(T("{source}: position: unknown field(s) {fields}", source=source,
                              fields=", ".join(sorted(extra))))
    return players, cells, vaults


def score_position(data: Mapping[str, Any], source: str = "<position>") -> PositionResult:
    """Score a position: each bank's value, who scores what from it, vaults, totals."""
    players, cells, vaults = read_position(data, source)
    banks = find_banks(cells, players)
    events, lines = explain(banks, vaults, players)
    scores = {p: 0 for p in players}
    for ev in events:
        scores[ev.player] += ev.points
    return PositionResult(scores, events, lines)
