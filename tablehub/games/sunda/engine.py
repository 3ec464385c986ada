"""The Sunda to Sahul rules engine (Don Bone, Sagacity Games 2002), 1 to 4 players.

Rule book: ``../shared/seeds/003_0e0679ecfea58ed1.txt``; what it leaves open is
decided in ``../shared/RULINGS.md`` ("Sunda to Sahul"). Coordinates, the action
vocabulary, the pieces file and the solo goal are in docs/sunda.md.

A turn is two phases; a phase is ``place_piece`` then at most one claim: a pawn on
a land node the piece formed (``place_pawn``), a water right on a fresh-water node it
formed (``water_right``), or a ``challenge`` (then the table's dice as ``roll``). A
``consent`` (cooperation) may come before a pawn joins another chief's tribe, and a
``place_marker`` (resources) may follow a pawn or a water right. Each level of the
advanced game is an option that can be switched on alone. Everything scores at the
end (``finish()``), kind ``"final"``, one explained event per tribe, water right and
island's markers.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ...i18n import N_, T, Tc, Text, Tn, comma
from ..base import Action, Game, IllegalAction, OptionSpec, PositionResult, ScoreEvent, Setup, confirmed, \
    no_hints, verdict, winners_of
from .camera import SundaCameraMoves
from .actions import ACTIONS, Challenge, Consent, PlaceMarker, PlacePawn, PlacePiece, Roll, WaterRight
from .board import Analysis, Board
from .dice import MAX_TRIBE, challenger_wins, dice_for, percent
from .lattice import H, Point, corners, xy
from .pieces import Piece, PieceSet, load_pieces

#: pawns per player by number of players (solo: RULINGS.md)
PAWNS = {1: 26, 2: 24, 3: 16, 4: 12}
LEVELS = ("water_rights", "tribes", "cooperation", "challenges", "resources")


@dataclass
class Pending:
    """A declared challenge waiting for its dice."""

    attacker: Point
    defender: Point
    challenger: int
    defender_chief: int
    dice: tuple[int, int]

    def odds(self) -> float:
        return float(challenger_wins(*self.dice))


def _pt(p: Point) -> str:
    return f"{p[0]},{p[1]}"


def _pawns(n: int) -> Text:
    return Tn("{n} pawn", "{n} pawns", n)


def _dice(n: int) -> Text:
    return Tn("{n} die", "{n} dice", n)


def marker_word(marker: Any) -> Any:
    """A resource marker by its colour in the reader's language (an id of the owner's own set is kept)."""
    words = {"red": Tc("sunda marker", "red"), "orange": Tc("sunda marker", "orange"),
             "yellow": Tc("sunda marker", "yellow"), "green": Tc("sunda marker", "green"),
             "blue": Tc("sunda marker", "blue"), "purple": Tc("sunda marker", "purple")}
    return words.get(marker, marker) if isinstance(marker, str) else marker


#: what a phase's claim was, in words
CLAIMS = {"pawn": Tc("sunda", "pawn"), "water right": Tc("sunda", "water right"),
          "challenge": Tc("sunda", "challenge")}


def piece_drawing(piece: Piece, q: int, r: int, turn: int) -> dict[str, Any]:
    """Where a piece laid at (q, r, turn) is drawn, in page units (unit side, y down): its rhombus
    ``corners`` and its ``land`` polygons (the view's pieces and the hints' outlines)."""
    cs = corners(q, r, turn)
    cx, cy = xy(cs[0])
    ang = math.radians(60 * turn)
    ca, sa = math.cos(ang), math.sin(ang)

    def world(pt: tuple[float, float]) -> list[float]:
        return [round(cx + pt[0] * ca - pt[1] * sa, 3), round(cy + pt[0] * sa + pt[1] * ca, 3)]

    return {"corners": [[round(v, 3) for v in xy(c)] for c in cs],
            "land": [[world(pt) for pt in poly] for poly in piece.outline]}


class Sunda(Game):
    """Sunda to Sahul; see the module docstring and docs/sunda.md."""

    name = "sunda"
    title = "Sunda to Sahul"
    min_players = 1
    max_players = 4
    ACTIONS = ACTIONS
    OPTIONS = (
        OptionSpec("water_rights", False, "water rights: a pawn on a fresh-water node the placer formed "
                                          "scores 5, 10 if its island is complete", kind=bool),
        OptionSpec("tribes", False, "tribes: stacks of up to 5 pawns, each worth the tribe's size "
                                    "(doubled on a complete island)", kind=bool),
        OptionSpec("cooperation", False, "cooperation: joining a tribe another player leads needs its chief's "
                                         "consent (a 'consent' action); off: only tribes of your own pawns",
                   kind=bool),
        OptionSpec("challenges", False, "challenges: instead of a pawn, pit a tribe you lead against another "
                                        "on its island, with the table's dice", kind=bool),
        OptionSpec("resources", False, "resources: 6 markers that follow a pawn or water right onto an "
                                       "island and pay its majority at the end", kind=bool),
        OptionSpec("pieces", None, "the pieces: a path to a pieces JSON file (or the object); "
                                   "default: the packaged provisional set"),
    )
    #: the live camera's adapter (tablehub.tracking.layoutmoves): what a reading of the table means
    layout_moves = SundaCameraMoves()
    provisional = T("Sunda to Sahul: the 136 pieces (and the resource markers' numbers 1-6) are a generated "
                    "provisional set; the real art is not public")

    def __init__(self, setup: Setup):
        super().__init__(setup)
        self.set: PieceSet = load_pieces(self.options["pieces"])
        if not self.set.provisional:
            self.provisional = None
        self.board = Board(self.set)
        self.pool: dict[str, None] = dict.fromkeys(p.id for p in self.set.pieces)
        n = len(self.players)
        self.supply = [PAWNS[n]] * n
        self.tribes: dict[Point, list[int]] = {}
        self.water: dict[Point, int] = {}
        self.markers: dict[str, Point] = {}
        self.fresh_seen: set[Point] = set()
        self.in_turn = 0
        self.formed_land: list[Point] = []
        self.formed_fresh: list[Point] = []
        self.claim: str | None = None
        self.claim_at: Point | None = None
        self.consents: set[Point] = set()
        self.marker_done = False
        self.pending: Pending | None = None
        self.last_challenge: dict[str, Any] | None = None
        self.final_lines: list[str] = []
        self._fits_key = -1
        self._fits_any = True

    # ------------------------------------------------------------------ state helpers

    def on(self, level: str) -> bool:
        return bool(self.options[level])

    @property
    def must_choose(self) -> bool:
        return self.pending is not None

    @property
    def to_play(self) -> str:
        if self.in_turn == 2 and self.pending is None:
            return self.players[(self.current + 1) % len(self.players)]
        return self.current_player

    @property
    def game_over(self) -> Text | None:
        """Why the game has ended (checked before every phase), or ``None``."""
        if self.finished:
            return T("the game is over")
        if all(s == 0 for s in self.supply):
            return T("every pawn is placed")
        if not self.pool:
            return T("the pool is empty")
        if self._fits_key != len(self.board.placed):
            board = self.board
            self._fits_any = any(board.can_place(self.set.by_id[pid]) for pid in self.pool)
            self._fits_key = len(board.placed)
        if not self._fits_any:
            return T("no piece in the pool fits the layout")
        return None

    def chief(self, pt: Point) -> int:
        """The chief of the tribe at ``pt``: most pawns; a tie goes to the tied player whose pawn is highest."""
        stack = self.tribes[pt]
        counts: dict[int, int] = {}
        for p in stack:
            counts[p] = counts.get(p, 0) + 1
        most = max(counts.values())
        for p in reversed(stack):
            if counts[p] == most:
                return p
        raise AssertionError

    def island_at(self, pt: Point) -> int:
        """The island root of a land node, or of the lake around a fresh-water node."""
        node = self.board.nodes[pt]
        if node.kind == "land":
            return self.board.island_root(pt)
        an = self.board.analyse()
        comp = an.water_comp.get(self.board.find(node.region))
        return an.lake_island.get(comp, -1)

    def island_pawns(self, root: int) -> dict[int, int]:
        """Pawns per player on an island, water rights in its lakes included."""
        out: dict[int, int] = {}
        for pt, stack in self.tribes.items():
            if self.board.island_root(pt) == root:
                for p in stack:
                    out[p] = out.get(p, 0) + 1
        for pt, p in self.water.items():
            if self.island_at(pt) == root:
                out[p] = out.get(p, 0) + 1
        return out

    def island_marker_total(self, root: int) -> int:
        return sum(self.set.marker_by_id[m].number for m, pt in self.markers.items() if self.island_at(pt) == root)

    def _joinable(self) -> set[int]:
        return {self.board.island_root(pt) for pt in self.formed_land}

    # ------------------------------------------------------------------ validation

    def _who(self, action: Action, expected: int, consent: bool = False) -> None:
        """The action's player (when named) must be ``expected``: the one whose phase it is, or with
        ``consent`` the chief of the tribe."""
        player = getattr(action, "player", None)
        if player is not None and player != self.players[expected]:
            if player not in self.players:
                raise IllegalAction(T("{player} is not playing (players: {players})", player=repr(player),
                                      players=", ".join(self.players)), rule="unknown_player")
            if consent:
                raise IllegalAction(T("it is {expected}'s consent (the chief of that tribe), not {player}'s",
                                      expected=self.players[expected], player=player), rule="not_your_turn")
            raise IllegalAction(T("it is {expected}'s phase, not {player}'s", expected=self.players[expected],
                                  player=player), rule="not_your_turn")

    def _claim_open(self, what: Text) -> None:
        if self.in_turn == 0:
            raise IllegalAction(T("no piece has been placed yet: {what} follows a placement", what=what),
                                rule="no_phase")
        if self.pending is not None:
            raise IllegalAction(T("a challenge waits for its dice (roll)"), rule="challenge_pending")
        if self.claim is not None:
            raise IllegalAction(T("this phase already had its claim ({claim}): one pawn, water right or challenge "
                                  "per phase", claim=CLAIMS[self.claim]), rule="one_claim")
        if self.supply[self.current] == 0:
            raise IllegalAction(T("{player} has no pawn left in supply", player=self.current_player), rule="no_pawn")

    def _tribe_at(self, pt: Point, what: Text) -> list[int]:
        stack = self.tribes.get(pt)
        if not stack:
            raise IllegalAction(T("no tribe stands at {point} ({what})", point=_pt(pt), what=what), rule="no_tribe")
        return stack

    def _validate(self, action: Action) -> None:
        if isinstance(action, Roll):
            return self._check_roll(action)
        if isinstance(action, Consent):
            return self._check_consent(action)
        if isinstance(action, PlacePiece):
            placer = self.current if self.in_turn < 2 else (self.current + 1) % len(self.players)
            self._who(action, placer)
            if self.pending is not None:
                raise IllegalAction(T("a challenge waits for its dice (roll) before the next piece"),
                                    rule="challenge_pending")
            over = self.game_over
            if over:
                raise IllegalAction(T("the game has ended ({why}): finish it to score", why=over), rule="game_end")
            piece = self.set.by_id.get(action.piece)
            if piece is None:
                raise IllegalAction(self._no_such_piece(action.piece), rule="unknown_piece")
            if action.piece not in self.pool:
                raise IllegalAction(T("piece {piece} is already on the table", piece=action.piece),
                                    rule="not_in_pool")
            self.board.check(piece, action.q, action.r, action.turn)
            return None
        self._who(action, self.current)
        pt = (action.q, action.r) if hasattr(action, "q") else None  # type: ignore[attr-defined]
        if isinstance(action, PlacePawn):
            self._claim_open(T("a pawn"))
            assert pt is not None
            if pt in self.formed_land and pt not in self.tribes:
                return None
            if not self.on("tribes"):
                if pt in self.tribes:
                    raise IllegalAction(T("the node {point} already holds a pawn (tribes are off: one pawn per "
                                          "node)", point=_pt(pt)), rule="occupied_node")
                raise IllegalAction(self._not_formed(pt), rule="not_formed")
            stack = self.tribes.get(pt)
            if not stack:
                raise IllegalAction(self._not_formed(pt), rule="not_formed")
            if self.board.island_root(pt) not in self._joinable():
                raise IllegalAction(T("the tribe at {point} is not on the island of a node formed this phase "
                                      "(tribes: join a tribe on the island where you formed a node)",
                                      point=_pt(pt)), rule="wrong_island")
            if len(stack) >= MAX_TRIBE:
                raise IllegalAction(T("the tribe at {point} already has {most} pawns (tribes: at most {most})",
                                      point=_pt(pt), most=MAX_TRIBE), rule="tribe_full")
            me = self.current
            if any(p != me for p in stack):
                if not self.on("cooperation"):
                    raise IllegalAction(T("the tribe at {point} holds other players' pawns: without the "
                                          "cooperation level you may join only a tribe of your own pawns",
                                          point=_pt(pt)), rule="not_own_tribe")
                if self.chief(pt) != me and pt not in self.consents:
                    raise IllegalAction(T("cooperation: {chief} leads the tribe at {point} and has not consented "
                                          "(a 'consent' action first)", chief=self.players[self.chief(pt)],
                                          point=_pt(pt)), rule="no_consent")
            return None
        if isinstance(action, WaterRight):
            if not self.on("water_rights"):
                raise IllegalAction(T("water rights are not played (option water_rights)"), rule="level_off")
            self._claim_open(T("a water right"))
            assert pt is not None
            if pt in self.water:
                raise IllegalAction(T("the fresh-water node {point} already has a water right", point=_pt(pt)),
                                    rule="occupied_node")
            if pt not in self.formed_fresh:
                node = self.board.nodes.get(pt)
                what = T("not a node yet") if node is None else T("a land node") if node.kind == "land" else \
                    T("a coast node") if node.kind == "coast" else \
                    T("a water node not made fresh by this phase's piece")
                raise IllegalAction(T("{point} is {what}: water rights go on a fresh-water node (water inside a "
                                      "lake) that this phase's piece formed", point=_pt(pt), what=what),
                                    rule="not_fresh")
            return None
        if isinstance(action, Challenge):
            return self._check_challenge(action)
        if isinstance(action, PlaceMarker):
            return self._check_marker(action)
        raise IllegalAction(T("{action} is not an action of {game}", action=type(action).__name__, game=self.name),
                            rule="wrong_game")

    def _no_such_piece(self, piece: Any) -> Text:
        return T("there is no piece {piece} in this set ({set})", piece=repr(piece), set=self.set.name)

    def _not_formed(self, pt: Point) -> Text:
        node = self.board.nodes.get(pt)
        if node is None:
            what = T("not a node (pieces do not surround it yet)")
        elif node.kind == "water":
            what = T("a water node, not a land node")
        elif node.kind != "land":
            what = T("a coast node, not a land node")
        else:
            what = T("a land node formed earlier, not by this phase's piece")
        return T("{point} is {what}: a pawn goes on a land node this phase's piece completed", point=_pt(pt),
                 what=what)

    def _check_consent(self, action: Consent) -> None:
        if not self.on("cooperation"):
            raise IllegalAction(T("cooperation is not played (option cooperation)"), rule="level_off")
        if self.in_turn == 0:
            raise IllegalAction(T("no piece has been placed yet: consent comes in a phase"), rule="no_phase")
        pt = (action.q, action.r)
        self._tribe_at(pt, T("consent is given by a tribe's chief"))
        if self.board.island_root(pt) not in self._joinable():
            raise IllegalAction(T("the tribe at {point} is not on the island of a node formed this phase: there is "
                                  "nothing to consent to", point=_pt(pt)), rule="wrong_island")
        chief = self.chief(pt)
        if chief == self.current:
            raise IllegalAction(T("{player} leads the tribe at {point}: no consent needed",
                                  player=self.current_player, point=_pt(pt)), rule="own_tribe")
        self._who(action, chief, consent=True)
        if pt in self.consents:
            raise IllegalAction(T("the chief of the tribe at {point} has already consented this phase",
                                  point=_pt(pt)), rule="already_consented")

    def _check_challenge(self, action: Challenge) -> None:
        if not self.on("challenges"):
            raise IllegalAction(T("challenges are not played (option challenges)"), rule="level_off")
        self._claim_open(T("a challenge"))
        if not self.formed_land:
            raise IllegalAction(T("a challenge replaces the pawn after forming a land node; this phase formed none"),
                                rule="not_formed")
        att, dfd = tuple(action.attacker), tuple(action.defender)
        a = self._tribe_at(att, T("the attacking tribe"))  # type: ignore[arg-type]
        d = self._tribe_at(dfd, T("the defending tribe"))  # type: ignore[arg-type]
        if self.chief(att) != self.current:  # type: ignore[arg-type]
            raise IllegalAction(T("{player} does not lead the tribe at {point} (its chief is {chief})",
                                  player=self.current_player, point=_pt(att),  # type: ignore[arg-type]
                                  chief=self.players[self.chief(att)]), rule="not_chief")  # type: ignore[arg-type]
        if self.chief(dfd) == self.current:  # type: ignore[arg-type]
            raise IllegalAction(T("{player} leads the tribe at {point} too: the defender must be led by another "
                                  "player", player=self.current_player, point=_pt(dfd)),  # type: ignore[arg-type]
                                rule="own_tribe")
        if self.board.island_root(att) != self.board.island_root(dfd):  # type: ignore[arg-type]
            raise IllegalAction(T("the tribes at {attacker} and {defender} are on different islands: the defender "
                                  "must stand on the attacker's island", attacker=_pt(att),  # type: ignore[arg-type]
                                  defender=_pt(dfd)), rule="wrong_island")  # type: ignore[arg-type]
        del a, d

    def _check_roll(self, action: Roll) -> None:
        if self.pending is None:
            raise IllegalAction(T("no challenge waits for dice"), rule="no_challenge")
        need_c, need_d = self.pending.dice
        for challenger, faces, need in ((True, action.challenger, need_c), (False, action.defender, need_d)):
            if len(faces) != need:
                raise IllegalAction(
                    Tn("the challenger rolls {n} die, got {faces} face(s)",
                       "the challenger rolls {n} dice, got {faces} face(s)", need, faces=len(faces)) if challenger
                    else Tn("the defender rolls {n} die, got {faces} face(s)",
                            "the defender rolls {n} dice, got {faces} face(s)", need, faces=len(faces)),
                    rule="dice_count")
            if any(not 1 <= f <= 6 for f in faces):
                raise IllegalAction(T("a die shows 1 to 6, the challenger's faces are {faces}", faces=list(faces))
                                    if challenger else
                                    T("a die shows 1 to 6, the defender's faces are {faces}", faces=list(faces)),
                                    rule="bad_die")

    def _check_marker(self, action: PlaceMarker) -> None:
        if not self.on("resources"):
            raise IllegalAction(T("resources are not played (option resources)"), rule="level_off")
        marker = self.set.marker_by_id.get(action.marker)
        if marker is None:
            raise IllegalAction(T("no resource marker {marker} (markers: {markers})", marker=repr(action.marker),
                                  markers=", ".join(m.id for m in self.set.markers)), rule="unknown_marker")
        if self.claim not in ("pawn", "water right") or self.claim_at is None:
            raise IllegalAction(T("a resource marker follows a pawn or a water right added this phase"),
                                rule="no_pawn_added")
        if self.marker_done:
            raise IllegalAction(T("one resource marker per added pawn: this phase already placed one"),
                                rule="one_marker")
        if action.marker in self.markers:
            raise IllegalAction(T("the {marker} marker is already on an island", marker=marker_word(action.marker)),
                                rule="marker_used")
        root = self.island_at(self.claim_at)
        total = self.island_marker_total(root)
        pawns = sum(self.island_pawns(root).values())
        if total + marker.number > pawns:
            raise IllegalAction(T("the island's markers would total {total} + {number} = {sum}, more than its "
                                  "{pawns} (resources: the total must stay at most the pawns there, water rights "
                                  "included)", total=total, number=marker.number, sum=total + marker.number,
                                  pawns=_pawns(pawns)), rule="marker_total")

    # ------------------------------------------------------------------ application

    def _apply(self, action: Action) -> None:
        if isinstance(action, PlacePiece):
            if self.in_turn == 2:
                self.current = (self.current + 1) % len(self.players)
                self.in_turn = 0
            if self.in_turn == 0:
                self.turn += 1
            self.in_turn += 1
            self.formed_land, self.formed_fresh = [], []
            self.claim, self.claim_at, self.marker_done = None, None, False
            self.consents = set()
            self.last_challenge = None
            piece = self.set.by_id[action.piece]
            del self.pool[action.piece]
            formed = self.board.place(piece, action.q, action.r, action.turn)
            self.formed_land = [n.point for n in formed if n.kind == "land"]
            if self.on("water_rights"):
                self._find_fresh()
        elif isinstance(action, PlacePawn):
            pt = (action.q, action.r)
            self.tribes.setdefault(pt, []).append(self.current)
            self.supply[self.current] -= 1
            self.claim, self.claim_at = "pawn", pt
        elif isinstance(action, WaterRight):
            pt = (action.q, action.r)
            self.water[pt] = self.current
            self.supply[self.current] -= 1
            self.claim, self.claim_at = "water right", pt
        elif isinstance(action, Consent):
            self.consents.add((action.q, action.r))
        elif isinstance(action, Challenge):
            att, dfd = tuple(action.attacker), tuple(action.defender)
            dice = dice_for(len(self.tribes[att]), len(self.tribes[dfd]))  # type: ignore[index]
            self.pending = Pending(att, dfd, self.current, self.chief(dfd), dice)  # type: ignore[arg-type]
            self.claim, self.claim_at = "challenge", None
        elif isinstance(action, Roll):
            self._resolve(action)
        elif isinstance(action, PlaceMarker):
            self.markers[action.marker] = self.claim_at  # type: ignore[assignment]
            self.marker_done = True

    def _find_fresh(self) -> None:
        """Water nodes that are now inside a lake for the first time: this phase's piece made them fresh
        (it completed them inside a lake, or closed the ring round them)."""
        board = self.board
        waiting = [pt for pt, n in board.nodes.items() if n.kind == "water" and pt not in self.fresh_seen]
        if not waiting:
            return
        last = board.placed[-1]
        formed_water = any(board.nodes.get(c) is not None and board.nodes[c].order == last.order and
                           board.nodes[c].kind == "water" for c in last.corners)
        if not board.loop_closed and not formed_water:
            # water is cut off only by closing a ring of land; without one, only a water node this
            # piece completed can be new inside a lake
            return
        lakes = board.enclosed_near(last.order)
        for pt in waiting:
            if board.find(board.nodes[pt].region) in lakes:
                self.fresh_seen.add(pt)
                self.formed_fresh.append(pt)

    def _resolve(self, roll: Roll) -> None:
        pend = self.pending
        assert pend is not None
        won = max(roll.challenger) >= max(roll.defender)
        winner, loser = (pend.challenger, pend.defender_chief) if won else (pend.defender_chief, pend.challenger)
        at = pend.defender if won else pend.attacker
        stack = self.tribes[at]
        top = max(i for i, p in enumerate(stack) if p == loser)
        stack.pop(top)
        self.supply[loser] += 1
        added = False
        if self.supply[winner] > 0:
            stack.append(winner)
            self.supply[winner] -= 1
            added = True
        if not stack:
            del self.tribes[at]
        self.last_challenge = {
            "attacker": list(pend.attacker), "defender": list(pend.defender),
            "challenger": self.players[pend.challenger], "defender_chief": self.players[pend.defender_chief],
            "dice": list(pend.dice), "odds": round(pend.odds() * 100, 1),
            "faces": {"challenger": list(roll.challenger), "defender": list(roll.defender)},
            "winner": self.players[winner], "tribe": list(at), "replaced": added,
        }
        self.pending = None

    # ------------------------------------------------------------------ legal actions

    def legal_placements(self, piece_id: str) -> list[tuple[int, int, int]]:
        """Every (q, r, turn) where ``piece_id`` may go now (none when it is not in the pool)."""
        if piece_id not in self.pool or self.pending is not None:
            return []
        return self.board.legal_placements(self.set.by_id[piece_id])

    def legal_actions(self, piece: str | None = None) -> Iterable[Action]:
        """The claims open now; with ``piece``, that piece's legal placements instead (the page's
        "legal moves" list asks ``?type=place_piece&piece=s012``)."""
        if self.finished:
            return []
        if piece is not None:
            if self.game_over:
                return []
            placer = self.players[(self.current + 1) % len(self.players)] if self.in_turn == 2 else \
                self.current_player
            return [PlacePiece(piece, q, r, t, placer) for q, r, t in self.legal_placements(piece)]
        if self.pending is not None:
            c, d = self.pending.dice
            return [Roll(a, b) for a in itertools.combinations_with_replacement(range(1, 7), c)
                    for b in itertools.combinations_with_replacement(range(1, 7), d)]
        if self.in_turn == 0:
            return []
        me = self.current_player
        out: list[Action] = []
        candidates: list[Action] = []
        if self.claim is None and self.supply[self.current] > 0:
            for pt in self.formed_land:
                candidates.append(PlacePawn(*pt, me))
            if self.on("tribes") and self.formed_land:
                joinable = self._joinable()
                for pt in sorted(self.tribes):
                    if self.board.island_root(pt) in joinable:
                        candidates.append(PlacePawn(*pt, me))
                        chief = self.chief(pt)
                        if self.on("cooperation") and chief != self.current:
                            candidates.append(Consent(*pt, self.players[chief]))
            for pt in self.formed_fresh:
                candidates.append(WaterRight(*pt, me))
            if self.on("challenges") and self.formed_land:
                chiefs = {pt: self.chief(pt) for pt in self.tribes}
                mine = [pt for pt in sorted(self.tribes) if chiefs[pt] == self.current]
                for a in mine:
                    root = self.board.island_root(a)
                    for d in sorted(self.tribes):
                        if chiefs[d] != self.current and self.board.island_root(d) == root:
                            candidates.append(Challenge(a, d, me))
        if self.on("resources") and self.claim in ("pawn", "water right") and not self.marker_done:
            candidates.extend(PlaceMarker(m.id, me) for m in self.set.markers if m.id not in self.markers)
        for a in candidates:
            if self.validate(a) is None and a not in out:
                out.append(a)
        return out

    def field_hints(self) -> dict[str, list[str]]:
        """Values for the page's entry form and its "Piece" box: the pieces still in the pool."""
        return {"piece": sorted(self.pool)}

    # ------------------------------------------------------------------ where can it go? (hints)

    def hints(self, piece: str | None = None) -> dict[str, Any]:
        """Where piece ``piece`` fits now: every lattice point (its acute corner c0) with the turns
        accepted there and the piece drawn each way; from :meth:`legal_actions` (``piece=``), each
        put to :meth:`validate`. No piece: no places (the page asks for the chosen piece)."""
        if piece is None:
            return no_hints("sunda", T("choose the piece to lay to see where it fits"))
        shape = self.set.by_id.get(piece)
        if shape is None:
            raise IllegalAction(self._no_such_piece(piece), rule="unknown_piece")
        by_point: dict[tuple[int, int], list[PlacePiece]] = {}
        for a in confirmed(self, self.legal_actions(piece)):
            assert isinstance(a, PlacePiece)
            by_point.setdefault((a.q, a.r), []).append(a)
        places = [{"q": q, "r": r, "turns": [a.turn for a in acts],
                   "looks": {str(a.turn): piece_drawing(shape, q, r, a.turn) for a in acts},
                   "actions": [a.to_dict() for a in acts]}
                  for (q, r), acts in sorted(by_point.items(), key=lambda kv: (kv[0][1], kv[0][0]))]
        note = None
        if not places:
            note = self.validate(PlacePiece(piece, 0, 0, 0, None)) or T("piece {piece} fits nowhere now", piece=piece)
        return {"kind": "sunda", "piece": piece, "places": places, "note": note}

    # ------------------------------------------------------------------ scoring

    def finish(self) -> list[ScoreEvent]:
        if self.finished:
            return []
        before = len(self.score_log)
        an = self.board.analyse()
        lines = self.final_lines
        by_island: dict[int, list[str]] = {}
        for pt in sorted(self.tribes, key=lambda p: (p[1], p[0])):
            stack = self.tribes[pt]
            isl = an.islands[self.board.island_root(pt)]
            size = len(stack)
            counts: dict[int, int] = {}
            for p in stack:
                counts[p] = counts.get(p, 0) + 1
            for p in sorted(counts, key=lambda p: stack.index(p)):
                c = counts[p]
                pawns, at, island = _pawns(c), _pt(pt), isl.name()
                if isl.in_lake and not isl.complete:
                    reason = T("{pawns} at {point} on {island}: a small incomplete island inside a lake is not "
                               "land, 0", pawns=pawns, point=at, island=island)
                    pts = 0
                elif self.on("tribes"):
                    each = size * (2 if isl.complete else 1)
                    pts = c * each
                    reason = T("{pawns} in the tribe of {size} at {point} on {island}: {size}, doubled = {each} each "
                               "= {points}", pawns=pawns, size=size, point=at, island=island, each=each, points=pts) \
                        if isl.complete else \
                        T("{pawns} in the tribe of {size} at {point} on {island}: {size} each = {points}",
                          pawns=pawns, size=size, point=at, island=island, points=pts)
                else:
                    each = 2 if isl.complete else 1
                    pts = c * each
                    reason = T("{pawns} at {point} on {island}: {each} each = {points}", pawns=pawns, point=at,
                               island=island, each=each, points=pts) if c > 1 else \
                        T("pawn at {point} on {island}: {points}", point=at, island=island, points=pts)
                self.award(self.players[p], pts, reason, "final")
                by_island.setdefault(isl.root, []).append(f"{self.players[p]} {pts}")
        for pt in sorted(self.water, key=lambda p: (p[1], p[0])):
            p = self.water[pt]
            root = self.island_at(pt)
            isl = an.islands.get(root)
            complete = isl is not None and isl.complete
            pts = 10 if complete else 5
            where = isl.name() if isl is not None else T("an island")
            self.award(self.players[p], pts,
                       T("water right at {point} in a lake of {island}: 10 (complete island)", point=_pt(pt),
                         island=where) if complete else
                       T("water right at {point} in a lake of {island}: 5", point=_pt(pt), island=where), "final")
        if self.on("resources"):
            roots: dict[int, list[str]] = {}
            for m, pt in self.markers.items():
                roots.setdefault(self.island_at(pt), []).append(m)
            for root, ms in sorted(roots.items()):
                isl = an.islands.get(root)
                complete = isl is not None and isl.complete
                total = sum(self.set.marker_by_id[m].number for m in ms)
                pawns = self.island_pawns(root)
                if not pawns:
                    continue
                most = max(pawns.values())
                leaders = [p for p in range(len(self.players)) if pawns.get(p) == most]
                mult = 4 if complete else 2
                names: Any = None
                for m in sorted(ms):
                    named = T("{marker} {number}", marker=marker_word(m), number=self.set.marker_by_id[m].number)
                    names = named if names is None else T("{first} + {next}", first=names, next=named)
                where = isl.name() if isl is not None else T("an island")
                for p in leaders:
                    said = dict(markers=names, total=total, island=where, most=most, mult=mult, points=total * mult)
                    self.award(self.players[p], total * mult,
                               T("resource markers {markers} = {total} on {island}, most pawns there ({most}, tied): "
                                 "{total} x {mult} = {points}", **said) if len(leaders) > 1 else
                               T("resource markers {markers} = {total} on {island}, most pawns there ({most}): "
                                 "{total} x {mult} = {points}", **said), "final")
        self.finished = True
        self.pending = None
        scores = self.scores()
        islands = [i for i in an.islands.values()]
        done = sum(1 for i in islands if i.complete)
        lines.append(T("{pieces} placed, {islands} ({done} complete)",
                       pieces=Tn("{n} piece", "{n} pieces", len(self.board.placed)),
                       islands=Tn("{n} island", "{n} islands", len(islands)), done=done))
        lines.append(T("Totals: {totals} ({verdict})", totals=", ".join(f"{p} {scores[p]}" for p in self.players),
                       verdict=verdict(winners_of(scores))))
        return self.score_log[before:]

    @classmethod
    def score_position(cls, data: Mapping[str, Any], source: str = "<position>") -> PositionResult:
        """Score a layout read off the table (no action log): see :mod:`.position`."""
        from .position import score_position

        return score_position(data, source)

    # ------------------------------------------------------------------ views

    def waiting_for(self) -> Text:
        if self.finished:
            return T("the game is over")
        if self.pending is not None:
            c, d = self.pending.dice
            return T("the dice for {player}'s challenge: challenger {challenger_dice}, defender {defender_dice} "
                     "({odds} for the challenger)", player=self.players[self.pending.challenger],
                     challenger_dice=_dice(c), defender_dice=_dice(d), odds=percent(challenger_wins(c, d)))
        over = self.game_over
        if over:
            return T("the game has ended ({why}): finish it to score", why=over)
        if self.in_turn in (1, 2) and self.claim is None and (self.formed_land or self.formed_fresh):
            if self.in_turn == 1:
                return T("{player} to claim a node formed ({formed}) or lay the second piece",
                         player=self.current_player, formed=self._formed_words())
            return T("{player} to claim a node formed ({formed}) or lay the next player's piece",
                     player=self.current_player, formed=self._formed_words())
        who = self.to_play
        if self.in_turn == 1:
            return T("{player} to lay their second piece of the turn", player=who)
        return T("{player} to lay their first piece of the turn", player=who)

    def _formed_words(self) -> Any:
        parts = [T("land {point}", point=_pt(p)) for p in self.formed_land] + \
            [T("fresh water {point}", point=_pt(p)) for p in self.formed_fresh]
        return comma(parts)

    def resources(self) -> dict[str, Any]:
        players = {}
        for i, name in enumerate(self.players):
            placed = sum(s.count(i) for s in self.tribes.values())
            players[name] = {
                "pawns_left": self.supply[i],
                "pawns_placed": placed,
                "water_rights": sum(1 for p in self.water.values() if p == i),
                "tribes_led": sum(1 for pt in self.tribes if self.chief(pt) == i),
            }
        table = {
            "pieces_left": len(self.pool),
            "pieces_placed": len(self.board.placed),
            "land_nodes": sum(1 for n in self.board.nodes.values() if n.kind == "land"),
            "markers_left": len(self.set.markers) - len(self.markers),
            "phase": self.in_turn,
            "waiting_for": self.waiting_for(),
            "levels": [lvl for lvl in LEVELS if self.on(lvl)],
            "pieces": self.set.name,
            "challenge": self._challenge_words(),
            "last_challenge": self._last_challenge_words(),
        }
        return {"players": players, "table": table}

    def _challenge_words(self) -> Text | None:
        ch = self._challenge_view()
        if ch is None:
            return None
        (aq, ar), (dq, dr) = ch["attacker"], ch["defender"]
        return T("{challenger}'s tribe at {attacker} against {defender}'s at {defended}: {odds} ({challenger_dice} v "
                 "{defender_dice})", challenger=ch["challenger"], attacker=_pt((aq, ar)),
                 defender=ch["defender_chief"], defended=_pt((dq, dr)), odds=ch["odds_text"],
                 challenger_dice=_dice(ch["challenger_dice"]), defender_dice=_dice(ch["defender_dice"]))

    def _last_challenge_words(self) -> Text | None:
        lc = self.last_challenge
        if lc is None:
            return None
        faces = lc["faces"]
        said = dict(winner=lc["winner"], challenger=lc["challenger"], challenger_faces=faces["challenger"],
                    defender_faces=faces["defender"], point=f"{lc['tribe'][0]},{lc['tribe'][1]}")
        if lc["replaced"]:
            return T("{winner} won {challenger}'s challenge, dice {challenger_faces} v {defender_faces}; the tribe at "
                     "{point} changed", **said)
        return T("{winner} won {challenger}'s challenge, dice {challenger_faces} v {defender_faces}; the tribe at "
                 "{point} changed ({winner} had no pawn to add)", **said)

    def _challenge_view(self) -> dict[str, Any] | None:
        pend = self.pending
        if pend is None:
            return None
        c, d = pend.dice
        return {"attacker": list(pend.attacker), "defender": list(pend.defender),
                "challenger": self.players[pend.challenger], "defender_chief": self.players[pend.defender_chief],
                "challenger_dice": c, "defender_dice": d,
                "odds": round(float(challenger_wins(c, d)) * 100, 1),
                "odds_text": T("{odds} for the challenger", odds=percent(challenger_wins(c, d)))}

    def view(self) -> dict[str, Any]:
        """``{"kind": "sunda", ...}``: pieces with their land drawn in page units (unit side, y down),
        nodes with tribes and water rights, islands complete or open, the pending challenge's odds."""
        an: Analysis = self.board.analyse() if self.board.placed else None  # type: ignore[assignment]
        pieces = []
        for p in self.board.placed:
            states = []
            for reg, t in enumerate(p.piece.regions):
                if t != "L":
                    continue
                isl = an.islands.get(self.board.find(p.base + reg))
                states.append("islet" if isl and isl.in_lake and not isl.complete else
                              "complete" if isl and isl.complete else "open")
            pieces.append({
                "id": p.piece.id, "q": p.q, "r": p.r, "turn": p.turn,
                **piece_drawing(p.piece, p.q, p.r, p.turn),
                "island": None if not states else "complete" if all(s == "complete" for s in states) else
                          "islet" if "islet" in states else "open",
                "last": p.order == len(self.board.placed) - 1,
            })
        nodes = []
        for pt, node in sorted(self.board.nodes.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            fresh = pt in self.fresh_seen
            if node.kind == "coast" or (node.kind == "water" and not fresh and pt not in self.water):
                continue
            x, y = xy(pt)
            nodes.append({
                "q": pt[0], "r": pt[1], "x": round(x, 3), "y": round(y, 3),
                "kind": "fresh" if fresh else node.kind,
                "tribe": [self.players[p] for p in self.tribes.get(pt, [])],
                "chief": self.players[self.chief(pt)] if self.tribes.get(pt) else None,
                "water_right": self.players[self.water[pt]] if pt in self.water else None,
                "markers": [{"id": m, "number": self.set.marker_by_id[m].number}
                            for m, at in self.markers.items() if at == pt],
                "formed_now": pt in self.formed_land or pt in self.formed_fresh,
            })
        islands = []
        if an is not None:
            for isl in sorted(an.islands.values(), key=lambda i: (i.label[1], i.label[0])):
                islands.append({"label": list(isl.label), "complete": isl.complete, "in_lake": isl.in_lake,
                                "pieces": len(isl.pieces), "name": isl.name()})
        return {
            "kind": "sunda",
            "unit": "lattice side 1, y downwards; x = q + r/2, y = r * sqrt(3)/2",
            "h": H,
            "pieces": pieces,
            "nodes": nodes,
            "islands": islands,
            "challenge": self._challenge_view(),
            "last_challenge": self.last_challenge,
            "current": None if self.finished else self.to_play,
            "waiting_for": self.waiting_for(),
            "pool": sorted(self.pool),
            "provisional": self.provisional,
            "final": list(self.final_lines),
        }

    def describe(self, action: Mapping[str, Any]) -> Text | None:
        """Sunda's actions in table words: each as a whole sentence, with the player named or not."""
        kind = action.get("type")
        who = action.get("player") if isinstance(action.get("player"), str) else None
        q, r = action.get("q"), action.get("r")
        at = f"{q},{r}"

        def said(named: str, bare: str, **params: Any) -> Text:
            return T(named, player=who, **params) if who is not None else T(bare, **params)

        if kind == "place_piece":
            turn = action.get("turn", 0)
            deg = 60 * turn if isinstance(turn, int) else turn
            return said(N_("{player} lays piece {piece} at {point}, turned {degrees}°"),
                        N_("lays piece {piece} at {point}, turned {degrees}°"),
                        piece=action.get("piece"), point=at, degrees=deg)
        if kind == "place_pawn":
            return said(N_("{player} puts a spirit pawn on the node {point}"),
                        N_("puts a spirit pawn on the node {point}"), point=at)
        if kind == "water_right":
            return said(N_("{player} takes the water right on the fresh-water node {point}"),
                        N_("takes the water right on the fresh-water node {point}"), point=at)
        if kind == "consent":
            return said(N_("{player} (chief of the tribe at {point}) consents to the join"),
                        N_("(chief of the tribe at {point}) consents to the join"), point=at)
        if kind == "challenge":
            a, d = action.get("attacker"), action.get("defender")
            if isinstance(a, (list, tuple)) and isinstance(d, (list, tuple)) and len(a) == 2 and len(d) == 2:
                return said(N_("{player} challenges: the tribe at {attacker} against the tribe at {defender}"),
                            N_("challenges: the tribe at {attacker} against the tribe at {defender}"),
                            attacker=f"{a[0]},{a[1]}", defender=f"{d[0]},{d[1]}")
            return None
        if kind == "roll":
            c, d = action.get("challenger"), action.get("defender")
            return T("dice: challenger {challenger}, defender {defender}", challenger=c, defender=d)
        if kind == "place_marker":
            return said(N_("{player} adds the {marker} resource marker to the island"),
                        N_("adds the {marker} resource marker to the island"), marker=marker_word(action.get("marker")))
        return None
