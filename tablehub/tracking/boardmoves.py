"""From the pieces seen on a printed board to candidate game actions, for any board game.

The camera reports where each named piece stands (``seen``: piece -> space, or ``None`` when
unsure) and the committed game says where each stood (``before``). What moved is handed to the
engine's own adapter (the game's ``board_moves``: ``candidates(game, moved)`` returns lists of
actions, each one reading of the change, or a reason; ``explain(game, actions)`` a line for the
phone), and every candidate is checked on a copy of the engine. The result, as for the tiles
(:mod:`.interpret`): ``same``, ``waiting`` (a piece unsure: look again), ``pending`` (one legal
reading), ``unsure`` (several: the phone asks with ``choices``) or ``illegal`` (``reason`` from
the rules). Nothing moved: the adapter's ``at_rest(game)`` (what NEXT logs when the table shows
no move: Karibik's end of a move) is ``pending`` when the rules allow it, else ``same``.
Nothing here names a game's actions.

Pieces that look alike (Tahiti's boats of one colour) are read by their *look* per space: the
recognizer reports each piece it found (:class:`Sighting`: the look, the space), and for an
adapter with ``looks(game)`` (piece name -> look) :func:`name_sightings` names them against the
game: a look seen where a piece of that look stood is that piece; one gone from its space and one
of the same look come elsewhere is that piece moved; a piece seen where none of its look stood has
come onto the board and one gone has left it (:data:`OFF`, in ``before`` or ``seen``).

:func:`board_reading` is the live tracker's side: a :class:`BoardSeen` (what the board camera
read in a frame: piece -> space) against the committed game, as the tile games'
:class:`~tablehub.tracking.interpret.Reading`, so the LEDs, buzzer, page and NEXT treat both alike.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..games.base import Game, IllegalAction, TablehubError
from ..i18n import T, Text, capital
from .interpret import Choice, Reading


#: the "space" of a piece not on the board (come onto it, or taken off it)
OFF = -1


@dataclass(frozen=True)
class Sighting:
    """One piece the camera found: its ``look`` (template name; ``None`` when unsure which), its ``space``
    (``None`` when it stands where spaces meet), ``spaces`` where it may stand when unsure, ``looks`` the
    templates it may be when unsure which."""

    look: str | None
    space: int | None
    spaces: tuple[int, ...] = ()
    looks: tuple[str, ...] = ()


def _new_name(look: str, taken: Mapping[str, Any]) -> str:
    if look not in taken:
        return look
    k = 1
    while f"{look} (new {k})" in taken:
        k += 1
    return f"{look} (new {k})"


def name_sightings(before: Mapping[str, int], looks: Mapping[str, str], found: list[Sighting]
                   ) -> tuple[dict[str, int], dict[str, int | None], dict[str, tuple[int, ...]]]:
    """Pieces that look alike named against where the game has them (module docstring): returns
    ``before`` with the pieces come onto the board added (at :data:`OFF`), ``seen`` (piece -> space,
    :data:`OFF` for a piece gone, ``None`` when unsure) and ``guesses`` (where an unsure piece may stand)."""
    before2, seen, guesses = dict(before), {}, {}
    sure = [f for f in found if f.look is not None and f.space is not None]
    vague = [f for f in found if not (f.look is not None and f.space is not None)]
    for look in sorted({looks[p] for p in before} | {f.look for f in sure if f.look}):
        spaces = sorted(f.space for f in sure if f.look == look)  # type: ignore[misc]
        left = []
        for p in sorted(p for p in before if looks[p] == look):
            if before[p] in spaces:
                spaces.remove(before[p])
                seen[p] = before[p]
            else:
                left.append(p)
        for p in list(left):  # unsure where or which, but something like it stands on its space: not gone
            v = next((v for v in vague if (v.look == look or look in v.looks or not (v.look or v.looks))
                      and before[p] in v.spaces), None)
            if v is not None:
                vague.remove(v)
                left.remove(p)
                seen[p], guesses[p] = None, (before[p],)
        for p, space in zip(left, list(spaces)):  # gone from its space, one of its look come elsewhere: moved
            seen[p] = space
            spaces.remove(space)
        for p in left:  # gone, nothing of its look come elsewhere: taken off the board
            if p not in seen:
                seen[p] = OFF
        for space in spaces:  # come onto the board
            name = _new_name(look, before2)
            before2[name], seen[name] = OFF, space
    for v in vague:  # an unsure piece where none stood: come onto the board, where and which not sure
        name = _new_name(v.look or (v.looks[0] if v.looks else "a piece"), before2)
        before2[name], seen[name] = OFF, None
        if v.spaces:
            guesses[name] = tuple(v.spaces)
    return before2, seen, guesses


@dataclass
class BoardReading:
    status: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    choices: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    reason: str = ""
    notes: list[str] = field(default_factory=list)
    doubt: list[str] = field(default_factory=list)  # pieces placed from the camera's best guess only
    guesses: dict[str, tuple[int, ...]] = field(default_factory=dict)  # where the doubted pieces may stand


def _check(game: Game, actions: list[dict[str, Any]]) -> str | None:
    trial = game.copy()
    for i, data in enumerate(actions):
        try:
            trial.apply(trial.parse_action(data, where=f"action {i + 1}"))
        except (IllegalAction, TablehubError) as exc:
            return exc.text
    return None


def read_board(game: Game, before: Mapping[str, int], seen: Mapping[str, int | None],
               guesses: Mapping[str, tuple[int, ...]] | None = None, extras: Mapping[str, Any] | None = None
               ) -> BoardReading:
    """What the change from ``before`` to ``seen`` means in ``game`` (module docstring).

    A piece the camera is not sure of (``None`` in ``seen``) that the rules let nobody move now (the
    adapter's ``movable(game)``, when it has one) is taken as where it stood, with a note; one that may
    move is placed on the camera's best guess (``guesses``: the spaces it may stand on) when there is one,
    and a reading that rests on a guess is no more than ``unsure`` (the phone asks; where the piece
    stands between spaces, each space is a choice); else the reading waits (look again). In a
    game with one piece per space (the adapter's ``one_per_space``) a piece seen moved onto a space
    where another stands is misread: taken as where it stood, or (one that may move) looked at again,
    never flagged. ``extras``: what else the camera read that the adapter's ``extra_candidates`` reads
    (Karibik's chests); a reading that stands (pending, same) carries the adapter's ``extra_notes`` on it (what
    the extras read sure against the game: said, not taken)."""
    adapter = getattr(game, "board_moves", None)
    if adapter is None:
        raise TablehubError(f"{game.name}: the camera does not read this game's board (no board_moves adapter)")
    movable = getattr(adapter, "movable", None)
    may_move = set(before) if movable is None else set(movable(game))
    seen = dict(seen)
    notes: list[str] = []
    doubt: list[str] = []
    between: tuple[str, tuple[int, ...]] | None = None  # a piece that may move, seen where spaces meet
    for p in sorted(q for q in before if seen.get(q) is None):
        if p not in may_move:
            seen[p] = before[p]
            notes.append(T("not sure where {piece} stands: taken as still on space {space}", piece=p, space=before[p])
                         if before[p] != OFF else
                         T("not sure what stands {where}: taken as nothing new", where=_where(guesses, p)))
        elif guesses and len(guesses.get(p) or ()) == 1:
            seen[p] = guesses[p][0]
            doubt.append(p)
        elif guesses and guesses.get(p) and not doubt and not between:
            between = (p, tuple(guesses[p]))
    if getattr(adapter, "one_per_space", False):  # two pieces seen on one space: one of them is misread
        crowded = _crowded(before, seen)
        for p in crowded:
            if p not in may_move:
                notes.append(T("{piece} seen on space {seen}, where another piece stands: taken as still on space "
                               "{space}", piece=p, seen=seen[p], space=before[p]))
                seen[p] = before[p]
            else:
                seen[p] = None
                notes.append(T("{piece} seen on space {seen}, where another piece stands", piece=p, seen=crowded[p]))
    unsure = sorted(p for p in before if seen.get(p) is None and (between is None or p != between[0]))
    if unsure:
        return BoardReading("waiting", reason=T("not sure where {pieces} stand(s): looking again",
                                                pieces=", ".join(unsure)), notes=notes)
    if between is not None:  # each space it may stand on is a reading: the phone asks which
        p, spaces = between
        choices = []
        for space in spaces:
            r = _read(game, adapter, before, {**seen, p: space}, extras)
            if r.status == "pending":
                choices.append((adapter.explain(game, r.actions), r.actions))
            elif r.status == "unsure":
                choices.extend(r.choices)
        if not choices:
            return BoardReading("waiting", reason=T("not sure where {piece} stands: looking again", piece=p),
                                notes=notes)
        where: Any = str(spaces[0])
        for space in spaces[1:]:
            where = T("{first} and {last}", first=where, last=str(space))
        reason = T("{piece} stands where spaces {spaces} meet: which move?", piece=p, spaces=where)
        return BoardReading("unsure", choices=choices, reason=reason, notes=notes, doubt=[p])
    r = _read(game, adapter, before, seen, extras)
    r.notes, r.doubt, r.guesses = notes + r.notes, doubt, dict(guesses or {})
    if doubt and r.status == "illegal":  # no flag (red, beeps) on a guess
        return BoardReading("waiting", reason=T("not sure where {pieces} stand(s): looking again",
                                                pieces=", ".join(doubt)), notes=notes)
    return r


def _where(guesses: Mapping[str, tuple[int, ...]] | None, p: str) -> Text:
    spaces = (guesses or {}).get(p)
    if not spaces:
        return T("on the board")
    said: Any = str(spaces[0])
    for space in spaces[1:]:
        said = T("{first} or {next}", first=said, next=str(space))
    return T("on space {spaces}", spaces=said)


def _crowded(before: Mapping[str, int], seen: Mapping[str, int | None]) -> dict[str, int]:
    """The pieces seen moved onto a space another piece is also on (piece -> that space)."""
    on: dict[int, list[str]] = {}
    for p in before:
        if seen.get(p) is not None and seen[p] != OFF:
            on.setdefault(seen[p], []).append(p)  # type: ignore[index]
    return {p: space for space, ps in on.items() if len(ps) > 1 for p in ps if before[p] != space}


def _read(game: Game, adapter: Any, before: Mapping[str, int], seen: Mapping[str, int | None],
          extras: Mapping[str, Any] | None = None) -> BoardReading:
    r = _read_moves(game, adapter, before, seen, extras)
    said = getattr(adapter, "extra_notes", None)  # what the extras contradict in a reading that stands
    if extras and said is not None and r.status in ("pending", "same"):
        r.notes = r.notes + list(said(game, r.actions, extras))
    return r


def _read_moves(game: Game, adapter: Any, before: Mapping[str, int], seen: Mapping[str, int | None],
                extras: Mapping[str, Any] | None = None) -> BoardReading:
    moved = {p: (before[p], seen[p]) for p in before if seen[p] != before[p]}
    more = getattr(adapter, "extra_candidates", None)
    got = more(game, moved, extras) if extras and more is not None else None
    if got is not None:  # the adapter read the extras too (Karibik's chests moved)
        candidates, why = got
    elif not moved:
        rest = getattr(adapter, "at_rest", None)
        actions = rest(game) if rest is not None else []
        if actions and _check(game, actions) is None:
            return BoardReading("pending", actions=actions)
        return BoardReading("same")
    else:
        candidates, why = adapter.candidates(game, moved)
    if not candidates:
        return BoardReading("illegal", reason=why)
    legal, refusals = [], []
    for c in candidates:
        refusal = _check(game, c)
        (refusals.append(refusal) if refusal else legal.append(c))
    if not legal:
        return BoardReading("illegal", reason=refusals[0])
    if len(legal) == 1:
        return BoardReading("pending", actions=legal[0])
    return BoardReading("unsure", choices=[(adapter.explain(game, c), c) for c in legal],
                        reason=T("several ways fit what the camera saw: which one?"))


#: reasons that begin a question on the phone, as they read there (capitalised)
def _question(reason: Any, choices: list[Any]) -> Any:
    """The phone's question: the reason, capitalised, then each choice (``"; or "`` between them)."""
    said: Any = choices[0] if choices else ""
    for text in choices[1:]:
        said = T("{first}; or {next}", first=said, next=text)
    return T("{reason} {choices}.", reason=capital(reason), choices=said)



@dataclass
class BoardSeen:
    """What the board camera read in one frame: ``pieces`` (piece name -> space, ``None`` when it is
    not sure where, or which piece, or does not see it), ``notes`` (the board was bumped and
    re-registered...), ``board`` (the name of the board the references were enrolled on)."""

    pieces: dict[str, int | None]
    notes: list[str] = field(default_factory=list)
    board: str | None = None
    guesses: dict[str, tuple[int, ...]] = field(default_factory=dict)  # where a piece it is not sure of may stand
    found: list[Sighting] = field(default_factory=list)  # every piece found, by look (pieces that look alike)
    extras: dict[str, Any] = field(default_factory=dict)  # what else it read, for the adapter (Karibik's chests)


def read_seen(game: Game, seen: BoardSeen) -> BoardReading:
    """:func:`read_board` of what the camera saw: by piece name, or (an adapter with ``looks``: pieces that
    look alike) by look per space, named against the game (:func:`name_sightings`)."""
    adapter = game.board_moves  # type: ignore[attr-defined]
    looks = getattr(adapter, "looks", None)
    if looks is None:
        return read_board(game, adapter.pieces(game), seen.pieces, seen.guesses, seen.extras)
    before, named, guesses = name_sightings(adapter.pieces(game), looks(game), seen.found)
    return read_board(game, before, named, guesses)


def perfect_sightings(game: Game) -> BoardSeen:
    """What a perfect camera sees of ``game``'s board (the scripts that cut a record into camera steps)."""
    adapter = game.board_moves  # type: ignore[attr-defined]
    pieces = adapter.pieces(game)
    looks = getattr(adapter, "looks", None)
    found = [Sighting(look, pieces[p]) for p, look in looks(game).items()] if looks is not None else []
    extras = getattr(adapter, "perfect_extras", None)  # what else the camera reads (Karibik's chests)
    return BoardSeen(dict(pieces), found=found, extras=extras(game) if extras is not None else {})


def board_reading(game: Game, seen: BoardSeen) -> Reading:
    """The tracker's :class:`~tablehub.tracking.interpret.Reading` of ``seen`` against ``game``: pending
    (NEXT logs it), unsure (the phone asks, each choice one action: what follows it is read again),
    illegal (the rules' reason), waiting or same."""
    notes = list(seen.notes)
    adapter = getattr(game, "board_moves", None)
    if adapter is None:
        return Reading("waiting", reason=T("the camera is set up for a printed board, but {game} has no board it "
                                           "reads: play from the phone", game=game.title), notes=notes)
    name = getattr(adapter.board(game), "name", None)
    if seen.board is not None and name is not None and seen.board != name:
        return Reading("waiting", reason=T("the camera's references are of the board '{seen}', but this game is "
                                           "played on '{board}': enrol this board (tablehub boardcam)",
                                           seen=seen.board, board=name), notes=notes)
    r = read_seen(game, seen)
    notes += r.notes
    if r.doubt and r.status == "pending":  # read from a guess: the phone asks, the player confirms or corrects
        where: Any = None
        for p in r.doubt:
            one = T("{piece} on space {space}", piece=p, space=r.guesses[p][0])
            where = one if where is None else T("{first}, {next}", first=where, next=one)
        return Reading("unsure", choices=[Choice((r.actions[0],), 0.5)], reason=T("not sure of {where}", where=where),
                       notes=notes, question=T("The camera is not sure it sees {where} (touching another piece?): is "
                                               "this the move? If not, enter it.", where=where))
    if r.status == "pending":
        return Reading("pending", actions=r.actions, notes=notes)
    if r.status == "unsure":
        # the phone logs one action per choice: what would follow it (the move's end) is read again at rest
        choices = [Choice((c[0],), round(1.0 / len(r.choices), 3)) for _, c in r.choices]
        question = _question(r.reason, [text for text, _ in r.choices])
        return Reading("unsure", choices=choices, reason=r.reason, notes=notes, question=question)
    if r.status == "illegal":
        return Reading("illegal", reason=r.reason, notes=notes)
    if r.status == "waiting":
        return Reading("waiting", reason=r.reason, notes=notes)
    return Reading("same", notes=notes)
