"""How what the camera saw on a Sunda to Sahul table becomes Sunda actions (the engine's side of
``tablehub.tracking.layoutmoves``: tracking stays game-agnostic).

The camera's reader (``vision.sunda``) sees every piece's placement and its land and water along each
side, and the stacks on the nodes, in its **own** lattice coordinates (its point 0,0 and its direction
D0 are where it found them), never which of the 136 pieces is which. This adapter:

1. **Registers** the reading on the committed layout: the rotation (a multiple of 60 degrees) and the
   shift that carry the reader's lattice onto the engine's, voted by every pair of pieces with the same
   land and water (pieces common in the set, open sea and all land, vote only when few others can).
   The first piece fixes it: the acute corner from which it turns 0-2 (in the reader's frame) at 0,0 (any
   turn is legal; the other anchor is the same game shifted by a side).
2. **A new piece** (two covered triangles the layout does not hold) becomes a ``place_piece`` of a piece
   from the pool with the same land and water at that placement (either of its two anchors); look-alike
   pieces are one choice. When no piece left in the pool matches every slot, the nearest ones (fewest
   slots read differently) are offered on the phone: the owner's set is a constraint on what can be there.
   The engine checks the placement: a piece turned so its land meets water is refused with the engine's
   own reason (``edge_mismatch``), which the tracker flags on the LEDs, buzzer and page.
3. **A pawn on a new node** becomes ``place_pawn`` (a land node) or ``water_right`` (a water node); a
   tribe whose top changed to the placer's colour, ``place_pawn`` on it. A tribe whose height the camera
   cannot tell (``ask``) with the placer's colour still on top, while the placer may join it, is asked on
   the phone ("did you add a pawn?"). A challenge (``challenge`` and the dice as ``roll``) and consent are
   entered on the phone.
4. **A resource marker** the log does not hold (``vision.sundamarkers``: its colour and the node it lies by)
   becomes ``place_marker`` after the pawn or water right of the same reading (or of the phase): the engine
   checks it (no pawn added, one marker a pawn, the island's total) and the tracker flags a refusal with the
   engine's reason; a marker seen on another island than that pawn's is flagged too.

Pieces already in the log are the truth: a piece the camera reads otherwise, or does not see, is left as
logged (with a note).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ...i18n import T
from ...tracking.interpret import _colour as colour_said
from .lattice import corners, triangles

#: the pawn colours the camera enrols, in player order, when the game's colours are not among them
CAMERA_COLOURS = ("red", "yellow", "black", "purple")
#: the most pieces offered on the phone for one unsure piece
MAX_CHOICES = 6


def _rot(p: tuple[int, int], k: int) -> tuple[int, int]:
    """``p`` turned ``k`` x 60 degrees clockwise about 0,0 (D_i -> D_{i+k})."""
    q, r = p
    for _ in range(k % 6):
        q, r = -r, q + r
    return q, r


def _half(ring: str) -> str:
    return ring[6:] + ring[:6]


def _canonical(q: int, r: int, turn: int, ring: str) -> tuple[int, int, int, str]:
    """The same rhombus and print anchored at whichever acute corner gives a turn of 0-2."""
    if turn % 6 < 3:
        return q, r, turn % 6, ring
    c2 = corners(q, r, turn)[2]
    return c2[0], c2[1], (turn + 3) % 6, _half(ring)


def _ring(sides: str) -> str:
    return str(sides).replace(" ", "")


def first_spots(turn: int, ring: str) -> tuple[tuple[int, int, int, str], tuple[int, int, int, str]]:
    """Where the engine may log the first piece, seen with ``ring`` from the acute corner from which it turns
    ``turn`` (0-2): ``(q, r, turn, ring)`` with that corner at 0,0 (tried first), or with the other acute corner
    at 0,0 (turning 3-5, its print read from there). Which one is logged is the pool piece that matches best
    (:meth:`SundaCameraMoves.first_piece`); the engine's lattice is then the reader's shifted so that the
    chosen corner lies at 0,0."""
    t, ring = turn % 6, _ring(ring)
    if t >= 3:
        raise ValueError(f"first_spots: turn {turn} is not 0-2 (the canonical anchor)")
    return (0, 0, t, ring), (0, 0, t + 3, _half(ring))


def readdress(action: Mapping[str, Any], have: Any, want: Any) -> dict[str, Any]:
    """``action`` (a ``place_piece`` of piece ``have``) as a ``place_piece`` of the look-alike ``want``
    laid with the same print on the same rhombus: at the same anchor when their rings are equal, at the other
    acute corner when ``want``'s ring is ``have``'s turned half round. Raises ``ValueError`` when neither."""
    q, r, t = int(action["q"]), int(action["r"]), int(action.get("turn", 0))
    if want.join != have.join:
        raise ValueError(f"readdress: {want.id} and {have.id} differ in join")
    if want.ring == have.ring:
        return {**action, "piece": want.id}
    if want.ring == _half(have.ring):
        c2 = corners(q, r, t)[2]
        return {**action, "piece": want.id, "q": c2[0], "r": c2[1], "turn": (t + 3) % 6}
    raise ValueError(f"readdress: {want.id} is not a look-alike of {have.id}")


class SundaCameraMoves:
    """The engine's adapter for the live tracker (module docstring): ``change(game, seen)``."""

    #: the action types the camera's readings log (with NEXT or a phone choice); the rest is the phone's
    #: (``place_marker`` is not one: a reader given a ``vision.sundamarkers.MarkerFinder`` - the bench's, or the
    #: hub's once ``tablehub sundacam enrol --markers`` enrolled their colours - has them read and proposed with
    #: the pawn they follow; without them, and in the demo, the phone enters them)
    table_actions = frozenset({"place_piece", "place_pawn", "water_right"})

    # ---------------------------------------------------------------- colours
    def colours(self, game: Any) -> list[str]:
        """The pawn colour of each player, as the camera names them."""
        chosen = [str(c).lower() for c in (game.setup.colors or ())]
        if len(chosen) >= len(game.players) and all(c in CAMERA_COLOURS for c in chosen):
            return chosen[:len(game.players)]
        return list(CAMERA_COLOURS[:len(game.players)])

    # ---------------------------------------------------------------- registration
    def register(self, game: Any, pieces: list[Mapping[str, Any]]) -> tuple[int, tuple[int, int], int] | None:
        """``(k, shift, votes)``: the reader's point p is the engine's ``rot(p, k) + shift``; ``None`` before the
        first piece or when no piece seen matches one logged."""
        placed = game.board.placed
        if not placed:
            return None
        by_ring: dict[str, list[tuple[int, int, int]]] = {}
        for p in placed:
            q, r, t, ring = _canonical(p.q, p.r, p.turn, p.piece.ring)
            by_ring.setdefault(ring, []).append((q, r, t))
        counts = Counter()
        for ring, spots in by_ring.items():
            counts[min(ring, _half(ring))] += len(spots)
        # rare prints vote alone when there are enough of them (common ones would cast thousands of votes)
        rare = {key for key, n in counts.items() if n <= 3}
        use = rare if sum(counts[key] for key in rare) >= 3 else set(counts)
        votes = self._votes(pieces, lambda ring: by_ring.get(ring, ()), use)
        if not votes:  # a slot of a logged piece misread in this frame: prints one slot off vote
            def near(ring: str) -> list[tuple[int, int, int]]:
                return [spot for logged, spots in by_ring.items()
                        if sum(a != b for a, b in zip(logged, ring)) <= 1 for spot in spots]
            votes = self._votes(pieces, near, None)
        if not votes:
            return None
        (k, shift), n = max(votes.items(), key=lambda kv: (kv[1], -kv[0][0], kv[0][1]))
        return k, shift, n

    def first_piece(self, game: Any, turn: int, ring: str, join: str) -> dict[str, Any] | None:
        """The ``place_piece`` the camera logs for a first piece seen with ``ring`` from its acute corner turning
        ``turn`` (0-2) and ``join``, on a game with no piece laid: the best match in the pool, from
        :func:`first_spots` (the corner turning 0-2 when a pool piece reads so from it, else the other).
        The simulated table anchors its records by the same rule (``tracking.simsunda``). ``None`` when
        no piece left in the pool matches every slot (the phone is asked)."""
        alts, question = self._piece_actions(game, 0, 0, turn, ring, join)
        return dict(alts[0][0]) if alts and not question else None

    @staticmethod
    def _votes(pieces: list[Mapping[str, Any]], spots_of: Any, use: set[str] | None) -> Counter:
        """Votes for ``(k, shift)``: each seen piece (from either acute corner) against the logged placements
        ``spots_of(ring)`` gives for its print; only prints in ``use`` (every print when ``None``)."""
        votes: Counter = Counter()
        for s in pieces:
            ring = _ring(s["sides"])
            if use is not None and min(ring, _half(ring)) not in use:
                continue
            c2 = corners(s["q"], s["r"], s["turn"])[2]
            for q, r, t, sring in ((s["q"], s["r"], s["turn"], ring), (c2[0], c2[1], s["turn"] + 3, _half(ring))):
                for eq, er, et in spots_of(sring):
                    k = (et - t) % 6
                    a = _rot((q, r), k)
                    votes[(k, (eq - a[0], er - a[1]))] += 1
        return votes

    def _to_engine(self, s: Mapping[str, Any], k: int, shift: tuple[int, int]) -> tuple[int, int, int, str]:
        a = _rot((s["q"], s["r"]), k)
        return a[0] + shift[0], a[1] + shift[1], (s["turn"] + k) % 6, _ring(s["sides"])

    def point(self, q: int, r: int, k: int, shift: tuple[int, int]) -> tuple[int, int]:
        """The engine's point of the camera's lattice point ``q``, ``r`` under a registration's turn ``k`` and
        ``shift`` (:meth:`register`)."""
        a = _rot((q, r), k)
        return a[0] + shift[0], a[1] + shift[1]

    # ---------------------------------------------------------------- the change
    def change(self, game: Any, seen: Mapping[str, Any]) -> Any:
        from ...tracking.layoutmoves import LayoutChange

        notes: list[Any] = []
        pieces = list(seen.get("pieces", ()))
        if not game.board.placed:
            if not pieces:
                return LayoutChange()
            if len(pieces) > 1:
                return LayoutChange(waiting=T("{n} pieces on an empty game's table: lay the first piece alone (or "
                                              "clear the table)", n=len(pieces)))
            s = pieces[0]  # anchored at the acute corner from which it turns 0-2 (either is the same game, shifted)
            q, r, _, _ = _canonical(s["q"], s["r"], s["turn"], _ring(s["sides"]))
            k, shift = 0, (-q, -r)
        else:
            reg = self.register(game, pieces)
            if reg is None:
                return LayoutChange(waiting=T("none of the pieces seen matches the layout logged: is the camera on "
                                              "this game's table?"))
            k, shift, _ = reg
        logged = game.board.tri
        new: list[tuple[int, int, int, str, str]] = []
        for s in pieces:
            q, r, t, ring = self._to_engine(s, k, shift)
            tris = triangles(q, r, t)
            if any(tr in logged for tr in tris):
                continue  # a logged piece (the log is the truth for it)
            new.append((q, r, t, ring, str(s.get("join", "water"))))
        if len(new) > 1:
            where = ", ".join(f"{q},{r}" for q, r, *_ in new)
            return LayoutChange(waiting=T("{n} new pieces seen (at {where}): NEXT after each piece", n=len(new),
                                          where=where),
                                notes=notes)
        piece_alts: list[list[dict[str, Any]]] = [[]]
        question = ""
        if new:
            piece_alts, question = self._piece_actions(game, *new[0])
            if not piece_alts:
                q, r = new[0][:2]
                return LayoutChange(reason=T("the piece at {q},{r}: no piece left in the pool", q=q, r=r), notes=notes)
            if not game.board.placed:  # the corner the first piece is logged from lies at 0,0: pawns follow it
                s = pieces[0]
                q, r, t, _ = _canonical(s["q"], s["r"], s["turn"], _ring(s["sides"]))
                if int(piece_alts[0][0]["turn"]) != t:
                    c2 = corners(q, r, t)[2]
                    shift = (-c2[0], -c2[1])
        pawn_alts, ask = self._pawn_actions(game, seen, k, shift, notes, piece_new=bool(new))
        question = question or ask
        candidates = [p + ([w] if w else []) for p in piece_alts for w in (pawn_alts or [None])]
        candidates = [c for c in candidates if c]
        markers = self._marker_actions(game, seen, k, shift, notes)
        if markers:
            candidates, why = self._with_markers(game, candidates or [[]], markers)
            if not candidates:
                return LayoutChange(reason=why, notes=notes)
        return LayoutChange(candidates=candidates, question=question, notes=notes)

    def _marker_actions(self, game: Any, seen: Mapping[str, Any], k: int, shift: tuple[int, int], notes: list[Any]
                        ) -> list[tuple[str, tuple[int, int]]]:
        """The resource markers seen that the log does not hold: (marker, the engine's node it lies by)."""
        out = []
        for m in seen.get("markers", ()):
            mid = m.get("marker")
            pt = self.point(int(m["q"]), int(m["r"]), k, shift)
            if mid in game.markers:
                continue  # logged (the log is the truth for it)
            if mid not in game.set.marker_by_id:
                notes.append(T("a resource marker of an unknown colour ({colour}) at {q},{r}", colour=colour_said(mid),
                               q=pt[0], r=pt[1]))
                continue
            out.append((str(mid), pt))
        return out

    def _with_markers(self, game: Any, candidates: list[list[dict[str, Any]]],
                      markers: list[tuple[str, tuple[int, int]]]) -> tuple[list[list[dict[str, Any]]], Any]:
        """Each reading followed by the new markers' ``place_marker`` (the engine checks them), kept where every
        marker lies on the island of the pawn or water right it follows; else why not."""
        from .engine import marker_word   # (the engine imports this module)

        out, why = [], ""
        for c in candidates:
            trial = game.copy()
            try:
                for a in c:
                    trial.apply(trial.parse_action(a))
            except Exception:  # the engine refuses the reading itself: the tracker flags it with the reason
                out.append(c + [{"type": "place_marker", "marker": m} for m, _ in markers])
                continue
            claim = trial.claim_at
            ok = True
            for m, pt in markers:
                if claim is None or trial.claim not in ("pawn", "water right"):
                    break  # the engine's own refusal (no pawn added this phase) says it
                try:
                    same = trial.island_at(pt) == trial.island_at(claim)
                except KeyError:
                    same = False
                if not same:
                    ok = False
                    why = T("the {marker} marker lies by {q},{r}, not on the island of the pawn it follows ({cq},{cr})",
                            marker=marker_word(m), q=pt[0], r=pt[1], cq=claim[0], cr=claim[1])
            if ok:
                out.append(c + [{"type": "place_marker", "marker": m} for m, _ in markers])
        return out, why

    def _piece_actions(self, game: Any, q: int, r: int, t: int, ring: str, join: str
                       ) -> tuple[list[list[dict[str, Any]]], Any]:
        """The ``place_piece`` readings of a new piece: pool pieces with the land and water seen (either anchor)."""
        q, r, t, ring = _canonical(q, r, t, ring)
        alt = corners(q, r, t)[2]
        if game.board.placed:
            spots = ((q, r, t, ring), (alt[0], alt[1], (t + 3) % 6, _half(ring)))
        else:  # the first piece: c0 at 0,0, from whichever acute corner its print matches (turning 0-2 first)
            spots = first_spots(t, ring)
        scored: list[tuple[float, int, str, dict[str, Any]]] = []
        seen_looks: set[tuple[str, str]] = set()
        for pid in game.pool:
            piece = game.set.by_id[pid]
            for n, (sq, sr, st, sring) in enumerate(spots):
                d = sum(a != b for a, b in zip(piece.ring, sring)) + (0.5 if piece.join != join else 0.0)
                scored.append((d, n, pid, {"type": "place_piece", "piece": pid, "q": sq, "r": sr, "turn": st}))
        if not scored:
            return [], ""
        scored.sort(key=lambda x: (x[0], x[1]))
        best = scored[0][0]
        out: list[list[dict[str, Any]]] = []
        for d, _, pid, action in scored:
            if d > best + (0 if best < 1 else 1) or len(out) >= MAX_CHOICES:
                break
            piece = game.set.by_id[pid]
            look = (min(piece.ring, _half(piece.ring)), piece.join)
            if look in seen_looks:  # look-alikes (and the same piece from its other anchor): one choice
                continue
            seen_looks.add(look)
            out.append([action])
        if best < 1:
            return out[:1], ""
        return out, T("The camera is not sure of the piece laid at {q},{r}: no piece left matches every slot it "
                      "read. Which piece is it?", q=q, r=r)

    def _pawn_actions(self, game: Any, seen: Mapping[str, Any], k: int, shift: tuple[int, int], notes: list[Any],
                      piece_new: bool) -> tuple[list[dict[str, Any]], Any]:
        colours = self.colours(game)
        placer = game.current
        alts: list[dict[str, Any]] = []
        ask: Any = ""
        for t in seen.get("tribes", ()):
            pt = self.point(int(t["q"]), int(t["r"]), k, shift)
            top = t.get("top")
            if top not in colours:
                notes.append(T("a pawn of an unknown colour ({colour}) at {q},{r}", colour=colour_said(top), q=pt[0], r=pt[1]))
                continue
            if pt in game.water:
                continue
            have = game.tribes.get(pt)
            if not have:
                node = game.board.nodes.get(pt)
                kind = "water_right" if node is not None and node.kind == "water" else "place_pawn"
                alts.append({"type": kind, "q": pt[0], "r": pt[1]})
                continue
            height = t.get("height")
            grew = (height is not None and height == len(have) + 1) or (
                height is None and colours[have[-1]] != top and len(have) + 1 in (t.get("candidates") or ()))
            if grew:
                alts.append({"type": "place_pawn", "q": pt[0], "r": pt[1]})
            elif not piece_new and self.height_asked(game, pt, t, colours):
                alts.append({"type": "place_pawn", "q": pt[0], "r": pt[1]})
                ask = T("The camera cannot tell the height of the tribe at {q},{r}: did {player} add a pawn to "
                        "it? If so, choose it; if not, play on.", q=pt[0], r=pt[1], player=game.players[placer])
        return alts, ask

    def height_asked(self, game: Any, pt: tuple[int, int], t: Mapping[str, Any], colours: list[str]) -> bool:
        """Whether the phone asks of the tribe read as ``t`` at engine point ``pt`` "did {player} add a pawn to it?":
        its height left open, topped by the placer's colour as the log's tribe there is, one pawn more among its
        possible heights, and the rules let the placer join it. The caller checks that the frame shows no new piece
        (a new piece is the turn's move, and no pawn is asked then)."""
        have = game.tribes.get(pt)
        top = t.get("top")
        return (bool(have) and t.get("height") is None and top in colours and colours.index(top) == game.current
                and all(0 <= i < len(colours) for i in have) and colours[have[-1]] == top
                and len(have) + 1 in (t.get("candidates") or ()) and self._may_join(game, pt))

    def _may_join(self, game: Any, pt: tuple[int, int]) -> bool:
        trial = game.copy()
        try:
            trial.apply(trial.parse_action({"type": "place_pawn", "q": pt[0], "r": pt[1]}))
        except Exception:  # the rules refuse it: nothing to ask
            return False
        return True

    # ---------------------------------------------------------------- for the simulated table
    def twin(self, game: Any, action: Mapping[str, Any]) -> dict[str, Any] | None:
        """A legal ``place_piece`` of a look-alike piece (same land, water and join) still in the pool, when
        ``action``'s piece is used up (the camera logged its twin earlier)."""
        if action.get("type") != "place_piece" or action.get("piece") not in game.set.by_id:
            return None
        want = game.set.by_id[action["piece"]]
        for pid in game.pool:
            p = game.set.by_id[pid]
            if p.join != want.join:
                continue
            c2 = corners(int(action["q"]), int(action["r"]), int(action.get("turn", 0)))[2]
            for ring, spot in ((want.ring, {}), (_half(want.ring), {"q": c2[0], "r": c2[1],
                                                                  "turn": (int(action.get("turn", 0)) + 3) % 6})):
                if p.ring == ring:
                    candidate = {**action, "piece": pid, **spot}
                    if game.validate(game.parse_action(candidate)) is None:
                        return candidate
        return None

    def outcome(self, game: Any) -> Any:
        """What the table shows and the scores (for comparing two logs of the same table): pieces by placement
        and print (not by id: look-alikes are the same table), tribes, water rights, markers, scores."""
        pieces = sorted((*_canonical(p.q, p.r, p.turn, p.piece.ring), p.piece.join) for p in game.board.placed)
        return (pieces, sorted(game.tribes.items()), sorted(game.water.items()), sorted(game.markers.items()),
                game.scores(), list(game.supply))
