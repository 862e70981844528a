"""The senses a word takes inside the dictionary's longer entries, that its own entry lacks.

Why: CC-CEDICT glosses a word alone with one sense and the same word inside its compounds with another:
髋 alone is "pelvis; pelvic", but 髋关节 is "hip joint" and 髋骨 "hip bone", so inside 髋部骨折 the word
is "hip" (MeSH: Hip Fractures); 阻塞 alone is "to block; to clog", but 慢性阻塞性肺病 is "chronic
obstructive pulmonary disease", so 阻塞性 before a head is "obstructive". A compound whose gloss begins
with a sense of the part before the word and ends with a sense of the part after it shows what the word
means there. These senses are guesses from one or two entries, so `agent.language.bilingual` tries them
only inside a span its judge (MeSH) attests whole, like a part's Latin forms.

How: every simplified headword holding the word is read as before + word + after, where before and after
are dictionary words (or nothing), and an adjective suffix (性, 式) may close the word (阻塞|性). Before
must match the gloss's first words exactly; after matches the gloss's last words by count, its last word
(the head: "disease") alike, since the dictionary writes the same head with other modifiers (肺病 "lung
disease" inside "pulmonary disease"). What remains, one or two words, is the word's sense there, and it
is offered for a phrase only where the compound shares a character with the phrase around the word.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache, lru_cache

from agent.language.cedict import dictionary_senses, has_chinese, lexicon, to_simplified
from agent.language.morphology import FUNCTION_WORDS
from agent.language.word_formation import ADJECTIVE_SUFFIXES

__all__ = ["compound_senses"]

_MAX_COMPOUND = 8  # longest headword read (慢性阻塞性肺病 has 7)
_MAX_SENSE_WORDS = 2  # a sense read off a compound has at most this many words
_GLOSSES = 4  # a compound's first glosses read
_PART_SENSES = 6  # senses of the words before and after tried
_KEPT = 3  # senses returned, most attested first
# words that are no sense of a word of their own ("bright and" is a coordination cut in two)
_NO_SENSE = FUNCTION_WORDS | {"be", "is", "are"}


@cache
def _compounds_by_character() -> dict[str, tuple[str, ...]]:
    """Simplified headwords of two to `_MAX_COMPOUND` characters, by each character they hold."""
    index: dict[str, set[str]] = defaultdict(set)
    for key in lexicon().entries:
        if 1 < len(key) <= _MAX_COMPOUND and to_simplified(key) == key:
            for character in set(key):
                index[character].add(key)
    return {character: tuple(sorted(words)) for character, words in index.items()}


def _senses(word: str) -> list[list[str]]:
    return [s.text.lower().split() for s in dictionary_senses(word)[:_PART_SENSES]]


def _middle(gloss: list[str], before: str, after: str) -> str | None:
    """The words of `gloss` between a sense of `before` (its first words) and of `after` (its last)."""
    starts = [len(s) for s in _senses(before) if gloss[: len(s)] == s] if before else [0]
    ends = [len(s) for s in _senses(after) if s and gloss[-1] == s[-1]] if after else [0]
    for start in starts:
        for end in ends:
            words = gloss[start : len(gloss) - end]
            if 0 < len(words) <= _MAX_SENSE_WORDS and all(
                w.isalpha() and w.isascii() and w not in _NO_SENSE for w in words
            ):
                return " ".join(words)
    return None


@lru_cache(maxsize=20000)
def _senses_by_compound(word: str) -> tuple[tuple[str, str], ...]:
    """(sense, the compound's other characters) for each compound that shows `word` a sense of its own."""
    if not has_chinese(word):
        return ()
    lex = lexicon()
    own = {s.text.lower() for s in dictionary_senses(word)}
    out: list[tuple[str, str]] = []
    for compound in _compounds_by_character().get(word[0], ()):
        at = compound.find(word)
        if at < 0 or compound == word:
            continue
        before, after = compound[:at], compound[at + len(word) :]
        if after[:1] in ADJECTIVE_SUFFIXES and not lex.knows(after) and len(after) > 1:
            after = after[1:]  # 阻塞|性|肺病: the suffix makes the word's adjective
        if any(part and not lex.knows(part) for part in (before, after)) or not (before or after):
            continue
        for gloss in dictionary_senses(compound)[:_GLOSSES]:
            sense = _middle(gloss.text.lower().split(), before, after)
            if sense is not None and sense not in own:
                out.append((sense, before + after))
                break
    return tuple(out)


def compound_senses(word: str, phrase: str) -> tuple[str, ...]:
    """The senses `word` takes inside the dictionary's compounds that share a character of `phrase` around
    it (in 髋部骨折, 髋 is "hip" as in 髋骨 "hip bone"; in 慢性阻塞性肺疾病, 阻塞 is "obstructive" as in
    慢性阻塞性肺病): one sense per collocation, most attested first, none of the word's own senses.
    A sense of a compound that shares nothing with the phrase (微 "capillary" of 微血管, in 微震监测) is
    another use of the word."""
    company = set(phrase.replace(word, "")) - ADJECTIVE_SUFFIXES
    votes: dict[str, int] = {}
    for sense, others in _senses_by_compound(word):
        if company & set(others):
            votes[sense] = votes.get(sense, 0) + 1
    return tuple(sorted(votes, key=lambda sense: -votes[sense]))[:_KEPT]
