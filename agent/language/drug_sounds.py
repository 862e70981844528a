"""Which drug a Chinese name spells: 氯吡格雷 is clopidogrel, not "chlorine Grey".

Why: a Chinese drug name writes the sounds of its International Nonproprietary Name with characters, and
`agent.language.drug_stems` reads only the stem at its end (格雷 -grel: a platelet aggregation inhibitor).
The drug itself is among the few words of the vocabulary (MeSH) that end in the same English stem
(clopidogrel, prasugrel, ticagrelor), and the characters before the stem say which: the approved Chinese
names transliterate each syllable, keeping its consonants (氯吡 lü-bi: c-l-o-p-i-d-o, 阿托伐 a-tuo-fa:
a-t-o-r-v-a). Matching those consonants against each candidate's picks the drug offline, with no list of
drug names in Chinese.

How: each character's pinyin comes from CC-CEDICT (`agent.language.cedict`); the initial consonant of
each syllable, and a final nasal, become coarse sound classes (b/p, d/t, g/k, l/r, f/v, the sibilants,
...), as do the English word's consonant letters. A candidate is a match when every required Chinese
class stands in its letters in order, the first one in the word's opening consonants (a transliteration
keeps a name's first sound; a vowel-initial name starts with a vowel); the best match wins when it is
the only best (more sounds matched, fewer English consonants left over); otherwise no drug is named and
the caller keeps the class.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from agent.language.cedict import lexicon

__all__ = ["english_skeleton", "matching_drug", "sound_classes"]

# the sound class of a pinyin initial; a set where a transliteration writes it several ways
# (吉 ji "gi", 西 xi "ci"/"si"); a syllable that starts with its vowel spells none
_INITIALS: tuple[tuple[str, frozenset[str]], ...] = (
    ("zh", frozenset("S")),
    ("ch", frozenset("SK")),
    ("sh", frozenset("S")),
    ("b", frozenset("P")),
    ("p", frozenset("P")),
    ("m", frozenset("M")),
    ("f", frozenset("F")),
    ("d", frozenset("T")),
    ("t", frozenset("T")),
    ("n", frozenset("N")),
    ("l", frozenset("L")),
    ("r", frozenset("L")),
    ("g", frozenset("K")),
    ("k", frozenset("K")),
    ("h", frozenset("HK")),
    ("j", frozenset("SK")),
    ("q", frozenset("SK")),
    ("x", frozenset("SK")),
    ("z", frozenset("S")),
    ("c", frozenset("SK")),
    ("s", frozenset("S")),
)
# initials a transliteration may write as a vowel (依 yi "e", 韦 wei "vi"): matched when present, else skipped
_SOFT_INITIALS = {"y": frozenset(), "w": frozenset("F")}
_VOWELS = frozenset("aeiouy")
_VOWEL = "V"  # the class of a word's opening vowel
# English consonant letters and digraphs -> sound classes
_DIGRAPHS = {"ph": "F", "th": "T", "ch": "K", "sh": "S", "qu": "K", "gh": "K"}
_LETTERS = {
    "b": "P", "p": "P", "f": "F", "v": "F", "w": "F", "m": "M", "n": "N", "d": "T", "t": "T", "l": "L",
    "r": "L", "g": "K", "k": "K", "q": "K", "s": "S", "z": "S", "j": "S", "h": "H", "x": "KS",
}  # fmt: skip


@dataclass(frozen=True)
class Sound:
    """One consonant a Chinese name spells: the classes it may be written as, and whether it must be."""

    classes: frozenset[str]
    required: bool


def _syllable_sounds(syllable: str, first: bool) -> list[Sound]:
    """The consonants one pinyin syllable spells; a name's first syllable also says whether it opens with
    a vowel (阿 a: "atorvastatin")."""
    syllable = re.sub(r"[\d:]", "", syllable.lower())
    sounds: list[Sound] = []
    for initial, classes in _INITIALS:
        if syllable.startswith(initial):
            sounds.append(Sound(classes, True))
            break
    else:
        soft = _SOFT_INITIALS.get(syllable[:1])
        if first:
            sounds.append(Sound(frozenset({_VOWEL}) | (soft or frozenset()), True))
        elif soft:
            sounds.append(Sound(soft, False))
    if syllable.endswith(("n", "ng")) and len(syllable) > 2:
        sounds.append(Sound(frozenset("N"), False))  # 汀 ting: the n of "-statin"
    return sounds


@lru_cache(maxsize=4096)
def _character_syllables(character: str) -> tuple[str, ...]:
    """The readings CC-CEDICT gives a character alone, first one first."""
    readings: list[str] = []
    for raw in lexicon().raw_entries(character):
        pinyin = raw.partition("]")[0].lstrip("[").strip().lower()
        if pinyin and " " not in pinyin and pinyin not in readings:
            readings.append(pinyin)
    return tuple(readings)


def sound_classes(chinese: str) -> list[Sound] | None:
    """The sounds a Chinese name spells, by each character's first reading; None when a character has no
    reading (no transliteration)."""
    sounds: list[Sound] = []
    for index, character in enumerate(chinese):
        readings = _character_syllables(character)
        if not readings:
            return None
        sounds.extend(_syllable_sounds(readings[0], first=index == 0))
    return sounds


def english_skeleton(word: str) -> list[str]:
    """The sound classes of an English word's consonants in order, after V when it opens with a vowel
    ("clopidogrel" -> K L P T K L L, "atorvastatin" -> V T L F S T T N)."""
    word = word.lower()
    classes = [_VOWEL] if word[:1] in _VOWELS else []
    i = 0
    while i < len(word):
        pair = word[i : i + 2]
        if pair in _DIGRAPHS:
            classes.append(_DIGRAPHS[pair])
            i += 2
            continue
        letter = word[i]
        if letter == "c":
            classes.append("S" if word[i + 1 : i + 2] in {"e", "i", "y"} else "K")
        else:
            classes.extend(_LETTERS.get(letter, ""))
        i += 1
    return classes


def _opening(word: str) -> set[str]:
    """The classes a name's first sound may take: its vowel, or its consonants before the first vowel
    (the l of "clo-", 氯 lü)."""
    cluster = re.match(r"[^aeiouy]*", word.lower())
    return set(english_skeleton(cluster.group() if cluster and cluster.group() else word[:1]))


def _matched(sounds: Sequence[Sound], skeleton: Sequence[str]) -> int | None:
    """The most sounds found in the skeleton in order, every required one among them; None when a
    required one cannot be found."""
    missing = -(10**6)
    best = [0] * (len(skeleton) + 1)  # best[j]: most matches of the sounds so far inside skeleton[:j]
    for sound in sounds:
        following = [missing] * (len(skeleton) + 1)
        for j in range(1, len(skeleton) + 1):
            hit = best[j - 1] + 1 if skeleton[j - 1] in sound.classes else missing
            following[j] = max(following[j - 1], hit)
        best = following if sound.required else [max(a, b) for a, b in zip(following, best, strict=True)]
    return best[-1] if best[-1] >= 0 else None


def _score(chinese: str, sounds: list[Sound], word: str) -> int | None:
    """How well `word` spells the sounds (more matched, fewer left over), None when it cannot."""
    if not sounds[0].classes & _opening(word):
        return None  # a transliteration keeps the name's first sound
    skeleton = english_skeleton(word)
    matched = _matched(sounds, skeleton)
    if matched is None:
        return None
    return 2 * (matched + _same_first_vowel(chinese, word)) - len(skeleton)


def _same_first_vowel(chinese: str, word: str) -> bool:
    """True when the name's first syllable ends its vowels as the word's first vowels do (多 duo and
    "doxo-", not "dauno-"): what tells two drugs of one stem apart when their consonants do not."""
    readings = _character_syllables(chinese[:1])
    pinyin = re.search(r"[aeiouv]+", readings[0].replace("u:", "v")) if readings else None
    english = re.search(r"[aeiouy]+", word.lower())
    return bool(pinyin and english and pinyin.group()[-1] == english.group()[-1])


# characters that translate an enantiomer's prefix instead of spelling it (右美托咪定 "dexmedetomidine",
# 左氧氟沙星 "levofloxacin"): the approved names write "dextro-" as 右 "right" and "levo-" as 左 "left"
CHIRAL_PREFIXES: dict[str, tuple[str, ...]] = {"右": ("dextro", "dex"), "左": ("levo", "lev")}


def matching_drug(chinese: str, candidates: Iterable[str]) -> str | None:
    """The one candidate English drug name (all ending in the stem `chinese` ends in) whose sounds the
    Chinese name spells best; None when none does or two do equally well. A name opening with a chiral
    prefix (右, 左) is the drug with that English prefix whose rest the other characters spell."""
    prefixes = CHIRAL_PREFIXES.get(chinese[:1], ()) if len(chinese) > 2 else ()
    if prefixes:
        # every split of the prefix: "levofloxacin" is lev + ofloxacin, "levodopa" levo + dopa
        rests = {
            word[len(prefix) :]: word
            for word in candidates
            for prefix in prefixes
            if word.lower().startswith(prefix) and len(word) > len(prefix) + 2
        }
        found = _best_spelled(chinese[1:], list(rests))
        return rests[found] if found is not None else None
    return _best_spelled(chinese, candidates)


def _best_spelled(chinese: str, candidates: Iterable[str]) -> str | None:
    sounds = sound_classes(chinese)
    if not sounds or not sounds[0].required:
        return None
    scored = sorted(
        ((score, word) for word in candidates if (score := _score(chinese, sounds, word)) is not None),
        reverse=True,
    )
    if not scored or len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]
