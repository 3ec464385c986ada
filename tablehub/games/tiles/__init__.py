"""The shared tile-laying core used by Carcassonne Neues Land and Südsee.

- :mod:`.catalog`: tile catalogs as data (three slots per side), validated on load.
- :mod:`.board`: the grid, edge matching, frontier and incremental feature merging.
- :mod:`.game`: the turn skeleton shared by tile games (box, draws, discards, views).
"""
from .board import TileBoard
from .catalog import Catalog, CatalogError, TileType, load_catalog, rotation_index

__all__ = ["Catalog", "CatalogError", "TileBoard", "TileType", "load_catalog", "rotation_index"]
