"""The organism an infection is named after, from MeSH's own names and trees."""

from __future__ import annotations

import pytest

from agent.language.mesh_organisms import causative_organism, infection_of
from agent.language.mesh_recognition import MeshVocabulary


@pytest.mark.parametrize(
    ("disease", "organism"),
    [
        ("Aspergillosis", "Aspergillus"),  # the genus, not one of its species
        ("Pulmonary Aspergillosis", "Aspergillus"),  # any word of the heading may carry the name
        ("Tuberculosis, Pulmonary", "Mycobacterium tuberculosis"),
        ("Helicobacter Infections", "Helicobacter"),  # not the family above it
        # the genus the disease names, not the species above most of its serovars
        ("Salmonella Infections", "Salmonella"),
        # a species' epithet names the disease, but several species cause it and no infection heading
        # above it names the genus: the genus, not Plasmodium malariae
        ("Malaria", "Plasmodium"),
        # ... while an infection heading above names the genus (Vibrio Infections): the species
        ("Cholera", "Vibrio cholerae"),
        ("Escherichia coli Infections", "Escherichia coli"),  # the species the disease names whole
        # a name written as an acronym is matched whole, however short and however many other headings
        # (antigens, drugs) hold it
        ("HIV Infections", "HIV"),
    ],
)
def test_an_infection_names_its_organism(vocabulary: MeshVocabulary, disease: str, organism: str) -> None:
    (descriptor,) = vocabulary.lookup(disease)[:1]
    found = causative_organism(descriptor, vocabulary)
    assert found is not None and found.heading == organism


@pytest.mark.parametrize(
    "disease",
    [
        "Pneumonia",
        "Meningitis, Bacterial",
        "Hepatitis C",
        "Diabetes Mellitus",
        "Endometriosis",
        # "respiratory" is an ordinary word of many headings, though it begins Respiratory Syncytial Viruses
        "Respiratory Tract Infections",
    ],
)
def test_no_organism_when_the_name_begins_unrelated_ones_or_no_infection(
    vocabulary: MeshVocabulary, disease: str
) -> None:
    # "pneumon-" begins Klebsiella pneumoniae and Mycoplasma pneumoniae, none above the others; "bacterial"
    # stands inside "Atypical Bacterial Forms", a kind of organism; "hepatitis" names an organ
    (descriptor,) = vocabulary.lookup(disease)[:1]
    assert causative_organism(descriptor, vocabulary) is None


@pytest.mark.parametrize(
    ("organism", "infection"),
    [
        ("Human Papillomavirus Viruses", "Papillomavirus Infections"),  # named after the family above it
        ("Mycobacterium tuberculosis", "Tuberculosis"),  # not Mycobacterium Infections, named after the genus
        ("Aspergillus fumigatus", "Aspergillosis"),  # a species: the infection named after its genus
        ("Helicobacter pylori", "Helicobacter Infections"),
        ("Cytomegalovirus", "Cytomegalovirus Infections"),
        ("HIV", "HIV Infections"),  # an acronym ("people living with HIV": the infection is meant)
        ("HIV-1", "HIV Infections"),
    ],
)
def test_an_organism_names_its_infection(vocabulary: MeshVocabulary, organism: str, infection: str) -> None:
    (descriptor,) = vocabulary.lookup(organism)[:1]
    found = infection_of(descriptor, vocabulary)
    assert found is not None and found.heading == infection


@pytest.mark.parametrize("organism", ["Mice", "Dogs", "Staphylococcus aureus"])
def test_no_infection_for_an_animal_or_an_organism_no_infection_is_named_after(
    vocabulary: MeshVocabulary, organism: str
) -> None:
    # "Staphylococcal Infections" writes an adjective ("staphylococcal") that begins no organism's name
    (descriptor,) = vocabulary.lookup(organism)[:1]
    assert infection_of(descriptor, vocabulary) is None
