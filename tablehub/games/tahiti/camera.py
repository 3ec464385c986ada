"""How what the camera saw on the Tahiti board becomes Tahiti actions (the engine's side of
``tablehub.tracking.boardmoves``: tracking stays game-agnostic).

The printed board (:class:`CameraBoard`): the track order (the engine's :class:`~.board.Board`) on
board geometry in millimetres (``geometry.json``: the 49 map cells and the 12 track spaces as
polygons; **provisional**, the real board's size is not public). Space numbers for the camera:
a map cell is ``row * 7 + column`` (0-48, Tahiti 24), a track space is ``100 + its number``.

The pieces the rules track on the board, each player's in their colour (seat order: the first
player red, then yellow, violet, green: :data:`COLOURS`):

- the **sailboat** on its track space;
- the **letter boat** (an empty boat) on the track space where its letter was taken;
- the **boats on the map**, each with its pearl;
- the **disc** on Tahiti, ``$`` or treasure face up.

Boats of one colour are alike, so the camera reads *looks* per space (``red boat``, ``red
sailboat``, ``disc $``...) and :func:`tablehub.tracking.boardmoves.name_sightings` names them
against the game (``looks``). What the camera logs (``table_actions``): a sailboat put on the
track in the set-up (``place_sailboat``), an empty boat put on the winner's sailboat's space
(``take_letter``), a boat put on a map cell by the auction's winner (``place_boat``: the letter boat
taken off the track onto the cell, or the boat with the pearl in front of the player). The engine
checks each (outside the sector, a cell taken: flagged with its reason). Where the camera cannot
know, the phone asks: the colour taken instead of one that ran out is a choice per colour in
supply. The bids, rolls, savings, the starting pearls and ``take_pearl`` (pearls in front of the
players are not on the board) are entered on the phone.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...i18n import T, Tc, Text
from ..base import SetupError
from .board import PEARLS, SIZE, TAHITI, Board, cell_name, load_board, parse_cell
from .words import a_pearl, colour as pearl_word

GEOMETRY = Path(__file__).with_name("geometry.json")
#: the players' colours, in seat order (the camera's templates are named by colour)
COLOURS = ("red", "yellow", "violet", "green")
#: the camera's number of track space 0 (map cells are 0-48)
TRACK0 = 100
ISLAND = TAHITI[0] * SIZE + TAHITI[1]
OFF = -1  # tablehub.tracking.boardmoves.OFF: not on the board
#: the sea and its pearls, printed (BGR), for the provisional art
PEARL_BGR = {"green": (60, 160, 40), "white": (235, 235, 235), "black": (25, 25, 25), "blue": (190, 90, 20)}


def cell_id(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None, name
    return cell[0] * SIZE + cell[1]


def cell_of(space: int) -> str | None:
    """The map cell's name of a camera space number (``None`` for a track space or off the map)."""
    return cell_name((space // SIZE, space % SIZE)) if 0 <= space < SIZE * SIZE else None


def load_geometry(path: str | Path = GEOMETRY) -> dict[str, Any]:
    """The board geometry file, checked (one line naming the file and the entry)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise SetupError(T("{path}: not a readable Tahiti board geometry ({why})", path=str(path), why=str(e))) from None

    def poly(value: Any, where: str) -> list[tuple[float, float]]:
        if not (isinstance(value, list) and len(value) >= 3 and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in value)):
            raise SetupError(T("{path}: {where} must be a polygon: a list of at least 3 [x, y] points in mm", path=str(path),
                                 where=where))
        return [(float(x), float(y)) for x, y in value]

    if not isinstance(data, dict):
        raise SetupError(T("{path}: expected a JSON object with 'size_mm', 'cells' and 'track'", path=str(path)))
    size = data.get("size_mm")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, (int, float)) and v > 0 for v in size)):
        raise SetupError(T("{path}: size_mm must be [width, height] in mm", path=str(path)))
    cells = data.get("cells")
    names = {cell_name((r, c)) for r in range(SIZE) for c in range(SIZE)}
    if not isinstance(cells, dict) or set(cells) != names:
        missing = sorted(names - set(cells or {})) if isinstance(cells, dict) else ["all"]
        raise SetupError(T("{path}: cells must name the 49 map cells (AA ... FF, MM for Tahiti); missing {missing}",
                           path=str(path), missing=missing[:5]))
    track = data.get("track")
    if not isinstance(track, list) or len(track) != 12:
        raise SetupError(T("{path}: track must list the 12 track spaces' polygons, clockwise from space 0", path=str(path)))
    return {"name": str(data.get("name", path)), "provisional": bool(data.get("provisional", False)),
            "size": (float(size[0]), float(size[1])),
            "cells": {n: poly(cells[n], f"cells.{n}") for n in sorted(names)},
            "track": [poly(p, f"track[{i}]") for i, p in enumerate(track)]}


@dataclass(frozen=True)
class CameraBoard:
    """The printed board for the camera: ``name`` (the track's), ``size`` (mm), ``polygons`` (camera
    space number -> outline in board mm), ``centres``, the track (letters and pearls)."""

    name: str
    size: tuple[float, float]
    polygons: Mapping[int, list[tuple[float, float]]]
    centres: Mapping[int, tuple[float, float]]
    track: Board
    provisional: bool

    @property
    def spaces(self) -> tuple[int, ...]:
        return tuple(self.polygons)

    def space_name(self, space: int) -> Any:
        """A camera space as said: ``space 3 (B, green)`` (a track space), ``BE`` (a map cell)."""
        if space >= TRACK0:
            s = self.track.track[space - TRACK0]
            return T("space {space} ({letter}, {colour})", space=space - TRACK0, letter=s.letter,
                     colour=pearl_word(s.pearl))
        return cell_of(space) or T("space {space}", space=space)

    def space_of(self, text: str) -> int | None:
        """A map cell's name (``BE``) or ``track N`` as the camera's space number (``None`` when it is neither)."""
        if text.lower().startswith("track "):
            try:
                n = int(text[6:])
            except ValueError:
                return None
            return TRACK0 + n if 0 <= n < len(self.track.track) else None
        cell = parse_cell(text)
        return None if cell is None else cell[0] * SIZE + cell[1]

    def printed(self) -> dict[str, Any]:
        """What the printed board shows (``vision.boards.render_board`` arguments): the cells and track spaces
        as sea, Tahiti as land, each track space's pearl as a printed disc and its letter, the map's row and
        column letters, small waves printed on the sea. Provisional art, labelled."""
        cells = [self.polygons[s] for s in self.polygons if s < TRACK0 and s != ISLAND]
        track = [self.polygons[TRACK0 + i] for i in range(len(self.track.track))]
        labels = []
        for i, s in enumerate(self.track.track):
            x, y = self.centres[TRACK0 + i]
            labels.append((x, y - 10, s.letter))
        for s in self.polygons:
            if s < TRACK0 and s != ISLAND:
                x, y = self.centres[s]
                labels.append((x - 14, y - 16, cell_of(s) or ""))
        w, h = self.size
        labels.append((w / 2, h / 2 - 8, "TAHITI"))
        labels.append((w / 2, h / 2 + 10, "provisional"))
        marks = [(*self.centres[TRACK0 + i], PEARL_BGR[s.pearl]) for i, s in enumerate(self.track.track)]
        marks = [(x, y + 12, c) for x, y, c in marks]
        # the sea's printed texture (provisional: small waves in lighter and darker blues, the same on every
        # print), which the camera's registration needs beyond a grid of alike cells
        rng = random.Random(17)
        for s in self.polygons:
            if s == ISLAND:
                continue
            (x0, y0), (x1, y1) = _bounds(self.polygons[s])
            for _ in range(3 if s < TRACK0 else 8):
                tone = rng.choice(((205, 160, 90), (140, 85, 25), (220, 200, 150), (120, 60, 20)))
                marks.append((rng.uniform(x0 + 4, x1 - 4), rng.uniform(y0 + 4, y1 - 4), tone))
        return {"size_mm": self.size, "spaces": cells + track, "land": [self.polygons[ISLAND]], "marks": marks,
                "labels": labels}


def _bounds(poly: list[tuple[float, float]]) -> tuple[tuple[float, float], tuple[float, float]]:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return (min(xs), min(ys)), (max(xs), max(ys))


def camera_board(track: Board, geometry: str | Path = GEOMETRY) -> CameraBoard:
    geo = load_geometry(geometry)
    polygons: dict[int, list[tuple[float, float]]] = {}
    for name, poly in geo["cells"].items():
        polygons[cell_id(name)] = poly
    for i, poly in enumerate(geo["track"]):
        polygons[TRACK0 + i] = poly
    polygons = dict(sorted(polygons.items()))
    centres = {s: (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
               for s, poly in polygons.items()}
    return CameraBoard(track.name, geo["size"], polygons, centres, track, geo["provisional"])


def _colour(game: Any, player: str) -> str:
    return COLOURS[game.players.index(player) % len(COLOURS)]


def colour_said(c: str) -> Any:
    """A player's colour as said (the tracker's ``colour`` words, shared by every game's camera)."""
    words = {"red": Tc("colour", "red"), "yellow": Tc("colour", "yellow"), "violet": Tc("colour", "violet"),
             "green": Tc("colour", "green")}
    return words.get(c, c)


def piece_said(name: str) -> Any:
    """A camera piece's name (``red sailboat``, ``red letter boat``, ``red boat BE``, ``disc``) as said; the
    English is the name itself."""
    if name == "disc":
        return T("disc")
    if name.startswith("disc "):  # a look the game does not have (the disc seen with its other face up)
        return T("disc {face}", face=_disc_face(name[5:]))
    colour, _, rest = name.partition(" ")
    c = colour_said(colour)
    if rest == "sailboat":
        return T("{colour} sailboat", colour=c)
    if rest == "letter boat":
        return T("{colour} letter boat", colour=c)
    if rest == "boat":
        return T("{colour} boat", colour=c)
    if rest.startswith("boat "):
        return T("{colour} boat {cell}", colour=c, cell=rest[5:])
    return name


def _said(parts: list[Any]) -> Any:
    """``a; b; c`` (each part a Text)."""
    out: Any = parts[0] if parts else ""
    for part in parts[1:]:
        out = T("{first}; {next}", first=out, next=part)
    return out


def _disc_face(face: str) -> Any:
    return Tc("tahiti", "treasure") if face == "treasure" else face


class TahitiBoardMoves:
    """The engine's adapter for the board camera (module docstring; the protocol is Karibik's:
    ``pieces``, ``looks``, ``movable``, ``candidates``, ``explain``, ``board``, ``load``)."""

    table_actions = frozenset({"place_sailboat", "take_letter", "place_boat"})
    #: the actions that change where pieces stand; each is read on its own (no legs to join)
    moves = table_actions
    legs = False
    #: a track space holds several sailboats and boats (the engine checks a map cell's one boat)
    one_per_space = False

    # ---- what stands where

    def pieces(self, game: Any) -> dict[str, int]:
        out: dict[str, int] = {}
        for i, player in enumerate(game.players):
            c, ps = _colour(game, player), game.state[i]
            if ps.space is not None:
                out[f"{c} sailboat"] = TRACK0 + ps.space
            if ps.letter_space is not None:
                out[f"{c} letter boat"] = TRACK0 + ps.letter_space
        for cell, boat in sorted(game.map.items()):
            out[f"{_colour(game, boat.owner)} boat {cell_name(cell)}"] = cell[0] * SIZE + cell[1]
        out["disc"] = ISLAND
        return out

    def looks(self, game: Any) -> dict[str, str]:
        """What each piece looks like to the camera (its template's name)."""
        return {name: self.look_of(game, name) for name in self.pieces(game)}

    def look_of(self, game: Any, name: str) -> str:
        if name == "disc":
            return f"disc {game.disc}"
        colour = name.split(" ")[0]
        return f"{colour} sailboat" if name.endswith("sailboat") else f"{colour} boat"

    def drawn(self, game: Any) -> dict[str, dict[str, Any]]:
        """How the simulated table draws each piece: its look and, for a boat on the map, its pearl."""
        out = {name: {"look": look} for name, look in self.looks(game).items()}
        for cell, boat in game.map.items():
            out[f"{_colour(game, boat.owner)} boat {cell_name(cell)}"]["pearl"] = boat.pearl
        return out

    @staticmethod
    def camera_looks() -> list[tuple[str, str | None]]:
        """Every template the camera enrols, with what the piece carries: each colour's boat empty (a letter
        boat) and with each pearl (a pearl is a large part of a small boat seen from above), its sailboat,
        the disc's two faces."""
        out: list[tuple[str, str | None]] = []
        for c in COLOURS:
            out += [(f"{c} boat", None)] + [(f"{c} boat", p) for p in PEARLS] + [(f"{c} sailboat", None)]
        return out + [("disc $", None), ("disc treasure", None)]

    @classmethod
    def enrol_rounds(cls) -> list[list[tuple[str, str, Any, Any]]]:
        """The pieces laid for the camera's enrolment from the phone, photo by photo: (template name, kind,
        the pearl it carries, the words for the page): every look of :meth:`camera_looks`, the disc's
        second face in a second photo (there is one disc)."""
        rounds: list[list[tuple[str, str, Any, Any]]] = [[], []]
        for name, pearl in cls.camera_looks():
            kind = "disc" if name.startswith("disc") else name.split(" ")[-1]
            said = piece_said(name) if pearl is None else T("{piece} with {pearl}", piece=piece_said(name),
                                                                pearl=a_pearl(pearl))
            rounds[1 if name == "disc treasure" else 0].append((name, kind, pearl, said))
        return rounds

    @staticmethod
    def enrol_spaces(board: CameraBoard) -> list[int]:
        """Where the owner lays the pieces for enrolment: the map's sea cells (the island is sand)."""
        return [s for s in board.spaces if s < TRACK0 and s != ISLAND]

    def movable(self, game: Any) -> set[str]:
        """The pieces the rules let come or go now: the sailboat being placed in the set-up; the auction
        winner's boats when they choose."""
        if game.phase == "sailboats":
            return {f"{_colour(game, game.players[game.current])} sailboat"}
        if game.phase == "choose" and game.winner is not None:
            c = _colour(game, game.players[game.winner])
            return {f"{c} boat", f"{c} letter boat"}
        return set()

    def board(self, game: Any) -> CameraBoard:
        return camera_board(game.board)

    def load(self, spec: str) -> CameraBoard:
        """The board a camera enrolment names: ``provisional`` (the packaged track) or a Tahiti board file
        (its track order), on the packaged geometry."""
        return camera_board(load_board(None if spec == "provisional" else spec))

    # ---- readings

    def candidates(self, game: Any, moved: Mapping[str, tuple[int, int]]) -> tuple[list[list[dict[str, Any]]], str]:
        if not moved:
            return [], ""
        board = self.board(game)
        where = lambda s: T("off the board") if s == OFF else board.space_name(s)  # noqa: E731
        said = _said([T("{piece} {before} -> {after}", piece=piece_said(n), before=where(a), after=where(b))
                      for n, (a, b) in sorted(moved.items())])
        moves = {n: ab for n, ab in moved.items() if not n.startswith("disc") and not n.endswith("sailboat")}
        if game.phase == "sailboats":
            c = _colour(game, game.players[game.current])
            if set(moved) == {f"{c} sailboat"} and moved[f"{c} sailboat"][0] == OFF:
                to = moved[f"{c} sailboat"][1]
                if to >= TRACK0:
                    return [[{"type": "place_sailboat", "space": to - TRACK0}]], ""
                return [], T("the {colour} sailboat stands on {space}: a sailboat goes on a track space",
                             colour=colour_said(c), space=where(to))
            return [], T("the camera saw {said}, but {waiting}", said=said, waiting=game.waiting_for())
        if not moves:  # only the disc or a sailboat differs from the game
            if any(n.startswith("disc") for n in moved):
                return [], T("the disc on Tahiti shows another face: the game has {face} up",
                             face=_disc_face(game.disc))
            return [], T("the camera saw {said}: the game has it elsewhere ({waiting})", said=said,
                         waiting=game.waiting_for())
        if game.phase != "choose" or game.winner is None:
            return [], T("the camera saw {said}, but {waiting}", said=said, waiting=game.waiting_for())
        player = game.players[game.winner]
        c, ps = _colour(game, player), game.state[game.winner]
        letter, new = moves.get(f"{c} letter boat"), moves.get(f"{c} boat")
        others = sorted(set(moves) - {f"{c} letter boat", f"{c} boat"})
        if others:
            return [], T("the camera saw {said}, but {player} ({colour}) is to choose", said=said, player=player,
                         colour=colour_said(c))
        if letter is not None and new is not None:
            return [], T("the camera saw {said}: one boat at a time", said=said)
        a, b = letter or new  # type: ignore[misc]
        if b >= TRACK0 or b == OFF:
            if new is not None and b >= TRACK0:
                if ps.space is not None and b != TRACK0 + ps.space:
                    return [], T("{player}'s empty boat stands on {space}: the letter is taken on the sailboat's "
                                 "space, {sailboat}", player=player, space=where(b), sailboat=where(TRACK0 + ps.space))
                return [[{"type": "take_letter"}]], ""
            return [], T("the camera saw {said}", said=said)
        cell = cell_of(b)
        pearl = game.board.track[ps.space].pearl if ps.letter_space is not None else None
        if pearl is not None and game.supply.get(pearl, 1) == 0:  # the camera cannot see the pearl: the phone asks
            return [[{"type": "place_boat", "cell": cell, "pearl": p}] for p in PEARLS if game.supply[p] > 0], ""
        return [[{"type": "place_boat", "cell": cell}]], ""

    def explain(self, game: Any, actions: list[dict[str, Any]]) -> Text | str:
        a = actions[0]
        who = game.players[game.current]
        if a["type"] == "place_boat":
            if a.get("pearl"):  # a whole sentence per colour (German: the pearl's case after "with")
                said = {"green": T("{player} places a boat on {cell} with a green pearl", player=who, cell=a["cell"]),
                        "white": T("{player} places a boat on {cell} with a white pearl", player=who, cell=a["cell"]),
                        "black": T("{player} places a boat on {cell} with a black pearl", player=who, cell=a["cell"]),
                        "blue": T("{player} places a boat on {cell} with a blue pearl", player=who, cell=a["cell"])}
                return said.get(a["pearl"]) or T("{player} places a boat on {cell} with {pearl}", player=who,
                                                 cell=a["cell"], pearl=a_pearl(a["pearl"]))
            return T("{player} places a boat on {cell}", player=who, cell=a["cell"])
        if a["type"] == "take_letter":
            return T("{player} takes the letter", player=who)
        if a["type"] == "place_sailboat":
            return T("{player} puts the sailboat on space {space}", player=who, space=a["space"])
        return str(a)


__all__ = ["COLOURS", "TRACK0", "ISLAND", "CameraBoard", "TahitiBoardMoves", "camera_board", "cell_of"]
