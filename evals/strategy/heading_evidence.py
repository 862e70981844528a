"""Evidence about a candidate heading that the shipped heading model does not use, kept to be tested.

`agent.keywords.heading_confidence` decides which recognised headings a query writes from the
features of `heading_features`. Evidence proposed for that decision is computed here first, on the
dumped rows only, and `python -m evals.strategy.headings --compare` measures whether adding it to the
model raises the cross-validated precision at the same recall; a feature moves into the product only
when it does (issue 16). The evidence, each from MeSH itself:

- `entry_terms`: how many entry terms the descriptor has (log): NLM writes few for a generic word
  ("Life", "Silver", "Movement") and many for a named concept;
- `outside_words`: the words of the term that no name of the descriptor writes: the heading is broader
  than the phrase, whose modifiers stay outside it ("conventional rehabilitation" -> Rehabilitation);
- `descendants`: how many descriptors lie below it in its trees (log): a broad heading;
- `ambiguity`: how many descriptors the term's words name (log).
"""

from __future__ import annotations

import bisect
import math

from agent.keywords.heading_confidence import Heading
from agent.language.mesh_recognition import phrase_key
from evals.strategy.vocabulary import MeshVocabulary

CANDIDATES: tuple[str, ...] = ("entry_terms", "outside_words", "descendants", "ambiguity")


class HeadingEvidence:
    """The candidate evidence of headings, with the tree index of one vocabulary built once."""

    def __init__(self, vocabulary: MeshVocabulary) -> None:
        self.vocabulary = vocabulary
        pairs = sorted((number, d.ui) for d in vocabulary.descriptors.values() for number in d.tree_numbers)
        self._numbers = [number for number, _ in pairs]
        self._uis = [ui for _, ui in pairs]

    def descendants(self, tree_numbers: list[str]) -> int:
        """How many descriptors lie below any of `tree_numbers`."""
        below: set[str] = set()
        for number in tree_numbers:
            at = bisect.bisect_left(self._numbers, number + ".")
            while at < len(self._numbers) and self._numbers[at].startswith(number + "."):
                below.add(self._uis[at])
                at += 1
        return len(below)

    def of(self, heading: Heading) -> dict[str, float]:
        descriptor, term = heading.descriptor, heading.term
        names = {word for name in (descriptor.heading, *descriptor.entry_terms) for word in phrase_key(name)}
        outside = 0 if heading.noexp else sum(word not in names for word in phrase_key(term.canonical))
        return {
            "entry_terms": math.log1p(len(descriptor.entry_terms)),
            "outside_words": float(outside),
            "descendants": math.log1p(self.descendants(descriptor.tree_numbers)),
            "ambiguity": math.log1p(len(self.vocabulary.lookup(term.canonical))),
        }
