"""A body part named with the participle of its injury ("a broken hip") is read as the injury's term."""

from __future__ import annotations

import pytest

from agent.language.injured_parts import injuries_by_their_nouns
from agent.language.mesh_recognition import MeshVocabulary
from tests.agent.keywords.test_concepts import concepts_of


@pytest.mark.parametrize(
    ("text", "turned"),
    [
        (
            "Rehabilitation after a broken hip in older people",
            "Rehabilitation after a hip fracture in older people",
        ),
        ("casting for a broken left wrist", "casting for a wrist fracture"),
        ("Return to sport after a torn ACL", "Return to sport after a ACL tear"),
        ("a dislocated shoulder", "a shoulder dislocation"),
        ("Physiotherapy for a sprained ankle", "Physiotherapy for a ankle sprain"),
    ],
)
def test_the_injury_is_written_by_its_noun_where_mesh_knows_the_term(
    vocabulary: MeshVocabulary, text: str, turned: str
) -> None:
    assert injuries_by_their_nouns(text, vocabulary) == turned


@pytest.mark.parametrize(
    "text", ["Broken promises in health policy", "torn between two options", "broken glass"]
)
def test_anything_mesh_does_not_know_stays_as_written(vocabulary: MeshVocabulary, text: str) -> None:
    assert injuries_by_their_nouns(text, vocabulary) == text
    assert injuries_by_their_nouns(text, None) == text


def test_the_keywords_search_the_injury_by_its_heading(vocabulary: MeshVocabulary) -> None:
    result = concepts_of(
        vocabulary,
        "Does melatonin prevent delirium in older people having surgery for a broken hip?",
        output_target=["delirium", "broken hip"],
        context=["melatonin"],
    )
    blocks = [[t.mesh.heading for t in result.terms if t.concept == c.id and t.mesh] for c in result.concepts]
    assert ["Hip Fractures"] in blocks and ["Delirium"] in blocks  # two concepts, not one OR
