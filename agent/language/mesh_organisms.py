"""The organism an infection is named after: what a searcher ORs beside the disease heading.

An information specialist searching for an infectious disease adds the heading of the organism that
causes it to the disease's block ("Aspergillosis"[Mesh] OR "Aspergillus"[Mesh], "Tuberculosis"[Mesh] OR
"Mycobacterium tuberculosis"[Mesh]): papers about the pathogen in the patients are often indexed with
the organism rather than the disease (the keywords stage ORs it where the question is how the infection
is found, `agent.keywords.concept_roles.looks_for_the_pathogen`: a test detects the pathogen). MeSH has no link between the two, but it names most infections
after their organism, and that naming is the evidence used here:

- the disease is an infection (tree C01) and one word of its heading, without the ending that makes a
  disease of a name (-iasis, -osis, -a, -us, ...: "Aspergillosis" -> "aspergill"; never an "-itis",
  which names an organ), begins the first or the last word of the headings of organisms (trees
  B01-B04, people left out): "Aspergillus", "Aspergillus fumigatus", "Mycobacterium tuberculosis";
- a name MeSH writes as an acronym ("HIV" of HIV Infections, HIV and HIV-1) is matched whole, however
  short, and is a name however many headings of other kinds (antigens, drugs) hold it;
- the word is a name, not an ordinary word MeSH writes in many headings of other kinds ("Respiratory"
  of Respiratory Tract Infections begins "Respiratory Syncytial Viruses", which names no cause of
  every respiratory infection: `ORDINARY_MIN`);
- of those organisms, the one chosen is the most specific that is, or is above, more than half of
  them in the MeSH trees (the genus "Aspergillus", not the species, nor the family above it); none when
  no organism is (the words "pneumonia" and "influenza" begin the names of unrelated bacteria and
  viruses).

The other way round, an organism the description names as what is looked for ("human papillomavirus
testing") brings the infection named after it (`infection_of`: Papillomavirus Infections), the heading
experts search such a question with: of the infections whose organism (as above) is the named one or,
failing that, the nearest above it, the one more than half of the others sit under in the trees.

Nothing here is a list of diseases or organisms: every name comes from MeSH.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.language.mesh_recognition import HUMANS_TREE, MeshVocabulary
from agent.language.mesh_tails import is_under
from agent.models import MeshDescriptor

_INFECTIONS = "C01"
_ORGANISMS = ("B01", "B02", "B03", "B04")
# the endings that turn an organism's name into a disease's or a species' ("aspergill-osis",
# "aspergill-us", "schistosom-iasis", "schistosom-a")
_ENDING = re.compile(r"(?:iasis|iases|iosis|oses|osis|ae|ia|a|us|um|i)$")
MIN_STEM = 5  # shorter stems begin unrelated names
_ACRONYM = re.compile(r"[A-Z]{2,6}")
SHARE = 0.5  # the organism chosen is, or is above, more than this share of those the stem names
# a word in at least this many headings outside organisms and infections is an ordinary word ("respiratory"
# 42, "urinary" 27, "bacterial" 38), not an organism's name ("tuberculosis" 2, "papillomavirus" 4)
ORDINARY_MIN = 10


def _stem(word: str) -> str | None:
    stem = _ENDING.sub("", word.lower())
    return stem if len(stem) >= MIN_STEM else None


def _acronym(word: str) -> str | None:
    """An organism's name written as an acronym ("HIV" of HIV Infections and HIV-1), lower case: a name
    matched whole, however short, never an ordinary word however many headings hold it."""
    return word.lower() if _ACRONYM.fullmatch(word) else None


def _names(key: str, stem: str, acronym: bool) -> bool:
    return key == stem if acronym else key.startswith(stem)


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
        if _organism_trees(trees):
            named = _words(row["heading"])
            for word in {named[0], named[-1]} if named else set():  # the genus or the species' epithet
                words.setdefault(word.lower(), set()).add(ui)
    return {word: frozenset(uis) for word, uis in words.items()}


@lru_cache(maxsize=4)
def _ordinary_words(vocabulary: MeshVocabulary) -> frozenset[str]:
    """Words (lower case) of at least `ORDINARY_MIN` headings outside organisms and infections."""
    counts: dict[str, int] = {}
    for row in vocabulary.file.records().values():
        trees = row.get("tree_numbers") or []
        if any(t.startswith((_INFECTIONS, *_ORGANISMS)) for t in trees):
            continue
        for word in {w.lower() for w in _words(row["heading"])}:
            counts[word] = counts.get(word, 0) + 1
    return frozenset(word for word, count in counts.items() if count >= ORDINARY_MIN)


def causative_organism(descriptor: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The organism an infection's heading is named after (see the module doc), or None."""
    if not any(t.startswith(_INFECTIONS) for t in descriptor.tree_numbers):
        return None
    index = _organism_words(vocabulary)
    ordinary = _ordinary_words(vocabulary)
    for word in _words(descriptor.heading):
        acronym = _acronym(word)
        stem = acronym or _stem(word)
        if stem is None or word.lower().endswith("itis") or (not acronym and word.lower() in ordinary):
            continue  # "-itis" names the inflamed organ ("Hepatitis"), not the organism
        uis = {ui for key, named in index.items() if _names(key, stem, bool(acronym)) for ui in named}
        found = _the_one_above_most([vocabulary.descriptor(ui) for ui in sorted(uis)])
        if found is not None:
            return _as_named(found, word, descriptor, vocabulary)
    return None


def _as_named(
    organism: MeshDescriptor, word: str, disease: MeshDescriptor, vocabulary: MeshVocabulary
) -> MeshDescriptor:
    """The genus, where the disease names the genus or names no species of its own: "Salmonella
    Infections" is Salmonella (not Salmonella enterica, above most of its serovars); "Malaria" is
    Plasmodium, since Plasmodium malariae is one of the species that cause it. A species stays where
    an infection heading above the disease names its genus ("Tuberculosis" under Mycobacterium
    Infections: Mycobacterium tuberculosis; "Cholera" under Vibrio Infections: Vibrio cholerae)."""
    genus_name = organism.heading.split()[0]
    if genus_name == organism.heading or organism.heading.casefold() in disease.heading.casefold():
        return organism  # a genus already ("Aspergillus"), or the species the disease names whole
    genus = next(
        (d for d in vocabulary.lookup(genus_name) if d.heading == genus_name and is_under(organism, d)), None
    )
    if genus is None:
        return organism
    if word.lower().startswith(genus_name.lower()[:MIN_STEM]):
        return genus  # the disease's word is the genus's name
    names_genus = any(genus_name in a.heading.split() for a in _infections_above(disease, vocabulary))
    return organism if names_genus else genus


def _infections_above(disease: MeshDescriptor, vocabulary: MeshVocabulary) -> list[MeshDescriptor]:
    """Every descriptor above the disease in its trees ("Tuberculosis, Pulmonary": Tuberculosis,
    Mycobacterium Infections, ...)."""
    above = []
    for number in disease.tree_numbers:
        parts = number.split(".")
        for depth in range(1, len(parts)):
            found = vocabulary.file.by_tree_number(".".join(parts[:depth]))
            if found is not None:
                above.append(found)
    return above


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


@lru_cache(maxsize=4)
def _infection_stems(vocabulary: MeshVocabulary) -> tuple[tuple[str, str, bool], ...]:
    """(stem of a heading word, infection ui, whether the word is an acronym matched whole) for every
    infection (tree C01): what `infection_of` reads."""
    stems = []
    for ui, row in vocabulary.file.records().items():
        if any(t.startswith(_INFECTIONS) for t in row.get("tree_numbers") or []):
            for word in _words(row["heading"]):
                acronym = _acronym(word)
                stem = acronym or _stem(word)
                if stem is not None and not word.lower().endswith("itis"):
                    stems.append((stem, ui, bool(acronym)))
    return tuple(stems)


def is_organism(descriptor: MeshDescriptor) -> bool:
    """Whether the descriptor is an organism (trees B01-B04), people left out."""
    return _organism_trees(descriptor.tree_numbers)


def _organism_trees(trees: list[str] | tuple[str, ...]) -> bool:
    return any(t.startswith(_ORGANISMS) for t in trees) and not any(t.startswith(HUMANS_TREE) for t in trees)


def infection_of(organism: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The infection named after an organism (see the module doc), or None."""
    if not is_organism(organism):
        return None
    named = [w.lower() for w in _words(organism.heading)]
    candidates = {
        ui
        for stem, ui, acronym in _infection_stems(vocabulary)
        if any(_names(w, stem, acronym) for w in named)
    }
    caused: list[tuple[int, MeshDescriptor]] = []
    for ui in sorted(candidates):
        infection = vocabulary.descriptor(ui)
        cause = causative_organism(infection, vocabulary)
        if cause is not None and is_under(organism, cause):
            caused.append((_depth(cause), infection))
    if not caused:
        return None
    nearest = max(depth for depth, _ in caused)
    infections = [infection for depth, infection in caused if depth == nearest]
    covering = [(sum(is_under(other, i) for other in infections), i) for i in infections]
    most = max(count for count, _ in covering)
    roots = [i for count, i in covering if count == most]
    return roots[0] if len(roots) == 1 and most > SHARE * len(infections) else None


def _depth(descriptor: MeshDescriptor) -> int:
    return max((t.count(".") for t in descriptor.tree_numbers), default=0)


def searched_beside(descriptor: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """What a searcher ORs beside a descriptor of this family: an infection's organism, an organism's
    infection (None for anything else)."""
    return causative_organism(descriptor, vocabulary) or infection_of(descriptor, vocabulary)
