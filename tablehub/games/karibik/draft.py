"""The owner's corrections to a traced Karibik board (the phone's "Trace the board" screen).

A draft is the board file that ``tablehub board trace`` writes (:func:`.board.draft_board`:
spaces with polygons and centres, adjacency, empty towns/hideouts/skulls/piles, a ``draft``
line). :func:`apply` makes one correction, as the page sends it, and returns the new draft
and a line saying what changed; a wrong request is one :class:`DraftError` line naming the
field. :func:`finished` turns the draft into a board file (checked by the same loader the
engine uses, so the owner reads the loader's own one-line errors); :func:`problem` says what
still stops it.

Operations (``{"op": ..., fields}``):

- ``merge`` ``spaces: [a, b]``: two touching spaces become one (``a`` keeps its id and marks);
- ``split`` ``space``, optional ``line: [[x, y], [x, y]]`` (mm): one space becomes two along
  that line, by default across its longer axis through its centre; the new part gets the next
  free id, and each part keeps the old neighbours it faces;
- ``link`` / ``unlink`` ``spaces: [a, b]``: add or remove an adjacent pair;
- ``port`` ``space, name, chest`` (optional ``at: [x, y]``): the space is the port of a town;
- ``hideout`` ``space, colour``; ``skull`` ``space``; ``clear`` ``space``: its marks removed;
- ``pile`` ``at: [x, y]``: a chest pile lies there; ``unpile`` ``index``.

Geometry (unions, cuts, contacts) is :mod:`vision.board_edit`'s; the rules of what a board
needs are :func:`.board.board_from_dict`'s.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from ...i18n import T, Tc, Text, join, reason
from ..base import SetupError
from .board import CHEST_MAX, CHEST_MIN, PILES, BoardError, board_from_dict, colour_word

#: two spaces facing each other over at least this length (mm) are adjacent (as the tracer says)
MIN_CONTACT_MM = 4.0
MAX_NAME = 40
OPS = ("merge", "split", "link", "unlink", "port", "hideout", "skull", "clear", "pile", "unpile")


class DraftError(SetupError):
    """A correction that cannot be made: one line naming the field."""


# --------------------------------------------------------------------------- reading the request


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _space(draft: Mapping[str, Any], value: Any, field: str) -> int:
    if not _int(value) or value not in _by_id(draft):
        raise DraftError(T("'{field}' must be the number of a space of the draft, got {value}", field=field,
                           value=_short(value)))
    return value


def _pair(draft: Mapping[str, Any], value: Any, field: str = "spaces") -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise DraftError(T("'{field}' must list two space numbers [a, b], got {value}", field=field,
                           value=_short(value)))
    a, b = (_space(draft, v, f"{field}[{i}]") for i, v in enumerate(value))
    if a == b:
        raise DraftError(T("'{field}' names space {space} twice: choose two different spaces", field=field, space=a))
    return a, b


def _point(draft: Mapping[str, Any], value: Any, field: str) -> tuple[float, float]:
    w, h = draft["size_mm"]
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            or not (0 <= value[0] <= w and 0 <= value[1] <= h)):
        raise DraftError(T("'{field}' must be a point [x, y] on the board (0-{width} x 0-{height} mm), got {value}",
                           field=field, width=format(w, "g"), height=format(h, "g"), value=_short(value)))
    return round(float(value[0]), 1), round(float(value[1]), 1)


def _money(n: int) -> Text:
    from .engine import money

    return money(n)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _by_id(draft: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    return {sp["id"]: sp for sp in draft["spaces"]}


# --------------------------------------------------------------------------- the corrections


def apply(draft: Mapping[str, Any], request: Any) -> tuple[dict[str, Any], Text]:
    """One correction (module docstring): the new draft (``draft`` itself is not changed) and
    what was done, in one line."""
    if not isinstance(request, Mapping):
        raise DraftError(T("send the correction as an object {example}", example='{"op": ..., ...}'))
    op = request.get("op")
    if op not in OPS:
        raise DraftError(T("'op' must be one of {ops}, got {value}", ops=", ".join(OPS), value=_short(op)))
    new = copy.deepcopy(dict(draft))
    message = _OPS[op](new, request)
    return new, message


def _merge(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    from vision.board_edit import centre_of, contact_mm, merge_outlines

    a, b = _pair(d, r.get("spaces"))
    spaces = _by_id(d)
    pa, pb = spaces[a].get("polygon"), spaces[b].get("polygon")
    if not pa or not pb:
        raise DraftError(T("'spaces': space {space} has no outline to merge", space=a if not pa else b))
    if contact_mm(pa, pb) < 1.0:
        raise DraftError(T("'spaces': spaces {a} and {b} do not touch: only touching spaces merge", a=a, b=b))
    poly = merge_outlines(pa, pb)
    spaces[a]["polygon"] = [list(p) for p in poly]
    spaces[a]["center"] = list(centre_of(poly))
    d["spaces"] = [sp for sp in d["spaces"] if sp["id"] != b]
    pairs = set()
    for x, y in d["adjacency"]:
        x, y = (a if x == b else x), (a if y == b else y)
        if x != y:
            pairs.add((min(x, y), max(x, y)))
    d["adjacency"] = [list(p) for p in sorted(pairs)]
    _rename_marks(d, b, a)
    return T("merged space {b} into space {a}", a=a, b=b)


def _rename_marks(d: dict[str, Any], old: int, new: int) -> None:
    """Marks of space ``old`` move to ``new`` where ``new`` has none of that kind."""
    if not any(t["port"] == new for t in d["towns"]):
        for t in d["towns"]:
            if t["port"] == old:
                t["port"] = new
    d["towns"] = [t for t in d["towns"] if t["port"] != old]
    if not any(h["space"] == new for h in d["hideouts"]):
        for h in d["hideouts"]:
            if h["space"] == old:
                h["space"] = new
    d["hideouts"] = [h for h in d["hideouts"] if h["space"] != old]
    d["skulls"] = list(dict.fromkeys(new if s == old else s for s in d["skulls"]))


def _split(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    from vision import VisionError
    from vision.board_edit import centre_of, contact_mm, inside, longer_axis_cut, split_outline

    s = _space(d, r.get("space"), "space")
    spaces = _by_id(d)
    poly = spaces[s].get("polygon")
    if not poly:
        raise DraftError(T("'space': space {space} has no outline to split", space=s))
    line = r.get("line")
    if line is None:
        p, q = longer_axis_cut(poly)
    else:
        if not isinstance(line, list) or len(line) != 2:
            raise DraftError(T("'line' must be two points [[x, y], [x, y]] on the board, got {value}",
                               value=_short(line)))
        p, q = _point(d, line[0], "line[0]"), _point(d, line[1], "line[1]")
    try:
        one, two = split_outline(poly, p, q)
    except VisionError as exc:
        raise DraftError(T("'line': {why}", why=reason(exc))) from None
    if not inside(one, spaces[s]["center"]) and inside(two, spaces[s]["center"]):
        one, two = two, one  # the part holding the old centre keeps the number
    new = max(spaces) + 1
    neighbours = [y if x == s else x for x, y in d["adjacency"] if s in (x, y)]
    spaces[s]["polygon"] = [list(p) for p in one]
    spaces[s]["center"] = list(centre_of(one))
    d["spaces"].append({"id": new, "center": list(centre_of(two)), "polygon": [list(p) for p in two]})
    pairs = {tuple(p) for p in d["adjacency"] if s not in p}
    pairs.add((s, new))
    for n in neighbours:
        other = spaces[n].get("polygon")
        for part, pid in ((one, s), (two, new)):
            if other and contact_mm(part, other) >= MIN_CONTACT_MM:
                pairs.add((min(n, pid), max(n, pid)))
    d["adjacency"] = [list(p) for p in sorted(pairs)]
    if line is None:
        return T("split space {space} across its longer axis: the new part is space {new}", space=s, new=new)
    return T("split space {space} along the line tapped: the new part is space {new}", space=s, new=new)


def _link(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    a, b = sorted(_pair(d, r.get("spaces")))
    if [a, b] in d["adjacency"]:
        return T("spaces {a} and {b} are already adjacent", a=a, b=b)
    d["adjacency"] = sorted(d["adjacency"] + [[a, b]])
    return T("spaces {a} and {b} are adjacent", a=a, b=b)


def _unlink(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    a, b = sorted(_pair(d, r.get("spaces")))
    if [a, b] not in d["adjacency"]:
        return T("spaces {a} and {b} were not adjacent", a=a, b=b)
    d["adjacency"] = [p for p in d["adjacency"] if p != [a, b]]
    return T("spaces {a} and {b} are no longer adjacent", a=a, b=b)


def _clear_space(d: dict[str, Any], s: int) -> list[Text]:
    gone = [T("port of {town}", town=t["name"]) for t in d["towns"] if t["port"] == s]
    gone += [T("{colour} hideout", colour=colour_word(h["colour"])) for h in d["hideouts"] if h["space"] == s]
    gone += [Tc("karibik", "skull")] if s in d["skulls"] else []
    d["towns"] = [t for t in d["towns"] if t["port"] != s]
    d["hideouts"] = [h for h in d["hideouts"] if h["space"] != s]
    d["skulls"] = [k for k in d["skulls"] if k != s]
    return gone


def _port(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    s = _space(d, r.get("space"), "space")
    name = r.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME or not name.isprintable():
        raise DraftError(T("'name' must be the town's name (1 to {most} characters), got {value}", most=MAX_NAME,
                           value=_short(name)))
    name = " ".join(name.split())
    chest = r.get("chest")
    if not _int(chest) or not CHEST_MIN <= chest <= CHEST_MAX:
        raise DraftError(T("'chest' must be the chest's value, {least} to {most} doubloons, got {value}",
                           least=CHEST_MIN, most=CHEST_MAX, value=_short(chest)))
    other = next((t for t in d["towns"] if t["name"] == name and t["port"] != s), None)
    if other is not None:
        raise DraftError(T("'name': {town} is already the town of space {space}", town=name, space=other["port"]))
    at = _point(d, r["at"], "at") if r.get("at") is not None else tuple(_by_id(d)[s]["center"])
    _clear_space(d, s)
    d["towns"].append({"name": name, "chest": chest, "port": s, "at": list(at)})
    return T("space {space} is the port of {town} (chest {value})", space=s, town=name, value=_money(chest))


def _hideout(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    s = _space(d, r.get("space"), "space")
    colour = r.get("colour")
    if colour not in d["colours"]:
        raise DraftError(T("'colour' must be one of {colours}, got {value}", colours=", ".join(d["colours"]),
                           value=_short(colour)))
    _clear_space(d, s)
    d["hideouts"].append({"space": s, "colour": colour})
    return T("space {space} is a {colour} hideout", space=s, colour=colour_word(colour))


def _skull(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    s = _space(d, r.get("space"), "space")
    _clear_space(d, s)
    d["skulls"].append(s)
    return T("space {space} is a skull start space", space=s)


def _clear(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    s = _space(d, r.get("space"), "space")
    gone = _clear_space(d, s)
    return T("space {space}: removed {marks}", space=s, marks=join(gone)) if gone else \
        T("space {space} had no mark", space=s)


def _pile(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    at = _point(d, r.get("at"), "at")
    if len(d["piles"]) >= PILES:
        raise DraftError(T("'at': the board has {piles} piles and all are placed: remove one first", piles=PILES))
    d["piles"].append(list(at))
    return T("pile {pile} of {piles} at ({x}, {y}) mm", pile=len(d["piles"]), piles=PILES, x=format(at[0], "g"),
             y=format(at[1], "g"))


def _unpile(d: dict[str, Any], r: Mapping[str, Any]) -> str:
    i = r.get("index")
    if not _int(i) or not 0 <= i < len(d["piles"]):
        raise DraftError(T("'index' must be the number of a placed pile, 0 to {most}, got {value}",
                           most=len(d["piles"]) - 1, value=_short(i)))
    del d["piles"][i]
    return T("pile {pile} removed", pile=i + 1)


_OPS = {"merge": _merge, "split": _split, "link": _link, "unlink": _unlink, "port": _port, "hideout": _hideout,
        "skull": _skull, "clear": _clear, "pile": _pile, "unpile": _unpile}


# --------------------------------------------------------------------------- finishing


def finished(draft: Mapping[str, Any], name: str | None = None) -> dict[str, Any]:
    """The board file the draft stands for: not a draft, not provisional (the owner's real board)."""
    out = {k: copy.deepcopy(v) for k, v in draft.items() if k != "draft"}
    out["name"] = name or "my board (traced)"
    out["provisional"] = False
    return out


def problem(draft: Mapping[str, Any], source: Any = None) -> Text | str | None:
    """What the loader refuses in the finished draft (its own one line, a :class:`Text`), or ``None``
    when it loads."""
    try:
        board_from_dict(finished(draft), Tc("karibik", "the traced board") if source is None else source)
    except BoardError as exc:
        return exc.text
    return None


def progress(draft: Mapping[str, Any]) -> dict[str, int]:
    """How far the marking is: counts of spaces, adjacent pairs, towns, hideouts, skulls, piles."""
    return {"spaces": len(draft["spaces"]), "pairs": len(draft["adjacency"]), "towns": len(draft["towns"]),
            "hideouts": len(draft["hideouts"]), "skulls": len(draft["skulls"]), "piles": len(draft["piles"])}
