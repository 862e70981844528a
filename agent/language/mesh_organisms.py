"""The organism an infection is named after: what a searcher ORs beside the disease heading.

An information specialist searching for an infectious disease adds the heading of the organism that
causes it to the disease's block ("Aspergillosis"[Mesh] OR "Aspergillus"[Mesh], "Tuberculosis"[Mesh] OR
"Mycobacterium tuberculosis"[Mesh]): papers about the pathogen in the patients are often indexed with
the organism rather than the disease. MeSH has no link between the two, but it names most infections
after their organism, and that naming is the evidence used here:

- the disease is an infection (tree C01) and one word of its heading, without the ending that makes a
  disease of a name (-iasis, -osis, -a, -us, ...: "Aspergillosis" -> "aspergill"; never an "-itis",
  which names an organ), begins the first or the last word of the headings of organisms (trees
  B01-B04, people left out): "Aspergillus", "Aspergillus fumigatus", "Mycobacterium tuberculosis";
- of those organisms, the one chosen is the most specific that is, or is above, more than half of
  them in the MeSH trees (the genus "Aspergillus", not the species, nor the family above it); none when
  no organism is (the words "pneumonia" and "influenza" begin the names of unrelated bacteria and
  viruses).

Nothing here is a list of diseases or organisms: every name comes from MeSH.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.language.mesh_recognition import MeshVocabulary
from agent.language.mesh_tails import is_under
from agent.models import MeshDescriptor

_INFECTIONS = "C01"
_ORGANISMS = ("B01", "B02", "B03", "B04")
_HUMANS = "B01.050.150.900.649.313.988.400.112.400.400"
# the endings that turn an organism's name into a disease's or a species' ("aspergill-osis",
# "aspergill-us", "schistosom-iasis", "schistosom-a")
_ENDING = re.compile(r"(?:iasis|iases|iosis|oses|osis|ae|ia|a|us|um|i)$")
MIN_STEM = 5  # shorter stems begin unrelated names
SHARE = 0.5  # the organism chosen is, or is above, more than this share of those the stem names


def _stem(word: str) -> str | None:
    stem = _ENDING.sub("", word.lower())
    return stem if len(stem) >= MIN_STEM else None


def _words(heading: str) -> list[str]:
    return [w for w in re.split(r"[\s,\-()]+", heading) if w.isalpha()]


@lru_cache(maxsize=4)
def _organism_words(vocabulary: MeshVocabulary) -> dict[str, frozenset[str]]:
    """The first and last words of organisms' headings (lower case: the genus, "Aspergillus", and the
    species' epithet, "tuberculosis") -> the organisms whose heading begins or ends with them; a word
    in between names a kind of organism, not one ("Atypical Bacterial Forms")."""
    words: dict[str, set[str]] = {}
    for ui, row in vocabulary.file.records().items():
        trees = row.get("tree_numbers") or []
        if any(t.startswith(_ORGANISMS) for t in trees) and not any(t.startswith(_HUMANS) for t in trees):
            named = _words(row["heading"])
            for word in {named[0], named[-1]} if named else set():  # the genus or the species' epithet
                words.setdefault(word.lower(), set()).add(ui)
    return {word: frozenset(uis) for word, uis in words.items()}


def causative_organism(descriptor: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The organism an infection's heading is named after (see the module doc), or None."""
    if not any(t.startswith(_INFECTIONS) for t in descriptor.tree_numbers):
        return None
    index = _organism_words(vocabulary)
    for word in _words(descriptor.heading):
        stem = _stem(word)
        if stem is None or word.lower().endswith("itis"):
            continue  # "-itis" names the inflamed organ ("Hepatitis"), not the organism
        uis = {ui for key, named in index.items() if key.startswith(stem) for ui in named}
        found = _the_one_above_most([vocabulary.descriptor(ui) for ui in sorted(uis)])
        if found is not None:
            return found
    return None


def _the_one_above_most(organisms: list[MeshDescriptor]) -> MeshDescriptor | None:
    """The most specific organism that is, or is above, more than `SHARE` of `organisms`."""
    covering = [
        (organism, sum(1 for other in organisms if is_under(other, organism))) for organism in organisms
    ]
    covering = [(organism, count) for organism, count in covering if count > SHARE * len(organisms)]
    if not covering:
        return None
    fewest = min(count for _, count in covering)
    specific = [organism for organism, count in covering if count == fewest]
    return specific[0] if len(specific) == 1 else None
