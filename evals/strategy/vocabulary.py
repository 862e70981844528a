"""The MeSH yardstick of the strategy evaluation: headings, entry terms, tree numbers, and one word
normalisation shared by every comparison.

The evaluation reads the descriptor file itself instead of going through the product's `tools.mesh`,
so that the measure does not move when the code under test changes.

Word normalisation (`normalize_word`): NFKD without accents, lower case, possessive `'s` and
apostrophes removed, British -> American spelling (ae/oe -> e, -our -> -or, -ise/-isation -> -ize,
-yse -> -yze, -tre -> -ter), then a light singular (-ies -> -y, -sses/-xes/-ches/-shes lose -es, a
final -s goes unless the word ends in -ss/-us/-is/-ys). Text is split into words at anything that is
not a letter or a digit, so hyphens and spaces are the same. The result is a comparison key, not a word.
"""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "the",
        "to",
        "with",
        "without",
        "versus",
        "vs",
        "via",
        "than",
        "that",
        "this",
        "these",
        "those",
        "their",
        "our",
        "your",
        "was",
        "were",
        "which",
        "who",
        "whom",
        "whose",
        "not",
        "no",
    ]
)
_SPELLING = [
    (re.compile(r"ae"), "e"),
    (re.compile(r"oe"), "e"),
    (re.compile(r"^([a-z]{2,})our(s|ed|ing|er|ers)?$"), r"\1or\2"),
    (re.compile(r"^([a-z]{3,})is(e|es|ed|ing|ation|ations)$"), r"\1iz\2"),
    (re.compile(r"^([a-z]{2,})ys(e|ed|ing)$"), r"\1yz\2"),
    (re.compile(r"^([a-z]{3,})(t|b)re(s?)$"), r"\1\2er\3"),
]
_WORD = re.compile(r"[a-z0-9]+")
_RAW_WORD = re.compile(r"[^\W_]+")


_POSSESSIVE = re.compile(r"['’]s\b")


def fold(text: str) -> str:
    """Lower case without accents, possessives or apostrophes."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.lower()
    if "'" in text or "’" in text:
        text = _POSSESSIVE.sub("", text).replace("'", "").replace("’", "")
    return text


@lru_cache(maxsize=200_000)
def _fold_word(word: str) -> str:
    return fold(word)


def american(word: str) -> str:
    """British -> American spelling of one folded word (or truncated stem): `tumour*` -> `tumor*`."""
    stem, star, rest = word.partition("*")
    for pattern, replacement in _SPELLING:
        stem = pattern.sub(replacement, stem)
    return stem + star + rest


@lru_cache(maxsize=200_000)
def normalize_word(word: str) -> str:
    """The comparison key of one already folded word (see the module docstring)."""
    word = american(word)
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ys")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Folded words of `text`, not normalised (truncation and punctuation dropped)."""
    return _WORD.findall(fold(text))


def normalize(text: str) -> tuple[str, ...]:
    """`text` as a tuple of word keys."""
    return tuple(normalize_word(w) for w in words(text))


def uninvert(term: str) -> str:
    """`Diabetes, Gestational` -> `Gestational Diabetes`; other terms unchanged."""
    parts = [p.strip() for p in term.split(",")]
    return f"{parts[1]} {parts[0]}" if len(parts) == 2 and all(parts) else term


def term_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


_LEADING_ACRONYM = re.compile(r"([A-Z]{2,6})\s+(\S.*)")


def _leading_acronym(term: str) -> str | None:
    """ "ICU Intensive Care Units" -> "ICU": an acronym followed by the words whose initials it is."""
    found = _LEADING_ACRONYM.fullmatch(term)
    if found is None:
        return None
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", found.group(2))).upper()
    return found.group(1) if initials == found.group(1) else None


@dataclass
class Descriptor:
    ui: str
    heading: str
    tree_numbers: list[str]


@dataclass
class MeshVocabulary:
    """Descriptors by UI, an exact index (case-insensitive) and a normalised index of every heading,
    entry term, permuted term and un-inverted form."""

    descriptors: dict[str, Descriptor] = field(default_factory=dict)
    exact: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # key -> [(rank, ui)]
    normalized: dict[tuple[str, ...], list[tuple[int, str]]] = field(default_factory=dict)
    word_forms: set[str] = field(default_factory=set)  # folded words of all terms, acronyms left out
    common_words: set[str] = field(
        default_factory=set
    )  # words (acronyms too) of a heading or of 2+ descriptors
    _descriptor_count: dict[str, int] = field(default_factory=dict)
    longest: int = 1
    # acronyms NLM writes before what they stand for in one entry term ("ICU Intensive Care Units")
    leading_acronyms: set[str] = field(default_factory=set)

    @classmethod
    def load(cls, path: Path) -> MeshVocabulary:
        vocabulary = cls()
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    row = json.loads(line)
                    vocabulary.add(
                        row["ui"],
                        row["heading"],
                        list(row.get("entry_terms") or []),
                        list(row.get("permuted_terms") or []),
                        list(row.get("tree_numbers") or []),
                    )
        return vocabulary

    def add(
        self,
        ui: str,
        heading: str,
        entry_terms: list[str],
        permuted_terms: list[str] | None = None,
        tree_numbers: list[str] | None = None,
    ) -> None:
        self.descriptors[ui] = Descriptor(ui, heading, list(tree_numbers or []))
        seen: set[str] = set()
        for rank, group in enumerate(([heading], entry_terms, permuted_terms or [])):
            for text in group:
                _add(self.exact, term_key(text), (rank, ui))
                if (short := _leading_acronym(text)) is not None:
                    self.leading_acronyms.add(term_key(short))
                raw = _RAW_WORD.findall(text)
                self.word_forms.update(_fold_word(w) for w in raw if not w.isupper())
                forms = {_fold_word(w) for w in raw}
                if rank == 0:
                    self.common_words.update(forms)
                for form in forms - seen:
                    self._descriptor_count[form] = self._descriptor_count.get(form, 0) + 1
                    if self._descriptor_count[form] == 2:
                        self.common_words.add(form)
                seen |= forms
                for variant in {text, uninvert(text)}:
                    key = normalize(variant)
                    if key and not all(w in STOPWORDS for w in key):
                        _add(self.normalized, key, (rank, ui))
                        self.longest = max(self.longest, len(key))

    def resolve(self, text: str) -> str | None:
        """The descriptor UI of a MeSH-tagged term: exact (case-insensitive) on heading, entry or
        permuted term, else on the normalised form; a `/subheading` suffix is ignored."""
        text = text.strip().rstrip("*").strip()
        if "/" in text:
            head, _, tail = text.rpartition("/")
            if tail and tail == tail.lower():
                text = head
        for hits in (self.exact.get(term_key(text)), self.normalized.get(normalize(text))):
            if hits:
                return min(hits)[1]
        return None

    def lookup(self, text: str) -> set[str]:
        """Every descriptor one of whose terms is `text` (normalised)."""
        return {ui for _, ui in self.normalized.get(normalize(text), [])}

    def is_term(self, text: str) -> bool:
        """Is `text` (case-insensitive) a heading, entry term or permuted term of some descriptor, or
        the acronym an entry term opens with before what it stands for ("ICU Intensive Care Units")?"""
        return term_key(text) in self.exact or term_key(text) in self.leading_acronyms

    def heading(self, ui: str) -> str:
        found = self.descriptors.get(ui)
        return found.heading if found else ui

    def related(self, a: str, b: str) -> bool:
        """Same descriptor, or one is an ancestor of the other in some tree."""
        if a == b:
            return True
        da, db = self.descriptors.get(a), self.descriptors.get(b)
        if da is None or db is None:
            return False
        return any(
            x.startswith(y + ".") or y.startswith(x + ".") for x in da.tree_numbers for y in db.tree_numbers
        )

    def recognise(self, text: str) -> set[str]:
        """Descriptors one of whose terms occurs in `text` as a run of whole words (normalised)."""
        keys = normalize(text)
        found: set[str] = set()
        for start in range(len(keys)):
            for end in range(start + 1, min(len(keys), start + self.longest) + 1):
                for _, ui in self.normalized.get(keys[start:end], []):
                    found.add(ui)
        return found


def _add(index: dict, key: object, value: tuple[int, str]) -> None:
    entries = index.setdefault(key, [])
    if value not in entries:
        entries.append(value)
