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
them, strictly more than any other. `TailIndex.complete` runs this over the words of a text that
exact recognition left uncovered; a lone word right after a content word no match covers names nothing,
for that word says which kind is meant ("traffic signal" is no Protein Sorting Signal). Nothing here is
a list of terms: every word comes from MeSH.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from agent.language.morphology import FUNCTION_WORDS
from agent.language.text import NOT_A_GENUS_INITIAL
from agent.models import MeshDescriptor

TAIL_MAX_WORDS = 3  # a phrase of more words that MeSH does not name exactly is rarely one descriptor
TAIL_MAX_EXTRA = 2  # words a term may have before the phrase ("X-Ray" before "Computed Tomography")
TAIL_MAX_CANDIDATES = 12  # more descriptors ending in the phrase: a generic head ("tests", "imaging")
# a single word ends the terms of at least this many descriptors to name their family alone ("ultrasound",
# 6); a word ending two or three ("involvement": Community and Patient Involvement; "current": Synaptic
# Currents) is part of their names, which its modifier makes
TAIL_MIN_ONE_WORD = 4
TAIL_SHARE = 0.5  # the descriptor chosen is, or is above, more than this share of the candidates


# a match of recognition: start token, end token (exclusive), how it matched, descriptor id
Match = tuple[int, int, str, str]


class Word(Protocol):
    """A word of a text as recognition tokenises it (`agent.language.mesh_recognition.Token`)."""

    @property
    def key(self) -> str: ...  # normalised

    @property
    def start(self) -> int: ...  # character offsets in the normalised text

    @property
    def end(self) -> int: ...


def crosses_a_break(text: str, window: Sequence[Word]) -> bool:
    """True when a comma, full stop, semicolon, colon or bracket separates two words of the window (not
    the full stop of a genus's initial: "E. coli", `NOT_A_GENUS_INITIAL`)."""
    return bool(_BREAK.search(text, window[0].end, window[-1].start + 1))


_BREAK = re.compile(rf"[,;:()\[\]]|\.{NOT_A_GENUS_INITIAL}")


def joined_by_hyphen(text: str, before: Word, after: Word) -> bool:
    """True when two neighbouring words are one hyphenated compound ("second-line", "water-loss")."""
    return text[before.end : after.start] == "-"


def is_under(child: MeshDescriptor, parent: MeshDescriptor) -> bool:
    """Whether `child` is `parent` or below it in some MeSH tree."""
    return child.ui == parent.ui or is_below(child, parent)


def is_below(child: MeshDescriptor, parent: MeshDescriptor) -> bool:
    """Whether `child` sits below `parent` in some MeSH tree (not `parent` itself)."""
    return any(number.startswith(top + ".") for number in child.tree_numbers for top in parent.tree_numbers)


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
        if below is None and len(key) == 1 and len(uis) < TAIL_MIN_ONE_WORD:
            return None
        found = {ui: descriptor(ui) for ui in uis}
        cover = {ui: sum(1 for other in found.values() if is_under(other, found[ui])) for ui in sorted(found)}
        ranked = sorted(cover.items(), key=lambda item: -item[1])
        best, count = ranked[0]
        if count <= TAIL_SHARE * len(uis) or (len(ranked) > 1 and ranked[1][1] == count):
            return None
        return best

    def complete(
        self,
        text: str,
        tokens: Sequence[Word],
        chosen: list[Match],
        descriptor: Callable[[str], MeshDescriptor],
    ) -> list[Match]:
        """Words no match covers, alone or with the match right after them, that MeSH writes as the end
        of its terms: "computed" + Tomography is Tomography, X-Ray Computed, "ultrasound" alone is
        Ultrasonography. The longest such phrase wins; a match is only replaced by a descriptor under it."""
        starts = {match[0]: match for match in chosen}
        result: list[Match] = []
        index = 0
        while index < len(tokens):
            found = starts.get(index) or self._tail_at(
                text, tokens, index, starts, descriptor, modified=_modified(text, tokens, index, result)
            )
            if found is not None:
                result.append(found)
            index = found[1] if found is not None else index + 1
        return result

    def _tail_at(
        self,
        text: str,
        tokens: Sequence[Word],
        index: int,
        starts: dict[int, Match],
        descriptor: Callable[[str], MeshDescriptor],
        *,
        modified: bool = False,
    ) -> Match | None:
        """The descriptor of the longest phrase of uncovered words from `index` on, with the match that
        follows them (narrowed to a descriptor under it) or alone; never from the second part of a
        hyphenated compound, whose first part says which kind it is ("second-line" is no Cell Line)."""
        if index > 0 and joined_by_hyphen(text, tokens[index - 1], tokens[index]):
            return None  # the end of a compound ("line" of "second-line") is named with its first part
        free_end = min([start for start in starts if start > index], default=len(tokens))
        head = starts.get(free_end)
        windows: list[tuple[int, Match | None]] = []
        if head is not None and head[1] - index <= TAIL_MAX_WORDS:
            windows.append((head[1], head))
        windows += [(end, None) for end in range(min(free_end, index + TAIL_MAX_WORDS), index, -1)]
        for end, narrowed in windows:
            if crosses_a_break(text, tokens[index:end]):
                continue
            if modified and narrowed is None and end - index == 1:
                continue  # "traffic signal": a kind of signal MeSH does not name, no Protein Sorting Signal
            below = descriptor(narrowed[3]) if narrowed is not None else None
            ui = self.resolve(tuple(t.key for t in tokens[index:end]), descriptor, below)
            if ui is not None:
                return (index, end, "entry term", ui)
        return None


def _modified(text: str, tokens: Sequence[Word], index: int, matched: list[Match]) -> bool:
    """Whether the word before `index` is a content word of the same phrase that no match covers: it
    names a kind the lone word's MeSH family may not hold ("traffic" before "signal")."""
    if index == 0 or (matched and matched[-1][1] == index):
        return False
    before = tokens[index - 1]
    return before.key not in FUNCTION_WORDS and not crosses_a_break(text, tokens[index - 1 : index + 1])
