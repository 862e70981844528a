"""A resistance written as a compound before an organism: "antibiotic-resistant E. coli".

"<drug>-resistant" before an organism says what the organism withstands; the drug is no concept of the
search (the papers are about the bacteria, not about giving antibiotics), the resistance is. MeSH files
it under Drug Resistance: a heading of the drug's own where MeSH has one ("vancomycin-resistant":
Vancomycin Resistance), else the kind of the organism's kingdom (Drug Resistance, Bacterial for a
bacterium, Fungal, Viral), which searchers use for "antibiotic-resistant E. coli" and "carbapenem-resistant
Klebsiella". Recognition by whole words read the drug alone (Anti-Bacterial Agents) or nothing
("antimicrobial"). Names MeSH pre-coordinates whole ("Methicillin-Resistant Staphylococcus aureus") are
recognised before this is asked.

The kind is found in MeSH's trees, not listed: the kinds of Drug Resistance, Microbial are named by an
adjective of the kingdom ("Bacterial", "Fungal", "Viral"), and the kingdom is the ancestor of the
organism whose heading that adjective's stem begins ("bacteri-": Bacteria; "fung-": Fungi; "vir-":
Viruses).
"""

from __future__ import annotations

import re

from agent.language.mesh_organisms import is_organism
from agent.language.mesh_recognition import MeshMatch, MeshVocabulary
from agent.language.mesh_tails import is_under
from agent.models import MeshDescriptor

_RESISTANT_BEFORE = re.compile(
    r"(?P<compound>(?P<drug>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*?)-resistant)\s+$"
)
_MICROBIAL = "drug resistance, microbial"  # MeSH's resistance of microorganisms, above its kinds
_RESISTANCE_TREES = ("G06.225", "G07.690.773.984")  # Drug Resistance, Microbial; Drug Resistance
_SUBSTANCES = "D"  # Chemicals and Drugs
_AGENT_NOUNS = ("agents", "drugs")  # how MeSH names a class of substances by what they do
_ADJECTIVE_ENDING = re.compile(r"(?:al|ic)$")  # "Bacterial", "Fungal", "Viral": the kingdom's stem before


def _lineage(descriptor: MeshDescriptor, vocabulary: MeshVocabulary) -> list[MeshDescriptor]:
    """Every ancestor of the descriptor in its trees, to the top."""
    found: dict[str, MeshDescriptor] = {}
    for number in descriptor.tree_numbers:
        while "." in number:
            number = number.rsplit(".", 1)[0]
            if (above := vocabulary.file.by_tree_number(number)) is not None:
                found[above.ui] = above
    return list(found.values())


def _resistance_of_kingdom(organism: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The kind of Drug Resistance, Microbial named by the adjective of one of the organism's ancestors
    (E. coli, under Bacteria: Drug Resistance, Bacterial)."""
    microbial = vocabulary.lookup(_MICROBIAL)
    if len(microbial) != 1:
        return None
    kinds = [d for d in vocabulary.children(microbial[0]) if d.heading.count(",") == 1]
    above = [a.heading.casefold() for a in _lineage(organism, vocabulary)]
    for kind in kinds:
        stem = _ADJECTIVE_ENDING.sub("", kind.heading.rsplit(", ", 1)[1].casefold())
        if len(stem) >= 3 and any(heading.startswith(stem) for heading in above):
            return kind
    return None  # no microorganism MeSH names a resistance of: "cisplatin-resistant" mice are none


def _resistance_to(drug: str, vocabulary: MeshVocabulary) -> MeshDescriptor | None:
    """The heading MeSH names the resistance to the drug by ("vancomycin resistance"), if one."""
    found = [
        d
        for d in vocabulary.lookup(f"{drug} resistance")
        if any(t.startswith(_RESISTANCE_TREES) for t in d.tree_numbers)
    ]
    return found[0] if len(found) == 1 else None


def _names_a_drug(word: str, vocabulary: MeshVocabulary) -> bool:
    """True for a substance ("carbapenem", "drug") or a class of agents MeSH names by the word
    ("antimicrobial": Antimicrobial Agents); "heat-resistant" names no drug."""
    named = [
        *vocabulary.lookup(word),
        *(d for noun in _AGENT_NOUNS for d in vocabulary.lookup(f"{word} {noun}")),
    ]
    return any(t.startswith(_SUBSTANCES) for d in named for t in d.tree_numbers)


def _both(own: MeshDescriptor, kind: MeshDescriptor, vocabulary: MeshVocabulary) -> MeshDescriptor:
    """The kind of the drug's resistance that is also the kingdom's ("multidrug-resistant" bacteria:
    Drug Resistance, Multiple, Bacterial), else the drug's own."""
    return next((d for d in vocabulary.children(own) if is_under(d, kind)), own)


def resistance_before_organism(
    text: str, matches: list[MeshMatch], vocabulary: MeshVocabulary
) -> MeshMatch | None:
    """The resistance "<drug>-resistant" names before a matched organism, as a match of the compound
    ("antibiotic-resistant E. coli": Drug Resistance, Bacterial over "antibiotic-resistant"), or None."""
    for match in matches:
        before = _RESISTANT_BEFORE.search(text[: match.start])
        if before is None or not is_organism(match.descriptor):
            continue
        drug = before.group("drug")
        own = _resistance_to(drug, vocabulary)
        if own is None and not _names_a_drug(drug, vocabulary):
            continue
        kind = _resistance_of_kingdom(match.descriptor, vocabulary)
        if own is None or kind is None:
            chosen = own or kind
        else:
            chosen = kind if is_under(kind, own) else _both(own, kind, vocabulary)
        if chosen is not None:
            start, end = before.start("compound"), before.end("compound")
            return MeshMatch(text[start:end], start, end, chosen, "entry term")
    return None


def is_resistance_of_organism(written: str, descriptor: MeshDescriptor | None) -> bool:
    """True for a term `resistance_before_organism` made: the compound as written ("antibiotic-resistant")
    with a heading of resistance. It restricts the organism after it, as a site restricts a lesion, so
    the search needs it: the papers are about resistant bacteria, not any E. coli."""
    return (
        descriptor is not None
        and written.casefold().endswith("-resistant")
        and any(t.startswith(_RESISTANCE_TREES) for t in descriptor.tree_numbers)
    )
