"""A finished table of a position-scored game (Sunda to Sahul, Tahiti, Karibik) scored from one photo: what the
games' photo modules share (:mod:`tablehub.photo_sunda`, :mod:`tablehub.photo_board`).

Each game's module reads the photo with that game's enrolled references into the engine's position (what
``tablehub score POSITION`` reads), adds what the photo cannot show as the players give it (Sunda's tribe
heights the camera asked, Tahiti's vaults, Karibik's money), and scores it with the engine's position scorer.
This module holds the result: the explained scores, every place the camera was unsure of with what each
possibility would change (each one scored by the same scorer), what was given and what a photo cannot show.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .games.base import PositionResult, TablehubError
from .i18n import N_, T, chain, translate


class PhotoPositionError(TablehubError):
    """A photo of a position-scored game that cannot be scored; one line naming the option or the photo."""


@dataclass
class Possibility:
    """One thing an unsure place may be, and the scores it would give (``None``: it cannot be, ``why``)."""

    label: Any
    scores: dict[str, int] | None
    why: Any = ""


@dataclass
class UnsurePlace:
    """A place of the table the camera was unsure of (``where``: e.g. a tribe's node), what the scores take
    (``taken``), and every possibility with what it would change against the scores printed."""

    where: Any
    taken: Any
    possibilities: list[Possibility] = field(default_factory=list)
    base: dict[str, int] = field(default_factory=dict)

    def changes(self, p: Possibility) -> dict[str, int] | None:
        if p.scores is None:
            return None
        return {name: p.scores.get(name, 0) - self.base.get(name, 0) for name in sorted(set(p.scores) | set(self.base))}

    @property
    def matters(self) -> bool:
        """Some possibility would change a score."""
        return any(c is not None and any(c.values()) for c in map(self.changes, self.possibilities))

    def line(self) -> Any:
        def said(p: Possibility) -> Any:
            change = self.changes(p)
            if change is None:
                return T("{what}: cannot be ({why})", what=p.label, why=p.why)
            moved = [f"{name} {d:+d}" for name, d in change.items() if d]
            return T("{what}: {change}", what=p.label, change=", ".join(moved) if moved else T("no score changes"))
        head = T("{where}: taken as {taken}", where=self.where, taken=self.taken)
        return chain([head] + [said(p) for p in self.possibilities], N_("{first}; {next}"))

    def to_dict(self) -> dict[str, Any]:
        return {"where": str(self.where), "taken": str(self.taken), "matters": self.matters,
                "possibilities": [{"what": str(p.label), "scores": p.scores, "change": self.changes(p),
                                   "why": str(p.why) or None} for p in self.possibilities]}


@dataclass
class PositionPhoto:
    """The explained final scores of a position-scored game's table read from a photo."""

    game: str
    position: dict[str, Any]
    """The position scored (``tablehub score`` reads it as it is: ``--json`` prints it)."""
    result: PositionResult
    unsure: list[UnsurePlace] = field(default_factory=list)
    given: list[Any] = field(default_factory=list)
    """What the players gave that the photo cannot show (as said)."""
    not_read: list[Any] = field(default_factory=list)
    """What a photo of this game cannot show, said whether or not it was given."""
    notes: list[Any] = field(default_factory=list)
    seen: list[Any] = field(default_factory=list)
    """What the camera read, in a few lines (pieces, tribes, boats...)."""

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.result.scores)

    def lines(self, language: str = "en") -> list[str]:
        out: list[Any] = list(self.seen)
        if self.result.provisional:
            out.append(T("NOTE: provisional component data: {note}", note=self.result.provisional))
        out += list(self.result.lines)
        out.extend(T("given: {what}", what=g) for g in self.given)
        out.extend(T("not on the photo: {what}", what=n) for n in self.not_read)
        matter = [u for u in self.unsure if u.matters]
        idle = [u for u in self.unsure if not u.matters]
        out.append(T("Unsure:") if self.unsure else T("Unsure: nothing (everything read with confidence)"))
        out.extend(T("  {line}", line=u.line()) for u in matter)
        out.extend(T("  {line}", line=u.line()) for u in idle)
        out.extend(T("note: {note}", note=n) for n in self.notes)
        return [translate(line, language) for line in out]

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"game": self.game, "players": list(self.position.get("players", [])), "scores": self.scores,
                "winners": r.winners(), "events": [e.to_dict() for e in r.events],
                "explanation": [str(line) for line in r.lines], "position": self.position,
                "unsure": [u.to_dict() for u in self.unsure], "given": [str(g) for g in self.given],
                "not_read": [str(n) for n in self.not_read], "notes": [str(n) for n in self.notes],
                "provisional": r.provisional}


def scores_of(score: Callable[[dict[str, Any]], PositionResult], position: dict[str, Any]) -> dict[str, int] | None:
    """The scores of ``position`` by the game's position scorer, ``None`` when it refuses it (it cannot be)."""
    try:
        return dict(score(position).scores)
    except TablehubError:
        return None


def parse_pairs(text: str | None, option: str, example: str, value: Callable[[str], Any]) -> dict[str, Any]:
    """``"red=34,blue=20"`` -> ``{"red": value("34"), ...}``; one line naming ``option`` otherwise."""
    out: dict[str, Any] = {}
    for part in [p.strip() for p in (text or "").split(",") if p.strip()]:
        key, eq, raw = part.partition("=")
        try:
            v = value(raw.strip()) if eq and key.strip() else None
        except ValueError:
            v = None
        if v is None:
            raise PhotoPositionError(T("{option}: expected PLAYER=NUMBER pairs (a colour or a name), e.g. {example}; "
                                       "got {value}", option=option, example=example, value=repr(part)))
        out[key.strip()] = v
    return out


def whole_at_least_0(text: str) -> int:
    v = int(text)
    if v < 0:
        raise ValueError(text)
    return v


def by_name(given: Mapping[str, Any], names: Mapping[str, str], players: Sequence[str], option: str) -> dict[str, Any]:
    """``given`` keyed by colour or player name -> keyed by player name; one line for one that is neither."""
    out: dict[str, Any] = {}
    for key, v in given.items():
        name = names.get(key.lower(), key)
        if name not in players:
            raise PhotoPositionError(T("{option}: {key} is not a player of this table (players: {players})",
                                       option=option, key=key, players=", ".join(players)))
        out[name] = v
    return out


#: the options of ``tablehub score --photo`` that are one game's (the rest are every game's)
GAME_OPTIONS = ("colours", "before", "holdings", "tribes", "levels", "vaults", "money")


def players_by_colour(names: Mapping[str, str] | None, known: Sequence[str], seen: Any, refusal: Callable[[str], str]
                      ) -> dict[str, str]:
    """Piece colour -> player name: ``names`` (``--players red=Ana,...``) in their order, every colour one of
    ``known`` (else ``refusal(bad colours)``, one line); without names, each colour of ``known`` in ``seen``,
    capitalised, in ``known``'s order (the first known colour when none is seen)."""
    if names:
        bad = [c for c in names if c not in known]
        if bad:
            raise PhotoPositionError(refusal(", ".join(bad)))
        return dict(names)
    return {c: c.capitalize() for c in known if c in seen} or {known[0]: known[0].capitalize()}


def refuse_others(args: Any, game: str, own: Sequence[str]) -> None:
    """One line naming the options given that ``game`` does not take."""
    other = [f"--{k}" for k in GAME_OPTIONS if k not in own and getattr(args, k, None)]
    if other:
        raise PhotoPositionError(T("{options}: not for {game} (--before, --holdings and --colours are the tile "
                                   "games', --tribes and --levels Sunda's, --vaults Tahiti's, --money Karibik's)",
                                   options=", ".join(other), game=game))


def upload_text(given: Mapping[str, Any], key: str) -> str | None:
    """A field of the page's upload that the command line gives as text (``"tribes": "1,0=Ana"``); one line when it
    is not text."""
    value = given.get(key)
    if value is not None and not (isinstance(value, str) and len(value) <= 400):
        raise PhotoPositionError(T("{key}: expected text of at most 400 characters", key=key))
    return value


def lens_for_upload(frame: Any, given: Any, refs: Any) -> Any:
    """The lens to read an uploaded photo of a position-scored game through: the hub camera's (``given``, else the
    one kept with the references) for a photo of the size it was calibrated for, else ``False`` (a phone's photo:
    no lens at all), as the tile games' upload does (:func:`tablehub.photo.photo_scorer`)."""
    from pathlib import Path

    from .photo import _lens_for_frame

    lens = _lens_for_frame(frame, given, Path(refs))
    return False if lens is None else lens
