"""A word MeSH writes in a pattern that a description leaves out: "cardiac testing" is Heart Function
Tests (entry term "Cardiac Function Tests"), "rapid tests" are Rapid Diagnostic Tests.

MeSH names many things by a modifier, a word of what kind, and a head: "liver function tests",
"kidney function tests", "thyroid function tests"; "rapid diagnostic tests", "point-of-care diagnostic
tests". Writers leave the middle word out ("cardiac tests", "rapid tests"), and recognition by whole
words then finds nothing, so the phrase became an exact `[tiab]` phrase. Here the phrase is read as
the MeSH term with the word put back, only where MeSH shows that word is a pattern and not part of
one name:

- the left-out word and the head after it end the terms of at least `PATTERN_MIN_DESCRIPTORS`
  descriptors ("function tests" ends Liver, Kidney, Thyroid, Heart Function Tests): "Serum
  Bactericidal Test" is the only bactericidal test, so "serum tests" are no bactericidal test, and
  "physical tests" no "Physical Fitness Testing";
- exactly one descriptor has the phrase with such a word put back;
- the word put back is no heading on its own: a word that names a concept of its own ("pregnancy" in
  "Infectious Pregnancy Complications", "breast" or "blood") is what the term is about, and a writer who
  leaves it out does not mean it ("infectious complications" of a burn are no Pregnancy Complications,
  Infectious), while "function" and "diagnostic" only fill the pattern;
- a head's "-ing" form is its noun ("testing" = "test", "screening" = "screen"), as MeSH writes both.

The same holds for a modifier left out at the front: MeSH may list only the kinds of a thing
("Night Shift Work", "Rotating Shift Work", entry terms of Shift Work Schedule), and a description
names the thing ("shift work"). A phrase of two or more words that no term is, but that ends at least
`KINDS_MIN_TERMS` terms of one descriptor, more than it ends of all others together, names that
descriptor (`kinds_match`), unless a word before the phrase in those terms is a heading on its own:
such a kind is named by a concept of its own, as Injection Site Reaction ("Injection Site Adverse
Event", "Infusion Site Adverse Event") is one kind of adverse event, not what "adverse events" names,
while "night" and "rotating" only say which shift work, and "Per- and" which fluoroalkyl substances.

Nothing here lists words: the patterns are counted in MeSH.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter

from agent.language.mesh_recognition import MeshMatch, MeshVocabulary, phrase_key

PATTERN_MIN_DESCRIPTORS = 3  # descriptors whose terms a "word + head" must end to be a pattern
KINDS_MIN_TERMS = 2  # terms of one descriptor a phrase must end to name it as their common kind
_ING_MIN_STEM = 4  # "testing" -> "test"; "king", "ring" keep their "-ing"

# one index per vocabulary, dropped with it (an id() key could be reused by a later vocabulary)
_indexes: weakref.WeakKeyDictionary[MeshVocabulary, _ElisionIndex] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _noun(word: str) -> str:
    """The noun of a head's "-ing" form ("testing" -> "test"), or the word."""
    return word[:-3] if word.endswith("ing") and len(word) - 3 >= _ING_MIN_STEM else word


class _ElisionIndex:
    """MeSH's terms of three or more words by their key without the word before the head."""

    def __init__(self, vocabulary: MeshVocabulary) -> None:
        self.without_middle: dict[tuple[str, ...], set[tuple[str, str]]] = {}  # key -> (ui, left-out word)
        # an ending of two or more words -> the descriptors of the longer terms it ends, with their counts
        self.endings: dict[tuple[str, ...], Counter[str]] = {}
        pattern_uis: dict[tuple[str, str], set[str]] = {}
        for key, entries in vocabulary.term_keys():
            uis = {ui for rank, ui in entries if rank < 2}  # headings and entry terms, not permuted
            for cut in range(1, len(key) - 1):
                self.endings.setdefault(key[cut:], Counter()).update(uis)
            if len(key) < 3:
                continue
            head = _noun(key[-1])
            pattern_uis.setdefault((key[-2], head), set()).update(uis)
            reduced = (*key[:-2], head)
            self.without_middle.setdefault(reduced, set()).update((ui, key[-2]) for ui in uis)
        self.patterns = {
            pattern for pattern, uis in pattern_uis.items() if len(uis) >= PATTERN_MIN_DESCRIPTORS
        }

    def kind_ui(self, key: tuple[str, ...]) -> str | None:
        """The one descriptor whose longer terms `key` ends ("shift work": Shift Work Schedule)."""
        found = self.endings.get(key)
        if not found:
            return None
        (ui, count), *others = found.most_common()
        # most of the terms, not all: an inverted entry may end the same way ("Sleep Disorder, Shift Work")
        return ui if count >= KINDS_MIN_TERMS and count > sum(n for _, n in others) else None

    def descriptor_ui(self, key: tuple[str, ...], vocabulary: MeshVocabulary) -> str | None:
        reduced = (*key[:-1], _noun(key[-1]))
        found = {
            (ui, word)
            for ui, word in self.without_middle.get(reduced, ())
            if (word, reduced[-1]) in self.patterns
        }
        if len(found) != 1:
            return None
        ((ui, word),) = found
        return None if _a_heading(word, vocabulary) else ui


def _a_heading(word: str, vocabulary: MeshVocabulary) -> bool:
    """Whether a descriptor's heading is the word alone ("pregnancy": Pregnancy), a concept of its own."""
    return any(phrase_key(d.heading) == (word,) for d in vocabulary.lookup(word))


def _a_kind_named_by_a_concept(ui: str, key: tuple[str, ...], vocabulary: MeshVocabulary) -> bool:
    """Whether a term of the descriptor that ends in `key` writes a heading's word before it ("injection"
    in "Injection Site Adverse Event"): the kind is named by that concept, not by the phrase."""
    descriptor = vocabulary.descriptor(ui)
    return any(
        len(name_key) > len(key)
        and name_key[-len(key) :] == key
        and any(_a_heading(word, vocabulary) for word in name_key[: -len(key)])
        for name_key in (phrase_key(name) for name in (descriptor.heading, *descriptor.entry_terms))
    )


def _index(vocabulary: MeshVocabulary) -> _ElisionIndex:
    with _lock:
        if vocabulary not in _indexes:
            _indexes[vocabulary] = _ElisionIndex(vocabulary)
        return _indexes[vocabulary]


def elided_match(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The descriptor a phrase of two or more words names with one patterned word left out before its
    head ("cardiac testing": Heart Function Tests), as a match of the whole phrase, or []."""
    key = phrase_key(text)
    ui = _index(vocabulary).descriptor_ui(key, vocabulary) if len(key) >= 2 else None
    return _whole_phrase(text, ui, vocabulary)


def kinds_match(text: str, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    """The descriptor whose kinds a phrase of two or more words names by what their terms share ("shift
    work": Night and Rotating Shift Work, Shift Work Schedule), as a match of the whole phrase, or []. A
    phrase that is a term itself is recognition's to match."""
    key = phrase_key(text)
    named = len(key) < 2 or vocabulary.is_term_key(key)
    ui = None if named else _index(vocabulary).kind_ui(key)
    kind = ui if ui and not _a_kind_named_by_a_concept(ui, key, vocabulary) else None
    return _whole_phrase(text, kind, vocabulary)


def _whole_phrase(text: str, ui: str | None, vocabulary: MeshVocabulary) -> list[MeshMatch]:
    if ui is None:
        return []
    stripped = text.strip()
    start = text.find(stripped)
    return [MeshMatch(stripped, start, start + len(stripped), vocabulary.descriptor(ui), "entry term")]
