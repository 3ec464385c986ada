"""How what the camera saw on the Karibik board becomes Karibik actions (the engine's side of
``tablehub.tracking.boardmoves``: tracking stays game-agnostic).

The camera sees where each ship stands, not the way it went. A ship that moved from A to B
becomes a ``sail`` along a shortest way through free spaces (the rules' ``sail`` checks the
allowance and the occupied spaces and refuses with the reason: ``too_far``, ``occupied``).
When several shortest ways exist and they pass different ports or hideouts (where the mover
may act on the way), each is offered as a choice so the phone can ask; ways that differ only
on open sea are the same move for the rules, and the first is taken.

**Chests** (:meth:`KaribikBoardMoves.extra_candidates`, with a chest reader enrolled: ``vision.chests``).
The camera sees the chests lying on each space (face up with their printed value, or face down) and
the chest aboard each ship (its value, or an empty hold); the game says where each should be
(:func:`chest_view`). When they differ, the moving ship's chest actions at the space where it ends
up (``attack``, ``steal``, ``swap``, ``transfer``, ``safeguard``: one or two of them, after its sail
if it moved) are played on copies of the game *without the rules' checks*, and every sequence
whose table matches what the camera sees is a reading; the tracker then checks each with the rules,
so a chest moved against them (a second chest taken aboard, a chest stolen from a ship too far
away) is flagged with the rules' own reason. Several sequences that fit (the order of a ship's
chest actions, two chests of one value) are the phone's choices, each explained by the engine's own
note of it ("Arriba raided Tortuga"). A chest whose value or place the camera is not sure of
matches any value there; a reading that rests on nothing sure waits.

What NEXT logs (the live tracker, docs/boardcam.md): a sail after which the ship can do nothing
more where it stands (no chest to raid, steal, swap, hand over or safeguard) ends the move with
it (``end_move``): a further sail is the same as one longer sail. Where a chest action is
possible, the sail alone is logged, the phone enters the chest actions, and NEXT with the ship
at rest ends the move (:meth:`KaribikBoardMoves.at_rest`).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Mapping

from ...i18n import T, Text
from ...tracking.holds import DISAGREES, MAYBE, check_holds, contradicted, presence_fits, values_fit
from .board import CHEST_MAX, CHEST_MIN, Board

#: the most shortest ways offered as choices
MAX_CHOICES = 6
#: the most chest actions read from one change (the ship's actions at the space where it ends up)
MAX_CHEST_ACTIONS = 2
CHEST_ACTIONS = ("attack", "steal", "swap", "transfer", "safeguard")


def shortest_ways(board: Board, start: int, goal: int, blocked: set[int], limit: int = 50) -> list[list[int]]:
    """Every shortest way (spaces entered, in order) from ``start`` to ``goal`` avoiding
    ``blocked`` (up to ``limit`` of them)."""
    blocked = set(blocked) - {start, goal}
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for n in board.neighbours[s]:
            if n not in dist and n not in blocked:
                dist[n] = dist[s] + 1
                queue.append(n)
    if goal not in dist:
        return []
    ways: list[list[int]] = []

    def back(s: int, tail: list[int]) -> None:
        if len(ways) >= limit:
            return
        if s == start:
            ways.append(tail[::-1])
            return
        for n in sorted(board.neighbours[s]):
            if dist.get(n) == dist[s] - 1:
                back(n, tail + [s])

    back(goal, [])
    return ways


class KaribikBoardMoves:
    """The engine's adapter: ``candidates(game, moved)`` -> lists of actions, each list one
    reading of what happened, or a reason when none can be; ``pieces(game)`` where each piece
    stands; ``at_rest(game)`` what NEXT logs when nothing moved; ``table_actions`` the action
    types NEXT logs; ``board(game)`` / ``load(spec)`` the printed board (size, space polygons)."""

    #: the action types the camera's readings log (with NEXT or a phone choice); the rest is the phone's (the bids,
    #: the cards, the table's draws). The chest actions are read with the chests' values enrolled; without them the
    #: phone enters them (the recognizer then sees no chests: ``extra_candidates`` is not asked)
    table_actions = frozenset({"sail", "end_move", *CHEST_ACTIONS})
    #: the actions that move pieces (the camera sees where they end up, not the way)
    moves = frozenset({"sail"})
    #: a space holds one ship at most: two seen on one space means one of them is misread
    one_per_space = True

    def pieces(self, game: Any) -> dict[str, int]:
        """Where each ship stands in ``game`` (none before ``place_ships``)."""
        return dict(game.ship_at)

    def movable(self, game: Any) -> set[str]:
        """The pieces the rules let move now: the ship being moved, in a move."""
        return {game.ship} if getattr(game, "phase", None) == "move" else set()

    def at_rest(self, game: Any) -> list[dict[str, Any]]:
        """What NEXT logs when the table shows no move: the end of the move, in a move."""
        return [{"type": "end_move"}] if getattr(game, "phase", None) == "move" else []

    # ---- enrolment from the phone (tablehub/board_enrolment.py)

    #: the chests' printed values, one face-up chest of each enrolled (``enrol-chests``)
    chest_values = tuple(range(CHEST_MIN, CHEST_MAX + 1, 1000))

    @staticmethod
    def enrol_rounds() -> list[list[tuple[str, str, Any, Any]]]:
        """The pieces laid for the camera's enrolment, photo by photo: (template name, kind, what it carries,
        the words for the page). First each ship, a chest face up and one face down; then each ship carrying
        a chest (a chest on the deck must not spoil the ship's match: a second template per ship)."""
        from .engine import SHIPS

        return [[(s, "ship", None, s) for s in SHIPS]
                + [("chest up", "chest", "up", T("a chest face up")), ("chest down", "chest", "down",
                                                                         T("a chest face down"))],
                [(s, "ship laden", "chest", T("{ship} carrying a chest", ship=s)) for s in SHIPS]]

    def board(self, game: Any) -> Board:
        return game.board

    def load(self, spec: str) -> Board:
        """The board a camera enrolment names (``provisional``, ``grid`` or a board file)."""
        from .board import load_board

        return load_board(spec)

    def candidates(self, game: Any, moved: Mapping[str, tuple[int, int]]) -> tuple[list[list[dict[str, Any]]],
                                                                                   Text | str]:
        if not moved:
            return [], ""
        board: Board = game.board
        if getattr(game, "phase", None) != "move":
            names = ", ".join(sorted(moved))
            return [], T("{ships} moved, but no ship is being moved now ({waiting})", ships=names,
                         waiting=game.waiting_for())
        ship = game.ship
        others = sorted(set(moved) - {ship})
        if others:
            return [], T("{ships} moved, but {ship} is the ship being moved", ships=", ".join(others), ship=ship)
        start, goal = moved[ship]
        occupied = set(game.occupant) - {start}
        ways = shortest_ways(board, start, goal, occupied)
        if not ways:
            return [], T("{ship} moved from {start} to {goal}: no way through free spaces", ship=ship,
                         start=board.space_name(start), goal=board.space_name(goal))
        distinct: dict[tuple[int, ...], list[int]] = {}
        for way in ways:
            stops = tuple(s for s in way[:-1] if board.port_town(s) is not None or s in board.hideouts)
            distinct.setdefault(stops, way)
        choices = [[{"type": "sail", "path": way}] for way in list(distinct.values())[:MAX_CHOICES]]
        if len(choices) == 1 and _nothing_left_to_do(game, choices[0][0]):
            choices[0].append({"type": "end_move"})
        return choices, ""

    def explain(self, game: Any, actions: list[dict[str, Any]]) -> Text:
        board: Board = game.board
        if not actions or actions[0].get("type") not in ("sail", *CHEST_ACTIONS):  # no move seen: it stays
            return T("{ship} stays on {space}: the move ends", ship=game.ship,
                     space=board.space_name(game.ship_at[game.ship]))
        said: Any = None
        trial = game.copy()
        for a in actions:
            if a.get("type") == "sail":
                one: Any = self._explain_sail(game, a["path"])
            elif a.get("type") == "end_move":
                continue
            else:  # the engine's own words for the chest action
                one = _note_of(trial, a)
            if a.get("type") == "sail":
                _apply_unchecked(trial, a)
            said = one if said is None else T("{first}, {next}", first=said, next=one)
        return said

    def _explain_sail(self, game: Any, path: list[int]) -> Text:
        board: Board = game.board
        via = [board.space_name(s) for s in path[:-1] if board.port_town(s) is not None or s in board.hideouts]
        goal = board.space_name(path[-1])
        if not via:
            return T("{ship} sails to {space}", ship=game.ship, space=goal)
        stops = via[0]
        for more in via[1:]:
            stops = T("{first}, {next}", first=stops, next=more)
        return T("{ship} sails to {space} via {stops}", ship=game.ship, space=goal, stops=stops)

    # ------------------------------------------------------------------ chests

    def holds(self, game: Any) -> dict[str, str | None]:
        """What each ship carries in ``game`` (the chest, named by its town, or ``None``): the history the
        tracker answers a hold's value from (``tablehub.tracking.holds``)."""
        return dict(game.hold)

    def perfect_extras(self, game: Any) -> dict[str, Any]:
        """What a perfect camera reads of the chests of ``game`` (the recorded-game scripts)."""
        view = chest_view(game)
        spaces = {space: [("up", v) for v in up] + [("down", None)] * down
                  for space, (up, down) in view["spaces"].items()}
        return {"chests": TableChests(spaces, dict(view["aboard"]))}

    def chests_drawn(self, game: Any) -> dict[str, Any]:
        """How the simulated table draws the chests of ``game``: ``lying`` (space -> ("up", value) or
        ("down", 0) each), ``aboard`` (ship -> the value it carries, 0 for none)."""
        view = chest_view(game)
        lying = {space: [("up", v) for v in up] + [("down", 0)] * down for space, (up, down) in view["spaces"].items()}
        return {"lying": lying, "aboard": dict(view["aboard"])}

    def extra_candidates(self, game: Any, moved: Mapping[str, tuple[int, int]], extras: Mapping[str, Any]
                         ) -> tuple[list[list[dict[str, Any]]], Text | str] | None:
        """The readings of what the camera saw of the chests (``extras["chests"]``: a
        ``vision.chests.ChestsSeen``) with the ships' move (``moved``), or ``None`` when the chests are as the
        game has them after the ships' move alone (the ships' reading then stands)."""
        seen = extras.get("chests")
        if seen is None:
            return None
        if moved:
            sails, why = self.candidates(game, moved)
            if not sails:
                return [], why
            bases = [[a for a in c if a.get("type") != "end_move"] for c in sails]
        else:
            bases = [[]]
        after = [_played(game, b) for b in bases]
        if all(t is not None and chests_fit(chest_view(t), seen) for t in after):
            return None  # the chests are where the game has them
        # the history is the answer, a hold's value read on the deck a check (tablehub.tracking.holds): when only
        # holds' values differ from the game's, it takes a chest action whose every changed hold is read agreeing
        history_fits = all(t is not None and chests_fit(chest_view(t), seen, values=False) for t in after)
        # fewer chests seen on a space than the game has, the holds as it has them: some hidden, the history stands
        # (a chest action that explains what the camera saw exactly is taken first, below)
        hidden = all(t is not None and chests_fit(chest_view(t), seen, values=False, hidden_ok=True) for t in after)
        if getattr(game, "phase", None) != "move":
            if history_fits or hidden:
                return None  # a hold's value misread, or a chest hidden: the game's stand
            return [], T("the chests moved, but no ship is being moved now ({waiting})", waiting=game.waiting_for())
        out: list[list[dict[str, Any]]] = []
        loose: list[list[dict[str, Any]]] = []
        for base, trial in zip(bases, after):
            if trial is None:
                continue
            for seq in _chest_sequences(trial):
                t2 = _played(trial, seq)
                if t2 is None:
                    continue
                if chests_fit(chest_view(t2), seen):
                    if not history_fits or _holds_read_agreeing(trial, t2, seen):
                        out.append(base + seq)
                elif not history_fits and chests_fit(chest_view(t2), seen, values=False):
                    loose.append(base + seq)
            if out or loose:  # the fewest chest actions that explain it
                break
        if not out and (history_fits or hidden):
            return None  # only holds' values differ, or chests are hidden, and no chest action shows: the game's stand
        out = out or loose  # the ports and the holds' chests explain it, the holds' values misread: history answers
        if not out:
            return [], T("the camera saw the chests change ({what}), but no chest action of {ship} explains it",
                         what=_differences(game, after[0] or game, seen), ship=game.ship)
        shortest = min(len(c) for c in out)
        return [c for c in out if len(c) == shortest][:MAX_CHOICES], ""

    def extra_notes(self, game: Any, actions: list[dict[str, Any]], extras: Mapping[str, Any]) -> list[Text]:
        """What the tracker says beside a reading that stands (``actions``, NEXT's, or none): each hold whose value
        the camera read **sure** and other than the game's after ``actions`` (``tablehub.tracking.holds.
        contradicted``). The game's chest stays aboard (its value followed it from the port where it lay face up;
        one frame does not overwrite it), but it is not dropped silently either: a misread print says nothing
        more, two laden ships' chests exchanged unseen are the player's to enter."""
        seen = extras.get("chests")
        if seen is None:
            return []
        after = _played(game, [a for a in actions if a.get("type") != "end_move"])
        if after is None:
            return []
        notes: list[Text] = []
        for c in contradicted(check_holds(chest_view(after)["aboard"], hold_reads(seen))):
            from .engine import money  # the engine imports this module

            notes.append(T("the camera reads {value} on {ship}'s deck, but {ship} carries {chest}: the game's "
                           "chest is kept (if the chests were exchanged, enter it on the phone)", value=money(c.read),
                           ship=c.carrier, chest=after.chest_words(after.hold[c.carrier])))
        return notes


def chest_view(game: Any) -> dict[str, Any]:
    """Where the game has the chests, as the camera sees them: ``spaces`` (space -> sorted face-up values and
    the face-down count) and ``aboard`` (ship -> value, 0 for an empty hold)."""
    board: Board = game.board
    spaces: dict[int, tuple[list[int], int]] = {}
    for town in board.towns:
        up = sorted(game.chest_value(c) for c in game.face_up.get(town.name, []))
        down = sum(1 for c in game.secured if c == town.name)
        if up or down:
            spaces[town.port] = (up, down)
    aboard = {ship: (0 if chest is None else game.chest_value(chest)) for ship, chest in game.hold.items()}
    return {"spaces": spaces, "aboard": aboard}


@dataclass
class TableChests:
    """The chests as the camera reads them (``vision.chests.ChestsSeen``'s fields): ``spaces`` (space -> ("up",
    value or ``None``) / ("down", ``None``) each), ``aboard`` (ship -> value, 0 empty, ``None`` laden value unsure),
    ``maybe`` (ships not even sure to be laden)."""

    spaces: dict[int, list[tuple[str, int | None]]] = field(default_factory=dict)
    aboard: dict[str, int | None] = field(default_factory=dict)
    unsure: list[str] = field(default_factory=list)
    maybe: set[str] = field(default_factory=set)
    between: list[tuple[tuple[int, ...], str, int | None]] = field(default_factory=list)


def hold_reads(seen: Any) -> dict[str, Any]:
    """The camera's readings of the holds, as ``tablehub.tracking.holds`` checks them."""
    maybe = getattr(seen, "maybe", None) or set()
    return {ship: (MAYBE if ship in maybe else value) for ship, value in seen.aboard.items()}


def chests_fit(view: Mapping[str, Any], seen: Any, values: bool = True, hidden_ok: bool = False) -> bool:
    """Does the camera's ``seen`` (``ChestsSeen``) show the chests of ``view``? A value it is not sure of fits
    any value; a ship it did not find says nothing; a hold read laden where the game has it empty (or the other
    way round) does not fit; ``values=False``: the holds' values are not asked (the history answers them);
    ``hidden_ok``: fewer chests seen on a space than lie there fit (the rest hidden: a chest touching a ship in
    port, face-down chests heaped on their town), and so does a hold read empty where the game has a chest (wholly
    under the sail); more chests, other values, a chest aboard where the game has none do not."""
    checks = check_holds(view["aboard"], hold_reads(seen))
    if hidden_ok:  # a hold read empty where the game has a chest: the chest may lie wholly under the sail
        checks = {c: k for c, k in checks.items() if not (k.presence == DISAGREES and k.read == 0)}
    if not presence_fits(checks) or (values and not values_fit(checks)):
        return False
    seen_spaces = placed_across(view, seen)
    for space in set(view["spaces"]) | set(seen_spaces):
        up, down = view["spaces"].get(space, ([], 0))
        lying = seen_spaces.get(space, [])
        seen_down = sum(1 for face, _ in lying if face == "down")
        faces_up = [v for face, v in lying if face == "up"]
        if hidden_ok:  # fewer chests seen than lie there: some hidden (beside a ship, among others)
            if seen_down > down or len(faces_up) > len(up):
                return False
        elif seen_down != down or len(faces_up) != len(up):
            return False
        left = list(up)
        for v in sorted(faces_up, key=lambda v: v is None):
            if v is None:
                continue
            if v not in left:
                return False
            left.remove(v)
    return True


def placed_across(view: Mapping[str, Any], seen: Any) -> dict[int, list[tuple[str, int | None]]]:
    """The chests seen on each space, with those lying across a line (``seen.between``: the spaces each may lie on)
    put on the space of theirs where ``view`` has more chests of that face (and value) than are seen there: the game
    knows how many lie where, the camera only that the chest lies on one of them. One that no such space wants stays
    on none (as before: a chest on a line is on no space)."""
    out = {space: list(lying) for space, lying in seen.spaces.items()}
    for spaces, face, value in getattr(seen, "between", None) or ():
        for space in spaces:
            up, down = view["spaces"].get(space, ([], 0))
            here = out.get(space, [])
            if face == "down":
                wanted = sum(1 for f, _ in here if f == "down") < down
            else:
                left = list(up)
                for f, v in here:
                    if f == "up" and v in left:
                        left.remove(v)
                n_up = sum(1 for f, _ in here if f == "up")
                wanted = n_up < len(up) and (value is None or value in left)
            if wanted:
                out.setdefault(space, []).append((face, value))
                break
    return out


def _holds_read_agreeing(before: Any, after: Any, seen: Any) -> bool:
    """Every hold whose chest differs between ``before`` and ``after`` is read, its value sure and ``after``'s."""
    reads = hold_reads(seen)
    for ship, chest in after.hold.items():
        if chest != before.hold.get(ship):
            value = 0 if chest is None else after.chest_value(chest)
            r = reads.get(ship)
            if r is None or r is MAYBE or r != value:
                return False
    return True


def _apply_unchecked(game: Any, action: dict[str, Any]) -> bool:
    """``action`` played on ``game`` as the table shows it, the rules not asked (``False``: it cannot be)."""
    try:
        game._apply(game.parse_action(action))
    except Exception:  # noqa: BLE001 - a chest action the table cannot show (no chest to take)
        return False
    return True


def _played(game: Any, actions: list[dict[str, Any]]) -> Any:
    trial = game.copy()
    for a in actions:
        if not _apply_unchecked(trial, a):
            return None
    return trial


def _note_of(game: Any, action: dict[str, Any]) -> Any:
    """The engine's own words for ``action`` played on ``game``: its note, or the reason of the score it gave."""
    before = len(game.score_log)
    if _apply_unchecked(game, action):
        if game.note:
            return game.note
        if len(game.score_log) > before:
            return game.score_log[-1].reason
    return action.get("type", "?")


def _chest_sequences(game: Any) -> list[list[dict[str, Any]]]:
    """Every sequence of one to MAX_CHEST_ACTIONS chest actions of the moving ship where it stands."""
    def singles(g: Any) -> list[dict[str, Any]]:
        ship = g.ship
        here = g.ship_at[ship]
        board: Board = g.board
        out: list[dict[str, Any]] = []
        town = board.port_town(here)
        lying = list(g.face_up.get(town.name, [])) if town is not None else []
        for chest in ([None] if len(lying) == 1 else lying):
            out.append({"type": "attack", **({"chest": chest} if chest else {})})
            out.append({"type": "swap", **({"chest": chest} if chest else {})})
        others = [s for s in g.ship_at if s != ship and g.ship_at[s] in board.neighbours[here]]
        for o in others:
            out.append({"type": "steal", "ship": o})
            out.append({"type": "swap", "ship": o})
            out.append({"type": "transfer", "ship": o, **({"safeguard": True} if g.ship_at[o] in board.hideouts
                                                          else {})})
        if here in board.hideouts:
            out.append({"type": "safeguard"})
        return out

    seqs: list[list[dict[str, Any]]] = []
    frontier: list[tuple[list[dict[str, Any]], Any]] = [([], game)]
    for _ in range(MAX_CHEST_ACTIONS):
        nxt = []
        for seq, g in frontier:
            for a in singles(g):
                t = _played(g, [a])
                if t is not None:
                    nxt.append((seq + [a], t))
                    seqs.append(seq + [a])
        frontier = nxt
    return seqs


def _differences(game: Any, trial: Any, seen: Any) -> Text | str:
    """What the camera sees of the chests that the game does not have (a short list)."""
    from .engine import money  # the engine imports this module

    view = chest_view(trial)
    said: Any = None

    def add(one: Any) -> None:
        nonlocal said
        said = one if said is None else T("{first}, {next}", first=said, next=one)

    maybe = getattr(seen, "maybe", None) or set()
    for ship, value in sorted(seen.aboard.items()):
        if value is not None and view["aboard"].get(ship, value) != value:
            add(T("{ship} carries {value}", ship=ship, value=money(value)) if value else
                T("{ship} carries nothing", ship=ship))
        elif value is None and ship not in maybe and view["aboard"].get(ship) == 0:
            add(T("{ship} carries a chest (its value not read)", ship=ship))
    for space in sorted(set(view["spaces"]) | set(seen.spaces)):
        up, down = view["spaces"].get(space, ([], 0))
        lying = seen.spaces.get(space, [])
        got_up = sorted(v or 0 for f, v in lying if f == "up")
        got_down = sum(1 for f, _ in lying if f == "down")
        if got_down != down or len(got_up) != len(up) or any(v and v not in up for v in got_up):
            add(T("{count} chest(s) on {space}", count=len(lying), space=game.board.space_name(space)))
    return said if said is not None else ""


def _nothing_left_to_do(game: Any, sail: dict[str, Any]) -> bool:
    """After ``sail``, can the ship only sail on or end its move (no chest action where it stands)?"""
    trial = game.copy()
    try:
        trial.apply(trial.parse_action(sail))
    except Exception:  # the rules refuse the sail: tracking reports their reason
        return False
    first = next(iter(trial.legal_actions()), None)  # chest actions come first, then end_move
    return first is not None and first.type == "end_move"
