"""A resistance written as a compound before an organism names MeSH's Drug Resistance heading."""

from __future__ import annotations

import pytest

from agent.language.mesh_recognition import MeshVocabulary
from agent.language.mesh_resistance import is_resistance_of_organism, resistance_before_organism


@pytest.mark.parametrize(
    ("text", "compound", "heading"),
    [
        ("antibiotic-resistant E. coli", "antibiotic-resistant", "Drug Resistance, Bacterial"),
        ("antimicrobial-resistant Escherichia coli", "antimicrobial-resistant", "Drug Resistance, Bacterial"),
        ("azole-resistant Candida albicans", "azole-resistant", "Drug Resistance, Fungal"),
        ("vancomycin-resistant Enterococcus", "vancomycin-resistant", "Vancomycin Resistance"),
        (
            "multidrug-resistant Mycobacterium tuberculosis",
            "multidrug-resistant",
            "Drug Resistance, Multiple, Bacterial",
        ),
    ],
)
def test_a_drug_resistant_organism_names_the_resistance_of_its_kingdom_or_drug(
    vocabulary: MeshVocabulary, text: str, compound: str, heading: str
) -> None:
    found = resistance_before_organism(text, vocabulary.recognize(text), vocabulary)
    assert found is not None
    assert (found.text, found.descriptor.heading) == (compound, heading)
    assert is_resistance_of_organism(found.text, found.descriptor)


@pytest.mark.parametrize(
    "text",
    [
        "heat-resistant E. coli",
        "drug-resistant epilepsy",
        "antibiotic use in E. coli",
        "cisplatin-resistant mice",
    ],
)
def test_no_drug_or_no_organism_names_no_drug_resistance(vocabulary: MeshVocabulary, text: str) -> None:
    """ "heat" is no drug; epilepsy is no organism (and MeSH names it whole); mice are no microorganism
    MeSH names a drug resistance of."""
    assert resistance_before_organism(text, vocabulary.recognize(text), vocabulary) is None
