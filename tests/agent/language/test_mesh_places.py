"""A place said with another noun of habitation than MeSH writes is the place MeSH names."""

from __future__ import annotations

import pytest

from agent.language.mesh_places import place_of_people
from agent.language.mesh_recognition import MeshVocabulary


@pytest.mark.parametrize(
    ("phrase", "heading"),
    [
        ("rural areas", "Rural Population"),  # MeSH writes "Rural Communities", "Rural Residence"
        ("rural settings", "Rural Population"),
        ("Rural Regions", "Rural Population"),
        ("urban areas", "Urban Population"),  # by "Urban Residence"
    ],
)
def test_a_place_said_with_another_noun_of_habitation_is_the_place_mesh_names(
    vocabulary: MeshVocabulary, phrase: str, heading: str
) -> None:
    matches = place_of_people(phrase, vocabulary)
    assert [m.descriptor.heading for m in matches] == [heading]
    assert (matches[0].start, matches[0].end) == (0, len(phrase))


@pytest.mark.parametrize(
    "phrase",
    [
        "rural communities",  # MeSH's own term: exact recognition's job
        "remote areas",  # no heading opens with "remote" and writes it with such a noun
        "therapeutic areas",  # Therapeutic Community is a psychotherapy, no place or people
        "low-income areas",  # "Low-Income Population" is an entry term of Poverty, a heading of its own
        "rural health",  # no noun of habitation
        "rural and remote areas",  # more than the two words of one place
    ],
)
def test_no_place_where_mesh_names_none_by_that_modifier(vocabulary: MeshVocabulary, phrase: str) -> None:
    assert place_of_people(phrase, vocabulary) == []
