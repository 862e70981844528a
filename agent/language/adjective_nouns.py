"""The condition an adjective names by its noun: "recurrent" is Recurrence, "convalescent" Convalescence.

A title writes "recurrent colorectal cancer"; MeSH has no heading for the whole, and the searcher
ANDs the disease with what the adjective says of it, which MeSH names as a noun (Recurrence, under
Pathologic Processes). English forms such adjectives and nouns in pairs by a closed rule (-ent /
-ence, -ant / -ance); the noun counts only when it is a MeSH heading or entry term filed under
diseases and pathological conditions (C), so "prevalent" (Prevalence, a statistic) and "violent"
(Violence) name no condition here. Nothing here lists a word: MeSH attests every noun.
"""

from __future__ import annotations

import re

from agent.language.mesh_recognition import MeshVocabulary
from agent.models import MeshDescriptor

_PAIRS = ((re.compile(r"(?<=[a-z]{4})ent$"), "ence"), (re.compile(r"(?<=[a-z]{4})ant$"), "ance"))
CONDITION_TREE = "C"


def condition_of_adjective(word: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The one descriptor of a condition the noun of an adjective names ("recurrent": Recurrence), or None."""
    lower = word.lower()
    for pattern, ending in _PAIRS:
        if not pattern.search(lower):
            continue
        found = [
            d
            for d in vocabulary.lookup(pattern.sub(ending, lower))
            if d.tree_numbers and all(t.startswith(CONDITION_TREE) for t in d.tree_numbers)
        ]
        if len(found) == 1:
            return found[0]
    return None
