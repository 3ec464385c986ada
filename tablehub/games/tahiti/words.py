"""Tahiti in the words of the people at the table: a map cell by its printed row and column
letters and where it lies from Tahiti, a track space by its letter and pearl (the space
numbers are ours, not printed), boats and pearls by colour.

>>> cell_words((1, 5)), cell_words((3, 0))
('row B, column E (north-east of Tahiti)', 'the middle row, column A (west of Tahiti)')
"""
from __future__ import annotations

from typing import Any, Mapping

from .board import LINES, MIDDLE, Board, Cell, parse_cell

_COMPASS = {(-1, 0): "north", (-1, 1): "north-east", (0, 1): "east", (1, 1): "south-east",
            (1, 0): "south", (1, -1): "south-west", (0, -1): "west", (-1, -1): "north-west"}


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def cell_words(cell: Cell) -> str:
    """A map cell by its printed letters, and where it lies seen from Tahiti."""
    row, col = cell
    if (row, col) == (MIDDLE, MIDDLE):
        return "Tahiti"
    r = "the middle row" if row == MIDDLE else f"row {LINES[row]}"
    c = "the middle column" if col == MIDDLE else f"column {LINES[col]}"
    return f"{r}, {c} ({_COMPASS[(_sign(row - MIDDLE), _sign(col - MIDDLE))]} of Tahiti)"


def space_words(board: Board, space: int) -> str:
    """``"the B space with the black pearl"`` (a track space as printed)."""
    s = board.track[space]
    return f"the {s.letter} space with the {s.pearl} pearl"


def describe(board: Board, action: Mapping[str, Any]) -> str | None:
    """Tahiti's actions in table words, or ``None`` for the generic wording."""
    kind = action.get("type")
    pearl = action.get("pearl")
    if kind == "place_sailboat" and isinstance(action.get("space"), int) and 0 <= action["space"] < len(board.track):
        return f"Put the sailboat on {space_words(board, action['space'])}"
    if kind == "place_boat":
        cell = parse_cell(action.get("cell"))
        if cell is None:
            return None
        with_pearl = f" with a {pearl} pearl" if isinstance(pearl, str) else ""
        return f"Place a boat{with_pearl} in {cell_words(cell)}"
    if kind == "start_pearl" and isinstance(pearl, str):
        return f"Take a {pearl} pearl to start"
    if kind == "take_pearl":
        return f"Take a {pearl} pearl" if isinstance(pearl, str) else "Take the space's pearl"
    if kind == "take_letter":
        return "Take the space's letter (an empty boat on the sailboat's space)"
    if kind == "roll":
        face = action.get("face")
        return "Roll: the blank face" if face == "blank" else f"Roll: {face}"
    if kind == "save":
        return f"Put {action.get('amount')} $ into the vault"
    if kind == "bid":
        return f"Bid {action.get('amount')} $"
    if kind == "pass":
        return "Pass"
    return None
