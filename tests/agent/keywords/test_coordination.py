"""Coordinated phrases: alternatives, and the head or modifier they share where MeSH names the result."""

from __future__ import annotations

import pytest

from agent.keywords.concepts import build_concepts
from agent.keywords.coordination import alternatives, distribute
from agent.language.mesh_recognition import MeshVocabulary, vocabulary_for
from agent.models import ConceptRole, Slots, Understanding
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH


@pytest.fixture(scope="module")
def vocabulary() -> MeshVocabulary:
    return vocabulary_for(MeshFile(EMBEDDED_MESH))


def test_a_name_mesh_writes_with_and_is_not_cut(vocabulary: MeshVocabulary) -> None:
    assert alternatives("head and neck cancer", vocabulary) == ["head and neck cancer"]
    assert alternatives("bursa, tendon or labrum", vocabulary) == ["bursa", "tendon", "labrum"]
    assert alternatives("head and neck cancer", None) == ["head", "neck cancer"]


@pytest.mark.parametrize(
    ("pieces", "shared"),
    [
        (["hip", "knee osteoarthritis"], ["hip osteoarthritis", "knee osteoarthritis"]),  # the head
        (["hepatic fibrosis", "cirrhosis"], ["hepatic fibrosis", "hepatic cirrhosis"]),  # the modifier
        # MeSH names neither "chronic portal vein thrombosis" nor "chronic liver disease thrombosis"
        (
            ["chronic liver disease", "portal vein thrombosis"],
            ["chronic liver disease", "portal vein thrombosis"],
        ),
        (["nausea", "vomiting"], ["nausea", "vomiting"]),
    ],
)
def test_a_shared_word_goes_only_where_mesh_names_a_narrower_descriptor(
    vocabulary: MeshVocabulary, pieces: list[str], shared: list[str]
) -> None:
    assert distribute(pieces, vocabulary) == shared


def test_phrases_listed_together_share_their_head_and_make_one_concept(vocabulary: MeshVocabulary) -> None:
    # the understanding may put the two sides of one list in different slots
    result = build_concepts(
        Understanding(
            description="Interventions for hip and knee osteoarthritis",
            slots=Slots(output_target=["knee osteoarthritis"], context=["hip"]),
        ),
        vocabulary,
    )
    # one condition (and the site block site_and_lesion adds beside it)
    assert [c.role for c in result.concepts] == [ConceptRole.CONDITION, ConceptRole.ANATOMY]
    condition = result.concepts[0].id
    assert sorted(t.mesh.heading for t in result.terms if t.mesh and t.concept == condition) == [
        "Osteoarthritis, Hip",
        "Osteoarthritis, Knee",
    ]
