"""``tablehub sundacam``: the camera on Sunda to Sahul's freely laid pieces: enrol the colours from one photo,
then read a frame (docs/sunda.md, "Enrolling the colours").

    tablehub sundacam enrol PHOTO --out DIR [--markers MARKERS_PHOTO] [--colours red,yellow,black,purple]
                                            [--lens lens.json] [--mat mat.json]
    tablehub sundacam read FRAME --refs DIR

The photo, taken by the table's camera on its arm, shows the mat with the enrolment layout
(:func:`vision.sunda.enrolment_layout`): an all-land piece just left of the play area's middle, an all-water
piece just right of it, unturned, and one pawn of each colour in a row below them, in the order of
``--colours``. ``--markers``: a second photo, of the six resource markers alone in a row 60 mm above the play
area's middle, 30 mm apart (red, orange, yellow, green, blue, purple from the left): their colours are enrolled
and the hub reads the markers (without it the phone enters them). The folder written (``sunda.json``, and ``lens.json`` / ``mat.json`` when given) is what
``tablehub run`` loads for a Sunda game from ``<data>/refs/sunda`` (``[vision] refs``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..games.base import SetupError, TablehubError
from ..i18n import T, Tc, Tn
from ..usage_i18n import said, say

NAME = "sundacam"
HELP = T("the camera on Sunda to Sahul's laid pieces: enrol the colours from one photo, read a frame")
DESCRIPTION = T("{help}. See docs/sunda.md.", help=HELP)
#: the pawn colours the camera names (the engine's adapter maps them to players)
COLOURS = ("red", "yellow", "black", "purple")
#: a pawn's colour as said
PAWN_WORDS = {"red": Tc("colour", "red"), "yellow": Tc("colour", "yellow"), "black": Tc("colour", "black"),
              "purple": Tc("colour", "purple")}


def colour_said(colour: str) -> Any:
    """A pawn colour in the console's language (a name of the owner's own is kept)."""
    return PAWN_WORDS.get(colour, colour)


def marker_word(colour: str) -> Any:
    """A resource marker's colour in the console's language (the engine's words)."""
    from ..games.sunda.engine import marker_word as word

    return word(colour)


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="sundacam_command", metavar="enrol|read", required=True)
    e = sub.add_parser("enrol", help=T("learn land, water, the cloth and the pawn colours from one photo of the "
                                     "enrolment layout (docs/sunda.md)"))
    e.add_argument("photo", help=T("photo by the table's camera of the mat with the enrolment layout (JPEG or PNG)"))
    e.add_argument("--out", required=True, help=T("folder to write the references to (the hub reads <data>/refs/sunda)"))
    e.add_argument("--colours", default=",".join(COLOURS),
                   help=T("the pawn colours in the photo, left to right (default red,yellow,black,purple)"))
    e.add_argument("--markers", help=T("photo of the six resource markers in a row 60 mm above the play area's "
                                     "middle, 30 mm apart, red, orange, yellow, green, blue, purple from the left: "
                                     "their colours are enrolled (docs/sunda.md)"))
    e.add_argument("--lens", help=T("the camera's lens calibration (tablehub lens), copied into the folder"))
    e.add_argument("--mat", help=T("the mat file (tablehub markers) when not the default mat, copied into the folder"))
    r = sub.add_parser("read", help=T("read one frame: the pieces, their land and water, and the tribes"))
    r.add_argument("frame")
    r.add_argument("--refs", required=True, help=T("the folder written by enrol"))


def _read_image(path: str):
    import cv2

    if not Path(path).is_file():
        raise TablehubError(T("{path}: no such file (expected a photo, JPEG or PNG)", path=str(path)))
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise TablehubError(T("{path}: cannot read the picture (expected a JPEG or PNG file)", path=str(path)))
    return img


def _colours(text: str) -> list[str]:
    names = [c.strip().lower() for c in text.split(",") if c.strip()]
    bad = [c for c in names if c not in COLOURS]
    if not names or bad or len(set(names)) != len(names):
        raise SetupError(T("--colours: expected distinct pawn colours among {colours} separated by commas, got {value}",
                           colours=", ".join(COLOURS), value=repr(text)))
    return names


def run(args) -> int:
    from vision.calibrate import LensCalibration
    from vision.mat import Mat

    from ..tracking.sundarefs import enrol_markers_photo, enrol_photo, load_reader, write_refs

    if args.sundacam_command == "enrol":
        names = _colours(args.colours)
        lens = LensCalibration.load(args.lens) if args.lens else None
        mat = Mat.load(args.mat) if args.mat else None
        photo = _read_image(args.photo)
        learnt = enrol_photo(photo, names, mat=mat, lens=lens, source=args.photo)
        markers = None
        if args.markers:
            markers = enrol_markers_photo(_read_image(args.markers), learnt, mat=mat, lens=lens, source=args.markers)
        out = write_refs(args.out, learnt, lens_file=args.lens, mat_file=args.mat, markers=markers)
        fmt = lambda v: "L %.0f a %.0f b %.0f" % tuple(float(x) for x in v)  # noqa: E731
        cloth = ", ".join(format(float(x), ".0f") for x in learnt.cloth_bgr)
        say(T("Sunda colours enrolled from {path}: land {land}, water {water}, cloth BGR {cloth}", path=args.photo,
              land=fmt(learnt.land), water=fmt(learnt.water), cloth=cloth))
        for name, value in learnt.pawns.items():
            say("  " + said(T("{colour} pawn: {value}", colour=colour_said(name), value=fmt(value))))
        for name, value in (markers or {}).items():
            say("  " + said(T("{colour} marker: {value}", colour=marker_word(name), value=fmt(value))))
        if not markers:
            say("  " + said(T("resource markers: not enrolled (give --markers PHOTO to have them read; the phone "
                              "enters them)")))
        say(T("written to {folder}/", folder=str(out)))
        say(T("next: check with 'tablehub sundacam read FRAME --refs {folder}' on a photo of laid pieces; 'tablehub "
              "run' reads them from <data>/refs/sunda (copy the folder there, or set [vision] refs)", folder=str(out)))
        return 0

    reader = load_reader(args.refs)
    frame = _read_image(args.frame)
    reading = reader.read(frame)
    n, t = len(reading.pieces), len(reading.tribes)
    say(T("{pieces}, {tribes}", pieces=Tn("{n} piece", "{n} pieces", n), tribes=Tn("{n} tribe", "{n} tribes", t)))
    for p in reading.pieces:
        piece = T("piece at {q},{r} turn {turn}: {sides}", q=p["q"], r=p["r"], turn=p["turn"], sides=p["sides"])
        if p.get("join", "water") != "water":
            piece = T("{piece} (joined by {join})", piece=piece, join=p["join"])
        say("  " + said(piece))
    for t in reading.tribes:
        height = T("height ?") if t.height is None else T("height {height}", height=t.height)
        tribe = T("tribe at {q},{r}: top {top}, {height}", q=t.q, r=t.r, top=t.top, height=height)
        if t.ask:
            tribe = T("{tribe} (the phone asks: {candidates})", tribe=tribe, candidates=str(t.candidates))
        say("  " + said(tribe))
    for m in reading.markers:
        say("  " + said(T("{colour} marker by {q},{r}", colour=marker_word(m.marker), q=m.q, r=m.r)))
    for line in list(reading.unsure) + list(reading.conflicts):
        say("  " + said(T("unsure: {what}", what=line)))
    return 0
