"""Sunda to Sahul on the simulated camera, for the demo and the live tests (issue 18).

:func:`sunda_steps` cuts a record into steps: each is what the phone enters (``before``: a consent, a
challenge and its dice, a marker) and then the one action the camera reads (``table``: a piece laid, a
pawn put on a node or on a tribe, a water right), with the table once it is done (``view``: the position
``tablehub score`` reads, with the pieces' land outlines, which :mod:`vision.sim.sundatable` draws).

:class:`SimSundaTable` draws each step as a few frames with a hand over the table and then the still
table (the simulated camera's lens, tilt, light, noise and JPEG; every piece off its place by its own hand
error, the same from step to step). The record is put in the camera's lattice (:func:`_anchored`: the camera logs the
first piece from the acute corner its adapter chooses, ``first_piece``; the same game, shifted by a side when
that is the corner the record did not anchor it at). The lattice lies on the mat at a random angle and place that keeps the
whole game's layout on the play area, with the engine's direction D0 between 5 and 55 degrees of the
mat's x axis: the reader takes as its D0 the lattice direction between 0 and 60 degrees, so the camera's
game has the record's own coordinates (any other angle is the same game turned, which the phone's actions,
entered from the record, would not follow).

:meth:`SimSundaTable.recognizer` enrols the colours as the owner would, on "another evening"
(:func:`vision.sunda.enrol` on a photo of :func:`vision.sunda.enrolment_layout`, as ``tablehub sundacam enrol``
does), writes them to the references folder and returns the live recognizer loaded from it as the hub loads it
(:class:`~tablehub.tracking.sundacam.SundaRecognizer`), reading with the record's set of prints as a constraint
(``SundaReader.use_set``; in the hub the tracker gives the running game's set, ``SundaRecognizer.use_game``).

Resource markers are not drawn (the phone enters ``place_marker``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..games import new_game
from ..games.base import TablehubError
from ..hardware.cameras.sim import Shot, shots_for_turns
from ..records import Record, RecordError, replay
from .script import ScriptedTable, TurnScript


def _view(game: Any) -> dict[str, Any]:
    from ..games.sunda.position import position_of

    return {"kind": "sunda", "position": position_of(game, outlines=True)["position"]}


def sunda_steps(record: Record) -> list[TurnScript]:
    """The record's actions cut into steps (module docstring); a last step without ``table`` holds what the
    phone enters after the camera's last reading. Raises :class:`RecordError` when the record does not replay."""
    game = new_game(record.setup)
    adapter = getattr(game, "layout_moves", None)
    if adapter is None:
        raise RecordError(f"{record.source}: {record.setup.game} is not a laid-out table the camera reads")
    steps: list[TurnScript] = []
    phone: list[dict[str, Any]] = []
    actions = _anchored(record.actions, new_game(record.setup))
    for i, a in enumerate(actions):
        try:
            game.apply(game.parse_action(a))
        except TablehubError as exc:
            raise RecordError(f"{record.source}: action {i}: {a}: {exc}") from None
        if a.get("type") in adapter.table_actions:
            steps.append(TurnScript(len(steps) + 1, game.current_player, before=phone, table=[a], view=_view(game)))
            phone = []
        else:
            phone.append(a)
    if phone:
        steps.append(TurnScript(len(steps) + 1, game.current_player, before=phone, view=_view(game)))
    played = [a for s in steps for a in s.actions]
    if replay(Record(record.setup, played, record.source)).scores() != replay(record).scores():  # shifted: the same
        raise RecordError(f"{record.source}: cut into steps, the game no longer scores as the record")
    return steps


def _anchored(actions: Any, game: Any) -> list[dict[str, Any]]:
    """The record's actions in the camera's lattice: the first piece as the camera logs it
    (``game.layout_moves.first_piece`` on the print seen from the corner turning 0-2: that corner at 0,0 when
    a pool piece reads so from it, else the other acute corner), and every point shifted by the vector that
    carries the record's 0,0 there. The same game: the first piece's print lies where it lay. When the camera
    logs a look-alike of the first piece, that look-alike's own later placements are logged as the record's
    piece (the same print on the same rhombus). ``game`` is the record's game before its first action."""
    from ..games.sunda.camera import _canonical, readdress
    from ..games.sunda.lattice import corners

    out = [dict(a) for a in actions]
    first = next((a for a in out if a.get("type") == "place_piece"), None)
    if first is None or first.get("piece") not in game.set.by_id:
        return out  # the replay names what is wrong
    have = game.set.by_id[first["piece"]]
    q0, r0, t0 = int(first["q"]), int(first["r"]), int(first.get("turn", 0)) % 6
    _, _, t, ring = _canonical(q0, r0, t0, have.ring)
    logged = game.layout_moves.first_piece(game, t, ring, have.join)
    if logged is None:  # cannot be: the record's own piece is in the pool
        raise RecordError(f"the first piece {have.id}: the camera would log no piece for it")
    want = game.set.by_id[logged["piece"]]
    # the record's point that the camera puts at 0,0: the first piece's c0 (same turn) or its other acute corner
    dq, dr = (-q0, -r0) if int(logged["turn"]) == t0 else tuple(-x for x in corners(q0, r0, t0)[2])
    for a in out:
        if a is not first and a.get("type") == "place_piece" and a.get("piece") == want.id != have.id:
            a.update(readdress(a, want, have))
        if "q" in a and "r" in a:
            a["q"], a["r"] = int(a["q"]) + dq, int(a["r"]) + dr
        if a.get("type") == "challenge":  # a roll's "defender" holds dice, not a point
            for key in ("attacker", "defender"):
                a[key] = [int(a[key][0]) + dq, int(a[key][1]) + dr]
    first.update(piece=want.id, q=0, r=0, turn=int(logged["turn"]))
    return out


@dataclass
class SimSundaTable(ScriptedTable):
    size: tuple[int, int] = (1280, 720)
    #: the script's turns are NEXT steps (one camera action each), as on a printed board
    stepwise = True

    def __post_init__(self) -> None:
        if not self.turns:
            self.turns = sunda_steps(self.record)
        game = new_game(self.record.setup)
        self.colours = dict(zip(game.players, game.layout_moves.colours(game)))  # type: ignore[attr-defined]
        self.start_view: dict[str, Any] = {"kind": "sunda", "position": {"pieces": [], "tribes": []}}
        self._scene: Any = None
        self._camera_model: Any = None
        self._still: tuple[Shot, np.ndarray, Any] | None = None

    @property
    def art_name(self) -> str:
        return "the provisional Sunda pieces, drawn"

    @property
    def scans(self) -> None:
        return None

    def shots(self) -> list[Shot]:
        return shots_for_turns(self.turns, self.start_view, self.hand_frames, self.still_frames)

    # ---- drawing

    def _setup_render(self) -> None:
        from vision.sim.camera import NUISANCE
        from vision.sim.sundatable import random_scene

        rng = np.random.default_rng(self.seed)
        model = NUISANCE[self.preset]
        # one camera on one arm: fixed tilt direction, no per-frame wobble or white-balance wander
        self._camera_model = model.with_(tilt_azimuth_deg=float(rng.uniform(0, 360)), pose_jitter_deg=0.0,
                                         cast_jitter=0.0, light_angle_deg=float(rng.uniform(0, 360)))
        last = next((t.view for t in reversed(self.turns) if t.view.get("position", {}).get("pieces")), None)
        final = last["position"] if last else {"pieces": [], "tribes": []}
        self._scene = random_scene(final, self.colours, rng, angle_deg=_angle(final, rng))
        cx, cy = self._scene.centred_origin()
        self._scene.origin_mm = (cx + float(rng.uniform(-5, 5)), cy + float(rng.uniform(-5, 5)))

    def draw(self, shot: Shot, n: int) -> np.ndarray:
        """The still table is rendered once per shot (a still table gives the same picture up to sensor noise,
        which the renderer adds); a hand over it moves every frame."""
        from vision.sim.sundatable import render_sunda

        if self._scene is None:
            self._setup_render()
        if self._still is None or (not shot.hands and self._still[0] is not shot):
            scene = _with(self._scene, shot.view.get("position") or {"pieces": [], "tribes": []})
            image, truth = render_sunda(scene, self._camera_model, np.random.default_rng(self.seed + 1000 * shot.turn),
                                        size=self.size)
            self._still = (shot, image, truth)
        base = self._still[1]
        if not shot.hands:
            return base
        return _hand(base, n)

    # ---- enrolment

    def enrolment_photo(self) -> tuple[np.ndarray, Any]:
        """The photo the owner takes to enrol the colours, on "another evening" (the same camera on its arm, the
        light and white balance of another session): :func:`vision.sunda.enrolment_layout` on this table's cloth.
        Returns (photo, truth: its ``lens()`` is the camera's)."""
        from vision.sim.sundatable import PAWN_COLOURS, enrolment_scene, render_sunda

        if self._scene is None:
            self._setup_render()
        rng = np.random.default_rng(self.seed + 77)
        return render_sunda(enrolment_scene(PAWN_COLOURS, cloth_bgr=self._scene.cloth_bgr,
                                            table_bgr=self._scene.table_bgr),
                            self._camera_model.other_session(), rng, size=self.size)

    def markers_photo(self, leave_out: tuple[str, ...] = ()) -> tuple[np.ndarray, Any]:
        """The photo the owner takes to enrol the resource markers' colours (``tablehub sundacam enrol --markers``):
        the six markers alone at :func:`vision.sundamarkers.enrolment_points`, on the same "other evening" as
        :meth:`enrolment_photo` (``leave_out``: markers not laid, to check the refusal). Returns (photo, truth)."""
        from vision.sim.sundatable import marker_enrolment_scene, render_sunda

        if self._scene is None:
            self._setup_render()
        scene = marker_enrolment_scene(cloth_bgr=self._scene.cloth_bgr, table_bgr=self._scene.table_bgr)
        scene.loose_markers = tuple((n, at) for n, at in scene.loose_markers if n not in leave_out)
        return render_sunda(scene, self._camera_model.other_session(), np.random.default_rng(self.seed + 78),
                            size=self.size)

    def recognizer(self, folder: str | Path | None = None) -> Any:
        """The tracker's recognizer, its colours enrolled on "another evening" from :meth:`enrolment_photo`: into
        ``folder`` (``sunda.json`` and ``lens.json``) and loaded from there as the hub loads them
        (:func:`~tablehub.tracking.sundarefs.load_recognizer`); kept in memory when ``folder`` is ``None``.
        Raises ``RecognitionUnavailable`` when vision cannot."""
        from .recognizer import RecognitionUnavailable

        try:
            from vision.mat import Mat
            from vision.sim.sundatable import PAWN_COLOURS
            from vision.sunda import SundaReader
        except ImportError as exc:
            raise RecognitionUnavailable(f"table recognition is not in this build ({exc}); play from the phone") \
                from None
        from .sundacam import SundaRecognizer
        from .sundarefs import enrol_photo, load_recognizer, write_refs

        photo, truth = self.enrolment_photo()
        colours = enrol_photo(photo, PAWN_COLOURS, lens=truth.lens(), source="the enrolment photo")
        if folder is None:
            recognizer = SundaRecognizer(SundaReader(Mat.default(), colours, lens=truth.lens()))
        else:
            write_refs(folder, colours, lens=truth.lens())
            recognizer = load_recognizer(folder)
        # the owner's recorded set: the prints the reader may see (vision.sundaset)
        recognizer.reader.use_set([p.ring for p in new_game(self.record.setup).set.pieces])
        return recognizer


def _angle(position: dict[str, Any], rng: np.random.Generator, tries: int = 80) -> float:
    """An angle between 5 and 55 degrees (module docstring) at which the layout fits the play area best."""
    from vision.mat import Mat
    from vision.sim.sundatable import fitting_angle

    return fitting_angle(position, Mat.default(), rng, 30.0, tries, between=(5.0, 55.0))


def _with(scene: Any, position: dict[str, Any]) -> Any:
    import copy

    out = copy.copy(scene)
    out.position = position
    return out


def _hand(base: np.ndarray, n: int) -> np.ndarray:
    """``base`` with a hand reaching in from the frame's bottom edge, moving a little every frame."""
    import cv2

    img = base.copy()
    h, w = img.shape[:2]
    wobble = 25.0 * math.sin(n * 1.7)
    tip = (int(w * 0.5 + wobble), int(h * 0.55 - wobble))
    skin = (120, 160, 215)
    cv2.line(img, tip, (int(w * 0.5 + 3 * wobble), h + 40), skin, max(8, w // 22), cv2.LINE_AA)
    cv2.ellipse(img, tip, (max(6, w // 30), max(5, w // 45)), 30.0 + 10 * math.sin(n), 0, 360, skin, -1, cv2.LINE_AA)
    return img
