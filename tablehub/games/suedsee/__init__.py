"""Carcassonne Südsee: islanders on bridges, islands, seas and markets; goods and ships.

The engine is :class:`tablehub.games.suedsee.engine.Suedsee`; the provisional
component data are ``tiles.json`` (catalog format: docs/catalogs.md) and
``ships.json`` (docs/suedsee.md).
"""
