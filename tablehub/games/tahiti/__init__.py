"""Tahiti: the rules engine (:mod:`.engine`), the board as data (:mod:`.board`, ``board.json``),
bank scoring for games and positions (:mod:`.scoring`) and seeded random playouts (:mod:`.playout`).
See docs/tahiti.md."""
