"""The descriptor a word names when MeSH writes it only at the head of a family of headings.

MeSH files some general concepts under an inverted heading and no plain one: there is no heading
"Fractures", but "Fractures, Bone" with its kinds "Fractures, Closed", "Fractures, Stress",
"Fractures, Compression" ... below it in the tree (and "Fractures, Cartilage" elsewhere). A searcher
who reads "the risk of fractures" searches Fractures, Bone: the heading of the family that is the
ancestor of most of the others. Exact recognition (`agent.language.mesh_recognition`) finds no
descriptor for the lone word, so this is asked only where nothing else matched. Nothing here is a
list: the families are MeSH's own headings and trees.

So does MeSH name some words only at the end of a family's headings: "caries" is no term, but ends
Dental Caries and Root Caries, a kind of it; "dentine caries" is a dental caries (`head_family_root`).
"""

from __future__ import annotations

from functools import lru_cache

from agent.language.mesh_recognition import MeshVocabulary, phrase_key, word_key
from agent.language.mesh_tails import is_below
from agent.models import MeshDescriptor

_HEADING = 0  # the rank of a heading among a key's entries


@lru_cache(maxsize=4)
def _inverted_families(vocabulary: MeshVocabulary) -> dict[str, tuple[str, ...]]:
    """Word key -> the descriptors whose heading is "<word>, <qualifier>"."""
    families: dict[str, set[str]] = {}
    for _key, entries in vocabulary.term_keys():
        for rank, ui in entries:
            heading = vocabulary.descriptor(ui).heading
            head, comma, _ = heading.partition(", ")
            if rank == _HEADING and comma and len(phrase_key(head)) == 1:
                families.setdefault(phrase_key(head)[0], set()).add(ui)
    return {word: tuple(sorted(uis)) for word, uis in families.items()}


def _is_ancestor(a: MeshDescriptor, b: MeshDescriptor) -> bool:
    return is_below(b, a)


def family_root(word: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The heading "<word>, ..." that is an ancestor of more than half of the other headings of its
    family ("fractures" -> Fractures, Bone); None when the word is a term of its own, is more than one
    word, or no member of its family is such a root."""
    if len(word.split()) != 1 or vocabulary.knows(word):
        return None
    members = [vocabulary.descriptor(ui) for ui in _inverted_families(vocabulary).get(word_key(word), ())]
    for candidate in members:
        others = [m for m in members if m.ui != candidate.ui]
        if len(others) >= 2 and 2 * sum(_is_ancestor(candidate, m) for m in others) > len(others):
            return candidate
    return None


def head_family_root(word: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The descriptor every term ending in `word` belongs to, itself or as one of its kinds, when the
    word is no term of its own: "caries" ends only Dental Caries and Root Caries (a kind of it), so a
    phrase headed by it ("dentine caries", "early childhood caries") names a dental caries, searched as
    Dental Caries and the phrase as written. None when the word ends the terms of unrelated descriptors
    ("transfer": Patient Transfer, Tendon Transfer, Transfer, Psychology ...), of one descriptor
    alone ("enucleation": Eye Enucleation; one heading is no family that tells what the word means), or
    when the headings themselves do not end in the word, only entry terms ("involvement": Community
    Participation, whose entry term "Community Involvement" is one sense of a general word), or when
    every heading writes the same word before it ("networking": Social Networking, Online Social
    Networking): that word names the family, not the head, and a phrase without it is another kind of
    thing ("software-defined networking" is no Social Networking)."""
    if len(word.split()) != 1 or vocabulary.knows(word):
        return None
    family = vocabulary.ending_in(word)
    if len(family) < 2 or any(phrase_key(m.heading)[-1:] != (word_key(word),) for m in family):
        return None
    before = {phrase_key(m.heading)[-2:-1] for m in family}
    if len(before) == 1 and before != {()}:
        return None
    for candidate in family:
        if all(m.ui == candidate.ui or _is_ancestor(candidate, m) for m in family):
            return candidate
    return None
