"""Carcassonne Neues Land (The Discovery)."""
from .engine import Draw, NeuesLand, ScoreFigure, SetAside

__all__ = ["Draw", "NeuesLand", "ScoreFigure", "SetAside"]
