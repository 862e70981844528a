"""A misspelt drug name read as the drug MeSH files: "levitiracetam" is Levetiracetam.

Why: drug names are long, made of stems a writer hears rather than sees (INN syllables), and users
misspell them ("levitiracetam", "metformine", "amoxycillin" is even a listed variant). A word MeSH does
not know at all, one or two letters away from exactly one drug's one-word name of about the same length,
is that drug: a searcher would correct it without asking. A word MeSH or English knows is never
corrected, nor is the first letter (writers rarely misspell it), and a
word near two drugs ("cefotaxime"/"cefoxitin" neighbours) is left as written, since no rule can tell
which one was meant.

How: every one-word heading or entry term of a substance (MeSH tree D) at least `MIN_LENGTH` letters
long is indexed under itself and each of its one-letter deletions (the symmetric-deletion index of
SymSpell), so a word reaches the names within one insertion, deletion, substitution or transposition
of it, and those within an insertion and a deletion; the candidates are then checked by a true edit
distance (optimal string alignment).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DrugSpelling", "edit_distance"]

# shorter words sit too close together ("insulin" and "inulin"): only long names are corrected
MIN_LENGTH = 8
# the most edits a correction may need, and how much longer or shorter the word may be than the name
MAX_EDITS = 2
MAX_LENGTH_GAP = 1


def edit_distance(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and adjacent transpositions turning `a` into `b`
    (optimal string alignment)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))} | {word}


class DrugSpelling:
    """The one-word substance names of MeSH, indexed for the misspelt word nearest to exactly one."""

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        """`names`: (one-word name, descriptor ui) pairs of substances."""
        self._names: dict[str, set[str]] = {}
        self._index: dict[str, set[str]] = {}
        for name, ui in names:
            lower = name.lower()
            if len(lower) < MIN_LENGTH or not lower.isalpha():
                continue
            self._names.setdefault(lower, set()).add(ui)
            for key in _deletions(lower):
                self._index.setdefault(key, set()).add(lower)

    def drug_of(self, word: str) -> str | None:
        """The descriptor ui of the one drug `word` misspells, or None (a known name, no near name, or
        near names of several drugs). The caller says the word is unknown to MeSH."""
        lower = word.lower()
        if len(lower) < MIN_LENGTH or not lower.isalpha() or lower in self._names:
            return None
        near = {name for key in _deletions(lower) for name in self._index.get(key, ())}
        uis = {
            ui
            for name in near
            # a writer rarely misspells the first letter: "elections" is no Selectins
            if name[0] == lower[0]
            and abs(len(name) - len(lower)) <= MAX_LENGTH_GAP
            and edit_distance(lower, name) <= MAX_EDITS
            for ui in self._names[name]
        }
        return next(iter(uis)) if len(uis) == 1 else None
