"""Sunda to Sahul's enrolled references: the colour classes :class:`vision.sunda.SundaReader` needs, learnt from
one photo of the enrolment layout (``tablehub sundacam enrol``, docs/sunda.md "Enrolling the colours"), kept in a
folder where the hub finds them (``[vision] refs``, default ``<data>/refs/sunda``), as the other games' are:

- ``sunda.json``: the format, the colours (land and water in Lab, the cloth in BGR, each pawn colour in Lab, in
  the order the enrolment photo lays them; the resource markers' colours in Lab when their photo was given:
  ``markers``), the piece side, whether a lens and a mat file are kept;
- ``lens.json`` (optional): the camera's lens calibration;
- ``mat.json`` (optional): the mat the photo was taken on (else the default mat).

:func:`load_recognizer` turns the folder into the live recognizer
(:class:`~tablehub.tracking.sundacam.SundaRecognizer`), or raises
:class:`~tablehub.tracking.recognizer.RecognitionUnavailable` in one line saying what is missing.
Vision imports are lazy: a build without OpenCV still runs, played from the phone.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Sequence

from ..games.base import TablehubError
from ..i18n import T, Text, reason
from ..jsonfile import read_folder_meta
from .recognizer import RecognitionUnavailable

FORMAT = "tablehub-sunda/1"
META, LENS, MAT = "sunda.json", "lens.json", "mat.json"
#: the files of Sunda's references (a change to any of them means: load them again)
FILES = (META, LENS, MAT)
#: land and water closer than this (Lab distance) were not told apart: the pieces were not at their places
MIN_CONTRAST = 12.0
#: a pawn's top closer than this to the cloth was not seen (a black pawn on a dark cloth is about 11 away; the
#: cloth's own shading, where no pawn stands, 2 to 4)
PAWN_CONTRAST = 6.0


class SundaRefsError(TablehubError):
    """A references folder or an enrolment photo that cannot be used; one line naming the file."""


def enrol_photo(photo: Any, colours: Sequence[str], mat: Any = None, lens: Any = None, source: str = "the photo") -> Any:
    """:class:`vision.sunda.SundaColours` learnt from ``photo`` of :func:`vision.sunda.enrolment_layout`, checked:
    land, water and the cloth must differ (else the pieces were not where the layout puts them)."""
    import numpy as np

    from vision import VisionError
    from vision.mat import Mat
    from vision.sunda import _lab, enrol

    mat = mat or Mat.default()
    try:
        learnt = enrol(photo, mat, list(colours), lens=lens)
    except VisionError as exc:
        raise SundaRefsError(T("{source}: {why}", source=source, why=reason(exc))) from None
    cloth = _lab(learnt.cloth_bgr[None])[0]
    for name, value in (("land", learnt.land), ("water", learnt.water)):
        if float(np.linalg.norm(value - cloth)) < MIN_CONTRAST:
            raise SundaRefsError(T("{source}: no {name} piece seen at its place (expected the all-land piece left of "
                                   "the play area's middle and the all-water piece right of it, see docs/sunda.md)",
                                   source=source, name=T("land") if name == "land" else T("water")))
    if float(np.linalg.norm(learnt.land - learnt.water)) < MIN_CONTRAST:
        raise SundaRefsError(T("{source}: the land and water pieces look alike (expected the all-land piece left of "
                               "the middle and the all-water piece right of it, see docs/sunda.md)", source=source))
    for name, value in learnt.pawns.items():
        if float(np.linalg.norm(value - cloth)) < PAWN_CONTRAST:
            k = list(learnt.pawns).index(name)
            raise SundaRefsError(T("{source}: no {name} pawn seen at its place (expected the pawns in a row below the "
                                   "pieces, {names} from the left; the {name} one is number {k})", source=source,
                                   name=name, names=", ".join(learnt.pawns), k=k + 1))
    return learnt


def enrol_markers_photo(photo: Any, colours: Any, mat: Any = None, lens: Any = None,
                        source: str = "the markers' photo") -> dict[str, Any]:
    """The resource markers' colours (Lab, by the engine's marker ids) learnt from ``photo`` of the six markers
    alone at :func:`vision.sundamarkers.enrolment_points` (a row 60 mm above the play area's middle, 30 mm apart,
    red, orange, yellow, green, blue, purple from the left), under the light of the main enrolment (``colours``:
    its :class:`vision.sunda.SundaColours`; this photo's cloth against that one's takes out a change of light).
    A marker not seen at its place is one line naming the photo and the marker."""
    from vision import VisionError
    from vision.mat import Mat
    from vision.sundamarkers import MARKER_NAMES, enrol_markers

    mat = mat or Mat.default()
    try:
        return enrol_markers(photo, mat, colours.cloth_bgr, lens=lens)
    except VisionError as exc:
        why = reason(exc)  # vision's "marker enrolment: {why}": the why alone here
        why = why.params["why"] if isinstance(why, Text) and why.msgid == "marker enrolment: {why}" else why
        raise SundaRefsError(T("{source}: {why} (expected the six resource markers in a row 60 mm above the play "
                               "area's middle, 30 mm apart, {names} from the left)", source=source, why=why,
                               names=", ".join(MARKER_NAMES))) from None


def write_refs(folder: str | Path, colours: Any, lens_file: str | Path | None = None, lens: Any = None,
               mat_file: str | Path | None = None, side_mm: float = 30.0, markers: dict[str, Any] | None = None) -> Path:
    """Write ``sunda.json`` (and ``lens.json``, ``mat.json``: copied from the files, or the lens saved from
    ``lens``) into ``folder``; ``markers``: the resource markers' colours (:func:`enrol_markers_photo`), kept when
    given. Returns the folder."""
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
        if lens_file:
            shutil.copyfile(lens_file, out / LENS)
        elif lens is not None:
            lens.save(out / LENS)
        else:
            (out / LENS).unlink(missing_ok=True)
        if mat_file:
            shutil.copyfile(mat_file, out / MAT)
        else:
            (out / MAT).unlink(missing_ok=True)
        cdict = colours.to_dict()
        if markers:
            cdict["markers"] = {k: [float(x) for x in v] for k, v in markers.items()}
        meta = {"format": FORMAT, "game": "sunda", "side_mm": float(side_mm), "colours": cdict,
                "lens": bool(lens_file or lens is not None), "mat": bool(mat_file)}
        (out / META).write_text(json.dumps(meta, indent=1) + "\n")
    except OSError as exc:
        raise SundaRefsError(T("{path}: cannot write the references ({why})", path=str(out), why=exc.strerror or str(exc))) from None
    return out


def read_refs(folder: str | Path) -> dict[str, Any]:
    """``sunda.json`` of ``folder``, checked (one-line errors naming the file)."""
    meta = read_folder_meta(folder, META, FORMAT, SundaRefsError,
                            T("run 'tablehub sundacam enrol PHOTO --out {folder}' first", folder=str(folder)))
    path = Path(folder) / META
    c = meta.get("colours")
    ok = isinstance(c, dict) and all(_triple(c.get(k)) for k in ("land", "water", "cloth_bgr")) \
        and isinstance(c.get("pawns"), dict) and c["pawns"] and all(_triple(v) for v in c["pawns"].values())
    if not ok:
        raise SundaRefsError(T("{path}: 'colours' must hold land, water, cloth_bgr and pawns, each three numbers "
                               "(enrol again)", path=str(path)))
    m = c.get("markers")
    if m is not None and not (isinstance(m, dict) and m and all(_triple(v) for v in m.values())):
        raise SundaRefsError(T("{path}: 'colours.markers' must map each resource marker to three numbers (Lab) "
                               "(enrol again with the markers' photo, or leave it out)", path=str(path)))
    return meta


def _triple(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 3 and all(isinstance(x, (int, float)) for x in v)


def colours_of(meta: dict[str, Any]) -> Any:
    import numpy as np

    from vision.sunda import SundaColours

    c = meta["colours"]
    f = lambda v: np.array(v, np.float32)  # noqa: E731
    return SundaColours(f(c["land"]), f(c["water"]), f(c["cloth_bgr"]), {k: f(v) for k, v in c["pawns"].items()})


def load_reader(folder: str | Path, lens: Any = None, mat: Any = None) -> Any:
    """The :class:`vision.sunda.SundaReader` of the references in ``folder`` (``lens``, ``mat``: the camera's,
    else those kept with the references, else none and the default mat)."""
    from vision.calibrate import LensCalibration
    from vision.mat import Mat
    from vision.sunda import SundaReader

    folder = Path(folder)
    meta = read_refs(folder)
    if lens is None and meta.get("lens"):
        lens = LensCalibration.load(folder / LENS)
    if mat is None:
        mat = Mat.load(folder / MAT) if meta.get("mat") else Mat.default()
    reader = SundaReader(mat, colours_of(meta), side_mm=float(meta.get("side_mm", 30.0)), lens=lens)
    markers = markers_of(meta)
    if markers:   # the resource markers' colours were enrolled: they are read (vision.sundamarkers)
        from vision.sundamarkers import MarkerFinder

        reader.markers = MarkerFinder(reader.colours, markers)
    return reader


def markers_of(meta: dict[str, Any]) -> dict[str, Any]:
    """The enrolled resource markers' colours (Lab), ``{}`` when their photo was not given."""
    import numpy as np

    return {k: np.array(v, np.float32) for k, v in (meta["colours"].get("markers") or {}).items()}


def load_recognizer(folder: str | Path, lens: Any = None, mat: Any = None) -> Any:
    """The live recognizer from the references in ``folder``. Raises :class:`RecognitionUnavailable` saying what
    is missing or unreadable (the hub then runs without recognition: Sunda stays playable from the phone)."""
    folder = Path(folder)
    try:
        from vision import VisionError
        from vision.sunda import SundaReader  # noqa: F401
    except ImportError as exc:
        raise RecognitionUnavailable(T("table recognition is not in this build ({why}); play from the phone",
                                       why=str(exc))) from None
    from .sundacam import SundaRecognizer

    if not (folder / META).is_file():
        raise RecognitionUnavailable(T("table recognition is off: no Sunda references in {folder}; enrol the colours "
                                       "('tablehub sundacam enrol PHOTO --out {folder}')", folder=str(folder)))
    try:
        return SundaRecognizer(load_reader(folder, lens=lens, mat=mat))
    except (TablehubError, VisionError) as exc:
        raise RecognitionUnavailable(T("table recognition is off: {why}",
                                       why=reason(exc))) from None
