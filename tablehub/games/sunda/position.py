"""Scoring a Sunda to Sahul layout read off the table, with no action log (``tablehub score``).

The camera (and a person at the table) can see land and water along every side of every
piece, the tribes, the water rights and the markers, but not which of the 136 pieces is
which: scoring needs no piece identities. A position (docs/sunda.md, "Scoring a position")::

    {"game": "sunda", "players": ["Ana", "Ben"], "options": {"tribes": true},
     "position": {
       "pieces": [{"q": 0, "r": 0, "turn": 0, "sides": "WWL LLW WWW WWW"}, ...],
       "tribes": [{"q": 1, "r": 0, "pawns": ["Ana", "Ben"]}],
       "water_rights": [{"q": 2, "r": 2, "owner": "Ana"}],
       "markers": [{"marker": "red", "q": 1, "r": 0}]}}

Pieces must not overlap and must continue land and water across every shared side;
tribes stand on land nodes (one pawn each without the tribes level, at most 5 with it),
water rights on fresh-water nodes, markers on a node holding a tribe or a water right.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...i18n import T
from ..base import PositionResult, Setup, TablehubError
from .board import Board, point_name
from .dice import MAX_TRIBE
from .engine import PAWNS, Sunda
from .lattice import triangles
from .pieces import FORMAT, PiecesError, build_piece_set, load_pieces


class PositionError(TablehubError, ValueError):
    """A Sunda position that cannot be scored: one line naming the field."""


def _point(item: Any, where: str) -> tuple[int, int]:
    q, r = item.get("q"), item.get("r")
    if isinstance(q, bool) or isinstance(r, bool) or not isinstance(q, int) or not isinstance(r, int):
        raise PositionError(T("{where}: q and r must be whole numbers (a lattice point), got {q}, {r}", where=where,
                              q=repr(q), r=repr(r)))
    return q, r


def _list(position: Mapping[str, Any], key: str, source: str) -> list[Any]:
    value = position.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise PositionError(T("{source}: position.{key} must be a list of objects", source=source, key=key))
    return value


def score_position(data: Mapping[str, Any], source: str = "<position>") -> PositionResult:
    """Score a layout read off the table: every tribe, water right and island's markers, explained."""
    if not isinstance(data, Mapping) or not isinstance(data.get("position"), Mapping):
        raise PositionError(T("{source}: a Sunda position is an object with 'players' and 'position'", source=source))
    position = data["position"]
    extra = set(position) - {"pieces", "tribes", "water_rights", "markers"}
    if extra:
        raise PositionError(T("{source}: position: unknown field(s) {fields}", source=source,
                              fields=", ".join(sorted(extra))))
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players):
        raise PositionError(T("{source}: 'players' must list the player names in turn order", source=source))
    options = dict(data.get("options") or {})
    markers_from = load_pieces(options.get("pieces"))
    piece_data = _list(position, "pieces", source)
    if not piece_data:
        raise PositionError(T("{source}: position.pieces is empty: there is nothing to score", source=source))
    entries = []
    for i, pd in enumerate(piece_data):
        entry = {"id": str(pd.get("id", f"p{i + 1}")), "sides": pd.get("sides")}
        if "join" in pd:
            entry["join"] = pd["join"]
        entries.append(entry)
    try:
        pset = build_piece_set({"format": FORMAT, "game": "sunda", "set": markers_from.name,
                                "provisional": markers_from.provisional,
                                "markers": [{"id": m.id, "number": m.number} for m in markers_from.markers],
                                "pieces": entries}, f"{source}: position", field="position.pieces")
    except PiecesError as exc:
        raise PositionError(exc.text) from None
    options["pieces"] = pset.to_dict()
    try:
        game = Sunda(Setup("sunda", tuple(players), options=options))
    except TablehubError as exc:
        raise PositionError(T("{source}: {problem}", source=source, problem=exc.text)) from None
    board: Board = game.board
    for i, (pd, piece) in enumerate(zip(piece_data, game.set.pieces)):
        where = f"{source}: position.pieces[{i}]"
        q, r = _point(pd, where)
        turn = pd.get("turn", 0)
        if turn not in range(6) or isinstance(turn, bool):
            raise PositionError(T("{where}: turn must be 0 to 5, got {turn}", where=where, turn=repr(turn)))
        for t in triangles(q, r, turn):
            if t in board.tri:
                other = board.placed[board.tri[t]]
                raise PositionError(T("{where}: overlaps the piece at {point} turn {turn}", where=where,
                                      point=point_name(other.q, other.r), turn=other.turn))
        req = board.requirement(q, r, turn)
        for k in range(4):
            if req[k] and req[k] != piece.side_codes[k]:
                raise PositionError(T("{where}: side {side} ({slots}) does not continue the land and water of the "
                                      "piece beside it", where=where, side=k, slots=piece.side(k)))
        board.place(piece, q, r, turn)
    an = board.analyse()
    index = {p: i for i, p in enumerate(players)}
    for i, td in enumerate(_list(position, "tribes", source)):
        where = f"{source}: position.tribes[{i}]"
        pt = _point(td, where)
        node = board.nodes.get(pt)
        if node is None or node.kind != "land":
            raise PositionError(T("{where}: {point} is not a land node (pieces all round it, all land)", where=where,
                                  point=point_name(*pt)))
        pawns = td.get("pawns")
        if not isinstance(pawns, list) or not pawns or any(p not in index for p in pawns):
            raise PositionError(T("{where}: pawns must list owners bottom to top, each one of {players}", where=where,
                                  players=", ".join(players)))
        most = MAX_TRIBE if game.on("tribes") else 1
        if len(pawns) > most:
            raise PositionError(T("{where}: at most {most} pawns on a node", where=where, most=most)
                                if game.on("tribes") else
                                T("{where}: at most 1 pawn on a node without the tribes level", where=where))
        if pt in game.tribes:
            raise PositionError(T("{where}: a second tribe at {point}", where=where, point=point_name(*pt)))
        game.tribes[pt] = [index[p] for p in pawns]
    for i, wd in enumerate(_list(position, "water_rights", source)):
        where = f"{source}: position.water_rights[{i}]"
        pt = _point(wd, where)
        node = board.nodes.get(pt)
        if node is None or node.kind != "water" or \
                an.water_comp.get(board.find(node.region)) not in an.enclosed:
            raise PositionError(T("{where}: {point} is not a fresh-water node (water all round, in a lake)",
                                  where=where, point=point_name(*pt)))
        if wd.get("owner") not in index:
            raise PositionError(T("{where}: owner must be one of {players}", where=where, players=", ".join(players)))
        game.water[pt] = index[wd["owner"]]
        game.fresh_seen.add(pt)
    markers = _list(position, "markers", source)
    if markers and not game.on("resources"):
        raise PositionError(T("{source}: position.markers: resources are not played (option resources)",
                              source=source))
    for i, md in enumerate(markers):
        where = f"{source}: position.markers[{i}]"
        pt = _point(md, where)
        if md.get("marker") not in game.set.marker_by_id:
            raise PositionError(T("{where}: marker must be one of {markers}", where=where,
                                  markers=", ".join(m.id for m in game.set.markers)))
        if pt not in game.tribes and pt not in game.water:
            raise PositionError(T("{where}: a marker lies by a tribe or a water right; {point} has neither",
                                  where=where, point=point_name(*pt)))
        if md["marker"] in game.markers:
            raise PositionError(T("{where}: the {marker} marker is listed twice", where=where, marker=md["marker"]))
        game.markers[md["marker"]] = pt
    for i, p in enumerate(players):
        used = sum(s.count(i) for s in game.tribes.values()) + sum(1 for o in game.water.values() if o == i)
        if used > PAWNS[len(players)]:
            raise PositionError(T("{source}: {player} has {used} pawns on the table, more than the {most} each of "
                                  "{players} player(s) have", source=source, player=p, used=used,
                                  most=PAWNS[len(players)], players=len(players)))
    events = game.finish()
    lines = [str(e) for e in events] + game.final_lines
    provisional = None  # the position brings its own pieces; only the markers' numbers come from a file
    if game.markers and markers_from.provisional:
        provisional = T("Sunda to Sahul: the resource markers' numbers (1-6) are provisional")
    return PositionResult(game.scores(), events, lines, provisional)


def position_of(game: Sunda, outlines: bool = False) -> dict[str, Any]:
    """The position ``tablehub score`` reads for ``game``'s table as it lies (what the camera should read):
    every piece's placement and sides (``join`` when not water), the tribes bottom to top, water rights and
    markers. ``outlines`` adds each piece's land polygons (its own frame) for drawing (vision.sim.sundatable)."""
    pieces = []
    for p in game.board.placed:
        entry: dict[str, Any] = {"q": p.q, "r": p.r, "turn": p.turn,
                                 "sides": " ".join(p.piece.side(k) for k in range(4))}
        if p.piece.join != "water":
            entry["join"] = p.piece.join
        if outlines:
            entry["outline"] = [[list(pt) for pt in poly] for poly in p.piece.outline]
        pieces.append(entry)
    names = list(game.players)
    out: dict[str, Any] = {
        "pieces": pieces,
        "tribes": [{"q": q, "r": r, "pawns": [names[i] for i in owners]}
                   for (q, r), owners in sorted(game.tribes.items())],
        "water_rights": [{"q": q, "r": r, "owner": names[o]} for (q, r), o in sorted(game.water.items())],
        "markers": [{"marker": m, "q": pt[0], "r": pt[1]} for m, pt in sorted(game.markers.items())],
    }
    options = {k: v for k, v in game.options.items() if k != "pieces" and v}
    return {"game": "sunda", "players": names, "options": options, "position": out}
