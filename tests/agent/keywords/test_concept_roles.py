"""A concept's role in the search, and whether the query requires it."""

from __future__ import annotations

import pytest

from agent.keywords.concept_roles import decide_required
from agent.language.mesh_recognition import MeshVocabulary, role_of, vocabulary_for
from agent.models import Concept, ConceptRole
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH


@pytest.fixture(scope="module")
def vocabulary() -> MeshVocabulary:
    return vocabulary_for(MeshFile(EMBEDDED_MESH))


def test_decide_required_promotes_in_order() -> None:
    concepts = [
        Concept(id="a", label="a", role=ConceptRole.SETTING),
        Concept(id="b", label="b", role=ConceptRole.OUTCOME),
        Concept(id="c", label="c", role=ConceptRole.METHOD),
    ]
    decide_required(concepts)
    assert [c.required for c in concepts] == [False, True, True]


def test_role_of_descriptors(vocabulary: MeshVocabulary) -> None:
    def role(heading: str) -> ConceptRole:
        return role_of(vocabulary.lookup(heading)[0])

    assert role("Epilepsy") is ConceptRole.CONDITION
    assert role("Metformin") is ConceptRole.INTERVENTION
    assert role("Electrocorticography") is ConceptRole.METHOD
    assert role("Child") is ConceptRole.POPULATION
    assert role("Mycobacterium tuberculosis") is ConceptRole.CONDITION  # a pathogen
    assert role("Serum") is ConceptRole.ANATOMY


def test_an_algorithm_is_required_when_nothing_else_names_what_is_done() -> None:
    concepts = [
        Concept(id="chatbot", label="chatbot", role=ConceptRole.ALGORITHM),
        Concept(id="students", label="university students", role=ConceptRole.POPULATION),
        Concept(id="depression", label="depressive symptoms", role=ConceptRole.OUTCOME),
    ]
    decide_required(concepts)
    assert [c.required for c in concepts] == [True, True, True]
    # beside a method the user applies it to, the algorithm only narrows
    concepts = [
        Concept(id="rl", label="reinforcement learning", role=ConceptRole.ALGORITHM),
        Concept(id="grasping", label="robotic grasping", role=ConceptRole.METHOD),
        Concept(id="objects", label="deformable objects", role=ConceptRole.POPULATION),
    ]
    decide_required(concepts)
    assert [c.required for c in concepts] == [False, True, True]
