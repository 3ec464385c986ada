"""A recorded game on a printed board as a table with a camera and a NEXT button would play it.

The tile games' :func:`~tablehub.tracking.script.turns_of` groups a record by turn; on a printed board
one turn (Karibik: one ship's bids and move) can take several NEXT presses (sail into a port, raid on
the phone, NEXT to end the move). :func:`board_steps` cuts the record into *steps*: each is what the
phone enters (``before``: bids, chest actions, the table's draws) and then what the camera reads and
NEXT (or a phone choice) logs (``table``), with the pieces' places once it is done (``view``:
``{"kind": "board", "pieces": {piece: space}}``, which the simulated camera draws).

The camera sees where the pieces end up, not the way they went: the record's moves between two
readings (Karibik: one or several ``sail`` legs with nothing done between them) are replaced by
the reading of their outcome with a perfect camera (:func:`~tablehub.tracking.boardmoves.read_board`
through the engine's adapter: a shortest free way; where several ways pass different ports or
hideouts the phone's choice is the record's way when it is one leg and offered, else the first). That is the same game
(the same places, chests and doubloons; only the spaces passed on open sea may differ), in the order
a table with a NEXT button logs it; :func:`board_steps` checks that the scores come out the same.
"""
from __future__ import annotations

from typing import Any

from ..games import new_game
from ..games.base import Game, TablehubError
from ..records import Record, RecordError, replay
from .boardmoves import perfect_sightings, read_seen
from .script import TurnScript, equivalent


def _apply(game: Game, actions: list[dict[str, Any]], where: str) -> None:
    for a in actions:
        try:
            game.apply(game.parse_action(a))
        except TablehubError as exc:
            raise RecordError(f"{where}: {a}: {exc}") from None


def board_view(game: Game) -> dict[str, Any]:
    """What the simulated camera draws: where each piece stands (and, for an adapter with ``drawn``, how:
    each piece's look and what it carries)."""
    adapter = game.board_moves  # type: ignore[attr-defined]
    view: dict[str, Any] = {"kind": "board", "pieces": dict(adapter.pieces(game))}
    if hasattr(adapter, "drawn"):
        view["looks"] = adapter.drawn(game)
    if hasattr(adapter, "chests_drawn"):  # Karibik: the chests lying on the spaces and aboard the ships
        view["chests"] = adapter.chests_drawn(game)
    return view


#: the most table actions moving no piece that one reading logs together (Karibik: a ship's two chest actions)
MAX_UNMOVED = 2


def _read_unmoved(game: Game, actions: list[dict[str, Any]], i: int, kinds: Any, moves: Any
                  ) -> tuple[list[dict[str, Any]], int] | None:
    """The reading of the record's table actions from ``i`` that move no piece but change what the camera sees
    (Karibik's chest actions: the chests' places): the fewest of them a perfect camera reads as the record has
    them (``(table, consumed)``), the first of them when the phone is asked which; ``None`` when none changes what
    the camera sees (the move's end at rest: read as before)."""
    for k in range(1, MAX_UNMOVED + 1):
        seq = actions[i:i + k]
        if len(seq) < k or any(b.get("type") not in kinds or b.get("type") in moves for b in seq):
            return None
        after = game.copy()
        try:
            _apply(after, seq, "")
        except RecordError:
            return None
        r = read_seen(game, perfect_sightings(after))
        if r.status == "pending" and equivalent(game, r.actions, seq):
            return list(seq), k
        if r.status == "unsure" and any(equivalent(game, c[:1], seq[:1]) for _, c in r.choices):
            return list(seq[:1]), 1
        if r.status == "pending" and r.actions and r.actions[0].get("type") in moves:
            return None
    return None


def board_steps(record: Record) -> list[TurnScript]:
    """The record's actions cut into steps (module docstring); a last step without ``table`` holds what the
    phone enters after the camera's last reading. Raises :class:`RecordError` when the record does not replay."""
    game = new_game(record.setup)
    adapter = getattr(game, "board_moves", None)
    if adapter is None:
        raise RecordError(f"{record.source}: {record.setup.game} has no printed board the camera reads")
    kinds = adapter.table_actions
    actions = [dict(a) for a in record.actions]
    steps: list[TurnScript] = []
    phone: list[dict[str, Any]] = []
    i = 0
    while i < len(actions):
        a = actions[i]
        if a.get("type") not in kinds:
            _apply(game, [a], f"{record.source}: action {i}")
            phone.append(a)
            i += 1
            continue
        if a.get("type") not in adapter.moves:  # a table action moving no piece (Karibik's chest actions)
            got = _read_unmoved(game, actions, i, kinds, adapter.moves)
            if got is not None:
                table, consumed = got
                _apply(game, table, f"{record.source}: action {i}")
                steps.append(TurnScript(len(steps) + 1, game.current_player, before=phone, table=table,
                                        view=board_view(game)))
                phone = []
                i += consumed
                continue
        j = i
        legs = getattr(adapter, "legs", True)  # Karibik: a ship's sails with nothing done between are one move
        while j < len(actions) and actions[j].get("type") in adapter.moves and (legs or j == i):
            j += 1
        after = game.copy()
        _apply(after, actions[i:j], f"{record.source}: action {i}")
        r = read_seen(game, perfect_sightings(after))
        table: list[dict[str, Any]] = []
        consumed = 0
        if r.status == "pending":  # the reading's closing actions (the move's end) must be the record's next
            closes = [b for b in r.actions if b.get("type") not in adapter.moves]
            follows = actions[j:j + len(closes)]
            if [b.get("type") for b in follows] == [b.get("type") for b in closes]:
                table, consumed = list(r.actions), (j - i) + len(closes)
        elif r.status == "unsure" and j > i:
            ways = [c[0] for _, c in r.choices]  # the record's own way when it is one leg and offered
            own = next((w for w in ways if j - i == 1 and all(actions[i].get(k) == v for k, v in w.items())), None)
            table, consumed = [own or ways[0]], j - i
        if not table:  # nothing a camera would log as the record has it: entered on the phone
            upto = max(j, i + 1)
            _apply(game, actions[i:upto], f"{record.source}: action {i}")
            phone.extend(actions[i:upto])
            i = upto
            continue
        _apply(game, table, f"{record.source}: action {i}")
        steps.append(TurnScript(len(steps) + 1, game.current_player, before=phone, table=table,
                                view=board_view(game)))
        phone = []
        i += consumed
    if phone:
        steps.append(TurnScript(len(steps) + 1, game.current_player, before=phone, view=board_view(game)))
    played = [a for s in steps for a in s.actions]
    ours = replay(Record(record.setup, played, record.source)).scores()
    theirs = replay(record).scores()
    if ours != theirs:
        raise RecordError(f"{record.source}: read as a camera would, the game scores {ours}, not {theirs}")
    return steps
