"""The Tahiti board as data: the 7x7 map around the island and the 12-space track.

The map (see docs/tahiti.md) has Tahiti in its centre cell. Rows are lettered
A, B, C (top to bottom), then the unlettered middle row, then D, E, F; columns
likewise A, B, C (left to right), middle, D, E, F. A cell is named by its row
letter then its column letter, the middle line being ``M``: ``"BE"`` is row B,
column E, ``"MA"`` the middle row in column A, ``"MM"`` is Tahiti. The sector of
letter X is row X plus column X (13 cells). Every cell but Tahiti lies in one or
two sectors.

The track is 12 spaces in clockwise order, each a letter and a pearl colour.
The rule book does not give their order, so it is data: ``board.json`` next to
this module holds a provisional order; an owner passes their board's real order
as the option ``board`` (a path to a JSON file of the same shape, or that object
inline).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from ... import schemas
from ...jsonfile import read_json
from ...i18n import T
from ..base import SetupError

SIZE = 7
MIDDLE = 3
LINES = ("A", "B", "C", "M", "D", "E", "F")  # row labels top to bottom, column labels left to right
LETTERS = ("A", "B", "C", "D", "E", "F")
PEARLS = ("green", "white", "black", "blue")
PEARLS_PER_COLOUR = 6
TRACK_LENGTH = 12
TAHITI = (MIDDLE, MIDDLE)
DEFAULT_BOARD = Path(__file__).with_name("board.json")

Cell = tuple[int, int]  # (row, column), 0-based from the top left


def cell_name(cell: Cell) -> str:
    """``(1, 5)`` -> ``"BE"`` (row letter, then column letter; the middle line is ``M``)."""
    return LINES[cell[0]] + LINES[cell[1]]


def parse_cell(name: Any) -> Cell | None:
    """``"BE"`` -> ``(1, 5)``; ``None`` when ``name`` is not a cell of the map (Tahiti included)."""
    if not isinstance(name, str) or len(name) != 2:
        return None
    row, col = name[0].upper(), name[1].upper()
    if row not in LINES or col not in LINES:
        return None
    return LINES.index(row), LINES.index(col)


def all_cells() -> Iterator[Cell]:
    """Every cell of the map in reading order, Tahiti included."""
    for r in range(SIZE):
        for c in range(SIZE):
            yield r, c


def sector(letter: str) -> tuple[Cell, ...]:
    """The cells of a letter's sector: its row and its column (13 cells), in reading order."""
    i = LINES.index(letter)
    return tuple(cell for cell in all_cells() if cell[0] == i or cell[1] == i)


SECTORS: dict[str, tuple[Cell, ...]] = {letter: sector(letter) for letter in LETTERS}


def sectors_of(cell: Cell) -> tuple[str, ...]:
    """The letters whose sector holds ``cell`` (none for Tahiti)."""
    return tuple(LINES[i] for i in sorted({cell[0], cell[1]}) if i != MIDDLE)


def side_neighbours(cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            yield r + dr, c + dc


def all_neighbours(cell: Cell) -> Iterator[Cell]:
    """The cells touching ``cell`` by a side or a corner."""
    r, c = cell
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                yield r + dr, c + dc


# --------------------------------------------------------------------------- the track


@dataclass(frozen=True)
class TrackSpace:
    letter: str
    pearl: str


@dataclass(frozen=True)
class Board:
    """A track (12 spaces clockwise) and where it came from."""

    name: str
    track: tuple[TrackSpace, ...]
    provisional: bool
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "provisional": self.provisional,
                "track": [{"letter": s.letter, "pearl": s.pearl} for s in self.track]}


def board_from_dict(data: Any, source: str) -> Board:
    """Check a board description (``{"track": [{"letter": "A", "pearl": "green"}, ...]}``)."""
    schemas.check(data, "tahiti-board", source, SetupError)
    spaces = [TrackSpace(space["letter"], space["pearl"]) for space in data["track"]]
    provisional = data.get("provisional", False)
    name = data.get("name", source)
    return Board(str(name), tuple(spaces), provisional, source)


def load_board(option: Any = None) -> Board:
    """The board an engine plays on: the packaged provisional one (``None``), a path to a
    JSON file, or the board object itself."""
    if option is None:
        option = str(DEFAULT_BOARD)
    if isinstance(option, Mapping):
        return board_from_dict(option, "option 'board'")
    if not isinstance(option, (str, Path)):
        raise SetupError(T("tahiti: option 'board' must be a path to a board JSON file or a board object, got {value}",
                           value=repr(option)))
    data, source = read_json(option, SetupError, "Tahiti board file")
    return board_from_dict(data, source)
