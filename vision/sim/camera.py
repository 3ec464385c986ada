"""A pinhole camera with lens distortion above the table, and the image nuisances of a real one.

World frame: mat millimetres (x east, y south on the table), z pointing down into
the table, so the table is the plane z = 0 and the camera hangs at z = -height.
The distortion model is OpenCV's (k1, k2, p1, p2, k3), so a lens calibration
(:class:`vision.calibrate.LensCalibration`) of the rendered camera is exact.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from ..calibrate import undistort_pixels


@dataclass(frozen=True)
class CameraModel:
    """Where the camera is and how it spoils the picture. All angles in degrees.

    ``height_mm=None`` puts the camera at the height where the mat fills
    ``fill`` of the image height. ``tilt_azimuth_deg=None`` and ``light_angle_deg=None``
    are drawn at random for each frame.
    """

    hfov_deg: float = 66.0            # Raspberry Pi Camera Module 3 (standard lens)
    height_mm: float | None = None
    fill: float = 0.92
    tilt_deg: float = 0.0             # optical axis away from vertical
    tilt_azimuth_deg: float | None = 0.0
    roll_deg: float = 0.0             # image rotation about the optical axis
    shift_mm: tuple[float, float] = (0.0, 0.0)  # where the camera looks, from the mat centre
    distortion: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    exposure: float = 1.0
    light_gradient: float = 0.0       # relative brightness change across the table
    light_angle_deg: float | None = None
    vignette: float = 0.0             # relative darkening in the image corners
    colour_cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R gains
    cast_jitter: float = 0.0          # random extra per-channel gain (white balance wander)
    noise_sigma: float = 0.0          # read noise, 0..255 units
    shot_noise: float = 0.0           # photon noise scale (sigma = shot_noise * sqrt(value))
    blur_sigma: float = 0.0           # defocus / motion, pixels
    jpeg_quality: int | None = None
    pose_jitter_deg: float = 0.0      # random extra tilt and roll per frame (a wobbly arm)

    def with_(self, **changes) -> "CameraModel":
        return replace(self, **changes)

    def other_session(self) -> "CameraModel":
        """The same camera on another evening: light from another side, another colour balance and exposure,
        the arm tilted another way. Sets are enrolled so (benchmarks, the simulated table), never read back
        under the very light and pose they were learnt in."""
        cast = tuple(c * g for c, g in zip(self.colour_cast, (1.03, 1.0, 0.96)))
        return self.with_(light_angle_deg=200.0, colour_cast=cast, exposure=self.exposure * 1.06,
                          tilt_azimuth_deg=250.0)


#: nuisance presets: "clean" (ideal camera), "default" (a decent Pi camera over a table under
#: room light), "hard" (cheap wide lens on a tilted arm, warm dim light, strong JPEG)
NUISANCE: dict[str, CameraModel] = {
    "clean": CameraModel(),
    "default": CameraModel(tilt_deg=6.0, tilt_azimuth_deg=None, roll_deg=1.5, shift_mm=(8.0, -5.0),
                           distortion=(-0.02, 0.01, 0.0, 0.0, 0.0), light_gradient=0.18, vignette=0.15,
                           colour_cast=(0.93, 1.0, 1.06), cast_jitter=0.02, noise_sigma=2.0, shot_noise=0.25,
                           blur_sigma=0.7, jpeg_quality=88, pose_jitter_deg=0.5),
    "hard": CameraModel(hfov_deg=80.0, fill=0.9, tilt_deg=16.0, tilt_azimuth_deg=None, roll_deg=7.0,
                        shift_mm=(25.0, 15.0), distortion=(-0.09, 0.03, 0.001, -0.001, 0.0), exposure=0.82,
                        light_gradient=0.4, vignette=0.32, colour_cast=(0.82, 0.98, 1.16), cast_jitter=0.05,
                        noise_sigma=4.5, shot_noise=0.6, blur_sigma=1.3, jpeg_quality=65, pose_jitter_deg=1.0),
}


@dataclass(frozen=True)
class CameraPose:
    """A camera placed for one frame: intrinsics, distortion, rotation and translation (world -> camera)."""

    K: np.ndarray
    dist: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]  # (width, height)

    @property
    def centre_mm(self) -> np.ndarray:
        """Camera centre in world mm (z negative: above the table)."""
        return -self.R.T @ self.t

    def mat_to_undistorted(self) -> np.ndarray:
        """Homography from mat mm (table plane) to undistorted image pixels."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    def project(self, pts_mm: np.ndarray, z_mm: float | np.ndarray = 0.0, distort: bool = True) -> np.ndarray:
        """Image pixels of world points ``(x, y)`` at height ``-z`` above the table (z < 0 above)."""
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        z = np.broadcast_to(np.asarray(z_mm, np.float64), (len(pts),))
        obj = np.column_stack([pts, z])
        if distort and np.any(self.dist):
            rvec, _ = cv2.Rodrigues(self.R)
            out, _ = cv2.projectPoints(obj, rvec, self.t, self.K, self.dist)
            return out.reshape(-1, 2)
        cam = obj @ self.R.T + self.t
        pix = cam @ self.K.T
        return pix[:, :2] / pix[:, 2:3]

    def undistort(self, pts_px: np.ndarray) -> np.ndarray:
        if not np.any(self.dist):
            return np.asarray(pts_px, np.float64).reshape(-1, 2)
        return undistort_pixels(pts_px, self.K, self.dist)

    def image_to_mat(self, pts_px: np.ndarray) -> np.ndarray:
        """Mat mm of image pixels (exact: undistort, then the inverse plane homography)."""
        und = self.undistort(pts_px)
        Hinv = np.linalg.inv(self.mat_to_undistorted())
        p = np.column_stack([und, np.ones(len(und))]) @ Hinv.T
        return p[:, :2] / p[:, 2:3]


def intrinsics(hfov_deg: float, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    return np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]], np.float64)


def _look_at(centre: np.ndarray, target: np.ndarray, roll_deg: float) -> np.ndarray:
    z = target - centre
    z /= np.linalg.norm(z)
    down = np.array([0.0, 1.0, 0.0])
    y = down - (down @ z) * z
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    a = math.radians(roll_deg)
    x, y = math.cos(a) * x + math.sin(a) * y, -math.sin(a) * x + math.cos(a) * y
    return np.vstack([x, y, z])


def place_camera(cam: CameraModel, mat_size_mm: tuple[float, float], size: tuple[int, int],
                 rng: np.random.Generator | None = None) -> CameraPose:
    """Put the camera above a mat of ``mat_size_mm`` (width, height) for one frame."""
    rng = rng or np.random.default_rng(0)
    K = intrinsics(cam.hfov_deg, size)
    dist = np.asarray(cam.distortion, np.float64)
    mw, mh = mat_size_mm
    target = np.array([mw / 2 + cam.shift_mm[0], mh / 2 + cam.shift_mm[1], 0.0])
    azimuth = cam.tilt_azimuth_deg if cam.tilt_azimuth_deg is not None else float(rng.uniform(0, 360))
    jit = cam.pose_jitter_deg
    tilt = cam.tilt_deg + (float(rng.uniform(-jit, jit)) if jit else 0.0)
    roll = cam.roll_deg + (float(rng.uniform(-jit, jit)) if jit else 0.0)
    corners = np.array([[0, 0], [mw, 0], [mw, mh], [0, mh]], np.float64)

    def pose_at(height: float) -> CameraPose:
        a = math.radians(azimuth)
        off = height * math.tan(math.radians(tilt))
        centre = target + np.array([-off * math.cos(a), -off * math.sin(a), 0.0])
        centre[2] = -height
        R = _look_at(centre, target, roll)
        return CameraPose(K, dist, R, -R @ centre, size)

    if cam.height_mm is not None:
        return pose_at(cam.height_mm)
    # fit: the mat's projected extent should cover `fill` of the limiting image dimension
    height = K[0, 0] * max(mw, mh) / (cam.fill * min(size))
    for _ in range(3):
        pose = pose_at(height)
        p = pose.project(corners, distort=False)
        span_x = (p[:, 0].max() - p[:, 0].min()) / size[0]
        span_y = (p[:, 1].max() - p[:, 1].min()) / size[1]
        height *= max(span_x, span_y) / cam.fill
    return pose_at(height)


@lru_cache(maxsize=4)
def _undistort_grid(K_key: tuple, dist_key: tuple, size: tuple[int, int]) -> np.ndarray:
    """Undistorted pixel position of every (distorted) output pixel: (h, w, 2) float32."""
    w, h = size
    K = np.array(K_key, np.float64).reshape(3, 3)
    dist = np.array(dist_key, np.float64)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    und = undistort_pixels(pts, K, dist, iterations=20, eps=1e-5)
    return und.reshape(h, w, 2).astype(np.float32)


def plane_maps(pose: CameraPose, plane_from_mat: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """cv2.remap maps from output image pixels to plane-image pixels, or None when no distortion."""
    if not np.any(pose.dist):
        return None
    und = _undistort_grid(tuple(pose.K.ravel()), tuple(pose.dist.ravel()), pose.size)
    H = plane_from_mat @ np.linalg.inv(pose.mat_to_undistorted())
    H = H.astype(np.float32)
    x, y = und[..., 0], und[..., 1]
    den = H[2, 0] * x + H[2, 1] * y + H[2, 2]
    mx = (H[0, 0] * x + H[0, 1] * y + H[0, 2]) / den
    my = (H[1, 0] * x + H[1, 1] * y + H[1, 2]) / den
    return mx, my



def photograph(plane: np.ndarray, plane_from_mat: np.ndarray, pose: CameraPose, *, prefilter: bool = True,
               eight_bit: bool = True, border: int = cv2.BORDER_REPLICATE, border_value: float | tuple = 0.0
               ) -> np.ndarray:
    """What the lens makes of a flat picture of the table (``plane_from_mat``: mat mm to the picture's pixels,
    a scale and a shift), as float32 pixels of ``pose.size`` before the camera's light and noise. Where the
    picture is finer than the camera's pixels it is blurred first (``prefilter``) so that the downsampling warp
    does not alias; ``eight_bit`` warps it as 8-bit pixels, several times faster (values must be 0-255)."""
    if prefilter:
        ratio = float(plane_from_mat[0, 0]) / (pose.K[0, 0] / float(-pose.centre_mm[2]))
        if ratio > 1.5:
            plane = cv2.GaussianBlur(plane, (0, 0), 0.45 * ratio)
    if eight_bit:
        plane = cv2.convertScaleAbs(plane)
    maps = plane_maps(pose, plane_from_mat)
    if maps is None:
        M = plane_from_mat @ np.linalg.inv(pose.mat_to_undistorted())
        img = cv2.warpPerspective(plane, M, pose.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=border, borderValue=border_value)
    else:
        img = cv2.remap(plane, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=border, borderValue=border_value)
    return img.astype(np.float32)

#: a second camera and light, far from :data:`NUISANCE` (``tablehub bench vision --camera field``): a wider lens
#: with stronger distortion (calibrated, as the docs advise for wide lenses), warm light, a dim corner (strong
#: gradient and vignette), heavier JPEG; the bench also lays an olive cloth as the mat, turns the cast magenta on
#: every other board and frames some boards so that a marker touches the frame's edge.
FIELD: dict[str, CameraModel] = {
    "clean": CameraModel(hfov_deg=90.0, distortion=(-0.12, 0.04, 0.0, 0.0, 0.0), colour_cast=(0.85, 1.0, 1.2)),
    "default": CameraModel(hfov_deg=90.0, fill=0.9, tilt_deg=9.0, tilt_azimuth_deg=None, roll_deg=-3.0,
                           shift_mm=(-12.0, 8.0), distortion=(-0.12, 0.04, 0.0005, 0.0, 0.0), exposure=0.9,
                           light_gradient=0.45, light_angle_deg=None, vignette=0.35, colour_cast=(0.8, 0.97, 1.22),
                           cast_jitter=0.04, noise_sigma=3.0, shot_noise=0.4, blur_sigma=0.9, jpeg_quality=62,
                           pose_jitter_deg=0.6),
    "hard": CameraModel(hfov_deg=95.0, fill=0.9, tilt_deg=14.0, tilt_azimuth_deg=None, roll_deg=-6.0,
                        shift_mm=(-20.0, 12.0), distortion=(-0.16, 0.05, 0.001, -0.001, 0.0), exposure=0.78,
                        light_gradient=0.55, vignette=0.45, colour_cast=(0.74, 0.95, 1.3), cast_jitter=0.06,
                        noise_sigma=5.0, shot_noise=0.7, blur_sigma=1.3, jpeg_quality=50, pose_jitter_deg=1.0),
}
MAGENTA = (1.12, 0.8, 1.1)
"""A magenta cast (B, G, R gains), swapped in for the warm one on every other field board."""
OLIVE_CLOTH = (40, 104, 98)
"""An olive cloth under the tiles (BGR), the field boards' mat colour."""
