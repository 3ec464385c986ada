"""A recorded game as a table would show it: turn by turn, what the camera sees and what the phone enters.

:func:`turns_of` replays a record through its engine and groups the actions by
turn. Per turn, ``table`` holds the actions NEXT logs (what the camera can see: tiles
laid, figures placed or taken off; and Südsee's explicit ``skip_islander``),
``before``/``after`` the ones entered on the phone around them (a discarded tile
before the laid one, a ship delivered after it), and ``view`` the table once the
turn is done (``Game.view()``), which the sim camera draws. The live tests and the
demo are built on it.

A figure step that the record leaves open until the next action ends it (Südsee: no
islander, no ``skip_islander``) is closed with the explicit action right away, as
NEXT logs it: the same game (the engine runs the same evaluation either way), in the
order a table with a NEXT button produces.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..games import new_game
from ..games.base import Game, TablehubError
from ..records import Record, RecordError
from .interpret import _check, _try, figure_step, next_actions, skip_action


@dataclass
class TurnScript:
    number: int
    player: str
    before: list[dict[str, Any]] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    cell: tuple[int, int] | None = None  # where the hands reach (the tile laid)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return self.before + self.table + self.after


def turns_of(record: Record) -> list[TurnScript]:
    """Group a record's actions by turn (turn 0: set-up actions before the first tile)."""
    try:
        game = new_game(record.setup)
    except TablehubError as exc:
        raise RecordError(f"{record.source}: {exc}") from None
    turns: list[TurnScript] = []
    logged_by_next = next_actions(game)
    for i, data in enumerate(_closing_figure_steps(game, record, skip_action(game))):
        try:
            game.apply(game.parse_action(data, where=f"action {i}"))
        except TablehubError as exc:
            raise RecordError(f"{record.source}: action {i}: {exc}") from None
        if not turns or turns[-1].number != game.turn:
            turns.append(TurnScript(game.turn, game.current_player))
        turn = turns[-1]
        if data.get("type") in logged_by_next:
            if turn.after:  # a visible action after a phone one: keep the order by moving them before
                turn.before += turn.after
                turn.after = []
            turn.table.append(dict(data))
            if data.get("type") == "place_tile":
                turn.cell = (int(data["x"]), int(data["y"]))
        elif turn.table:
            turn.after.append(dict(data))
        else:
            turn.before.append(dict(data))
        turn.view = game.view()
    return turns


def _closing_figure_steps(game: Game, record: Record, skip: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The record's actions with ``skip`` inserted wherever the record leaves a figure step open until
    another action ends it (and at the end), replayed on a copy of ``game`` (nothing inserted without a
    ``skip``)."""
    actions = [dict(a) for a in record.actions]
    if skip is None:
        return actions
    work = game.copy()
    step = figure_step(game)
    out: list[dict[str, Any]] = []

    def close() -> None:
        if _try(work, skip) is None:
            out.append(dict(skip))

    for i, data in enumerate(actions):
        if data.get("type") not in step:
            close()
        try:
            work.apply(work.parse_action(data, where=f"action {i}"))
        except TablehubError as exc:
            raise RecordError(f"{record.source}: action {i}: {exc}") from None
        out.append(data)
    close()
    return out


def _outcome(game: Game, actions: list[dict[str, Any]]) -> Any:
    from .interpret import appearance, fork

    g = fork(game)
    try:
        for a in actions:
            g.apply(g.parse_action(a))
    except TablehubError:
        return None
    layout = getattr(g, "layout_moves", None)
    if layout is not None:  # a freely laid layout: the pieces by placement and print (not id), the whole state
        return layout.outcome(g)
    view = g.view()
    tiles = {(t["x"], t["y"]): appearance(g, t["tile"], int(t.get("rotation", 0))) for t in view.get("tiles", ())}
    figures = sorted((f["x"], f["y"], str(f.get("owner")), tuple(f.get("anchor") or ()))
                     for f in view.get("figures", ()))
    try:
        held = g.resources().get("players")  # goods too: a Südsee islander that came home with bananas
    except NotImplementedError:
        held = None
    board = getattr(g, "board_moves", None)
    if board is not None:  # a printed board: where the pieces stand, and the whole state (a move ended or not)
        return board.pieces(g), g.scores(), g.resources()
    return tiles, figures, g.scores(), held


def equivalent(game: Game, got: list[dict[str, Any]], want: list[dict[str, Any]]) -> bool:
    """Do two action lists leave the same table, scores and players' holdings (twin tiles and symmetric
    turns are equal)?"""
    a = _outcome(game, got)
    if a is None:
        return False
    b = _outcome(game, want)
    if b is None and want and _check(game, want[0]) is not None:  # the record's tile id is used up by its twin
        twin = twin_action(game, want[0])
        b = _outcome(game, [twin, *want[1:]]) if twin is not None else None
    return a == b


def twin_action(game: Game, action: dict[str, Any]) -> dict[str, Any] | None:
    """A legal ``place_tile`` of a look-alike tile (same appearance) when ``action``'s tile id is used up."""
    from .interpret import appearance

    layout = getattr(game, "layout_moves", None)
    if layout is not None:  # a laid-out table: the engine's adapter knows its look-alikes
        return layout.twin(game, action)
    if action.get("type") != "place_tile" or not hasattr(game, "catalog"):
        return None
    want = appearance(game, action["tile"], int(action.get("rotation", 0)))
    for t in game.catalog.tiles:  # type: ignore[attr-defined]
        for rot in (0, 90, 180, 270):
            if appearance(game, t.id, rot) == want:
                candidate = {**action, "tile": t.id, "rotation": rot}
                if game.validate(game.parse_action(candidate)) is None:
                    return candidate
    return None


@dataclass
class ScriptedTable:
    """What a simulated table has in common (:class:`~.simtable.SimTable` for the tile games,
    :class:`~.simboard.SimBoardTable` for a printed board): a record cut into turns (or steps), each
    shown as ``hand_frames`` frames with a hand over the table and ``still_frames`` of the still table,
    rendered at ``size`` with the camera preset ``preset``. A subclass cuts the turns, draws a shot
    (``draw``) and lists the shots (``shots``)."""

    record: Record
    size: tuple[int, int] = (1920, 1080)
    preset: str = "default"
    hand_frames: int = 4
    still_frames: int = 6
    seed: int = 0
    turns: list[TurnScript] = field(default_factory=list)
    art: str = "drawn"
    """The pictures: for the tile games "drawn", "scans" or "auto" (see :mod:`.simtable`)."""

    def limit(self, turns: int | None) -> "ScriptedTable":
        """Keep only the first ``turns`` turns (``None``: all)."""
        if turns is not None:
            self.turns = [t for t in self.turns if t.number <= turns]
        return self

    def shots(self) -> list[Any]:
        raise NotImplementedError

    def draw(self, shot: Any, n: int) -> Any:
        raise NotImplementedError

    def camera(self) -> Any:
        """The simulated camera showing this table's shots (:class:`~tablehub.hardware.cameras.sim.SimCamera`)."""
        from ..hardware.cameras.sim import SimCamera

        return SimCamera(self.shots(), self.draw)

