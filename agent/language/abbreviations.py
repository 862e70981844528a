"""Chinese abbreviations CC-CEDICT does not list: 心衰 for 心力衰竭, 慢阻肺 for 慢性阻塞性肺病, 血透 for 血液透析.

Chinese shortens a compound term by keeping the first character of each of its words (心力|衰竭 -> 心衰,
血液|透析 -> 血透) and skipping the bound one-character suffixes between them (慢性|阻塞|性|肺病
-> 慢阻肺). Clinicians write these forms more often than the full terms, and CC-CEDICT lists only some (心梗,
房颤, 甲亢): the others were composed from their characters' senses ("heart decay", "slow hinder lung").

`expansion` reads a word the dictionary lacks as such an abbreviation of a dictionary word: the word's
characters, in order, are the first characters of the dictionary word's words (its cut into the
longest dictionary words from the left), with every word of two characters or more used, a
lone character used only as the first word, and never the mere start of the word (白血 is no 白血球). The reading is taken only when every dictionary word it may
abbreviate means the same (their first senses agree): 外祖 may be 外祖母 or 外祖父, and stays unread.
Nothing here is a list of abbreviations: every word comes from CC-CEDICT.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache, lru_cache

from agent.language.cedict import CJK_CHARACTER, dictionary_senses, lexicon

_SHORTEST, _LONGEST = 2, 3  # the abbreviations read (心衰, 慢阻肺)
_LONGEST_FULL = 8  # the longest dictionary word one may abbreviate (慢性阻塞性肺病: 7)


@cache
def _words_by_first_character() -> dict[str, tuple[str, ...]]:
    """Dictionary words of three to eight Chinese characters, by their first character."""
    found: dict[str, list[str]] = defaultdict(list)
    for word in lexicon().entries:
        if 3 <= len(word) <= _LONGEST_FULL and all(CJK_CHARACTER.match(c) for c in word):
            found[word[0]].append(word)
    return {first: tuple(sorted(words)) for first, words in found.items()}


def abbreviates(short: str, full: str) -> bool:
    """Whether `short` keeps the first character of each word of `full` (see the module doc)."""
    if len(full) <= len(short) or full.startswith(short) or not _in_order(short, full):
        return False  # the start of a word is no abbreviation of it (白血 of 白血球 "leukocyte")
    words = _words_of(full)
    if len(words[-1]) == 1:
        return False  # a last character is the kind the full word names (血液透析|机 "machine"): it stays
    used = [word for index, word in enumerate(words) if index == 0 or len(word) > 1]
    return len(used) == len(short) and all(
        word[0] == character for word, character in zip(used, short, strict=True)
    )


def _words_of(full: str) -> list[str]:
    """`full` cut into dictionary words, the longest known word first from the left (the whole word
    itself excepted): 心力|衰竭, 慢性|阻塞性|肺病, 脑|梗死."""
    known = lexicon().knows
    words: list[str] = []
    start = 0
    while start < len(full):
        end = next(
            (
                end
                for end in range(len(full), start + 1, -1)
                if (start, end) != (0, len(full)) and known(full[start:end])
            ),
            start + 1,
        )
        words.append(full[start:end])
        start = end
    return words


def _in_order(short: str, full: str) -> bool:
    rest = iter(full)
    return all(character in rest for character in short)


@lru_cache(maxsize=4096)
def expansion(word: str) -> str | None:
    """The dictionary word `word` abbreviates, or None when it is no abbreviation CC-CEDICT can spell
    out, or one of several that mean different things. A word the dictionary knows is never read so."""
    if not _SHORTEST <= len(word) <= _LONGEST or lexicon().knows(word):
        return None
    if not all(CJK_CHARACTER.match(c) for c in word):
        return None
    prefix = lexicon().glossary.get(word[0])
    if prefix is not None and prefix.affix:
        return None  # a bound prefix before a term (非|小细胞 "non-small cell"), not 非同小可
    candidates = [full for full in _words_by_first_character().get(word[0], ()) if abbreviates(word, full)]
    # a kind of another candidate is no second meaning (血液透析器 "dialyser" beside 血液透析)
    candidates = [
        full
        for full in candidates
        if not any(full != other and full.startswith(other) for other in candidates)
    ]
    meanings = {senses[0].text.casefold() for full in candidates if (senses := dictionary_senses(full))}
    if len(meanings) != 1:
        return None
    return next(full for full in candidates if dictionary_senses(full))
