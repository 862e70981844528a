"""Evidence about a candidate heading beyond `evals.strategy.heading_features`, kept to be tested.

A calibrated decision of which recognised headings a query writes was fitted on the features of
`heading_features` (issue 16; not shipped, see `evals.strategy.headings`). Evidence proposed for it is
computed here, on the dumped rows only, and `python -m evals.strategy.headings --compare` measures
whether adding it raises the cross-validated precision at the same recall (none did). The evidence, each from MeSH itself:

- `entry_terms`: how many entry terms the descriptor has (log): NLM writes few for a generic word
  ("Life", "Silver", "Movement") and many for a named concept;
- `outside_words`: the words of the term that no name of the descriptor writes: the heading is broader
  than the phrase, whose modifiers stay outside it ("conventional rehabilitation" -> Rehabilitation);
- `descendants`: how many descriptors lie below it in its trees (log): a broad heading;
- `ambiguity`: how many descriptors the term's words name (log);
- `modifier_in_title`: the title writes another word of the same noun phrase after the term's words:
  the heading names a modifier, not the phrase's head ("movement" in "movement therapy", "income" in
  "low-income households").
"""

from __future__ import annotations

import bisect
import math
import re

from agent.language.mesh_recognition import phrase_key
from evals.strategy.heading_features import Heading
from evals.strategy.vocabulary import MeshVocabulary

CANDIDATES: tuple[str, ...] = (
    "entry_terms",
    "outside_words",
    "descendants",
    "ambiguity",
    "modifier_in_title",
)
# words after which a noun phrase has ended: prepositions, conjunctions, articles
_PHRASE_ENDS = frozenset(
    [
        "a",
        "among",
        "an",
        "and",
        "as",
        "at",
        "between",
        "by",
        "compared",
        "during",
        "for",
        "from",
        "in",
        "into",
        "its",
        "of",
        "on",
        "or",
        "over",
        "plus",
        "the",
        "their",
        "through",
        "to",
        "under",
        "using",
        "versus",
        "via",
        "vs",
        "with",
        "within",
        "without",
    ]
)
_TOKEN = re.compile(r"[^\W_][\w'’-]*|[^\w\s]")


def modifier_in_title(term: str, title: str) -> bool:
    """True when `title` writes the words of `term` with a further word of their noun phrase after
    them (not a preposition, a conjunction or punctuation)."""
    flat: list[str | None] = []  # the title's word keys, None for punctuation
    for token in _TOKEN.findall(title):
        flat += list(phrase_key(token)) or [None]
    key = list(phrase_key(term))
    for start in range(len(flat) - len(key) + 1):
        if key and flat[start : start + len(key)] == key:
            after = flat[start + len(key)] if start + len(key) < len(flat) else None
            return after is not None and after not in _PHRASE_ENDS
    return False


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

    def of(self, heading: Heading, title: str = "") -> dict[str, float]:
        descriptor, term = heading.descriptor, heading.term
        names = {word for name in (descriptor.heading, *descriptor.entry_terms) for word in phrase_key(name)}
        outside = 0 if heading.noexp else sum(word not in names for word in phrase_key(term.canonical))
        return {
            "entry_terms": math.log1p(len(descriptor.entry_terms)),
            "outside_words": float(outside),
            "descendants": math.log1p(self.descendants(descriptor.tree_numbers)),
            "ambiguity": math.log1p(len(self.vocabulary.lookup(term.canonical))),
            "modifier_in_title": float(not heading.noexp and modifier_in_title(term.canonical, title)),
        }
