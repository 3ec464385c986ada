"""Synthetic table renderer: draws photos of a games table for tests, demos and benchmarks.

>>> from vision.sim import Scene, SceneTile, render, DrawnArt, NUISANCE   # doctest: +SKIP
>>> image, truth = render(Scene(tiles=[SceneTile(0, 0, "ds001")]), art, camera="default")  # doctest: +SKIP
"""
from __future__ import annotations

from .art import PLAYER_COLOURS, DrawnArt, ScanArt, TileArt
from .camera import FIELD, MAGENTA, NUISANCE, OLIVE_CLOTH, CameraModel, CameraPose, place_camera
from .renderer import RenderTruth, render, render_sheet
from .scene import Scene, SceneFigure, SceneHand, SceneTile, scene_from_view

__all__ = ["CameraModel", "CameraPose", "DrawnArt", "FIELD", "MAGENTA", "NUISANCE", "OLIVE_CLOTH", "PLAYER_COLOURS", "RenderTruth", "ScanArt",
           "Scene", "SceneFigure", "SceneHand", "SceneTile", "TileArt", "place_camera", "render", "render_sheet", "scene_from_view"]
