"""Sunda to Sahul: the lattice (:mod:`.lattice`), the pieces file (:mod:`.pieces`, ``pieces.json``,
provisional), hand-drawn positions (:mod:`.drawing`), the layout with nodes, islands and lakes
(:mod:`.board`), challenges' dice (:mod:`.dice`), the actions (:mod:`.actions`), the rules engine
(:mod:`.engine`), positions read off the table (:mod:`.position`) and seeded random playouts
(:mod:`.playout`). See docs/sunda.md."""
