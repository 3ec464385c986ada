"""Where a figure stands, from what the camera sees of it.

A figure is a solid about 16 mm wide and 20 mm tall. Seen through the mat's homography (the table plane), a
point of it at height ``z`` above its base ``p`` lands at ``p + z * (p - n) / (H - z)``, where ``n`` is the
camera's *nadir* (the point of the table straight under the lens) and ``H`` the lens's height: the figure's
picture leans away from the nadir, its top several millimetres beyond its base (about 9 mm for a 20 mm figure
300 mm from the nadir of a camera 700 mm up). A figure standing near its tile's edge on the side away from the
nadir therefore shows mostly over the next tile; its base, where it stands, is the end of its picture nearest
the nadir.

The nadir follows from the camera's pose, which the mat's markers give: the homography ``image -> mat`` is
``K [r1 r2 t]`` up to scale (``K`` the camera matrix, ``r1, r2`` the first two columns of the rotation); the
camera's centre is ``-R^T t``, whose table coordinates are ``(-r1.t, -r2.t)`` and whose height is ``|r3.t|``.
Without a lens calibration the principal point is taken at the frame's middle and the focal length from the
homography itself (the two table axes are perpendicular and equally long in the camera's frame), or a Pi
Camera Module 3's when the view is too square-on to tell (then the nadir lies near the frame's middle anyway).

>>> import numpy as np
>>> K = np.array([[1000.0, 0, 960], [0, 1000.0, 540], [0, 0, 1]])
>>> R = np.eye(3); t = -R @ np.array([300.0, 200.0, -800.0])          # camera 800 mm above (300, 200)
>>> H = np.linalg.inv(K @ np.column_stack([R[:, 0], R[:, 1], t]))
>>> [round(v, 3) for v in camera_nadir(H, K, (1920, 1080))]
[300.0, 200.0, 800.0]
"""
from __future__ import annotations

import math

import numpy as np

FOOT_MM = 6.0
"""Half the size of a figure's base along the direction it leans (a meeple's foot is about 16 x 8-10 mm: half of
it 4-8 mm, depending on how it is turned; 6 mm on average)."""

FIGURE_MIDDLE_MM = 8.5
"""The height of a standing figure's middle (a meeple is about 17 mm tall): its picture, the figure's slices each
shifted by their height's lean, is centred on the lean of about that height."""

DEFAULT_HFOV_DEG = 66.0
"""The Raspberry Pi Camera Module 3's horizontal field of view (its standard lens), when no lens is calibrated and
the view does not tell the focal length."""


def camera_nadir(homography: np.ndarray, K: np.ndarray | None, size: tuple[int, int]
                 ) -> tuple[float, float, float] | None:
    """The table point straight under the camera (mat mm) and the camera's height (mm), from ``homography``
    (undistorted image pixels -> mat mm) and the camera matrix ``K`` (None: guessed, see the module); None
    when the homography is degenerate."""
    try:
        Hm = np.linalg.inv(np.asarray(homography, np.float64))        # mat mm -> image pixels
    except np.linalg.LinAlgError:
        return None
    if K is None:
        K = guess_camera_matrix(Hm, size)
    M = np.linalg.solve(K, Hm)
    n1, n2 = np.linalg.norm(M[:, 0]), np.linalg.norm(M[:, 1])
    if n1 < 1e-12 or n2 < 1e-12:
        return None
    scale = 2.0 / (n1 + n2)
    r1, r2, t = M[:, 0] / n1, M[:, 1] / n2, M[:, 2] * scale
    r3 = np.cross(r1, r2)
    r3 /= max(np.linalg.norm(r3), 1e-12)
    return float(-r1 @ t), float(-r2 @ t), float(abs(r3 @ t))


def guess_camera_matrix(Hm: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A camera matrix for a frame of ``size`` with no lens calibration: square pixels, the principal point at
    the middle, the focal length that makes the table's axes perpendicular (or equally long) in the camera's
    frame, else :data:`DEFAULT_HFOV_DEG`'s."""
    w, h = size
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    c = np.array([[1.0, 0, -cx], [0, 1.0, -cy], [0, 0, 1.0]]) @ Hm
    a, b = c[:, 0], c[:, 1]
    guesses = []
    den = a[2] * b[2]
    if abs(den) > 1e-12:
        guesses.append(-(a[0] * b[0] + a[1] * b[1]) / den)
    den = b[2] ** 2 - a[2] ** 2
    if abs(den) > 1e-12:
        guesses.append((a[0] ** 2 + a[1] ** 2 - b[0] ** 2 - b[1] ** 2) / den)
    f_default = (w / 2.0) / math.tan(math.radians(DEFAULT_HFOV_DEG) / 2)
    ok = [math.sqrt(g) for g in guesses if g > 0 and 0.3 * w <= math.sqrt(g) <= 5.0 * w]
    f = float(np.median(ok)) if ok else f_default
    return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])


def standing_point(mask: np.ndarray, nadir_px: tuple[float, float] | None, foot_px: float,
                   camera_height: float | None = None, middle_sd_mm: float | None = None
                   ) -> tuple[float, float, bool]:
    """Where a figure whose picture is ``mask`` (a boolean image) stands, in that image's pixel coordinates
    (x, y; pixel centres at integers), and whether the picture touches the image's edge (then part of the figure
    may lie beyond, its base or the part that tells its colour). ``nadir_px``: the camera's nadir in the same
    coordinates (None: unknown, the picture's middle is taken). The base lies ``foot_px`` beyond the picture's
    end nearest the nadir, on the line through the nadir and the picture's middle, across it at the picture's
    middle.

    With ``camera_height`` (the camera's height over the table, mm) the base along that line is the mean of that
    estimate (the foot reaches 4 to 8 mm from the middle as the figure is turned) and one that errs for another
    reason: the picture's middle taken back by the lean of the figure's middle height (:data:`FIGURE_MIDDLE_MM`; a
    point at height z lands ``z / (H - z)`` of its distance from the nadir further out, so the base lies at
    ``(H - z) / H`` of the middle's distance), which does not depend on the turn but on how much of the figure the
    picture holds. On boards made like the bench's field camera at ``hard`` (other seeds) the base's error along
    the lean went from a mean of +0.5-0.6 mm and sd 1.5-1.6 mm to -0.3-0.15 and 1.2-1.4. The two are weighed by how
    far each can err (:func:`_weighed`): near the nadir the middle, whose error is its height's times the lean, counts
    most. The recogniser passes the height with ``Recognizer.base_from_middle`` (on; see
    docs/history/vision-measured.md, "Whole boards on both cameras"). ``middle_sd_mm``: how far the height whose lean
    the picture's middle shows may err (sd, mm; None: :data:`MIDDLE_HEIGHT_SD_MM`)."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return float("nan"), float("nan"), False
    mx, my = float(xs.mean()), float(ys.mean())
    if nadir_px is None:
        return mx, my, False
    d = np.array([mx - nadir_px[0], my - nadir_px[1]])
    norm = float(np.linalg.norm(d))
    if norm < 1e-6:
        return mx, my, False
    d /= norm
    along = (xs - mx) * d[0] + (ys - my) * d[1]
    across = (xs - mx) * -d[1] + (ys - my) * d[0]
    near = float(np.percentile(along, 2)) - 0.5          # the picture's near edge (pixel centres + half a pixel)
    base_along = min(near + foot_px, 0.0)                 # never beyond the picture's middle (a lying figure)
    if camera_height is not None and camera_height > 2 * FIGURE_MIDDLE_MM:
        # the middle's distance from the nadir, taken back by its height's lean
        by_lean = -norm * FIGURE_MIDDLE_MM / camera_height
        lean_per_mm = norm * FOOT_MM / foot_px / camera_height          # mm over mm
        base_along = (_weighed(base_along, by_lean, lean_per_mm) if middle_sd_mm is None
                      else _weighed(base_along, by_lean, lean_per_mm, middle_sd_mm))
    base_across = float(np.median(across))
    x = mx + base_along * d[0] - base_across * d[1]
    y = my + base_along * d[1] + base_across * d[0]
    return x, y, touches_edge(mask)


EDGE_SD_MM = 1.2
"""How far the base found from the picture's near end errs (sd, mm): the foot reaches 3.8 to 7 mm from the base's
middle as the figure is turned (sd about 1 mm over its turns), and the near end is found to a pixel of the figures'
scale (about 1.9 mm: sd about 0.5 mm)."""
MIDDLE_HEIGHT_SD_MM = 2.5
"""How far the height whose lean the picture's middle shows errs from :data:`FIGURE_MIDDLE_MM` (sd, mm): it depends
on how much of the figure's lower, darker part the picture holds. Its error along the lean is this times the lean
per millimetre of height (the middle's distance from the nadir over the camera's height): near the nadir the middle
tells the base best, far from it the near end."""


def _weighed(by_edge: float, by_lean: float, lean_per_mm: float, middle_sd_mm: float = MIDDLE_HEIGHT_SD_MM) -> float:
    """The base along the lean from its two estimates (pixels from the picture's middle), each weighed by the inverse
    of its expected variance (:data:`EDGE_SD_MM`; ``middle_sd_mm`` times ``lean_per_mm``, the lean per millimetre of
    height)."""
    var_edge = EDGE_SD_MM ** 2
    var_lean = (middle_sd_mm * lean_per_mm) ** 2 + 0.3 ** 2     # and the middle found to about 0.3 mm
    w = var_edge / (var_edge + var_lean)
    return float(w * by_lean + (1.0 - w) * by_edge)


def touches_edge(mask: np.ndarray) -> bool:
    """Whether a picture (a boolean image) runs off its image: then part of it may lie beyond."""
    return bool(mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any())


__all__ = ["FIGURE_MIDDLE_MM", "FOOT_MM", "camera_nadir", "guess_camera_matrix", "standing_point", "touches_edge"]
