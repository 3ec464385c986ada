"""Sunda to Sahul: the lattice (:mod:`.lattice`), the pieces file (:mod:`.pieces`, ``pieces.json``,
provisional), the layout with nodes, islands and lakes (:mod:`.board`), challenges' dice
(:mod:`.dice`), the actions (:mod:`.actions`), the rules engine (:mod:`.engine`) and seeded
random playouts (:mod:`.playout`). See docs/sunda.md."""
