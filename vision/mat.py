"""The play mat: four ArUco markers at known positions around a play area.

Mat coordinates are millimetres with the origin at the mat's top-left corner,
x growing to the right (east) and y growing down (south), as the mat is seen
from the camera. The play area is a rectangle inside the mat; the markers sit
in the margin around it so that tiles and hands rarely cover them.

The default mat holds a 600 x 600 mm play area, room for 13 x 13 cells of
45 mm (an 84-tile game rarely spreads wider than that), with four 40 mm markers
centred in the corners of a 50 mm margin: a 700 x 700 mm mat in all.

>>> mat = Mat.default()
>>> mat.play_rect_mm
(50.0, 50.0, 600.0, 600.0)
>>> Mat.from_dict(mat.to_dict()) == mat
True
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from tablehub.i18n import T, Tc  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError

FORMAT = "tablehub-mat/1"


class MatError(VisionError):
    """A mat file or mat description that cannot be used."""


def aruco_dictionary_size(name: str) -> int | None:
    """Number of markers in the named cv2.aruco dictionary, or None if unknown."""
    import cv2

    if not name.startswith("DICT_") or not hasattr(cv2.aruco, name):
        return None
    return int(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name)).bytesList.shape[0])


@dataclass(frozen=True)
class Mat:
    """Where the markers are and how big the play area is (all in mm)."""

    width_mm: float = 700.0
    height_mm: float = 700.0
    play_origin_mm: tuple[float, float] = (50.0, 50.0)
    play_width_mm: float = 600.0
    play_height_mm: float = 600.0
    dictionary: str = "DICT_4X4_50"
    marker_ids: tuple[int, ...] = (0, 1, 2, 3)
    marker_mm: float = 40.0
    #: centre of each marker, in the order of ``marker_ids``
    marker_centres_mm: tuple[tuple[float, float], ...] = ((25.0, 25.0), (675.0, 25.0), (675.0, 675.0), (25.0, 675.0))
    tile_mm: float = 45.0
    name: str = "default"
    notes: tuple[str, ...] = field(default=(), compare=False)

    # ------------------------------------------------------------------ construction
    @classmethod
    def default(cls) -> "Mat":
        return cls()

    @classmethod
    def around(cls, play_width_mm: float, play_height_mm: float, marker_mm: float = 40.0,
               margin_mm: float | None = None, tile_mm: float = 45.0, dictionary: str = "DICT_4X4_50",
               marker_ids: tuple[int, ...] = (0, 1, 2, 3), name: str = "custom") -> "Mat":
        """A mat with four markers centred in the corners of a margin around the play area."""
        margin = float(margin_mm if margin_mm is not None else marker_mm + 10.0)
        w, h = play_width_mm + 2 * margin, play_height_mm + 2 * margin
        c = margin / 2
        mat = cls(width_mm=float(w), height_mm=float(h), play_origin_mm=(margin, margin),
                  play_width_mm=float(play_width_mm), play_height_mm=float(play_height_mm),
                  dictionary=dictionary, marker_ids=tuple(marker_ids), marker_mm=float(marker_mm),
                  marker_centres_mm=((c, c), (w - c, c), (w - c, h - c), (c, h - c)), tile_mm=float(tile_mm),
                  name=name)
        mat.validate()
        return mat

    # ------------------------------------------------------------------ derived
    @property
    def play_rect_mm(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the play area on the mat."""
        return (float(self.play_origin_mm[0]), float(self.play_origin_mm[1]),
                float(self.play_width_mm), float(self.play_height_mm))

    @property
    def play_centre_mm(self) -> tuple[float, float]:
        x, y, w, h = self.play_rect_mm
        return (x + w / 2, y + h / 2)

    @property
    def cells(self) -> tuple[int, int]:
        """How many whole tile cells fit across and down the play area."""
        return (int(self.play_width_mm // self.tile_mm), int(self.play_height_mm // self.tile_mm))

    def marker_centre(self, marker_id: int) -> tuple[float, float]:
        return self.marker_centres_mm[self.marker_ids.index(marker_id)]

    def marker_corners_mm(self, marker_id: int) -> list[tuple[float, float]]:
        """The marker's four corners in mm, in ArUco order (top-left, top-right, bottom-right, bottom-left).

        Markers are printed upright: their top edge faces the mat's top edge.
        """
        cx, cy = self.marker_centre(marker_id)
        s = self.marker_mm / 2
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]

    def marker_label(self, marker_id: int) -> str:
        """Where a marker lies, in words ("top-left"), for messages to people."""
        cx, cy = self.marker_centre(marker_id)
        vert = "top" if cy < self.height_mm / 3 else "bottom" if cy > 2 * self.height_mm / 3 else "middle"
        horiz = "left" if cx < self.width_mm / 3 else "right" if cx > 2 * self.width_mm / 3 else "centre"
        return f"{vert}-{horiz}"

    # ------------------------------------------------------------------ validation
    def problems(self) -> list[str]:
        """Every problem with this mat, one ``field: what is wrong`` line each."""
        out: list[str] = []
        for name in ("width_mm", "height_mm", "play_width_mm", "play_height_mm", "marker_mm", "tile_mm"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                out.append(T("{field}: expected a positive number of millimetres, got {value}", field=name, value=repr(value)))
        if out:
            return out
        size = aruco_dictionary_size(self.dictionary)
        if size is None:
            out.append(T("dictionary: {name} is not a cv2.aruco dictionary (e.g. 'DICT_4X4_50')", name=repr(self.dictionary)))
        if len(self.marker_ids) < 3:
            out.append(T("markers: expected at least 3 markers (4 recommended), got {n}", n=len(self.marker_ids)))
        if len(set(self.marker_ids)) != len(self.marker_ids):
            out.append(T("markers: marker ids must be distinct, got {ids}", ids=str(list(self.marker_ids))))
        if len(self.marker_centres_mm) != len(self.marker_ids):
            out.append(T("markers: {ids} ids but {centres} centres", ids=len(self.marker_ids), centres=len(self.marker_centres_mm)))
            return out
        px, py, pw, ph = self.play_rect_mm
        if px < 0 or py < 0 or px + pw > self.width_mm + 1e-6 or py + ph > self.height_mm + 1e-6:
            out.append(T("play_area: {width} x {height} mm at ({x}, {y}) does not fit in the {mat_width} x {mat_height} mm "
                         "mat", width=format(pw, "g"), height=format(ph, "g"), x=format(px, "g"), y=format(py, "g"),
                         mat_width=format(self.width_mm, "g"), mat_height=format(self.height_mm, "g")))
        if self.tile_mm > min(pw, ph):
            out.append(T("tile_mm: a {mm} mm tile does not fit in the play area", mm=format(self.tile_mm, "g")))
        half = self.marker_mm / 2
        for i, (mid, (cx, cy)) in enumerate(zip(self.marker_ids, self.marker_centres_mm)):
            where = T("markers[{i}] (id {id})", i=i, id=mid)
            if size is not None and not 0 <= mid < size:
                out.append(T("{where}: id must be in 0..{last} for {dictionary}", where=where, last=size - 1, dictionary=self.dictionary))
            if cx - half < 0 or cy - half < 0 or cx + half > self.width_mm or cy + half > self.height_mm:
                out.append(T("{where}: a {mm} mm marker centred at ({x}, {y}) does not fit on the mat", where=where,
                             mm=format(self.marker_mm, "g"), x=format(cx, "g"), y=format(cy, "g")))
            if cx + half > px and cx - half < px + pw and cy + half > py and cy - half < py + ph:
                out.append(T("{where}: marker at ({x}, {y}) overlaps the play area; put it in the margin", where=where,
                             x=format(cx, "g"), y=format(cy, "g")))
            for mid2, (cx2, cy2) in list(zip(self.marker_ids, self.marker_centres_mm))[i + 1:]:
                if abs(cx - cx2) < self.marker_mm * 1.25 and abs(cy - cy2) < self.marker_mm * 1.25:
                    out.append(T("{where}: too close to marker {other}; markers need a quiet white border", where=where, other=mid2))
        if not out and len(self.marker_ids) >= 3:
            xs = [c[0] for c in self.marker_centres_mm]
            ys = [c[1] for c in self.marker_centres_mm]
            if max(xs) - min(xs) < pw / 2 or max(ys) - min(ys) < ph / 2:
                out.append(T("markers: spread the markers around the play area (they are too close together "
                             "to measure it accurately)"))
        return out

    def validate(self, source: str = "mat") -> "Mat":
        problems = self.problems()
        if problems:
            raise MatError(T("{source}: {why}", source=str(source), why=problems[0]))
        return self

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        px, py, pw, ph = self.play_rect_mm
        return {
            "format": FORMAT,
            "name": self.name,
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "play_area": {"x_mm": px, "y_mm": py, "width_mm": pw, "height_mm": ph},
            "tile_mm": self.tile_mm,
            "dictionary": self.dictionary,
            "marker_mm": self.marker_mm,
            "markers": [{"id": mid, "x_mm": c[0], "y_mm": c[1]}
                        for mid, c in zip(self.marker_ids, self.marker_centres_mm)],
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "mat") -> "Mat":
        """Read and validate a mat description; errors are one line naming ``source`` and the field."""
        def fail(msg: str) -> MatError:
            return MatError(T("{source}: {why}", source=str(source), why=msg))

        if not isinstance(data, Mapping):
            raise fail(T("expected a JSON object, got {kind}", kind=type(data).__name__))
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise fail(T("format: expected {expected}, got {value}", expected=repr(FORMAT), value=repr(fmt)))

        def number(obj: Mapping[str, Any], key: str, where: str, default: float | None = None) -> float:
            if key not in obj:
                if default is not None:
                    return default
                raise fail(T("{field}: missing (a number of millimetres)", field=where + key))
            value = obj[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise fail(T("{field}: expected a number of millimetres, got {value}", field=where + key, value=repr(value)))
            return float(value)

        play = data.get("play_area")
        if not isinstance(play, Mapping):
            raise fail(T("play_area: missing or not an object {fields}", fields="{x_mm, y_mm, width_mm, height_mm}"))
        markers = data.get("markers")
        if not isinstance(markers, list) or not markers:
            raise fail(T("markers: missing or empty (a list of {fields})", fields="{id, x_mm, y_mm}"))
        ids: list[int] = []
        centres: list[tuple[float, float]] = []
        for i, m in enumerate(markers):
            if not isinstance(m, Mapping):
                raise fail(T("markers[{i}]: expected an object {fields}", i=i, fields="{id, x_mm, y_mm}"))
            mid = m.get("id")
            if isinstance(mid, bool) or not isinstance(mid, int):
                raise fail(T("markers[{i}].id: expected an integer marker id, got {value}", i=i, value=repr(mid)))
            ids.append(mid)
            centres.append((number(m, "x_mm", f"markers[{i}]."), number(m, "y_mm", f"markers[{i}].")))
        dictionary = data.get("dictionary", "DICT_4X4_50")
        if not isinstance(dictionary, str):
            raise fail(T("dictionary: expected a name like 'DICT_4X4_50', got {value}", value=repr(dictionary)))
        name = data.get("name", "custom")
        notes = data.get("notes", [])
        mat = cls(
            width_mm=number(data, "width_mm", ""),
            height_mm=number(data, "height_mm", ""),
            play_origin_mm=(number(play, "x_mm", "play_area."), number(play, "y_mm", "play_area.")),
            play_width_mm=number(play, "width_mm", "play_area."),
            play_height_mm=number(play, "height_mm", "play_area."),
            dictionary=dictionary,
            marker_ids=tuple(ids),
            marker_mm=number(data, "marker_mm", ""),
            marker_centres_mm=tuple(centres),
            tile_mm=number(data, "tile_mm", "", default=45.0),
            name=str(name),
            notes=tuple(str(n) for n in notes) if isinstance(notes, list) else (),
        )
        return mat.validate(source)

    @classmethod
    def load(cls, path: str | Path) -> "Mat":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise MatError(T("{path}: cannot read the {what} ({why})", path=str(path), what=Tc("file", "mat file"),
                              why=exc.strerror or str(exc))) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MatError(T("{source}: not valid JSON (line {line}, column {column}: {why})", source=str(path), line=exc.lineno,
                              column=exc.colno, why=exc.msg)) from None
        return cls.from_dict(data, source=str(path))

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        self.validate(str(path))
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return path

    def with_tile_mm(self, tile_mm: float) -> "Mat":
        return replace(self, tile_mm=float(tile_mm)).validate()
