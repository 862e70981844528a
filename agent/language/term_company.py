"""Which English words MeSH writes inside one term together: word-level evidence for a sense in a compound.

Why: a Chinese compound is rendered part by part, and a part's dictionary senses were ranked by whether
MeSH knows each sense *alone*: 系 "faculty" beat "system" in 细胞系 because MeSH has a heading Faculty, and
前庭 stayed "front courtyard" before 功能. What a searcher writes is a sense whose word the vocabulary uses
in terms *with the compound's other words* ("cell" and "system" share Cell-Free System; "vestibular" and
"function" share Vestibular Function Tests), and "courtyard" stands in no term at all.

How: every word of every heading, entry and permuted term is indexed by a loose stem (its normalised key
without a final adjective or noun ending: vestibule, vestibular -> "vestibul"), each stem pointing at the
terms it stands in. `TermCompany` is an `agent.language.bilingual.WordJudge`: it attests whole phrases as
the vocabulary does, and `together(sense, others)` is true when each content word of the sense shares a
term with some word of the other parts' senses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from agent.language.mesh_recognition import MeshVocabulary, phrase_key

__all__ = ["TermCompany", "company_of", "loose_stem"]

# endings dropped before comparing words: the adjective and the noun of one stem share a term
# ("vestibular" / "vestibule", "microscopic" / "microscope" / "microscopy", "systemic" / "system")
_ENDING = re.compile(r"(?<=[a-z]{4})(?:ical|ic|al|ar|ous|ive|y|e)$")
# words of a sense that say nothing of what it is ("rate of flow", "relating to")
_FUNCTION_WORDS = frozenset(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "with", "by"])


def loose_stem(key: str) -> str:
    """A normalised word without its final adjective or noun ending ("vestibular" -> "vestibul")."""
    return _ENDING.sub("", key)


class TermCompany:
    """MeSH as a judge of whole phrases (`__call__`) and of words used together in terms (`together`)."""

    def __init__(self, vocabulary: MeshVocabulary) -> None:
        self._knows = vocabulary.knows
        self._spells = vocabulary.writes_form
        terms: dict[str, set[int]] = {}
        for index, (key, _) in enumerate(vocabulary.term_keys()):
            for word in key:
                terms.setdefault(loose_stem(word), set()).add(index)
        self._terms = {stem: frozenset(found) for stem, found in terms.items()}
        self._empty: frozenset[int] = frozenset()
        # words the vocabulary knows alone (a drug's name: "clopidogrel"), for `words_ending`
        self._words = tuple(sorted({key[0] for key, _ in vocabulary.term_keys() if len(key) == 1}))

    def __call__(self, english: str) -> bool:
        return self._knows(english)

    def _stems(self, text: str) -> list[str]:
        return [loose_stem(word) for word in phrase_key(text) if word not in _FUNCTION_WORDS]

    def _beside(self, stem: str, company: set[str]) -> bool:
        found = self._terms.get(stem, self._empty)
        return any(
            not found.isdisjoint(self._terms.get(other, self._empty)) for other in company if other != stem
        )

    def writes(self, word: str) -> bool:
        """True when `word` (one word) is a word of some MeSH term ("multicenter" of Multicenter Study),
        whether or not the vocabulary knows it alone."""
        key = phrase_key(word)
        return len(key) == 1 and loose_stem(key[0]) in self._terms

    def spells(self, word: str) -> bool:
        """True when some MeSH term writes `word` in exactly this form ("periodontal", not the loose stem's
        "periodontic")."""
        return self._spells(word)

    def words_ending(self, ending: str) -> tuple[str, ...]:
        """The one-word terms ending in `ending` (lower case): the drugs of an INN stem ("-grel":
        clopidogrel, prasugrel), among which `agent.language.drug_sounds` finds the one a Chinese name spells."""
        return tuple(word for word in self._words if word.endswith(ending) and len(word) > len(ending))

    def together(self, sense: str, others: Iterable[str]) -> bool:
        """True when every content word of `sense` stands in one MeSH term with a word of `others`
        (another word than itself): "system" with "cell", not "faculty"; not "front courtyard"."""
        stems = self._stems(sense)
        company = {stem for other in others for stem in self._stems(other)}
        return bool(stems) and all(self._beside(stem, company) for stem in stems)


@lru_cache(maxsize=4)
def company_of(vocabulary: MeshVocabulary) -> TermCompany:
    """The judge for a vocabulary, built once (a quarter of a second for the whole of MeSH)."""
    return TermCompany(vocabulary)
