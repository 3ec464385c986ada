"""The Sunda to Sahul camera for the live tracker: ``frame -> LayoutSeen`` (docs/sunda.md, "The camera").

:class:`SundaRecognizer` wraps :class:`vision.sunda.SundaReader`: each still frame is read incrementally
against the previous reading (only the part of the table that changed is read again; the lattice, the
light correction and the pieces elsewhere are kept), from scratch after a failed read. What it returns is
the reader's layout in the reader's own lattice coordinates, as plain data (pieces with their placement,
sides and join; tribes with their top, colours, height, ``ask`` and candidate heights); the engine's
adapter (``Sunda.layout_moves``, :mod:`tablehub.games.sunda.camera`) registers it on the logged layout.
"""
from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np

from ..i18n import T
from .layoutmoves import LayoutSeen
from .sundaheights import PawnRules, StackHistory, stack_patch

log = logging.getLogger(__name__)

#: the supplies' counter (vision/sundasupply.py), imported once a recognizer counts
_SUPPLY: Any = None


#: the supplies counted again only where the frame changed since the last count (vision.sundasupply.SupplyGate);
#: False: a full count every frame (the bench's ``--no-supply-gate``, to measure what the gate saves)
SUPPLY_GATE = True

#: while the table holds fewer pieces than this, each still frame is read from scratch: the lattice fitted to
#: a handful of pieces is refitted as the layout grows (a small layout fixes its angle less well)
REFIT_BELOW = 16


class SundaRecognizer:
    def __init__(self, reader: Any):
        self.reader = reader
        self.previous: Any = None
        self.last_ms: dict[str, float] = {}
        #: this thread's CPU of the last frame (ms; docs/benchmarks.md): ``read`` (the reader), ``count`` (the supplies'
        #: counter, its gate included), ``total`` (the whole frame: the stacks' history too); ``incremental``: whether
        #: the reader read it against the reading before
        self.cpu_ms: dict[str, Any] = {}
        self._set_of: Any = None  # the set of pieces the reader was last given (use_game)
        self.heights = StackHistory()   # tribe heights from the frames before (tablehub/tracking/sundaheights.py)
        self._pawns_of: tuple[int, Any] | None = None   # the game's pawns on the table and last challenge (use_game)
        self._tribes_of: dict[Any, list[int]] | None = None  # the game's tribes when last told (tell_heights)
        self._pieces_seen: list[dict[str, Any]] | None = None  # the last frame's pieces (its lattice: tell_heights)
        self._rules: tuple[PawnRules, int] | None = None   # what the log allows, and the pieces it holds (pawn_rules)
        self._game: Any = None          # the game last told (use_game): the phone's questions (asked_now)
        self._phase: Any = None         # its phase (phase_key)
        #: the heights the phone asked in the log's phase (asked_now): (base mm, the log's tribe there as engine
        #: point and players, the frame asked in); "play on" answers them once the log moves past that phase
        self._asked: dict[tuple[int, int], tuple[list[float], tuple[int, int], list[int], int]] = {}
        self.supply: Any = None         # the supplies seen in the last frame read (vision.sundasupply.SupplySeen)
        self._counter: Any = None       # ... counted by (vision.sundasupply.SupplyGate over a SupplyCounter)
        #: the log's pawns on the table per colour and the rule book's pawns a player (use_game): what the supply seen in
        #: the frame the log holds must add up to
        self._log_pawns: tuple[dict[str, int], int] | None = None
        self.taken: dict[str, int] | None = None   # the count told to the history for the last frame (supply_taken)

    def __call__(self, frame: np.ndarray) -> LayoutSeen:
        start = time.thread_time()
        self.cpu_ms = {}
        try:
            previous = self.previous if self.previous is not None and len(self.previous.pieces) >= REFIT_BELOW else None
            reading = self.reader.read(frame, previous=previous)
        except Exception:
            self.previous = None  # read from scratch next time
            self.heights.lost_frame()
            self.supply = None
            raise
        self.cpu_ms["read"] = (time.thread_time() - start) * 1000
        self.cpu_ms["incremental"] = previous is not None
        self.previous = reading
        self.last_ms = dict(reading.ms)
        observation = {
            "pieces": [{"q": int(p["q"]), "r": int(p["r"]), "turn": int(p["turn"]), "sides": p["sides"],
                        "join": p.get("join", "water")} for p in reading.pieces],
            "tribes": self.tribes(frame, reading),
            "markers": [m.to_dict() for m in getattr(reading, "markers", ())],
            "unsure": list(reading.unsure),
            "conflicts": list(reading.conflicts),
        }
        self._pieces_seen = observation["pieces"]   # the lattice the history's nodes are in (tell_heights)
        self.asked_now(observation["tribes"])
        self.cpu_ms["total"] = (time.thread_time() - start) * 1000
        notes: list[Any] = [T("the camera is unsure of {what}", what=u) for u in reading.unsure[:3]]
        return LayoutSeen(observation, notes)

    def tribes(self, frame: np.ndarray, reading: Any) -> list[dict[str, Any]]:
        """The reading's tribes, with the heights the frames before tell where this frame cannot
        (:class:`~tablehub.tracking.sundaheights.StackHistory`; ``height_from`` says which told it)."""
        tribes = list(reading.tribes)
        patches: list[Any] = []
        loc = getattr(reading, "_loc", None)
        rect = getattr(self.reader, "rect", None)
        nadir = None
        if tribes and loc is not None and rect is not None:
            size = (frame.shape[1], frame.shape[0])
            try:
                nadir = self.reader._camera(size, loc.homography)[0]
            except Exception:  # no camera model: the window round the base only grows
                nadir = None

            def to_image(pts: np.ndarray) -> np.ndarray:
                return rect.mat_to_image(pts, loc, size)
            for t in tribes:
                patches.append(stack_patch(frame, to_image, self.heights.look_at(t.mat_mm), nadir,
                                           getattr(t, "parallax_per_pawn_mm", 3.0)))
        else:
            patches = [None] * len(tribes)
        self.heights.rules = self._rules_for(reading, self.count_supply(frame, reading))
        return self.heights.update([t.to_dict() for t in tribes], [t.mat_mm for t in tribes], patches,
                                   [getattr(t, "measure", None) for t in tribes])

    def count_supply(self, frame: np.ndarray, reading: Any) -> dict[str, int] | None:
        """Count the players' supplies in this frame (``vision.sundasupply``) and return the pawns of each colour that
        left the supply since the frame before, where that count is trusted (:meth:`supply_taken`); ``None``
        where no colour's is."""
        global _SUPPLY
        before, self.supply = self.supply, None
        loc = getattr(reading, "_loc", None)
        if loc is None or getattr(reading, "_lut", None) is None or not hasattr(self.reader, "pawn_names"):
            self.taken = None
            return None
        start = time.thread_time()
        if _SUPPLY is None:
            from vision import sundasupply as _SUPPLY
        if self._counter is None:   # counted again only where the frame changed (vision.sundasupply.SupplyGate)
            counter = _SUPPLY.SupplyCounter(getattr(self.reader, "s", 2.0))
            self._counter = _SUPPLY.SupplyGate(counter) if SUPPLY_GATE else counter
        try:
            nadir, cam_h = self.reader._camera((frame.shape[1], frame.shape[0]), loc.homography)
            self.supply = self._counter.count(frame, self.reader, reading, nadir, cam_h)
        except Exception:   # no camera model, no canvas: nothing counted (the history asks as before)
            log.debug("the supply was not counted in this frame", exc_info=True)
            self.supply = None
        self.taken = self.supply_taken(before, self.supply)
        self.cpu_ms["count"] = (time.thread_time() - start) * 1000
        return self.taken

    def supply_taken(self, before: Any, now: Any) -> dict[str, int] | None:
        """How many pawns of each colour left the supply between the frame before (``before``) and this one (``now``,
        both ``SupplySeen``), for the colours whose count is trusted: the frame before's count agrees with the rules
        (the supply seen then and the pawns the log, which holds that frame, has on the table make the rule book's
        pawns a player: ``use_game``), this frame's is counted, none came back (pawns return only by a challenge or
        an undo, which make the stacks suspect anyway) and the colour's paint off the layout changed by as many
        pawns' footprints (``vision.sundasupply.supply_change_agrees``: a count that changed without the paint is a
        miscount). ``None`` where no colour's is (today's behaviour: the history asks)."""
        if before is None or now is None or self._log_pawns is None:
            return None
        on_table, total = self._log_pawns
        out: dict[str, int] = {}
        for colour, logged in on_table.items():
            a, b = before.counts.get(colour), now.counts.get(colour)
            if a is None or b is None or a + logged != total or b > a:
                continue
            if _SUPPLY.supply_change_agrees(before, now, colour, a - b):
                out[colour] = a - b
        return out or None

    def use_game(self, game: Any) -> None:
        """Read with ``game``'s set of prints as a constraint (``SundaReader.use_set``, vision/sundaset.py): the
        owner's recorded set, or the packaged provisional one. Told by the tracker before each read; the set is
        taken again only when it is another set. The tribes logged since the last read tell the history their
        heights (:meth:`tell_heights`)."""
        self.tell_heights(game)
        self.played_on(game)
        self._rules = self.pawn_rules(game)
        self._log_pawns = self.log_pawns(game)
        self._game = game
        tribes = getattr(game, "tribes", None)
        if isinstance(tribes, dict):
            # a pawn can leave the table only by a challenge (its dice entered on the phone) or an undo: the stacks
            # that change in the next frame are then not taken as grown by a pawn (tablehub/tracking/sundaheights.py)
            now = (sum(len(v) for v in tribes.values()), getattr(game, "last_challenge", None))
            if self._pawns_of is not None and (now[0] < self._pawns_of[0] or (now[1] is not None
                                                                               and now[1] != self._pawns_of[1])):
                self.heights.pawns_may_leave()
            self._pawns_of = now
        pieces = getattr(getattr(game, "set", None), "pieces", None)
        if pieces is None or pieces is self._set_of:
            return
        self.reader.use_set([p.ring for p in pieces])
        self._set_of = pieces

    def pawn_rules(self, game: Any) -> tuple[PawnRules, int] | None:
        """What the game's log allows to be added to the stacks before the next frame (``PawnRules``: each colour's
        pawns left in supply, and the colour of the player who may still put a pawn on in the log's phase) and how
        many pieces the log holds; ``None`` when the game does not say (no supply, no colours)."""
        supply = getattr(game, "supply", None)
        adapter = getattr(game, "layout_moves", None)
        if supply is None or adapter is None:
            return None
        try:
            colours = adapter.colours(game)
            left = {colours[i]: int(n) for i, n in enumerate(supply) if i < len(colours)}
            current = int(game.current)
            open_claim = (getattr(game, "pending", None) is None and getattr(game, "claim", None) is None
                          and int(getattr(game, "in_turn", 0)) >= 1 and int(supply[current]) > 0)
            may = frozenset({colours[current]}) if open_claim and current < len(colours) else frozenset()
            placed = len(game.board.placed)
        except Exception:   # a game that does not say: the history asks as before
            return None
        return PawnRules(pawns_left=left, may_add=may, one_phase=True), placed

    @staticmethod
    def log_pawns(game: Any) -> tuple[dict[str, int], int] | None:
        """The log's pawns on the table per colour (tribes and water rights) and the rule book's pawns a player (24, 16
        or 12 by the number of players: ``engine.PAWNS``); ``None`` for a game that does not say."""
        try:
            from ..games.sunda.engine import PAWNS

            colours = game.layout_moves.colours(game)
            total = int(PAWNS[len(game.players)])
            on = {c: 0 for c in colours}
            for owners in game.tribes.values():
                for i in owners:
                    on[colours[int(i)]] += 1
            for i in (getattr(game, "water", None) or {}).values():
                on[colours[int(i)]] += 1
        except Exception:
            return None
        return on, total

    def _rules_for(self, reading: Any, taken: dict[str, int] | None = None) -> PawnRules | None:
        """The rules told before this read (:meth:`pawn_rules`), their phase part (only the colour that may be added,
        one pawn at most) kept only when this frame shows exactly the pieces the log holds: a piece laid since (or
        one the reader misses or reads where none lies) may have opened a phase the log does not know."""
        if self._rules is None:
            return None
        rules, placed = self._rules
        return PawnRules(pawns_left=rules.pawns_left, may_add=rules.may_add, one_phase=len(reading.pieces) == placed,
                         taken=taken)

    def tell_heights(self, game: Any) -> int:
        """Feed the game's knowledge back to the stacks' history: every tribe the log grew since the last call (a
        pawn put on and logged with NEXT, or the phone's answer to an asked height) is what stands there, in the
        frame last read (the tracker logs what that frame showed). The engine's nodes are carried into the reader's
        lattice of that frame by the adapter's registration (``game.layout_moves.register`` on that frame's pieces,
        ``tablehub/games/sunda/camera.py``); the history takes it only where the frame saw the same colour on top
        (:meth:`StackHistory.tell`). A tribe that lost pawns (a challenge, an undo) tells nothing. Returns how many
        stacks were told."""
        tribes = getattr(game, "tribes", None)
        adapter = getattr(game, "layout_moves", None)
        if not isinstance(tribes, dict):
            return 0
        now = {pt: list(v) for pt, v in tribes.items()}
        before, self._tribes_of = self._tribes_of, now
        if before is None or adapter is None or not self._pieces_seen or not self.heights.stacks:
            return 0
        grown = {pt: v for pt, v in now.items()
                 if len(v) > len(before.get(pt, ())) and v[:len(before.get(pt, ()))] == list(before.get(pt, ()))}
        if not grown:
            return 0
        try:
            reg = adapter.register(game, self._pieces_seen)
            colours = adapter.colours(game)
        except Exception:   # no registration, no colours: nothing is told (the phone asks as before)
            return 0
        if reg is None:
            return 0
        k, shift = reg[0], reg[1]
        told: dict[tuple[int, int], list[str]] = {}
        for s in self.heights.stacks:
            if s.qr is None:
                continue
            pt = adapter.point(s.qr[0], s.qr[1], k, shift)
            if pt in grown and all(0 <= i < len(colours) for i in grown[pt]):
                told[s.qr] = [colours[i] for i in grown[pt]]
        return self.heights.tell(told)

    def reset(self) -> None:
        """Another game: read the table afresh."""
        self.previous = None
        self.heights.reset()
        self._pawns_of = None
        self._tribes_of = None
        self._rules = None
        self._game, self._phase, self._asked = None, None, {}
        self.supply, self._log_pawns, self.taken = None, None, None

    @staticmethod
    def phase_key(game: Any) -> tuple | None:
        """What changes whenever the log moves on (a piece, a pawn, a water right, a claim, the turn): the phase a
        question was asked in is over once this differs. ``None`` for a game that does not say."""
        try:
            pawns = sum(len(v) for v in game.tribes.values())
            return (len(game.board.placed), int(game.current), int(game.in_turn), game.claim, game.claim_at, pawns,
                    len(getattr(game, "water", ()) or ()))
        except Exception:
            return None

    def asked_now(self, tribes: list[dict[str, Any]]) -> int:
        """Note the heights this frame leaves to the phone's question "did P1 add a pawn to it? If so, choose it; if
        not, play on" (the adapter's, ``tablehub/games/sunda/camera.py``): an asked tribe topped by the colour of the
        player whose claim is open, in a frame that shows exactly the log's pieces (no new piece: the adapter asks
        only then), where the log holds a tribe of that colour on top which the rules let that player join. Kept while
        the log's phase lasts (:meth:`played_on`); returns how many this frame added."""
        game, rules = self._game, self.heights.rules
        adapter = getattr(game, "layout_moves", None)
        if game is None or adapter is None or rules is None or not rules.one_phase or not rules.may_add:
            return 0
        mine = [t for t in tribes if t.get("ask") and t.get("height") is None and t.get("top") in rules.may_add]
        if not mine or not self._pieces_seen:
            return 0
        try:
            reg = adapter.register(game, self._pieces_seen)
            colours = adapter.colours(game)
        except Exception:   # no registration: nothing noted (the stacks stay asked)
            return 0
        if reg is None:
            return 0
        added = 0
        for t in mine:
            pt = adapter.point(int(t["q"]), int(t["r"]), reg[0], reg[1])
            if not adapter.height_asked(game, pt, t, colours):
                continue                    # the adapter asks nothing here: no answer will come
            have = list(game.tribes.get(pt, ()))
            self._asked[pt] = (list(t["at_mm"]), pt, have, self.heights.frame)
            added += 1
        return added

    def played_on(self, game: Any) -> int:
        """Once the log moved past the phase whose heights the phone asked (:meth:`asked_now`), each asked tribe the
        log did not grow was answered "play on" (no pawn added): the history takes the log's tribe there, while the
        stack looks as when asked (:meth:`StackHistory.play_on`). A tribe the log changed otherwise (grown: told by
        :meth:`tell_heights`; lost pawns) tells nothing. Returns how many stacks were told."""
        key = self.phase_key(game)
        if key == self._phase:
            return 0
        asked, self._asked, self._phase = self._asked, {}, key
        tribes = getattr(game, "tribes", None)
        adapter = getattr(game, "layout_moves", None)
        if not asked or key is None or not isinstance(tribes, dict) or adapter is None:
            return 0
        try:
            colours = adapter.colours(game)
        except Exception:
            return 0
        answers = [(at, [colours[i] for i in have], frame) for at, pt, have, frame in asked.values()
                   if list(tribes.get(pt, ())) == have]
        return self.heights.play_on(answers)
