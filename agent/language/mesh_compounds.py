"""A hyphenated compound before a condition that MeSH names with the condition's class word:
"catheter-associated urinary tract infections" are Catheter-Related Infections (entry term
"Catheter-Associated Infections") AND Urinary Tract Infections; "community-acquired pneumonia" is
Community-Acquired Infections AND Pneumonia.

MeSH writes how an infection was come by once, with the class word ("Catheter-Associated Infections",
"Community-Acquired Infections", "Travel-Related Infections"), not with every kind of the class. A
description writes the compound before the kind, so recognition by whole words found the kind and
read the compound's first word alone (Catheters, Residence Characteristics). Here the compound and the
last word of the kind's own heading, or of an ancestor's, are looked up as one term: the words come
from MeSH's trees, not from a list.
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import MeshMatch, MeshVocabulary, natural_order
from agent.models import MeshDescriptor

# a compound of a word (or two) and a participle written right before a match: "catheter-associated",
# "community-acquired", "central line-associated"
_COMPOUND_BEFORE = re.compile(r"(?P<compound>[A-Za-z]+-[A-Za-z]+ed)\s+$")


def named_with_its_class(text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary) -> MeshMatch | None:
    """The descriptor a hyphenated compound before a match names with the match's class word, as a
    match of the compound and the match ("catheter-associated urinary tract infections": Catheter-Related
    Infections, the words searched as written beside it), or None."""
    for match in matches:
        before = _COMPOUND_BEFORE.search(text[: match.start])
        if before is None:
            continue
        compound = before.group("compound")
        for kind in (match.descriptor, *vocabulary.ancestors(match.descriptor)):
            named = _named(f"{compound} {_class_word(kind)}", match.descriptor, vocabulary)
            if named is not None:
                start = before.start("compound")
                return MeshMatch(text[start : match.end], start, match.end, named, "entry term")
    return None


def _class_word(descriptor: MeshDescriptor) -> str:
    return natural_order(descriptor.heading).split()[-1]


def _named(phrase: str, kind: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The one descriptor `phrase` is a term of, other than the kind itself."""
    found = [d for d in vocabulary.lookup(phrase) if d.ui != kind.ui]
    return found[0] if len(found) == 1 else None
