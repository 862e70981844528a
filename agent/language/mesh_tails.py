"""Phrases MeSH writes only as the end of longer terms: "computed tomography", "ultrasound".

A searcher reads "computed tomography" as the descriptor Tomography, X-Ray Computed although no heading
or entry term is exactly those words: MeSH writes them at the end of its terms ("X-Ray Computed
Tomography", "Electron Beam Computed Tomography", "Spiral Computed Tomography", "Emission-Computed
Tomography"), and the descriptor that is the phrase is the one above most of the others in the MeSH
trees. Likewise "ultrasound" ends "Diagnostic Ultrasound", "Doppler Ultrasound", "Carotid Ultrasound",
"Interventional Ultrasound" (all Ultrasonography or under it) and only a few terms elsewhere
("Therapeutic Ultrasound", "Pulsed Ultrasound"). Exact recognition finds nothing for such a phrase, or
only its head ("tomography"), which is broader than what is meant.

`TailIndex` indexes the last words of every term in natural order ("Tomography, X-Ray Computed" is
indexed as "... computed tomography"), and `TailIndex.resolve` answers with the descriptor a phrase
stands for when MeSH agrees: the phrase ends at most `TAIL_MAX_CANDIDATES` descriptors' terms (a word
that ends dozens, such as "tests" or "imaging", is a generic head, not a name), with at most
`TAIL_MAX_EXTRA` words before it, and one descriptor is the same as or above more than `TAIL_SHARE` of
them, strictly more than any other. Nothing here is a list of terms: every word comes from MeSH.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from agent.models import MeshDescriptor

TAIL_MAX_WORDS = 3  # a phrase of more words that MeSH does not name exactly is rarely one descriptor
TAIL_MAX_EXTRA = 2  # words a term may have before the phrase ("X-Ray" before "Computed Tomography")
TAIL_MAX_CANDIDATES = 12  # more descriptors ending in the phrase: a generic head ("tests", "imaging")
TAIL_SHARE = 0.5  # the descriptor chosen is, or is above, more than this share of the candidates


def is_under(child: MeshDescriptor, parent: MeshDescriptor) -> bool:
    """Whether `child` is `parent` or below it in some MeSH tree."""
    return child.ui == parent.ui or any(
        number.startswith(top + ".") for number in child.tree_numbers for top in parent.tree_numbers
    )


class TailIndex:
    """The descriptors whose terms (in natural word order) end with a given run of 1 to
    `TAIL_MAX_WORDS` normalised words, with at most `TAIL_MAX_EXTRA` words before it."""

    def __init__(self) -> None:
        self._tails: dict[tuple[str, ...], set[str]] = {}

    def add(self, key: tuple[str, ...], ui: str) -> None:
        """Index one term's natural-order key (the whole key is exact recognition's job)."""
        for size in range(max(1, len(key) - TAIL_MAX_EXTRA), min(TAIL_MAX_WORDS, len(key) - 1) + 1):
            self._tails.setdefault(key[-size:], set()).add(ui)

    def candidates(self, key: Iterable[str]) -> set[str]:
        return self._tails.get(tuple(key), set())

    def resolve(
        self,
        key: tuple[str, ...],
        descriptor: Callable[[str], MeshDescriptor],
        below: MeshDescriptor | None = None,
    ) -> str | None:
        """The descriptor the phrase `key` stands for (see the module doc), or None. With `below` (the
        descriptor exact recognition found for the phrase's head), only descriptors under it count:
        the modifier words can only narrow what the head names."""
        uis = self.candidates(key)
        if below is not None:
            uis = {ui for ui in uis if ui != below.ui and is_under(descriptor(ui), below)}
        if not 2 <= len(uis) <= TAIL_MAX_CANDIDATES:  # one descriptor: the phrase is part of its name
            return None
        found = {ui: descriptor(ui) for ui in uis}
        cover = {ui: sum(1 for other in found.values() if is_under(other, found[ui])) for ui in sorted(found)}
        ranked = sorted(cover.items(), key=lambda item: -item[1])
        best, count = ranked[0]
        if count <= TAIL_SHARE * len(uis) or (len(ranked) > 1 and ranked[1][1] == count):
            return None
        return best
