"""A hyphenated compound before a condition that MeSH names with the condition's class word
(agent.language.mesh_compounds)."""

from __future__ import annotations

import pytest

from agent.keywords.concepts import build_concepts
from agent.language.mesh_compounds import named_with_its_class
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        # the compound with the kind's own class word ("Infections") is an entry term
        ("catheter-associated urinary tract infections", "Catheter-Related Infections"),
        # with an ancestor's class word: Pneumonia is a Respiratory Tract Infection
        ("community-acquired pneumonia", "Community-Acquired Infections"),
    ],
)
def test_a_compound_before_a_kind_names_the_class_term(
    vocabulary: MeshVocabulary, text: str, heading: str
) -> None:
    found = named_with_its_class(text, vocabulary.recognize(text, complete=True), vocabulary)
    assert found is not None
    assert (found.text, found.descriptor.heading) == (text, heading)


@pytest.mark.parametrize(
    "text",
    [
        "ventilator-associated pneumonia",  # MeSH names the whole: nothing before a match
        "cancer-associated venous thromboembolism",  # no "cancer-associated" term of a class
        "alcohol-related hospital admissions",  # no condition's class
    ],
)
def test_other_compounds_name_nothing_more(vocabulary: MeshVocabulary, text: str) -> None:
    assert named_with_its_class(text, vocabulary.recognize(text, complete=True), vocabulary) is None


def test_the_class_term_is_a_block_anded_with_the_kind(vocabulary: MeshVocabulary) -> None:
    description = "Lung ultrasound for community-acquired pneumonia in children"
    slots = Slots(method_measurement=["Lung ultrasound"], context=["community-acquired pneumonia"])
    result = build_concepts(Understanding(description=description, slots=slots), vocabulary)
    concept_of = {t.mesh.heading: t.concept for t in result.terms if t.mesh}
    assert concept_of["Community-Acquired Infections"] != concept_of["Pneumonia"]
    assert "Residence Characteristics" not in concept_of  # "community" is no concept of its own
