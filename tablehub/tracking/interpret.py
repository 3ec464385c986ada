"""From "what changed on the table" to candidate game actions.

:func:`interpret` compares the table the committed game state describes
(``expected``) with the table the camera sees now (``seen``) and returns a
:class:`Reading`:

- ``same``: nothing new (a nudged tile, or one lifted and put back, is not a move);
- ``waiting``: something is hidden or lifted; nothing to do until it is back;
- ``pending``: legal, confident actions (a tile laid, a figure placed or taken off to
  score) waiting for the NEXT button;
- ``unsure``: the rules allow several reads; ``choices`` go to the phone;
- ``illegal``: the table shows something the rules refuse; ``reason`` says which rule.

The committed state is the truth for tiles already down: only new cells are read
for identity, so an old tile misread later cannot change the game. Cells the camera
does not see (beyond the edge of the picture, ``TableSeen.in_view``) say nothing: a
tile there is out of view, not lifted, and the phone enters what happens there. Actions are
checked in order on a copy of the engine (a figure on the new tile is validated
after that tile). How a figure leaves the table during play is the engine's
``figure_removal`` action (Neues Land: score_figure, Südsee: take_back). In a game
whose figure step is ended by an explicit action (Südsee's ``skip_islander``), a
turn with no figure step ends with it, so that NEXT alone moves the game on.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ..games.base import Game, IllegalAction, TablehubError, record_code
from ..i18n import N_, T, Tc, Text, chain
from .table import Cell, FigureSeen, TableSeen, TileSeen

def _removal(game: Game, f: FigureSeen) -> dict[str, Any] | None:
    """The action that takes figure ``f`` off the board in this game, if any and if its region is known."""
    kind = getattr(game, "figure_removal", None)
    if kind is None or not f.region:
        return None
    return {"type": kind.type, "x": f.x, "y": f.y, "region": f.region}


def skip_action(game: Game) -> dict[str, Any] | None:
    """The engine's explicit end of a figure step with no figure (``figure_skip``: Südsee's
    ``skip_islander``), which NEXT logs after such a turn; ``None`` in games without one."""
    kind = getattr(game, "figure_skip", None)
    return None if kind is None else {"type": kind.type}


def figure_step(game: Game) -> frozenset[str]:
    """The action types that use a turn's figure step in ``game``: placing a figure, the game's
    ``figure_removal`` and its ``figure_skip``."""
    kinds = (getattr(game, "figure_removal", None), getattr(game, "figure_skip", None))
    return frozenset({"place_figure", *(k.type for k in kinds if k is not None)})


def next_actions(game: Game) -> frozenset[str]:
    """What NEXT logs in ``game``: what the camera sees (the tile, figures on and off) and the end of
    a figure step in which nothing was seen. The rest (draws, deliveries, discards) comes from the phone.
    On a printed board: the engine's adapter says (``board_moves.table_actions``)."""
    board = getattr(game, "board_moves", None) or getattr(game, "layout_moves", None)
    if board is not None:
        return frozenset(board.table_actions)
    return figure_step(game) | {"place_tile"}


#: colour names vision uses for a figure whose colour it cannot tell
UNKNOWN_COLOURS = frozenset({"unknown", "None", ""})


@dataclass(frozen=True)
class Choice:
    """One read of an unsure change: the actions it stands for and how sure the vision was."""

    actions: tuple[Mapping[str, Any], ...]
    confidence: float

    @property
    def action(self) -> Mapping[str, Any]:
        return self.actions[-1]


@dataclass
class Reading:
    state: str                                   # same, waiting, pending, unsure, illegal
    actions: list[dict[str, Any]] = field(default_factory=list)   # legal, confident, in order
    choices: list[Choice] = field(default_factory=list)           # when unsure
    reason: str | None = None                    # when illegal (or why we wait)
    cell: Cell | None = None                     # where the change is
    notes: list[str] = field(default_factory=list)
    question: str | None = None                  # when unsure: what the phone asks (else the tile question)

    def signature(self) -> tuple[Any, ...]:
        """Identifies a reading so a repeated one is not announced (or beeped) twice. A reading with nothing to
        log ("same") is told by its notes too (all it has to say: the page's status line follows them)."""
        said = tuple(str(n) for n in self.notes) if self.state == "same" else ()
        return (self.state, tuple(tuple(sorted(a.items())) for a in self.actions),
                tuple((tuple(tuple(sorted(a.items())) for a in c.actions)) for c in self.choices),
                self.reason, self.cell, said)

    def describe(self, game: Game | None = None) -> Text:
        """The reading in one line; with ``game`` (the committed game) its actions in the game's table
        words ("Lay the tile with a bay east of the start tile"), else their record fields."""
        if self.state == "illegal":
            return T("illegal: {reason}", reason=self.reason)
        if self.state == "pending":
            return T("pending: {actions}", actions=self.action_words(game))
        if self.state == "unsure":
            choices = []
            for c in self.choices:
                confidence = "%.2f" % c.confidence
                choices.append(T("{action} ({confidence})", action=_labels(game, c.actions)[-1], confidence=confidence))
            joined = chain(choices, N_("{first} | {next}"))
            return T("unsure: {choices}", choices=joined)
        if self.state == "waiting":
            return T("waiting: {reason}", reason=self.reason)
        return T("no change")

    def action_words(self, game: Game | None = None) -> Any:
        """The reading's actions in words, ``"; "`` between them (see :meth:`describe`)."""
        return chain(_labels(game, self.actions), N_("{first}; {next}"))


def _labels(game: Game | None, actions: Any) -> list[str]:
    """Each action in words, each read on the game as the actions before it leave it."""
    actions = [dict(a) for a in actions]
    if game is None:  # logs read without the game at hand: the record's fields (engines word their own actions)
        return [record_code(a) for a in actions]
    work = fork(game)
    out = []
    for a in actions:
        out.append(work.say(a))
        if _refusal(work, a) is not None:
            out.extend(record_code(b) for b in actions[len(out):])
            break
    return out


def _refusal(game: Game, action: Mapping[str, Any]) -> IllegalAction | None:
    """Apply ``action`` to ``game`` when legal; return the refusal otherwise (``rule`` names it)."""
    try:
        game.apply(game.parse_action(action))
    except IllegalAction as exc:
        return exc
    except TablehubError as exc:
        return IllegalAction(str(exc), rule="format")
    return None


def fork(game: Game) -> Game:
    """A copy of ``game`` to try actions on. Shares what never changes during play (the tile
    catalog and its placement-fit memo): about 5 ms instead of 33 ms for a mid-game Neues Land."""
    catalog = getattr(game, "catalog", None)
    if catalog is None:
        return game.copy()
    memo: dict[int, Any] = {id(catalog): catalog}
    cache = getattr(catalog, "fit_cache", None)
    if cache is not None:
        memo[id(cache)] = cache
    return copy.deepcopy(game, memo)


def _check(game: Game, action: Mapping[str, Any]) -> str | None:
    """The refusal reason of ``action`` now (nothing is applied, nothing copied)."""
    try:
        return game.validate(game.parse_action(action))
    except TablehubError as exc:
        return exc.text


def _try(game: Game, action: Mapping[str, Any]) -> str | None:
    refusal = _refusal(game, action)
    return None if refusal is None else refusal.text


def appearance(game: Game, tile_id: str, rotation: int) -> Any:
    """What a laid tile means to the rules, independent of its id: terrains by rotated slot,
    region attributes, towns. Two reads with the same appearance are the same move for the rules
    (duplicate tiles in a set; a symmetric tile turned)."""
    catalog = getattr(game, "catalog", None)
    try:
        t = catalog.tile(tile_id)  # type: ignore[union-attr]
    except Exception:
        return (tile_id, rotation % 360)
    def turned(slots: frozenset[int]) -> frozenset[int]:
        return _turned(slots, rotation)

    regions = frozenset((r.terrain, turned(r.slots), tuple(sorted(dict(r.symbols).items())), r.boat)
                        for r in t.regions)
    towns = frozenset((turned(t.regions[w.land].slots), t.regions[w.land].terrain,
                       turned(t.regions[w.sea].slots)) for w in t.towns)
    touching = frozenset(frozenset((turned(t.regions[a].slots), turned(t.regions[b].slots)))
                         for a, b in t.touching)
    return (regions, towns, touching)


def _turned(slots: frozenset[int], rotation: int) -> frozenset[int]:
    """A tile's edge slots (0-11, clockwise from the north side's left) once the tile is turned ``rotation``."""
    q = (rotation // 90) % 4
    return frozenset((s + 3 * q) % 12 for s in slots)


def region_as(game: Game, region: str, read: tuple[str, int], laid: tuple[str, int]) -> str | None:
    """The id, on the tile ``laid`` (id, rotation), of the part that is ``region`` on the tile ``read``.

    A figure's region is named in the frame of the tile vision read; when a look-alike with the
    same meaning to the rules is logged instead (another id, or a symmetric tile turned), the
    figure stands on the part of the logged tile with the same terrain on the same sides."""
    if read == laid:
        return region
    catalog = getattr(game, "catalog", None)
    try:
        src, dst = catalog.tile(read[0]), catalog.tile(laid[0])  # type: ignore[union-attr]
    except Exception:
        return region

    def placed(r: Any, rotation: int) -> tuple[str, frozenset[int]]:
        return r.terrain, _turned(r.slots, rotation)

    where = next((placed(r, read[1]) for r in src.regions if r.id == region), None)
    return next((r.id for r in dst.regions if where is not None and placed(r, laid[1]) == where), None)


def _on_laid_tiles(game: Game, seen: TableSeen, laid: Mapping[Cell, tuple[str, int]]) -> list[FigureSeen]:
    """The seen figures with their regions named on the tiles logged (or about to be) rather than on
    the tiles vision read there: the two differ where a look-alike was logged, or where the phone
    logged another tile than vision read. Named from the figure's place on the tile when vision says
    where it stands, else by the same terrain on the same sides (:func:`region_as`)."""
    out = []
    for f in seen.figures:
        read = seen.tiles.get(f.cell)
        if f.cell in laid and (read is None or (read.tile, read.rotation) != laid[f.cell]):
            region = None
            if f.at is not None and seen.region_at is not None:
                region = seen.region_at(laid[f.cell][0], laid[f.cell][1], f.at[0], f.at[1])
            if region is None and f.region and read is not None:
                region = region_as(game, f.region, (read.tile, read.rotation), laid[f.cell])
            f = replace(f, region=region or f.region)
        out.append(f)
    return out


def _player_color(game: Game) -> str | None:
    colors = game.setup.colors
    return colors[game.current] if colors else None


def _match_figures(expected: list[FigureSeen], seen: list[FigureSeen]) -> tuple[list[FigureSeen], list[FigureSeen]]:
    """(expected but not seen, seen but not expected), matching by cell and colour, region when both know it."""
    missing = list(expected)
    extra = []
    rules = (
        lambda e, f: e.color == f.color and (e.region is None or f.region is None or e.region == f.region),
        lambda e, f: e.color == f.color,                     # the region misread
        lambda e, f: e.region is not None and e.region == f.region,  # the colour misread (a logged figure)
        lambda e, f: True,  # colour and region misread: a figure is still there (one figure step per turn)
    )
    pending = list(seen)
    for same in rules:
        for f in list(pending):
            hit = next((e for e in missing if e.cell == f.cell and same(e, f)), None)
            if hit is not None:
                missing.remove(hit)
                pending.remove(f)
    extra.extend(pending)
    return missing, extra


def _rescore(groups: list[dict[str, Any]], ts: TileSeen, floor: float) -> None:
    """Confidences for reads grouped by what they mean to the rules, from raw match scores.

    Vision's confidence weighs the best score against the best runner-up that *looks* different;
    a twin with a different picture but the same meaning to the rules is no rival here. Each group
    is scored by its best member against the best other group; runners-up beyond the listed ones
    score at most ``floor`` (the lowest listed), so an unknown rival never raises a confidence.
    """
    scores = [g["conf"] for g in groups]  # until now: each group's best raw score
    for i, g in enumerate(groups):
        rival = max((s for j, s in enumerate(scores) if j != i), default=floor)
        conf = ts.calibrate(scores[i], rival)
        if (ts.tile, ts.rotation) in g["tiles"]:
            conf = max(conf, ts.confidence)  # vision's own (it weighed every candidate, not just the listed)
        g["conf"] = conf


def interpret(game: Game, expected: TableSeen, seen: TableSeen, confident: float = 0.75,
              margin: float = 0.10, max_choices: int = 4) -> Reading:
    """Turn the difference between the committed table and the seen table into a :class:`Reading`."""
    new_cells = sorted(c for c in seen.tiles if c not in expected.tiles)
    hidden = sorted(c for c in expected.tiles if c not in seen.tiles and seen.sees(c))
    notes = [T("tile at {x},{y} is lifted or hidden", x=c[0], y=c[1]) for c in hidden]
    unseen = sorted(c for c in expected.tiles if not seen.sees(c))
    if unseen:
        notes.append(_out_of_view(unseen))
    if len(new_cells) > 1:
        where = chain([f"{c[0]},{c[1]}" for c in new_cells], N_("{first} and {next}"))
        return Reading("illegal", reason=T("new tiles at {cells}: one tile per turn (press NEXT after each turn)",
                                           cells=where), cell=new_cells[0], notes=notes)
    actions: list[dict[str, Any]] = []
    figure_cell: Cell | None = None
    if new_cells:
        cell = new_cells[0]
        ts = seen.tiles[cell]
        # group reads that mean the same to the rules; keep the best confidence and the first legal member
        groups: list[dict[str, Any]] = []
        first_reason: Any = None
        scored = ts.scored_reads() if ts.calibrate is not None else []
        for tile, rotation, conf in scored or ts.reads():
            key = appearance(game, tile, rotation)
            group = next((g for g in groups if g["key"] == key), None)
            if group is None:
                group = {"key": key, "conf": conf, "action": None, "tiles": set()}
                groups.append(group)
            group["tiles"].add((tile, rotation))
            if group["action"] is not None:
                continue
            action = {"type": "place_tile", "tile": tile, "x": cell[0], "y": cell[1], "rotation": rotation}
            reason = _check(game, action)
            if reason is None:
                group["action"] = action
            elif first_reason is None:
                first_reason = reason
        if scored:
            _rescore(groups, ts, scored[-1][2])
        legal = [(g["action"], g["conf"]) for g in groups if g["action"] is not None]
        if not legal:
            return Reading("illegal", reason=first_reason, cell=cell, notes=notes)
        best, conf = legal[0]
        runner_up = max((g["conf"] for g in groups[1:]), default=0.0) if groups[0]["action"] is best else 1.0
        top_is_legal = groups[0]["action"] is best
        separated = ts.separated or conf - runner_up >= margin
        if not (top_is_legal and conf >= confident and separated):
            return Reading("unsure", choices=[Choice((a,), c) for a, c in legal[:max_choices]], cell=cell,
                           notes=notes)
        actions.append(best)
        figure_cell = cell
    else:
        last = getattr(game, "last_cell", None)
        figure_cell = tuple(last) if last is not None else None  # type: ignore[assignment]

    laid = {c: (t.tile, t.rotation) for c, t in expected.tiles.items()}
    laid.update({(a["x"], a["y"]): (a["tile"], a["rotation"]) for a in actions})
    missing, extra = _match_figures(list(expected.figures), _on_laid_tiles(game, seen, laid))
    # a lifted tile hides its figures; out of view, the camera neither adds nor removes any
    missing = [f for f in missing if f.cell not in hidden and seen.sees(f.cell)]
    extra = [f for f in extra if seen.sees(f.cell)]
    if not missing and not extra:  # the common case: no copy of the engine is needed
        return _done(game, actions, figure_cell, hidden, notes)
    work = fork(game)  # the figure step is checked after the tile: on a copy with the tile laid
    for a in actions:
        _try(work, a)
    color = _player_color(work)
    for f in extra:
        if f.cell != figure_cell:
            notes.append(T("a {colour} figure at {x},{y} is not in the game (take it back)",
                           colour=_colour(f.color), x=f.x, y=f.y))
            continue
        if color is not None and f.color in UNKNOWN_COLOURS:
            notes.append(T("the colour of the figure at {x},{y} is unclear: taken as {colour}", x=f.x, y=f.y,
                           colour=_colour(color)))
        elif color is not None and f.color != color:
            return Reading("illegal", reason=T("a {colour} figure is on the new tile, but it is {player}'s turn "
                                               "({player_colour})", colour=_colour(f.color), player=work.current_player,
                                               player_colour=_colour(color)), cell=f.cell, notes=notes)
        if f.region is None:
            return Reading("waiting", actions=actions, reason=T("a figure on {x},{y}: cannot tell which part of the "
                                                                "tile it stands on", x=f.x, y=f.y),
                           cell=f.cell, notes=notes)
        action = {"type": "place_figure", "region": f.region}
        reason = _try(work, action)
        if reason is not None:
            return Reading("illegal", actions=actions, reason=reason, cell=f.cell, notes=notes)
        actions.append(action)
    for f in missing:
        action = _removal(game, f)
        if action is None:
            notes.append(T("the {colour} figure at {x},{y} is hidden or gone", colour=_colour(f.color), x=f.x, y=f.y))
            continue
        if color is not None and f.color != color:
            notes.append(T("the {colour} figure at {x},{y} is hidden or gone (not {player}'s)",
                           colour=_colour(f.color), x=f.x, y=f.y, player=work.current_player))
            continue
        refusal = _refusal(work, action)
        reason = None if refusal is None else refusal.text
        if refusal is not None and refusal.rule == "figure_before_tile":
            return Reading("waiting", actions=actions, reason=T("the {colour} figure at {x},{y} is off the table; it "
                                                                "scores after this turn's tile is laid",
                                                                colour=_colour(f.color), x=f.x, y=f.y),
                           cell=f.cell, notes=notes)
        if refusal is not None and refusal.rule == "one_figure_action":
            # this turn's figure step is taken (a figure just placed, one taken off, or logged already):
            # a figure missing as well is not a second step but one the camera does not see now
            notes.append(T("the {colour} figure at {x},{y} is not seen (hidden?); {why}",
                           colour=_colour(f.color), x=f.x, y=f.y, why=refusal.text))
            continue
        if reason is not None:
            return Reading("illegal", actions=actions, reason=reason, cell=f.cell, notes=notes)
        actions.append(action)
    return _done(game, actions, figure_cell, hidden, notes, work)


#: the figure colours the camera names (tablehub/tracking/simtable.py, photoscore), said in the reader's language
_COLOURS = {"red": Tc("colour", "red"), "blue": Tc("colour", "blue"), "green": Tc("colour", "green"),
            "yellow": Tc("colour", "yellow"), "black": Tc("colour", "black")}
KNOWN_COLOURS = tuple(_COLOURS)


def _colour(name: Any) -> Any:
    """A figure's colour as said: a known colour's name is a word of the ``colour`` context; another
    (a player's own colour name) is kept as it is."""
    return _COLOURS.get(name, name) if isinstance(name, str) else name


def _out_of_view(cells: list[Cell]) -> Text:
    """One line for the committed tiles the camera cannot see."""
    where = ", ".join(f"{c[0]},{c[1]}" for c in cells)
    if len(cells) == 1:
        return T("tile at {cells} is outside the camera's view: enter what is played there on the phone", cells=where)
    return T("tiles at {cells} are outside the camera's view: enter what is played there on the phone", cells=where)


def _skip_step(game: Game, actions: list[dict[str, Any]], work: Game | None = None) -> dict[str, Any] | None:
    """The engine's explicit end of the figure step (Südsee's ``skip_islander``) when the turn read so far
    (``actions`` after the committed state) leaves that step open with no figure action: NEXT then logs
    it, so the turn moves on with the button alone. ``None`` in games without one (Neues Land's step
    simply ends with the next tile) or when it is not legal then. ``work``: a copy of ``game`` with
    ``actions`` applied already, when the caller has one."""
    skip = skip_action(game)
    if skip is None or any(a.get("type") in figure_step(game) for a in actions):
        return None
    if work is None and actions:
        work = fork(game)
        for a in actions:
            if _try(work, a) is not None:
                return None
    return skip if _check(game if work is None else work, skip) is None else None


def _done(game: Game, actions: list[dict[str, Any]], cell: Cell | None, hidden: list[Cell],
          notes: list[str], work: Game | None = None) -> Reading:
    if hidden and not actions:
        return Reading("waiting", reason=notes[0], cell=hidden[0], notes=notes)
    skip = _skip_step(game, actions, work)
    if skip is not None:
        actions = [*actions, skip]
    if actions:
        return Reading("pending", actions=actions, cell=cell, notes=notes)
    return Reading("same", notes=notes)
