"""How what the camera saw on the Karibik board becomes Karibik actions (the engine's side of
``tablehub.tracking.boardmoves``: tracking stays game-agnostic).

The camera sees where each ship stands, not the way it went. A ship that moved from A to B
becomes a ``sail`` along a shortest way through free spaces (the rules' ``sail`` checks the
allowance and the occupied spaces and refuses with the reason: ``too_far``, ``occupied``).
When several shortest ways exist and they pass different ports or hideouts (where the mover
may act on the way), each is offered as a choice so the phone can ask; ways that differ only
on open sea are the same move for the rules, and the first is taken.

What NEXT logs (the live tracker, docs/boardcam.md): a sail after which the ship can do nothing
more where it stands (no chest to raid, steal, swap, hand over or safeguard) ends the move with
it (``end_move``): a further sail is the same as one longer sail. Where a chest action is
possible, the sail alone is logged, the phone enters the chest actions, and NEXT with the ship
at rest ends the move (:meth:`KaribikBoardMoves.at_rest`).
"""
from __future__ import annotations

from collections import deque
from typing import Any, Mapping

from ...i18n import T, Text
from .board import Board

#: the most shortest ways offered as choices
MAX_CHOICES = 6


def shortest_ways(board: Board, start: int, goal: int, blocked: set[int], limit: int = 50) -> list[list[int]]:
    """Every shortest way (spaces entered, in order) from ``start`` to ``goal`` avoiding
    ``blocked`` (up to ``limit`` of them)."""
    blocked = set(blocked) - {start, goal}
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for n in board.neighbours[s]:
            if n not in dist and n not in blocked:
                dist[n] = dist[s] + 1
                queue.append(n)
    if goal not in dist:
        return []
    ways: list[list[int]] = []

    def back(s: int, tail: list[int]) -> None:
        if len(ways) >= limit:
            return
        if s == start:
            ways.append(tail[::-1])
            return
        for n in sorted(board.neighbours[s]):
            if dist.get(n) == dist[s] - 1:
                back(n, tail + [s])

    back(goal, [])
    return ways


class KaribikBoardMoves:
    """The engine's adapter: ``candidates(game, moved)`` -> lists of actions, each list one
    reading of what happened, or a reason when none can be; ``pieces(game)`` where each piece
    stands; ``at_rest(game)`` what NEXT logs when nothing moved; ``table_actions`` the action
    types NEXT logs; ``board(game)`` / ``load(spec)`` the printed board (size, space polygons)."""

    #: the action types the camera's readings log (with NEXT or a phone choice); the rest is the phone's
    table_actions = frozenset({"sail", "end_move"})
    #: the actions that move pieces (the camera sees where they end up, not the way)
    moves = frozenset({"sail"})
    #: a space holds one ship at most: two seen on one space means one of them is misread
    one_per_space = True

    def pieces(self, game: Any) -> dict[str, int]:
        """Where each ship stands in ``game`` (none before ``place_ships``)."""
        return dict(game.ship_at)

    def movable(self, game: Any) -> set[str]:
        """The pieces the rules let move now: the ship being moved, in a move."""
        return {game.ship} if getattr(game, "phase", None) == "move" else set()

    def at_rest(self, game: Any) -> list[dict[str, Any]]:
        """What NEXT logs when the table shows no move: the end of the move, in a move."""
        return [{"type": "end_move"}] if getattr(game, "phase", None) == "move" else []

    def board(self, game: Any) -> Board:
        return game.board

    def load(self, spec: str) -> Board:
        """The board a camera enrolment names (``provisional``, ``grid`` or a board file)."""
        from .board import load_board

        return load_board(spec)

    def candidates(self, game: Any, moved: Mapping[str, tuple[int, int]]) -> tuple[list[list[dict[str, Any]]],
                                                                                   Text | str]:
        if not moved:
            return [], ""
        board: Board = game.board
        if getattr(game, "phase", None) != "move":
            names = ", ".join(sorted(moved))
            return [], T("{ships} moved, but no ship is being moved now ({waiting})", ships=names,
                         waiting=game.waiting_for())
        ship = game.ship
        others = sorted(set(moved) - {ship})
        if others:
            return [], T("{ships} moved, but {ship} is the ship being moved", ships=", ".join(others), ship=ship)
        start, goal = moved[ship]
        occupied = set(game.occupant) - {start}
        ways = shortest_ways(board, start, goal, occupied)
        if not ways:
            return [], T("{ship} moved from {start} to {goal}: no way through free spaces", ship=ship,
                         start=board.space_name(start), goal=board.space_name(goal))
        distinct: dict[tuple[int, ...], list[int]] = {}
        for way in ways:
            stops = tuple(s for s in way[:-1] if board.port_town(s) is not None or s in board.hideouts)
            distinct.setdefault(stops, way)
        choices = [[{"type": "sail", "path": way}] for way in list(distinct.values())[:MAX_CHOICES]]
        if len(choices) == 1 and _nothing_left_to_do(game, choices[0][0]):
            choices[0].append({"type": "end_move"})
        return choices, ""

    def explain(self, game: Any, actions: list[dict[str, Any]]) -> Text:
        board: Board = game.board
        if actions[0].get("type") != "sail":  # no move seen: it stays
            return T("{ship} stays on {space}: the move ends", ship=game.ship,
                     space=board.space_name(game.ship_at[game.ship]))
        path = actions[0]["path"]
        via = [board.space_name(s) for s in path[:-1] if board.port_town(s) is not None or s in board.hideouts]
        goal = board.space_name(path[-1])
        if not via:
            return T("{ship} sails to {space}", ship=game.ship, space=goal)
        stops = via[0]
        for more in via[1:]:
            stops = T("{first}, {next}", first=stops, next=more)
        return T("{ship} sails to {space} via {stops}", ship=game.ship, space=goal, stops=stops)


def _nothing_left_to_do(game: Any, sail: dict[str, Any]) -> bool:
    """After ``sail``, can the ship only sail on or end its move (no chest action where it stands)?"""
    trial = game.copy()
    try:
        trial.apply(trial.parse_action(sail))
    except Exception:  # the rules refuse the sail: tracking reports their reason
        return False
    first = next(iter(trial.legal_actions()), None)  # chest actions come first, then end_move
    return first is not None and first.type == "end_move"
