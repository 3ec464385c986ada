"""A finished Sunda to Sahul table scored from one photo (``tablehub score --photo IMG --game sunda``).

The photo is read by the hub's Sunda reader (:class:`vision.sunda.SundaReader`, loaded from the colours
``tablehub sundacam enrol`` wrote: :func:`tablehub.tracking.sundarefs.load_reader`) with the packaged set's prints as
a constraint, into the position ``tablehub score`` reads (``SundaReading.position``: every piece's land and water,
the tribes bottom to top, the resource markers when their colours are enrolled), and scored by the engine's
:func:`tablehub.games.sunda.position.score_position`.

What one photo cannot show: a tribe's height, most of the time (docs/sunda.md, "Heights and markers": the camera
asks nearly every one), and the owners of the pawns under its top. They are given with ``--tribes
'q,r=Ana,Ben,Ana;...'`` (owners bottom to top, at the node the output names, in the reader's lattice); a tribe
asked and not given is scored at its lowest possible height, the pawns not seen taken as the top's colour, and
listed with what each possible height would change. Water rights are not read (the reader takes a pawn on water
for none of the layout's).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .i18n import T, Tn, reason
from .photo_position import (PhotoPositionError, Possibility, PositionPhoto, UnsurePlace, players_by_colour,
                             scores_of)

#: the references' default folder (``tablehub sundacam enrol --out``)
DEFAULT_REFS = Path("refs") / "sunda"
#: the levels a photo is scored with when ``--levels`` is not given (the bench's and the hub's games)
DEFAULT_LEVELS = ("tribes", "resources")
LEVELS = ("water_rights", "tribes", "cooperation", "challenges", "resources")


def set_prints(reader: Any) -> set[str] | None:
    """The rings of the set the reader reads with (``SundaReader.use_set``), ``None`` when it reads with none."""
    prints = getattr(reader, "prints", None)     # (M, 12) bool, land True, each print and it turned half round
    return None if prints is None else {"".join("L" if v else "W" for v in row) for row in prints}


def load_reader(refs: str | Path | None, mat: str | Path | None = None, lens: Any = None) -> Any:
    """The Sunda reader of the enrolled colours in ``refs`` (default ``refs/sunda``), reading with the packaged
    set's prints; one line saying which command enrols them when the folder has none."""
    folder = Path(refs) if refs else DEFAULT_REFS
    if not (folder / "sunda.json").is_file():
        raise PhotoPositionError(T("--refs {folder}: no Sunda colours enrolled there; enrol them first ('tablehub "
                                   "sundacam enrol PHOTO --out {folder}', docs/sunda.md)", folder=str(folder)))
    from vision import VisionError
    from vision.mat import Mat

    from .games.sunda.pieces import load_pieces
    from .tracking.sundarefs import load_reader as load

    try:
        reader = load(folder, lens=lens or None, mat=Mat.load(mat) if mat else None)
        if lens is False and reader.lens is not None:  # --lens none: not even the one kept with the references
            from vision.sunda import SundaReader

            markers, reader = reader.markers, SundaReader(reader.mat, reader.colours, side_mm=reader.side_mm)
            reader.markers = markers
        reader.use_set([p.ring for p in load_pieces(None).pieces])  # the owner's set, as the hub reads
        reader.beyond = True    # each tribe's paint past its stack's outline (touching_unsure): the photo's alone
    except VisionError as exc:
        raise PhotoPositionError(reason(exc)) from None
    return reader


def parse_levels(text: str | None) -> dict[str, bool]:
    """``--levels tribes,resources`` -> the game's options; one line for a level that is not one."""
    names = list(DEFAULT_LEVELS) if text is None else [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in LEVELS]
    if bad:
        raise PhotoPositionError(T("--levels: {bad} is not a Sunda level (expected some of {levels}, comma-separated)",
                                   bad=", ".join(bad), levels=", ".join(LEVELS)))
    return {v: True for v in names}


def parse_tribes(text: str | None) -> dict[tuple[int, int], list[str]]:
    """``"1,0=Ana,Ben,Ana;3,-1=red"`` -> ``{(1, 0): ["Ana", "Ben", "Ana"], (3, -1): ["red"]}``: each tribe's node
    and its pawns' owners bottom to top (a player's name or pawn colour); one line naming the entry otherwise."""
    out: dict[tuple[int, int], list[str]] = {}
    for part in [p.strip() for p in (text or "").split(";") if p.strip()]:
        node, eq, owners = part.partition("=")
        qr = node.split(",")
        pawns = [o.strip() for o in owners.split(",") if o.strip()]
        try:
            q, r = (int(v) for v in qr)
        except ValueError:
            q = r = None  # type: ignore[assignment]
        if not eq or q is None or not pawns or len(pawns) > 5:
            raise PhotoPositionError(T("--tribes: expected Q,R=OWNER,OWNER,... (the node as the output names it, 1 to "
                                       "5 owners bottom to top) separated by ';', e.g. '1,0=Ana,Ben,Ana;3,-1=Ben'; got "
                                       "{value}", value=repr(part)))
        if (q, r) in out:
            raise PhotoPositionError(T("--tribes: the tribe at {q},{r} is given twice", q=q, r=r))
        out[(q, r)] = pawns
    return out


def players_of(reading: Any, colours: list[str], names: Mapping[str, str] | None) -> dict[str, str]:
    """Pawn colour -> player name: ``names`` (``--players red=Ana``) in their order, else each colour seen on the
    table capitalised, in the enrolled order."""
    seen = {t.top for t in reading.tribes} | {c for t in reading.tribes for c in t.colours if c}
    return players_by_colour(names, colours, seen, lambda bad: T(
        "--players: {bad} is not an enrolled pawn colour (enrolled: {colours})", bad=bad, colours=", ".join(colours)))


def _owner(who: str, players: Mapping[str, str], at: tuple[int, int]) -> str:
    if who.lower() in players:
        return players[who.lower()]
    if who in players.values():
        return who
    raise PhotoPositionError(T("--tribes: {who} at {q},{r} is not a player of this table (players: {players})",
                               who=who, q=at[0], r=at[1], players=", ".join(players.values())))


def guessed_owners(tribe: Any, height: int, players: Mapping[str, str]) -> list[str]:
    """The owners of ``tribe`` at ``height`` as far as the photo shows them: the colours seen bottom to top where
    they fit, every pawn not seen taken as the top's colour."""
    seen = list(tribe.colours) if len(tribe.colours) == height else [None] * (height - 1) + [tribe.top]
    first = next(iter(players.values()))
    return [players.get(c or tribe.top, players.get(tribe.top, first)) for c in seen]


def score_sunda(reader: Any, frame: Any, source: str = "photo", names: Mapping[str, str] | None = None,
                tribes: Mapping[tuple[int, int], list[str]] | None = None,
                options: Mapping[str, Any] | None = None, reading: Any = None) -> PositionPhoto:
    """The photo read and scored (module docstring); ``reading``: the photo's reading when it is already read."""
    from vision import VisionError

    from .games.sunda.position import score_position

    try:
        reading = reader.read(frame) if reading is None else reading
    except VisionError as exc:
        raise PhotoPositionError(T("{source}: {why}", source=source, why=reason(exc))) from None
    players = players_of(reading, list(reader.pawn_names), names)
    options = dict(options if options is not None else parse_levels(None))
    if options.get("resources") and getattr(reader, "markers", None) is None:
        options.pop("resources")  # the markers' colours are not enrolled: none are read
    given = dict(tribes or {})
    at = {(t.q, t.r): t for t in reading.tribes}
    for node in given:
        if node not in at:
            raise PhotoPositionError(T("--tribes: no tribe at {q},{r} on the photo (its tribes: {nodes})", q=node[0],
                                       r=node[1], nodes=" ".join(f"{q},{r}" for q, r in sorted(at)) or "-"))
    answers: dict[tuple[int, int], list[str]] = {}
    for t in reading.tribes:
        if (t.q, t.r) in given:
            answers[(t.q, t.r)] = [_owner(w, players, (t.q, t.r)) for w in given[(t.q, t.r)]]
        elif t.ask:
            answers[(t.q, t.r)] = guessed_owners(t, min(t.candidates or [1]), players)
    asked = [t for t in reading.tribes if t.ask and (t.q, t.r) not in given]
    position = reading.position(players, options, answers)
    position["players"] = list(dict.fromkeys(players.values()))
    # a tribe given where the camera read it surely: the given owners are taken (a person corrects the camera)
    for td in position["position"]["tribes"]:
        if (td["q"], td["r"]) in given:
            td["pawns"] = answers[(td["q"], td["r"])]

    def score(pos: dict[str, Any]) -> Any:
        return score_position(pos, source)

    finder = getattr(reader, "markers", None)
    doubtful = list(getattr(finder, "doubtful", [])) if options.get("resources") else []
    known = {(t.q, t.r) for t in reading.tribes if not t.ask or (t.q, t.r) in given}
    agreed = agreed_markers(doubtful, getattr(finder, "touching", []) if options.get("resources") else [],
                            position, known) if AGREED_READ else []
    doubtful = [d for d in doubtful if not any(d[0] is a for a, _ in agreed)]
    markers_left: list[dict[str, Any]] = []
    doubted: list[DoubtedTribe] = []
    result, left_out = consistent(position, score, markers_left=markers_left, doubted=doubted,
                                  prints=set_prints(reader))
    base = dict(result.scores)
    unsure = tribes_unsure(doubted, position, score, base, seen_round(reading), options)
    unsure += markers_unsure(reading, position, markers_left, score, base)
    unsure += agreed_unsure(agreed, position, score, base)
    unsure += discs_unsure(doubtful, position, score, base)
    unsure += crowded_unsure(getattr(getattr(reader, "markers", None), "crowded", []) if options.get("resources")
                             else [], position, score, base, unsure)
    # a tribe asked and not given: paint past the outline its tallest possible height would have
    tallest = {(t.q, t.r): max(t.candidates or [1]) for t in asked}
    unsure += touching_unsure(getattr(getattr(reader, "markers", None), "touching", [])
                              if options.get("resources") else [], position, score, base, unsure, tallest)
    unsure += painted_unsure(getattr(getattr(reader, "markers", None), "by_paint", [])
                             if options.get("resources") and PAINT_UNSURE else [], position, score, base)
    unsure += prints_unsure(reading.unsure, position, score, base)
    kept = {(td["q"], td["r"]) for td in position["position"]["tribes"]}
    for t in [t for t in asked if (t.q, t.r) in kept]:     # a tribe left out (on no land node) is listed above
        low = min(t.candidates or [1])
        place = UnsurePlace(T("the tribe at {q},{r} (top {top})", q=t.q, r=t.r, top=t.top),
                            Tn("{n} pawn", "{n} pawns", low), base=base)
        for h in sorted(set(t.candidates)):
            if h == low:
                continue
            alt = copy.deepcopy(position)
            for td in alt["position"]["tribes"]:
                if (td["q"], td["r"]) == (t.q, t.r):
                    td["pawns"] = guessed_owners(t, h, players)
            place.possibilities.append(Possibility(Tn("{n} pawn", "{n} pawns", h), scores_of(score, alt),
                                                   T("more pawns than the players have")))
        unsure.append(place)
    n_pieces, n_tribes = len(reading.pieces), len(reading.tribes)
    seen = [T("read from {source}: {pieces}, {tribes}, {markers}", source=source,
              pieces=Tn("{n} piece", "{n} pieces", n_pieces), tribes=Tn("{n} tribe", "{n} tribes", n_tribes),
              markers=Tn("{n} resource marker", "{n} resource markers", len(reading.markers))
              if options.get("resources") else T("resource markers not read (their colours are not enrolled)"))]
    out_given = []
    if given:
        out_given.append(Tn("the owners of {n} tribe bottom to top (--tribes)", "the owners of {n} tribes bottom to top (--tribes)", len(given)))
    not_read = [T("water rights (the reader does not read a pawn on water)")]
    if asked:
        not_read.insert(0, Tn("the height of {n} tribe the camera could not tell, and the pawns under its top: "
                              "scored at the lowest possible height, the pawns not seen as the top's colour; give it "
                              "with --tribes 'Q,R=OWNER,...;...' (bottom to top)",
                              "the heights of {n} tribes the camera could not tell, and the pawns under their tops: "
                              "scored at the lowest possible height, the pawns not seen as the top's colour; give them "
                              "with --tribes 'Q,R=OWNER,...;...' (bottom to top)", len(asked)))
    notes = list(left_out) + [T("the camera is unsure of {what}", what=u) for u in reading.unsure]
    notes += [T("the camera flagged {what}", what=c) for c in reading.conflicts]
    return PositionPhoto("sunda", position, result, unsure, out_given, not_read, notes, seen)


#: a marker not by a tribe of the position is offered at the tribes this near it (in sides), the nearest first
MARKER_REACH = 1.5


def markers_unsure(reading: Any, position: dict[str, Any], markers_left: list[dict[str, Any]], score: Any,
                   base: Mapping[str, int]) -> list[UnsurePlace]:
    """The resource markers the scorer could not take (read by no tribe of the position: its tribe was left out or
    not found), each an unsure place: taken as not on the table, and what it would change by each tribe of the
    position within :data:`MARKER_REACH` sides of where it lies (a marker follows a pawn onto its island)."""
    import numpy as np

    out = []
    side = float(getattr(reading.lattice, "side_mm", 30.0) or 30.0)
    at = {(t.q, t.r): t.mat_mm for t in reading.tribes}
    kept = [(td["q"], td["r"]) for td in position["position"].get("tribes", [])]
    for md in markers_left:
        seen = next((m for m in reading.markers if m.marker == md["marker"]), None)
        place = UnsurePlace(T("the {marker} marker read at {q},{r}, by no tribe the table's position keeps",
                              marker=md["marker"], q=md["q"], r=md["r"]), T("not on the table"), base=dict(base))
        if seen is not None:
            near = sorted((float(np.linalg.norm(np.asarray(at[n]) - np.asarray(seen.mat_mm))), n) for n in kept if n in at)
            for d, (q, r) in [x for x in near if x[0] <= MARKER_REACH * side][:3]:
                alt = copy.deepcopy(position)
                alt["position"].setdefault("markers", []).append({"marker": md["marker"], "q": q, "r": r})
                place.possibilities.append(Possibility(T("by the tribe at {q},{r}", q=q, r=r), scores_of(score, alt),
                                                       T("the rules do not allow it there")))
        out.append(place)
    return out


@dataclass
class MarkerPlace(UnsurePlace):
    """An unsure place of a marker that may lie by the tribe at ``node``: ``kind`` says which doubt (:data:`DISC`, a
    disc the marker finder could not name; :data:`TOUCHING`, paint touching the tribe past its stack's outline), so
    that one doubt is not listed twice at a tribe whatever the sentence (the page's language) says."""

    kind: str = ""
    node: tuple[int, int] | None = None


#: the kinds of :class:`MarkerPlace`
DISC, TOUCHING = "disc", "touching"


def discs_unsure(doubtful: list[Any], position: dict[str, Any], score: Any,
                 base: Mapping[str, int]) -> list[UnsurePlace]:
    """The discs the marker finder saw by a tribe but could not name (``MarkerFinder.doubtful``: a marker's shape, its
    colour between two paints or no paint clearly, e.g. a green marker on green land at `hard`), each an unsure place:
    taken as no marker, and what each paint it may be, not read elsewhere, would change at its tribe."""
    tribes = {(td["q"], td["r"]) for td in position["position"].get("tribes", [])}
    out = []
    for m, may in doubtful:
        place = _marker_place(T("a disc by the tribe at {q},{r} (a marker, its colour unclear)", q=m.q, r=m.r),
                              (m.q, m.r), may, position, score, base, DISC) if (m.q, m.r) in tribes else None
        if place is not None:
            out.append(place)
    return out


#: a disc the marker finder could not name by a tribe whose height is known, where that tribe's pawn paint lies past
#: its stack's outline at that height, the two middles within a marker's width and the disc's nearest paint a marker of
#: that pawn paint, is read as that marker (:func:`agreed_markers`) and listed (:func:`agreed_unsure`)
AGREED_READ = True


def agreed_markers(doubtful: list[Any], touching: list[Any], position: dict[str, Any],
                   known: set[tuple[int, int]]) -> list[tuple[Any, list[str]]]:
    """The doubtful discs (``MarkerFinder.doubtful``: a marker's shape by a tribe, its colour between two paints or
    its nearest paint read elsewhere) that a second cue names: paint of a pawn colour past the outline of the stack
    beside it at the height the position gives it (``MarkerFinder.touching`` at that height; the height ``known``:
    read surely or given with ``--tribes``), its middle within a marker's width of the disc's, and the disc's first
    paint one of the markers that paint may be. A yellow marker against a yellow pawn at `hard` (photo bench seed 11
    table 2) read between orange, read elsewhere, and yellow: the disc and the paint past the pawn's outline agree on
    yellow. Each is added to the position's markers (at most one a colour); returns (the disc, the paints it was
    doubted between)."""
    import numpy as np

    from vision.sundamarkers import MARKER_MM

    height = {(td["q"], td["r"]): len(td["pawns"]) for td in position["position"].get("tribes", [])}
    markers = position["position"].setdefault("markers", [])
    out: list[tuple[Any, list[str]]] = []
    for m, may in doubtful:
        node = (m.q, m.r)
        if node not in height or node not in known or not may or any(md["marker"] == may[0] for md in markers):
            continue
        if any(node == (t.q, t.r) and n == height[node] and may[0] in tmay
               and float(np.linalg.norm(np.asarray(t.mat_mm) - np.asarray(m.mat_mm))) < MARKER_MM
               for t, tmay, n in touching):
            markers.append({"marker": may[0], "q": node[0], "r": node[1]})
            out.append((m, list(may)))
    return out


def agreed_unsure(agreed: list[tuple[Any, list[str]]], position: dict[str, Any], score: Any,
                  base: Mapping[str, int]) -> list[UnsurePlace]:
    """Each marker :func:`agreed_markers` read, an unsure place: taken as read, and what no marker there, or the
    other paint it was doubted between (not read elsewhere), would change."""
    out = []
    markers = position["position"].get("markers", [])
    for m, may in agreed:
        i = next((k for k, md in enumerate(markers) if (md["marker"], md["q"], md["r"]) == (may[0], m.q, m.r)), None)
        if i is None:       # taken out as by no tribe the position keeps (listed there)
            continue
        place = UnsurePlace(T("the {marker} marker read by the tribe at {q},{r}: a disc there, its paint past the "
                              "stack's outline", marker=may[0], q=m.q, r=m.r), T("the {marker} marker", marker=may[0]),
                            base=dict(base))
        alt = copy.deepcopy(position)
        alt["position"]["markers"].pop(i)
        place.possibilities.append(Possibility(T("no marker"), scores_of(score, alt), T("the rules do not allow it there")))
        read = {md["marker"] for md in markers}
        for colour in [c for c in may[1:] if c not in read]:
            other = copy.deepcopy(alt)
            other["position"]["markers"].append({"marker": colour, "q": m.q, "r": m.r})
            place.possibilities.append(Possibility(T("the {marker} marker", marker=colour), scores_of(score, other),
                                                   T("the rules do not allow it there")))
        out.append(place)
    return out


def crowded_unsure(crowded: list[Any], position: dict[str, Any], score: Any, base: Mapping[str, int],
                   listed: list[UnsurePlace] = ()) -> list[UnsurePlace]:
    """The discs of a marker's paint and size the marker finder saw by a tribe but did not read, things crossing the
    ground round them (``MarkerFinder.crowded``: a faint blue marker by a piece's corner, cut lines over its ring, at
    photo bench seed 11 `hard` table 7, was dropped and the score silently wrong), each an unsure place: taken as no
    marker, and what each paint it may be, not read elsewhere, would change at its tribe. Not where ``listed`` has a
    disc by that tribe already."""
    tribes = {(td["q"], td["r"]) for td in position["position"].get("tribes", [])}
    out: list[UnsurePlace] = []
    for m, may in crowded:
        if (m.q, m.r) not in tribes or any(isinstance(p, MarkerPlace) and p.kind == DISC and p.node == (m.q, m.r)
                                           for p in list(listed) + out):
            continue
        place = _marker_place(T("a marker may lie by the tribe at {q},{r} (a disc of its paint, things crossing the "
                                "ground round it)", q=m.q, r=m.r), (m.q, m.r), may, position, score, base, DISC)
        if place is not None:
            out.append(place)
    return out


def _marker_place(where: Any, node: tuple[int, int], may: list[str], position: dict[str, Any], score: Any,
                  base: Mapping[str, int], kind: str) -> MarkerPlace | None:
    """An unsure place ``where`` of ``kind`` (:class:`MarkerPlace`): taken as no marker, and what each of the markers
    ``may`` (those not in the position already: each colour is one marker) would change by the tribe at ``node``;
    None when none is left."""
    read = {m["marker"] for m in position["position"].get("markers", [])}
    may = [c for c in may if c not in read]
    if not may:
        return None
    place = MarkerPlace(where, T("no marker"), base=dict(base), kind=kind, node=tuple(node))
    for colour in may:
        alt = copy.deepcopy(position)
        alt["position"].setdefault("markers", []).append({"marker": colour, "q": node[0], "r": node[1]})
        place.possibilities.append(Possibility(T("the {marker} marker", marker=colour), scores_of(score, alt),
                                               T("the rules do not allow it there")))
    return place


def touching_unsure(touching: list[Any], position: dict[str, Any], score: Any, base: Mapping[str, int],
                    listed: list[UnsurePlace] = (), tallest: Mapping[tuple[int, int], int] | None = None
                    ) -> list[UnsurePlace]:
    """Each tribe with pawn paint beyond its stack's outline at the height the position gives it
    (``MarkerFinder.touching``: a marker of that paint touching the stack is one blob with it and read as neither; at
    `hard` the reader read 3 of 12 such markers, the others silently not), an unsure place: taken as no marker, and
    what each marker of that paint not read elsewhere would change at that tribe. Not where ``listed`` (the places
    already listed) has a disc by that tribe. A tribe whose height is not known (``tallest``: asked and not given, its
    tallest possible height) is looked at as that tall: what a taller stack would show is no sign of a marker. A blob
    apart beside the tribe (height 0: ``vision.sunda.LONE_MM2``, a marker of a pawn's paint the marker finder's blob
    joined to the stacks round it) is listed whatever the tribe's height."""
    height = {(td["q"], td["r"]): len(td["pawns"]) for td in position["position"].get("tribes", [])}
    height.update({k: v for k, v in (tallest or {}).items() if k in height})
    out = []
    for m, may, n in touching:
        if (m.q, m.r) not in height or (n and height[(m.q, m.r)] != n) or any(
                isinstance(p, MarkerPlace) and p.kind in (DISC, TOUCHING) and p.node == (m.q, m.r)
                for p in list(listed) + out):
            continue
        where = (T("paint touching the tribe at {q},{r}, past its stack's outline (a marker, perhaps)", q=m.q, r=m.r)
                 if n else T("a blob of a marker's paint and size by the tribe at {q},{r}, read as no marker",
                             q=m.q, r=m.r))
        place = _marker_place(where, (m.q, m.r), may, position, score, base, TOUCHING)
        if place is not None:
            out.append(place)
    return out


#: the markers read by their paint alone (``MarkerFinder.by_paint``) are listed as unsure (:func:`painted_unsure`)
PAINT_UNSURE = True


def painted_unsure(by_paint: list[Any], position: dict[str, Any], score: Any,
                   base: Mapping[str, int]) -> list[UnsurePlace]:
    """Each marker of the position the marker finder read by its paint alone (``MarkerFinder.by_paint``: a faint
    disc on the land's own colour, found where the colour and disc passes found none), an unsure place: taken as read,
    and what no marker there would change. The land's own patches and the colour the JPEG smears round a stack pass
    for a faint green marker at times (photo bench seed 15 `hard` table 4, seed 16 `default` 1 and `hard` 0: read
    where none lies, the scores 8 points off with nothing unsure)."""
    out = []
    markers = position["position"].get("markers", [])
    for m in by_paint:
        i = next((k for k, md in enumerate(markers) if (md["marker"], md["q"], md["r"]) == (m.marker, m.q, m.r)), None)
        if i is None:
            continue
        alt = copy.deepcopy(position)
        alt["position"]["markers"].pop(i)
        place = UnsurePlace(T("the {marker} marker read by the tribe at {q},{r} by its paint alone (a faint disc)",
                              marker=m.marker, q=m.q, r=m.r), T("the {marker} marker", marker=m.marker),
                            base=dict(base))
        place.possibilities.append(Possibility(T("no marker"), scores_of(score, alt),
                                               T("the rules do not allow it there")))
        out.append(place)
    return out


#: the reader's note on a piece the set's prints leave open (vision.sundaset: the ring read is none of the set's, and
#: two prints are as near it; the first is taken)
SET_CHOICE = "piece at {q},{r}: read {ring}, the set has {first} or {second}"


def prints_unsure(notes: list[Any], position: dict[str, Any], score: Any, base: Mapping[str, int]) -> list[UnsurePlace]:
    """Each piece the reader took as one of two of the set's prints equally near what it read (its note
    :data:`SET_CHOICE`), an unsure place: taken as the first, and what the other would change (a misread slot moves
    a coast, an island's size or its completion: seed 4 `hard` table 4 at the photo bench scored 8 points apart,
    said only as a note). The position's piece is the one at that point read as the first."""
    out = []
    pieces = position["position"]["pieces"]
    for note in notes:
        if getattr(note, "msgid", None) != SET_CHOICE:
            continue
        q, r, first, second = (note.params[k] for k in ("q", "r", "first", "second"))
        i = next((k for k, pd in enumerate(pieces) if (pd["q"], pd["r"]) == (q, r)
                  and pd["sides"].replace(" ", "") == first), None)
        if i is None:       # left out as a misread, or made land under a tribe (said already)
            continue
        taken = pieces[i]["sides"]
        alt = copy.deepcopy(position)
        other = alt["position"]["pieces"][i]
        other["sides"] = " ".join(second[3 * k:3 * k + 3] for k in range(4))
        runs = sum(1 for k in range(12) if second[k] == "L" and second[k - 1] == "W")
        if runs < 2:
            other.pop("join", None)    # a join joins two runs of land
        place = UnsurePlace(T("the piece at {q},{r} turn {turn}", q=q, r=r, turn=pieces[i]["turn"]), taken,
                            base=dict(base))
        place.possibilities.append(Possibility(other["sides"], scores_of(score, alt),
                                               T("its sides would not continue its neighbours'")))
        out.append(place)
    return out


#: at most this many pieces or tribes are left out to make the reading a position the rules allow
MOST_LEFT_OUT = 6
#: a piece refused for a side that does not continue its neighbour's, with a tribe at one of its corners, is first
#: read again with the land made round that tribe (its pawns hide the slots beside the node: :func:`consistent`)
REPAIR_HIDDEN = True


def land_under(position: dict[str, Any], node: tuple[int, int]) -> list[Any]:
    """Each piece with a corner at ``node`` made land on both slots beside that corner (a tribe stands there: the
    rules put pawns on land); returns what was changed, said (empty: nothing to change)."""
    from vision.sunda import corners_of

    changed: list[Any] = []
    for pd in position["position"]["pieces"]:
        corners = corners_of(pd["q"], pd["r"], pd["turn"])
        if node not in corners:
            continue
        k = corners.index(node)
        ring = list(pd["sides"].replace(" ", ""))
        slots = [(3 * k - 1) % 12, 3 * k]
        if all(ring[i] == "L" for i in slots):
            continue
        for i in slots:
            ring[i] = "L"
        sides = " ".join("".join(ring[3 * j:3 * j + 3]) for j in range(4))
        changed.append(T("the piece at {q},{r} turn {turn} read {read}, taken as {sides}", q=pd["q"], r=pd["r"],
                         turn=pd["turn"], read=pd["sides"], sides=sides))
        pd["sides"] = sides
    return changed


def covered_round(position: dict[str, Any], node: tuple[int, int]) -> int:
    """How many of the six unit triangles round the lattice point ``node`` the position's pieces cover (6: a node,
    where the rules let a tribe stand; fewer: the cloth shows by it)."""
    from .games.sunda.lattice import triangles, triangles_at

    around = set(triangles_at(node))
    pieces = position["position"]["pieces"]
    return sum(len(around.intersection(triangles(pd["q"], pd["r"], pd["turn"]))) for pd in pieces)


def is_print(sides: str, prints: Any) -> bool:
    """A piece's sides as read (12 slots from ``c0``) are one of the set's ``prints`` (rings), anchored at either acute
    corner (a rhombus turned half round is the same piece)."""
    ring = sides.replace(" ", "")
    return ring in prints or ring[6:] + ring[:6] in prints


@dataclass
class DoubtedTribe:
    """A tribe the reading puts where the rules allow none (on no land node), as :func:`consistent` resolved it:
    ``kept`` (the land under it made; ``read``: each piece's sides as read, by placement) or left out."""

    tribe: dict[str, Any]
    kept: bool
    read: dict[tuple[int, int, int], str] = field(default_factory=dict)
    #: the tribe stood on a land node, and a piece at it was refused: the land its pawns hide was made
    hidden: bool = False


def consistent(position: dict[str, Any], score: Any, depth: int = 0,
               markers_left: list[dict[str, Any]] | None = None,
               doubted: list[DoubtedTribe] | None = None, prints: Any = None) -> tuple[Any, list[Any]]:
    """The scores of ``position`` made consistent with the rules. A tribe on no land node is one doubtful node, never
    a refused photo: on a node (six triangles covered, :func:`covered_round`) the pieces round it are taken as land
    there (a pawn stands on land; said) when each piece so made is one of the set's ``prints`` (rings; ``None``: no
    set known) and that makes a position the rules allow; else (the point not surrounded by pieces, or land there
    that no piece of the set has: a blob of pawn paint where water meets the cloth, sunda-vision bench seed 5 `hard`
    tables 2 and 5, photo bench seed 5 `hard` table 4) the tribe is left out (said). Each
    such tribe is added to ``doubted`` (:class:`DoubtedTribe`: the caller lists it as unsure, with what the other way
    would change). A piece whose sides do not continue its neighbour's with a tribe at one of its corners is first
    taken with the land made round that tribe, as above (the pawns hide the slots beside their node: photo bench seed
    7 `default` table 0, a slot under a red stack of 3 read water; listed as unsure the same way). A piece whose sides
    do not continue its neighbour's (a side misread) is otherwise left out (said) and the rest scored again; at most :data:`MOST_LEFT_OUT`, then the scorer's own line. A resource marker the scorer
    refuses (read by no tribe: its tribe was left out or not found) is taken out and added to ``markers_left`` (the
    caller lists it as unsure, with what each tribe near it would change), never a refusal of the photo.
    ``position`` is updated."""
    import re

    from vision.sunda import corners_of

    from .games.sunda.position import PositionError

    left: list[Any] = []
    while True:
        try:
            return score(position), left
        except PositionError as exc:
            m = re.search(r"position\.(pieces|tribes|markers)\[(\d+)\]", str(exc))
            if m is not None and m.group(1) == "markers" and markers_left is not None:
                markers_left.append(position["position"]["markers"].pop(int(m.group(2))))
                continue
            if m is None or m.group(1) == "markers" or len(left) >= MOST_LEFT_OUT:
                raise
            kind, i = m.group(1), int(m.group(2))
            item = position["position"][kind][i]
            on_water = kind == "tribes" and "not a land node" in str(exc)
            if on_water:
                nodes = [(item["q"], item["r"])]
            elif REPAIR_HIDDEN and kind == "pieces" and "does not continue" in str(exc):
                # a tribe at one of its corners hides the slots beside it (a stack stands on the node): the land a
                # pawn stands on there may be what the camera did not see (photo bench seed 7 `default` table 0)
                corners = set(corners_of(item["q"], item["r"], item["turn"]))
                nodes = [(td["q"], td["r"]) for td in position["position"].get("tribes", [])
                         if (td["q"], td["r"]) in corners]
            else:
                nodes = []
            for node in nodes if depth < MOST_LEFT_OUT else []:
                repaired = _land_repair(position, node, score, depth, markers_left, prints)
                if repaired is not None:
                    result, said, more_doubted, read = repaired
                    if doubted is not None:
                        tribe = next(td for td in position["position"]["tribes"] if (td["q"], td["r"]) == node)
                        doubted.append(DoubtedTribe(dict(tribe), True, read, hidden=not on_water))
                        doubted.extend(more_doubted)
                    return result, left + said
            position["position"][kind].pop(i)
            what = (T("the piece at {q},{r} turn {turn} ({sides})", q=item["q"], r=item["r"], turn=item["turn"],
                      sides=item["sides"]) if kind == "pieces" else
                    T("the tribe at {q},{r}", q=item["q"], r=item["r"]))
            why = str(exc).split(": ", 2)[-1]
            if on_water and doubted is not None:
                doubted.append(DoubtedTribe(dict(item), False))
            left.append(T("left out: {what}: {why} (the camera misread it or a neighbour; check it)", what=what,
                          why=why))



def _land_repair(position: dict[str, Any], node: tuple[int, int], score: Any, depth: int,
                 markers_left: list[dict[str, Any]] | None, prints: Any) -> tuple[Any, list[Any], list[Any], dict] | None:
    """The position with land made round the tribe at ``node`` (:func:`land_under`: a pawn stands on land), scored
    consistent, when ``node`` is surrounded by pieces (:func:`covered_round`), something changes, every piece so made
    is one of the set's ``prints`` and the rules then allow it: (scores, what was said, the tribes doubted on the way,
    each piece's sides as read by placement); ``position`` is updated. None (``position`` untouched) otherwise."""
    from .games.sunda.position import PositionError

    if covered_round(position, node) != 6:
        return None
    trial = copy.deepcopy(position)
    changed = land_under(trial, node)
    made = [pd["sides"] for pd, was in zip(trial["position"]["pieces"], position["position"]["pieces"])
            if pd["sides"] != was["sides"]]
    if not changed or (prints is not None and not all(is_print(sides, prints) for sides in made)):
        return None
    more_doubted: list[DoubtedTribe] = []
    more_markers: list[dict[str, Any]] = []
    try:
        result, more = consistent(trial, score, depth + 1, more_markers, more_doubted, prints)
    except PositionError:
        return None
    if markers_left is not None:
        markers_left.extend(more_markers)
    read = {(pd["q"], pd["r"], pd["turn"]): pd["sides"] for pd in position["position"]["pieces"]}
    position.clear()
    position.update(trial)
    said = [T("repaired: a tribe stands at {q},{r}, so the land there: {what}", q=node[0], r=node[1], what=c)
            for c in changed]
    return result, said + more, more_doubted, read


def seen_round(reading: Any) -> Any:
    """Lattice point -> whether the reader saw its six triangles covered (``SundaReading.covered``, and the triangles
    it found covered with no second half of a piece: its notes), whether or not the position keeps those pieces."""
    from vision.sunda import DIRS, _triangle_of, triangle_of

    seen = set(getattr(reading, "covered", None) or {}) | {
        t for t in map(_triangle_of, getattr(reading, "unsure", []) or []) if t is not None}

    def round_(node: tuple[int, int]) -> bool:
        q, r = node
        return all(triangle_of((q, r), (q + d[0], r + d[1]), (q + e[0], r + e[1])) in seen
                   for d, e in zip(DIRS, DIRS[1:] + DIRS[:1]))
    return round_


#: a tribe left out where the position's pieces do not surround its node but the reader saw pieces all round it (a
#: piece not found, or left out as misread) is offered with its own points as on an incomplete island
#: (:func:`tribes_unsure`; photo bench seed 13 `hard` table 8: two tribes of one pawn each, 1 point each, silent)
UNREAD_ROUND = True


def own_points(tribe: Mapping[str, Any], options: Mapping[str, Any] | None) -> dict[str, int]:
    """A tribe's own final points by the rules (tablehub.games.sunda.engine ``finish``) on an incomplete island that
    is no lake's: each owner's pawns times the tribe's size (``tribes``), else times 1."""
    pawns = list(tribe["pawns"])
    each = len(pawns) if (options or {}).get("tribes") else 1
    return {p: pawns.count(p) * each for p in dict.fromkeys(pawns)}


def tribes_unsure(doubted: list[DoubtedTribe], position: dict[str, Any], score: Any,
                  base: Mapping[str, int], seen: Any = None, options: Mapping[str, Any] | None = None
                  ) -> list[UnsurePlace]:
    """Each tribe :func:`consistent` found on no land node, an unsure place: as taken, and what the other way would
    change. Kept (the land under it made): without the tribe, the pieces as read. Left out: the tribe there with the
    land under it made (``cannot be`` where the rules still refuse it, e.g. the point is not surrounded by pieces;
    where the reader saw pieces all round it, ``seen``: :func:`seen_round`, which the position lacks, its own points
    as on an incomplete island, :data:`UNREAD_ROUND`)."""
    out = []
    for d in doubted:
        t = d.tribe
        alt = copy.deepcopy(position)
        tribes = alt["position"]["tribes"]
        if d.kept:
            alt["position"]["tribes"] = [td for td in tribes if (td["q"], td["r"]) != (t["q"], t["r"])]
            alt["position"]["markers"] = [md for md in alt["position"].get("markers", [])
                                          if (md["q"], md["r"]) != (t["q"], t["r"])]
            for pd in alt["position"]["pieces"]:
                pd["sides"] = d.read.get((pd["q"], pd["r"], pd["turn"]), pd["sides"])
            taken, other = T("a tribe on land there"), T("no tribe, the pieces as read")
        else:
            tribes.append(copy.deepcopy(t))
            land_under(alt, (t["q"], t["r"]))
            taken, other = T("not on the table"), T("a tribe there, on land")
        where = (T("the land under the tribe at {q},{r}, hidden by its pawns", q=t["q"], r=t["r"]) if d.hidden else
                 T("the tribe read at {q},{r} on no land node", q=t["q"], r=t["r"]))
        place = UnsurePlace(where, taken, base=dict(base))
        scores = scores_of(score, alt)
        node = (t["q"], t["r"])
        if (scores is None and not d.kept and UNREAD_ROUND and seen is not None and seen(node)
                and covered_round(position, node) < 6):
            other = T("a tribe there, on land (the pieces round it not all read: its own points, as on an incomplete "
                      "island)")
            scores = dict(base)
            for who, pts in own_points(t, options).items():
                scores[who] = scores.get(who, 0) + pts
        place.possibilities.append(Possibility(other, scores, T("the rules do not allow it there")))
        out.append(place)
    return out


def score_args(args: Any, lens: Any) -> PositionPhoto:
    """``tablehub score --photo IMG --game sunda [--refs DIR --mat MAT --players ... --tribes ... --levels ...]``."""
    from .photo import load_frame
    from .photo_position import refuse_others
    from .photoscore import parse_names

    refuse_others(args, "sunda", ("tribes", "levels"))
    names = parse_names(args.players)
    tribes = parse_tribes(args.tribes)
    options = parse_levels(args.levels)
    reader = load_reader(args.refs, args.mat, lens)
    frame = load_frame(args.photo)
    return score_sunda(reader, frame, str(args.photo), names, tribes, options)


def score_upload(frame: Any, game: str, refs: Any, lens: Any, names: Mapping[str, str] | None,
                 given: Mapping[str, Any]) -> PositionPhoto:
    """The page's upload (``POST /api/photoscore``): ``given`` holds ``tribes`` and ``levels`` as the command line
    gives them."""
    from .photo_position import upload_text

    from .photo_position import lens_for_upload

    tribes = parse_tribes(upload_text(given, "tribes"))
    options = parse_levels(upload_text(given, "levels"))
    folder = Path(refs) if refs else DEFAULT_REFS
    reader = load_reader(folder, None, lens_for_upload(frame, lens, folder))
    return score_sunda(reader, frame, "photo", names, tribes, options)
