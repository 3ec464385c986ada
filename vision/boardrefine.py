"""The board's registration refined by patches of its art spread over the whole board.

Feature matching (ORB on a half-size frame, ``vision.boardreg``) finds the board fast, but its keypoints
are located to a pixel or two of the reduced frame and crowd where the art is busiest: the homography
fitted to them is right in the middle and can be a few millimetres off at a far corner, worse when
pieces cover one side of the board and the matches all come from the other. The refinement looks
again where it matters, at full resolution:

1. **Patches chosen once** on the enrolled empty board (:class:`PatchRefiner`): in each cell of a
   ``grid`` x ``grid`` division of the board the most corner-like point of the art (the smallest
   eigenvalue of its structure tensor: texture in both directions, so the patch is pinned in x and y),
   kept only when textured enough; the cells reach the board's edges, so the corners get patches.
2. **Each frame**: every patch's neighbourhood is straightened from the frame under the coarse
   registration (one resampling of a few thousand pixels, not the board) and the patch looked for in
   it (normalised cross-correlation: the light's level and contrast do not matter), to a tenth of a
   pixel (a parabola through the peak). A patch under a piece, or blurred beyond recognition, does
   not match well and is left out.
3. **One homography** from the patches found (RANSAC, then a least-squares refit on the agreeing
   ones). It is used only when the patches agree and cover the board (some in at least three of its
   four quarters): else the coarse registration stands.

When the correction moved a corner of the board by more than two canvas pixels (1 mm at 2 px/mm), a second pass looks within
two pixels of the first's answer, the patches straightened more exactly. No rules here.
"""
from __future__ import annotations

import cv2
import numpy as np

from .calibrate import LensCalibration


class PatchRefiner:
    """Refines ``board_from_image`` homographies against one empty board's ``canvas`` (``ppm`` px/mm)."""

    def __init__(self, canvas: np.ndarray, ppm: float, grid: int = 6, half: int = 10, search: int = 6,
                 min_peak: float = 0.6, min_patches: int = 10):
        grey = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY) if canvas.ndim == 3 else canvas
        self.ppm, self.half, self.search = ppm, half, search
        self.min_peak, self.min_patches = min_peak, min_patches
        h, w = grey.shape
        eig = cv2.cornerMinEigenVal(grey, 5, 3)
        m = half + search + 1  # room for the search window inside the canvas
        eig[:m], eig[h - m:], eig[:, :m], eig[:, w - m:] = 0, 0, 0, 0
        floor = 0.02 * float(eig.max())
        pts = []
        for gy in range(grid):
            for gx in range(grid):
                y0, y1 = gy * h // grid, (gy + 1) * h // grid
                x0, x1 = gx * w // grid, (gx + 1) * w // grid
                cell = eig[y0:y1, x0:x1]
                if cell.size == 0:
                    continue
                i = int(np.argmax(cell))
                if cell.flat[i] > floor:
                    pts.append((x0 + i % cell.shape[1], y0 + i // cell.shape[1]))
        self.points = np.int32(pts).reshape(-1, 2)  # canvas px
        self.patches = [np.ascontiguousarray(grey[y - half:y + half + 1, x - half:x + half + 1]) for x, y in self.points]
        self.size = (w, h)

    def refine(self, board_from_image: np.ndarray, grey: np.ndarray, lens: LensCalibration | None,
               frame_size: tuple[int, int]) -> tuple[np.ndarray, int]:
        """The refined ``board_from_image`` and how many patches agreed (``0``: not refined, the given one)."""
        got = self._once(board_from_image, grey, lens, frame_size, self.search)
        if got is None:
            return board_from_image, 0
        if _corner_shift_px(got[0], board_from_image, self.size, self.ppm) > 2.0:
            # a large correction: the patches were straightened under a registration that far off; once more
            again = self._once(got[0], grey, lens, frame_size, 2)
            got = again or got
        return got

    def _once(self, board_from_image: np.ndarray, grey: np.ndarray, lens: LensCalibration | None,
              frame_size: tuple[int, int], search: int) -> tuple[np.ndarray, int] | None:
        from .boardreg import _map_points  # one module each way: boardreg calls this one

        if len(self.points) < self.min_patches:
            return None
        half, ppm = self.half, self.ppm
        r = half + search
        side = 2 * r + 1
        img_from_canvas = np.linalg.inv(board_from_image) @ np.diag([1 / ppm, 1 / ppm, 1.0])
        # every patch's window, stacked into one tall picture: one remap for all of them
        off = np.arange(-r, r + 1, dtype=np.float32)
        xs = self.points[:, 0, None, None].astype(np.float32) + off[None, None, :]
        ys = self.points[:, 1, None, None].astype(np.float32) + off[None, :, None]
        xs, ys = np.broadcast_to(xs, (len(xs), side, side)), np.broadcast_to(ys, (len(ys), side, side))
        mx, my = _map_points(img_from_canvas, xs.reshape(-1, side), ys.reshape(-1, side), frame_size, lens)
        wins = cv2.remap(grey, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        found, where = [], []
        for i, patch in enumerate(self.patches):
            win = wins[i * side:(i + 1) * side]
            if int(win.min()) == 0 and int((win == 0).sum()) > side:  # partly outside the frame
                continue
            res = cv2.matchTemplate(win, patch, cv2.TM_CCOEFF_NORMED)
            _, peak, _, (px, py) = cv2.minMaxLoc(res)
            if peak < self.min_peak or not (0 < px < res.shape[1] - 1 and 0 < py < res.shape[0] - 1):
                continue  # covered, blurred away, or beyond the search
            dx = _vertex(res[py, px - 1], res[py, px], res[py, px + 1])
            dy = _vertex(res[py - 1, px], res[py, px], res[py + 1, px])
            # the patch's centre, enrolled at points[i], is seen at this canvas point under the coarse registration
            found.append((self.points[i, 0] + px + dx - search, self.points[i, 1] + py + dy - search))
            where.append(self.points[i])
        if len(found) < self.min_patches:
            return None
        seen = np.float64(found)
        p = np.column_stack([seen, np.ones(len(seen))]) @ img_from_canvas.T
        img = p[:, :2] / p[:, 2:3]  # undistorted frame px
        dst = np.float64(where)  # canvas px
        Hc, mask = cv2.findHomography(img, dst, cv2.RANSAC, 1.5, maxIters=500, confidence=0.999)
        if Hc is None or mask is None:
            return None
        ok = mask.ravel().astype(bool)
        w, h = self.size
        quarters = {(int(x >= w / 2), int(y >= h / 2)) for x, y in dst[ok]}
        if ok.sum() < self.min_patches or len(quarters) < 3:
            return None
        H2, _ = cv2.findHomography(img[ok], dst[ok], 0)
        if H2 is None:
            return None
        H2 = np.diag([1 / ppm, 1 / ppm, 1.0]) @ H2
        return H2 / H2[2, 2], int(ok.sum())


def _corner_shift_px(a: np.ndarray, b: np.ndarray, size: tuple[int, int], ppm: float) -> float:
    """How far apart (canvas px) two ``board_from_image`` homographies put the board's corners."""
    w, h = size
    c = np.float64([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]]) / np.float64([ppm, ppm, 1])
    pa = c @ np.linalg.inv(a).T  # the corners in the frame under a
    qa = (pa / pa[:, 2:]) @ b.T  # ... and back to the board under b
    return float(ppm * np.linalg.norm(qa[:, :2] / qa[:, 2:] - c[:, :2], axis=1).max())


def _vertex(a: float, b: float, c: float) -> float:
    """The parabola through (-1, a), (0, b), (1, c): where its peak lies (within half a pixel)."""
    den = a - 2 * b + c
    return 0.0 if den >= 0 else float(np.clip(0.5 * (a - c) / den, -0.5, 0.5))
