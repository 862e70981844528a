"""The body part an adjective names, and the MeSH terms another adjective of that part writes.

A title writes "vertebral fracture", "mediastinal lymph nodes", "urinary biomarkers"; MeSH names the
body parts Spine (also "Vertebra", "Spinal Column"), Mediastinum and Urine, and pre-coordinates some
conditions with *one* adjective of the part: "Spinal Fractures", never "Vertebral Fractures". A
searcher reads "vertebral fracture" as Spinal Fractures because "vertebral" and "spinal" are
adjectives of one body part. Two closed rules of English word formation say so, with MeSH's own
names of its anatomy (tree A) as the nouns:

- an adjective of a part is the noun's stem with a Latin adjective ending ("vertebr-a" ->
  "vertebr-al", "mediastin-um" -> "mediastin-al", "urin-e" -> "urin-ary", "pleur-a" -> "pleur-al",
  "thora-x" -> "thorac-ic": `adjective_stems`, `noun_stem`), with a stem of at least `MIN_STEM`
  letters, only when exactly one descriptor of anatomy has a one-word name with that stem, and only
  for an adjective that at least half of the descriptors whose names write it file under anatomy or
  diseases ("mental", formed on "mentum", is the mind's in MeSH: Mental Disorders, Mental Health);
- a MeSH term "ADJ X" whose adjective names a body part (`BodyPartIndex.site_entries`) is also
  written with any other adjective (or noun) of that part: "vertebral fracture" = "spinal fracture"
  = Spinal Fractures.

Nothing here lists a body part or a term: the parts and their names come from MeSH.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

# anatomy and diseases: the trees of the descriptors whose names write an adjective of a body part
# ("Vertebral Artery", "Mediastinal Neoplasms"), not of one of another sense ("Mental Disorders", F03)
BODILY_TREES = ("A", "C")
# anatomy that is no part of a human body a title names by an adjective: cells and their parts (A11:
# "ciliary" is of the eye's ciliary body, not Cilia), animal structures (A13: "ventricular" is of the
# heart, not the Gizzard, Avian "Ventriculus"), and the structures of plants, fungi, bacteria, viruses
NOT_BODY_PARTS = ("A11", "A13", "A18", "A19", "A20", "A21")
MIN_STEM = 4  # shorter stems ("or-al", "ren-al", "nas-al") meet unrelated names
# Latin adjective endings of English anatomy words, tried one at a time ("cervic-al", "bronch-ial")
_ADJECTIVE_ENDINGS = ("ial", "eal", "ary", "al", "ar", "ic")
# endings of the nouns they are formed from ("vertebr-a", "mediastin-um", "pelv-is", "spin-e")
_NOUN_ENDING = re.compile(r"(?:um|us|is|a|e|y)$")


def noun_stem(word: str) -> str:
    """The stem of a one-word name of a body part: "vertebra" -> "vertebr", "thorax" -> "thorac"."""
    word = word.lower()
    if word.endswith("x"):
        return word[:-1] + "c"  # thorax / thorac-ic, cervix / cervic-al
    return _NOUN_ENDING.sub("", word)


def adjective_stems(word: str) -> list[str]:
    """The stems an adjective may be formed on ("cervical" -> "cervic"; "bronchial" -> "bronch",
    "bronchi"), none for a word without an adjective ending or with too short a stem."""
    word = word.lower()
    return [
        word[: -len(ending)]
        for ending in _ADJECTIVE_ENDINGS
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM
    ]


class BodyPartIndex:
    """Body parts by the stems of their one-word names, and the MeSH terms that start with a word
    naming a body part, by that part and the rest of the term (see the module docstring)."""

    def __init__(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        stems: dict[str, set[str]] = {}
        self._names: dict[str, str] = {}  # a one-word name of a body part, lower case -> its descriptor
        for ui, row in records.items():
            trees = row.get("tree_numbers") or []
            if (
                not trees
                or not all(t.startswith("A") for t in trees)
                or all(t.startswith(NOT_BODY_PARTS) for t in trees)
            ):
                continue
            for name in [row.get("heading") or "", *(row.get("entry_terms") or [])]:
                if name.isalpha():
                    stems.setdefault(noun_stem(name), set()).add(ui)
                    self._names.setdefault(name.lower(), ui)
        self._stems = {stem: next(iter(uis)) for stem, uis in stems.items() if len(uis) == 1}
        # adjective -> [descriptors whose names write it, those of them filed under anatomy or diseases]
        self._uses: dict[str, list[int]] = {}
        for row in records.values():
            bodily = any(t.startswith(BODILY_TREES) for t in row.get("tree_numbers") or [])
            words = {
                w.lower()
                for name in [row.get("heading") or "", *(row.get("entry_terms") or [])]
                for w in re.findall(r"[A-Za-z]+", name)
            }
            for word in words:
                if adjective_stems(word):
                    uses = self._uses.setdefault(word, [0, 0])
                    uses[0] += 1
                    uses[1] += bodily
        self._sites: dict[tuple[str, tuple[str, ...]], list[tuple[int, str]]] | None = None

    def part_of(self, word: str) -> str | None:
        """The descriptor of the body part `word` names: one of its one-word names ("groin", "spine"),
        or an adjective formed on one ("vertebral", "mediastinal"); None when none or several."""
        lower = word.lower()
        if lower in self._names:
            return self._names[lower]
        found = {self._stems[stem] for stem in adjective_stems(lower) if stem in self._stems}
        if len(found) != 1:
            return None
        written, bodily = self._uses.get(lower, (0, 0))
        # "mental" is formed on "mentum" (the chin), but MeSH writes it for the mind (Mental Disorders,
        # Mental Health): an adjective names a body part only where MeSH uses it so
        return next(iter(found)) if bodily * 2 >= written else None

    def site_entries(
        self,
        keys: list[str],
        all_keys: Callable[[], Iterable[tuple[tuple[str, ...], list[tuple[int, str]]]]],
    ) -> list[tuple[int, str]]:
        """The entries of the MeSH terms that write the window `keys` with another word of the body
        part its first word names ("vertebral fracture" -> "spinal fracture": Spinal Fractures).
        `all_keys` gives every (key, entries) of the vocabulary, read once to build the index."""
        if len(keys) < 2:
            return []
        part = self.part_of(keys[0])
        if part is None:
            return []
        if self._sites is None:
            self._sites = {}
            for key, entries in all_keys():
                if len(key) >= 2 and (site := self.part_of(key[0])) is not None:
                    self._sites.setdefault((site, key[1:]), []).extend(entries)
        return sorted(set(self._sites.get((part, tuple(keys[1:])), [])))
