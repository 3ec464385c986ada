"""Tahiti in the words of the people at the table: a map cell by its printed row and column
letters and where it lies from Tahiti, a track space by its letter and pearl (the space
numbers are ours, not printed), boats and pearls by colour.

Every phrase is a translatable :class:`~tablehub.i18n.Text`. A pearl's colour is never glued
into a sentence as a bare word: French and German adjectives agree with the noun and (German)
its case, so each way a colour is said ("a green pearl", "the green pearl", "the green
pearls", the colour alone) is a whole phrase of its own, one per colour.

>>> cell_words((1, 5)), cell_words((3, 0))
('row B, column E (north-east of Tahiti)', 'the middle row, column A (west of Tahiti)')
"""
from __future__ import annotations

from typing import Any, Mapping

from ...i18n import T, Tc, Text
from .board import LINES, MIDDLE, Board, Cell, parse_cell


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _direction(dr: int, dc: int) -> Text:
    return {(-1, 0): T("north of Tahiti"), (-1, 1): T("north-east of Tahiti"), (0, 1): T("east of Tahiti"),
            (1, 1): T("south-east of Tahiti"), (1, 0): T("south of Tahiti"), (1, -1): T("south-west of Tahiti"),
            (0, -1): T("west of Tahiti"), (-1, -1): T("north-west of Tahiti")}[(dr, dc)]


def colour(c: Any) -> Any:
    """A pearl colour alone ("black"); an unknown value is kept as it was given."""
    words = {"green": Tc("tahiti", "green"), "white": Tc("tahiti", "white"),
             "black": Tc("tahiti", "black"), "blue": Tc("tahiti", "blue")}
    return words.get(c, c) if isinstance(c, str) else c


def a_pearl(c: str) -> Text:
    """``"a green pearl"``."""
    return {"green": T("a green pearl"), "white": T("a white pearl"), "black": T("a black pearl"),
            "blue": T("a blue pearl")}.get(c) or T("a {colour} pearl", colour=c)


def the_pearl(c: str) -> Text:
    """``"the green pearl"`` (the one a player holds, or a space's)."""
    return {"green": T("the green pearl"), "white": T("the white pearl"), "black": T("the black pearl"),
            "blue": T("the blue pearl")}.get(c) or T("the {colour} pearl", colour=c)


def the_pearls(c: str) -> Text:
    """``"the green pearls"`` (a colour's supply)."""
    return {"green": T("the green pearls"), "white": T("the white pearls"), "black": T("the black pearls"),
            "blue": T("the blue pearls")}.get(c) or T("the {colour} pearls", colour=c)


def cell_words(cell: Cell) -> Text:
    """A map cell by its printed letters, and where it lies seen from Tahiti."""
    row, col = cell
    if (row, col) == (MIDDLE, MIDDLE):
        return T("Tahiti")
    r = T("the middle row") if row == MIDDLE else T("row {letter}", letter=LINES[row])
    c = T("the middle column") if col == MIDDLE else T("column {letter}", letter=LINES[col])
    return T("{row}, {column} ({direction})", row=r, column=c,
             direction=_direction(_sign(row - MIDDLE), _sign(col - MIDDLE)))


def space_words(board: Board, space: int) -> Text:
    """``"the B space with the black pearl"`` (a track space as printed)."""
    s = board.track[space]
    return {"green": T("the {letter} space with the green pearl", letter=s.letter),
            "white": T("the {letter} space with the white pearl", letter=s.letter),
            "black": T("the {letter} space with the black pearl", letter=s.letter),
            "blue": T("the {letter} space with the blue pearl", letter=s.letter)}[s.pearl]


def describe(board: Board, action: Mapping[str, Any]) -> Text | None:
    """Tahiti's actions in table words, or ``None`` for the generic wording."""
    kind = action.get("type")
    pearl = action.get("pearl")
    if kind == "place_sailboat" and isinstance(action.get("space"), int) and 0 <= action["space"] < len(board.track):
        return T("Put the sailboat on {space}", space=space_words(board, action["space"]))
    if kind == "place_boat":
        cell = parse_cell(action.get("cell"))
        if cell is None:
            return None
        if isinstance(pearl, str):
            return T("Place a boat with {pearl} in {cell}", pearl=a_pearl(pearl), cell=cell_words(cell))
        return T("Place a boat in {cell}", cell=cell_words(cell))
    if kind == "start_pearl" and isinstance(pearl, str):
        return T("Take {pearl} to start", pearl=a_pearl(pearl))
    if kind == "take_pearl":
        return T("Take {pearl}", pearl=a_pearl(pearl)) if isinstance(pearl, str) else T("Take the space's pearl")
    if kind == "take_letter":
        return T("Take the space's letter (an empty boat on the sailboat's space)")
    if kind == "roll":
        face = action.get("face")
        return T("Roll: the blank face") if face == "blank" else T("Roll: {face}", face=face)
    if kind == "save":
        return T("Put {amount} $ into the vault", amount=action.get("amount"))
    if kind == "bid":
        return T("Bid {amount} $", amount=action.get("amount"))
    if kind == "pass":
        return Tc("tahiti", "Pass")
    return None


def the_bank(c: str, where: str) -> Text:
    """``"the green bank at AB AC"`` (a bank of pearls, as a score's reason names it)."""
    return {"green": T("the green bank at {where}", where=where), "white": T("the white bank at {where}", where=where),
            "black": T("the black bank at {where}", where=where),
            "blue": T("the blue bank at {where}", where=where)}.get(c) or T("the {colour} bank at {where}", colour=c,
                                                                            where=where)


def bank_title(c: str, where: str) -> Text:
    """``"Green bank at AB AC"`` (a line of the final explanation begins with it)."""
    return {"green": T("Green bank at {where}", where=where), "white": T("White bank at {where}", where=where),
            "black": T("Black bank at {where}", where=where),
            "blue": T("Blue bank at {where}", where=where)}.get(c) or T("{colour} bank at {where}", colour=c,
                                                                        where=where)


