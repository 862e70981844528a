"""The nouns of a qualitative review's phenomenon ("perceptions", "views") are words of its qualitative
block, not blocks of their own."""

from __future__ import annotations

from agent.keywords.concepts import build_concepts
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding


def test_perceptions_in_a_qualitative_review_join_the_qualitative_block(vocabulary: MeshVocabulary) -> None:
    """ "Experiences and perceptions of PrEP use ...: a qualitative evidence synthesis": "perceptions"
    had been a required block of MeSH's Perception (the psychology of the senses)."""
    description = (
        "Experiences and perceptions of pre-exposure prophylaxis use among young women in sub-Saharan "
        "Africa: a qualitative evidence synthesis"
    )
    result = build_concepts(
        Understanding(
            description=description,
            slots=Slots(
                output_target=["perceptions"],
                context=["pre-exposure prophylaxis use", "sub-Saharan Africa"],
                subject_population=["young women"],
            ),
        ),
        vocabulary,
    )
    headings = {t.mesh.heading for t in result.terms if t.mesh is not None}
    assert "Perception" not in headings and "Pre-Exposure Prophylaxis" in headings
    qualitative = next(
        t for t in result.terms if t.mesh is not None and t.mesh.heading == "Qualitative Research"
    )
    assert "perceptions" in {s.text for s in qualitative.synonyms}


def test_perceptions_outside_a_qualitative_review_stay_a_concept(vocabulary: MeshVocabulary) -> None:
    result = build_concepts(
        Understanding(
            description="Perceptions of pre-exposure prophylaxis among young women: a cross-sectional survey",
            slots=Slots(output_target=["perceptions"], context=["pre-exposure prophylaxis"]),
        ),
        vocabulary,
    )
    assert any(t.canonical.casefold() == "perceptions" for t in result.terms)
