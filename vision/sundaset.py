"""The owner's recorded set of Sunda to Sahul pieces as a constraint on what the camera reads (issue 18).

Every piece on the table is one of the set's prints, seen from either acute corner (the reader anchors a piece at
whichever acute corner it found first, so a print and the print turned half round are the same piece). A ring of
12 land/water slots read from the pixels that is none of them holds a misread slot: thin spits and the run ends
at an acute corner are the slots the lens blur and the JPEG's chroma thin most. :func:`fit_to_set` replaces such a
ring by the set's print that costs least to believe, where undoing a slot costs how clearly its pixels said it
(both pieces' samples where a piece lies across the side: land and water continue across it), and disagreeing
with the piece across a side costs a whole slot. A ring that no print near it explains, or that two prints
explain about equally, is kept or chosen with a note in the reading's ``unsure`` list: the camera says it is
unsure rather than guessing in silence.

Which piece is which is never needed (look-alikes are one print). The set is also a pool (:func:`fit_to_pool`): the
table holds no more pieces of a print than the set has, so where more pieces were read as a print than that, the least
sure of them is another print still short on the table (the reader does not know what the game has used; only that
no print lies on the table more often than the set holds it, a bound that tightens as the table fills).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from tablehub.i18n import T  # the notes a phone reads (tablehub/locale/*/vision.po)

#: the farthest a read ring is corrected to a print of the set (slots changed)
MAX_SLOTS = 2
#: a print is chosen alone when the next print (another ring) costs this much more
MARGIN = 0.35
#: the cost of disagreeing with the ring the piece across a side was read with, per slot
ACROSS = 1.0


def prints_array(rings: Iterable[str]) -> np.ndarray:
    """(M, 12) bool, True for land: every distinct print of ``rings`` and each turned half round.
    Raises ``ValueError`` naming a ring that is not 12 slots of L and W."""
    out = set()
    for ring in rings:
        ring = str(ring).replace(" ", "")
        if len(ring) != 12 or set(ring) - {"L", "W"}:
            raise ValueError(f"the set's print {ring!r}: expected 12 slots of L and W")
        out.add(ring)
        out.add(ring[6:] + ring[:6])
    return np.array([[c == "L" for c in ring] for ring in sorted(out)], bool).reshape(-1, 12)


def across_arrays(n: int, across: Mapping[tuple[int, int], tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """``across`` ((piece, slot) -> (piece, slot) across a shared side) as two (n, 12) arrays: the piece across each
    slot (-1: none) and its slot there (``fit_to_set``'s and ``fit_to_pool``'s ``nb``, which a reader that has them
    passes instead of ``across``)."""
    nbp = np.full((n, 12), -1, np.int64)
    nbk = np.zeros((n, 12), np.int64)
    for (i, k), (o, ko) in across.items():
        nbp[i, k], nbk[i, k] = o, ko
    return nbp, nbk


def _support(votes: np.ndarray, land: np.ndarray) -> np.ndarray:
    """How clearly each slot's samples said what was read: 0 (a coin toss or nothing seen) to 1."""
    tot = votes.sum(-1)
    said = np.where(land, votes[..., 0], votes[..., 1])
    share = said / np.maximum(tot, 1e-6)
    return np.clip(2 * share - 1, 0, 1) * np.minimum(tot, 16) / 16


def fit_to_set(pieces: list[dict[str, Any]], prints: np.ndarray,
               across: Mapping[tuple[int, int], tuple[int, int]],
               nb: tuple[np.ndarray, np.ndarray] | None = None) -> list[str]:
    """Correct the rings of ``pieces`` (dicts with ``ring`` (12 letters), ``votes`` (12, 2) land/water sample
    weights, ``q, r, turn``) that are none of ``prints`` (:func:`prints_array`) in place; ``across`` maps
    (piece, slot) to (piece, slot) across a shared side. Returns notes of the pieces left unsure."""
    if not pieces or prints.size == 0:
        return []
    n = len(pieces)
    ring = np.array([[c == "L" for c in p["ring"]] for p in pieces], bool)          # (n, 12)
    votes = np.stack([np.asarray(p["votes"], np.float32) for p in pieces])         # (n, 12, 2)
    nbp, nbk = nb if nb is not None else across_arrays(n, across)   # the piece across each slot, and its slot
    has = nbp >= 0
    both = votes + np.where(has[..., None], votes[np.maximum(nbp, 0), nbk], 0)     # land continues across a side
    weights = 1 << np.arange(12)
    known = np.unique(prints @ weights)
    in_set = np.isin(ring @ weights, known)
    notes: list[str] = []
    # twice: a ring corrected to the truth may now meet a misread ring of the set across a side; that one's
    # turn comes in the second pass (what it costs to keep: the side it no longer continues)
    for _ in range(2):
        clash = has & (ring != ring[np.maximum(nbp, 0), nbk])
        need = np.nonzero(~in_set | clash.any(1))[0]
        notes += _fit(pieces, need, ring, both, has, nbp, nbk, prints, known, weights)
        in_set = np.isin(ring @ weights, known)
    return list(dict.fromkeys(notes))


def _fit(pieces, need, ring, both, has, nbp, nbk, prints, known, weights) -> list[str]:
    notes: list[str] = []
    for i in need[np.argsort(-_support(both[need], ring[need]).min(axis=1))]:  # the surest first: their sides hold
        nb_land = ring[np.maximum(nbp[i], 0), nbk[i]]
        mine = (ring[i] @ weights) in known
        if mine and not np.any(has[i] & (nb_land != ring[i])):
            continue  # a piece across was corrected since
        diff = prints != ring[i]                                                    # (M, 12)
        near = diff.sum(1) <= MAX_SLOTS
        if not near.any():
            notes.append(T("piece at {q},{r}: its print {ring} is none of the set's", q=pieces[i]["q"],
                           r=pieces[i]["r"], ring=_text(ring[i])))
            continue
        cand = prints[near]
        cost = (diff[near] * _support(both[i], ring[i])).sum(1) + (has[i] & (cand != nb_land)).sum(1) * ACROSS
        own = (has[i] & (ring[i] != nb_land)).sum() * ACROSS if mine else np.inf
        best = int(np.argmin(cost))
        if own <= cost[best]:
            continue
        rest = np.delete(cost, best)
        if rest.size and rest.min() < cost[best] + MARGIN:
            alt = cand[np.delete(np.arange(len(cand)), best)[int(np.argmin(rest))]]
            notes.append(T("piece at {q},{r}: read {ring}, the set has {first} or {second}", q=pieces[i]["q"],
                           r=pieces[i]["r"], ring=_text(ring[i]), first=_text(cand[best]), second=_text(alt)))
        ring[i] = cand[best]
        pieces[i]["ring"] = ["L" if x else "W" for x in ring[i]]
    return notes


def _text(ring: Sequence[bool]) -> str:
    return "".join("L" if x else "W" for x in ring)


def print_counts(rings: Iterable[str]) -> dict[int, int]:
    """How many pieces of the set carry each print, a print and the print turned half round being one (keyed by
    :func:`_canonical` of its slots' bits). Raises ``ValueError`` as :func:`prints_array` does."""
    rings = list(rings)
    prints_array(rings)                # checks every ring
    out: dict[int, int] = {}
    for ring in rings:
        bits = np.array([c == "L" for c in str(ring).replace(" ", "")], bool)
        key = int(_canonical(bits[None])[0])
        out[key] = out.get(key, 0) + 1
    return out


def _canonical(ring: np.ndarray) -> np.ndarray:
    """(n,) one key for each ring of ``ring`` ((n, 12) bool) and its half turn."""
    weights = 1 << np.arange(12)
    return np.minimum(ring @ weights, np.roll(ring, 6, axis=1) @ weights)


#: the most a move to the pool's print may cost (slots undone, weighed by how clearly each was read)
POOL_MAX_COST = 2.0


def fit_to_pool(pieces: list[dict[str, Any]], counts: Mapping[int, int],
                across: Mapping[tuple[int, int], tuple[int, int]],
                nb: tuple[np.ndarray, np.ndarray] | None = None) -> list[str]:
    """The set as a pool: the table holds no more pieces of a print than the set has (``counts``,
    :func:`print_counts`). Where more pieces were read as a print than the set holds, the pieces read so whose ring
    is least sure are moved to a print of the set that is still short on the table (within ``MAX_SLOTS`` slots),
    cheapest first: a slot costs the share of its samples (both pieces' across a side) that said what was read, so
    a slot with a trace of the other terrain (a thin spit the blur thinned, a false one from the blur of a cut
    edge) is the first undone; disagreeing with the piece across a side costs ``ACROSS``. Changes ``ring`` in
    place; returns notes for moves two pieces could have made about equally (``MARGIN``). With few pieces laid no
    print is over its count and nothing moves: the constraint tightens as the table fills."""
    if not pieces or not counts:
        return []
    n = len(pieces)
    ring = np.array([[c == "L" for c in p["ring"]] for p in pieces], bool)
    votes = np.stack([np.asarray(p["votes"], np.float32) for p in pieces])
    nbp, nbk = nb if nb is not None else across_arrays(n, across)
    has = nbp >= 0
    both = votes + np.where(has[..., None], votes[np.maximum(nbp, 0), nbk], 0)
    tot = both.sum(-1)
    key = _canonical(ring)
    read = {int(k): int(c) for k, c in zip(*np.unique(key, return_counts=True))}
    over = {k: c - counts[k] for k, c in read.items() if k in counts and c > counts[k]}
    under = {k: c - read.get(k, 0) for k, c in counts.items() if c > read.get(k, 0)}
    if not over or not under:
        return []
    targets = []                                 # every print still short, from both acute corners
    for k in under:
        bits = ((k >> np.arange(12)) & 1).astype(bool)
        targets += [(k, bits), (k, np.roll(bits, 6))]
    tk = np.array([t[0] for t in targets])
    tb = np.stack([t[1] for t in targets])                                       # (T, 12)
    # every piece read as an over-counted print against every short print (vectorised: on a full table a print
    # like open sea is read dozens of times, and the loop over them cost 12 ms of an incremental read's 40)
    cand = np.nonzero(np.isin(key, list(over)))[0]
    if not cand.size:
        return []
    rc, bc, tc, hc = ring[cand], both[cand], tot[cand], has[cand]
    said = np.where(rc, bc[..., 0], bc[..., 1]) / np.maximum(tc, 1e-6)
    said = np.where(tc > 0, said, 0.0)                                            # (I, 12)
    nb_land = ring[np.maximum(nbp[cand], 0), nbk[cand]]                           # (I, 12)
    diff = tb[None, :, :] != rc[:, None, :]                                       # (I, T, 12)
    near = diff.sum(2) <= MAX_SLOTS
    cost = ((diff * said[:, None, :]).sum(2) + (hc[:, None, :] & (tb[None] != nb_land[:, None, :])).sum(2) * ACROSS
            - ((hc & (rc != nb_land)).sum(1) * ACROSS)[:, None])                  # (I, T)
    ii, jj = np.nonzero(near & (cost <= POOL_MAX_COST))
    moves = sorted((float(cost[a, j]), int(cand[a]), int(tk[j]), int(j)) for a, j in zip(ii, jj))
    groups: dict[tuple[int, int], list[tuple[float, int]]] = {}
    for c, i, k, j in moves:
        groups.setdefault((k, int(key[i])), []).append((c, i))
    notes: list[str] = []
    moved: set[int] = set()
    for c, i, k, j in moves:
        src = int(key[i])
        if i in moved or over.get(src, 0) <= 0 or under.get(k, 0) <= 0:
            continue
        rival = [m for m in groups[(k, src)] if m[1] != i and m[1] not in moved and m[0] < c + MARGIN]
        if rival:     # another piece read so could as well be the one: say so, move neither
            notes.append(T("piece at {q},{r}: read {ring}, the set has {first} or {second}", q=pieces[i]["q"],
                           r=pieces[i]["r"], ring=_text(ring[i]), first=_text(ring[i]), second=_text(tb[j])))
            over[src] = 0
            continue
        moved.add(i)
        over[src] -= 1
        under[k] -= 1
        ring[i] = tb[j]
        pieces[i]["ring"] = ["L" if x else "W" for x in ring[i]]
    return notes
