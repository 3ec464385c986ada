"""Union-find's one shared step: the root of a node, with path compression (every engine's regions and islands)."""
from __future__ import annotations


def root(parent: list[int], n: int) -> int:
    """The root of ``n`` in the forest ``parent`` (a root is its own parent); the path is pointed at it."""
    top = n
    while parent[top] != top:
        top = parent[top]
    while parent[n] != top:
        parent[n], n = top, parent[n]
    return top
