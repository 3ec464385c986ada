"""A finished Tahiti or Karibik table scored from one photo (``tablehub score --photo IMG --game tahiti|karibik``).

The photo is read by the board camera (:mod:`tablehub.tracking.boardcam`: the references ``tablehub boardcam
enrol-board`` / ``enrol-pieces`` wrote, the board registered afresh, every piece found by its look and space).

**Tahiti** (docs/tahiti.md "Scoring from a photo"): a player scores the dollars in their vault and their share of
the pearl banks. The board shows the banks: every boat on the map, its owner by its colour (seat order: red,
yellow, violet, green) and its pearl (read at the boat's middle: :mod:`vision.pearls`). The vaults are not on the
board: ``--vaults red=12,yellow=7`` (default 0, said). The position is scored by the engine's
``Tahiti.score_position``. A boat whose pearl or owner the camera is unsure of is listed with what each possibility
would change; a piece the camera found between cells is left out and said.

**Karibik** (docs/karibik.md "Scoring from a photo"): the richest player wins, and the money is the doubloons each
player holds (the seed: every doubloon earned stays in view in front of its owner), not on the board: a photo of
the board cannot show any of the score. The board shows the chests: face down on their towns (safeguarded, out of
play), face up on the towns, aboard the ships (still in play). The scores are the ``--money`` given; the photo
says what is on the board and whether the game can be over by the rules (no chest left in play, or the money
given reaching the players' threshold).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from .games.base import PositionResult, TablehubError
from .i18n import T, Tn, reason
from .photo_position import (PhotoPositionError, Possibility, PositionPhoto, UnsurePlace, by_name, parse_pairs,
                             players_by_colour, refuse_others, scores_of, upload_text, whole_at_least_0)


def load_recognizer(game: str, refs: str | Path | None, lens: Any = None) -> Any:
    """``game``'s board recognizer from the references in ``refs`` (default ``refs/GAME``); one line saying which
    commands enrol them when the folder has none."""
    from .tracking.boardcam import META, PIECES
    from .tracking.boardcam import load_recognizer as load

    folder = Path(refs) if refs else Path("refs") / game
    if not (folder / META).is_file() or not (folder / PIECES).is_file():
        raise PhotoPositionError(T("--refs {folder}: no {game} board and pieces enrolled there; enrol them first "
                                   "('tablehub boardcam enrol-board PHOTO --game {game} --out {folder}', then "
                                   "'tablehub boardcam enrol-pieces PHOTO --refs {folder} --at ...', docs/boardcam.md)",
                                   folder=str(folder), game=game))
    try:
        rec = load(game, folder, lens=lens or None)
    except TablehubError as exc:
        where = "--refs " + str(folder)
        raise PhotoPositionError(T("{source}: {why}", source=where, why=reason(exc))) from None
    if lens is False:  # --lens none: not even the one kept with the references
        rec.tracker.registrar.lens = None
    return rec


def read_board(rec: Any, frame: Any, source: str) -> tuple[Any, Any]:
    """The board's pieces read from scratch (``vision.boardwatch``'s full read) and the straightened board in the
    empty board's light; one line naming the photo when the board is not found."""
    from vision.boardpieces import match_light

    rec.reset()
    reading = rec.watch.read(frame)
    last = rec.watch.last
    if last is None:
        raise PhotoPositionError(T("{source}: {why}", source=source, why=reading.note or T("the board is not found")))
    ref = rec.watch.ref
    canvas = match_light(last.registration.canvas(frame, ref.ppm, ref.size_mm), ref.canvas, gain=last.gain)
    return reading, canvas


# --------------------------------------------------------------------------- Tahiti


def tahiti_players(names: Mapping[str, str] | None, colours_seen: list[str]) -> dict[str, str]:
    """Boat colour -> player name: ``--players red=Ana,...`` in its order, else each colour seen capitalised, in
    seat order."""
    from .games.tahiti.camera import COLOURS

    return players_by_colour(names, list(COLOURS), set(colours_seen), lambda bad: T(
        "--players: {bad} is not a Tahiti boat colour (expected {colours})", bad=bad, colours=", ".join(COLOURS)))


def score_tahiti(rec: Any, frame: Any, source: str = "photo", names: Mapping[str, str] | None = None,
                 vaults: Mapping[str, int] | None = None) -> PositionPhoto:
    """The photo read and scored (module docstring)."""
    from vision.pearls import lab_canvas, read_pearl

    from .games.tahiti.camera import ISLAND, TRACK0, cell_of
    from .games.tahiti.scoring import score_position

    reading, canvas = read_board(rec, frame, source)
    lab = lab_canvas(canvas)
    ppm = rec.watch.ref.ppm
    boats: list[dict[str, Any]] = []   # cell, colour (or candidates), pearl (or candidates)
    notes: list[Any] = []
    on_track = 0
    for p in reading.pieces:
        looks = [p.name] if p.name else [c for c in p.candidates if isinstance(c, str)]
        boat_looks = [lk for lk in looks if lk.endswith(" boat")]
        if p.space is None:
            cells = [c for c in p.candidates if isinstance(c, int) and c < TRACK0 and c != ISLAND]
            if boat_looks and cells:
                notes.append(T("a {look} between cells {cells} left out (put it inside one cell and photograph the "
                               "table again)", look=boat_looks[0], cells=" ".join(cell_of(c) or "?" for c in cells)))
            continue
        if p.space >= TRACK0 or p.space == ISLAND:
            on_track += 1
            continue
        if not boat_looks:
            notes.append(T("a piece on {cell} that is no boat ({what}) left out", cell=cell_of(p.space),
                           what=p.name or p.unsure or "?"))
            continue
        seen = read_pearl(lab, p.x_mm, p.y_mm, ppm)
        boats.append({"cell": cell_of(p.space), "colours": [lk.split(" ")[0] for lk in boat_looks],
                      "pearls": list(seen.candidates), "pearl_sure": seen.pearl is not None,
                      "owner_sure": p.name is not None and not p.unsure, "why": seen.why, "lab": seen.lab})
    seen_cells: dict[str, dict[str, Any]] = {}
    for b in boats:
        if b["cell"] in seen_cells:
            notes.append(T("two boats read on {cell}: one left out", cell=b["cell"]))
            continue
        seen_cells[b["cell"]] = b
    boats = list(seen_cells.values())
    from .games.tahiti.camera import COLOURS

    named = [k.lower() for k in (vaults or {}) if k.lower() in COLOURS]   # a player with no boat but a vault
    players = tahiti_players(names, [c for b in boats for c in b["colours"][:1]] + named)
    for b in boats:
        b["colours"] = [c for c in b["colours"] if c in players] or b["colours"]
        if b["colours"][0] not in players:
            raise PhotoPositionError(T("{source}: a {colour} boat on {cell}, but --players names no {colour} player",
                                       source=source, colour=b["colours"][0], cell=b["cell"]))
    order = list(dict.fromkeys(players.values()))
    given = by_name(dict(vaults or {}), players, order, "--vaults")

    chosen: dict[str, tuple[str, str]] = {b["cell"]: (b["colours"][0], b["pearls"][0]) for b in boats}

    def position(choice: Mapping[str, tuple[str, str]] | None = None) -> dict[str, Any]:
        out = []
        for b in boats:
            colour, pearl = {**chosen, **(choice or {})}[b["cell"]]
            out.append({"cell": b["cell"], "owner": players[colour], "pearl": pearl})
        return {"game": "tahiti", "players": order,
                "position": {"boats": out, "vaults": {p: given.get(p, 0) for p in order}}}

    def score(pos: dict[str, Any]) -> PositionResult:
        return score_position(pos, source)

    result, base_pos = consistent_tahiti(boats, chosen, position, score, notes)
    base = dict(result.scores)
    unsure = []
    for b in boats:
        if b["pearl_sure"] and b["owner_sure"] and len(b["colours"]) == 1:
            continue
        colour, pearl = chosen[b["cell"]]
        place = UnsurePlace(T("the boat on {cell}", cell=b["cell"]),
                            T("{colour} with a {pearl} pearl", colour=colour, pearl=pearl), base=base)
        for c in b["colours"]:
            for pe in b["pearls"] if not b["pearl_sure"] else [pearl]:
                if (c, pe) == (colour, pearl):
                    continue
                place.possibilities.append(Possibility(T("{colour} with a {pearl} pearl", colour=c, pearl=pe),
                                                       scores_of(score, position({b["cell"]: (c, pe)})),
                                                       T("more boats or pearls than the game has")))
        unsure.append(place)
    seen = [T("read from {source}: {boats} on the map, {others} on the track and the island", source=source,
              boats=Tn("{n} boat", "{n} boats", len(boats)), others=on_track)]
    out_given = [T("the vaults (--vaults): {vaults}", vaults=", ".join(f"{p} {given.get(p, 0)} $" for p in order))] \
        if given else []
    not_read = [T("the dollars in the vaults (give them with --vaults red=12,yellow=7; taken as 0)")] if not given \
        else []
    return PositionPhoto("tahiti", base_pos, result, unsure, out_given, not_read, notes, seen)


def consistent_tahiti(boats: list[dict[str, Any]], chosen: dict[str, tuple[str, str]], position: Any, score: Any,
                      notes: list[Any]) -> tuple[PositionResult, dict[str, Any]]:
    """The boats made a position the rules allow: where a pearl colour is read more often than the game has it, the
    boat of that pearl the camera was least sure of is taken as its next likeliest pearl (said); with none unsure,
    the boat the scorer names is left out (said). ``chosen`` (cell -> colour, pearl) and ``boats`` are updated."""
    import re

    from .games.tahiti.scoring import PositionError

    tried = {cell: 0 for cell in chosen}
    for _ in range(len(boats) + 1):
        pos = position()
        try:
            return score(pos), pos
        except PositionError as exc:
            m = re.search(r"position\.boats\[(\d+)\]", str(exc))
            over = next((p for p in ("green", "white", "black", "blue") if f" {p} pearls" in str(exc)), None)
            if m is None:
                raise
            maybe = [b for b in boats if over and chosen[b["cell"]][1] == over and not b["pearl_sure"]
                     and tried[b["cell"]] + 1 < len(b["pearls"])]
            if not maybe and over:   # none unsure: the one read with that pearl nearest another (vision.pearls)
                from vision.pearls import nearest_other

                sure = [b for b in boats if chosen[b["cell"]][1] == over and not b.get("switched")]
                if sure:
                    b = min(sure, key=lambda b: nearest_other(*b["lab"], over)[1])
                    b["switched"] = True
                    b["pearls"] = [over, nearest_other(*b["lab"], over)[0]]
                    b["pearl_sure"] = False
                    tried[b["cell"]] = 0
                    maybe = [b]
            if maybe:
                b = maybe[0]
                tried[b["cell"]] += 1
                before = chosen[b["cell"]][1]
                chosen[b["cell"]] = (chosen[b["cell"]][0], b["pearls"][tried[b["cell"]]])
                notes.append(T("repaired: the boat on {cell} read with a {pearl} pearl, one more than the game has: "
                               "taken as {other}", cell=b["cell"], pearl=before, other=chosen[b["cell"]][1]))
                continue
            gone = boats.pop(int(m.group(1)))
            notes.append(T("left out: the boat on {cell}: {why}", cell=gone["cell"], why=str(exc).split(": ", 2)[-1]))
    raise PhotoPositionError(T("the boats read cannot be a Tahiti position"))


# --------------------------------------------------------------------------- the command line and the page


def score_args(args: Any, lens: Any) -> PositionPhoto:
    """``tablehub score --photo IMG --game tahiti|karibik [--refs DIR --players ... --vaults ... | --money ...]``."""
    from .photo import load_frame
    from .photoscore import parse_names

    if args.game == "tahiti":
        refuse_others(args, "tahiti", ("vaults",))
        names = parse_names(args.players)
        vaults = parse_pairs(args.vaults, "--vaults", "red=12,yellow=7", whole_at_least_0)
        rec = load_recognizer("tahiti", args.refs, lens)
        return score_tahiti(rec, load_frame(args.photo), str(args.photo), names, vaults)
    refuse_others(args, "karibik", ("money",))
    names = parse_names(args.players)
    money = parse_pairs(args.money, "--money", "red=34000,yellow=21000", whole_at_least_0)
    need_money(money)
    rec = load_recognizer("karibik", args.refs, lens)
    return score_karibik(rec, load_frame(args.photo), str(args.photo), names, money)


def score_upload(frame: Any, game: str, refs: Any, lens: Any, names: Mapping[str, str] | None,
                 given: Mapping[str, Any]) -> PositionPhoto:
    """The page's upload (``POST /api/photoscore``): ``given`` holds ``vaults`` (Tahiti) or ``money`` (Karibik) as the
    command line gives them."""
    from .photo_position import lens_for_upload

    folder = Path(refs) if refs else Path("refs") / game
    if game == "tahiti":
        vaults = parse_pairs(upload_text(given, "vaults"), "vaults", "red=12,yellow=7", whole_at_least_0)
        rec = load_recognizer(game, folder, lens_for_upload(frame, lens, folder))
        return score_tahiti(rec, frame, "photo", names, vaults)
    money = parse_pairs(upload_text(given, "money"), "money", "red=34000,yellow=21000", whole_at_least_0)
    need_money(money)
    rec = load_recognizer(game, folder, lens_for_upload(frame, lens, folder))
    return score_karibik(rec, frame, "photo", names, money)


# --------------------------------------------------------------------------- Karibik


def need_money(money: Mapping[str, int] | None) -> None:
    if not money:
        raise PhotoPositionError(T("--money: a Karibik score is the doubloons in front of the players, which a photo "
                                   "of the board does not show; give them, e.g. --money red=34000,yellow=21000 "
                                   "(docs/karibik.md)"))


def score_karibik(rec: Any, frame: Any, source: str = "photo", names: Mapping[str, str] | None = None,
                  money: Mapping[str, int] | None = None) -> PositionPhoto:
    """The board read and the money given (module docstring): the scores are the doubloons given, the photo says
    what lies on the board and whether the game can be over by the rules."""
    from vision import VisionError

    from .games.karibik.engine import THRESHOLDS

    need_money(money)
    players = dict(names or {}) or {k: k for k in money}
    order = list(dict.fromkeys(players.values()))
    given = by_name(dict(money), {k.lower(): v for k, v in players.items()}, order, "--money")
    if len(order) not in THRESHOLDS:
        raise PhotoPositionError(T("--money: Karibik is played by 2 to 4 players, got {n}", n=len(order)))
    rec.reset()
    try:
        seen = rec(frame)
    except VisionError as exc:
        raise PhotoPositionError(T("{source}: {why}", source=source, why=reason(exc))) from None
    chests = seen.extras.get("chests")
    ships = {n: s for n, s in seen.pieces.items() if not n.startswith("chest")}
    where = [f"{n} {s}" if s is not None else f"{n} ?" for n, s in sorted(ships.items())]
    lines: list[Any] = [T("{player}: {doubloons} doubloons (given with --money)", player=p, doubloons=given.get(p, 0))
                        for p in order]
    scores = {p: given.get(p, 0) for p in order}
    best = max(scores.values())
    winners = [p for p in order if scores[p] == best]
    lines.append(T("Totals: {totals} ({winners} wins)", totals=", ".join(f"{p} {n}" for p, n in scores.items()),
                   winners=" & ".join(winners)))
    out_seen: list[Any] = [T("read from {source}: ships on spaces {ships}", source=source, ships=", ".join(where))]
    notes: list[Any] = []
    in_play = None
    if chests is None:
        notes.append(T("the chests are not read (their values are not enrolled: 'tablehub boardcam enrol-chests')"))
    else:
        up = [v for cs in chests.spaces.values() for f, v in cs if f == "up"]
        down = sum(1 for cs in chests.spaces.values() for f, _ in cs if f == "down")
        laden = {n: v for n, v in chests.aboard.items() if v != 0}
        in_play = len(up) + len(laden)
        out_seen.append(T("chests: {down} face down on their towns (safeguarded), {up} face up on the towns, {aboard} "
                          "aboard ships", down=down, up=len(up), aboard=len(laden)))
        notes += [T("the camera is unsure of {what}", what=u) for u in chests.unsure]
    threshold = THRESHOLDS[len(order)]
    if best < threshold and in_play:
        notes.append(T("by the rules the game is not over: nobody has {threshold} doubloons and {n} chests are still "
                       "in play", threshold=threshold, n=in_play))
    result = PositionResult(scores, [], lines)
    position = {"game": "karibik", "players": order, "money": scores, "ships": ships}
    not_read = [T("the doubloons in front of the players (the whole score: given with --money); which hideout "
                  "safeguarded which chest")]
    return PositionPhoto("karibik", position, result, [], [T("the money (--money)")], not_read, notes, out_seen)


__all__ = ["load_recognizer", "read_board", "score_tahiti", "score_karibik", "score_args", "score_upload"]
