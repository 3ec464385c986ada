"""A printed board on the simulated table, for the demo and the live tests (Karibik's camera).

:class:`SimBoardTable` is :class:`~tablehub.tracking.simtable.SimTable`'s twin for a game whose
engine has a ``board_moves`` adapter: a record is cut into steps (:func:`~.boardscript.board_steps`:
what the phone enters, then what the camera reads and NEXT logs), each shown as a few frames with a
hand over the board and then the still board with the pieces where the step left them
(:mod:`vision.sim.boardtable`: the board's art printed from the game's board geometry, the simulated
camera's lens, tilt, light, noise and JPEG). A piece stays where it was put until it moves; a
moved piece stands anywhere in its space at least 4 mm inside the outline, turned at random.

:meth:`SimBoardTable.recognizer` enrols the board as its owner would, on "another evening" (other
light, colour balance, exposure and arm tilt; the board laid a little elsewhere): a photo of the
empty board (its corners given) and a photo per round of the game adapter's ``enrol_rounds()``
with each piece on the space the phone's set-up screen names (the owner's way, one way only), written as a
references folder in the format ``tablehub boardcam`` writes, and loaded as the hub loads a game's
board references (:func:`~.boardcam.load_recognizer`).

Chests (an adapter with ``chests_drawn``: Karibik) are drawn as the step leaves them: face up with their
printed value or face down on their spaces, put down beside what stands there and left where they lie, and
aboard the ships anywhere on the deck (``vision.sim.boardtable.deck_spot``), where a chest stays while its
ship sails; the enrolment adds the chests' values (step 3), so the camera reads the chest actions.
Pieces' heights are not drawn (no parallax).
"""
from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..games import new_game
from ..hardware.cameras.sim import Shot, shots_for_turns
from .boardcam import PPM, load_recognizer, write_refs
from .boardscript import board_steps
from .script import ScriptedTable

#: where the board lies on the table when enrolled, and (another evening) when played
ENROL_POSE = ((40.0, 40.0), 0.0)
PLAY_POSE = ((44.0, 37.0), -1.0)
ENROL_SEED = 12345


@dataclass
class SimBoardTable(ScriptedTable):
    size: tuple[int, int] = (1280, 720)

    def __post_init__(self) -> None:
        game = new_game(self.record.setup)
        self.adapter = game.board_moves  # type: ignore[attr-defined]
        self.board = self.adapter.board(game)
        if not self.turns:
            self.turns = board_steps(self.record)
        self.start_view: dict[str, Any] = {"kind": "board", "pieces": {}, "drawn": []}
        self._placed = False
        self._camera_model: Any = None
        self._art: Any = None
        self._still: tuple[Shot, np.ndarray, Any] | None = None
        self.enrol_notes: list[str] = []  # what the enrolment refused (the chests' values too blurred to read)

    @property
    def art_name(self) -> str:
        return f"the printed board's art ({self.board.name})"

    @property
    def scans(self) -> None:
        return None

    # ---- the script

    def _place(self) -> None:
        """Each step's pieces as drawn (a piece keeps its spot until it moves or changes its look; pieces do
        not stand inside each other) and where the hand reaches."""
        if self._placed:
            return
        from vision.sim.boardtable import BoardPiece, piece_for_look, place_piece

        rng = np.random.default_rng(self.seed)
        chest_rng = np.random.default_rng(self.seed + 7)  # the chests' spots: the ships' stay as without chests
        names = self.piece_names()
        drawn: dict[str, tuple[int, Any, Any, Any]] = {}  # name -> (space, look, piece, footprint)
        lying: list[tuple[int, str, int, Any, Any]] = []  # the chests on the spaces: (space, face, value, piece, fp)
        for t in self.turns:
            reach = None
            looks = t.view.get("looks") or {}
            chests = t.view.get("chests") or {}
            aboard = chests.get("aboard") or {}
            drawn = {n: d for n, d in drawn.items() if n in t.view["pieces"]}  # taken off the board
            for name, space in t.view["pieces"].items():
                look = looks.get(name)
                if name in drawn and drawn[name][0] == space and drawn[name][1] == look:
                    piece = drawn[name][2]
                    if piece.carries != aboard.get(name, 0):  # a chest taken aboard, or off: the ship stays
                        drawn[name] = (space, look, _laden(piece, aboard.get(name, 0), chest_rng), drawn[name][3])
                        reach = (piece.x_mm, piece.y_mm)
                    continue
                if look is not None:  # pieces that look alike: drawn by their look (docs/boardcam.md)
                    kind, idx, mark = piece_for_look(look["look"], look.get("pearl"))
                else:
                    kind, idx, mark = "ship", names.index(name), None
                others = [d[3] for n, d in drawn.items() if n != name] + [c[4] for c in lying]
                x, y, yaw, fp = place_piece(self.board.polygons[space], kind, rng, others, tries=40)
                old = drawn.get(name)
                piece = BoardPiece(kind, idx, x, y, yaw, mark)
                if aboard.get(name):  # a ship sails with its chest where it lay on the deck
                    piece = _laden(piece, aboard[name], chest_rng, old[2] if old else None)
                drawn[name] = (space, look, piece, fp)
                reach = (x, y)
            lying, put = self._lay_chests(lying, chests.get("lying") or {}, drawn, chest_rng)
            reach = put or reach
            t.view = dict(t.view, drawn=[d[2] for d in drawn.values()] + [c[3] for c in lying],
                          reach=reach or (self.board.size[0] / 2, self.board.size[1] / 2))
        self._placed = True

    def _lay_chests(self, lying: list[tuple[int, str, int, Any, Any]], want: dict[int, list[tuple[str, int]]],
                    drawn: dict[str, tuple[int, Any, Any, Any]], rng: np.random.Generator
                    ) -> tuple[list[tuple[int, str, int, Any, Any]], tuple[float, float] | None]:
        """The chests lying on the spaces as ``want`` has them (space -> (face, value) each): a chest still there
        keeps its spot, one gone is taken off, a new one is put down beside what stands there. Returns them and
        where the last was put (the hand's reach)."""
        from vision.sim.boardtable import BoardPiece, place_piece

        left = list(lying)
        out: list[tuple[int, str, int, Any, Any]] = []
        new: list[tuple[int, str, int]] = []
        for space, chests in want.items():
            for face, value in chests:
                keep = next((c for c in left if c[:3] == (int(space), face, int(value or 0))), None)
                if keep is not None:
                    left.remove(keep)
                    out.append(keep)
                else:
                    new.append((int(space), face, int(value or 0)))
        put = None
        for space, face, value in new:
            others = [d[3] for d in drawn.values()] + [c[4] for c in out]
            kind = "chest_up" if face == "up" else "chest_down"
            x, y, yaw, fp = place_piece(self.board.polygons[space], kind, rng, others, tries=40)
            out.append((space, face, value, BoardPiece(kind, value if face == "up" else 0, x, y, yaw), fp))
            put = (x, y)
        return out, put

    def piece_names(self) -> list[str]:
        """The pieces the game places, in the order of their looks (Karibik: the six ships)."""
        game = new_game(self.record.setup)
        for t in self.turns:  # the first step's pieces: after the set-up
            if t.view["pieces"]:
                return list(t.view["pieces"])
        return list(self.adapter.pieces(game))

    def shots(self) -> list[Shot]:
        self._place()
        return shots_for_turns(self.turns, self.start_view, self.hand_frames, self.still_frames)

    # ---- drawing

    def _setup_render(self) -> None:
        from vision.boards import render_board
        from vision.sim import NUISANCE

        model = NUISANCE[self.preset]
        # one camera on one arm: fixed tilt direction, no per-frame wobble or white-balance wander
        self._camera_model = model.with_(tilt_azimuth_deg=model.tilt_azimuth_deg or 30.0, pose_jitter_deg=0.0,
                                         cast_jitter=0.0, light_angle_deg=model.light_angle_deg or 40.0)
        printed = self.board.printed()
        printed.pop("size_mm")
        self._art = render_board(self.board.size, px_per_mm=3.0, **printed)

    def scene(self, pieces: list[Any], pose: tuple[tuple[float, float], float] = PLAY_POSE) -> Any:
        from vision.sim.boardtable import BoardScene

        if self._art is None:
            self._setup_render()
        w, h = self.board.size
        return BoardScene(self._art, 3.0, list(pieces), origin_mm=pose[0], angle_deg=pose[1],
                          table_mm=(w + 80, h + 80))

    def draw(self, shot: Shot, n: int) -> np.ndarray:
        """The still board is rendered once per shot (a still table gives the same picture up to sensor
        noise, which the renderer adds); a hand over it moves every frame."""
        from vision.sim.boardtable import render_board_scene

        if self._still is None or (not shot.hands and self._still[0] is not shot):
            if self._camera_model is None:
                self._setup_render()
            image, truth = render_board_scene(self.scene(shot.view.get("drawn", [])), self._camera_model,
                                              np.random.default_rng(self.seed + 1000 * shot.turn), size=self.size)
            self._still = (shot, image, truth)
        base, truth = self._still[1], self._still[2]  # hands: over the table as the last still shot showed it
        if not shot.hands:
            return base
        return _hand(base, truth, shot.view.get("reach") or (0.0, 0.0), n)

    # ---- enrolment

    def enrol(self, folder: str | Path) -> Path:
        """Enrol the board and its pieces into ``folder`` as the owner does from the phone's set-up screen
        (docs/boardcam.md, "Enrolment from the phone"): the empty board (its corners given), then one photo per
        round of the adapter's ``enrol_rounds()`` with each piece on the space the screen names
        (:func:`tablehub.board_enrolment.piece_rounds`; Karibik: the ships and chests, then each ship carrying a
        chest), the templates of every photo together. Returns the folder."""
        from vision.boardpieces import PieceBook, enrol_pieces
        from vision.boardreg import BoardReference, BoardRegistrar
        from vision.calibrate import LensCalibration
        from vision.sim.boardtable import render_board_scene

        from ..board_enrolment import piece_rounds

        if self._camera_model is None:
            self._setup_render()
        cam = self._camera_model.other_session()
        rng = np.random.default_rng(ENROL_SEED)
        w, h = self.board.size
        photo, truth = render_board_scene(self.scene([], ENROL_POSE), cam, rng, size=self.size)
        lens = LensCalibration(truth.pose.K, truth.pose.dist, self.size)
        corners = truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
        ref = BoardReference.from_photo(photo, (w, h), PPM, corners_px=corners, lens=lens)
        registrar = BoardRegistrar(ref, lens)
        c = self.board.centres
        templates, ships = [], self.piece_names()
        for spots in piece_rounds(self.adapter, self.board):
            pieces = [spot_piece(spot, c[spot.space], i, ships) for i, spot in enumerate(spots)]
            photo, _ = render_board_scene(self.scene(pieces, ENROL_POSE), cam, rng, size=self.size)
            reg = registrar.register(photo)
            if reg is None:
                raise RuntimeError("the simulated enrolment photo was not registered")
            templates += enrol_pieces(reg.canvas(photo, PPM, (w, h)), ref.canvas, PPM,
                                      [(s.name, s.kind, *c[s.space]) for s in spots]).templates
        spec = self.record.setup.options.get("board") or "provisional"
        out = write_refs(folder, spec if isinstance(spec, str) else "provisional", self.board, ref, lens=lens,
                         game=self.record.setup.game)
        PieceBook(templates).save(out / "pieces.json")
        if getattr(self.adapter, "chest_values", None):  # step 3: the chests' printed values
            from vision import VisionError
            from vision.chests import enrol_values

            from ..board_enrolment import chest_spots

            spots = chest_spots(self.adapter, self.board)
            photo, _ = render_board_scene(self.scene([spot_piece(s, c[s.space], i) for i, s in enumerate(spots)],
                                                     ENROL_POSE), cam, rng, size=self.size)
            reg = registrar.register(photo)
            if reg is None:
                raise RuntimeError("the simulated chests' enrolment photo was not registered")
            try:
                enrol_values(photo, reg.to_image, ref.canvas, ref.ppm,
                             [(int(s.carries), *c[s.space]) for s in spots]).save(out / "chests.json")
            except VisionError as exc:  # the owner is told so, and the phone enters the chests' values
                self.enrol_notes.append(str(exc))
        return out

    def recognizer(self, folder: str | Path | None = None) -> Any:
        """The tracker's recognizer: the board enrolled into ``folder`` (a temporary one by default) and loaded
        from there as the hub loads references. Raises ``RecognitionUnavailable`` when vision cannot."""
        from .recognizer import RecognitionUnavailable

        try:
            import vision.boardreg  # noqa: F401
        except ImportError as exc:
            raise RecognitionUnavailable(f"table recognition is not in this build ({exc}); play from the phone") \
                from None
        folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="tablehub-boardrefs-"))
        return load_recognizer(self.record.setup.game, self.enrol(folder))


def _laden(piece: Any, value: int, rng: np.random.Generator, before: Any = None) -> Any:
    """``piece`` (a ship) carrying a chest of ``value`` (0: none): where it lay on the deck before when it is the
    same chest (``before``: the ship as last drawn), else anywhere on the deck a player puts it
    (``vision.sim.boardtable.deck_spot``)."""
    from dataclasses import replace

    from vision.sim.boardtable import deck_spot

    if not value:
        return replace(piece, carries=0, deck=None)
    if before is not None and before.carries == value and before.deck is not None:
        return replace(piece, carries=value, deck=before.deck)
    return replace(piece, carries=value, deck=deck_spot(rng))


#: the value of the chest a ship carries in its enrolment photo (any value: the print is not what a ship's template
#: learns)
LADEN_VALUE = 5000


def spot_piece(spot: Any, centre: tuple[float, float], i: int = 0, ships: Sequence[str] = ()) -> Any:
    """How the simulated table draws one piece of an enrolment photo (a :class:`tablehub.board_enrolment.Spot`)
    on its space's ``centre``, turned a little (the ``i``-th piece of the photo): a Karibik ship, drawn with the look
    of its place in ``ships`` as in play (carrying a chest when its kind is ``ship laden``), a chest face up or down or a chest of a value (step 3), or a piece that
    ``vision.sim.boardtable.piece_for_look`` draws (Tahiti's boats with their pearls, sailboats, the disc)."""
    from vision.sim.boardtable import BoardPiece, piece_for_look

    x, y = centre
    if spot.kind.startswith("ship"):
        return BoardPiece("ship", list(ships).index(spot.name), x, y, 15.0 * i,
                          carries=LADEN_VALUE if spot.kind.endswith("laden") else 0)
    if spot.kind == "chest":
        if spot.carries == "down":
            return BoardPiece("chest_down", 0, x, y, 10.0)
        return BoardPiece("chest_up", 6000 if spot.carries == "up" else int(spot.carries), x, y, 10.0 + 5.0 * i)
    kind, look, mark = piece_for_look(spot.name, spot.carries)
    return BoardPiece(kind, look, x, y, 30.0 * i, mark)


def _hand(base: np.ndarray, truth: Any, reach_mm: tuple[float, float], n: int) -> np.ndarray:
    """``base`` with a hand reaching for ``reach_mm`` (board mm) from the frame's bottom edge, moving a
    little every frame."""
    import cv2

    img = base.copy()
    x, y = truth.board_to_image(np.array([reach_mm], np.float64))[0]
    wobble = 25.0 * math.sin(n * 1.7)
    tip = (int(x + wobble), int(y - wobble))
    skin = (120, 160, 215)
    h, w = img.shape[:2]
    cv2.line(img, tip, (int(w * 0.5 + 3 * wobble), h + 40), skin, max(8, w // 22), cv2.LINE_AA)
    cv2.ellipse(img, tip, (max(6, w // 30), max(5, w // 45)), 30.0 + 10 * math.sin(n), 0, 360, skin, -1, cv2.LINE_AA)
    return img
